"""The game server: one asyncio process, the ``websockets`` library, every game in SQLite.

The server is the authority. Each message is read by
``reader.parse_client_message``, handed to its handler by a table of message types,
acted on by the game's ``Room`` (the rules model checks every move) and, when it changes a
game, committed to the ``GameStore`` before anyone is told: a move acknowledged is a move on
disk. The commits run on a writer thread in groups (``group_commit.GroupCommit``): the moves
that arrive while one group is synced go to disk together with the next sync, and the loop
goes on meanwhile: at 1,000 games with a sync 5 ms slower than the disk's, 970 moves a
second with a p99 of 48 ms, where one commit a move on the loop tops out at 150 moves a
second (``benchmarks/online_load.py``, the quiet 2-core machine). A handler waits for its write's
future before it sends ``ack``, ``moved`` or ``state``, and every state a game's connections
get waits for that game's writes still in flight (``_settled``). On start the server loads
every unfinished game from the store, so a restart (or a crash) loses nothing; clients
reconnect with their seat tokens.

A connection says ``hello`` first, then picks one game with ``create``, ``join``,
``resume`` or ``watch``; what follows is about that game. Everything a client sends
that is not a valid message gets an ``error`` with a code and a one-line reason and
changes nothing; nothing from the network is ever evaluated or unpickled.

Limits (``ServerLimits``): frames over 4 KiB close the connection (websockets' own
``max_size``, close code 1009); a token bucket of 20 messages a second with bursts of
40 answers ``rate_limited`` and closes a connection that keeps flooding; keepalive
pings drop a peer that stops answering; a connection silent for 5 s after it opens is
closed; caps on games created per connection and on unfinished games on the server.
Per client address (``AddressGuard``): open connections, games waiting for a second player,
and wrong invite or watch codes, with a server-wide budget of wrong codes on top. A game
nobody joins expires after ``wait_seconds``.

The same port answers plain HTTP: ``GET /healthz`` (``ok``) and ``GET /stats`` (live counts
as text) for a service manager or a proxy, and the browser client's files (``web_files``).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import logging
import resource
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from http import HTTPStatus
from typing import Any, Literal

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import State

from battle.online.protocol import messages, reader, server_messages
from battle.online.protocol.codes import hash_token, new_game_id, new_token
from battle.online.protocol.messages import (
    Abort,
    AcceptRematch,
    AnswerTakeback,
    ClientMessage,
    Create,
    DeclineRematch,
    ErrorCode,
    GetRecord,
    Hello,
    Join,
    OfferRematch,
    Ping,
    PlayMove,
    ProtocolError,
    RequestTakeback,
    Resign,
    Resume,
    Watch,
)
from battle.online.server import web_files
from battle.online.server.address_guard import AddressGuard
from battle.online.server.group_commit import Committer, EachCommit, GroupCommit
from battle.online.server.room import Options, Room, Status, TimeCheck, plan_start
from battle.online.server.server_limits import DEFAULT_HOST, DEFAULT_PORT, ServerLimits
from battle.online.server.share_address import ShareAddress
from battle.online.server.store import GameStore, StoreError, Write
from battle.online.server.token_bucket import TokenBucket

FULL_COLLECTION_SECONDS = 600.0
"""How often the server lets the garbage collector walk everything (one pause, see ``watch_clocks``)."""
CLOSE_TIMEOUT = 2.0
"""Seconds a closing peer gets to answer the close frame before its connection is dropped."""
SPARE_FILES = 64
"""Open files kept free of connections: the database, its journal, the log, the listening sockets."""
RESOURCE_LOG_SECONDS = 10.0
"""At most one log line this often when the system refuses a new connection (no file descriptor left)."""
WRITER_SWITCH_INTERVAL = 0.0005
"""Seconds the interpreter lets one thread run before another that asks gets it (Python's default is
0.005). The writer thread asks after each call into SQLite, several a move: at 1,000 games on the
loaded 2-core machine the default held the median move at 240 ms, 0.5 ms at 28 ms."""

log = logging.getLogger("mahjong-battle.server")

CommitMode = Literal["group", "each"]
"""``group``: the writer thread (the server's way); ``each``: a transaction a write, on the loop (the benchmark's)."""


@dataclass(eq=False)
class _Client:
    """One connection: its socket, the game it is attached to and as whom."""

    socket: ServerConnection
    bucket: TokenBucket
    address: str = ""
    """The client's address: the peer's IP, or the one a trusted proxy forwards."""
    hosted: set[str] = field(default_factory=set)
    """The games this connection created: it may not take their other seat itself."""
    hello: bool = False
    room: Room | None = None
    seat: int | None = None
    """1 or 2 for a player, None for a spectator (or before a game is picked)."""
    created: int = 0
    name: str | None = None
    """The name ``hello`` gave, for a ``create`` or ``join`` that gives none."""
    cut_off: bool = False
    """Closed for flooding: what it still sends is dropped unread."""


class GameServer:
    """The games, who is connected to each, and the handler websockets runs per connection."""

    def __init__(
        self,
        store: GameStore,
        limits: ServerLimits = ServerLimits(),
        clock: Callable[[], float] = time.time,
        committer: Committer | None = None,
    ) -> None:
        self.store = store
        self.committer: Committer = committer or EachCommit(store)
        """Where writes go to disk; each one's future resolves once it is there."""
        self.limits = limits
        self.clock = clock
        """Wall-clock seconds: deadlines survive a restart, so they are stored as dates."""
        self.rooms: dict[str, Room] = {}
        """Every unfinished game, and finished ones a connection is attached to."""
        self.clients: dict[str, set[_Client]] = {}
        """The connections attached to each game."""
        self._tasks: set[asyncio.Task] = set()
        """Closes under way (kept referenced until done, as asyncio asks)."""
        self.guard = AddressGuard(limits)
        self.share = ShareAddress(limits.public_url)
        """The address to hand friends (``welcome``'s ``share_url``); ``running_server`` adds where it listens."""
        self.moves_told: collections.deque[float] = collections.deque(maxlen=100_000)
        """When recent moves were acknowledged (monotonic), for the moves a second on ``/stats``."""
        self.commit_seconds: collections.deque[float] = collections.deque(maxlen=10_000)
        """How long the recent writes took from their submission to the disk, for ``/stats``."""
        self._in_flight: dict[str, asyncio.Future[None]] = {}
        """Each game's last write not yet known to be on disk (its earlier ones commit before it)."""
        self._opening: dict[type, Callable[[_Client, Any], Awaitable[None]]] = {Hello: self._hello, Ping: self._ping}
        """Handlers of what a connection may send before ``hello``."""
        self._picking: dict[type, Callable[[_Client, Any], Awaitable[None]]] = {
            Create: self._create,
            Join: self._join,
            Resume: self._resume,
            Watch: self._watch,
        }
        """Handlers of what picks a game."""
        self._actions: dict[type, Callable[[_Client, Room, Any, float], Awaitable[None]]] = {
            PlayMove: self._play,
            Resign: self._resign,
            Abort: self._abort,
            OfferRematch: self._offer_rematch,
            AcceptRematch: self._accept_rematch,
            DeclineRematch: self._decline_rematch,
            RequestTakeback: self._request_takeback,
            AnswerTakeback: self._answer_takeback,
            GetRecord: self._get_record,
        }
        """Handlers of what a connection does in its game: ``(client, room, message, now)``."""
        for room in store.load_unfinished():
            self.rooms[room.game_id] = room

    # -- the connection's life -----------------------------------------------------------

    async def handle(self, socket: ServerConnection) -> None:
        client = _Client(socket, TokenBucket(self.limits.rate, self.limits.burst), client_address(socket))
        silent = asyncio.get_running_loop().call_later(self.limits.hello_seconds, self._close_if_silent, client)
        try:
            async for frame in socket:
                if client.cut_off:
                    continue  # read and dropped, so that the peer's close frame behind them arrives
                if not client.bucket.take(time.monotonic()):
                    if client.bucket.refused >= self.limits.flood_close:
                        self._close_soon(client, 1008, "too many messages")
                        continue
                    if client.bucket.refused == 1 or client.bucket.refused % 20 == 0:
                        await self._send(
                            client,
                            server_messages.error(
                                ErrorCode.RATE_LIMITED,
                                f"more than {self.limits.rate:g} messages a second; wait a moment",
                            ),
                        )
                    continue
                await self._receive(client, frame)
        except ConnectionClosed:
            pass
        finally:
            silent.cancel()
            await self._detach(client)

    def _close_if_silent(self, client: _Client) -> None:
        if not client.hello:
            self._close_soon(client, 1008, f"no hello within {self.limits.hello_seconds:g} s")

    def _close_soon(self, client: _Client, code: int, reason: str) -> None:
        client.cut_off = True
        closing = asyncio.get_running_loop().create_task(client.socket.close(code, reason))
        self._tasks.add(closing)
        closing.add_done_callback(self._tasks.discard)

    async def _receive(self, client: _Client, frame: str | bytes) -> None:
        message: ClientMessage | None = None
        try:
            message = reader.parse_client_message(frame)
            await self._dispatch(client, message)
        except ProtocolError as problem:
            if problem.ref is None and message is not None:
                problem.ref = messages.ref_of(message)
            await self._send(client, server_messages.error_for(problem))
        except StoreError as problem:
            log.error("%s", problem)
            await self._reload(client.room)
            await self._send(
                client,
                server_messages.error(ErrorCode.INTERNAL, "the server could not save that; nothing changed, try again"),
            )

    async def _dispatch(self, client: _Client, message: ClientMessage) -> None:
        opening = self._opening.get(type(message))
        if opening is not None:
            await opening(client, message)
            return
        if not client.hello:
            raise ProtocolError(ErrorCode.HELLO_FIRST, 'say "hello" with the protocol version first')
        picking = self._picking.get(type(message))
        if picking is not None:
            await picking(client, message)
        else:
            await self._act(client, message)

    async def _hello(self, client: _Client, message: Hello) -> None:
        if message.version != messages.PROTOCOL_VERSION:
            raise ProtocolError(
                ErrorCode.VERSION,
                f"this server speaks protocol version {messages.PROTOCOL_VERSION}, not {message.version}",
            )
        client.hello = True
        client.name = message.name
        request = client.socket.request
        headers = request.headers if request is not None else Headers()
        forwarded = self.limits.trust_proxy and forwarded_address(headers) is not None
        await self._send(client, server_messages.welcome(self.share.for_request(headers.get("Host"), forwarded)))

    async def _ping(self, client: _Client, message: Ping) -> None:
        await self._send(client, server_messages.pong(message.t))

    # -- picking a game ------------------------------------------------------------------

    async def _create(self, client: _Client, message: Create) -> None:
        if client.created >= self.limits.games_per_connection:
            raise ProtocolError(
                ErrorCode.BUSY,
                f"one connection may create {self.limits.games_per_connection} games; reconnect to create more",
            )
        if self._unfinished() >= self.limits.open_games:
            raise ProtocolError(ErrorCode.BUSY, "the server has as many games as it can hold; try again later")
        waiting = self.guard.waiting_from(client.address, self._is_waiting)
        if waiting >= self.limits.waiting_per_address:
            raise ProtocolError(
                ErrorCode.BUSY,
                f"{waiting} games from your address wait for a second player "
                "already; abort one or wait for a friend to join",
            )
        plan = plan_start(message.deal, message.first)
        token = new_token()
        invite, watch = self.store.fresh_codes()
        room = Room.create(
            game_id=new_game_id(),
            invite=invite,
            watch=watch,
            plan=plan,
            options=Options(message.move_seconds, message.lose_on_time, message.first),
            creator_name=message.name or client.name,
            creator_token_hash=hash_token(token),
            now=self.clock(),
        )
        await self._stored(self.committer.submit(self.store.plan_create(room)))
        self.rooms[room.game_id] = room
        client.created += 1
        client.hosted.add(room.game_id)
        self.guard.hosting(client.address, room.game_id)
        await self._attach(client, room, room.creator_seat)
        await self._send(client, server_messages.created(room.game_id, invite, watch, token, room.creator_seat))
        await self._send(client, self._state(room, client.seat))

    async def _join(self, client: _Client, message: Join) -> None:
        room = self._room_by_code(client, self.store.game_by_invite, message.code, "no game has this invite code")
        room.refuse_if_unplayed()
        if room.game_id in client.hosted or (client.room is room and client.seat is not None):
            raise ProtocolError(ErrorCode.NOT_ALLOWED, "you hold the other seat of this game already")
        token = new_token()
        seat = room.join(message.name or client.name, hash_token(token), self.clock())
        try:
            await self._stored(self._submit(room, self.store.plan_join(room, seat)))
        except StoreError:
            await self._reload(room)
            raise
        await self._attach(client, room, seat)
        await self._send(client, server_messages.joined(room.game_id, token, seat))
        await self._broadcast_state(room)

    async def _resume(self, client: _Client, message: Resume) -> None:
        found = self.store.seat_by_token(hash_token(message.token))
        if found is None:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "no seat has this token (a token from another server?)")
        game_id, seat = found
        room = self._room(game_id, "the game of this token is gone")
        room.refuse_if_unplayed()
        await self._attach(client, room, seat)
        await self._broadcast_state(room)

    async def _watch(self, client: _Client, message: Watch) -> None:
        room = self._room_by_code(client, self.store.game_by_watch, message.code, "no game has this watch code")
        room.refuse_if_unplayed()
        if client.room is not room or client.seat is not None:
            await self._attach(client, room, None)
        await self._send(client, self._state(room, None))

    def _room_by_code(self, client: _Client, lookup: Callable[[str], str | None], code: str, missing: str) -> Room:
        """The game a typed code names; a wrong code counts against the client's address, and an
        address (or the server) over its budget of wrong codes gets no look-up at all."""
        now = time.monotonic()
        refusal = self.guard.code_refusal(client.address, now)
        if refusal is not None:
            raise ProtocolError(ErrorCode.RATE_LIMITED, refusal)
        try:
            return self._room(lookup(code), missing)
        except ProtocolError as problem:
            if problem.code == ErrorCode.NOT_FOUND:
                self.guard.code_failed(client.address, now)
            raise

    def _room(self, game_id: str | None, missing: str) -> Room:
        if game_id is None:
            raise ProtocolError(ErrorCode.NOT_FOUND, missing)
        room = self.rooms.get(game_id)
        if room is None:
            room = self.store.load_game(game_id)  # a finished game, loaded while someone looks at it
            if room is None:
                raise ProtocolError(ErrorCode.NOT_FOUND, missing)
            self.rooms[game_id] = room
        return room

    # -- acting in the game --------------------------------------------------------------

    async def _act(self, client: _Client, message: ClientMessage) -> None:
        room = client.room
        if room is None:
            raise ProtocolError(ErrorCode.NO_GAME, "create, join, resume or watch a game first")
        now = self.clock()
        if self._check_time(room, now) != TimeCheck.NONE:
            await self._broadcast_state(room)
        action = self._actions.get(type(message))
        if action is not None:
            await action(client, room, message, now)

    async def _play(self, client: _Client, room: Room, message: PlayMove, now: float) -> None:
        outcome = room.play(client.seat, message.move, message.id, now)
        if outcome.duplicate:
            await self._settled(room)  # a resend while the first sending's write is in flight
            if self.rooms.get(room.game_id, room) is not room:
                raise StoreError(f"move {outcome.receipt.ply} of game {room.game_id} was not stored")
            await self._send(client, outcome.receipt.ack())
            return
        moved = room.moved_message(outcome.receipt)  # as the move left the room, whatever comes while it is stored
        await self._commit(room, lambda: self.store.plan_add_move(room, outcome.receipt))
        self.moves_told.append(time.monotonic())
        # ``moved`` before ``ack``: a client that drops the move from its unacknowledged
        # list already shows the position after it, never the one before as its turn again.
        # The mover gets both in one write to its socket, everyone else the same ``moved`` bytes.
        moved_frame = messages.encode(moved).encode()
        attached = self.clients.get(room.game_id, ())
        broadcast([other.socket for other in attached if other is not client], moved_frame, text=True)
        ack_frame = messages.encode(outcome.receipt.ack()).encode()
        _write_frames(client.socket, (moved_frame, ack_frame) if client in attached else (ack_frame,))
        if room.status == Status.FINISHED:
            await self._broadcast_state(room)

    async def _resign(self, client: _Client, room: Room, message: Resign, now: float) -> None:
        room.resign(client.seat, now)
        await self._commit(room, lambda: self.store.plan_finish(room))
        await self._broadcast_state(room)

    async def _abort(self, client: _Client, room: Room, message: Abort, now: float) -> None:
        room.abort(client.seat, now)
        await self._commit(room, lambda: self.store.plan_finish(room))
        await self._broadcast_state(room)

    async def _offer_rematch(self, client: _Client, room: Room, message: OfferRematch, now: float) -> None:
        room.offer_rematch(client.seat, now)
        await self._commit(room, lambda: self.store.plan_update(room))
        await self._broadcast_state(room)

    async def _decline_rematch(self, client: _Client, room: Room, message: DeclineRematch, now: float) -> None:
        room.decline_rematch(client.seat, now)
        await self._commit(room, lambda: self.store.plan_update(room))
        await self._broadcast_state(room)

    async def _request_takeback(self, client: _Client, room: Room, message: RequestTakeback, now: float) -> None:
        room.request_takeback(client.seat)
        await self._commit(room, lambda: self.store.plan_update(room))
        await self._broadcast_state(room)

    async def _answer_takeback(self, client: _Client, room: Room, message: AnswerTakeback, now: float) -> None:
        receipt = room.answer_takeback(client.seat, message.accept, now)
        if receipt is None:
            await self._commit(room, lambda: self.store.plan_update(room))
        else:
            await self._commit(room, lambda: self.store.plan_take_back(room, receipt))
        await self._broadcast_state(room)

    async def _get_record(self, client: _Client, room: Room, message: GetRecord, now: float) -> None:
        await self._settled(room)
        room = self.rooms.get(room.game_id, room)
        await self._send(client, server_messages.record(room.game_id, room.record_text()))

    async def _accept_rematch(self, client: _Client, room: Room, message: AcceptRematch, now: float) -> None:
        invite, watch = self.store.fresh_codes()
        new = room.accept_rematch(client.seat, game_id=new_game_id(), invite=invite, watch=watch, now=now)
        await self._commit(room, lambda: self.store.plan_start_rematch(room, new))
        self.rooms[new.game_id] = new
        for other in list(self.clients.get(room.game_id, ())):
            seat_then = other.seat
            new_seat = None if seat_then is None else 3 - seat_then
            await self._send(
                other,
                server_messages.rematch_started(
                    room.game_id, new.game_id, "spectator" if new_seat is None else new_seat, watch
                ),
            )
            await self._attach(other, new, new_seat)
        await self._broadcast_state(new)

    # -- storing -------------------------------------------------------------------------

    def _submit(self, room: Room, write: Write) -> asyncio.Future[None]:
        """Queue ``write`` for the disk; it becomes the game's last write in flight until it is stored."""
        future = self.committer.submit(write)
        game = room.game_id
        self._in_flight[game] = future
        submitted = time.perf_counter()

        def stored(done: asyncio.Future[None]) -> None:
            self.commit_seconds.append(time.perf_counter() - submitted)
            if self._in_flight.get(game) is done:
                del self._in_flight[game]

        future.add_done_callback(stored)
        return future

    @staticmethod
    async def _stored(future: asyncio.Future[None]) -> None:
        """Wait until a write is on disk (raises its ``StoreError``); a waiter that goes away leaves it be."""
        await asyncio.wait((future,))
        future.result()

    async def _commit(self, room: Room, plan: Callable[[], Write]) -> None:
        """Store what the room just did; if the store fails, the room goes back to what is stored."""
        try:
            await self._stored(self._submit(room, plan()))
        except StoreError:
            await self._reload(room)
            raise

    async def _settled(self, room: Room) -> None:
        """Wait until every write of ``room`` submitted so far is on disk (or failed): what the room
        holds then is what the store holds, and may be told."""
        while (future := self._in_flight.get(room.game_id)) is not None and not future.done():
            await asyncio.wait((future,))

    async def _reload(self, room: Room | None) -> None:
        if room is None:
            return
        self.committer.forgive(room.game_id)  # writes queued from now on are made from the reloaded room
        try:
            stored = self.store.load_game(room.game_id)
        except StoreError as problem:
            log.error("%s", problem)
            return
        if stored is None:
            return
        self.rooms[room.game_id] = stored
        for client in self.clients.get(room.game_id, ()):
            client.room = stored

    # -- time ----------------------------------------------------------------------------

    def _check_time(self, room: Room, now: float) -> TimeCheck:
        check = room.check_time(now)
        if check == TimeCheck.LOST:
            self._finish_later(room)
        return check

    def _finish_later(self, room: Room) -> None:
        """Queue the write of a game the clock ended (lost on time, expired); nobody waits for it
        here: the next ``_broadcast_state`` tells it once it is stored."""
        try:
            stored = self._submit(room, self.store.plan_finish(room))
        except StoreError as problem:
            log.error("%s", problem)
        else:
            stored.add_done_callback(_log_failure)

    async def watch_clocks(self) -> None:
        """Every ``clock_tick``: a turn past its limit is lost (or reported overdue) even if nobody sends anything.

        Each tick also moves what has lived a second into the collector's permanent generation
        (``gc.freeze``): a full collection that walked every game stopped all of them 4 times a
        run for 100-145 ms at 1,000 games (none after). Rooms hold no reference cycles and are
        freed by their counts; what a closed connection leaves in cycles is collected by one
        full collection every ``FULL_COLLECTION_SECONDS``.
        """
        last_full = time.monotonic()
        while True:
            await asyncio.sleep(self.limits.clock_tick)
            if time.monotonic() - last_full >= FULL_COLLECTION_SECONDS:
                gc.unfreeze()
                gc.collect()
                last_full = time.monotonic()
            gc.freeze()
            now = self.clock()
            changed = [
                room
                for room in list(self.rooms.values())
                if (room.status == Status.WAITING and self._expire(room, now))
                or (
                    room.status == Status.PLAYING
                    and room.deadline() is not None
                    and self._check_time(room, now) != TimeCheck.NONE
                )
            ]
            for room in changed:  # every end of this tick was queued first: they share one commit
                await self._broadcast_state(room)
                if room.status == Status.FINISHED and room.game_id not in self.clients:
                    self.rooms.pop(room.game_id, None)  # kept in the store; loaded again if asked for

    def _expire(self, room: Room, now: float) -> bool:
        """End ``room`` if it has waited its time for a second player, queueing its write; whether it ended."""
        if not room.expire(now, self.limits.wait_seconds):
            return False
        self._finish_later(room)
        return True

    # -- who is connected ----------------------------------------------------------------

    async def _attach(self, client: _Client, room: Room, seat: int | None) -> None:
        await self._detach(client)
        await self._settled(room)  # a newcomer's first state holds nothing the disk does not
        client.room, client.seat = room, seat
        self.clients.setdefault(room.game_id, set()).add(client)

    async def _detach(self, client: _Client) -> None:
        room = client.room
        if room is None:
            return
        seat = client.seat
        client.room, client.seat = None, None
        attached = self.clients.get(room.game_id)
        if attached is not None:
            attached.discard(client)
            if not attached:
                del self.clients[room.game_id]
                if room.status == Status.FINISHED:
                    self.rooms.pop(room.game_id, None)  # kept in the store; loaded again if asked for
        if seat is not None:
            await self._broadcast_state(room)  # the other side sees the presence change

    def _presence(self, room: Room) -> dict[int, bool]:
        seats = {client.seat for client in self.clients.get(room.game_id, ()) if client.seat is not None}
        return {1: 1 in seats, 2: 2 in seats}

    def _state(self, room: Room, seat: int | None) -> messages.JsonObject:
        return room.state_for(seat, self._presence(room), self.clock())

    def _unfinished(self) -> int:
        return sum(1 for room in self.rooms.values() if room.status != Status.FINISHED)

    def _is_waiting(self, game_id: str) -> bool:
        room = self.rooms.get(game_id)
        return room is not None and room.status == Status.WAITING

    # -- plain HTTP on the same port -----------------------------------------------------

    def process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Answer ``/healthz``, ``/stats`` and the browser client's files; behind a trusted proxy, count
        the forwarded address's connections (the proxy's own address is every client's). None lets the
        WebSocket handshake go on."""
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return _text_response(connection, HTTPStatus.OK, "ok\n")
        if path == "/stats":
            return _text_response(connection, HTTPStatus.OK, self.stats_text())
        page = web_files.answer(request)  # the browser client's files; None for a WebSocket handshake
        if page is not None:
            return page
        if self.limits.trust_proxy:
            forwarded = forwarded_address(request.headers)
            if forwarded is not None:
                refusal = self.guard.admit(forwarded)
                if refusal is not None:
                    return _text_response(connection, HTTPStatus.TOO_MANY_REQUESTS, refusal + "\n")
                admitted = getattr(connection, "counted", None)
                if isinstance(admitted, list):
                    admitted.append(forwarded)
                connection.client_address = forwarded  # type: ignore[attr-defined]
        return None

    def stats_text(self) -> str:
        """The live counts ``GET /stats`` shows, one ``name value`` a line."""
        now = time.monotonic()
        recent = sum(1 for stamp in self.moves_told if now - stamp <= 10.0)
        waiting = sum(1 for room in self.rooms.values() if room.status == Status.WAITING)
        playing = sum(1 for room in self.rooms.values() if room.status == Status.PLAYING)
        commits = sorted(self.commit_seconds)
        lines = [
            ("connections", str(self.guard.total)),
            ("client_addresses", str(len(self.guard.connections))),
            ("games_waiting", str(waiting)),
            ("games_playing", str(playing)),
            ("moves_per_second", f"{recent / 10.0:.1f}"),
            ("commit_ms_p50", _percentile_ms(commits, 0.50)),
            ("commit_ms_p99", _percentile_ms(commits, 0.99)),
        ]
        return "".join(f"{name} {value}\n" for name, value in lines)

    # -- sending -------------------------------------------------------------------------

    async def _broadcast_state(self, room: Room) -> None:
        """Each connection of the game gets its ``state`` once the game's writes in flight are stored;
        one message per viewer (seat 1, seat 2, spectators), each written to all its sockets at once."""
        await self._settled(room)
        room = self.rooms.get(room.game_id, room)  # reloaded if a write failed meanwhile
        viewers: dict[int | None, list[ServerConnection]] = {}
        for client in self.clients.get(room.game_id, ()):
            viewers.setdefault(client.seat, []).append(client.socket)
        for seat, sockets in viewers.items():
            broadcast(sockets, messages.encode(self._state(room, seat)))

    @staticmethod
    async def _send(client: _Client, message: messages.JsonObject) -> None:
        with contextlib.suppress(ConnectionClosed):
            await client.socket.send(messages.encode(message))


def _write_frames(socket: ServerConnection, frames: tuple[bytes, ...]) -> None:
    """Write text frames to ``socket`` in one write to its transport, without ``send``'s coroutine
    (its context manager and ``drain``): the mover's ``moved`` and ``ack`` cost 15 µs less of the
    loop's CPU than two ``send`` calls (32-40 µs against 46-59, the reading peer in the same
    thread). As ``broadcast`` does, a connection that is closing gets nothing more and a failed
    write is logged, not raised; nothing waits for the peer to read (a peer that stops reading
    is dropped by the keepalive pings)."""
    if socket.protocol.state is not State.OPEN or socket.send_in_progress is not None:
        return
    try:
        for frame in frames:
            socket.protocol.send_text(frame)
        # only text frames were added to an open connection: no end-of-stream marker among them
        socket.transport.write(b"".join(socket.protocol.data_to_send()))
    except Exception as problem:  # as broadcast: an OSError or a protocol state error, logged
        log.warning("a write to a connection failed: %s", problem)


def _log_failure(future: asyncio.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("%s", future.exception())


def client_address(connection: ServerConnection) -> str:
    """Who a connection speaks for: the forwarded address ``process_request`` found, else the peer's IP."""
    forwarded = getattr(connection, "client_address", None)
    if isinstance(forwarded, str):
        return forwarded
    peer = connection.remote_address
    return str(peer[0]) if peer else "unknown"


def forwarded_address(headers: Headers) -> str | None:
    """The client address a reverse proxy adds: the last ``X-Forwarded-For`` entry (the one the
    proxy itself appended; earlier ones are whatever the client wrote), else ``X-Real-IP``."""
    chain = headers.get_all("X-Forwarded-For")
    if chain:
        last = chain[-1].split(",")[-1].strip()
        if last:
            return last[:64]
    real = headers.get("X-Real-IP")
    return real.strip()[:64] if real and real.strip() else None


def _text_response(connection: ServerConnection, status: HTTPStatus, text: str) -> Response:
    response = connection.respond(status, text)
    response.headers["Content-Type"] = "text/plain; charset=utf-8"
    response.headers["Cache-Control"] = "no-store"
    return response


def _percentile_ms(ordered: list[float], fraction: float) -> str:
    if not ordered:
        return "-"
    return f"{ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000:.2f}"


def _connection_class(games: GameServer) -> type[ServerConnection]:
    """Connections that ``games.guard`` counts from the moment they are accepted, before any
    handshake: one over the caps is closed at once, so idle sockets cannot use up the server's
    file descriptors, and its descriptor is free again at once."""

    class CountedConnection(ServerConnection):
        counted: list[str]

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self.counted = []
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if peer else "unknown"
            refusal = games.guard.admit(address, per_address=not games.limits.trust_proxy)
            if refusal is None:
                self.counted.append(address)
            else:
                transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            for address in self.counted:
                games.guard.release(address)
            self.counted = []

    return CountedConnection


def _fitted_to_open_files(limits: ServerLimits) -> ServerLimits:
    """``limits`` with no more connections than the process may open files, less ``SPARE_FILES``."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft - SPARE_FILES >= limits.connections:
        return limits
    return replace(limits, connections=max(1, soft - SPARE_FILES))


def _quiet_resource_errors(loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
    """Log the loop's "no file descriptor left" errors as one line per ``RESOURCE_LOG_SECONDS``
    (asyncio writes a traceback for each refused accept); returns what puts the old handler back."""
    previous = loop.get_exception_handler()
    last: list[float] = [-RESOURCE_LOG_SECONDS]
    missed: list[int] = [0]

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if "out of system resource" not in str(context.get("message", "")):
            if previous is not None:
                previous(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        missed[0] += 1
        now = time.monotonic()
        if now - last[0] >= RESOURCE_LOG_SECONDS:
            log.error(
                "new connections refused: %s (%d in the last %g s)",
                context.get("exception"),
                missed[0],
                RESOURCE_LOG_SECONDS,
            )
            last[0], missed[0] = now, 0

    loop.set_exception_handler(handle)
    return lambda: loop.set_exception_handler(previous)


@contextlib.asynccontextmanager
async def running_server(
    store: GameStore,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    limits: ServerLimits = ServerLimits(),
    clock: Callable[[], float] = time.time,
    commit: CommitMode = "group",
) -> AsyncIterator[tuple[Server, GameServer]]:
    """The server listening on ``host:port`` (port 0: any free one; ``bound_port`` says which).

    On the way out its connections are closed first, then the writer commits what is queued and stops."""
    committer: Committer = GroupCommit(store) if commit == "group" else EachCommit(store)
    switch_interval = sys.getswitchinterval()
    if commit == "group":
        sys.setswitchinterval(WRITER_SWITCH_INTERVAL)
    restore = _quiet_resource_errors(asyncio.get_running_loop())
    try:
        games = GameServer(store, _fitted_to_open_files(limits), clock, committer)
        async with serve(
            games.handle,
            host,
            port,
            max_size=messages.MAX_MESSAGE_BYTES,
            ping_interval=limits.ping_interval,
            ping_timeout=limits.ping_timeout,
            close_timeout=CLOSE_TIMEOUT,
            open_timeout=limits.hello_seconds,
            compression=None,
            process_request=games.process_request,
            create_connection=_connection_class(games),
        ) as server:
            games.share = ShareAddress.of_server(limits.public_url, [sock.getsockname()[:2] for sock in server.sockets])
            clocks = asyncio.create_task(games.watch_clocks())
            try:
                yield server, games
            finally:
                clocks.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await clocks
    finally:
        await asyncio.to_thread(committer.close)
        sys.setswitchinterval(switch_interval)
        restore()


def bound_port(server: Server) -> int:
    """The port the server listens on (what port 0 became)."""
    return int(next(iter(server.sockets)).getsockname()[1])
