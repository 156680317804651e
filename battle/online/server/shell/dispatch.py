"""What the server does with each message: the handler websockets runs for every connection.

A connection says ``hello`` first, then picks one game with ``create``, ``join``, ``resume``
or ``watch``; what follows is about that game. Each frame is read by
``reader.parse_client_message``, handed to its handler by a table of message types, acted on
by the game's ``Room`` (the rules model checks every move) and, when it changes the game,
committed to the store before anyone is told (``LiveGames.commit``): a move acknowledged is a
move on disk. Then ``Audiences`` tells the game's connections. Everything a client sends that
is not a valid message gets an ``error`` with a code and a one-line reason and changes nothing;
nothing from the network is ever evaluated or unpickled.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed

from battle.online.protocol import messages, reader
from battle.online.protocol.codes import hash_token, new_token
from battle.online.protocol.device_messages import AskDaily, AskStats, ClaimGame, DeviceRequest
from battle.online.protocol.lobby_messages import FollowLobby, LeaveLobby, LobbyRequest, OpenChallenge, PageLobby
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
    NameSeat,
    OfferRematch,
    Ping,
    PlayMove,
    ProtocolError,
    RequestTakeback,
    Resign,
    Resume,
    Watch,
)
from battle.online.protocol.puzzle_messages import PuzzleRequest
from battle.online.protocol.server_groups import place_at
from battle.online.protocol.server_messages import (
    Elsewhere,
    Error,
    error_for,
)
from battle.online.protocol.solver_messages import (
    Analyse,
    AskHint,
    AskPar,
    AskReview,
    GetReview,
    SolverGame,
    SolverRequest,
    StopAnalysis,
)
from battle.online.protocol.writer import server_frame
from battle.online.server.days.desk import DeviceDesk
from battle.online.server.limits.address_guard import AddressGuard
from battle.online.server.limits.server import ServerLimits
from battle.online.server.lobby import rows as lobby_rows
from battle.online.server.lobby.desk import LobbyDesk
from battle.online.server.lobby.wire import challenge_entry
from battle.online.server.peers.connections import Client, Peer, client_address, forwarded_address
from battle.online.server.peers.fan_out import Audiences
from battle.online.server.processes.group_desk import FreshGame, GroupDesk
from battle.online.server.puzzles.desk import PuzzleDesk
from battle.online.server.rooms import wire
from battle.online.server.rooms.link_secrets import Purpose, is_link_secret
from battle.online.server.rooms.live_games import LiveGames, stored
from battle.online.server.rooms.network_caps import refuse_fast_start, refuse_start
from battle.online.server.rooms.refusals import Refused
from battle.online.server.rooms.room import Options, Room, Status, TimeCheck, plan_start
from battle.online.server.rooms.seat_networks import with_networks
from battle.online.server.rooms.shards import shard_of
from battle.online.server.rooms.share_address import ShareAddress
from battle.online.server.rooms.store import StoreError, Write
from battle.online.server.solving.analysis_boards import AnalysisBoards
from battle.online.server.solving.games import DealBook, NoDeals, SolverGames
from battle.online.server.solving.pars import KnownPars, Pars
from battle.online.server.solving.reviews import Reviews

if TYPE_CHECKING:
    from battle.online.server.solving.work import SolverWork

log = logging.getLogger("mahjong-battle.server")


_MISSING: dict[Purpose, str] = {"join": "no game has this invite code", "watch": "no game has this watch code"}
_HELD_BY: dict[type, str] = {
    **dict.fromkeys((SolverGame, Analyse, StopAnalysis, GetReview), "solver"),
    **dict.fromkeys((OpenChallenge, FollowLobby, LeaveLobby, PageLobby), "lobby"),
}
"""What a late process holds that a request away from its game asks for (the rest ask for a game)."""


@dataclass(frozen=True)
class Places:
    """This server's processes as a client's ``?at=`` names them (``serve --processes``): a request
    for a game (or the lobby) another process holds is answered ``elsewhere`` with its place."""

    group: str | None
    """This server's group (``--group``), or None: the places are then the processes' indexes."""
    late: Callable[[int], bool]
    """Whether a process misses its beats now (``supervisor``): a client sent there would wait."""

    def at(self, process: int) -> str:
        return place_at(self.group, process)


LOBBY_PROCESS = 0
"""With ``--processes``, the process that holds the lobby: its list is in that process's memory, so
every follower and challenge meets there."""


class GameServer:
    """The games, who is connected to each, and the handler websockets runs per connection."""

    def __init__(
        self,
        live: LiveGames,
        limits: ServerLimits,
        guard: AddressGuard,
        clock: Callable[[], float] = time.time,
        work: SolverWork | None = None,
        deals: DealBook | None = None,
    ) -> None:
        self.live = live
        self.limits = limits
        self.guard = guard
        self.clock = clock
        """Wall-clock seconds: deadlines survive a restart, so they are stored as dates."""
        self.audiences = Audiences(live, limits, clock)
        self.share = ShareAddress(limits.public_url)
        """The address to hand friends (``welcome``'s ``share_url``); ``running_server`` adds where it listens."""
        self.places: Places | None = None
        """Where the other processes are (``serve --processes``); None: one process holds every game."""
        self.solver_process: int | None = None
        """The process whose solver pool serves the solver's requests, when that is another one."""
        self.groups: GroupDesk | None = None
        """This server group's side of the directory the groups share (``serve --group``); None: one machine."""
        self.moves_told: collections.deque[float] = collections.deque(maxlen=100_000)
        """When recent moves were acknowledged (monotonic), for the moves a second on ``/stats``."""
        self._build_desks(work, deals)
        self._build_handlers()

    def _build_desks(self, work: SolverWork | None, deals: DealBook | None) -> None:
        """The desks most handlers belong to, built in the order the audiences tell them of a game's
        change: the solver's games before the lobby; the lobby's process takes back its stored challenges."""
        live, guard, clock = self.live, self.guard, self.clock
        known = KnownPars(deals or NoDeals(), live.store)
        """The catalogue's pars and those the solver worked out here."""
        self.solver_games = SolverGames(live, self.audiences, work, known, guard, self._commit, clock)
        """Games against the solver: its seat, its moves, the hints (``work`` None: a server without a solver)."""
        self.analysis = AnalysisBoards(work)
        self.reviews = Reviews(live, work, known, clock)
        self.pars = Pars(live, work, deals or NoDeals(), guard, clock)
        """Every game's par: the catalogue's, one found before, or worked out now."""
        self.puzzles = PuzzleDesk(live, work, guard, clock)
        """The puzzles and each browser's puzzle rating (``puzzle_open``, ``puzzle_move``, ``puzzle_reveal``)."""
        self.devices = DeviceDesk(live, guard, deals or NoDeals(), clock)
        """A browser's own figures: its games filed under its device key, the day's table, its statistics."""
        self.lobby = LobbyDesk(
            self.audiences,
            clock,
            network=self.live.networks.tag,
            followers_per_network=self.limits.lobby_followers_per_network,
        )
        """The lobby: open challenges anyone may take, games on show, and the connections following it."""
        self.audiences.on_told(self.lobby.follow_room)  # a challenge taken, a game on show ended
        if live.shard.alone or live.shard.index == LOBBY_PROCESS:  # its challenges outlive the process
            self.lobby.persist = live.submit
            self.lobby.restore(lobby_rows.load(live.store))

    def _build_handlers(self) -> None:
        """The tables ``handle`` looks a message's type up in, one for each stage of a connection; most
        handlers are the desks' own methods, so the desks come first (``_build_desks``)."""
        self._opening: dict[type, Callable[[Client, Any], Awaitable[None]]] = {Hello: self._hello, Ping: self._ping}
        """Handlers of what a connection may send before ``hello``."""
        self._picking: dict[type, Callable[[Client, Any], Awaitable[None]]] = {
            Create: self._create,
            Join: self._join,
            Resume: self._resume,
            Watch: self._watch,
        }
        """Handlers of what picks a game."""
        self._solver: dict[type, Callable[[Client, Any], Awaitable[None]]] = {
            SolverGame: self.solver_games.create,
            Analyse: self.analysis.analyse,
            StopAnalysis: self.analysis.stop_message,
            GetReview: self.reviews.get,
        }
        """Handlers of the solver's requests that stand alone: a game against it (which picks the game),
        the analysis board, a review by its link."""
        self._standing_alone: dict[type, Callable[[Client, Any], Awaitable[None]]] = {
            **self._solver,
            AskDaily: self.devices.daily,
            AskStats: self.devices.stats,
            OpenChallenge: self._challenge,
            FollowLobby: self.lobby.follow,
            LeaveLobby: self.lobby.leave,
            PageLobby: self.lobby.page,
            **self.puzzles.handlers,
        }
        """Handlers of every request that picks no game of its own: the solver's, the device's, the lobby's
        and the puzzles'."""
        self._actions: dict[type, Callable[[Client, Room, Any, float], Awaitable[None]]] = {
            PlayMove: self._play,
            Resign: self._resign,
            Abort: self._abort,
            OfferRematch: self._offer_rematch,
            AcceptRematch: self._accept_rematch,
            DeclineRematch: self._decline_rematch,
            RequestTakeback: self._request_takeback,
            AnswerTakeback: self._answer_takeback,
            NameSeat: self._name_seat,
            GetRecord: self._get_record,
            AskHint: self.solver_games.hint,
            AskReview: self.reviews.ask,
            AskPar: self.pars.ask,
            ClaimGame: self.devices.claim,
        }
        """Handlers of what a connection does in its game: ``(client, room, message, now)``."""

    # -- the connection's life -----------------------------------------------------------

    async def handle(self, socket: ServerConnection) -> None:
        """One connection from its handshake to its close: each frame it sends, in turn."""
        assert isinstance(socket, Peer), "serve() makes its connections with connections.peer_class"
        client = Client(socket, self.limits, client_address(socket))
        client.start()
        try:
            async for frame in socket:
                if not client.takes():
                    await client.over_rate()
                    continue
                await self._receive(client, frame)
        except ConnectionClosed:
            pass
        finally:
            client.stop()
            self.solver_games.forget(client)
            self.analysis.forget(client)
            self.reviews.forget(client)
            self.pars.forget(client)
            self.lobby.forget(client)
            self.puzzles.forget(client)
            await self.audiences.detach(client)

    async def _receive(self, client: Client, frame: str | bytes) -> None:
        message: ClientMessage | SolverRequest | LobbyRequest | DeviceRequest | PuzzleRequest | None = None
        try:
            message = reader.parse_client_message(frame)
            await self._dispatch(client, message)
        except (ProtocolError, Refused) as caught:
            problem = wire.refusal_error(caught) if isinstance(caught, Refused) else caught
            if problem.ref is None and message is not None:
                problem.ref = messages.ref_of(message) if isinstance(message, PlayMove) else {"type": message.TYPE}
            await client.send(error_for(problem))
        except StoreError as problem:
            log.error("%s", problem)
            if client.room is not None:
                self._reload(client.room)
            await client.send(Error(ErrorCode.INTERNAL, "the server could not save that; nothing changed, try again"))

    async def _dispatch(
        self, client: Client, message: ClientMessage | SolverRequest | LobbyRequest | DeviceRequest | PuzzleRequest
    ) -> None:
        opening = self._opening.get(type(message))
        if opening is not None:
            await opening(client, message)
            return
        if not client.hello:
            raise ProtocolError(ErrorCode.HELLO_FIRST, 'say "hello" with the protocol version first')
        picking = self._picking.get(type(message)) or self._standing_alone.get(type(message))
        if picking is not None:
            if self.groups is not None and isinstance(message, (Join, Watch, Resume)):
                elsewhere = await self.groups.elsewhere(client.address, message)
                if elsewhere is not None:
                    await client.send(elsewhere)  # the client asks the group that holds it
                    return
            if self.places is not None:
                process = self._process_elsewhere(client, message)
                if process is not None:
                    await client.send(self._sent_to(process, message))
                    return
            if type(message) in self._picking or isinstance(message, SolverGame):
                self.lobby.forget(client)  # a connection in a game follows the lobby no more
            await picking(client, message)
        else:
            await self._act(client, message)

    async def _hello(self, client: Client, message: Hello) -> None:
        if message.version != messages.PROTOCOL_VERSION:
            raise ProtocolError(
                ErrorCode.VERSION,
                f"this server speaks protocol version {messages.PROTOCOL_VERSION}, not {message.version}",
                params={"version": messages.PROTOCOL_VERSION},
            )
        client.said_hello(message.name)
        request = client.socket.request
        headers = request.headers if request is not None else Headers()
        forwarded = self.limits.trust_proxy and forwarded_address(headers) is not None
        await client.send(wire.welcome(self.share.for_request(headers.get("Host"), forwarded)))

    async def _ping(self, client: Client, message: Ping) -> None:
        await client.send(wire.pong(message.t))

    # -- picking a game ------------------------------------------------------------------

    async def _challenge(self, client: Client, message: OpenChallenge) -> None:
        """A friend's game that the lobby lists for anyone to take."""
        network = self.live.networks.tag(client.address)
        if self.groups is not None:  # its challenges on every group count together
            network = await self.groups.lobby_network(client.address, network)
        self.lobby.refuse_offer(network)
        self.lobby.forget(client)  # its connection is the challenge's from now on
        await self._create(client, message.create, listed_for=network)

    def _process_elsewhere(
        self, client: Client, message: ClientMessage | SolverRequest | LobbyRequest | DeviceRequest | PuzzleRequest
    ) -> int | None:
        """The process that holds what ``message`` picks (a game, or the lobby) when it is another one;
        None to serve it here. A code or a token that names no game is refused here, counted against
        this network."""
        shard = self.live.shard
        if isinstance(message, (SolverGame, Analyse, StopAnalysis, GetReview)):
            process = self.solver_process if client.room is None else None  # never away from its game
        elif isinstance(message, (OpenChallenge, FollowLobby, LeaveLobby, PageLobby)):
            process = LOBBY_PROCESS if client.room is None else None
        elif isinstance(message, (Join, Watch)):
            purpose: Purpose = "join" if isinstance(message, Join) else "watch"
            game_id = self._game_by_code(client, purpose, message.code)
            if game_id is None:
                raise ProtocolError(ErrorCode.NOT_FOUND, _MISSING[purpose], params={"what": purpose})
            process = self._process_of(game_id)
        elif isinstance(message, Resume):
            found = self.live.store.seat_by_token(hash_token(message.token))
            process = None if found is None else self._process_of(found[0])
        else:
            process = None
        return process if process is not None and process != shard.index else None

    def _sent_to(
        self, process: int, message: ClientMessage | SolverRequest | LobbyRequest | DeviceRequest | PuzzleRequest
    ) -> Elsewhere | Error:
        """``elsewhere`` with ``process``'s place, or, when that process misses its beats, a refusal
        naming what it holds (a game, the lobby, the solver) for the client to word."""
        assert self.places is not None
        if self.places.late(process):
            what = _HELD_BY.get(type(message), "game")
            return Error(
                ErrorCode.BUSY,
                f"the part of the server that holds the {what} does not answer now; try again",
                params={"why": "unreachable", "what": what},
            )
        return wire.elsewhere(self.places.at(process), str(message.TYPE))

    def _process_of(self, game_id: str) -> int:
        return shard_of(game_id, self.live.shard.count)

    async def _create(self, client: Client, message: Create, listed_for: str | None = None) -> None:
        """A friend's game; ``listed_for``: a challenge of that network, stored with the game in one
        write (a crash never keeps one without the other) and listed once the challenger has it."""
        self._refuse_create(client)
        held_elsewhere = 0
        if self.groups is None:
            game_id, invite, watch = self._draw_game()
        else:
            held_elsewhere = await self.groups.held_elsewhere(client.address, solver=False)
            refuse_start(self.live, self.guard, client.address, solver=False, elsewhere=held_elsewhere, take=False)
            game_id, invite, watch = await self.groups.fresh_game(self._draw_game)
            self._refuse_create(client)  # again after the directory's answers: creates stored meanwhile count
        network = refuse_start(
            self.live, self.guard, client.address, solver=False, elsewhere=held_elsewhere, game=game_id
        )
        plan = plan_start(message.deal, message.first)
        token = new_token()
        store = self.live.store
        room = Room.create(
            game_id=game_id,
            invite=invite,
            watch=watch,
            plan=plan,
            options=Options(message.move_seconds, message.lose_on_time, message.first),
            creator_name=message.name or client.name,
            creator_token_hash=hash_token(token),
            now=self.clock(),
        )
        # counted as held and waiting before its write is awaited: creates of the same network
        # (or of anyone, near the cap on games) that arrive meanwhile meet the caps with it counted
        self.live.rooms[room.game_id] = room
        self.guard.hosting(client.address, room.game_id)
        seats = {room.creator_seat: network}
        self.live.networks.add(room.game_id, seats)
        try:
            if self.groups is not None:
                await self.groups.seated(room.game_id, hash_token(token), [client.address])
            write = with_networks(store.plan_create(room), room.game_id, seats)
            listing = None if listed_for is None else (listed_for, challenge_entry(room, message, self.clock()))
            if listing is not None and self.lobby.persist is not None:
                listed = lobby_rows.opened(room.game_id, *listing)
                write = Write(write.game, write.action, write.statements + listed.statements)
            await stored(self.live.submit(room, write))
        except (StoreError, ProtocolError):
            self.live.rooms.pop(room.game_id, None)
            self.guard.not_hosting(client.address, room.game_id)
            self.live.networks.forget(room.game_id)
            raise
        finally:
            self.guard.made(room.game_id, time.monotonic())
        client.created += 1
        client.hosted.add(room.game_id)
        await self.audiences.attach(client, room, room.creator_seat)
        links = self.live.links
        await client.send(
            wire.created(room, invite, watch, token, links.make("join", invite), links.make("watch", watch))
        )
        await client.send(self.audiences.state(room, client.seat))
        if listing is not None:
            self.lobby.opened(room, *listing)

    def _refuse_create(self, client: Client) -> None:
        """Refuse a create the server's and the connection's caps do not allow now (the network's start
        caps are ``refuse_start``'s)."""
        if client.created >= self.limits.games_per_connection:
            raise ProtocolError(
                ErrorCode.BUSY,
                f"one connection may create {self.limits.games_per_connection} games; reconnect to create more",
                params={"why": "games_per_connection", "count": self.limits.games_per_connection},
            )
        if self.live.unfinished_everywhere() >= self.limits.open_games:
            raise ProtocolError(
                ErrorCode.BUSY,
                "the server has as many games as it can hold; try again later",
                params={"why": "server_full"},
            )
        waiting = self.guard.waiting_from(client.address, self.live.is_waiting)
        if waiting >= self.limits.waiting_per_address:
            raise ProtocolError(
                ErrorCode.BUSY,
                f"{waiting} games from your address wait for a second player "
                "already; abort one or wait for a friend to join",
                params={"why": "waiting", "count": waiting},
            )

    async def _join(self, client: Client, message: Join) -> None:
        room = self._room_by_code(client, "join", message.code)
        room.refuse_if_unplayed()
        if room.game_id in client.hosted or (client.room is room and client.seat is not None):
            raise ProtocolError(
                ErrorCode.NOT_ALLOWED, "you hold the other seat of this game already", params={"why": "own_seat"}
            )
        token = new_token()
        seat = room.join(message.name or client.name, hash_token(token), self.clock())
        if self.groups is not None:
            try:
                await self.groups.seated(room.game_id, hash_token(token), [client.address])
            except ProtocolError:
                self._reload(room)  # the seat stays open
                raise
        seats = {seat: self.live.networks.tag(client.address)}
        await self._commit(room, lambda: with_networks(self.live.store.plan_join(room, seat), room.game_id, seats))
        self.live.networks.add(room.game_id, seats)
        await self.audiences.attach(client, room, seat)
        await client.send(wire.joined(room, token, seat))
        await self.audiences.broadcast_state(room)

    async def _resume(self, client: Client, message: Resume) -> None:
        found = self.live.store.seat_by_token(hash_token(message.token))
        if found is None:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "no seat has this token (a token from another server?)")
        game_id, seat = found
        room = self.live.room(game_id, "the game of this token is gone")
        room.refuse_if_unplayed()
        came = await self.audiences.attach(client, room, seat)
        if came and await self.audiences.presence_changed(room):
            self.solver_games.tell_seat(client, room)
            return  # the state every connection of the game got now was the resumer's too
        await self.live.settled(room)
        await client.send(self.audiences.state(self.live.current(room), seat))
        self.solver_games.tell_seat(client, self.live.current(room))

    async def _watch(self, client: Client, message: Watch) -> None:
        room = self._room_by_code(client, "watch", message.code)
        room.refuse_if_unplayed()
        await self.audiences.attach(client, room, None)
        await client.send(self.audiences.state(room, None))
        self.solver_games.tell_seat(client, room)

    def _room_by_code(self, client: Client, purpose: Purpose, code: str) -> Room:
        """The game a code or a link's secret names, for ``purpose`` (``_game_by_code``)."""
        try:
            return self.live.room(self._game_by_code(client, purpose, code), _MISSING[purpose])
        except ProtocolError as problem:
            if problem.code == ErrorCode.NOT_FOUND and not is_link_secret(code):
                problem.params = {"what": purpose}
            raise

    def _game_by_code(self, client: Client, purpose: Purpose, code: str) -> str | None:
        """The id of the game a code or a link's secret names, for ``purpose``; None for a typed code
        that names none (counted as wrong).

        A secret the server made is looked up whatever anyone's wrong codes; one it did not make
        counts against the client's network. A typed code is looked up only while the network
        and the server are within their budgets of wrong codes, and a wrong one counts against both."""
        store = self.live.store
        lookup = store.game_by_invite if purpose == "join" else store.game_by_watch
        now = time.monotonic()
        if is_link_secret(code):
            found = self.live.links.code_of(purpose, code)
            if found is None:
                self.guard.link_failed(client.address, now)
                raise ProtocolError(
                    ErrorCode.NOT_FOUND,
                    "no game has this link; check that it was copied whole",
                    params={"what": "link"},
                )
            return lookup(found)
        refusal = self.guard.code_refusal(client.address, now)
        if refusal is not None:
            raise ProtocolError(ErrorCode.RATE_LIMITED, refusal)
        game_id = lookup(code)
        if game_id is not None:
            self.guard.code_found(client.address, now)
        return game_id

    # -- acting in the game --------------------------------------------------------------

    async def _act(
        self, client: Client, message: ClientMessage | SolverRequest | LobbyRequest | DeviceRequest | PuzzleRequest
    ) -> None:
        room = client.room
        if room is None:
            raise ProtocolError(ErrorCode.NO_GAME, "create, join, resume or watch a game first")
        now = self.clock()
        if self.live.check_time(room, now) != TimeCheck.NONE:
            await self.audiences.broadcast_state(room)
        action = self._actions.get(type(message))
        if action is not None:
            await action(client, room, message, now)

    async def _play(self, client: Client, room: Room, message: PlayMove, now: float) -> None:
        outcome = room.play(client.seat, message.move, message.id, now)
        if outcome.duplicate:
            await self.live.settled(room)  # a resend while the first sending's write is in flight
            if self.live.current(room) is not room:
                raise StoreError(f"move {outcome.receipt.ply} of game {room.game_id} was not stored")
            await client.send(wire.ack(outcome.receipt))
            return
        moved = wire.moved(room, outcome.receipt)  # as the move left the room, whatever comes while it is stored
        await self._commit(room, lambda: self.live.store.plan_add_move(room, outcome.receipt))
        self.moves_told.append(time.monotonic())
        await self.audiences.moved(room, moved, client, wire.ack(outcome.receipt))
        if room.status == Status.FINISHED:
            await self.audiences.broadcast_state(room)

    async def _resign(self, client: Client, room: Room, message: Resign, now: float) -> None:
        room.resign(client.seat, now)
        await self._stored_and_told(room, lambda: self.live.store.plan_finish(room))

    async def _abort(self, client: Client, room: Room, message: Abort, now: float) -> None:
        room.abort(client.seat, now)
        await self._stored_and_told(room, lambda: self.live.store.plan_finish(room))

    async def _offer_rematch(self, client: Client, room: Room, message: OfferRematch, now: float) -> None:
        self.solver_games.refuse_offer(room)
        room.offer_rematch(client.seat, now)
        await self._stored_and_told(room, lambda: self.live.store.plan_update(room))

    async def _decline_rematch(self, client: Client, room: Room, message: DeclineRematch, now: float) -> None:
        self.solver_games.refuse_offer(room)
        room.decline_rematch(client.seat, now)
        await self._stored_and_told(room, lambda: self.live.store.plan_update(room))

    async def _request_takeback(self, client: Client, room: Room, message: RequestTakeback, now: float) -> None:
        self.solver_games.refuse_offer(room)
        room.request_takeback(client.seat)
        await self._stored_and_told(room, lambda: self.live.store.plan_update(room))

    async def _answer_takeback(self, client: Client, room: Room, message: AnswerTakeback, now: float) -> None:
        self.solver_games.refuse_offer(room)
        receipt = room.answer_takeback(client.seat, message.accept, now)
        store = self.live.store
        if receipt is None:
            await self._stored_and_told(room, lambda: store.plan_update(room))
        else:
            await self._stored_and_told(room, lambda: store.plan_take_back(room, receipt))

    async def _name_seat(self, client: Client, room: Room, message: NameSeat, now: float) -> None:
        room.name_seat(client.seat, message.name)
        seat = client.seat
        assert seat is not None  # name_seat refuses a spectator
        await self._stored_and_told(room, lambda: self.live.store.plan_name(room, seat))

    async def _get_record(self, client: Client, room: Room, message: GetRecord, now: float) -> None:
        await self.live.settled(room)
        room = self.live.current(room)
        await client.send(wire.record(room))

    async def _accept_rematch(self, client: Client, room: Room, message: AcceptRematch, now: float) -> None:
        self.solver_games.refuse_offer(room)
        store = self.live.store
        refuse_fast_start(self.guard, client.address)
        game_id, invite, watch = await self._fresh_game()
        new = room.accept_rematch(client.seat, game_id=game_id, invite=invite, watch=watch, now=now)
        seats = {3 - seat: network for seat, network in self.live.networks.of(room.game_id).items()}
        await self._commit(room, lambda: with_networks(store.plan_start_rematch(room, new), new.game_id, seats))
        self.live.rooms[new.game_id] = new
        self.live.networks.add(new.game_id, seats)
        if self.groups is not None:
            await self.groups.rematched(room.game_id, new.game_id)
        for other in list(self.audiences.of(room)):
            seat_then = other.seat
            other.tell(server_frame(wire.rematch_started(room, new, seat_then)).encode())
            await self.audiences.attach(other, new, None if seat_then is None else 3 - seat_then)
        await self.audiences.broadcast_state(new)

    def _draw_game(self) -> FreshGame:
        """A new game's id (of this process's shard) and codes no game of this server uses."""
        invite, watch = self.live.store.fresh_codes()
        return self.live.shard.new_game_id(), invite, watch

    async def _fresh_game(self) -> FreshGame:
        """``_draw_game``, drawn until the directory took the codes as this group's when there is one."""
        return self._draw_game() if self.groups is None else await self.groups.fresh_game(self._draw_game)

    async def _stored_and_told(self, room: Room, plan: Callable[[], Write]) -> None:
        """Commit what ``room`` just did, then send every connection of the game its new state."""
        await self._commit(room, plan)
        await self.audiences.broadcast_state(room)

    async def _commit(self, room: Room, plan: Callable[[], Write]) -> None:
        """Store what ``room`` just did; if the store fails, the room goes back to what is stored."""
        try:
            await stored(self.live.submit(room, plan()))
        except StoreError:
            self._reload(room)
            raise

    def _reload(self, room: Room) -> None:
        """Put ``room`` back to what the store holds, its connections with it."""
        reloaded = self.live.reload(room)
        if reloaded is not None:
            self.audiences.rebind(room, reloaded)

    # -- the clock -----------------------------------------------------------------------

    async def watch_clocks(self) -> None:
        """Every ``clock_tick``: a turn past its limit is lost (or reported overdue), a game nobody
        joined expires and a game whose player to move is gone ends (``game_ends``), even if nobody
        sends anything; the solver's work for a game that ended stops once its end is stored."""
        while True:
            await asyncio.sleep(self.limits.clock_tick)
            self.lobby.tick(self.clock())
            for room in self.live.clock_changes(self.clock()):  # every end of this tick was queued first
                await self.audiences.broadcast_state(room)
                if not self.audiences.of(room):
                    self.live.forget_if_finished(room)
