"""Mahjong Battle's solver: exact numba search behind a small typed API.

It reads positions from the ``battle`` model and never imports pygame.

* ``solve(position, Limits(time=2))``: the value, every best move, the best line and each
  move's value, exact unless a ``Limits`` (seconds, nodes, depth) stops the search first;
* ``best_move(position, level)``: a move as one of the ``LEVELS`` would play it;
* ``Engine``: a solver that keeps its table between searches (a game, an analysis);
* ``SolveJSON``: the shape of ``Analysis.to_json()``, the notation's solver output.
"""

from solver.engine import FULL_DEPTH, Engine, solve
from solver.levels import LEVELS, Level, best_move
from solver.limits import Limits
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
