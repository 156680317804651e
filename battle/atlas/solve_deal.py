"""The survey's one task: solve a numbered deal from its start, on the engine this process keeps.

A worker keeps one engine per thread between tasks (``_engine``): numba's kernels load
once per process, and a table is allocated once rather than per deal (a 2 GiB table
costs 2-2.5 s to touch on a virtual machine, a few percent of a full solve). The table
of one deal is cleared for the next by the engine itself (another layout).
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
    from battle.players import Engine

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


def _engine(tiles: int, megabytes: int | None, threads: int) -> Engine:
    """This thread's engine, made on its first task with the table a start of ``tiles`` needs
    (up to ``megabytes``); kept while later tasks want the same table and threads, so a
    survey's worker allocates it once."""
    from battle.players import Engine, engine_table_bits

    key = (engine_table_bits(tiles, max_megabytes=megabytes, threads=threads), threads)
    if getattr(_local, "key", None) != key:
        _local.engine = None  # the old table goes before the new one is allocated
        _local.engine = Engine(key[0], threads=threads)
        _local.key = key
    return _local.engine


def solve_deal(number: int, *, tiles: int = FULL_DEAL, time_limit: float | None = None, value_only: bool = False,
               megabytes: int | None = None, threads: int = 1) -> DealResult:
    """Solve deal ``number`` (or its start ``tiles`` in) exactly, or as far as ``time_limit`` seconds allow.

    The search proves the value and finds every first move that ties for it (each other
    move only needs a bound), so the complete set of best first moves costs nothing extra;
    ``value_only`` leaves them out of the result. A deal stopped at ``time_limit`` is
    unsolved, with the estimate of the search's preview (``Engine.search``).
    """
    from battle.players import Limits

    position = start_position(number, tiles)
    engine = _engine(position.tiles_left(), megabytes, threads)
    # The limit stops the exact search rather than limiting it (``stop_after``): a time limit
    # makes the search deepen step by step, which costs a whole deal 2.7x the nodes.
    started = time.perf_counter()
    analysis = engine.search(position, Limits(stop_after=time_limit))
    seconds = time.perf_counter() - started
    best = None if value_only or not analysis.exact else tuple(move_name(move) for move in analysis.best_moves)
    return DealResult(
        deal=number, tiles=tiles, solved=analysis.exact, value=analysis.value,
        depth=analysis.depth, best_moves=best, nodes=analysis.nodes, seconds=round(seconds, 3),
        time_limit=time_limit, solver_version=solver_version(), worker=f"{socket.gethostname()}:{os.getpid()}",
    )
