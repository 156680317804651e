"""Dask workers for the solver pool that stay with their scheduler: ``dask worker`` started again each time
it ends.

    python -m battle.players.pool.dask_worker_keeper tcp://HOST:8786 --nworkers 4 --nthreads 1

Everything after the scheduler's address goes to ``dask worker`` as it is. A Dask worker ends when its
scheduler goes away (distributed 2022.5 took out the reconnection, dask/distributed#6391), and one
started while no scheduler answers waits for it; so a worker started again at once waits for the
scheduler to come back and joins it then. Without this, a scheduler restarted left its cluster
without workers until somebody started them by hand (71 s in the measurement that found it). A worker
that ends within ``QUICK_END`` seconds of its start (a bad option, a missing package) is started
again after a wait that doubles up to ``LONGEST_WAIT``, so a mistake costs a line a minute, not a
loop. SIGTERM or Ctrl-C ends the worker and this with it. One line on standard error a restart.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from types import FrameType

FIRST_WAIT = 1.0
"""Seconds between a worker's end and its next start."""
LONGEST_WAIT = 60.0
"""The wait after quick ends doubles up to this."""
QUICK_END = 10.0
"""A worker that ran less than this many seconds ended for a reason of its own, not its scheduler's."""
USAGE = "usage: python -m battle.players.pool.dask_worker_keeper SCHEDULER-ADDRESS [dask worker options...]"


def next_wait(wait: float, ran: float) -> float:
    """The wait before the next start, after a worker that ran ``ran`` seconds and the last ``wait``."""
    return min(LONGEST_WAIT, 2 * wait) if ran < QUICK_END else FIRST_WAIT


def worker_command(arguments: Sequence[str]) -> list[str]:
    """``dask worker`` with ``arguments``, on this interpreter (the environment that has the solver)."""
    return [sys.executable, "-m", "distributed.cli.dask_worker", *arguments]


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments or arguments[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    ending = threading.Event()
    child: list[subprocess.Popen[bytes]] = []

    def end(signum: int, frame: FrameType | None) -> None:
        ending.set()
        if child and child[0].poll() is None:
            child[0].send_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, end)
    signal.signal(signal.SIGINT, end)
    wait = FIRST_WAIT
    while not ending.is_set():
        started = time.monotonic()
        child[:] = [subprocess.Popen(worker_command(arguments))]
        code = child[0].wait()
        if ending.is_set():
            break
        ran = time.monotonic() - started
        wait = next_wait(wait, ran)
        print(
            f"the solver's dask worker for {arguments[0]} ended (exit {code}) after {ran:.0f} s; "
            f"it starts again in {wait:.0f} s and waits for its scheduler",
            file=sys.stderr,
            flush=True,
        )
        ending.wait(wait)
    return 0


if __name__ == "__main__":
    sys.exit(main())
