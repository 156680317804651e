"""The pars the server's solver worked out, as rows of the game database (``store``'s ``pars``).

A row is keyed by the deal's start position in ``.mbp`` text, so every game on that deal (a rematch,
a friend's game on the same number, a game against the solver) reads the one row, whatever process
holds it. ``found``: the solver's value of the start and the best first moves; ``unproved``: the
search's budget (``battle.players.pool.jobs.PAR_NODES``) ran out before its proof, which a second search on the same
pool would do again, so it is not asked again (its value, when known, the least the search proved).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

from battle.online.server.rooms.store import GameStore, Statement, Write
from battle.rules.board import parse_move

ParRowStatus = Literal["found", "unproved"]


@dataclass(frozen=True)
class ParRow:
    """One deal's par as the server's solver left it: ``value`` the solver's value of the start when
    found (with ``best``), or the least it proved when unproved (None: no root move proved)."""

    start: str
    status: ParRowStatus
    value: int | None
    best: tuple[str, ...]
    found_at: float


def plan_par(row: ParRow) -> Write:
    """Store ``row``, in place of what the deal had."""
    return Write(
        f"par {hashlib.sha256(row.start.encode()).hexdigest()[:12]}",
        "storing a deal's par",
        (
            Statement(
                "INSERT INTO pars (start, status, value, best, found_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (start) DO UPDATE SET status = excluded.status, value = excluded.value, "
                "best = excluded.best, found_at = excluded.found_at",
                (row.start, row.status, row.value, " ".join(row.best), row.found_at),
            ),
        ),
    )


def par_at(store: GameStore, start: str) -> ParRow | None:
    """The row of the deal from ``start`` (``.mbp`` text), or None; a row that does not read (a value
    that is no number, a move that is no move) is as none, so the par is worked out again."""
    rows = store.read_rows("SELECT start, status, value, best, found_at FROM pars WHERE start = ?", (start,))
    if not rows:
        return None
    text, status, value, best, found_at = rows[0]
    moves = tuple(str(best).split())
    try:
        for move in moves:
            parse_move(move)
    except ValueError:
        return None
    if status == "found" and isinstance(value, int) and moves:
        return ParRow(text, "found", value, moves, float(found_at))
    if status == "unproved":
        least = value if isinstance(value, int) and not isinstance(value, bool) else None
        return ParRow(text, "unproved", least, (), float(found_at))
    return None
