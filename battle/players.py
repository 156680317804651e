"""Computer players for the terminal and the window, built on the solver.

The rules model never imports the solver; this module is where the two meet,
and the one door through which the front ends reach the solver (engine,
levels, review), so that the layering stays
``battle.cli, battle.ui -> battle.search_worker -> battle.players -> solver -> battle.rules`` (the
contracts in ``pyproject.toml``, checked by ``lint-imports``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from battle.rules.board import Move, Position
from battle.rules.game import Game
from solver.compile_ahead import WINDOW_NICENESS, prepare_kernels_apart
from solver.engine import (
    FULL_DEPTH,
    MAX_NODE_LIMIT,
    MAX_THREADS,
    Engine,
    engine_for,
    engine_table_bits,
    kernels_cached,
    prepare_kernels,
)
from solver.json_shapes import AnalyseJSON, Bound, MoveValueJSON, ReviewJSON, SolveJSON
from solver.levels import LEVELS, analyse_for_level, choose_from, get_level
from solver.levels import best_move as level_best_move
from solver.limits import Limits
from solver.results import Analysis
from solver.review import review_game
from solver.review_report import CLASS_NAMES, MoveReview, PlayerSummary, Review, ReviewStep, TurningPoint
from solver.table_size import ENTRY_BYTES, MIN_TABLE_BITS

__all__ = [
    "CLASS_NAMES",
    "ENTRY_BYTES",
    "FULL_DEPTH",
    "LEVELS",
    "MAX_NODE_LIMIT",
    "MAX_THREADS",
    "MIN_TABLE_BITS",
    "AnalyseJSON",
    "Analysis",
    "Bound",
    "Engine",
    "Limits",
    "MoveReview",
    "MoveValueJSON",
    "PlayerSummary",
    "Review",
    "ReviewJSON",
    "ReviewStep",
    "SolveJSON",
    "WINDOW_NICENESS",
    "TurningPoint",
    "analyse_for_level",
    "choose_from",
    "engine_for",
    "engine_table_bits",
    "kernels_cached",
    "prepare_kernels",
    "prepare_kernels_apart",
    "get_level",
    "review_game",
    "solver_advisor",
    "solver_player",
    "solver_reviewer",
]


def solver_player(level: str, engine: Engine | None = None, seed: int | None = None) -> Callable[[Position], Move]:
    """A function choosing moves at the named level (raises ValueError for an unknown level)."""
    get_level(level)
    engine = engine if engine is not None else Engine()
    rng = random.Random(seed)

    def choose(position: Position) -> Move:
        return level_best_move(position, level, engine=engine, rng=rng)

    return choose


HINT_SECONDS = 3.0
"""How long a terminal hint or evaluation may think: exact from the middle game on,
an estimate (and said to be one) on a full board."""
HINT_TABLE_MEGABYTES = 256


def solver_advisor(seconds: float = HINT_SECONDS) -> Callable[[Position, bool], Analysis]:
    """A function that searches a position for ``seconds`` at most (every move's value
    with ``True``, else the best moves), for the terminal's ``hint`` and ``eval``.

    The engine is made at the first call and kept, so later calls reuse its table
    (the positions of one game share most of their subtrees)."""
    engines: list[Engine] = []

    def advise(position: Position, every_move: bool) -> Analysis:
        if not engines:
            engines.append(engine_for(position.tiles_left(), max_megabytes=HINT_TABLE_MEGABYTES))
        return engines[0].search(position, Limits(time=seconds), all_exact=every_move)

    return advise


REVIEW_SECONDS = 1.0
"""The terminal's end-of-game review: a second a move grades the middle and end game exactly
and leaves the opening's values as marked estimates, within about a minute for a whole game."""


def solver_reviewer(seconds: float = REVIEW_SECONDS) -> Callable[[Game], Review]:
    """A function that grades every move of a game against perfect play, ``seconds`` a move at most."""

    def review(game: Game) -> Review:
        return review_game(game, time_per_move=seconds)

    return review
