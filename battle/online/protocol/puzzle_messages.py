"""The puzzle messages: a page solves the shipped puzzles against the server, which keeps the answers.

A page asks for a puzzle (``puzzle_open``: by id, or the next one near its rating, maybe of one theme)
and sends one move at a time (``puzzle_move``) or gives up (``puzzle_reveal``). The server checks every
move against the puzzle's line, so the line reaches the page only once the attempt is over
(``puzzle_solution``). Every request names the browser's device key, under which the server keeps
its puzzle rating (``docs/protocol.md``, "Puzzles").

The readers here are run by ``reader`` with its strict fields (an unknown field is an error); each
raises ``ProtocolError`` naming what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from battle.online.protocol.device_messages import DEVICE_KEY
from battle.online.protocol.messages import RequestFields, message_json, notation_field
from battle.puzzles.puzzle import ID_LENGTH
from battle.puzzles.themes import THEMES
from battle.ratings.glicko2 import Rating
from battle.rules.board import move_name, parse_move

PUZZLE_ID = re.compile(rf"[0-9a-f]{{{ID_LENGTH}}}")


# -- what a page asks ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenPuzzle:
    """Show a puzzle to solve: ``puzzle`` by its id, else the next one near the device's rating (of
    ``theme`` when given); the answer is ``puzzle_shown`` with the device's standing."""

    TYPE: ClassVar[str] = "puzzle_open"
    device: str
    puzzle: str | None = None
    theme: str | None = None


@dataclass(frozen=True)
class PuzzleMove:
    """Try ``move`` (notation) in the connection's puzzle."""

    TYPE: ClassVar[str] = "puzzle_move"
    move: str


@dataclass(frozen=True)
class RevealPuzzle:
    """Give up the connection's puzzle: the rest of its line comes back, the attempt counts as missed."""

    TYPE: ClassVar[str] = "puzzle_reveal"


PuzzleRequest = OpenPuzzle | PuzzleMove | RevealPuzzle


def _read_device(fields: RequestFields) -> str:
    value = fields.get("device", True)
    if not isinstance(value, str) or not DEVICE_KEY.fullmatch(value):
        raise fields.fail("device", "a device key of 32 lowercase hex digits", value)
    return value


def _read_open(fields: RequestFields) -> OpenPuzzle:
    device = _read_device(fields)
    ident = fields.get("puzzle", False)
    if ident is not None and (not isinstance(ident, str) or not PUZZLE_ID.fullmatch(ident)):
        raise fields.fail("puzzle", f"a puzzle id of {ID_LENGTH} lowercase hex digits", ident)
    theme = fields.get("theme", False)
    if theme is not None and theme not in THEMES:
        raise fields.fail("theme", "one of " + ", ".join(THEMES) + " or null", theme)
    return OpenPuzzle(device, ident, theme)


def _read_move(fields: RequestFields) -> PuzzleMove:
    return PuzzleMove(move_name(notation_field(fields, "move", 'a move in notation ("c1-c9")', parse_move)))


def puzzle_readers() -> dict[str, Callable[[Any], PuzzleRequest]]:
    """The readers of the puzzle requests, by type, for ``reader``'s table."""
    return {
        OpenPuzzle.TYPE: _read_open,
        PuzzleMove.TYPE: _read_move,
        RevealPuzzle.TYPE: lambda fields: RevealPuzzle(),
    }


# -- what the server answers -----------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """A device's puzzle rating and streaks."""

    rating: Rating
    streak: int
    best_streak: int
    attempts: int


@dataclass(frozen=True)
class RatingChange:
    """What a decided attempt did: both ratings before and after, and the streak after."""

    player_before: Rating
    player_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating
    streak: int


@dataclass(frozen=True)
class PuzzleShown:
    """A puzzle to solve: its start, never its line; ``rating``: the puzzle's rating for this device."""

    TYPE: ClassVar[str] = "puzzle_shown"
    puzzle: str
    position: str
    to_move: int
    length: int
    themes: tuple[str, ...]
    rating: float
    standing: Standing


@dataclass(frozen=True)
class PuzzleJudged:
    """One move's verdict. Right: ``reply`` is the solver's answer from the line, already played.
    Wrong: the move is not played; ``loss`` is what it costs against perfect play, ``result_before``
    and ``result_after`` the results perfect play reaches (1 win, 0 draw, -1 loss), and ``refuting``
    says a ``puzzle_refutation`` follows. ``change``: the attempt's rating change, on the move that
    decided it (the first wrong one, or the last right one)."""

    TYPE: ClassVar[str] = "puzzle_judged"
    puzzle: str
    move: str
    correct: bool
    points: int
    loss: int
    result_before: int
    result_after: int
    reply: str | None
    reply_points: int
    finished: bool
    solved: bool
    refuting: bool
    change: RatingChange | None


@dataclass(frozen=True)
class PuzzleRefutation:
    """The solver's best reply to the wrong ``move`` (None: the game ends there, or no solver found one)."""

    TYPE: ClassVar[str] = "puzzle_refutation"
    puzzle: str
    move: str
    refutation: str | None


@dataclass(frozen=True)
class PuzzleSolution:
    """The attempt is over: the whole ``line`` from the start, the moves ``rest`` played now (given up:
    the rest of the line; solved: none), and the rating change when this decided the attempt."""

    TYPE: ClassVar[str] = "puzzle_solution"
    puzzle: str
    line: tuple[str, ...]
    rest: tuple[str, ...]
    change: RatingChange | None


PuzzleNews = PuzzleShown | PuzzleJudged | PuzzleRefutation | PuzzleSolution


def _rating_json(rating: Rating) -> dict[str, float]:
    return {
        "rating": round(rating.rating, 2),
        "deviation": round(rating.deviation, 2),
        "volatility": round(rating.volatility, 6),
    }


def _change_json(change: RatingChange | None) -> Mapping[str, Any] | None:
    if change is None:
        return None
    return {
        "player_before": _rating_json(change.player_before),
        "player_after": _rating_json(change.player_after),
        "puzzle_before": _rating_json(change.puzzle_before),
        "puzzle_after": _rating_json(change.puzzle_after),
        "streak": change.streak,
    }


def puzzle_news_json(news: PuzzleNews) -> dict[str, Any]:
    """The JSON object of one puzzle message from the server."""
    if isinstance(news, PuzzleShown):
        standing = news.standing
        return message_json(
            news,
            themes=list(news.themes),
            rating=round(news.rating, 2),
            standing={
                **_rating_json(standing.rating),
                "streak": standing.streak,
                "best_streak": standing.best_streak,
                "attempts": standing.attempts,
            },
        )
    if isinstance(news, PuzzleJudged):
        return message_json(news, change=_change_json(news.change))
    if isinstance(news, PuzzleRefutation):
        return message_json(news)
    return message_json(news, line=list(news.line), rest=list(news.rest), change=_change_json(news.change))
