"""The solver's rows in the game database: the seat the solver holds in a game against it, and the
reviews of finished games.

A game against the solver is an ordinary game of the store (its two seats, its moves, its status),
so a reload, a reconnection and a restart find it as they find a friend's; the ``solver_seats`` row
beside it says which seat the solver holds, at what level, with which seed (the move of ply ``n``
is drawn with ``seed + n``: a restart plays the same move), and the deal's par. A review is a row
of ``reviews``: queued until the pool's answer, then done with its ``review --json`` report (or
failed). Writes are ``Write`` values like every other of the store's, committed by the same writer.
Pure bookkeeping: no sockets, no solver.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from battle.online.protocol.solver_messages import LEVEL_NAMES, ReviewStatus
from battle.online.server.rooms.store import GameStore, Statement, StoreError, Write
from battle.rules.errors import one_line


@dataclass(frozen=True)
class SolverSeatRow:
    """The solver's seat in one game against it."""

    game: str
    seat: int
    level: str
    seed: int
    """The move of ply ``n`` (from 1) draws its choice with ``seed + n``."""
    par: int | None = None
    """The deal's par (the final margin of the player who moves first, under perfect play), if catalogued."""


@dataclass(frozen=True)
class ReviewRow:
    """One review: of which game, where it stands, and its report once done."""

    review: str
    game: str
    status: ReviewStatus
    requested_at: float
    finished_at: float | None = None
    report: dict[str, Any] | None = None


def plan_solver_seat(seat: SolverSeatRow) -> Statement:
    """The statement that stores the solver's seat; it goes in the game's own first write."""
    return Statement(
        "INSERT INTO solver_seats (game, seat, level, seed, par) VALUES (?, ?, ?, ?, ?)",
        (seat.game, seat.seat, seat.level, seat.seed, seat.par),
    )


def with_solver_seat(write: Write, seat: SolverSeatRow) -> Write:
    """A game's creation with its solver seat in the same transaction: the game is never on disk
    without the seat that tells the server to play it."""
    return Write(write.game, write.action, (*write.statements, plan_solver_seat(seat)))


def solver_seats(store: GameStore, games: list[str] | None = None) -> dict[str, SolverSeatRow]:
    """The solver's seats of the unfinished games (or of ``games``), by game id; a row that does not
    read is left out (its game plays on as a game nobody moves for)."""
    if games is None:
        rows = store.read_rows(
            "SELECT s.game, s.seat, s.level, s.seed, s.par FROM solver_seats s "
            "JOIN games g ON g.id = s.game WHERE g.status != 'finished'",
            (),
        )
    else:
        rows = []
        for game in games:
            rows += store.read_rows("SELECT game, seat, level, seed, par FROM solver_seats WHERE game = ?", (game,))
    found: dict[str, SolverSeatRow] = {}
    for game, seat, level, seed, par in rows:
        if seat in (1, 2) and level in LEVEL_NAMES and isinstance(seed, int) and (par is None or isinstance(par, int)):
            found[game] = SolverSeatRow(game, seat, level, seed, par)
    return found


def plan_review(row: ReviewRow) -> Write:
    """Store a review as ``row`` has it: a new one queued, or its end (done with its report, or failed).
    A failed review asked again takes its row's place."""
    report = None if row.report is None else json.dumps(row.report, separators=(",", ":"))
    return Write(
        f"review {row.review}",
        f"storing review {row.review} of game {row.game}",
        (
            Statement("DELETE FROM reviews WHERE game = ? AND id != ?", (row.game, row.review)),
            Statement(
                "INSERT INTO reviews (id, game, status, requested_at, finished_at, report) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET status = excluded.status, finished_at = excluded.finished_at, "
                "report = excluded.report",
                (row.review, row.game, row.status, row.requested_at, row.finished_at, report),
            ),
        ),
    )


def review_by_id(store: GameStore, review: str) -> ReviewRow | None:
    return _review(store, "id", review)


def review_of_game(store: GameStore, game: str) -> ReviewRow | None:
    return _review(store, "game", game)


def _review(store: GameStore, column: str, value: str) -> ReviewRow | None:
    rows = store.read_rows(
        f"SELECT id, game, status, requested_at, finished_at, report FROM reviews WHERE {column} = ?", (value,)
    )
    return _row(rows[0]) if rows else None


def _row(row: tuple[Any, ...]) -> ReviewRow:
    review, game, status, requested_at, finished_at, report = row
    try:
        parsed = None if report is None else json.loads(report)
    except (ValueError, sqlite3.Error) as error:
        raise StoreError(one_line(f"review {review}: its report does not read: {error}")) from None
    return ReviewRow(review, game, status, requested_at, finished_at, parsed)
