"""Computer players for the terminal and the window, built on the solver.

The rules model never imports the solver; this module is where the two meet,
and the one door through which the front ends reach the solver (engine,
background searches, levels, review), so that the layering stays
``battle.ui -> battle.players -> solver -> battle``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from battle.board import Move, Position
from solver.background import BackgroundSearch
from solver.engine import Analysis, Engine
from solver.levels import LEVELS, analyse_for_level, choose_from, get_level
from solver.levels import best_move as level_best_move
from solver.review import Review, review_game

__all__ = [
    "LEVELS",
    "Analysis",
    "BackgroundSearch",
    "Engine",
    "Review",
    "analyse_for_level",
    "choose_from",
    "get_level",
    "review_game",
    "solver_player",
]


def solver_player(level: str, engine: Engine | None = None, seed: int | None = None) -> Callable[[Position], Move]:
    """A function choosing moves at the named level (raises ValueError for an unknown level)."""
    get_level(level)
    engine = engine if engine is not None else Engine()
    rng = random.Random(seed)

    def choose(position: Position) -> Move:
        return level_best_move(position, level, engine=engine, rng=rng)

    return choose
