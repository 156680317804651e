"""The games the server holds in memory, and their way to disk.

Every unfinished game is a ``Room`` here from the start (``store.load_unfinished``), and a
finished one while a connection looks at it. A change is told to nobody before it is stored:
``stored`` waits for a write's future (``submit``), and ``settled`` for every write of a game
still in flight, so what a room holds then is what the disk holds. The writes go through a
``Committer``: the group writer's thread, or one transaction a write on the loop
(``group_commit``). A write that fails puts the room back to what is stored (``reload``).

The clock's part is here too (``game_ends``): a turn past its limit lost on time, a game nobody
joined expired, a game whose player to move is gone abandoned; their writes are queued without
waiting (``clock_changes``), so one tick's ends share one commit. Each deadline is a stored time
plus a limit, so the first look after a start ends, at once, every game a stop left past its limit.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time

from battle.online.protocol.messages import ErrorCode, ProtocolError
from battle.online.server.limits.server import ServerLimits
from battle.online.server.rooms.game_ends import SOLVER_NETWORK, abandon_deadline, abandoning_seat
from battle.online.server.rooms.group_commit import Committer
from battle.online.server.rooms.link_secrets import LinkSecrets
from battle.online.server.rooms.room import Room, Status, TimeCheck
from battle.online.server.rooms.seat_networks import SeatNetworks
from battle.online.server.rooms.shards import ONE_PROCESS, Shard
from battle.online.server.rooms.store import GameDamaged, GameStore, StoreError, Write

log = logging.getLogger("mahjong-battle.server")


class LiveGames:
    """The rooms by game id, and each one's last write not yet known to be on disk."""

    def __init__(
        self, store: GameStore, committer: Committer, limits: ServerLimits, shard: Shard = ONE_PROCESS
    ) -> None:
        self.store = store
        self.shard = shard
        """This process's share of the games (``serve --processes``): it holds the unfinished games of its shard."""
        self.committer = committer
        """Where writes go to disk; each one's future resolves once it is there."""
        self.limits = limits
        """How long a game waits for its second player and for its player to move (``game_ends``)."""
        self.links = LinkSecrets(store.link_key)
        """The secrets of the games' invite and watch links."""
        self.rooms: dict[str, Room] = {room.game_id: room for room in store.load_unfinished(shard.holds)}
        """Every unfinished game, and finished ones a connection is attached to."""
        self.networks = SeatNetworks(store.link_key, limits.ipv6_prefix)
        """The networks the seats of the unfinished games came from."""
        self.networks.load(store, self.rooms)
        self.in_flight: dict[str, asyncio.Future[None]] = {}
        """Each game's last write not yet known to be on disk (its earlier ones commit before it)."""
        self.commit_seconds: collections.deque[float] = collections.deque(maxlen=10_000)
        """How long the recent writes took from their submission to the disk, for ``/stats``."""

    # -- finding a game ------------------------------------------------------------------

    def room(self, game_id: str | None, missing: str) -> Room:
        """The game ``game_id`` names, loaded from the store if it is finished; ``not_found`` (with
        ``missing`` as the reason) when there is none, ``damaged`` when its rows do not rebuild."""
        if game_id is None:
            raise ProtocolError(ErrorCode.NOT_FOUND, missing)
        room = self.rooms.get(game_id)
        if room is None:
            try:
                room = self.store.load_game(game_id)  # a finished game, or one left out at the start
            except GameDamaged as problem:
                log.error("%s", problem)
                raise ProtocolError(
                    ErrorCode.DAMAGED, "the server could not load this game: its record in the database is damaged"
                ) from None
            if room is None:
                raise ProtocolError(ErrorCode.NOT_FOUND, missing)
            self.rooms[game_id] = room
        return room

    def current(self, room: Room) -> Room:
        """The room held for ``room``'s game now: another one if a failed write reloaded it."""
        return self.rooms.get(room.game_id, room)

    def unfinished(self) -> int:
        return sum(1 for room in self.rooms.values() if room.status != Status.FINISHED)

    def unfinished_everywhere(self) -> int:
        """The unfinished games of every process as the store has them, or this process's alone if it
        holds more (its creates being stored): the cap on games is passed by at most the creates the
        other processes are storing at that instant."""
        if self.shard.alone:
            return self.unfinished()
        return max(self.unfinished(), self.store.unfinished_count())

    def games_elsewhere(self, network: str, *, solver: bool) -> set[str]:
        """The unfinished games the network ``network`` holds a seat in (against the solver: ``solver``)
        that other processes hold, as the store has them (none with one process)."""
        if self.shard.alone:
            return set()
        rows = self.store.read_rows(
            "SELECT n.game, EXISTS (SELECT 1 FROM seat_networks s WHERE s.game = n.game AND s.network = ?) "
            "FROM seat_networks n JOIN games g ON g.id = n.game WHERE n.network = ? AND g.status != 'finished'",
            (SOLVER_NETWORK, network),
        )
        return {str(game) for game, against in rows if bool(against) == solver and not self.shard.holds(str(game))}

    def is_unfinished(self, game_id: str) -> bool:
        room = self.rooms.get(game_id)
        return room is not None and room.status != Status.FINISHED

    def is_waiting(self, game_id: str) -> bool:
        room = self.rooms.get(game_id)
        return room is not None and room.status == Status.WAITING

    def count(self, status: Status) -> int:
        return sum(1 for room in self.rooms.values() if room.status == status)

    # -- storing -------------------------------------------------------------------------

    def submit(self, room: Room, write: Write) -> asyncio.Future[None]:
        """Queue ``write`` for the disk; it becomes the game's last write in flight until it is stored."""
        future = self.committer.submit(write)
        game = room.game_id
        self.in_flight[game] = future
        submitted = time.perf_counter()

        def stored(done: asyncio.Future[None]) -> None:
            self.commit_seconds.append(time.perf_counter() - submitted)
            if self.in_flight.get(game) is done:
                del self.in_flight[game]

        future.add_done_callback(stored)
        return future

    async def settled(self, room: Room) -> None:
        """Wait until every write of ``room`` submitted so far is on disk (or failed): what the room
        holds then is what the store holds, and may be told."""
        while (future := self.in_flight.get(room.game_id)) is not None and not future.done():
            await asyncio.wait((future,))

    def reload(self, room: Room) -> Room | None:
        """Put ``room`` back to what the store holds; the reloaded room, or None if it cannot be read."""
        self.committer.forgive(room.game_id)  # writes queued from now on are made from the reloaded room
        try:
            loaded = self.store.load_game(room.game_id)
        except StoreError as problem:
            log.error("%s", problem)
            return None
        if loaded is not None:
            self.rooms[room.game_id] = loaded
        return loaded

    def forget_if_finished(self, room: Room) -> None:
        """Let a finished game go from memory (it is in the store, and loaded again if asked for)."""
        if room.status == Status.FINISHED:
            self.rooms.pop(room.game_id, None)
            self.networks.forget(room.game_id)

    # -- time ----------------------------------------------------------------------------

    def check_time(self, room: Room, now: float) -> TimeCheck:
        """``room.check_time``, then the server's limit on the player to move's absence
        (``game_ends``), with the write of a game either ended queued."""
        check = room.check_time(now)
        networks = self.networks.of(room.game_id)
        deadline = abandon_deadline(room, networks, self.limits)
        if deadline is not None and now >= deadline:
            room.abandon(deadline, abandoning_seat(room, networks))
            check = TimeCheck.ABANDONED
        if check in (TimeCheck.LOST, TimeCheck.ABANDONED):
            self._finish_later(room)
        return check

    def clock_changes(self, now: float) -> list[Room]:
        """The games the clock changed at ``now``: a turn newly overdue or lost on time, a game
        nobody joined in ``wait_seconds`` expired, a game its player to move left abandoned; their
        writes are queued, not waited for."""
        return [
            room
            for room in list(self.rooms.values())
            if (room.status == Status.WAITING and self._expire(room, now))
            or (room.status == Status.PLAYING and self.check_time(room, now) != TimeCheck.NONE)
        ]

    async def end_overdue(self, now: float) -> list[Room]:
        """At the start, before anyone connects: every game a stop left past its limit ends, as of
        when the limit ran out, and is stored so; the games it ended."""
        ended = self.clock_changes(now)
        for room in ended:
            await self.settled(room)
            self.forget_if_finished(self.current(room))
        return ended

    def _expire(self, room: Room, now: float) -> bool:
        if not room.expire(now, self.limits.wait_seconds):
            return False
        self._finish_later(room)
        return True

    def _finish_later(self, room: Room) -> None:
        """Queue the write of a game the clock ended; nobody waits for it here: the next state
        broadcast tells it once it is stored."""
        try:
            future = self.submit(room, self.store.plan_finish(room))
        except StoreError as problem:
            log.error("%s", problem)
        else:
            future.add_done_callback(_log_failure)


async def stored(future: asyncio.Future[None]) -> None:
    """Wait until a write is on disk (raises its ``StoreError``); a waiter that goes away leaves it be."""
    await asyncio.shield(future)  # not ``asyncio.wait``: a set, a waiter and a callback a move more


def _log_failure(future: asyncio.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("%s", future.exception())
