"""Who hears what: the connections attached to each game, and the messages that go to all of them.

A game's connections are its two seats (each may be held by more than one connection: a
window and a terminal of the same player) and its spectators. After a change every one of
them gets the game's ``state`` once the game's writes in flight are stored (``broadcast_state``),
one message per viewer (seat 1, seat 2, spectators), each written to all its sockets at once
with websockets' ``broadcast``; a move goes out as ``moved``, the same bytes to everyone.
"""

from __future__ import annotations

from collections.abc import Callable

from websockets.asyncio.server import ServerConnection, broadcast

from battle.online.protocol import messages
from battle.online.server.connections import Client
from battle.online.server.live_games import LiveGames
from battle.online.server.room import Room


class Audiences:
    """The connections of each game, and the fan-out of its news to them."""

    def __init__(self, games: LiveGames, clock: Callable[[], float]) -> None:
        self.games = games
        self.clock = clock
        self.attached: dict[str, set[Client]] = {}
        """The connections attached to each game."""

    def of(self, room: Room) -> set[Client]:
        """The connections attached to ``room``'s game now (an empty set for none)."""
        return self.attached.get(room.game_id, set())

    async def attach(self, client: Client, room: Room, seat: int | None) -> None:
        """Attach ``client`` to ``room`` as ``seat`` (None: a spectator), leaving its game before."""
        await self.detach(client)
        await self.games.settled(room)  # a newcomer's first state holds nothing the disk does not
        client.room, client.seat = room, seat
        self.attached.setdefault(room.game_id, set()).add(client)

    async def detach(self, client: Client) -> None:
        """``client`` leaves its game; a player's going is told to the game's other connections."""
        room = client.room
        if room is None:
            return
        seat = client.seat
        client.room, client.seat = None, None
        attached = self.attached.get(room.game_id)
        if attached is not None:
            attached.discard(client)
            if not attached:
                del self.attached[room.game_id]
                self.games.forget_if_finished(room)
        if seat is not None:
            await self.broadcast_state(room)  # the other side sees the presence change

    def rebind(self, room: Room, reloaded: Room) -> None:
        """The game's connections follow its reloaded room (a failed write put it back)."""
        for client in self.attached.get(room.game_id, ()):
            client.room = reloaded

    def presence(self, room: Room) -> dict[int, bool]:
        seats = {client.seat for client in self.attached.get(room.game_id, ()) if client.seat is not None}
        return {1: 1 in seats, 2: 2 in seats}

    def state(self, room: Room, seat: int | None) -> messages.JsonObject:
        """The ``state`` message of ``room`` for ``seat`` (None: a spectator), as of now."""
        return room.state_for(seat, self.presence(room), self.clock())

    async def broadcast_state(self, room: Room) -> None:
        """Each connection of the game gets its ``state`` once the game's writes in flight are stored."""
        await self.games.settled(room)
        room = self.games.current(room)  # reloaded if a write failed meanwhile
        viewers: dict[int | None, list[ServerConnection]] = {}
        for client in self.attached.get(room.game_id, ()):
            viewers.setdefault(client.seat, []).append(client.socket)
        for seat, sockets in viewers.items():
            broadcast(sockets, messages.encode(self.state(room, seat)))

    async def moved(self, room: Room, mover: Client, moved: messages.JsonObject, ack: messages.JsonObject) -> None:
        """A stored move: ``moved`` to every connection of the game, the mover's too, then ``ack`` to
        the mover. ``moved`` comes first so that a client dropping the move from its unacknowledged
        list already shows the position after it, never the one before as its turn again."""
        moved_frame = messages.encode(moved).encode()
        attached = self.attached.get(room.game_id, set())
        broadcast([other.socket for other in attached if other is not mover], moved_frame, text=True)
        if mover in attached:
            await mover.send(moved)
        await mover.send(ack)
