"""A browser's own figures on the server: filing its games under its device key, the table of the
deal of the day, its statistics (the ``device_messages`` requests).

A thin shell over ``device_games`` and ``results`` (the database) and the pure parts
(``table``, the window's ``compute_stats``); what it sends is a plain JSON object per answer,
built by ``wire``.

With ``serve --group --shared`` (``shared``) the day's table ranks this group's results with the
other groups' (``shared``), every device key compared by its SHA-256.
"""

from __future__ import annotations

import asyncio
import collections
import datetime
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from battle.history.stats import compute_stats
from battle.online.protocol import messages
from battle.online.protocol.codes import hash_token
from battle.online.protocol.device_messages import AskDaily, AskStats, ClaimGame, device_news_json
from battle.online.protocol.messages import ErrorCode, ProtocolError
from battle.online.server.days import results as daily_results
from battle.online.server.days.device_games import claim_refusal, device_games, filed_count, plan_claim
from battle.online.server.days.results import START, Cursor, cursor_of, day_results, finished_on
from battle.online.server.days.shared import SharedDays, hashed_device
from battle.online.server.days.table import DayBoard, DayResult, DayRow, day_board
from battle.online.server.days.wire import daily_table, device_stats
from battle.online.server.limits.address_guard import AddressGuard
from battle.online.server.peers.connections import Client
from battle.online.server.rooms.live_games import LiveGames, stored
from battle.online.server.rooms.room import Room
from battle.online.server.solving.games import DealBook
from battle.rules.deal import deal as deal_start

NEW_KEY = "device_key"
"""The kind of the shared counts' marks of the new device keys whose first game a network is filing
(no row yet): counted with the keys it filed under this hour, once, whichever process files them."""
CLAIM_SECONDS = 60.0
"""How long such a mark counts without its drop: the process filing it died meanwhile (a claim is
stored in milliseconds)."""
STATS_FRESH_SECONDS = 2.0
"""How long a device's statistics are answered as figured while no game is filed under it: a game
that ends shows within this (a page asks once as /stats/ opens)."""
STATS_KEPT = 1_000
"""Devices whose statistics are kept at once, the least recently asked dropped first."""


@dataclass
class _DayRead:
    """How far the day's results are read, and what they make."""

    day: datetime.date
    number: int
    board: DayBoard
    cursor: Cursor = START
    finished: int = -1
    """The games finished that day when it was last read (-1: never)."""
    more: bool = False
    """The last read filled its chunk: there may be more to read before a game ends again."""
    reading: asyncio.Future[tuple[int, list[DayResult]]] | None = None
    """The read under way on the statistics thread."""


class DeviceDesk:
    """The handlers of ``device``, ``daily`` and ``my_stats``."""

    def __init__(self, live: LiveGames, guard: AddressGuard, deals: DealBook, clock: Callable[[], float]) -> None:
        self.live = live
        self.guard = guard
        """Where the new keys whose first game is being filed are marked, for every process (``NEW_KEY``)."""
        self.deals = deals
        self.clock = clock
        self._day: _DayRead | None = None
        """The day's results as read so far (``DayBoard``: each network's best, each device's): until a
        game of the day ends, a ``daily`` counts in the end-time index and ranks from memory; then it
        reads on from where the last read stopped, ``READ_CHUNK`` seats at most (a seat filed under a
        device after it was read keeps no device; the page files its seat when the game starts)."""
        self._stats: collections.OrderedDict[str, tuple[float, int, bytes]] = collections.OrderedDict()
        """Each device's statistics as last figured: when (loop seconds), its games filed then, the answer."""
        self._figuring: dict[str, asyncio.Future[bytes]] = {}
        """The statistics being figured, by device: asks that come meanwhile wait for the same."""
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="device-stats")
        """Where statistics are figured: off the event loop, one device at a time (a key of 760 games
        took 8 ms of the loop a ``my_stats``: 30 connections asking pushed a neighbour's ping to 1.4 s)."""
        self.shared: SharedDays | None = None
        """The other server groups' results of the day (``serve --group --shared``); None: one machine."""

    async def claim(self, client: Client, room: Room, message: ClaimGame, now: float) -> None:
        """File the game of ``client``'s seat under the device key (silent when it is filed)."""
        seat = client.seat
        if seat is None:
            raise ProtocolError(ErrorCode.NOT_ALLOWED, "a spectator files no game; take a seat first")
        network = self.live.networks.tag(client.address)
        store, device = self.live.store, message.device
        moment = time.monotonic()
        with self.guard.counts.held(moment) as counts:  # a network's last new key is taken once, in any process
            claiming = counts.marked(NEW_KEY, network, moment)
            held = filed_count(store, device)
            refusal = claim_refusal(store, self.guard.limits, device, network, now, claiming, held)
            if refusal is not None:
                why, line = refusal
                raise ProtocolError(ErrorCode.RATE_LIMITED, line, params={"why": why})
            new = held == 0 and device not in claiming
            if new:
                counts.put_mark(NEW_KEY, network, device, moment + CLAIM_SECONDS)
        try:
            await stored(self.live.committer.submit(plan_claim(room.game_id, seat, device, network, now)))
        finally:
            if new:  # its row counts it now, or the claim failed
                with self.guard.counts.held(time.monotonic()) as counts:
                    counts.drop_mark(NEW_KEY, device)

    async def daily(self, client: Client, message: AskDaily) -> None:
        """The deal of the day, its par and the day's table (``daily_table``)."""
        day = datetime.datetime.fromtimestamp(self.clock(), datetime.UTC).date()
        number = self.deals.daily_deal(day)
        answer = daily_table(day, None, None, None, ())
        if number is not None:
            start = deal_start(number)
            par = self.deals.par(number, start)
            rows: tuple[DayRow, ...] = ()
            if par is not None:
                board = await self._board(day, number, par, start.to_move)
                device = message.device
                if self.shared is not None:  # every key compared by its hash, as the other groups hold them
                    others = await self.shared.others(day, number)
                    board = day_board([*board.by_network.values(), *board.by_device.values(), *others], par)
                    device = None if device is None else hash_token(device)
                rows = board.table(device)
            answer = daily_table(day, number, par, start.to_move, rows)
        await client.send(messages.encode(device_news_json(answer)).encode())

    async def _board(self, day: datetime.date, number: int, par: int, first: int) -> DayBoard:
        """The day's board, read on (on the statistics thread) when a game of the day has ended since;
        asks that come meanwhile wait for the same read."""
        read = self._day
        if read is None or (read.day, read.number) != (day, number):
            read = self._day = _DayRead(day, number, DayBoard(par))
        if read.reading is not None:
            await asyncio.shield(read.reading)
            return read.board
        loop = asyncio.get_running_loop()
        chunk = daily_results.READ_CHUNK
        args = (day, number, first, read.cursor, chunk, read.finished, read.more)
        read.reading = loop.run_in_executor(self._thread, self._read_on, *args)
        try:
            finished, results = await asyncio.shield(read.reading)
        finally:
            read.reading = None
        for result in results:
            read.board.add(hashed_device(result) if self.shared is not None else result)
        if results:
            read.cursor = cursor_of(results[-1])
        read.more = len(results) == chunk
        read.finished = finished
        return read.board

    def _read_on(
        self, day: datetime.date, number: int, first: int, after: Cursor, chunk: int, known: int, more: bool
    ) -> tuple[int, list[DayResult]]:
        """The games of ``day`` finished now, and (when that is not ``known`` or the last read was
        ``more``) the results after ``after``: on the statistics thread, with a connection of its own."""
        with self.live.store.reading() as reader:
            finished = finished_on(reader, day)
            if finished == known and not more:
                return finished, []
            return finished, day_results(reader, day, number, first, after, chunk)

    async def stats(self, client: Client, message: AskStats) -> None:
        """The statistics of the games filed under the device key (``my_stats_result``): figured on the
        statistics thread, kept ``STATS_FRESH_SECONDS`` while no game is filed under the key."""
        device = message.device
        loop = asyncio.get_running_loop()
        filed = filed_count(self.live.store, device)
        kept = self._stats.get(device)
        if kept is not None and kept[1] == filed and loop.time() - kept[0] < STATS_FRESH_SECONDS:
            self._stats.move_to_end(device)
            await client.send(kept[2])
            return
        figuring = self._figuring.get(device)
        if figuring is None:
            figuring = loop.run_in_executor(self._thread, self._figure, device)
            self._figuring[device] = figuring
            figuring.add_done_callback(lambda _: self._figuring.pop(device, None))
        frame = await asyncio.shield(figuring)
        self._stats[device] = (loop.time(), filed, frame)
        self._stats.move_to_end(device)
        while len(self._stats) > STATS_KEPT:
            self._stats.popitem(last=False)
        await client.send(frame)

    def _figure(self, device: str) -> bytes:
        """``my_stats_result`` of ``device``, on the statistics thread with a connection of its own."""
        with self.live.store.reading() as reader:
            games = device_games(reader, device, self.guard.limits.games_per_device)
        stats = compute_stats([game.entry for game in games], [])
        return messages.encode(device_news_json(device_stats(stats, games))).encode()
