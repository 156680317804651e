"""What the fork server of ``serve --processes N`` runs in each game process it forks: this
program's ``serve`` (``battle.online.server.processes.fork_server`` knows processes, not commands).
``battle.cli.fork_server_program`` is the fork server as a program of its own, started in place
of one that died.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from battle.online.server.processes.fork_server import ForkServer, Run
from battle.online.server.processes.supervisor import SUPERVISOR_VARIABLE

PRELOADED = (
    "battle.cli.command_line",
    "battle.cli.online_commands",
    "battle.cli.serve_claim",
    "battle.online.server.shell.game_server",
    "battle.online.server.processes.tuning",
    "battle.online.server.rooms.group_commit",
    "battle.online.server.rooms.store",
)
"""What a game process imports before it serves (the rest of the server comes with these): all a
game process without the solver imports, so its start imports nothing (process 0 imports the
solver's pool when it runs one)."""
REPLACEMENT = (sys.executable, "-m", "battle.cli.fork_server_program")
"""The fork server as a program, given its end of the control socket and the supervisor's id."""

CommandLine = Callable[[Sequence[str]], int]
"""This program's command line (``battle.cli.command_line.main``): words to an exit code."""


def fork_server(command_line: CommandLine, closing: Iterable[Any]) -> ForkServer:
    """The supervisor's fork server, forked from it (``ForkServer.forked``); its game processes run
    ``command_line``."""
    return ForkServer.forked(game_process(command_line), PRELOADED, REPLACEMENT, closing)


def game_process(command_line: CommandLine) -> Run:
    """What a forked game process runs: its ``serve`` words through ``command_line``, as ``python -m
    battle`` would run them; its exit code."""

    def run(arguments: list[str]) -> int:
        from battle.cli.interruption import EXIT_INTERRUPTED

        # ``serve --process-of`` checks that its parent is the one it was started by: the fork server
        os.environ[SUPERVISOR_VARIABLE] = str(os.getppid())
        try:
            return command_line(arguments)
        except SystemExit as ended:  # a usage error exits from the parser
            return ended.code if isinstance(ended.code, int) else 1
        except KeyboardInterrupt:
            return EXIT_INTERRUPTED

    return run
