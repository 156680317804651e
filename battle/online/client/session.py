"""The client side of online play: one connection kept alive on a thread of its own.

``OnlineSession`` is what the window and the terminal use. It connects, says
``hello``, creates, joins, resumes or watches a game, and from then on keeps the
game's latest ``state`` up to date from the server's messages. Front ends call
``play``, ``send`` and ``events`` from their own thread and never wait on the network.

A dropped connection is retried with growing pauses (0.5 s doubling to 30 s, with
jitter so a restarted server is not hit by every client at once) and resumed with
the seat's token; moves not yet acknowledged are sent again with the same ids, and
the server applies each id once, so a move is never lost and never played twice.
A refusal that retrying cannot cure (a wrong token, another protocol version) ends
the session with its reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import random
import secrets
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from battle.online.client.seats import Seat
from battle.online.client.state_game import after_move
from battle.online.protocol import messages
from battle.online.protocol.messages import (
    ClientMessage,
    Create,
    ErrorCode,
    Hello,
    Join,
    PlayMove,
    ProtocolError,
    Resume,
    Watch,
)
from battle.online.protocol.server_groups import FOLLOWS_IN_A_ROW, url_at
from battle.online.protocol.server_messages import (
    Ack,
    Created,
    Elsewhere,
    Error,
    Joined,
    Moved,
    RematchStarted,
    ServerMessage,
    State,
    Welcome,
)
from battle.online.protocol.server_reader import parse_server_message
from battle.online.protocol.writer import client_frame

BACKOFF_FIRST = 0.5
BACKOFF_LONGEST = 30.0
OPEN_TIMEOUT = 10.0
CLOSE_GRACE = 1.0
"""Seconds ``close`` lets the queued messages go out before it closes the socket regardless."""
FATAL_CODES = {
    ErrorCode.VERSION,
    ErrorCode.BAD_TOKEN,
    ErrorCode.NOT_FOUND,
    ErrorCode.FULL,
    ErrorCode.EXPIRED,
    ErrorCode.DAMAGED,
}
"""Refusals of the opening request that another attempt would only repeat."""
MOVE_REFUSALS = {
    ErrorCode.ILLEGAL_MOVE,
    ErrorCode.NOT_YOUR_TURN,
    ErrorCode.GAME_OVER,
    ErrorCode.OUT_OF_TIME,
    ErrorCode.ID_REUSED,
    ErrorCode.NOT_A_PLAYER,
}
"""Refusals of a move that resending cannot cure: the move leaves the unacknowledged list."""
OPENINGS = ("resume", "watch", "join", "hello")


@dataclass(frozen=True)
class Link:
    """The connection's state, for the status line: ``connecting``, ``connected``, ``retrying`` or ``closed``."""

    state: str
    detail: str = ""
    retry_in: float | None = None
    """Seconds to the next attempt while ``retrying``."""


def backoff_delays(first: float = BACKOFF_FIRST, longest: float = BACKOFF_LONGEST) -> Iterator[float]:
    """0.5, 1, 2, 4 ... 30, 30, ... seconds, each with up to 25% taken off at random."""
    delay = first
    while True:
        yield delay * (1.0 - 0.25 * random.random())
        delay = min(longest, delay * 2)


def new_move_id() -> str:
    return secrets.token_hex(8)


@dataclass
class _Shared:
    """What both threads touch, under one lock."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    state: State | None = None
    link: Link = field(default_factory=lambda: Link("connecting"))
    seat: Seat | None = None
    pending: list[tuple[str, str]] = field(default_factory=list)
    """Moves sent (or to send) and not yet acknowledged: (id, move)."""
    share_url: str | None = None
    """``welcome``'s address for friends' links, when the server knows a better one than ``url``."""


class OnlineSession:
    """One game on one server, kept connected in the background.

    ``opening`` is the request that picks the game: a ``Create``, ``Join``, ``Resume``
    or ``Watch`` message, typed as the server reads it (``protocol``). After ``created``/``joined`` the session resumes
    with the token it got; a spectator resumes with the watch code. ``on_message`` is
    called on the connection's thread after each message is queued for ``events``: a
    window posts itself an event there, so its loop sleeps until there is news.
    """

    def __init__(
        self,
        url: str,
        opening: Create | Join | Resume | Watch,
        name: str | None = None,
        on_message: Callable[[], None] | None = None,
    ) -> None:
        self.url = url
        self._opening = opening
        self._name = name
        self._on_message = on_message
        self._shared = _Shared()
        self._inbox: queue.SimpleQueue[ServerMessage | Link] = queue.SimpleQueue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._outbox: asyncio.Queue[ClientMessage | None] | None = None
        """What the front end sends, in order; None closes the connection."""
        self._socket: ClientConnection | None = None
        self._closing = False
        self._reached = False
        """A state arrived on the current connection: the next retry starts from the shortest pause."""
        self._carry: list[ClientMessage] = []
        """Messages a dropped connection did not send, first in line for the next one (loop thread only)."""
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="online", daemon=True)
        self._thread.start()
        self._ready.wait(5)

    @classmethod
    def resume(cls, seat: Seat, name: str | None = None, on_message: Callable[[], None] | None = None) -> OnlineSession:
        """Come back to a game saved as ``seat`` (a player's token, or a spectator's watch code)."""
        opening = Resume(seat.token) if seat.token else Watch(seat.watch or "")
        session = cls(seat.url, opening, name, on_message)
        with session._shared.lock:
            session._shared.seat = seat
        return session

    # -- what the front end reads ---------------------------------------------------------

    @property
    def state(self) -> State | None:
        """The latest full state of the game (moves applied from ``moved`` messages), or None yet."""
        with self._shared.lock:
            return self._shared.state

    @property
    def link(self) -> Link:
        with self._shared.lock:
            return self._shared.link

    @property
    def seat(self) -> Seat | None:
        """The game and the seat once the server has given them."""
        with self._shared.lock:
            return self._shared.seat

    @property
    def share_url(self) -> str | None:
        """The address a friend reaches the server at, when it is not ``url`` (``welcome``'s ``share_url``)."""
        with self._shared.lock:
            return self._shared.share_url

    @property
    def pending(self) -> list[tuple[str, str]]:
        """Moves sent and not yet acknowledged, (id, move)."""
        with self._shared.lock:
            return list(self._shared.pending)

    def snapshot(self) -> tuple[State | None, list[tuple[str, str]]]:
        """The state (frozen: the connection's thread replaces it, never changes it) and the
        unacknowledged moves, read at one instant: read apart, the two could straddle a ``moved``
        and show a move twice."""
        with self._shared.lock:
            return self._shared.state, list(self._shared.pending)

    def events(self) -> list[ServerMessage | Link]:
        """Every message from the server since the last call (and the ``Link`` on a change of link)."""
        found = []
        with contextlib.suppress(queue.Empty):
            while True:
                found.append(self._inbox.get_nowait())
        return found

    def wait_event(self, timeout: float) -> ServerMessage | Link | None:
        """The next message, waiting up to ``timeout`` seconds (the terminal's loop)."""
        try:
            return self._inbox.get(timeout=timeout)
        except queue.Empty:
            return None

    # -- what the front end does ----------------------------------------------------------

    def play(self, move: str) -> str:
        """Send a move (kept until acknowledged, resent after a reconnect); returns its id."""
        move_id = new_move_id()
        with self._shared.lock:
            self._shared.pending.append((move_id, move))
        self.send(PlayMove(move=move, id=move_id))
        return move_id

    def send(self, message: ClientMessage) -> None:
        """Send a message now, or when the connection is back (the order is kept)."""
        loop, outbox = self._loop, self._outbox
        if loop is not None and outbox is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(outbox.put_nowait, message)

    def close(self) -> None:
        """Leave: what is queued goes out first (an ``abort`` typed just before ``quit``), then the
        connection closes, at the latest after ``CLOSE_GRACE``; the thread ends within two seconds."""
        self._closing = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake_for_close)
        self._thread.join(2)

    # -- the connection's thread ----------------------------------------------------------

    def _wake_for_close(self) -> None:
        queued = self._outbox is not None and not self._outbox.empty()
        if self._outbox is not None:
            self._outbox.put_nowait(None)  # the pump sends what is queued, then closes the socket
        socket = self._socket
        if socket is None or self._loop is None:
            return
        if queued:  # a server that stopped reading is closed on anyway
            self._loop.call_later(CLOSE_GRACE, lambda: asyncio.ensure_future(socket.close()))
        else:
            asyncio.ensure_future(socket.close())

    def _run(self) -> None:
        with contextlib.suppress(RuntimeError):  # an interpreter shutting down
            asyncio.run(self._main())

    def _set_link(self, link: Link) -> None:
        with self._shared.lock:
            self._shared.link = link
        self._deliver(link)

    def _deliver(self, message: ServerMessage | Link) -> None:
        self._inbox.put(message)
        if self._on_message is not None:
            self._on_message()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._outbox = asyncio.Queue()
        self._ready.set()
        delays = backoff_delays()
        follows = 0
        while not self._closing:
            self._set_link(Link("connecting"))
            reason = await self._connect_once()
            if reason is None or self._closing:
                break
            if reason.startswith(_FOLLOW):  # another server group holds the game: ask there at once
                follows = 1 if self._reached else follows + 1  # in a row: with no state between
                self._reached = False
                if follows <= FOLLOWS_IN_A_ROW:
                    self.url = url_at(self.url, reason.removeprefix(_FOLLOW))
                    continue
                reason = "fatal: the server's groups keep sending this game to one another; try again later"
            if reason.startswith("fatal:"):
                self._set_link(Link("closed", reason.removeprefix("fatal:").strip()))
                return
            delay = next(delays)
            if self._reached:
                delays = backoff_delays()  # it worked until now: start again from the shortest pause
                self._reached = False
                delay = next(delays)
            self._set_link(Link("retrying", reason, delay))
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._closed_soon(), delay)
        self._set_link(Link("closed", "left the game"))

    async def _closed_soon(self) -> None:
        while not self._closing:
            await asyncio.sleep(0.05)

    def _opening_message(self) -> ClientMessage:
        seat = self.seat
        if seat is not None and seat.token:
            return Resume(seat.token)
        if seat is not None and seat.watch and seat.token is None:
            return Watch(seat.watch)
        return self._opening

    async def _connect_once(self) -> str | None:
        """One connection from open to close; the reason it ended (``fatal: ...`` for good), None when left."""
        try:
            async with connect(
                self.url, open_timeout=OPEN_TIMEOUT, max_size=2**20, compression=None, ping_interval=20, ping_timeout=20
            ) as socket:
                self._socket = socket
                try:
                    return await self._converse(socket)
                finally:
                    self._socket = None
        except (OSError, InvalidHandshake, asyncio.TimeoutError, ConnectionClosed) as error:
            return (
                f"cannot reach {self.url}: {error}"
                if not isinstance(error, ConnectionClosed)
                else "the connection dropped"
            )
        except InvalidURI as error:
            return f"fatal: {error}"

    async def _converse(self, socket: ClientConnection) -> str | None:
        await socket.send(client_frame(Hello(messages.PROTOCOL_VERSION, self._name or None)))
        await socket.send(client_frame(self._opening_message()))
        sender = asyncio.create_task(self._pump(socket))
        try:
            async for frame in socket:
                message = _read(frame)
                if message is None:
                    continue
                if isinstance(message, Elsewhere):
                    await socket.close()
                    return _FOLLOW + message.group
                fatal = self._take(message)
                if isinstance(message, State) and self.link.state != "connected":
                    self._reached = True
                    self._set_link(Link("connected"))
                    for move_id, move in self.pending:  # resent with the same ids: applied once at most
                        await socket.send(client_frame(PlayMove(move=move, id=move_id)))
                self._deliver(message)
                if fatal and isinstance(message, Error):
                    return f"fatal: {message.reason}"
        except ConnectionClosed:
            pass
        finally:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sender
        return None if self._closing else "the connection dropped"

    async def _pump(self, socket: ClientConnection) -> None:
        """Send what the front end queued, in order; a message that fails to go out goes back in front."""
        assert self._outbox is not None
        while True:
            message = self._carry.pop(0) if self._carry else await self._outbox.get()
            if message is None:
                await socket.close()
                return
            if isinstance(message, PlayMove) and not self._is_pending(message.id):
                continue  # acknowledged meanwhile (a resend after a reconnect beat it)
            try:
                await socket.send(client_frame(message))
            except ConnectionClosed:
                if not isinstance(message, PlayMove):  # moves are resent from ``pending`` anyway
                    self._carry.insert(0, message)
                return

    def _is_pending(self, move_id: str) -> bool:
        with self._shared.lock:
            return any(pending_id == move_id for pending_id, _ in self._shared.pending)

    def _take(self, message: ServerMessage) -> bool:
        """Fold a server message into the shared state; True if it ends the session."""
        with self._shared.lock:
            shared = self._shared
            if isinstance(message, Welcome):
                share_url = message.share_url
                shared.share_url = share_url if share_url is not None and share_url.startswith("http") else None
            elif isinstance(message, State):
                shared.state = message
                if shared.seat is not None:
                    shared.seat.game = message.game
                    shared.seat.watch = message.watch or shared.seat.watch
                    shared.seat.invite = message.invite
                elif message.you == "spectator":
                    shared.seat = Seat(self.url, message.game, None, None, message.watch)
            elif isinstance(message, Created):
                shared.seat = Seat(self.url, message.game, message.token, message.seat, message.watch, message.invite)
            elif isinstance(message, Joined):
                shared.seat = Seat(self.url, message.game, message.token, message.seat)
            elif isinstance(message, Ack):
                shared.pending = [(i, m) for i, m in shared.pending if i != message.id]
            elif isinstance(message, Moved) and shared.state is not None:
                shared.state = after_move(shared.state, message)
            elif isinstance(message, RematchStarted) and shared.seat is not None:
                shared.seat.game = message.game
                shared.seat.seat = message.you if isinstance(message.you, int) else None
                shared.seat.watch = message.watch
            elif isinstance(message, Error):
                ref = message.ref
                if message.code in MOVE_REFUSALS and ref is not None:
                    shared.pending = [(i, m) for i, m in shared.pending if i != ref.id]
                return message.code in FATAL_CODES and ref is not None and ref.type in OPENINGS
        return False


_FOLLOW = "follow:"
"""How ``_connect_once`` says the game is on another server group: this, then the group's name."""


def _read(frame: str | bytes) -> ServerMessage | None:
    """The frame as a typed message; None for one this client cannot read (a newer server's)."""
    try:
        return parse_server_message(frame)
    except ProtocolError:
        return None
