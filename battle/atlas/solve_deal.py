"""The survey's one task: solve a numbered deal from its start, on the solver this thread keeps.

A worker keeps one ``battle.players.DealSolver`` per thread between tasks (``_solver``):
numba's kernels load once per process, and a table is allocated once rather than per deal
(a 2 GiB table costs 2-2.5 s to touch on a virtual machine, a few percent of a full
solve). The table of one deal is cleared for the next by the engine itself (another layout).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from typing import TYPE_CHECKING

from battle.atlas.survey_db import FULL_DEAL, DealResult
from battle.rules.board import Position, biggest_pair, move_name
from battle.rules.deal import deal

if TYPE_CHECKING:
    from battle.players import Analysis, DealSolver

_local = threading.local()


def start_position(number: int, tiles: int = FULL_DEAL) -> Position:
    """Deal ``number``, or the position ``tiles`` tiles into it: from the deal, both sides take the
    biggest pair (the first in board order among equals) until at most ``tiles`` are left.

    Smaller starts make surveys of seconds for tests and studies of the middle game; the
    greedy line is the one every run replays the same.
    """
    position = deal(number)
    while position.tiles_left() > tiles and position.has_moves():
        position.push(biggest_pair(position))
    return position


def solver_version() -> str:
    """What a stored result was solved with: the package version (the kernels change with it)."""
    from battle import __version__

    return __version__


def _solver(megabytes: int | None, threads: int) -> DealSolver:
    """This thread's deal solver, kept while later tasks want the same memory and threads (it keeps
    its table while the starts want the same size), so a survey's worker allocates it once."""
    from battle.players import DealSolver

    key = (megabytes, threads)
    if getattr(_local, "key", None) != key:
        _local.solver = None  # the old table goes before the new one is allocated
        _local.solver = DealSolver(max_megabytes=megabytes, threads=threads)
        _local.key = key
    return _local.solver


def solve_deal(
    number: int,
    *,
    tiles: int = FULL_DEAL,
    time_limit: float | None = None,
    value_only: bool = False,
    megabytes: int | None = None,
    threads: int = 1,
) -> DealResult:
    """Solve deal ``number`` (or its start ``tiles`` in) exactly, or as far as ``time_limit`` seconds allow.

    The search proves the value and finds every first move that ties for it (each other
    move only needs a bound), so the complete set of best first moves costs nothing extra;
    ``value_only`` leaves them out of the result. A deal stopped at ``time_limit`` is
    unsolved, with the estimate of the search's preview (``DealSolver.solve``).
    """
    position = start_position(number, tiles)
    solver = _solver(megabytes, threads)
    started = time.perf_counter()
    analysis = solver.solve(position, stop_after=time_limit)
    return deal_result(number, tiles, analysis, time.perf_counter() - started, time_limit, value_only=value_only)


def deal_result(
    number: int, tiles: int, analysis: Analysis, seconds: float, time_limit: float | None, *, value_only: bool = False
) -> DealResult:
    """What a survey (or ``par``) stores of deal ``number``'s search from its start ``tiles`` in."""
    best = None if value_only or not analysis.exact else tuple(move_name(move) for move in analysis.best_moves)
    return DealResult(
        deal=number,
        tiles=tiles,
        solved=analysis.exact,
        value=analysis.value,
        depth=analysis.depth,
        best_moves=best,
        nodes=analysis.nodes,
        seconds=round(seconds, 3),
        time_limit=time_limit,
        solver_version=solver_version(),
        worker=f"{socket.gethostname()}:{os.getpid()}",
    )
