"""The command line: ``mahjong-battle`` and its subcommands, terminal play, the text board.

``main`` runs a command line and returns its exit code; ``entry_point`` is the
installed script. The window (``battle.ui``) opens when no subcommand is given.

This module imports nothing of the game: the installed script imports it first, and the
command's modules load inside ``entry_point``, where a Ctrl-C (the loading takes seconds
on a busy machine) ends the command with one line and code 130, not an import's traceback.
"""

from __future__ import annotations

from collections.abc import Sequence


def entry_point() -> None:
    """The installed ``mahjong-battle`` command."""
    try:
        from battle.cli.command_line import entry_point as run_command

        run_command()
    except KeyboardInterrupt:  # one a command's work does not take itself (``battle.cli.command_line``)
        from battle.cli.interruption import end_interrupted

        end_interrupted()


def main(argv: Sequence[str] | None = None, *, started: float | None = None) -> int:
    """Run one command line; returns its exit code (``battle.cli.command_line.main``)."""
    from battle.cli.command_line import main as run_command

    return run_command(argv, started=started)


__all__ = ["entry_point", "main"]
