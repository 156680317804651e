"""The one door from the front ends to the solver: task services that own their engine.

Each service answers one kind of question and owns the ``solver.Engine`` that answers it,
built at its first search on the thread that runs it (numba must never load on a window's
drawing thread), and kept, so that a game's positions share one transposition table:

* ``Opponent``: the computer across the table; plays a move at a level, gives the game
  screen's hint, refutes a wrong puzzle move;
* ``Advisor``: searches a position (the terminal's ``hint``/``eval``, the command line's
  ``solve``/``analyse``, the window's analysis mode, the puzzle miner);
* ``Reviewer``: grades every move of a game against perfect play;
* ``DealSolver``: solves the survey's deals, one engine per worker thread.

Every service has ``search``, ``stop`` and ``clear_stop``, which is what ``SearchWorker`` runs
and cancels. A game server runs them on the solver pool instead (``battle.players.pool``, whose
face names its modules: one queue with priorities, seats and budgets per address, on worker
processes or a Dask cluster; ``docs/solver-pool.md``). Besides them the door hands on what the
front ends read (``Analysis``, ``Review`` and its parts, ``LEVELS``), the warm-up
(``prepare_kernels``) and the values a command line checks its flags against. ``Engine``, table
sizes and the kernels' life-cycle stay inside ``solver``. The layering, checked by
``lint-imports`` (``pyproject.toml``):
``battle.cli, battle.ui -> battle.search_worker -> battle.players -> solver -> battle.rules``.

Every name here loads ``battle.players.services`` (and with it the solver, numba, llvmlite and
numpy: 140 MiB of a process's memory) at its first use, so that the door's own modules that run
no search load without them: the solver pool's queue, jobs and results
(``battle.players.pool``), which a game server holds while its workers, other processes,
search (``benchmarks/server_memory.py``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from battle.players.services import (
        CLASS_NAMES,
        FULL_DEPTH,
        LEVELS,
        MOST_SEARCH_NODES,
        MOST_SEARCH_THREADS,
        PLAIN_LEVELS,
        PLAIN_MAX_DEPTH,
        SMALLEST_TABLE_MEGABYTES,
        TIMED_PLAIN_LEVELS,
        Advisor,
        Analysis,
        Bound,
        DealSolver,
        Level,
        Limits,
        MoveReview,
        MoveValue,
        Opponent,
        PlainOpponent,
        PlayerSummary,
        ProgressCallback,
        Review,
        Reviewer,
        ReviewStep,
        SearchStatus,
        SolveJSON,
        TurningPoint,
        choose_from,
        get_level,
        kernels_ready,
        prepare_kernels,
        solver_advisor,
        solver_player,
        solver_reviewer,
    )

# listed here alone: battle.players.services takes this list as its own
__all__ = [
    "CLASS_NAMES",
    "FULL_DEPTH",
    "LEVELS",
    "MOST_SEARCH_NODES",
    "MOST_SEARCH_THREADS",
    "SMALLEST_TABLE_MEGABYTES",
    "Advisor",
    "Analysis",
    "Bound",
    "DealSolver",
    "Level",
    "Limits",
    "MoveReview",
    "MoveValue",
    "Opponent",
    "PLAIN_LEVELS",
    "PLAIN_MAX_DEPTH",
    "TIMED_PLAIN_LEVELS",
    "PlainOpponent",
    "ProgressCallback",
    "PlayerSummary",
    "Review",
    "ReviewStep",
    "Reviewer",
    "SearchStatus",
    "SolveJSON",
    "TurningPoint",
    "choose_from",
    "get_level",
    "kernels_ready",
    "prepare_kernels",
    "solver_advisor",
    "solver_player",
    "solver_reviewer",
]

_DOOR = frozenset(__all__)


def __getattr__(name: str) -> object:
    if name not in _DOOR:  # a submodule (``battle.players.pool``) is imported, not looked up here
        raise AttributeError(f"module 'battle.players' has no attribute {name!r}")
    value = getattr(importlib.import_module("battle.players.services"), name)
    globals()[name] = value
    return value
