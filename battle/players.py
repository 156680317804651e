"""Computer players for the terminal and the window, built on the solver.

The rules model never imports the solver; this module is where the two meet.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from battle.board import Move, Position
from solver.engine import Engine
from solver.levels import LEVELS, get_level
from solver.levels import best_move as level_best_move

__all__ = ["LEVELS", "solver_player"]


def solver_player(level: str, engine: Engine | None = None, seed: int | None = None) -> Callable[[Position], Move]:
    """A function choosing moves at the named level (raises ValueError for an unknown level)."""
    get_level(level)
    engine = engine if engine is not None else Engine()
    rng = random.Random(seed)

    def choose(position: Position) -> Move:
        return level_best_move(position, level, engine=engine, rng=rng)

    return choose
