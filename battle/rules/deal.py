"""Numbered deals: the same number gives the same layout on every machine, forever.

Python's ``random`` may change its algorithms between versions, so deals use
their own generator, fixed here and pinned by tests:

* generator: SplitMix64 (Steele, Lea & Flood 2014), state seeded with the deal
  number; each step adds 0x9E3779B97F4A7C15 and mixes with the two
  multiply-xorshift rounds below, all modulo 2**64;
* tiles start in kind order ``1m 1m 1m 1m 2m ... 9s`` (four copies each);
* Fisher-Yates shuffle from the last index down: for ``i = 107 .. 1`` pick
  ``j`` uniformly in ``0..i`` by rejection sampling (no modulo bias) and swap;
* the shuffled tiles fill the grid in reading order: row 1 from a to l, then
  row 2, and so on.
"""

from __future__ import annotations

import secrets

from battle.i18n import N_
from battle.rules.board import COLS, ROWS, Position
from battle.rules.errors import NotationError
from battle.rules.tiles import COPIES, KIND_COUNT

MASK64 = (1 << 64) - 1
MAX_DEAL = (1 << 63) - 1
"""Deal numbers are 0 to 2**63 - 1."""


class SplitMix64:
    """The deal generator; see the module docstring for the exact definition."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """Uniform in ``0..bound-1`` without modulo bias."""
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            value = self.next()
            if value < limit:
                return value % bound


def deal_tiles(number: int) -> list[int]:
    """The 108 kinds of deal ``number`` in reading order (row by row)."""
    check_deal_number(number)
    tiles = [kind for kind in range(KIND_COUNT) for _ in range(COPIES)]
    rng = SplitMix64(number)
    for i in range(len(tiles) - 1, 0, -1):
        j = rng.below(i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def deal(number: int) -> Position:
    """The starting position of deal ``number``: player 1 to move, 0-0."""
    tiles = deal_tiles(number)
    rows = [tiles[row * COLS : (row + 1) * COLS] for row in range(ROWS)]
    return Position.from_rows(rows)


def random_deal_number() -> int:
    """A fresh deal number, short enough to read out to a friend."""
    return secrets.randbelow(1_000_000)


_NOT_A_DEAL = N_("{text} is not a deal number (expected a whole number from 0 to {last})")


def check_deal_number(number: int) -> None:
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number <= MAX_DEAL:
        raise NotationError(_NOT_A_DEAL, text=repr(number), last=MAX_DEAL)


def parse_deal_number(text: str) -> int:
    """Read a deal number from text, with a message naming the text if it is not one."""
    stripped = text.strip()
    # Check the length before int(): Python refuses to convert more than 4300 digits
    # with a plain ValueError, which is not a NotationError.
    digits = stripped.lstrip("0") or "0"
    if not stripped.isdigit() or not stripped.isascii() or len(digits) > len(str(MAX_DEAL)):
        shown = text if len(text) <= 30 else text[:27] + "..."
        raise NotationError(_NOT_A_DEAL, text=repr(shown), last=MAX_DEAL)
    number = int(digits)
    check_deal_number(number)
    return number
