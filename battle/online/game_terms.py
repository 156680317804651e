"""The terms of an online game that both its messages and its room read: how a game may start
(the deal and who moves first), until when it can be called off, what a move id looks like, and
the English of a rules model's sentence.

The protocol (``battle.online.protocol``) types a ``create`` request with these values and the
server's ``Room`` acts on the same values, so this module imports neither: the room speaks no
protocol (``lint-imports`` holds it to that), and the protocol knows no side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from battle.rules.errors import BattleError, Phrase

MAX_MOVE_ID_LENGTH = 64
ABORT_BEFORE_PLY = 2
"""A game can be aborted until its second move is played (as lichess allows): before that,
neither player has staked a move on it; later, leaving is a resignation."""

FIRST_CHOICES = ("creator", "joiner", "random")

First = Literal["creator", "joiner", "random"]
"""Who moves first, as a game's creator chooses it: the creator, the one who joins, or either."""


@dataclass(frozen=True)
class NumberedDeal:
    """Start from deal ``number`` (the rules model's numbered deals, 0 to 2^63 - 1)."""

    number: int


@dataclass(frozen=True)
class RandomDeal:
    """Start from a numbered deal the server picks."""


@dataclass(frozen=True)
class GivenPosition:
    """Start from a composed position; ``text`` is already checked and in canonical ``.mbp`` form."""

    text: str


DealChoice = NumberedDeal | RandomDeal | GivenPosition


def is_move_id(value: object) -> bool:
    """Whether ``value`` can be a move id: 1 to 64 printable ASCII characters, no space."""
    # printable ASCII is " " to "~": the string methods test in C (0.45 µs for "m23", a loop 0.62)
    return (
        isinstance(value, str)
        and 1 <= len(value) <= MAX_MOVE_ID_LENGTH
        and value.isascii()
        and value.isprintable()
        and " " not in value
    )


def in_english(problem: Phrase | BattleError) -> str:
    """A rules model's sentence in its English, whatever the process's locale: the server's
    reasons are fixed English for logs and old clients (each client words the code itself)."""
    phrase = problem.phrase if isinstance(problem, BattleError) else problem
    values = {
        name: in_english(value) if isinstance(value, Phrase) else str(value) for name, value in phrase.values.items()
    }
    return phrase.message.format(**values) if values else phrase.message
