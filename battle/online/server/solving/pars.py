"""The par of every game's deal: from a catalogue, from the pars the server's solver worked out
before, or worked out now at the pool's lowest priority.

A connection in a game asks for its deal's par (``par``; the page asks as it opens a game, so the
par is found while the game is played). A deal no catalogue knows and no row of ``pars`` holds
becomes one unit of the pool (``SolverWork.par``: after every move, hint, analysis and review, at
most one worker at a time, within the pool's own budget of nodes) charged to no address's solver
time but counted against the asking network's ``ServerLimits.pars_per_hour``, in the counts every
process shares. Every connection that asked about the deal is told its news (its place, then the
par, or that the budget ran out first); the result is a row of ``pars`` that every later game on the
deal reads, in any process, and that the reviews grade the first move on (``KnownPars``). Server
groups share the pars they find (``shared_pars``): a deal solved on one is not solved on another.

A unit runs to its end whether or not anyone still looks (its result is kept for the next game on
the deal); everything that starts one also ends it, by the pool's budget of nodes for a par.
"""

from __future__ import annotations

import asyncio
import datetime
import hashlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from battle.online.protocol.solver_messages import AskPar, ParResult
from battle.online.server.limits.address_guard import AddressGuard
from battle.online.server.peers.connections import Client
from battle.online.server.rooms.live_games import LiveGames, stored
from battle.online.server.rooms.room import Room
from battle.online.server.rooms.store import GameStore, StoreError
from battle.online.server.solving import wire
from battle.online.server.solving.games import DealBook, tell
from battle.online.server.solving.outcomes import SolverRefusal, Waiting, WorkFailed, WorkRefused
from battle.online.server.solving.par_rows import ParRow, par_at, plan_par
from battle.rules.board import Position
from battle.rules.notation import format_position, parse_position

if TYPE_CHECKING:
    from battle.online.server.solving.shared_pars import SharedPars
    from battle.online.server.solving.work import AnalysisResult, SolverWork, Work

log = logging.getLogger("mahjong-battle.server")

RETRY_FAILED = 60.0
"""Seconds after which a page asks again for a par whose search failed (its worker lost three times,
or a pool in another process refused it after taking it)."""


class KnownPars:
    """A ``DealBook`` that knows the pars the server's solver found as well as the catalogue's: a game
    against the solver on such a deal shows its par, and a review grades its first move on it."""

    def __init__(self, deals: DealBook, store: GameStore) -> None:
        self.deals = deals
        self.store = store

    def daily_deal(self, day: datetime.date) -> int | None:
        return self.deals.daily_deal(day)

    def fair_deals(self, margin: int) -> list[int]:
        return self.deals.fair_deals(margin)

    def par(self, deal: int | None, start: Position) -> int | None:
        known = self.known_start(deal, start)
        return None if known is None else wire.final_margin(start, known[0])

    def known_start(self, deal: int | None, start: Position) -> tuple[int, tuple[str, ...]] | None:
        known = self.deals.known_start(deal, start)
        if known is not None:
            return known
        try:
            row = par_at(self.store, format_position(start))
        except StoreError as problem:
            log.error("%s", problem)
            return None
        if row is None or row.status != "found" or row.value is None:
            return None
        return row.value, row.best


class Pars:
    """The pars being worked out in this process, and the connections told of each. ``deals`` is the
    catalogue alone: the rows of ``pars`` are read here once, found or unproved."""

    def __init__(
        self,
        live: LiveGames,
        work: SolverWork | None,
        deals: DealBook,
        guard: AddressGuard,
        clock: Callable[[], float],
    ) -> None:
        self.live = live
        self.work = work
        self.deals = deals
        self.guard = guard
        self.clock = clock
        self.pending: dict[str, Work[AnalysisResult]] = {}
        """The pars the pool has not answered yet, by start (``.mbp`` text)."""
        self.readers: dict[str, set[tuple[Client, str]]] = {}
        """The connections told of each pending par's news, each with the game it asked in."""
        self._places: dict[str, Waiting | None] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._keeping: set[asyncio.Future[None]] = set()
        """The writes of pars found to the shared database under way."""
        self.shared: SharedPars | None = None
        """The pars every server group found (``serve --group --shared``): read before this group's
        pool is asked, written when it finds one; None on one machine."""

    async def ask(self, client: Client, room: Room, message: AskPar, now: float) -> None:
        """The par of ``room``'s deal: known, being worked out (the connection is told its news), or why not."""
        game = room.game
        known = self.deals.known_start(game.deal_number, game.start)
        if known is not None:
            tell(client, wire.par_known(room.game_id, game.start, *known))
            return
        start = format_position(game.start)
        row = par_at(self.live.store, start)
        if row is None and self.shared is not None and start not in self.pending:  # one look a search, not an ask
            row = await self.shared.find(start, game.start)
            if row is not None:  # another group's: kept here for the later games and the reviews
                await self._store(row)
        if row is not None:
            tell(client, _row_news(room.game_id, row))
            return
        if start not in self.pending:
            refusal = self._queue(start, game.start, client.address, room.game_id)
            if refusal is not None:
                tell(client, refusal)
                return
        self.readers.setdefault(start, set()).add((client, room.game_id))
        tell(client, wire.par_working(room.game_id, game.start, self._places.get(start)))

    def _queue(self, start: str, position: Position, address: str, game: str) -> ParResult | None:
        """Queue the par of the deal from ``position``, counted against ``address``'s network; what
        ``game``'s asker is told instead when the network has had its pars for the hour, the server runs
        no solver or the pool refuses."""
        if self.work is None or not position.has_moves():
            return wire.par_none(game)
        wait = self.guard.take_par(address, time.monotonic())
        if wait is not None:
            return wire.par_refused(game, "per_hour", wait)
        shard = self.live.shard
        digest = hashlib.sha256(start.encode()).hexdigest()[:16]
        work = self.work.par(position, seat=f"par:{'' if shard.alone else shard.index}:{digest}", address=address)
        if isinstance(work, SolverRefusal):
            return wire.par_refused(game, "busy", work.retry_after)
        self.pending[start] = work
        self._places[start] = work.waiting()
        self.work.watch(work, lambda waiting: self._placed(start, waiting))
        self._tasks[start] = asyncio.ensure_future(self._when_done(start, work))
        return None

    def _placed(self, start: str, waiting: Waiting | None) -> None:
        if waiting is None or start not in self.pending:
            return
        before = self._places.get(start)
        self._places[start] = waiting
        if before is not None and (before.place, before.at_least) == (waiting.place, waiting.at_least):
            return
        position = parse_position(start)
        for client, game in self.readers.get(start, ()):
            tell(client, wire.par_working(game, position, waiting))

    async def _when_done(self, start: str, work: Work[AnalysisResult]) -> None:
        try:
            found = await work.answer()
        except (WorkRefused, WorkFailed) as failure:
            log.warning("a par was not worked out: %s", failure)
            self._tell_all(start, lambda game: wire.par_refused(game, "busy", RETRY_FAILED))
            return
        if found.exact:
            row = ParRow(start, "found", found.value, found.best_moves, self.clock())
        else:
            waiting = self._places.get(start)  # the least the search proved, as the pool last said
            row = ParRow(start, "unproved", None if waiting is None else waiting.at_least, (), self.clock())
        await self._store(row)
        self._tell_all(start, lambda game: _row_news(game, row))
        if row.status == "found" and self.shared is not None:
            keeping = asyncio.ensure_future(self.shared.keep(row))
            self._keeping.add(keeping)  # ended by close, as the searches are
            keeping.add_done_callback(self._keeping.discard)

    async def _store(self, row: ParRow) -> None:
        try:
            await stored(self.live.committer.submit(plan_par(row)))
        except StoreError as problem:
            log.error("%s", problem)

    def _tell_all(self, start: str, news: Callable[[str], ParResult]) -> None:
        """Tell each connection that asked about ``start`` its end, and forget the par."""
        self.pending.pop(start, None)
        self._places.pop(start, None)
        self._tasks.pop(start, None)
        for client, game in self.readers.pop(start, set()):
            tell(client, news(game))

    def forget(self, client: Client) -> None:
        """A connection closed: it is told no more (the par is worked out all the same, for later games)."""
        for readers in self.readers.values():
            for reader in [reader for reader in readers if reader[0] is client]:
                readers.discard(reader)

    async def close(self) -> None:
        tasks = [*self._tasks.values(), *self._keeping]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _row_news(game: str, row: ParRow) -> ParResult:
    if row.status == "found" and row.value is not None:
        return wire.par_known(game, parse_position(row.start), row.value, row.best)
    return wire.par_unproved(game, parse_position(row.start), row.value)
