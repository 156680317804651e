"""Games against the solver on the server: the seat the solver holds, its moves, the player's hints.

A game against the solver is a friend's game in every other way: a ``Room`` in ``LiveGames``, stored
as it changes, resumed with its seat token after a reload or a restart, followed with its watch
code, its record a ``.mbg``. Its second seat is taken at creation by the solver (named as the
window names it, ``Solver (club)``), whose row in ``rows`` says its level and seed. Whenever
a stored change of the game has been told (``Audiences.on_told``: a move, an end), the solver's move
is asked of the pool if it is the solver's turn and a connection holds the player's seat, and
stopped if the game ended (``follow``); the move found is played
through the room, stored and told as any move is. A game whose player has left (no connection
holds the seat for ``LEAVE_GRACE``) is abandoned: its move leaves the pool, and is asked again
when the player comes back. The solver's moves are charged to the address of the player (their
budget of solver time): past it a move waits for the budget, and its pages are told how long.

It counts nowhere as a game between people: it never waits for a second player, offers no
rematch or takeback (the solver answers neither), and ``/stats`` counts it apart.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from battle.online.protocol import messages
from battle.online.protocol.codes import hash_token, new_token
from battle.online.protocol.messages import (
    ErrorCode,
    GivenPosition,
    NumberedDeal,
    ProtocolError,
    RandomDeal,
)
from battle.online.protocol.solver_messages import (
    FAIRNESS_MARGINS,
    AskHint,
    DailyDeal,
    FairDeal,
    RefusalCode,
    SolverGame,
    SolverNews,
    WorkKind,
)
from battle.online.protocol.solver_writer import solver_news_json
from battle.online.server.limits.address_guard import AddressGuard
from battle.online.server.peers.connections import Client
from battle.online.server.peers.fan_out import Audiences
from battle.online.server.rooms.game_ends import SOLVER_NETWORK
from battle.online.server.rooms.live_games import LiveGames, stored
from battle.online.server.rooms.network_caps import refuse_start
from battle.online.server.rooms.room import Options, Room, Status, plan_start
from battle.online.server.rooms.seat_networks import with_networks
from battle.online.server.rooms.store import StoreError, Write
from battle.online.server.rooms.wire import moved
from battle.online.server.solving.outcomes import SolverRefusal, Waiting, WorkFailed, WorkRefused
from battle.online.server.solving.rows import SolverSeatRow, solver_seats, with_solver_seat
from battle.online.server.solving.wire import hint_result, queue_news, refusal, refused, solver_created, solver_seat
from battle.rules.board import Position
from battle.rules.wording import solver_name

if TYPE_CHECKING:
    from battle.online.server.processes.group_desk import GroupDesk
    from battle.online.server.solving.work import AnalysisResult, MoveResult, SolverWork, Work

log = logging.getLogger("mahjong-battle.server")

RETRY_FAILED_SECONDS = 5.0
"""After a search the pool could not answer, the solver's move is asked again this much later."""
LEAVE_GRACE = 0.5
"""Seconds the solver work of a connection that closed waits for another connection of its owner
before it leaves the pool (a page that reloads, or goes from a game to its review's link, opens
the next connection within this on one machine), so that it leaves within a second of the close."""

Commit = Callable[[Room, Callable[[], Write]], Awaitable[None]]


class DealBook(Protocol):
    """The catalogued deals a game against the solver may start from: the deal of the day, fair deals,
    pars. The command line hands the atlas's catalogue over (the server imports no atlas)."""

    def daily_deal(self, day: datetime.date) -> int | None: ...

    def fair_deals(self, margin: int) -> list[int]: ...

    def par(self, deal: int | None, start: Position) -> int | None: ...

    def known_start(self, deal: int | None, start: Position) -> tuple[int, tuple[str, ...]] | None: ...


class NoDeals:
    """A server without a catalogue: no deal of the day, no fair deal, no par."""

    def daily_deal(self, day: datetime.date) -> int | None:
        return None

    def fair_deals(self, margin: int) -> list[int]:
        return []

    def par(self, deal: int | None, start: Position) -> int | None:
        return None

    def known_start(self, deal: int | None, start: Position) -> tuple[int, tuple[str, ...]] | None:
        return None


def tell(client: Client, news: SolverNews) -> None:
    """``news`` to one connection now (skipped while its buffer is full: a fresh state follows)."""
    client.tell(messages.encode(solver_news_json(news)).encode())


def refuse(client: Client, what: WorkKind, code: RefusalCode, retry_after: float | None = None) -> None:
    tell(client, refusal(what, code, retry_after))


class SolverGames:
    """The games against the solver the server holds, the solver's moves in flight, the hints."""

    def __init__(
        self,
        live: LiveGames,
        audiences: Audiences,
        work: SolverWork | None,
        deals: DealBook,
        guard: AddressGuard,
        commit: Commit,
        clock: Callable[[], float],
    ) -> None:
        self.live = live
        self.audiences = audiences
        self.work = work
        self.deals = deals
        self.guard = guard
        """What one network may start (``network_caps``)."""
        self.limits = guard.limits
        self.commit = commit
        self.clock = clock
        self.groups: GroupDesk | None = None
        """The server group's side of the shared directory (``serve --group``); None: one machine."""
        self.seats: dict[str, SolverSeatRow] = solver_seats(live.store)
        """The solver's seat of each unfinished game against it (a finished one's is read when asked)."""
        self.moving: dict[str, Work[MoveResult]] = {}
        """The solver's move in flight in each game."""
        self.payer: dict[str, str] = {}
        """Whose solver time each game's moves take: the network of its player's latest connection."""
        self.hints: dict[Client, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        audiences.on_leave(self._left)
        audiences.on_told(self.follow)

    # -- which games -------------------------------------------------------------------------------

    def seat_of(self, room: Room) -> SolverSeatRow | None:
        """The solver's seat in ``room``'s game, None for a game between people."""
        found = self.seats.get(room.game_id)
        if found is None and room.status == Status.FINISHED:
            found = solver_seats(self.live.store, [room.game_id]).get(room.game_id)
        return found

    def playing(self) -> int:
        """Games against the solver being played (``/stats`` counts them apart)."""
        return sum(1 for game in self.seats if (room := self.live.rooms.get(game)) and room.status == Status.PLAYING)

    def refuse_offer(self, room: Room) -> None:
        """A rematch or a takeback in a game against the solver: the solver answers neither."""
        if self.seat_of(room) is not None:
            raise ProtocolError(ErrorCode.NOT_ALLOWED, "the solver answers no rematch or takeback; start a new game")

    # -- a new game ----------------------------------------------------------------------------------

    async def create(self, client: Client, message: SolverGame) -> None:
        """Start a game against the solver and seat ``client`` in it, as ``create`` does for a friend's."""
        if self.work is None:
            refuse(client, "game", "no_solver")
            return
        if client.created >= self.limits.games_per_connection:
            raise ProtocolError(ErrorCode.BUSY, "one connection may create so many games; reconnect to create more")
        if self.live.unfinished_everywhere() >= self.limits.open_games:
            raise ProtocolError(ErrorCode.BUSY, "the server has as many games as it can hold; try again later")
        address = client.network
        groups = self.groups
        elsewhere = 0 if groups is None else await groups.held_elsewhere(client.address, solver=True)
        refuse_start(self.live, self.guard, client.address, solver=True, elsewhere=elsewhere, take=False)
        deal = self._deal(message)
        if deal is None:
            refuse(client, "game", "not_found")
            return
        store = self.live.store

        def draw() -> tuple[str, str, str]:
            invite, watch = store.fresh_codes()
            return self.live.shard.new_game_id(), invite, watch

        game_id, invite, watch = draw() if groups is None else await groups.fresh_game(draw)
        # the caps again after the directory's answers: what a start of the same network stored meanwhile counts
        network = refuse_start(self.live, self.guard, client.address, solver=True, elsewhere=elsewhere, game=game_id)
        plan = plan_start(deal, message.first)
        token = new_token()
        now = self.clock()
        room = Room.create(
            game_id=game_id,
            invite=invite,
            watch=watch,
            plan=plan,
            options=Options(first=message.first),
            creator_name=message.name or client.name,
            creator_token_hash=hash_token(token),
            now=now,
        )
        solver_seat = room.join(solver_name(message.level), hash_token(new_token()), now)  # a token nobody holds
        seat = SolverSeatRow(
            room.game_id,
            solver_seat,
            message.level,
            secrets.randbelow(2**31),
            self.deals.par(plan.deal_number, plan.start),
        )
        self.live.rooms[room.game_id] = room
        self.seats[room.game_id] = seat
        networks = {room.creator_seat: network, solver_seat: SOLVER_NETWORK}
        self.live.networks.add(room.game_id, networks)
        write = with_networks(with_solver_seat(store.plan_create(room), seat), room.game_id, networks)
        try:
            if groups is not None:
                await groups.seated(room.game_id, hash_token(token), [client.address], solver=True)
            await stored(self.live.submit(room, write))
        except (StoreError, ProtocolError):
            self.live.rooms.pop(room.game_id, None)
            self.seats.pop(room.game_id, None)
            self.live.networks.forget(room.game_id)
            raise
        finally:
            self.guard.made(room.game_id, time.monotonic())
        client.created += 1
        self.payer[room.game_id] = address
        await self.audiences.attach(client, room, room.creator_seat)
        tell(client, solver_created(room, token))
        await client.send(self.audiences.state(room, room.creator_seat))
        self.tell_seat(client, room)
        self.follow(room)

    def _deal(self, message: SolverGame) -> NumberedDeal | RandomDeal | GivenPosition | None:
        deal = message.deal
        if isinstance(deal, DailyDeal):
            number = self.deals.daily_deal(datetime.datetime.fromtimestamp(self.clock(), datetime.UTC).date())
            return None if number is None else NumberedDeal(number)
        if isinstance(deal, FairDeal):
            fair = self.deals.fair_deals(FAIRNESS_MARGINS[deal.fairness])
            return NumberedDeal(secrets.choice(fair)) if fair else None
        return deal

    # -- the game's connections ------------------------------------------------------------------------

    def tell_seat(self, client: Client, room: Room) -> None:
        """To a connection that picked ``room``'s game: the solver's seat, level and par, and where its
        move stands (nothing for a game between people)."""
        seat = self.seat_of(room)
        if seat is None:
            return
        if client.seat is not None and room.status == Status.PLAYING:
            self.payer[room.game_id] = client.network
        tell(client, solver_seat(room, seat))
        work = self.moving.get(room.game_id)
        if work is not None:
            tell(client, queue_news("move", work.waiting()))
        elif client.seat is not None:
            self.follow(room)  # the player is back: the move dropped while the game was left

    def _tell_game(self, game: str, news: SolverNews) -> None:
        room = self.live.rooms.get(game)
        if room is not None:
            for client in self.audiences.of(room):
                tell(client, news)

    def forget(self, client: Client) -> None:
        """A connection closed: its hint's search is stopped (the solver's move, once the game has no
        player left, by ``_left``)."""
        task = self.hints.pop(client, None)
        if task is not None:
            task.cancel()

    def _left(self, room: Room, seat: int | None) -> None:
        """A connection left ``room``'s game: the game is abandoned if no connection holds the player's
        seat ``LEAVE_GRACE`` later."""
        if seat is not None and room.game_id in self.moving:
            asyncio.get_running_loop().call_later(LEAVE_GRACE, self._abandon_if_left, room.game_id)

    def _abandon_if_left(self, game: str) -> None:
        room = self.live.rooms.get(game)
        if room is not None and not self._player_here(room):
            work = self.moving.pop(game, None)
            if work is not None:
                work.cancel()

    def _player_here(self, room: Room) -> bool:
        """Whether a connection holds the seat of the solver's opponent in ``room``'s game."""
        seat = self.seats.get(room.game_id)
        return seat is not None and self.audiences.presence(room)[3 - seat.seat]

    # -- the solver's moves ----------------------------------------------------------------------------

    def start(self) -> None:
        """At the server's start: the games finished meanwhile are let go (the solver moves in a game
        that waits for it once its player comes back)."""
        for game in list(self.seats):
            room = self.live.rooms.get(game)
            if room is not None:
                self.follow(room)

    def follow(self, room: Room) -> None:
        """After a stored change of ``room``'s game is told, or its player came: the solver's move is
        asked if it is the solver's turn and the player is here, and stopped if the game ended."""
        seat = self.seats.get(room.game_id)
        if seat is None or self.work is None:
            return
        game = room.game_id
        if room.status != Status.PLAYING or room.to_move != seat.seat:
            work = self.moving.pop(game, None)
            if work is not None:
                work.cancel()
                self._tell_game(game, queue_news("move", None))
            if room.status == Status.FINISHED:
                self.seats.pop(game, None)
                self.payer.pop(game, None)
                for client in self.audiences.of(room):
                    self.forget(client)  # a hint asked before the end (the clock's, too) is no use now
            return
        for client in self.audiences.of(room):
            self.forget(client)  # the player moved: a hint of the position before is stopped, not answered
        if game not in self.moving and self._player_here(room):
            self._ask_move(room, seat)

    def _ask_move(self, room: Room, seat: SolverSeatRow) -> None:
        assert self.work is not None
        game, ply = room.game_id, room.ply
        work = self.work.move(
            room.game.position, seat.level, seat.seed + ply + 1, seat=f"move:{game}", address=self._payer(game)
        )
        if isinstance(work, SolverRefusal):  # the moves' queue is full (a move is never refused for its budget)
            self._tell_game(game, refused("move", work))
            self._again_later(game, max(1.0, work.retry_after))
            return
        self.moving[game] = work
        self.work.watch(work, lambda waiting: self._tell_move(game, work, waiting))
        self._start(self._play_when_found(game, ply, seat, work))

    def _tell_move(self, game: str, work: Work[MoveResult], waiting: Waiting | None) -> None:
        """Where the game's move stands, while ``work`` is its move: the end of an earlier move, which the
        once-a-second look at the queue may see after the next one was asked, is no news of that one."""
        if self.moving.get(game) is work:
            self._tell_game(game, queue_news("move", waiting))

    def _payer(self, game: str) -> str:
        return self.payer.get(game, f"game {game}")  # after a restart, until its player comes back

    async def _play_when_found(self, game: str, ply: int, seat: SolverSeatRow, work: Work[MoveResult]) -> None:
        try:
            found = await work.answer()
        except WorkFailed as failure:
            if not isinstance(failure, WorkRefused):  # a refusal is the queue's answer, not a fault
                log.warning("the solver's move in game %s failed: %s", game, failure)
            if self.moving.get(game) is work:
                del self.moving[game]
                again = RETRY_FAILED_SECONDS if failure.retry_after is None else max(1.0, failure.retry_after)
                self._tell_game(game, refusal("move", failure.code, again))
                self._again_later(game, again)
            return
        if self.moving.get(game) is not work:
            return
        del self.moving[game]
        room = self.live.rooms.get(game)
        if room is None or room.status != Status.PLAYING or room.ply != ply or room.to_move != seat.seat:
            return
        outcome = room.play(seat.seat, found.move, f"solver-{ply + 1}", self.clock())
        news = moved(room, outcome.receipt)
        try:
            await self.commit(room, lambda: self.live.store.plan_add_move(room, outcome.receipt))
        except StoreError as problem:
            log.error("%s", problem)
            self._again_later(game, RETRY_FAILED_SECONDS)
            return
        await self.audiences.moved(room, news)
        if room.status == Status.FINISHED:
            await self.audiences.broadcast_state(room)

    def _again_later(self, game: str, seconds: float) -> None:
        def again() -> None:
            room = self.live.rooms.get(game)
            if room is not None:
                self.follow(room)

        asyncio.get_running_loop().call_later(seconds, again)

    # -- hints -------------------------------------------------------------------------------------

    async def hint(self, client: Client, room: Room, message: AskHint, now: float) -> None:
        """The hint, evaluation and best line for the player to move in a game against the solver."""
        if self.work is None:
            refuse(client, "hint", "no_solver")
            return
        if self.seat_of(room) is None:
            refuse(client, "hint", "not_solver_game")
            return
        if room.status != Status.PLAYING:
            refuse(client, "hint", "game_over")
            return
        if client.seat is None or room.to_move != client.seat:
            refuse(client, "hint", "not_your_turn")
            return
        address = client.network
        work = self.work.hint(room.game.position, seat=f"hint:{room.game_id}", address=address)
        if isinstance(work, SolverRefusal):
            refuse(client, "hint", work.code, work.retry_after)
            return
        self.forget(client)
        self.work.watch(work, lambda waiting: tell(client, queue_news("hint", waiting)))
        self.hints[client] = self._start(self._hint_when_found(client, room.game_id, room.ply, work))

    async def _hint_when_found(self, client: Client, game: str, ply: int, work: Work[AnalysisResult]) -> None:
        try:
            found = await work.answer()
        except WorkFailed as failure:
            refuse(client, "hint", failure.code, failure.retry_after)
            return
        finally:
            if self.hints.get(client) is asyncio.current_task():
                del self.hints[client]
        tell(client, hint_result(game, ply, found))

    def _start(self, work: Awaitable[None]) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        """The server stops: every search of this part is stopped, and its tasks end."""
        for work in self.moving.values():
            work.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
