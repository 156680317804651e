"""``python -m battle.cli.fork_server_program FD PID``: the fork server of ``serve --processes N`` as
a program of its own, started in place of one that died (``battle.cli.serve_forks``). FD is its
end of the supervisor's control socket, PID the supervisor's process id: it ends when that does.
"""

from __future__ import annotations

import signal
import socket
import sys

from battle.cli.command_line import main
from battle.cli.serve_forks import PRELOADED, game_process
from battle.online.server.processes.fork_server import die_with, serve_forks

if __name__ == "__main__":
    die_with(int(sys.argv[2]), signal.SIGKILL)
    sys.exit(serve_forks(socket.socket(fileno=int(sys.argv[1])), game_process(main), PRELOADED))
