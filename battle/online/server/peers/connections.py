"""Who may connect, for how long, how fast they may talk, and how much the server holds for each.

- ``peer_class`` makes the connection class the server accepts with (``Peer``): ``AddressGuard``
  counts a connection from the moment it is accepted, before any handshake, so one over the
  caps is refused at once and idle sockets cannot use up the server's file descriptors; and
  what waits for one connection to read is bounded there, the one place that sees it.
- ``Client`` is one connection's life after the handshake: its message budget (a token bucket,
  ``rate_limited``, then a close for a flood), the deadline for its ``hello`` and the idle clock
  after it, and the game it is attached to and as whom (``dispatch`` and ``fan_out`` read those).
  A connection serves someone while it is in a game (playing or watching) or has work in the
  solver pool (queued or running); otherwise the idle clock runs, and a message that costs
  nothing and leads nowhere (a ``ping``, a review that does not exist, a position that is over)
  does not stop it.
- ``fitted_to_open_files`` and ``quiet_resource_errors`` keep the server standing when the
  system runs out of file descriptors anyway: fewer connections than the open-files limit, and
  one log line every ``RESOURCE_LOG_SECONDS`` instead of a traceback per refused accept.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, cast

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from battle.online.protocol.messages import ErrorCode
from battle.online.protocol.server_messages import Error, ServerMessage
from battle.online.protocol.writer import server_frame
from battle.online.server.limits.address_guard import AddressGuard, network_of
from battle.online.server.limits.server import ServerLimits
from battle.online.server.limits.token_bucket import TokenBucket
from battle.online.server.peers.text_frames import text_frame, write_frames

if TYPE_CHECKING:
    from battle.online.server.rooms.room import Room

SPARE_FILES = 64
"""Open files kept free of connections: the database, its journal, the log, the listening sockets."""
RESOURCE_LOG_SECONDS = 10.0
"""At most one log line this often when the system refuses a new connection (no file descriptor left)."""
IDLE_CLOSE = 1000
"""The close code for a connection that served nobody for ``pick_seconds``: a normal closure (its
purpose is fulfilled), which the page takes as "open again when there is something to ask", not as
a line lost to open again at once (its analysis would then be asked again every ``pick_seconds``)."""

log = logging.getLogger("mahjong-battle.server")
_CLOSING: set[asyncio.Task[None]] = set()
"""Closes under way, kept referenced until done (as asyncio asks)."""


# -- accepting a connection ------------------------------------------------------------------


class Peer(ServerConnection):
    """A connection as the server accepts it: counted by its address from the first byte on, and
    bounded in what it may make the server hold for it.

    **Counted.** One over a cap is closed as it is accepted, unless a refusal slot is free
    (``AddressGuard.refuse``): then ``refusal`` says why and ``http_front`` answers its request
    503 or 429 with that line.

    **Bounded.** The transport takes up to ``ServerLimits.peer_buffer`` bytes the peer has not
    read (websockets' ``write_limit``); past it the connection is ``congested``: the fan-out
    sends it nothing more and marks what it ``missed``, and once it drains ``on_drained`` sends
    it a fresh ``state``. A peer whose buffer stays full for ``ping_timeout`` is dropped: the
    keepalive ping alone would wait behind that buffer for ever.

    **One request.** Until the handshake is answered only the first request's head is read; what
    follows it (a pipelined request, a body) is dropped, as the answer closes the connection anyway.
    """

    __slots__ = (
        "counted",
        "refusal",
        "server_full",
        "client_address",
        "congested",
        "missed",
        "on_drained",
        "_refusing",
        "_stalled",
        "_head_tail",
        "_head_read",
        "_transport",
    )
    # slots, not the instance's dict: websockets' connection holds some 28 attributes in a dict whose
    # keys all its instances share; 11 more would unshare it, 1.3 KiB more a connection

    counted: str | None
    """The address this connection is counted under; None when it is not counted (refused)."""
    refusal: str | None
    """Why a cap refuses it, to be answered over HTTP; None for a connection within the caps."""
    server_full: bool
    """The cap that refuses it is the server's total (503), not its network's (429)."""
    client_address: str | None
    """The address a trusted proxy forwarded in the handshake; None: the peer's own."""
    congested: bool
    """More than ``peer_buffer`` bytes wait for the peer to read them."""
    missed: bool
    """The fan-out skipped it while congested: it needs a fresh ``state`` once it drains."""
    on_drained: Callable[[], None] | None
    """What sends it that fresh state (set by the game server once the connection is its client)."""
    _refusing: bool
    _stalled: asyncio.TimerHandle | None
    _head_tail: bytes
    _head_read: bool
    _transport: asyncio.Transport


def peer_class(guard: AddressGuard, limits: ServerLimits) -> type[Peer]:
    """``Peer`` counted by ``guard`` under ``limits``. Behind a trusted proxy every peer is the proxy,
    so only the total is checked as it is accepted; the client's own address is counted once its
    request names it (``http_front``)."""

    class GuardedPeer(Peer):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self.counted, self.refusal, self.server_full, self.client_address = None, None, False, None
            self.congested, self.missed, self.on_drained = False, False, None
            self._refusing = False
            self._stalled = None
            self._head_tail, self._head_read = b"", False
            self._transport = cast(asyncio.Transport, transport)
            now = time.monotonic()
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if peer else "unknown"
            full = guard.total >= limits.connections
            refusal = guard.admit(address, now, per_address=not limits.trust_proxy)
            if refusal is None:
                self.counted = address
            elif guard.refuse():
                self.refusal, self.server_full, self._refusing = refusal, full, True
            else:
                transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            if self.counted is not None:
                guard.release(self.counted, time.monotonic())
                self.counted = None
            if self._refusing:
                guard.refused()
                self._refusing = False
            if self._stalled is not None:
                self._stalled.cancel()

        def data_received(self, data: bytes) -> None:
            if self.state is State.CONNECTING:
                data = self._first_request_head(data)
                if not data:
                    return
            super().data_received(data)

        def _first_request_head(self, data: bytes) -> bytes:
            """``data`` up to the end of the first request's head (its blank line); nothing after it."""
            if self._head_read:
                return b""
            seen = self._head_tail + data
            end = seen.find(b"\r\n\r\n")
            if end < 0:
                self._head_tail = seen[-3:]
                return data
            self._head_read = True
            return data[: end + 4 - len(self._head_tail)]

        def pause_writing(self) -> None:
            super().pause_writing()
            self.congested = True
            self._stalled = asyncio.get_running_loop().call_later(limits.ping_timeout, self._drop)

        def resume_writing(self) -> None:
            super().resume_writing()
            self.congested = False
            if self._stalled is not None:
                self._stalled.cancel()
                self._stalled = None
            if self.missed and self.on_drained is not None:
                self.missed = False
                self.on_drained()

        def _drop(self) -> None:
            log.info("dropped %s: %d bytes unread for %g s", self.counted, self._buffered(), limits.ping_timeout)
            self._transport.abort()

        def _buffered(self) -> int:
            size = getattr(self._transport, "get_write_buffer_size", None)
            return int(size()) if size is not None else 0

    return GuardedPeer


def client_address(connection: ServerConnection) -> str:
    """Who a connection speaks for: the forwarded address the handshake found, else the peer's IP."""
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


# -- one connection's life ---------------------------------------------------------------------


@dataclass(eq=False)
class Client:
    """One connection after its handshake: its limits, the game it is attached to and as whom."""

    socket: Peer
    limits: ServerLimits
    address: str = ""
    """The client's address: the peer's IP, or the one a trusted proxy forwards."""
    bucket: TokenBucket = field(init=False)
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
    """Closed for flooding or idleness: what it still sends is dropped unread."""
    work: set[object] = field(default_factory=set)
    """What this connection waits for in the solver pool (an analysis, a review it reads)."""
    _deadline: asyncio.TimerHandle | None = None
    _closed: bool = False

    def __post_init__(self) -> None:
        self.bucket = TokenBucket(self.limits.rate, self.limits.burst)

    @property
    def network(self) -> str:
        """The network the client's address counts under (``network_of``): whose solver time and caps
        its requests take."""
        return network_of(self.address, self.limits.ipv6_prefix)

    def start(self) -> None:
        """The connection is open: it has ``hello_seconds`` to say ``hello``."""
        self._deadline = asyncio.get_running_loop().call_later(self.limits.hello_seconds, self._close_if_idle)

    def stop(self) -> None:
        """The connection has closed: no deadline is left to keep."""
        self._closed = True
        self._stop_clock()

    def takes(self) -> bool:
        """Whether the frame just read is within the client's message rate (one that is being
        closed takes none: what it still sends is read and dropped, so that its close frame arrives)."""
        return not self.cut_off and self.bucket.take(time.monotonic())

    async def over_rate(self) -> None:
        """A frame over the rate: refused with ``rate_limited`` (said once, then every 20th time), and
        after ``flood_close`` refusals the connection is closed (1008)."""
        if self.cut_off:
            return
        if self.bucket.refused >= self.limits.flood_close:
            self.close_soon(1008, "too many messages")
        elif self.bucket.refused == 1 or self.bucket.refused % 20 == 0:
            await self.send(
                Error(
                    ErrorCode.RATE_LIMITED,
                    f"more than {self.limits.rate:g} messages a second; wait a moment",
                    {"rate": self.limits.rate},
                )
            )

    def serves(self) -> bool:
        """Whether the connection serves someone: it is in a game, or waits for the solver pool."""
        return self.room is not None or bool(self.work)

    def picked(self) -> None:
        """The client is in a game: no idle clock runs while it is (nor its timer holds the memory)."""
        self._stop_clock()

    def left_game(self) -> None:
        """The client is in no game any more: without work in the pool, its idle clock starts."""
        self._idle_clock()

    def holds(self, work: object) -> None:
        """``work`` of this connection's waits or runs in the solver pool: no idle clock meanwhile."""
        self.work.add(work)
        self._stop_clock()

    def released(self, work: object) -> None:
        """``work`` ended (answered, stopped or refused): a connection in no game and with no other
        work gets ``pick_seconds`` again from now."""
        self.work.discard(work)
        self._idle_clock()

    def said_hello(self, name: str | None) -> None:
        """The client said ``hello`` (with ``name``): from its first, it has ``pick_seconds`` to pick a
        game or ask the pool for work (saying it again moves no deadline)."""
        first = not self.hello
        self.hello, self.name = True, name
        if first:
            self._stop_clock()
            self._idle_clock()

    def _idle_clock(self) -> None:
        """Start the idle clock (``pick_seconds``) unless the connection serves someone, is closed, or
        its clock runs already (a message that leads nowhere does not wind it back)."""
        if self.hello and not self._closed and self._deadline is None and not self.serves():
            self._deadline = asyncio.get_running_loop().call_later(self.limits.pick_seconds, self._close_if_idle)

    def _stop_clock(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    async def send_now(self, *frames: bytes) -> None:
        """Text frames to this client in order: written at once in one write while its buffer has room
        (no coroutine a frame, one system call: the mover's ``moved`` and ``ack``), else each waited
        for as ``send`` does."""
        if self.socket.congested:
            for frame in frames:
                await self.send(frame)
        else:
            write_frames(self.socket, b"".join(text_frame(frame) for frame in frames))

    async def send(self, message: ServerMessage | bytes) -> None:
        """``message`` (or a text frame already encoded) to this client, waiting while its connection's
        buffer is full: the client's own handler waits, and so reads nothing more from it meanwhile.
        Nothing if the connection closed."""
        with contextlib.suppress(ConnectionClosed):
            if isinstance(message, bytes):
                await self.socket.send(message, text=True)
            else:
                await self.socket.send(server_frame(message))

    def tell(self, frame: bytes) -> None:
        """A text frame to this client without waiting: skipped (and marked missed, for a fresh
        ``state`` once it drains) while its buffer is full."""
        if self.socket.congested:
            self.socket.missed = True
        else:
            write_frames(self.socket, text_frame(frame))

    def close_soon(self, code: int, reason: str) -> None:
        """Start closing the connection (``code``, ``reason``); what it sends meanwhile is dropped."""
        self.cut_off = True
        closing = asyncio.get_running_loop().create_task(self.socket.close(code, reason))
        _CLOSING.add(closing)
        closing.add_done_callback(_CLOSING.discard)

    def _close_if_idle(self) -> None:
        self._deadline = None
        if not self.hello:
            self.close_soon(1008, f"no hello within {self.limits.hello_seconds:g} s")
        elif not self.serves():
            self.close_soon(IDLE_CLOSE, f"idle: in no game and no solver work for {self.limits.pick_seconds:g} s")


# -- running out of file descriptors -----------------------------------------------------------


def fitted_to_open_files(limits: ServerLimits) -> ServerLimits:
    """``limits`` with no more connections than the process may open files, less ``SPARE_FILES``."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft - SPARE_FILES >= limits.connections:
        return limits
    return replace(limits, connections=max(1, soft - SPARE_FILES))


def quiet_resource_errors(loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
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
