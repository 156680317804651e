"""Refusals to word, built from the refusals' table itself (``battle/web/refusal_words.json``): for
every case of every code, an error that fits it with each of ``COUNTS``, and every code of the
protocol with no params, with and without a game to name the seat to move. The window's test and
the page's test word the same list."""

from __future__ import annotations

import re
from typing import Any

from battle.online.client.wording import RESERVED_KEYS, Case, refusal_words
from battle.online.protocol.messages import ErrorCode

STATE: dict[str, Any] = {
    "type": "state",
    "game": "g1",
    "you": 1,
    "status": "playing",
    "start": "",
    "deal": 1,
    "moves": [],
    "to_move": 2,
    "scores": [0, 0],
    "players": [
        {"seat": 1, "name": "Ann", "presence": "connected", "creator": True},
        {"seat": 2, "name": "Solver (club)", "presence": "connected", "creator": False},
    ],
}
"""A game to name a seat from: the solver, seat 2, is to move (named in the reader's language)."""
COUNTS = (1, 3, 2.4, 2.6)
"""A plural's counts: one, several, and seconds to wait that are not whole (both sides round them up)."""
FILLED = {"number": 4, "text": "c2-d9", "seat": 2}
"""What each kind of field is given when a sample fits a case (a plural's count is the sample's)."""


def fitting(case: Case, count: float) -> tuple[dict[str, Any], bool]:
    """Params that fit ``case`` (its params' values, each of its fields filled) and whether it needs
    a game to name a seat."""
    kinds = refusal_words().fields
    params: dict[str, Any] = {key: value for key, value in case.items() if key not in RESERVED_KEYS}
    say = case["say"]
    with_state = False
    for field in re.findall(r"\{(\w+)\}", " ".join([say] if isinstance(say, str) else say)):
        kind = kinds[field]
        if kind == "plural":
            params[str(case["plural"])] = count
        elif kind == "seat":
            params["seat"] = FILLED["seat"]
            with_state = True
        elif kind in FILLED:
            params[field] = FILLED[kind]
    return params, with_state


def samples() -> list[tuple[str, dict[str, Any], bool]]:
    """(code, params, with a game) for every case of the table, then every code bare."""
    found: list[tuple[str, dict[str, Any], bool]] = []
    for code, cases in refusal_words().codes.items():
        for case in cases:
            for count in COUNTS:
                params, with_state = fitting(case, count)
                found.append((code, params, with_state))
    for code in ErrorCode:
        found += [(code.value, {}, False), (code.value, {}, True), (code.value, {"seat": 2}, False)]
    return found
