"""Who may connect, for how long, and how fast they may talk.

- ``peer_class`` makes the connection class the server accepts with: ``AddressGuard`` counts a
  connection from the moment it is accepted, before any handshake, so one over the caps is
  closed at once and idle sockets cannot use up the server's file descriptors.
- ``Client`` is one connection's life after the handshake: its message budget (a token bucket,
  ``rate_limited``, then a close for a flood), the deadline for its ``hello``, and the game it
  is attached to and as whom (``dispatch`` and ``fan_out`` read those).
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
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed

from battle.online.protocol import messages, server_messages
from battle.online.protocol.messages import ErrorCode
from battle.online.server.address_guard import AddressGuard
from battle.online.server.server_limits import ServerLimits
from battle.online.server.token_bucket import TokenBucket

if TYPE_CHECKING:
    from battle.online.server.room import Room

SPARE_FILES = 64
"""Open files kept free of connections: the database, its journal, the log, the listening sockets."""
RESOURCE_LOG_SECONDS = 10.0
"""At most one log line this often when the system refuses a new connection (no file descriptor left)."""

log = logging.getLogger("mahjong-battle.server")


# -- accepting a connection ------------------------------------------------------------------


class Peer(ServerConnection):
    """A connection as the server accepts it: counted by its address from the first byte on."""

    counted: list[str]
    """The addresses this connection is counted under (the peer's; behind a proxy, also the forwarded one)."""
    client_address: str | None = None
    """The address a trusted proxy forwarded in the handshake; None: the peer's own."""


def peer_class(guard: AddressGuard, limits: ServerLimits) -> type[Peer]:
    """``Peer`` counted by ``guard``: one over the caps is closed as it is accepted, and its file
    descriptor is free again at once. Behind a trusted proxy every peer is the proxy, so only the
    total is checked here and the forwarded address is counted at the handshake (``http_front``)."""

    class CountedPeer(Peer):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self.counted = []
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if peer else "unknown"
            refusal = guard.admit(address, per_address=not limits.trust_proxy)
            if refusal is None:
                self.counted.append(address)
            else:
                transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            for address in self.counted:
                guard.release(address)
            self.counted = []

    return CountedPeer


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
    """One connection: its socket, its limits, the game it is attached to and as whom."""

    socket: ServerConnection
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
    """Closed for flooding or silence: what it still sends is dropped unread."""
    _closing: set[asyncio.Task[None]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.bucket = TokenBucket(self.limits.rate, self.limits.burst)

    async def frames(self) -> AsyncIterator[str | bytes]:
        """The frames the client sends, within its message rate, until the connection closes.

        Over the rate a frame is refused with ``rate_limited`` (said once, then every 20th time),
        and after ``flood_close`` refusals the connection is closed (1008); one that says no
        ``hello`` within ``hello_seconds`` of opening is closed too."""
        silent = asyncio.get_running_loop().call_later(self.limits.hello_seconds, self._close_if_silent)
        try:
            async for frame in self.socket:
                if self.cut_off:
                    continue  # read and dropped, so that the peer's close frame behind them arrives
                if self.bucket.take(time.monotonic()):
                    yield frame
                elif self.bucket.refused >= self.limits.flood_close:
                    self.close_soon(1008, "too many messages")
                elif self.bucket.refused == 1 or self.bucket.refused % 20 == 0:
                    await self.send(
                        server_messages.error(
                            ErrorCode.RATE_LIMITED,
                            f"more than {self.limits.rate:g} messages a second; wait a moment",
                        )
                    )
        except ConnectionClosed:
            pass
        finally:
            silent.cancel()

    async def send(self, message: messages.JsonObject) -> None:
        """``message`` to this client, waiting while its connection's buffer is full; nothing if it closed."""
        with contextlib.suppress(ConnectionClosed):
            await self.socket.send(messages.encode(message))

    def close_soon(self, code: int, reason: str) -> None:
        """Start closing the connection (``code``, ``reason``); what it sends meanwhile is dropped."""
        self.cut_off = True
        closing = asyncio.get_running_loop().create_task(self.socket.close(code, reason))
        self._closing.add(closing)
        closing.add_done_callback(self._closing.discard)

    def _close_if_silent(self) -> None:
        if not self.hello:
            self.close_soon(1008, f"no hello within {self.limits.hello_seconds:g} s")


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
