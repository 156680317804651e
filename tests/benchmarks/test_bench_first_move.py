"""benchmarks/bench_solver.py's FirstMoveClock: the "first root move" column of ``--big``.

The clock reads a search's status from another thread, so it must not take a status
left over from the previous search for the end of this one's first move.
"""

from __future__ import annotations

import threading
import time

from solver.engine import FULL_DEPTH
from solver.results import SearchStatus
from tests.benchmark_scripts import load_script


def status(move_number: int, nodes: int, depth: int = FULL_DEPTH) -> SearchStatus:
    return SearchStatus(nodes, 0.0, depth, move_number, 5, None, None, None)


class Script:
    """Statuses handed out one per poll; the last one repeats. Signals when all were read."""

    def __init__(self, statuses: list[SearchStatus]) -> None:
        self._statuses = statuses
        self._read = 0
        self.all_read = threading.Event()

    def __call__(self) -> SearchStatus:
        current = self._statuses[min(self._read, len(self._statuses) - 1)]
        self._read += 1
        if self._read >= len(self._statuses):
            self.all_read.set()
        return current


def run(statuses: list[SearchStatus]):  # noqa: ANN201 - the clock
    bench = load_script("bench_solver")
    script = Script(statuses)
    with bench.FirstMoveClock(script, interval=0.001) as clock:
        # Until every status was read, or the clock stopped polling at the first move's end.
        deadline = time.monotonic() + 5
        while not script.all_read.wait(0.01) and clock.seconds is None:
            assert time.monotonic() < deadline, "the clock stopped polling"
    return clock


def test_the_first_move_ends_when_the_second_begins() -> None:
    # A stale status (the previous search's third move), the reset, then this search.
    clock = run([status(3, 900), status(0, 0), status(1, 10), status(1, 20), status(2, 30), status(3, 40)])
    assert clock.nodes == 30
    assert clock.seconds is not None
    assert clock.share(2 * clock.seconds) == f"{clock.seconds:.1f} s (50%)"


def test_a_stale_status_is_not_taken_for_this_search() -> None:
    clock = run([status(3, 900), status(4, 950), status(0, 0)])
    assert clock.seconds is None and clock.nodes is None
    assert clock.share(1.0) == "-"


def test_depth_limited_iterations_do_not_count() -> None:
    clock = run([status(1, 5, depth=4), status(2, 9, depth=4), status(1, 12), status(2, 40)])
    assert clock.nodes == 40
