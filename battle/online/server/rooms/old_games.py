"""Finished games are kept ``keep_seconds`` (``serve --keep-days``, 30 by default), then deleted.

A game is old once it finished, and its review (if it has one) was made, more than that long ago:
a review link shared late works for the whole time after it was made. A review still queued keeps
its game, and so does a game a connection has open. Players are unknown to the server (no
accounts), so every game is kept alike. Deleting a game deletes its seats, moves, solver seat,
seat networks and review with it (``ON DELETE CASCADE``); a rematch that began from it forgets
where it came from (``rematch_of``).

A browser's puzzle attempts are kept as long (``old_attempts``): an attempt is folded into its device's
rating as it is decided (the ``puzzle_devices`` row keeps the rating and the streaks), so what an old
one still says (that puzzle's rating for the device) goes back to the mined one, as an attempt
beyond ``puzzles.ledger.ATTEMPTS_KEPT`` does. A network's 600 attempts an hour then hold at most
keep-days x 24 x 600 rows of about 275 B (20,000 attempts of 300 devices, one commit each).

The deletions are writes of the group writer like a move's, in the background: at most
``BATCH`` games a write, so a move waits behind at most one of them (200 finished games of 54
moves took 26 ms with the store's full sync, ``benchmarks/online_storage.py``); a pass that found a
full batch is followed by the next after ``AGAIN_SECONDS``, else after ``EVERY_SECONDS``. The first
pass runs as the server starts.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from battle.online.server.rooms.live_games import LiveGames, stored
from battle.online.server.rooms.store import GameStore, Statement, StoreError, Write

log = logging.getLogger("mahjong-battle.server")

BATCH = 200
"""Games one write deletes at most."""
ATTEMPTS_BATCH = 2000
"""Puzzle attempts one write deletes at most: rows of one table with three indexes, about as much
work as ``BATCH`` games."""
AGAIN_SECONDS = 1.0
"""After a full batch, the next pass comes this soon: 17 million games a day at most, some 3% of the
writer's time, where one network starts at most 1,460 (``creates_per_hour``)."""
EVERY_SECONDS = 600.0
"""After a pass that found fewer, the next comes this much later."""
DELETIONS = "old games"
"""What the writer calls the deletions' writes in place of a game's id (no game id has a space)."""


def old_games(store: GameStore, before: float, limit: int) -> list[str]:
    """The ids of up to ``limit`` finished games that ended before ``before`` and whose review, if any,
    is done (or failed) and was made before it too; the oldest first."""
    rows = store.read_rows(
        "SELECT g.id FROM games g WHERE g.status = 'finished' AND g.finished_at < ? AND NOT EXISTS ("
        "SELECT 1 FROM reviews r WHERE r.game = g.id AND (r.status = 'queued' "
        "OR COALESCE(r.finished_at, r.requested_at) >= ?)) ORDER BY g.finished_at LIMIT ?",
        (before, before, limit),
    )
    return [row[0] for row in rows]


ATTEMPTS = "puzzle_device_attempts"


def old_attempts(store: GameStore, before: float, limit: int) -> list[int]:
    """The ids of up to ``limit`` puzzle attempts made before ``before``, the oldest first (ids grow with
    time, so the scan stops at the first recent one)."""
    rows = store.read_rows(f"SELECT id FROM {ATTEMPTS} WHERE attempted_at < ? ORDER BY id LIMIT ?", (before, limit))
    return [int(row[0]) for row in rows]


def plan_delete_attempts(ids: list[int]) -> Write:
    marks = ", ".join("?" * len(ids))
    return Write(
        DELETIONS,
        f"deleting {len(ids)} old puzzle attempts",
        (Statement(f"DELETE FROM {ATTEMPTS} WHERE id IN ({marks})", tuple(ids)),),
    )


def plan_delete(games: list[str]) -> Write:
    """Delete ``games`` (finished ones only) and everything that hangs on them, in one transaction."""
    marks = ", ".join("?" * len(games))
    return Write(
        DELETIONS,
        f"deleting {len(games)} old finished games",
        (
            Statement(f"UPDATE games SET rematch_of = NULL WHERE rematch_of IN ({marks})", tuple(games)),
            Statement(f"DELETE FROM games WHERE status = 'finished' AND id IN ({marks})", tuple(games)),
        ),
    )


class OldGames:
    """The server's background deletion of old finished games."""

    def __init__(self, live: LiveGames, keep_seconds: float, clock: Callable[[], float]) -> None:
        self.live = live
        self.keep_seconds = keep_seconds
        self.clock = clock
        self.deleted = 0
        """Games deleted since the start (``/stats``)."""
        self.deleted_attempts = 0
        """Puzzle attempts deleted since the start."""

    async def one_pass(self) -> int:
        """Delete up to ``BATCH`` old games and ``ATTEMPTS_BATCH`` old puzzle attempts now; the larger
        share of a batch it found (a game open on a connection is found but kept)."""
        before = self.clock() - self.keep_seconds
        found = old_games(self.live.store, before, BATCH)
        games = [game for game in found if game not in self.live.rooms]
        if games:
            await stored(self.live.committer.submit(plan_delete(games)))
            self.deleted += len(games)
        attempts = old_attempts(self.live.store, before, ATTEMPTS_BATCH)
        if attempts:
            await stored(self.live.committer.submit(plan_delete_attempts(attempts)))
            self.deleted_attempts += len(attempts)
        return max(len(found), len(attempts) * BATCH // ATTEMPTS_BATCH)

    async def run(self) -> None:
        """Pass after pass until cancelled; a pass that fails is said in one line and tried again later."""
        while True:
            try:
                found = await self.one_pass()
            except StoreError as problem:
                log.error("%s", problem)
                self.live.committer.forgive(DELETIONS)  # the next pass's write is made afresh
                found = 0
            await asyncio.sleep(AGAIN_SECONDS if found >= BATCH else EVERY_SECONDS)
