"""The lobby's shell: who follows it, the challenges' games, and the news to every follower.

A follower (``lobby_follow``) gets the list once (``lobby``), then each change as ``lobby_news``:
the board (``board.LobbyBoard``) works out what a change did to the part shown, the news is
encoded once, and the same bytes go to every follower with websockets' ``broadcast``. So a change
costs one encoding and one write a follower, whatever the number of challenges, and a lobby that
does not change costs nothing. A follower whose unread bytes fill its buffer (``Peer.congested``)
is skipped and gets the whole list afresh once it drains; one that stays full is dropped
(``connections.Peer``), as every fan-out does.

A challenge is a friend's game that ``dispatch`` creates; the desk lists it and follows the game:
it leaves the list when the game is taken (then it is on show to watch until it ends), when it ends
untaken (withdrawn: ``abort``), ``challenge_seconds`` after it opened, or ``grace_seconds`` after its
challenger's last connection to it closed.

The challenges outlive the process: each one opened is stored (``persist``, ``rows``) and
deleted as it closes; a process started again is given the stored ones (``restore``) and lists each
once its challenger is connected to it again.

With ``serve --group --shared`` the board also lists the other groups' challenges (``shared``
reads them from PostgreSQL and calls ``shared_changed`` and ``shared_reset``), and each challenge of
this group is told to ``on_open`` and ``on_gone`` as it opens and closes. Another group's challenge
leaves the list when that group says so, or ``challenge_seconds`` after it opened, here as there.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Callable, Sequence

from websockets.asyncio.server import broadcast

from battle.online.protocol.lobby_messages import (
    PAGE_SIZE,
    ChallengeEntry,
    FollowLobby,
    LeaveLobby,
    LobbyMessage,
    PageLobby,
    lobby_news_json,
)
from battle.online.protocol.messages import (
    ErrorCode,
    ProtocolError,
    encode,
)
from battle.online.server.limits.server import ServerLimits
from battle.online.server.lobby import board, rows
from battle.online.server.lobby.board import BoardChange, GameOnShow, LobbyBoard, LobbyLimits, OpenOffer
from battle.online.server.lobby.shared_notes import LobbyNote, SharedOffer, remote_key
from battle.online.server.lobby.wire import game_entry, lobby_list, lobby_news, lobby_page
from battle.online.server.peers.connections import Client, Peer
from battle.online.server.peers.fan_out import Audiences
from battle.online.server.rooms.room import Room, Status
from battle.online.server.rooms.store import Write

FOLLOWING = "lobby"
"""What a follower holds (``Client.holds``): following the lobby serves someone, so no idle clock runs."""


class LobbyDesk:
    """The lobby's followers and the challenges' games."""

    def __init__(
        self,
        audiences: Audiences,
        clock: Callable[[], float],
        limits: LobbyLimits | None = None,
        network: Callable[[str], str] = lambda address: address,
        followers_per_network: int = ServerLimits.lobby_followers_per_network,
    ) -> None:
        limits = limits or board.LOBBY_LIMITS  # read when made: a test's prelude may shorten it
        self.network = network
        """A client address's network, as the caps count it."""
        self.followers_per_network = followers_per_network
        """Connections of one network that may follow at once (``ServerLimits.lobby_followers_per_network``)."""
        self.board = LobbyBoard(limits)
        self.audiences = audiences
        self.clock = clock
        self.limits = limits
        self.followers: set[Client] = set()
        self.followers_by_network: collections.Counter[str] = collections.Counter()
        """Followers now, by network (``followers_per_network``)."""
        self._follower_network: dict[Client, str] = {}
        self._rooms: dict[str, Room] = {}
        """The games of the open challenges and of the games on show, by game id."""
        self._grace: dict[str, asyncio.TimerHandle] = {}
        """Challenges whose challenger has no connection to them, and the timer that closes each."""
        self.on_open: Callable[[SharedOffer], None] | None = None
        """Told of each challenge this group opens (the shared lobby's writer); None: one machine."""
        self.on_gone: Callable[[str], None] | None = None
        """Told of the invite code of each challenge of this group that closes."""
        self.persist: Callable[[Room, Write], object] | None = None
        """Stores a challenge's row as it opens and closes (``rows``); None: kept in memory only."""
        self._dormant: dict[str, tuple[str, ChallengeEntry]] = {}
        """Stored challenges of a process started again, by game: listed once their challenger is back."""
        audiences.on_leave(self._left)
        audiences.on_arrive(self._arrived)

    @property
    def own_challenges(self) -> int:
        """The open challenges made on this group (``/stats``; the board lists the other groups' too)."""
        return sum(1 for game in self.board.offers if game in self._rooms)

    # -- following -------------------------------------------------------------------------

    async def follow(self, client: Client, message: FollowLobby) -> None:
        """``client`` gets the list now and each change from now on."""
        if client not in self.followers:
            if client.room is not None:
                raise ProtocolError(
                    ErrorCode.NOT_ALLOWED,
                    "follow the lobby on a connection that is in no game",
                    params={"why": "in_game"},
                )
            if len(self.followers) >= self.limits.followers:
                raise ProtocolError(
                    ErrorCode.BUSY,
                    f"{self.limits.followers} connections follow the lobby already; try again later",
                    params={"why": "lobby_followers", "count": self.limits.followers},
                )
            network = self.network(client.address)
            most = self.followers_per_network
            if self.followers_by_network[network] >= most:
                raise ProtocolError(
                    ErrorCode.BUSY,
                    f"{most} connections of your network follow the lobby already; close one first",
                    params={"why": "network_followers", "count": most},
                )
            self.followers.add(client)
            self.followers_by_network[network] += 1
            self._follower_network[client] = network
            client.holds(FOLLOWING)
            client.socket.on_drained = lambda: self._refresh(client)
        await client.send(_frame(lobby_list(self.board.listing())))

    async def page(self, client: Client, message: PageLobby) -> None:
        """The open challenges from ``message.start`` on, as they stand (``lobby_page``)."""
        challenges, total = self.board.page(message.start, PAGE_SIZE)
        await client.send(_frame(lobby_page(message.start, challenges, total)))

    async def leave(self, client: Client, message: LeaveLobby) -> None:
        """``client`` gets no more news."""
        self.forget(client)

    def forget(self, client: Client) -> None:
        """``client`` follows no more (it left, closed, or picked a game)."""
        if client in self.followers:
            self.followers.discard(client)
            network = self._follower_network.pop(client)
            self.followers_by_network[network] -= 1
            if self.followers_by_network[network] <= 0:
                del self.followers_by_network[network]
            client.released(FOLLOWING)

    def _refresh(self, client: Client) -> None:
        """A follower that drained after missing news gets the whole list afresh."""
        if client in self.followers:
            client.tell(_frame(lobby_list(self.board.listing())))

    def _tell(self, change: BoardChange) -> None:
        if not change.seen:
            return
        frame = _frame(lobby_news(change))
        ready: list[Peer] = []
        for client in self.followers:
            if client.socket.congested:
                client.socket.missed = True
            else:
                ready.append(client.socket)
        broadcast(ready, frame, text=True)

    # -- challenges ------------------------------------------------------------------------

    def refuse_offer(self, network: str) -> None:
        """Raise ``busy`` if ``network`` may not open another challenge; changes nothing."""
        self.board.refuse_offer(network)

    def opened(self, room: Room, network: str, entry: ChallengeEntry) -> None:
        """List the game ``room``, just created (and stored with its row: ``rows.opened``) as the
        challenge ``entry`` from ``network``."""
        self._list(room, network, entry)

    def _list(self, room: Room, network: str, entry: ChallengeEntry) -> None:
        self._rooms[room.game_id] = room
        self._tell(self.board.open(OpenOffer(room.game_id, network, entry)))
        if self.on_open is not None:
            self.on_open(SharedOffer(entry, network))

    def restore(self, stored: Sequence[tuple[str, str, ChallengeEntry]]) -> None:
        """The challenges a process before this one stored (``rows.load``): each is listed again
        once its challenger is connected to its game (``follow_room``)."""
        for game, network, entry in stored:
            self._dormant[game] = (network, entry)

    def _arrived(self, room: Room, seat: int | None) -> None:
        if room.game_id in self._dormant and seat == room.creator_seat:
            self._wake(room)

    def _unstore(self, room: Room) -> None:
        """``room``'s challenge left the list, or will not come back to it: its row goes."""
        if self.persist is not None:
            self.persist(room, rows.closed(room.game_id))

    def _wake(self, room: Room) -> None:
        """A stored challenge's game changed (its challenger came back, someone joined, it ended): listed
        again while it waits and its challenger is there; forgotten once it no longer waits or expired."""
        game = room.game_id
        network, entry = self._dormant[game]
        if room.status != Status.WAITING or self.clock() - entry.opened >= self.limits.challenge_seconds:
            del self._dormant[game]
            self._unstore(room)
            return
        if not self.audiences.presence(room)[room.creator_seat]:
            return
        del self._dormant[game]
        try:
            self.board.refuse_offer(network)
        except ProtocolError:  # the network opened its share of new ones meanwhile: this one stays off
            self._unstore(room)
            return
        self._list(room, network, entry)

    def follow_room(self, room: Room) -> None:
        """``room`` changed: a challenge taken goes on show, a game over leaves the list."""
        game = room.game_id
        if game in self._dormant:
            self._wake(room)
        if game not in self._rooms:
            return
        self._rooms[game] = room
        if game in self.board.offers and room.status != Status.WAITING:
            self._stop_grace(game)
            self._gone(game)
            if room.status == Status.PLAYING:
                self._tell(self.board.taken(GameOnShow(game, game_entry(room, self.clock()))))
            else:
                self._tell(self.board.close(game))
        shown = self.board.games.get(game)
        if shown is not None and room.status == Status.PLAYING:
            names = (room.seats[1].name, room.seats[2].name)
            if names != shown.entry.players:
                self._tell(self.board.renamed(GameOnShow(game, game_entry(room, shown.entry.started))))
        if room.status == Status.FINISHED:
            self._tell(self.board.ended(game))
            self._rooms.pop(game, None)

    def tick(self, now: float) -> None:
        """Close the challenges open for ``challenge_seconds``."""
        for game in self.board.expired(now):
            self._close(game)

    def _close(self, game: str) -> None:
        self._stop_grace(game)
        if game in self._rooms:
            self._gone(game)
            del self._rooms[game]
        self._tell(self.board.close(game))

    def _gone(self, game: str) -> None:
        """This group's challenge of ``game`` (still on the board) closes: its row goes, and the other
        groups are told."""
        offer = self.board.offers.get(game)
        room = self._rooms.get(game)
        if offer is not None and room is not None:
            self._unstore(room)
        if offer is not None and self.on_gone is not None:
            self.on_gone(offer.entry.code)

    # -- the other groups' challenges ------------------------------------------------------

    def shared_changed(self, note: LobbyNote) -> None:
        """Another group opened or closed challenges: list them (while the board has room), or no more."""
        gone = [remote_key(note.group, code) for code in note.gone]
        room = self.limits.open_challenges - len(self.board.offers) + len(gone)
        opened = [self._remote(note.group, offer) for offer in note.opened]
        fresh = [offer for offer in opened if offer.game_id not in self.board.offers]
        self._tell(self.board.swap(gone, fresh[: max(0, room)]))

    def shared_reset(self, group: str | None, offers: Sequence[tuple[str, SharedOffer]]) -> None:
        """What is known of ``group``'s challenges (None: of every other group's) is ``offers``, each with
        its group, oldest first; the board keeps the newest it has room for (``open_challenges``)."""
        prefix = "@" if group is None else remote_key(group, "")
        gone = [game for game in self.board.offers if game.startswith(prefix)]
        room = max(0, self.limits.open_challenges - len(self.board.offers) + len(gone))
        kept = offers[max(0, len(offers) - room) :] if room else ()
        self._tell(self.board.swap(gone, [self._remote(offer_group, offer) for offer_group, offer in kept]))

    @staticmethod
    def _remote(group: str, offer: SharedOffer) -> OpenOffer:
        return OpenOffer(remote_key(group, offer.entry.code), offer.network, offer.entry)

    def _left(self, room: Room, seat: int | None) -> None:
        """A connection left ``room``: with the challenger's last one gone, the challenge closes after the grace."""
        game = room.game_id
        if game not in self.board.offers or seat != room.creator_seat or game in self._grace:
            return
        if self.audiences.presence(room)[seat]:
            return
        loop = asyncio.get_running_loop()
        self._grace[game] = loop.call_later(self.limits.grace_seconds, self._grace_over, game)

    def _grace_over(self, game: str) -> None:
        self._grace.pop(game, None)
        room = self._rooms.get(game)
        if room is None or game not in self.board.offers:
            return
        if not self.audiences.presence(room)[room.creator_seat]:
            self._close(game)

    def _stop_grace(self, game: str) -> None:
        timer = self._grace.pop(game, None)
        if timer is not None:
            timer.cancel()


def _frame(message: LobbyMessage) -> bytes:
    return encode(lobby_news_json(message)).encode()
