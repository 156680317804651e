"""A puzzle: a position, its one good move (or line of them), and what everything else loses.

One puzzle is one line of a JSON-lines file (``puzzle_file``), an object with these keys:

``id``
    ten hex digits: the start of the SHA-256 of ``position``, so a puzzle keeps its id (and the
    ratings stored under it) when the set is mined again.
``position``
    the start, as ``.mbp`` text (``docs/notation.md``).
``to_move``
    1 or 2, the side that solves: the same as the position's ``to-move:``.
``line``
    the solution in move notation: the solver's side's move, the solver's reply, the next move,
    ..., ending on a move of the side that solves. Every one of that side's moves is the only one
    that keeps the perfect-play margin (see ``criteria``).
``losses``
    one object per move of the side that solves (``line[0]``, ``line[2]``, ...): every other
    legal move in notation, with the points of final margin it loses against perfect play.
``then``
    perfect play from the end of ``line`` to the end of the game (one of the best lines).
``value``
    the final margin the side that solves still makes from the start under perfect play
    (its points to come minus the opponent's).
``themes``
    the names in ``themes.THEMES`` that fit, maybe none.
``difficulty``
    1 to 6: 1 + the index of the weakest level (``level_ratings.LEVEL_NAMES``) that finds the
    whole line at least ``difficulty.RELIABLE`` of the time, 6 when only ``perfect`` does.
``rating``
    the starting puzzle rating on the levels' scale (``difficulty.puzzle_rating``), from -1,000
    to 5,000 (``glicko2.RATING_RANGE``: the ratings the arithmetic takes).
``find_rates``
    for each level, the fraction of its seeded tries that found the whole line.
``source``
    where the position arose: ``deal`` (its number), ``ply`` (moves played before it) and
    ``levels`` (the levels that played player 1 and player 2), or null for a composed one.

This module is pure: the rules model only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from battle.i18n import N_, NN_
from battle.puzzles.themes import THEMES
from battle.ratings.glicko2 import RATING_RANGE
from battle.ratings.level_ratings import LEVEL_NAMES
from battle.rules.board import Move, Position, move_name, parse_move
from battle.rules.errors import QUOTE_LIMIT, BattleError, Phrase, one_line, quote
from battle.rules.notation import format_position, parse_position
from battle.rules.tiles import kind_value

DIFFICULTIES = range(1, len(LEVEL_NAMES) + 1)
ID_LENGTH = 10


class PuzzleFormatError(ValueError):
    """A puzzle that does not read or does not replay: one line naming the field and quoting the bad
    input, a ``Phrase`` worded in the reader's language when shown (``str``). The JSON keys (``line``,
    ``losses``) are the file format's and read the same in every language."""

    def __init__(self, message: str, plural: str | None = None, /, **values: object) -> None:
        super().__init__(message)
        self.phrase = Phrase(message, plural, **values)

    def __str__(self) -> str:
        return one_line(str(self.phrase))


@dataclass(frozen=True)
class PuzzleSource:
    """Where a mined position arose: a numbered deal, played by two levels for ``ply`` moves."""

    deal: int
    ply: int
    levels: tuple[str, str]


@dataclass(frozen=True)
class Puzzle:
    """One puzzle; ``start()`` gives a fresh copy of its position to play on."""

    id: str
    position_text: str
    """The start as ``.mbp`` text."""
    to_move: int
    """The side that solves, 1 or 2 (the position's side to move)."""
    line: tuple[Move, ...]
    losses: tuple[Mapping[Move, int], ...]
    """For each move of the side that solves, every other legal move's loss in points."""
    then: tuple[Move, ...] = ()
    value: int = 0
    themes: tuple[str, ...] = ()
    difficulty: int = len(LEVEL_NAMES)
    rating: float = 1500.0
    find_rates: Mapping[str, float] = field(default_factory=dict)
    source: PuzzleSource | None = None

    def start(self) -> Position:
        """The puzzle's position, parsed anew (the caller may push moves on it)."""
        return parse_position(self.position_text)

    @property
    def length(self) -> int:
        """Moves the side that solves must find."""
        return (len(self.line) + 1) // 2

    @property
    def answer(self) -> Move:
        return self.line[0]

    def to_json(self) -> dict[str, Any]:
        """The object of one JSON line (see the module docstring)."""
        return {
            "id": self.id,
            "position": self.position_text,
            "to_move": self.to_move,
            "line": [move_name(move) for move in self.line],
            "losses": [{move_name(move): loss for move, loss in sorted(step.items())} for step in self.losses],
            "then": [move_name(move) for move in self.then],
            "value": self.value,
            "themes": list(self.themes),
            "difficulty": self.difficulty,
            "rating": round(self.rating),
            "find_rates": {level: round(rate, 3) for level, rate in self.find_rates.items()},
            "source": None
            if self.source is None
            else {"deal": self.source.deal, "ply": self.source.ply, "levels": list(self.source.levels)},
        }


def puzzle_id(position_text: str) -> str:
    """The id of the puzzle that starts from this ``.mbp`` text."""
    return hashlib.sha256(position_text.encode("utf-8")).hexdigest()[:ID_LENGTH]


def position_text(position: Position) -> str:
    """A position as a puzzle stores it: ``.mbp`` text without a comment."""
    return format_position(Position(position.cells, position.to_move, position.scores))


def signed_points(position: Position, moves: Sequence[Move], side: int) -> int:
    """Points the moves score for ``side`` minus those for the other side, played from ``position``."""
    total = 0
    mover = position.to_move
    for move in moves:
        points = kind_value(position.cells[move[0]])
        total += points if mover == side else -points
        mover = 3 - mover
    return total


# -- reading ----------------------------------------------------------------------------


def puzzle_from_json(data: object) -> Puzzle:
    """A puzzle from one decoded JSON line, replayed and checked; ``PuzzleFormatError`` otherwise."""
    if not isinstance(data, dict):
        raise PuzzleFormatError(N_("expected a JSON object, got {kind}"), kind=type(data).__name__)
    missing = [key for key in ("id", "position", "to_move", "line", "losses") if key not in data]
    if missing:
        raise PuzzleFormatError(N_("missing {keys}"), keys=", ".join(missing))
    text = _typed(data, "position", str)
    try:
        start = parse_position(text)
    except BattleError as error:
        raise PuzzleFormatError(N_("position: {error}"), error=error.phrase) from None
    identity = _typed(data, "id", str)
    if data["to_move"] != start.to_move:
        raise PuzzleFormatError(
            N_("to_move is {value}, the position says {side}"), value=_shown(data["to_move"]), side=start.to_move
        )
    line = _moves(data, "line")
    if not line or len(line) % 2 == 0:
        raise PuzzleFormatError(
            N_("line: expected an odd number of moves (ending on the solver's side), got {count}"), count=len(line)
        )
    then = _moves(data, "then") if "then" in data else []
    _replay(_replay(start, line, "line"), then, "then")
    losses = _losses(data["losses"], start, line)
    themes = _typed(data, "themes", list, [])
    unknown = [theme for theme in themes if theme not in THEMES]
    if unknown:
        raise PuzzleFormatError(
            N_("themes: unknown {theme} (known: {known})"), theme=quote(str(unknown[0])), known=", ".join(THEMES)
        )
    difficulty = _typed(data, "difficulty", int, len(LEVEL_NAMES))
    if difficulty not in DIFFICULTIES:
        raise PuzzleFormatError(N_("difficulty: {value} is not 1 to {last}"), value=difficulty, last=len(LEVEL_NAMES))
    rating = _typed(data, "rating", (int, float), 1500.0)
    if not RATING_RANGE[0] <= rating <= RATING_RANGE[1]:  # false for NaN too; exact for a 400-digit int
        raise PuzzleFormatError(
            N_("rating: {value} is not a rating from {low} to {high}"),
            value=_shown(rating),
            low=f"{RATING_RANGE[0]:.0f}",
            high=f"{RATING_RANGE[1]:.0f}",
        )
    return Puzzle(
        id=identity,
        position_text=text,
        to_move=start.to_move,
        line=tuple(line),
        losses=tuple(losses),
        then=tuple(then),
        value=_typed(data, "value", int, 0),
        themes=tuple(themes),
        difficulty=difficulty,
        rating=float(rating),
        find_rates=_find_rates(data.get("find_rates") or {}),
        source=_source(data.get("source")),
    )


def _shown(value: object) -> str:
    """A JSON value for a message: its repr, at most ``QUOTE_LIMIT`` characters of it."""
    text = repr(value)
    return text if len(text) <= QUOTE_LIMIT else text[:QUOTE_LIMIT] + "..."


_EXPECTED: dict[object, str] = {
    str: N_("{key}: expected str, got {value}"),
    list: N_("{key}: expected list, got {value}"),
    int: N_("{key}: expected int, got {value}"),
    (int, float): N_("{key}: expected int or float, got {value}"),
}
"""A key's value of the wrong type, a sentence for each type a key takes (the JSON's types by their
Python names, which a translation may word as the reader's "text", "list", "whole number")."""


def _typed(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], default: Any = None) -> Any:
    if key not in data and default is not None:
        return default
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise PuzzleFormatError(_EXPECTED[kind], key=key, value=_shown(value))
    return value


def _moves(data: Mapping[str, Any], key: str) -> list[Move]:
    texts = _typed(data, key, list)
    moves = []
    for number, text in enumerate(texts, start=1):
        if not isinstance(text, str):
            raise PuzzleFormatError(
                N_("{key}: move {number} is not text: {value}"), key=key, number=number, value=_shown(text)
            )
        try:
            moves.append(parse_move(text))
        except BattleError as error:
            raise PuzzleFormatError(
                N_("{key}: move {number}: {error}"), key=key, number=number, error=error.phrase
            ) from None
    return moves


def _replay(start: Position, moves: Sequence[Move], key: str) -> Position:
    position = start.copy()
    for number, move in enumerate(moves, start=1):
        reason = position.illegal_reason(move)
        if reason is not None:
            raise PuzzleFormatError(
                N_("{key}: move {number}, {move}: {reason}"),
                key=key,
                number=number,
                move=move_name(move),
                reason=reason,
            )
        position.push(move)
    return position


def _losses(data: object, start: Position, line: list[Move]) -> list[dict[Move, int]]:
    """Each step's alternatives with their losses: exactly the other legal moves, each losing at least a point."""
    steps = (len(line) + 1) // 2
    if not isinstance(data, list) or len(data) != steps:
        raise PuzzleFormatError(
            *NN_(
                "losses: expected a list of {count} object, one per move to find",
                "losses: expected a list of {count} objects, one per move to find",
            ),
            count=steps,
        )
    result = []
    for step, table in enumerate(data, start=1):
        position = _replay(start, line[: 2 * (step - 1)], "line")
        if not isinstance(table, dict):
            raise PuzzleFormatError(N_("losses: step {step} is not an object"), step=step)
        alternatives = {}
        for text, loss in table.items():
            try:
                move = parse_move(text)
            except BattleError as error:
                raise PuzzleFormatError(N_("losses: step {step}: {error}"), step=step, error=error.phrase) from None
            if not isinstance(loss, int) or isinstance(loss, bool) or loss < 1:
                raise PuzzleFormatError(
                    N_("losses: step {step}: {move} loses {value}, expected a whole number of points from 1"),
                    step=step,
                    move=text,
                    value=_shown(loss),
                )
            alternatives[move] = loss
        others = set(position.legal_moves()) - {line[2 * (step - 1)]}
        strays = sorted(set(alternatives) - others)
        if strays:
            raise PuzzleFormatError(
                N_("losses: step {step}: {move} is not another legal move"), step=step, move=move_name(strays[0])
            )
        left_out = sorted(others - set(alternatives))
        if left_out:
            raise PuzzleFormatError(
                N_("losses: step {step}: {move} is missing (every other legal move has its loss)"),
                step=step,
                move=move_name(left_out[0]),
            )
        result.append(alternatives)
    return result


def _find_rates(data: object) -> dict[str, float]:
    if not isinstance(data, dict):
        raise PuzzleFormatError(N_("find_rates: expected an object of level: rate"))
    rates = {}
    for level, rate in data.items():
        if level not in LEVEL_NAMES:
            raise PuzzleFormatError(N_("find_rates: unknown level {level}"), level=quote(str(level)))
        if not isinstance(rate, (int, float)) or isinstance(rate, bool) or not 0 <= rate <= 1:
            raise PuzzleFormatError(
                N_("find_rates: {level}: {value} is not a rate from 0 to 1"), level=level, value=_shown(rate)
            )
        rates[level] = float(rate)
    return rates


def _source(data: object) -> PuzzleSource | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise PuzzleFormatError(N_("source: expected an object with deal, ply and levels, or null"))
    deal, ply, levels = data.get("deal"), data.get("ply"), data.get("levels")
    if not (
        isinstance(deal, int)
        and isinstance(ply, int)
        and isinstance(levels, list)
        and len(levels) == 2
        and all(isinstance(level, str) for level in levels)
    ):
        raise PuzzleFormatError(N_("source: expected deal and ply (whole numbers) and levels (two names)"))
    return PuzzleSource(deal, ply, (levels[0], levels[1]))
