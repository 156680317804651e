"""Tile kinds: the 27 suit tiles of Mahjong Battle and their text symbols.

A kind is a small integer ``suit * 9 + (value - 1)``, so the value of a kind is
cheap to compute and a kind can index flat arrays in the solver directly.
"""

from __future__ import annotations

from battle.i18n import N_
from battle.rules.errors import NotationError

SUITS: str = "mps"
"""Suit letters in kind order: characters (m), circles (p), bamboo (s)."""

SUIT_NAMES: dict[str, str] = {"m": "characters", "p": "circles", "s": "bamboo"}

KIND_COUNT: int = 27
COPIES: int = 4
TILE_COUNT: int = KIND_COUNT * COPIES
TOTAL_POINTS: int = 2 * sum(range(1, 10)) * len(SUITS)
"""Points in play in a full deal: each kind gives two pairs worth its value (270)."""

EMPTY: int = -1
"""The kind stored in an empty cell."""

KIND_NAMES: tuple[str, ...] = tuple(f"{v}{s}" for s in SUITS for v in range(1, 10))
_KIND_BY_NAME: dict[str, int] = {name: kind for kind, name in enumerate(KIND_NAMES)}


def kind_value(kind: int) -> int:
    """Points a pair of this kind scores (its face value, 1 to 9)."""
    return kind % 9 + 1


def kind_suit(kind: int) -> str:
    """The suit letter ``m``, ``p`` or ``s``."""
    return SUITS[kind // 9]


def kind_name(kind: int) -> str:
    """The two-character symbol, e.g. ``5p``; ``..`` for an empty cell."""
    return ".." if kind == EMPTY else KIND_NAMES[kind]


def make_kind(value: int, suit: str) -> int:
    """The kind of a value 1-9 and a suit letter."""
    return SUITS.index(suit) * 9 + value - 1


def parse_kind(text: str) -> int:
    """Read a tile symbol (``5p``) or ``..`` (gives ``EMPTY``)."""
    if text == "..":
        return EMPTY
    kind = _KIND_BY_NAME.get(text)
    if kind is None:
        raise NotationError(
            N_("{text} is not a tile (expected a value 1-9 and m, p or s, e.g. 5p, or ..)"), text=repr(text)
        )
    return kind
