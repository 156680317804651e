"""Reviews of finished games on the server: queued in the background, kept, shown when ready, shared
by a link.

A player or a spectator of a finished game (a friend's or the solver's) asks for its review; the
pool grades every move against perfect play with a node budget a move, so the review is the one
``mahjong-battle review`` gives of the game's record with the same catalogue (a catalogued deal's
first move graded on its par). Reviews run after every waiting move and every hint or analysis
(the pool's order), charged to the asking address. A game has one review: asked again, the same
one answers. It is a row of ``reviews`` from the moment it is queued, so its link (``/review/ID``)
works at once, says its place while it waits, and keeps working after a restart, which queues
the unfinished ones again. Every connection that looks at a review waiting gets its news.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from battle.online.protocol.messages import ProtocolError
from battle.online.protocol.solver_messages import REVIEW_ID_LENGTH, AskReview, GetReview, ReviewResult
from battle.online.server.address_guard import network_of
from battle.online.server.connections import Client
from battle.online.server.live_games import LiveGames, stored
from battle.online.server.room import UNRATED_ENDS, Room, Status
from battle.online.server.solver_games import DealBook, refuse, tell
from battle.online.server.solver_outcomes import Refused, WorkFailed
from battle.online.server.solver_rows import ReviewRow, plan_review, queued_reviews, review_by_id, review_of_game
from battle.online.server.store import StoreError

if TYPE_CHECKING:
    from battle.online.server.solver_work import SolverWork, Work

log = logging.getLogger("mahjong-battle.server")


class Reviews:
    """The reviews waiting for the pool, and the connections that look at each."""

    def __init__(
        self,
        live: LiveGames,
        work: SolverWork | None,
        deals: DealBook,
        ipv6_prefix: int,
        clock: Callable[[], float],
    ) -> None:
        self.live = live
        self.work = work
        self.deals = deals
        self.ipv6_prefix = ipv6_prefix
        self.clock = clock
        self.pending: dict[str, tuple[ReviewRow, Work]] = {}
        """The reviews the pool has not answered yet, by id."""
        self.readers: dict[str, set[Client]] = {}
        """The connections told of each pending review's news."""
        self._places: dict[str, int | None] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def ask(self, client: Client, room: Room, message: AskReview, now: float) -> None:
        """Review the connection's game, once it is over: a new review queued, or the one it has."""
        if self.work is None:
            refuse(client, "review", "no_solver")
            return
        await self.live.settled(room)
        room = self.live.current(room)
        if room.status != Status.FINISHED or room.reason in UNRATED_ENDS or room.ply == 0:
            refuse(client, "review", "not_finished")
            return
        row = review_of_game(self.live.store, room.game_id)
        if row is None or row.status == "failed":
            fresh = ReviewRow(secrets.token_hex(REVIEW_ID_LENGTH // 2), room.game_id, "queued", now)
            queued = await self._queue(room, fresh, network_of(client.address, self.ipv6_prefix))
            if isinstance(queued, Refused):
                refuse(client, "review", queued.code, queued.retry_after)
                return
            row = queued
        self._show(client, row)

    async def get(self, client: Client, message: GetReview) -> None:
        """A review by its id: its report, or its place while it waits (and its news until it is ready:
        meanwhile the connection serves someone; one that read a report or an unknown id does not)."""
        pending = self.pending.get(message.review)
        row = pending[0] if pending is not None else review_by_id(self.live.store, message.review)
        if row is None:
            refuse(client, "review", "not_found")
            return
        self._show(client, row)

    def _show(self, client: Client, row: ReviewRow) -> None:
        if row.review in self.pending:
            self.readers.setdefault(row.review, set()).add(client)
            client.holds(_reading(row.review))
        tell(client, self._news(row))

    def _news(self, row: ReviewRow) -> ReviewResult:
        return ReviewResult(row.review, row.game, row.status, self._places.get(row.review), row.report)

    # -- the queue ---------------------------------------------------------------------------------

    async def _queue(self, room: Room, row: ReviewRow, address: str) -> ReviewRow | Refused:
        """Queue ``row``'s review of ``room`` and store it, unless the pool refuses it."""
        assert self.work is not None
        known = self.deals.known_start(room.game.deal_number, room.game.start)
        work = self.work.review(room.game, known, seat=f"review:{row.review}", address=address)
        if isinstance(work, Refused):
            return work
        try:
            await stored(self.live.committer.submit(plan_review(row)))
        except StoreError:
            work.cancel()
            raise
        self.pending[row.review] = (row, work)
        self._places[row.review] = work.place()
        self.work.watch(work, lambda place: self._placed(row, place))
        task = asyncio.ensure_future(self._when_done(row, work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return row

    def _placed(self, row: ReviewRow, place: int | None) -> None:
        if place is None or row.review not in self.pending:
            return
        self._places[row.review] = place
        for client in self.readers.get(row.review, ()):
            tell(client, self._news(row))

    async def _when_done(self, row: ReviewRow, work: Work) -> None:
        try:
            report = await work.answer()
        except WorkFailed as failure:
            log.warning("review %s of game %s failed: %s", row.review, row.game, failure)
            ended = ReviewRow(row.review, row.game, "failed", row.requested_at, self.clock())
        else:
            ended = ReviewRow(row.review, row.game, "done", row.requested_at, self.clock(), report)
        try:
            await stored(self.live.committer.submit(plan_review(ended)))
        except StoreError as problem:
            log.error("%s", problem)
        self.pending.pop(row.review, None)
        self._places.pop(row.review, None)
        for client in self.readers.pop(row.review, ()):
            tell(client, self._news(ended))
            client.released(_reading(row.review))

    async def start(self) -> None:
        """At the server's start: the reviews a stop left queued are queued again (each on its own
        budget: its asker's address is not kept)."""
        if self.work is None:
            return
        for row in queued_reviews(self.live.store):
            try:
                room = self.live.room(row.game, "its game is gone")
            except (ProtocolError, StoreError) as problem:  # a game gone or damaged: the other reviews go on
                log.error("review %s: %s", row.review, problem)
                continue
            if isinstance(await self._queue(room, row, f"review {row.review}"), Refused):
                log.error("review %s: the solver pool refused it again", row.review)

    def forget(self, client: Client) -> None:
        """A connection closed: it is told no more (the review goes on: its link shows it when ready)."""
        for readers in self.readers.values():
            readers.discard(client)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


def _reading(review: str) -> str:
    """What a connection that reads a waiting review holds in the pool (``Client.holds``)."""
    return f"review:{review}"
