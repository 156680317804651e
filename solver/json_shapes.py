"""The JSON the solver writes, as types: ``solve --json``, ``analyse --json``, ``review --json``.

``SolveJSON`` is the solver output of the notation contract (``docs/notation.md``);
``AnalyseJSON`` adds every legal move's value; ``ReviewJSON`` is a reviewed game
(``Review.to_json``, keys described in ``solver.review_report``). Moves are in notation
(``"c1-c9"``), scores ``[player 1, player 2]``.
"""

from __future__ import annotations

from typing import Literal, TypedDict

Bound = Literal["exact", "estimate", "upper"]
"""How sure a move's value is: ``"exact"``, ``"estimate"`` (a search a limit stopped:
the value at the depth it reached) or ``"upper"`` (at most the value: the move
cannot be best, and was searched only far enough to show it)."""


class SolveJSON(TypedDict):
    """``mahjong-battle solve --json``, ``Analysis.to_json()``."""

    value: int
    best_moves: list[str]
    pv: list[str]
    final_score: list[int]
    exact: bool
    nodes: int
    seconds: float


class MoveValueJSON(TypedDict):
    """One legal move in ``analyse --json``."""

    move: str
    value: int
    bound: Bound
    points: int


class AnalyseJSON(SolveJSON):
    """``mahjong-battle analyse --json``: the solve fields plus every legal move, best first."""

    moves: list[MoveValueJSON]


MoveReviewJSON = TypedDict("MoveReviewJSON", {
    "number": int,
    "player": int,
    "move": str,
    "points": int,
    "value": int,
    "bound": Bound,
    "best_value": int,
    "best_moves": list[str],
    "loss": int,
    "class": str,
    "exact": bool,
    "depth": int,
    "eval_before": int,
    "eval_after": int,
    "eval_after_exact": bool,
    "nodes": int,
    "seconds": float,
})
"""One reviewed move (``MoveReview.to_json``); ``class`` is a Python keyword, hence this form."""


class PlayerSummaryJSON(TypedDict):
    """One player's figures (``PlayerSummary.to_json``)."""

    player: int
    name: str
    moves: int
    points_lost: int
    average_loss: float | None
    accuracy: float | None
    counts: dict[str, int]
    inexact_moves: int


TurningPointJSON = TypedDict("TurningPointJSON", {
    "number": int,
    "player": int,
    "move": str,
    "loss": int,
    "class": str,
    "best_moves": list[str],
    "best_value": int,
    "eval_before": int,
    "eval_after": int,
    "reasons": list[str],
})
"""A turning point (``TurningPoint.to_json``)."""


class ReviewStartJSON(TypedDict):
    to_move: int
    score: list[int]


class ReviewFinalJSON(TypedDict):
    score: list[int]
    over: bool
    value: int
    """For the player to move after the last reviewed move."""
    exact: bool


class ReviewJSON(TypedDict):
    """``mahjong-battle review --json``, ``Review.to_json()``."""

    format: str
    version: int
    players: list[str]
    deal: int | None
    start: ReviewStartJSON
    time_per_move: float | None
    moves_in_record: int
    complete: bool
    classes: dict[str, int]
    eval_start: int
    eval_start_exact: bool
    eval: list[int]
    final: ReviewFinalJSON
    moves: list[MoveReviewJSON]
    summary: list[PlayerSummaryJSON]
    turning_points: list[TurningPointJSON]
