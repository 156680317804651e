"""Mahjong Battle's solver: exact numba search behind a small typed API.

It reads positions from the ``battle`` model and never imports pygame.

* ``solve(position, Limits(time=2))``: the value, every best move, the best line and each
  move's value, exact unless a ``Limits`` (seconds, nodes, depth) stops the search first;
* ``best_move(position, level)``: a move as one of the ``LEVELS`` would play it;
* ``Engine``: a solver that keeps its table between searches (a game, an analysis);
* ``SolveJSON``: the shape of ``Analysis.to_json()``, the notation's solver output.

Each name loads its module at its first use: the levels, the limits and the results are plain
Python, and a process that only reads them (a game server, whose pool's workers search) never
loads numba, llvmlite and numpy (140 MiB of a process's memory).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.engine import Engine, solve
    from solver.levels import LEVELS, Level, best_move
    from solver.limits import FULL_DEPTH, Limits
    from solver.results import Analysis, Bound, MoveValue, Progress, SearchStatus, SolveJSON

__all__ = [
    "FULL_DEPTH",
    "LEVELS",
    "Analysis",
    "Bound",
    "Engine",
    "Level",
    "Limits",
    "MoveValue",
    "Progress",
    "SearchStatus",
    "SolveJSON",
    "best_move",
    "solve",
]

_HOMES = {
    "Engine": "solver.engine",
    "solve": "solver.engine",
    "LEVELS": "solver.levels",
    "Level": "solver.levels",
    "best_move": "solver.levels",
    "FULL_DEPTH": "solver.limits",
    "Limits": "solver.limits",
    "Analysis": "solver.results",
    "Bound": "solver.results",
    "MoveValue": "solver.results",
    "Progress": "solver.results",
    "SearchStatus": "solver.results",
    "SolveJSON": "solver.results",
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
