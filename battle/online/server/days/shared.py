"""One day's table for every server group (``serve --group --shared``): the day's results in PostgreSQL.

Each group reads the results its own database holds (``results``, on from where it stopped)
into a ``DayBoard`` and writes the board's rows, each network's best and each device's, as rows of
``battle_day_results`` every ``PUBLISH_SECONDS`` while games of the day end (a best beaten is taken
away): whatever the number of results, the rows a table can show and no more. It reads the other
groups' rows for its table, kept ``CACHE_SECONDS`` (a page that asks every second
costs one query in three seconds). Its own results it ranks from its own database, so a player sees
their result at once; the others' arrive within ``PUBLISH_SECONDS + CACHE_SECONDS``.

A row holds no device key: its SHA-256 (``hash_token``), which the table compares to the hash of
the asker's key. A seat's network is its group's own keyed hash, named with the group: one network
fills at most ``ROWS_PER_NETWORK`` of the top on each group it plays on. Without PostgreSQL a group
ranks its own results alone (the log says so once).

The rows' codec (``result_row``, ``read_result_row``) is pure; ``SharedDays`` is the adapter.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from battle.online.protocol.codes import hash_token
from battle.online.protocol.messages import ProtocolError
from battle.online.protocol.reader import read_json
from battle.online.server.days.results import (
    MAX_RESULTS,
    READ_CHUNK,
    START,
    Cursor,
    cursor_of,
    day_results,
    finished_on,
)
from battle.online.server.days.table import DayBoard, DayResult
from battle.online.server.processes.group_routes import DirectoryDown
from battle.online.server.processes.shared_away import SaidOnce
from battle.online.server.processes.shared_directory import SharedDirectory
from battle.online.server.rooms.store import GameStore

if TYPE_CHECKING:
    import psycopg

    from battle.online.server.solving.games import DealBook

log = logging.getLogger("mahjong-battle.server")

PUBLISH_SECONDS = 2.0
"""How often a group writes the results of the games of the day that ended since it last did."""
CACHE_SECONDS = 3.0
"""How long the other groups' results are ranked from memory before they are read again."""
KEEP_DAYS = 2
"""Days of results kept in PostgreSQL: the day's and the one before, for a page open over midnight."""


class BadResultRow(ValueError):
    """A ``battle_day_results`` row no group wrote; quotes what is wrong."""


def hashed_device(result: DayResult) -> DayResult:
    """``result`` with its device key as the table compares keys of every group: its SHA-256."""
    return replace(result, device=None if result.device is None else hash_token(result.device))


def result_row(result: DayResult) -> str:
    """A result (its device already hashed, ``hashed_device``) as ``battle_day_results.result`` holds it."""
    return json.dumps(
        {
            "game": result.game,
            "seat": result.seat,
            "name": result.name,
            "scores": list(result.scores),
            "first": result.first,
            "opponent": result.opponent,
            "finished_at": result.finished_at,
            "network": result.network,
            "device": result.device,
            "other_network": result.other_network,
        },
        separators=(",", ":"),
    )


def read_result_row(group: str, text: str) -> DayResult:
    """A row of ``group`` as its result: its game and network named with the group, so two groups'
    never meet; ``BadResultRow`` for anything else."""
    try:
        data = read_json(text)
        if not isinstance(data, dict):
            raise TypeError
        scores = data["scores"]
        device = data["device"]
        other = data.get("other_network", "")
        result = DayResult(
            game=f"{group}/{data['game']}",
            seat=int(data["seat"]),
            name=str(data["name"]),
            scores=(int(scores[0]), int(scores[1])),
            first=int(data["first"]),
            opponent=str(data["opponent"]),
            finished_at=float(data["finished_at"]),
            network=f"{group}:{data['network']}",
            device=None if device is None else str(device),
            other_network=f"{group}:{other}" if other else "",
        )
    except (ProtocolError, ValueError, TypeError, KeyError, IndexError, OverflowError):
        raise BadResultRow(f"not a day's result: {text[:60]!r}") from None
    if result.seat not in (1, 2) or len(scores) != 2:
        raise BadResultRow(f"not a day's result: {text[:60]!r}")
    return result


@dataclass
class _Published:
    """What a group has read of a day's results and written of them."""

    day: datetime.date
    board: DayBoard
    cursor: Cursor = START
    written: set[tuple[str, int]] = field(default_factory=set)
    """The (game, seat) of the rows written: the bests as last published."""


class SharedDays:
    """The day's results of every group, through ``directory`` (this group's ``directory.group``)."""

    def __init__(self, directory: SharedDirectory, clock: Callable[[], float]) -> None:
        self.directory = directory
        self.clock = clock
        """Wall-clock seconds (the monotonic age of the cache is read from the loop)."""
        self._published: _Published | None = None
        """Today's results as read so far, and the bests written."""
        self._published_as: tuple[datetime.date, int] | None = None
        """The day and the count of its games finished when the results were last written."""
        self._read: tuple[datetime.date, int, float, list[DayResult]] | None = None
        """The other groups' results as last read: the day, its deal, when (loop seconds), the rows."""
        self._reading: tuple[tuple[datetime.date, int], asyncio.Future[list[DayResult]]] | None = None
        """The read under way, for its day and deal."""
        self._away = SaidOnce("the shared day's table is unavailable; this group ranks its own results alone")

    @property
    def group(self) -> str:
        return self.directory.group

    async def others(self, day: datetime.date, deal: int) -> list[DayResult]:
        """The other groups' results of ``day`` on ``deal`` (devices hashed); none while PostgreSQL is away.
        Asks that come while a read is under way wait for that read (one query at a time, whatever the
        number of pages asking)."""
        now = asyncio.get_running_loop().time()
        if self._read is not None and self._read[:2] == (day, deal) and now - self._read[2] < CACHE_SECONDS:
            return self._read[3]
        if self._reading is None or self._reading[0] != (day, deal) or self._reading[1].done():
            self._reading = ((day, deal), asyncio.ensure_future(self._read_others(day, deal, now)))
        reading = self._reading
        try:
            return await asyncio.shield(reading[1])
        finally:
            if self._reading is reading and reading[1].done():
                self._reading = None

    async def _read_others(self, day: datetime.date, deal: int, now: float) -> list[DayResult]:
        """Read the other groups' rows and keep them (as of ``now``) for ``CACHE_SECONDS``."""

        async def read(connection: psycopg.AsyncConnection[Any]) -> list[tuple[str, str]]:
            cursor = await connection.execute(
                "SELECT grp, result FROM battle_day_results WHERE day = %s AND deal = %s AND grp <> %s "
                "ORDER BY finished_at LIMIT %s",
                (day, deal, self.group, MAX_RESULTS),
            )
            return [(str(grp), str(result)) for grp, result in await cursor.fetchall()]

        try:
            rows = await self.directory.run(read)
        except DirectoryDown:
            self._away.lost()
            return []
        self._away.answered()
        results: list[DayResult] = []
        for group, text in rows:
            try:
                results.append(read_result_row(group, text))
            except BadResultRow as problem:
                log.warning("left out a shared day's result: %s", problem)
        self._read = (day, deal, now, results)
        return results

    async def publish(self, store: GameStore, deals: DealBook) -> None:
        """Write this group's best result of each network and of each device today (``DayBoard``): the
        rows the table can show, however many results the day has; a best beaten is taken away."""
        from battle.rules.deal import deal as deal_start

        day = datetime.datetime.fromtimestamp(self.clock(), datetime.UTC).date()
        number = deals.daily_deal(day)
        finished = finished_on(store, day)
        if number is None or self._published_as == (day, finished):
            return
        start = deal_start(number)
        par = deals.par(number, start)
        if par is None:
            return
        if self._published is None or self._published.day != day:
            self._published = _Published(day, DayBoard(par))
        published = self._published
        fresh = day_results(store, day, number, start.to_move, published.cursor, READ_CHUNK)
        for result in fresh:
            published.board.add(hashed_device(result))
        bests = {
            (r.game, r.seat): r for r in [*published.board.by_network.values(), *published.board.by_device.values()]
        }
        rows = [
            (self.group, r.game, r.seat, day, number, r.finished_at, result_row(r))
            for key, r in bests.items()
            if key not in published.written
        ]
        gone = [(self.group, game, seat) for game, seat in published.written - bests.keys()]

        async def write(connection: psycopg.AsyncConnection[Any]) -> None:
            async with connection.transaction(), connection.cursor() as cursor:
                if rows:
                    await cursor.executemany(
                        "INSERT INTO battle_day_results (grp, game, seat, day, deal, finished_at, result) "
                        "VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (grp, game, seat) DO UPDATE "
                        "SET result = EXCLUDED.result",
                        rows,
                    )
                if gone:
                    await cursor.executemany(
                        "DELETE FROM battle_day_results WHERE grp = %s AND game = %s AND seat = %s", gone
                    )
                await cursor.execute(
                    "DELETE FROM battle_day_results WHERE grp = %s AND day < %s",
                    (self.group, day - datetime.timedelta(days=KEEP_DAYS - 1)),
                )

        await self.directory.run(write)
        published.written = set(bests)
        if fresh:
            published.cursor = cursor_of(fresh[-1])
        if len(fresh) < READ_CHUNK:  # read to the end: nothing more until a game of the day ends
            self._published_as = (day, finished)

    async def publish_forever(self, store: GameStore, deals: DealBook) -> None:
        """``publish`` every ``PUBLISH_SECONDS`` while the server runs; a PostgreSQL away is tried later."""
        while True:
            try:
                await self.publish(store, deals)
                self._away.answered()
            except DirectoryDown:
                self._away.lost()
            await asyncio.sleep(PUBLISH_SECONDS)
