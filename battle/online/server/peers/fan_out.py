"""Who hears what: the connections attached to each game, and the messages that go to all of them.

A game's connections are its two seats (each may be held by more than one connection: a
window and a terminal of the same player) and at most ``spectators_per_game`` spectators.
After a change every one of them gets the game's ``state`` once the game's writes in flight
are stored (``broadcast_state``), one message per viewer (seat 1, seat 2, spectators), each
framed once and written to all its sockets at once (``text_frames``); a move goes out as
``moved``, the same bytes to everyone, the mover's followed by its ``ack`` in one write. Once a
stored change is out, the ``on_told`` listeners hear of it: the solver answers a move after the
move, so its news never comes before the move it answers.

Nothing here waits for a slow reader: a connection whose unread bytes fill its buffer
(``Peer.congested``) is skipped and gets a fresh ``state`` once it drains, so what the server
holds for one connection stays under ``peer_buffer`` whatever the game's others do. A seat
coming or going is told at most once every ``presence_seconds`` a game (the last change
within that time is told at its end): a client resuming in a loop costs the others nothing.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import replace
from typing import Any

from battle.online.protocol.messages import ErrorCode, ProtocolError
from battle.online.protocol.server_messages import Ack, Moved, State
from battle.online.protocol.writer import server_frame
from battle.online.server.limits.server import ServerLimits
from battle.online.server.peers.connections import Client
from battle.online.server.peers.text_frames import text_frame, write_frames
from battle.online.server.rooms import wire
from battle.online.server.rooms.live_games import LiveGames
from battle.online.server.rooms.room import Room


class Audiences:
    """The connections of each game, and the fan-out of its news to them."""

    def __init__(self, games: LiveGames, limits: ServerLimits, clock: Callable[[], float]) -> None:
        self.games = games
        self.limits = limits
        self.clock = clock
        self.attached: dict[str, set[Client]] = {}
        """The connections attached to each game."""
        self._presence_told: dict[str, float] = {}
        """When each game last told a seat's coming or going (monotonic seconds)."""
        self._presence_due: dict[str, asyncio.TimerHandle] = {}
        """Games whose latest coming or going waits for ``presence_seconds`` to pass."""
        self._tasks: set[asyncio.Task[None]] = set()
        """Broadcasts started from a timer or a drain (kept referenced until done, as asyncio asks)."""
        self._leaving: list[Callable[[Room, int | None], None]] = []
        """Told of every connection that leaves a game, with the game and the seat it held."""
        self._arriving: list[Callable[[Room, int | None], None]] = []
        """Told of every connection that attaches to a game, with the game and its seat."""
        self._told: list[Callable[[Room], None]] = []
        """Told of every stored change of a game once its connections have it."""

    def of(self, room: Room) -> set[Client]:
        """The connections attached to ``room``'s game now (an empty set for none)."""
        return self.attached.get(room.game_id, set())

    def on_leave(self, listener: Callable[[Room, int | None], None]) -> None:
        """Tell ``listener`` of every connection that leaves a game (it closed, or picked another):
        the solver stops the work of a game its player left."""
        self._leaving.append(listener)

    def on_arrive(self, listener: Callable[[Room, int | None], None]) -> None:
        """Tell ``listener`` of every connection that attaches to a game, once attached (the lobby lists
        a stored challenge again when its challenger comes back)."""
        self._arriving.append(listener)

    def on_told(self, listener: Callable[[Room], None]) -> None:
        """Tell ``listener`` of every stored change of a game (a move, an end, any change told by its
        ``state``) once the game's connections have it, with the room held for the game then."""
        self._told.append(listener)

    # -- attaching -----------------------------------------------------------------------

    async def attach(self, client: Client, room: Room, seat: int | None) -> bool:
        """Attach ``client`` to ``room`` as ``seat`` (None: a spectator), leaving its game before;
        whether that made ``seat`` connected (for the caller to tell with ``presence_changed``).
        A spectator over ``spectators_per_game`` is refused ``full``."""
        if client.room is room and client.seat == seat:
            await self.games.settled(room)
            return False
        if seat is None and self._spectators(room) >= self.limits.spectators_per_game:
            raise ProtocolError(
                ErrorCode.FULL,
                f"{self.limits.spectators_per_game} connections watch this game already; try again later",
                params={"why": "spectators", "count": self.limits.spectators_per_game},
            )
        await self.detach(client)
        await self.games.settled(room)  # a newcomer's first state holds nothing the disk does not
        came = seat is not None and not self.presence(room)[seat]
        client.room, client.seat = room, seat
        client.picked()
        self.attached.setdefault(room.game_id, set()).add(client)
        client.socket.on_drained = lambda: self._refresh(client)
        for listener in self._arriving:
            listener(room, seat)
        return came

    async def detach(self, client: Client) -> None:
        """``client`` leaves its game; a seat left with no connection is told to the game's others."""
        room = client.room
        if room is None:
            return
        seat = client.seat
        client.room, client.seat = None, None
        client.left_game()
        attached = self.attached.get(room.game_id)
        if attached is not None:
            attached.discard(client)
            if not attached:
                del self.attached[room.game_id]
                self._forget_presence(room.game_id)
                self.games.forget_if_finished(room)
        for listener in self._leaving:
            listener(room, seat)
        if seat is not None and not self.presence(room)[seat] and room.game_id in self.attached:
            await self.presence_changed(room)

    def rebind(self, room: Room, reloaded: Room) -> None:
        """The game's connections follow its reloaded room (a failed write put it back)."""
        for client in self.attached.get(room.game_id, ()):
            client.room = reloaded

    def presence(self, room: Room) -> dict[int, bool]:
        seats = {client.seat for client in self.attached.get(room.game_id, ()) if client.seat is not None}
        return {1: 1 in seats, 2: 2 in seats}

    def _spectators(self, room: Room) -> int:
        return sum(1 for client in self.attached.get(room.game_id, ()) if client.seat is None)

    # -- telling -------------------------------------------------------------------------

    def state(self, room: Room, seat: int | None) -> State:
        """The ``state`` message of ``room`` for ``seat`` (None: a spectator), as of now, with the
        secrets of the links of the codes it shows (made here: the room knows no key)."""
        state = wire.state(room, seat, self.presence(room), self.clock())
        links = self.games.links
        return replace(
            state,
            invite_secret=links.make("join", state.invite) if state.invite else None,
            watch_secret=links.make("watch", state.watch) if state.watch else None,
        )

    async def broadcast_state(self, room: Room) -> None:
        """Each connection of the game gets its ``state`` once the game's writes in flight are stored,
        then the ``on_told`` listeners hear of the change."""
        await self._broadcast(room)
        self._heard(room)

    async def _broadcast(self, room: Room) -> None:
        await self.games.settled(room)
        room = self.games.current(room)  # reloaded if a write failed meanwhile
        viewers: dict[int | None, list[Client]] = {}
        for client in self.attached.get(room.game_id, ()):
            viewers.setdefault(client.seat, []).append(client)
        for seat, clients in viewers.items():
            _fan_out(clients, server_frame(self.state(room, seat)).encode())

    async def presence_changed(self, room: Room) -> bool:
        """A seat came or went: the game's connections get its state now, or, if they got one for that
        less than ``presence_seconds`` ago, once that time is up (one state for every change
        meanwhile). Whether they got it now."""
        game = room.game_id
        if game in self._presence_due:
            return False
        now = time.monotonic()
        last = self._presence_told.get(game)
        if last is None or now - last >= self.limits.presence_seconds:
            self._presence_told[game] = now
            await self._broadcast(room)  # a coming or going: nothing stored
            return True
        wait = last + self.limits.presence_seconds - now
        self._presence_due[game] = asyncio.get_running_loop().call_later(wait, self._presence_due_now, room)
        return False

    def _presence_due_now(self, room: Room) -> None:
        self._presence_due.pop(room.game_id, None)
        if room.game_id in self.attached:
            self._presence_told[room.game_id] = time.monotonic()
            self._start(self._broadcast(room))

    def _forget_presence(self, game: str) -> None:
        self._presence_told.pop(game, None)
        due = self._presence_due.pop(game, None)
        if due is not None:
            due.cancel()

    async def moved(self, room: Room, moved: Moved, mover: Client | None = None, ack: Ack | None = None) -> None:
        """A stored move's ``moved`` to every connection of the game, the same bytes for everyone, and
        the ``ack`` to its ``mover`` (None: the solver's move) after its ``moved`` (a client that
        drops the move from its unacknowledged list already shows the position after it, never the
        one before as its turn again); then the ``on_told`` listeners hear of it."""
        frame = server_frame(moved).encode()
        _fan_out((other for other in self.attached.get(room.game_id, ()) if other is not mover), frame)
        if mover is not None and ack is not None:
            ack_frame = server_frame(ack).encode()
            await mover.send_now(*((frame, ack_frame) if mover in self.of(room) else (ack_frame,)))
        self._heard(room)

    def _heard(self, room: Room) -> None:
        room = self.games.current(room)
        for listener in self._told:
            listener(room)

    def _refresh(self, client: Client) -> None:
        """A connection that drained after missing news gets its game's state afresh."""
        room = client.room
        if room is not None:
            self._start(self._send_state(client, room))

    async def _send_state(self, client: Client, room: Room) -> None:
        await self.games.settled(room)
        room = self.games.current(room)
        if client.room is room:
            client.tell(server_frame(self.state(room, client.seat)).encode())

    def _start(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def _fan_out(clients: Iterable[Client], frame: bytes) -> None:
    """``frame`` (framed once) to each of ``clients`` that can take it now; the others are marked to get
    a fresh state."""
    framed = text_frame(frame)
    for client in clients:
        if client.socket.congested:
            client.socket.missed = True
        else:
            write_frames(client.socket, framed)
