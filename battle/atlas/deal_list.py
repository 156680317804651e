"""Which deals a survey covers: ``1-500``, ``1,7,42``, ``1-10,20-30``."""

from __future__ import annotations

from battle.i18n import _
from battle.rules.deal import MAX_DEAL

MAX_DEALS = 1_000_000
"""Deals one survey command may name: a million full solves is years of one machine's time."""


def parse_deal_list(text: str) -> list[int]:
    """The deal numbers ``text`` names, in its order without repeats; ValueError naming the bad part."""
    numbers: list[int] = []
    seen: set[int] = set()
    stripped = text.strip()
    if not stripped:
        raise ValueError(_("no deals named (expected e.g. 1-500 or 1,7,42)"))
    for part in stripped.split(","):
        piece = part.strip()
        low_text, dash, high_text = piece.partition("-")
        low = _number(low_text, piece)
        high = _number(high_text, piece) if dash else low
        if high < low:
            raise ValueError(
                _("{piece}: the range runs backwards ({low} > {high})").format(piece=repr(piece), low=low, high=high)
            )
        if high - low + 1 + len(numbers) > MAX_DEALS:
            raise ValueError(
                _("{piece}: more than {most} deals in one survey").format(piece=repr(piece), most=f"{MAX_DEALS:,}")
            )
        for number in range(low, high + 1):
            if number not in seen:
                seen.add(number)
                numbers.append(number)
    return numbers


def _number(text: str, piece: str) -> int:
    digits = text.strip()
    if not digits.isdigit() or not digits.isascii() or len(digits.lstrip("0")) > len(str(MAX_DEAL)):
        shown = piece if len(piece) <= 30 else piece[:27] + "..."
        raise ValueError(
            _("{text} is not a deal number or a range of them (expected e.g. 1-500 or 1,7,42)").format(text=repr(shown))
        )
    number = int(digits)
    if number > MAX_DEAL:
        raise ValueError(_("{number} is beyond the last deal number, {last}").format(number=number, last=MAX_DEAL))
    return number
