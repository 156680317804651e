"""Mahjong Battle's solver: exact numba search behind a small typed API.

It reads positions from the ``battle`` model and never imports pygame.

* ``solve(position)``: the value, every best move, the best line and each move's value;
* ``best_move(position, level)``: a move as one of the ``LEVELS`` would play it;
* ``Engine``: a solver that keeps its table between searches (a game, an analysis);
* ``BackgroundSearch``: a search on its own thread that a window polls and can stop.
"""

from solver.background import BackgroundSearch
from solver.engine import FULL_DEPTH, Analysis, Engine, MoveValue, Progress, SearchStatus, solve
from solver.levels import LEVELS, Level, best_move

__all__ = ["FULL_DEPTH", "LEVELS", "Analysis", "BackgroundSearch", "Engine", "Level", "MoveValue", "Progress",
           "SearchStatus", "best_move", "solve"]
