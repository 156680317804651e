"""The game server: one asyncio process, the ``websockets`` library, every game in SQLite.

The server is the authority. Each message is read by ``reader.parse_client_message``,
acted on by the game's ``Room`` (the rules model checks every move) and, when it changes
a game, committed to the ``GameStore`` before anyone is told: a move acknowledged is a
move on disk. On start the server loads every unfinished game from the store, so a
restart (or a crash) loses nothing; clients reconnect with their seat tokens.

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
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

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
from battle.online.server.room import Options, Room, Status, TimeCheck, plan_start
from battle.online.server.server_limits import DEFAULT_HOST, DEFAULT_PORT, ServerLimits
from battle.online.server.store import GameStore, StoreError

FULL_COLLECTION_SECONDS = 600.0
"""How often the server lets the garbage collector walk everything (one pause, see ``watch_clocks``)."""
CLOSE_TIMEOUT = 2.0
"""Seconds a closing peer gets to answer the close frame before its connection is dropped."""
SPARE_FILES = 64
"""Open files kept free of connections: the database, its journal, the log, the listening sockets."""
RESOURCE_LOG_SECONDS = 10.0
"""At most one log line this often when the system refuses a new connection (no file descriptor left)."""

log = logging.getLogger("mahjong-battle.server")


@dataclass
class _TokenBucket:
    rate: float
    burst: int
    tokens: float = 0.0
    stamp: float = field(default_factory=time.monotonic)
    refused: int = 0

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False


@dataclass(eq=False)
class _Client:
    """One connection: its socket, the game it is attached to and as whom."""

    socket: ServerConnection
    bucket: _TokenBucket
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

    def __init__(self, store: GameStore, limits: ServerLimits = ServerLimits(),
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
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
        self.moves_told: collections.deque[float] = collections.deque(maxlen=100_000)
        """When recent moves were acknowledged (monotonic), for the moves a second on ``/stats``."""
        self.commit_seconds: collections.deque[float] = collections.deque(maxlen=10_000)
        """How long the recent store writes took, for ``/stats``."""
        for room in store.load_unfinished():
            self.rooms[room.game_id] = room

    # -- the connection's life -----------------------------------------------------------

    async def handle(self, socket: ServerConnection) -> None:
        client = _Client(socket, _TokenBucket(self.limits.rate, self.limits.burst), client_address(socket))
        silent = asyncio.get_running_loop().call_later(self.limits.hello_seconds, self._close_if_silent, client)
        try:
            async for frame in socket:
                if client.cut_off:
                    continue  # read and dropped, so that the peer's close frame behind them arrives
                if not client.bucket.take():
                    if client.bucket.refused >= self.limits.flood_close:
                        self._close_soon(client, 1008, "too many messages")
                        continue
                    if client.bucket.refused == 1 or client.bucket.refused % 20 == 0:
                        await self._send(client, server_messages.error(
                            ErrorCode.RATE_LIMITED,
                            f"more than {self.limits.rate:g} messages a second; wait a moment"))
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
            await self._send(client, server_messages.error(ErrorCode.INTERNAL,
                                                    "the server could not save that; nothing changed, try again"))

    async def _dispatch(self, client: _Client, message: ClientMessage) -> None:
        if isinstance(message, Hello):
            if message.version != messages.PROTOCOL_VERSION:
                raise ProtocolError(ErrorCode.VERSION, f"this server speaks protocol version "
                                                       f"{messages.PROTOCOL_VERSION}, not {message.version}")
            client.hello = True
            client.name = message.name
            await self._send(client, server_messages.welcome())
            return
        if isinstance(message, Ping):
            await self._send(client, server_messages.pong(message.t))
            return
        if not client.hello:
            raise ProtocolError(ErrorCode.HELLO_FIRST, 'say "hello" with the protocol version first')
        if isinstance(message, Create):
            await self._create(client, message)
        elif isinstance(message, Join):
            await self._join(client, message)
        elif isinstance(message, Resume):
            await self._resume(client, message)
        elif isinstance(message, Watch):
            await self._watch(client, message)
        else:
            await self._act(client, message)

    # -- picking a game ------------------------------------------------------------------

    async def _create(self, client: _Client, message: Create) -> None:
        if client.created >= self.limits.games_per_connection:
            raise ProtocolError(ErrorCode.BUSY, f"one connection may create {self.limits.games_per_connection} "
                                                "games; reconnect to create more")
        if self._unfinished() >= self.limits.open_games:
            raise ProtocolError(ErrorCode.BUSY, "the server has as many games as it can hold; try again later")
        waiting = self.guard.waiting_from(client.address, self._is_waiting)
        if waiting >= self.limits.waiting_per_address:
            raise ProtocolError(ErrorCode.BUSY, f"{waiting} games from your address wait for a second player "
                                                "already; abort one or wait for a friend to join")
        plan = plan_start(message.deal, message.first)
        token = new_token()
        invite, watch = self.store.fresh_codes()
        room = Room.create(
            game_id=new_game_id(), invite=invite, watch=watch, plan=plan,
            options=Options(message.move_seconds, message.lose_on_time, message.first),
            creator_name=message.name or client.name, creator_token_hash=hash_token(token), now=self.clock(),
        )
        self.store.create(room)
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
            self.store.join(room, seat)
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
        seat = client.seat
        if self._check_time(room, now) != TimeCheck.NONE:
            await self._broadcast_state(room)
        if isinstance(message, PlayMove):
            outcome = room.play(seat, message.move, message.id, now)
            if outcome.duplicate:
                await self._send(client, outcome.receipt.ack())
                return
            await self._commit(room, lambda: self.store.add_move(room, outcome.receipt))
            self.moves_told.append(time.monotonic())
            # ``moved`` before ``ack``: a client that drops the move from its unacknowledged
            # list already shows the position after it, never the one before as its turn again.
            await self._broadcast(room, room.moved_message(outcome.receipt))
            await self._send(client, outcome.receipt.ack())
            if room.status == Status.FINISHED:
                await self._broadcast_state(room)
        elif isinstance(message, Resign):
            room.resign(seat, now)
            await self._commit(room, lambda: self.store.finish(room))
            await self._broadcast_state(room)
        elif isinstance(message, Abort):
            room.abort(seat, now)
            await self._commit(room, lambda: self.store.finish(room))
            await self._broadcast_state(room)
        elif isinstance(message, OfferRematch):
            room.offer_rematch(seat, now)
            await self._commit(room, lambda: self.store.update(room))
            await self._broadcast_state(room)
        elif isinstance(message, AcceptRematch):
            await self._accept_rematch(room, seat, now)
        elif isinstance(message, DeclineRematch):
            room.decline_rematch(seat, now)
            await self._commit(room, lambda: self.store.update(room))
            await self._broadcast_state(room)
        elif isinstance(message, RequestTakeback):
            room.request_takeback(seat)
            await self._commit(room, lambda: self.store.update(room))
            await self._broadcast_state(room)
        elif isinstance(message, AnswerTakeback):
            receipt = room.answer_takeback(seat, message.accept, now)
            if receipt is None:
                await self._commit(room, lambda: self.store.update(room))
            else:
                await self._commit(room, lambda: self.store.take_back(room, receipt))
            await self._broadcast_state(room)
        elif isinstance(message, GetRecord):
            await self._send(client, server_messages.record(room.game_id, room.record_text()))

    async def _accept_rematch(self, room: Room, seat: int | None, now: float) -> None:
        invite, watch = self.store.fresh_codes()
        new = room.accept_rematch(seat, game_id=new_game_id(), invite=invite, watch=watch, now=now)
        await self._commit(room, lambda: self.store.start_rematch(room, new))
        self.rooms[new.game_id] = new
        for client in list(self.clients.get(room.game_id, ())):
            seat_then = client.seat
            new_seat = None if seat_then is None else 3 - seat_then
            await self._send(client, server_messages.rematch_started(room.game_id, new.game_id,
                                                              "spectator" if new_seat is None else new_seat, watch))
            await self._attach(client, new, new_seat)
        await self._broadcast_state(new)

    async def _commit(self, room: Room, write: Callable[[], None]) -> None:
        """Store what the room just did; if the store fails, the room goes back to what is stored."""
        started = time.perf_counter()
        try:
            write()
            self.commit_seconds.append(time.perf_counter() - started)
        except StoreError:
            await self._reload(room)
            raise

    async def _reload(self, room: Room | None) -> None:
        if room is None:
            return
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
            try:
                self.store.finish(room)
            except StoreError as problem:
                log.error("%s", problem)
        return check

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
            for room in list(self.rooms.values()):
                if room.status == Status.WAITING:
                    await self._expire(room, now)
                    continue
                if room.status != Status.PLAYING or room.deadline() is None:
                    continue
                if self._check_time(room, now) != TimeCheck.NONE:
                    await self._broadcast_state(room)

    async def _expire(self, room: Room, now: float) -> None:
        """End ``room`` if it has waited its time for a second player; it then leaves memory once
        nobody looks at it (its creator is told)."""
        if not room.expire(now, self.limits.wait_seconds):
            return
        try:
            self.store.finish(room)
        except StoreError as problem:
            log.error("%s", problem)
            return
        await self._broadcast_state(room)
        if room.game_id not in self.clients:
            self.rooms.pop(room.game_id, None)

    # -- who is connected ----------------------------------------------------------------

    async def _attach(self, client: _Client, room: Room, seat: int | None) -> None:
        await self._detach(client)
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
        for client in list(self.clients.get(room.game_id, ())):
            await self._send(client, self._state(room, client.seat))

    async def _broadcast(self, room: Room, message: messages.JsonObject) -> None:
        text = messages.encode(message)
        for client in list(self.clients.get(room.game_id, ())):
            with contextlib.suppress(ConnectionClosed):
                await client.socket.send(text)

    @staticmethod
    async def _send(client: _Client, message: messages.JsonObject) -> None:
        with contextlib.suppress(ConnectionClosed):
            await client.socket.send(messages.encode(message))


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
            log.error("new connections refused: %s (%d in the last %g s)", context.get("exception"), missed[0],
                      RESOURCE_LOG_SECONDS)
            last[0], missed[0] = now, 0

    loop.set_exception_handler(handle)
    return lambda: loop.set_exception_handler(previous)


@contextlib.asynccontextmanager
async def running_server(store: GameStore, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
                         limits: ServerLimits = ServerLimits(), clock: Callable[[], float] = time.time,
                         ) -> AsyncIterator[tuple[Server, GameServer]]:
    """The server listening on ``host:port`` (port 0: any free one; ``bound_port`` says which)."""
    games = GameServer(store, _fitted_to_open_files(limits), clock)
    restore = _quiet_resource_errors(asyncio.get_running_loop())
    try:
        async with serve(games.handle, host, port, max_size=messages.MAX_MESSAGE_BYTES,
                         ping_interval=limits.ping_interval, ping_timeout=limits.ping_timeout,
                         close_timeout=CLOSE_TIMEOUT, open_timeout=limits.hello_seconds, compression=None,
                         process_request=games.process_request,
                         create_connection=_connection_class(games)) as server:
            clocks = asyncio.create_task(games.watch_clocks())
            try:
                yield server, games
            finally:
                clocks.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await clocks
    finally:
        restore()


def bound_port(server: Server) -> int:
    """The port the server listens on (what port 0 became)."""
    return int(next(iter(server.sockets)).getsockname()[1])
