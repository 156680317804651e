"""The puzzles on the server: the shipped set, one puzzle being solved per connection, and each
browser's puzzle rating in the game database.

A page opens a puzzle (``puzzle_open``) and sends its moves; the server's ``PuzzleSession`` (the
window's and the terminal's) checks each against the line, so the line reaches the page only when
the attempt is over. An attempt is rated the moment its outcome is decided (the first wrong move,
asking for the solution, or the last move found without either), once, as the window rates it
(``ledger``). A wrong move's refutation is the solver pool's best reply in the position after
it (a hint's search, charged to the network like any hint), told when found; a server without a
solver says what the move loses and no more.

Two tables of the game database (``store``) hold them:

``puzzle_devices``
    one row per device key: its rating, deviation, volatility, streak, best streak and attempts,
    the network that started it and when (``ServerLimits.puzzle_ratings_per_hour`` per network).
``puzzle_device_attempts``
    one row per decided attempt: the device, its network, the puzzle, solved or not, both
    ratings after it (``puzzle_attempts_per_hour`` per network; ``ATTEMPTS_KEPT`` per device, the
    oldest dropped every ``PRUNE_EVERY`` attempts beyond them).

A device key is a bearer token, stored as given: whoever holds it reads and moves that rating.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from battle.online.protocol import messages
from battle.online.protocol.messages import ErrorCode, ProtocolError, in_english
from battle.online.protocol.puzzle_messages import (
    OpenPuzzle,
    PuzzleMove,
    PuzzleNews,
    RevealPuzzle,
    puzzle_news_json,
)
from battle.online.server.limits.address_guard import AddressGuard
from battle.online.server.peers.connections import Client
from battle.online.server.puzzles import wire
from battle.online.server.puzzles.ledger import (
    ATTEMPTS_KEPT,
    NEWCOMER,
    PRUNE_EVERY,
    DeviceStanding,
    RatingMove,
    latest_ratings,
    puzzle_rating_for,
    rate_attempt,
)
from battle.online.server.rooms.live_games import LiveGames
from battle.online.server.rooms.store import Statement, StoreError, Write
from battle.online.server.solving.outcomes import SolverRefusal, WorkFailed
from battle.puzzles.puzzle import Puzzle
from battle.puzzles.puzzle_file import load_puzzles
from battle.puzzles.selection import matching, next_puzzle
from battle.puzzles.session import PuzzleSession
from battle.ratings.glicko2 import Rating
from battle.rules.board import move_name, parse_move
from battle.rules.errors import IllegalMoveError

if TYPE_CHECKING:
    from battle.online.server.solving.work import SolverWork

PUZZLES = "puzzles"
"""What ``AddressGuard.take_hold`` counts a network's open puzzles as."""
NEW_DEVICE = "puzzle_device"
"""The kind of the shared counts' marks of device keys a network opened a puzzle under that have no
rating row yet: each counts as a rating it started for an hour (``ServerLimits.puzzle_ratings_per_hour``)."""


@dataclass(eq=False)
class _Solving:
    """One connection's puzzle: while it is open the connection serves someone (no idle clock)."""

    device: str
    network: str
    session: PuzzleSession
    decided: bool = False
    refuting: asyncio.Task[None] | None = field(default=None, repr=False)


class PuzzleDesk:
    """The shipped puzzles, each connection's puzzle, and the devices' ratings in the store."""

    def __init__(
        self,
        live: LiveGames,
        work: SolverWork | None,
        guard: AddressGuard,
        clock: Callable[[], float] = time.time,
        puzzles: Sequence[Puzzle] | None = None,
    ) -> None:
        self.live = live
        self.work = work
        self.guard = guard
        """Where each network's open puzzles are counted, in every process (``puzzles_open_per_network``)."""
        self.limits = guard.limits
        self.clock = clock
        self._puzzles = puzzles
        self._by_id: dict[str, Puzzle] | None = None
        self._loading: asyncio.Future[list[Puzzle]] | None = None
        """The one read of the shipped set, on a thread: every first request waits for the same one."""
        self.solving: dict[Client, _Solving] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._seats = itertools.count(1)
        self.rng = random.Random()

    @property
    def handlers(self) -> dict[type, Callable[[Client, Any], Awaitable[None]]]:
        """The desk's requests and their handlers, for the server's table."""
        return {OpenPuzzle: self.open, PuzzleMove: self.move, RevealPuzzle: self.reveal}

    # -- the set and the ratings ----------------------------------------------------------------

    async def puzzles(self) -> Sequence[Puzzle]:
        """The shipped set, read once on first use (600 puzzles, 0.2 s of a core), on a thread: the
        event loop serves the other connections meanwhile."""
        if self._puzzles is None:
            if self._loading is None:
                self._loading = asyncio.ensure_future(asyncio.to_thread(load_puzzles))
            loaded: Sequence[Puzzle] = await asyncio.shield(self._loading)
            self._puzzles = loaded
            return loaded
        return self._puzzles

    async def puzzle(self, ident: str) -> Puzzle | None:
        if self._by_id is None:
            self._by_id = {puzzle.id: puzzle for puzzle in await self.puzzles()}
        return self._by_id.get(ident)

    def standing(self, device: str) -> DeviceStanding | None:
        """The device's row, None before its first attempt."""
        rows = self.live.store.read_rows(
            "SELECT rating, deviation, volatility, streak, best_streak, attempts FROM puzzle_devices WHERE device = ?",
            (device,),
        )
        if not rows:
            return None
        rating, deviation, volatility, streak, best, attempts = rows[0]
        return DeviceStanding(Rating(rating, deviation, volatility), streak, best, attempts)

    def device_ratings(self, device: str) -> dict[str, Rating]:
        """The puzzles the device has tried, each with its rating after the device's latest attempt."""
        rows = self.live.store.read_rows(  # at most one row a puzzle of the set: 600, whatever the attempts
            "SELECT puzzle_id, puzzle_rating, puzzle_deviation, puzzle_volatility FROM puzzle_device_attempts "
            "WHERE id IN (SELECT MAX(id) FROM puzzle_device_attempts WHERE device = ? GROUP BY puzzle_id) ORDER BY id",
            (device,),
        )
        return latest_ratings(
            (ident, Rating(rating, deviation, volatility)) for ident, rating, deviation, volatility in rows
        )

    def puzzle_rating(self, device: str, puzzle: Puzzle) -> Rating:
        """The puzzle's rating for the device: after its latest attempt there, else the mined one."""
        rows = self.live.store.read_rows(
            "SELECT puzzle_id, puzzle_rating, puzzle_deviation, puzzle_volatility FROM puzzle_device_attempts "
            "WHERE device = ? AND puzzle_id = ? ORDER BY id DESC LIMIT 1",
            (device, puzzle.id),
        )
        found = {ident: Rating(rating, deviation, volatility) for ident, rating, deviation, volatility in rows}
        return puzzle_rating_for(puzzle.rating, found, puzzle.id)

    def _recent_attempts(self, network: str, now: float) -> int:
        rows = self.live.store.read_rows(
            "SELECT COUNT(*) FROM puzzle_device_attempts WHERE network = ? AND attempted_at > ?",
            (network, now - 3600.0),
        )
        return int(rows[0][0])

    def _start_rating(self, network: str, device: str, now: float) -> None:
        """Count ``device``, which has no rating, as one its network starts this hour, or refuse it:
        the rows made this hour and the keys opened that have no row yet (a row comes only when an
        attempt is decided, so counting rows alone let 30 become 64), marked in the counts every
        process shares, in one block (two processes cannot both take a network's last start)."""
        moment = time.monotonic()
        with self.guard.counts.held(moment) as counts:
            opened = counts.marked(NEW_DEVICE, network, moment)
            if device in opened:
                return
            rows = self.live.store.read_rows(
                "SELECT COUNT(*) FROM puzzle_devices WHERE network = ? AND created_at > ?", (network, now - 3600.0)
            )
            most = self.limits.puzzle_ratings_per_hour
            if int(rows[0][0]) + len(opened) >= most:
                raise ProtocolError(
                    ErrorCode.BUSY,
                    f"your network started {most} puzzle ratings in the last hour; "
                    "try again later, or use a browser that has one",
                    params={"why": "new_devices", "count": most},
                )
            counts.put_mark(NEW_DEVICE, network, device, moment + 3600.0)

    # -- the requests --------------------------------------------------------------------------

    async def open(self, client: Client, message: OpenPuzzle) -> None:
        """Show the puzzle asked for (or the next near the device's rating) with the device's standing."""
        network = client.network
        replacing = client in self.solving  # its puzzle counted already
        most = self.limits.puzzles_open_per_network
        if not replacing and not self.guard.take_hold(PUZZLES, client.address, most, time.monotonic()):
            raise ProtocolError(
                ErrorCode.BUSY,
                f"your network has {most} puzzles open already; close one first",
                params={"why": "puzzles_open", "count": most},
            )
        try:
            puzzle, standing = await self._chosen(network, message)
        except BaseException:
            if not replacing:
                self.guard.let_go(PUZZLES, client.address, time.monotonic())
            raise
        if replacing:
            self._close(client)  # its count goes to the puzzle that replaces it
        solving = self.solving[client] = _Solving(message.device, network, PuzzleSession(puzzle))
        client.holds(solving)
        rating = self.puzzle_rating(message.device, puzzle)
        self._tell(client, wire.puzzle_shown(puzzle, rating, standing))

    async def _chosen(self, network: str, message: OpenPuzzle) -> tuple[Puzzle, DeviceStanding]:
        """The puzzle ``message`` asks for and its device's standing, or a refusal: the network's
        attempts or new ratings this hour, or no such puzzle."""
        standing = self.standing(message.device)
        now = self.clock()
        most = self.limits.puzzle_attempts_per_hour
        if self._recent_attempts(network, now) >= most:
            raise ProtocolError(
                ErrorCode.BUSY,
                f"your network tried {most} puzzles in the last hour; try again later",
                params={"why": "puzzle_attempts", "count": most},
            )
        if standing is None:
            self._start_rating(network, message.device, now)
        standing = standing or NEWCOMER
        if message.puzzle is not None:
            puzzle = await self.puzzle(message.puzzle)
            if puzzle is None:
                raise ProtocolError(
                    ErrorCode.NOT_FOUND, f"no puzzle {message.puzzle} in this server's set", params={"what": "puzzle"}
                )
        else:
            ratings = self.device_ratings(message.device)
            choices = matching(await self.puzzles(), message.theme)
            plain = {ident: rating.rating for ident, rating in ratings.items()}
            found = next_puzzle(choices, standing.rating.rating, set(plain), self.rng, plain)
            if found is None:
                raise ProtocolError(ErrorCode.NOT_FOUND, "no puzzle of that theme", params={"what": "puzzle"})
            puzzle = found
        return puzzle, standing

    async def move(self, client: Client, message: PuzzleMove) -> None:
        """Judge one move of the connection's puzzle; a right one is played with the line's reply."""
        solving = self._solving(client)
        session = solving.session
        if session.finished:
            raise ProtocolError(ErrorCode.GAME_OVER, "this puzzle is over; open another")
        try:
            attempt = session.try_move(parse_move(message.move))
        except IllegalMoveError as error:
            raise ProtocolError(
                ErrorCode.ILLEGAL_MOVE, in_english(error), params={"move": message.move, "why": "illegal"}
            ) from None
        change = None
        if not attempt.correct or session.finished:
            change = await self._decide(solving)
        refuting = not attempt.correct and self.work is not None
        self._tell(client, wire.puzzle_judged(session, attempt, refuting, change))
        if refuting:
            self._refute(client, solving, attempt.move)
        if session.finished:
            self._tell(client, wire.puzzle_solution(session.puzzle, (), None))

    async def reveal(self, client: Client, message: RevealPuzzle) -> None:
        """Give up: the rest of the line, and the attempt rated as missed if nothing decided it before."""
        solving = self._solving(client)
        session = solving.session
        if session.finished:
            raise ProtocolError(ErrorCode.GAME_OVER, "this puzzle is over; open another")
        rest = tuple(session.reveal())
        change = await self._decide(solving)
        self._tell(client, wire.puzzle_solution(session.puzzle, rest, change))

    def forget(self, client: Client) -> None:
        """The connection left: its refutation search stops, and its network holds one puzzle fewer."""
        if self._close(client):
            self.guard.let_go(PUZZLES, client.address, time.monotonic())

    def _close(self, client: Client) -> bool:
        """The connection's puzzle closed (its refutation search stopped); False when it had none."""
        solving = self.solving.pop(client, None)
        if solving is None:
            return False
        if solving.refuting is not None:
            solving.refuting.cancel()
        client.released(solving)
        return True

    # -- rating --------------------------------------------------------------------------------

    async def _decide(self, solving: _Solving) -> RatingMove | None:
        """Rate and store the attempt once: the first decision is the one that counts."""
        if solving.decided:
            return None
        solving.decided = True
        device = solving.device
        lock = self._locks.setdefault(device, asyncio.Lock())
        try:
            async with lock:  # two tabs of one browser: each reads the standing the other stored
                return await self._rate(solving)
        finally:
            if not lock.locked() and self._locks.get(device) is lock:
                del self._locks[device]

    async def _rate(self, solving: _Solving) -> RatingMove:
        session = solving.session
        puzzle = session.puzzle
        device = solving.device
        known = self.standing(device)
        opponent = self.puzzle_rating(device, puzzle)
        after, change = rate_attempt(known or NEWCOMER, opponent, session.solved)
        now = self.clock()
        player, rated = change.player_after, change.puzzle_after
        statements: tuple[Statement, ...] = (
            Statement(
                "INSERT INTO puzzle_devices (device, network, created_at, rating, deviation, volatility, streak, "
                "best_streak, attempts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (device) DO UPDATE SET "
                "rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, "
                "streak = excluded.streak, best_streak = excluded.best_streak, attempts = excluded.attempts",
                (
                    device,
                    solving.network,
                    now,
                    player.rating,
                    player.deviation,
                    player.volatility,
                    after.streak,
                    after.best_streak,
                    after.attempts,
                ),
            ),
            Statement(
                "INSERT INTO puzzle_device_attempts (device, network, attempted_at, puzzle_id, solved, player_rating, "
                "player_deviation, player_volatility, puzzle_rating, puzzle_deviation, puzzle_volatility) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    device,
                    solving.network,
                    now,
                    puzzle.id,
                    int(session.solved),
                    player.rating,
                    player.deviation,
                    player.volatility,
                    rated.rating,
                    rated.deviation,
                    rated.volatility,
                ),
            ),
        )
        if after.attempts > ATTEMPTS_KEPT and (after.attempts - ATTEMPTS_KEPT) % PRUNE_EVERY == 0:
            statements += (
                Statement(
                    "DELETE FROM puzzle_device_attempts WHERE device = ? AND id <= (SELECT id FROM "
                    "puzzle_device_attempts WHERE device = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                    (device, device, ATTEMPTS_KEPT),
                ),
            )
        key = f"puzzles:{device}"
        try:
            await self.live.committer.submit(Write(key, f"storing a puzzle attempt of device {device[:6]}", statements))
        except StoreError:
            self.live.committer.forgive(key)
            raise
        if known is None:  # its row counts it from now on
            with self.guard.counts.held(time.monotonic()) as counts:
                counts.drop_mark(NEW_DEVICE, device)
        return change

    # -- the refutation ------------------------------------------------------------------------

    def _refute(self, client: Client, solving: _Solving, move: tuple[int, int]) -> None:
        assert self.work is not None
        position = solving.session.position.copy()
        position.push(move)
        puzzle, name = solving.session.puzzle.id, move_name(move)
        if position.is_over():
            self._tell(client, wire.puzzle_refutation(puzzle, name, None))
            return
        work = self.work.hint(position, seat=f"puzzle:{next(self._seats)}", address=solving.network)
        if isinstance(work, SolverRefusal):
            self._tell(client, wire.puzzle_refutation(puzzle, name, None))
            return
        if solving.refuting is not None:
            solving.refuting.cancel()

        async def found() -> None:
            try:
                answer = await work.answer()
            except WorkFailed:
                self._tell(client, wire.puzzle_refutation(puzzle, name, None))
                return
            best = answer.best_moves[0] if answer.best_moves else None
            self._tell(client, wire.puzzle_refutation(puzzle, name, best))

        task = asyncio.ensure_future(found())
        task.add_done_callback(lambda done: work.cancel() if done.cancelled() else None)
        solving.refuting = task

    # -- helpers -------------------------------------------------------------------------------

    def _solving(self, client: Client) -> _Solving:
        solving = self.solving.get(client)
        if solving is None:
            raise ProtocolError(ErrorCode.NO_GAME, 'open a puzzle first ("puzzle_open")')
        return solving

    @staticmethod
    def _tell(client: Client, news: PuzzleNews) -> None:
        client.tell(messages.encode(puzzle_news_json(news)).encode())
