"""A short game's review through a real ``serve`` on a starved machine: quiet, beside two busy loops,
and beside two busy loops with every solver worker throttled to a sixteenth of a core.

    python benchmarks/online_attack.py --starved-review          every row, 3 reviews each
    python benchmarks/starved_review.py --reviews 1 --rows quiet  one row, one review

Each row runs a fresh ``mahjong-battle serve --processes 1 --solver-workers 2`` of this tree on
127.0.0.1, its workers' kernels loaded first. A review: two players (``tests.online_server.Client``)
play a friends' game of two moves on a deal of their own, the second player resigns, the first asks
its ``review`` and reads ``review_result`` until it is ``done`` or ``failed``. The row gives each
review's seconds from the ask to that answer, its outcome, and the CPU seconds the workers spent
meanwhile (a throttled worker is stopped 0.45 s and let run 0.03 s, by ``SIGSTOP``/``SIGCONT``: the
machine's share, not the server's, as ``tests/players/test_local_workers.py`` starves one).

The promise measured: a unit ends by its own budget of nodes, never by the clock, so a review on a
starved machine finishes later and is never told ``failed`` for being slow.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree's tests package (its server and client) and battle
sys.path.insert(0, str(Path(__file__).resolve().parent))  # busy_loops

import psutil  # noqa: E402
from busy_loops import spinning  # noqa: E402

from tests.online_server import Client, ServerProcess, a_legal_move  # noqa: E402

WAIT = 900.0
"""The longest one review is waited for: a sixteenth of a core makes seconds into minutes."""
STOPPED, RUNNING = 0.45, 0.03
"""A throttled worker's seconds stopped and let run, in turn: a sixteenth of a core."""
ROWS = {
    "quiet": (0, False),
    "busy": (2, False),
    "starved": (2, True),
}
"""A row's busy loops and whether its workers are throttled."""
WORDS = {
    "quiet": "quiet",
    "busy": "beside two busy loops",
    "starved": "beside two busy loops, every worker at 1/16 of a core",
}


def workers_of(server: ServerProcess) -> list[psutil.Process]:
    """The server's solver workers: every process it started (its resource tracker throttled too is harmless)."""
    return psutil.Process(server.pid).children(recursive=True)


def cpu_of(workers: list[psutil.Process]) -> float:
    """User and system CPU seconds of ``workers`` so far."""
    return sum(worker.cpu_times().user + worker.cpu_times().system for worker in workers)


@contextlib.contextmanager
def throttled(workers: list[psutil.Process], on: bool) -> Iterator[None]:
    """Every one of ``workers`` stopped ``STOPPED`` s and let run ``RUNNING`` s, in turn, while the block runs."""
    done = threading.Event()

    def each(number: signal.Signals) -> None:
        for worker in workers:
            with contextlib.suppress(psutil.NoSuchProcess):
                worker.send_signal(number)

    def throttle() -> None:
        while not done.is_set():
            each(signal.SIGSTOP)
            done.wait(STOPPED)
            each(signal.SIGCONT)
            done.wait(RUNNING)

    thread = threading.Thread(target=throttle, daemon=True)
    if on:
        thread.start()
    try:
        yield
    finally:
        done.set()
        if on:
            thread.join()
        each(signal.SIGCONT)


def kernels_loaded(server: ServerProcess) -> None:
    """Back once ``/stats`` says both workers are ready (their kernels loaded)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if int(server.stats().get("solver_workers_ready", "0")) >= 2:
            return
        time.sleep(0.2)
    raise SystemExit("the server's solver workers did not load their kernels")


def review_of_a_short_game(server: ServerProcess, deal: int) -> tuple[float, str]:
    """A two-move game of ``deal`` played, resigned and its review asked: seconds to the answer, and its status."""
    host = Client(server.url)
    host.send({"type": "create", "deal": {"number": deal}, "first": "creator"})
    created = host.expect("created")
    state = host.expect("state")
    guest = Client(server.url)
    guest.send({"type": "join", "code": created["invite"]})
    guest.expect("state")
    for number, mover in enumerate((host, guest)):
        mover.send({"type": "move", "move": a_legal_move(state), "id": f"m{number}"})
        moved = mover.expect("moved")
        state = {**state, "moves": [*state["moves"], moved["move"]]}
    guest.send({"type": "resign"})
    while host.expect("state")["status"] != "finished":
        pass
    guest.close()
    began = time.monotonic()
    host.send({"type": "review"})
    while (answer := host.expect("review_result", timeout=WAIT))["status"] == "queued":
        pass
    host.close()
    return time.monotonic() - began, str(answer["status"])


def row(name: str, reviews: int) -> str:
    busy, starve = ROWS[name]
    seconds: list[float] = []
    outcomes: list[str] = []
    with (
        tempfile.TemporaryDirectory(prefix="starved-review-") as folder,
        ServerProcess(Path(folder), "--processes", "1", "--solver-workers", "2") as server,
    ):
        kernels_loaded(server)
        workers = workers_of(server)
        cpu_before = cpu_of(workers)
        load = []
        with spinning(busy), throttled(workers, starve):
            for number in range(reviews):
                took, status = review_of_a_short_game(server, 300 + number)
                seconds.append(took)
                outcomes.append(status)
                load.append(os.getloadavg()[0])
                print(f"{name}: review {number + 1} {status} in {took:.1f} s", file=sys.stderr, flush=True)
        cpu = cpu_of(workers) - cpu_before
    shown = ", ".join(f"{value:.1f}" for value in seconds)
    done = sum(outcome == "done" for outcome in outcomes)
    return (
        f"| {WORDS[name]} | {max(load):.1f} | {shown} | {done} of {len(outcomes)} done, "
        f"{len(outcomes) - done} failed | {cpu:.1f} |"
    )


HEADER = "\n".join(
    (
        "| machine | load (1 min) | seconds from the ask to the answer | outcome | workers' CPU s |",
        "|---|---:|---|---|---:|",
    )
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reviews", type=int, default=3, help="reviews a row, one after the other (3)")
    parser.add_argument("--rows", default=",".join(ROWS), help=f"of {', '.join(ROWS)} (default all, in that order)")
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.rows.split(",") if name.strip()]
    unknown = [name for name in names if name not in ROWS]
    if unknown:
        parser.error(f"--rows: no row {unknown[0]!r} ({', '.join(ROWS)})")
    print("## A short game's review on a starved machine\n")
    print(f"Command: `{shlex.join([sys.executable, *sys.argv])}`  ")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, load average {load} at the start\n", flush=True)
    print(HEADER, flush=True)
    for name in names:
        print(row(name, args.reviews), flush=True)


if __name__ == "__main__":
    main()
