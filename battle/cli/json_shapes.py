"""The JSON the command line writes, as types: ``solve --json``, ``analyse --json``, ``review --json``.

``SolveJSON`` is the solver output of the notation contract (``docs/notation.md``,
``Analysis.to_json``); ``AnalyseJSON`` adds every legal move's value; ``ReviewJSON`` is a
reviewed game (``Review.to_json``, keys described in ``battle.players.review_report``).
Moves are in notation (``"c1-c9"``), scores ``[player 1, player 2]``.
"""

from __future__ import annotations

from typing import TypedDict

from battle.players import Bound, SolveJSON
from battle.players.review_report import ReviewJSON

__all__ = ["AnalyseJSON", "MoveValueJSON", "ReviewJSON", "SolveJSON"]


class MoveValueJSON(TypedDict):
    """One legal move in ``analyse --json``."""

    move: str
    value: int
    bound: Bound
    points: int


class AnalyseJSON(SolveJSON):
    """``mahjong-battle analyse --json``: the solve fields plus every legal move, best first."""

    moves: list[MoveValueJSON]
