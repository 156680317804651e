"""Reviews of finished games on the server: queued in the background, kept, shown when ready, shared
by a link.

A player or a spectator of a finished game (a friend's or the solver's) asks for its review; the
pool grades every move against perfect play with a node budget a move, so the review is the one
``mahjong-battle review`` gives of the game's record with the same catalogue (a catalogued deal's
first move graded on its par). Reviews run after every waiting move and every hint or analysis
(the pool's order), charged to the asking address. A game has one review: asked again, the same
one answers. It is a row of ``reviews`` from the moment it is queued, so its link (``/review/ID``)
works at once and says its place while it waits. Every connection that looks at a review waiting
gets its news; a review nobody looks at any more (its last such connection closed ``LEAVE_GRACE``
ago, or the server restarted) leaves the pool, its row still queued, and is queued again, on the
address of whoever opens its link or asks for it next.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

from battle.online.protocol.solver_messages import REVIEW_ID_LENGTH, AskReview, GetReview, ReviewResult
from battle.online.server.peers.connections import Client
from battle.online.server.rooms.live_games import LiveGames, stored
from battle.online.server.rooms.room import UNRATED_ENDS, Room, Status
from battle.online.server.rooms.store import StoreError
from battle.online.server.solving.games import LEAVE_GRACE, DealBook, refuse, tell
from battle.online.server.solving.outcomes import SolverRefusal, Waiting, WorkFailed, WorkRefused
from battle.online.server.solving.rows import ReviewRow, plan_review, review_by_id, review_of_game
from battle.online.server.solving.wire import review_news

if TYPE_CHECKING:
    from battle.online.server.solving.work import ReviewResult as FoundReview
    from battle.online.server.solving.work import SolverWork, Work

log = logging.getLogger("mahjong-battle.server")


class Reviews:
    """The reviews waiting for the pool, and the connections that look at each."""

    def __init__(self, live: LiveGames, work: SolverWork | None, deals: DealBook, clock: Callable[[], float]) -> None:
        self.live = live
        self.work = work
        self.deals = deals
        self.clock = clock
        self.pending: dict[str, tuple[ReviewRow, Work[FoundReview]]] = {}
        """The reviews the pool has not answered yet, by id."""
        self.readers: dict[str, set[Client]] = {}
        """The connections told of each pending review's news."""
        self._places: dict[str, Waiting | None] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        """Each pending review's task, which stores its end."""

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
        address = client.network
        if row is None or row.status == "failed":
            fresh = ReviewRow(secrets.token_hex(REVIEW_ID_LENGTH // 2), room.game_id, "queued", now)
            queued = await self._queue(room, fresh, address)
            if isinstance(queued, SolverRefusal):
                refuse(client, "review", queued.code, queued.retry_after)
                return
            row = queued
        elif row.status == "queued" and row.review not in self.pending:
            self._queue_again(client, room, row, address)
        self._show(client, row)

    async def get(self, client: Client, message: GetReview) -> None:
        """A review by its id: its report, or its place while it waits (and its news until it is ready:
        meanwhile the connection serves someone; one that read a report or an unknown id does not); a
        queued one that left the pool is queued again."""
        pending = self.pending.get(message.review)
        row = pending[0] if pending is not None else review_by_id(self.live.store, message.review)
        if row is None:
            refuse(client, "review", "not_found")
            return
        if row.status == "queued" and pending is None and self.work is not None:
            room = self.live.room(row.game, "the game of this review is gone")
            self._queue_again(client, room, row, client.network)
        self._show(client, row)

    def _queue_again(self, client: Client, room: Room, row: ReviewRow, address: str) -> None:
        """Queue again a review whose row waits but whose work left the pool (nobody looked at it)."""
        queued = self._queued(room, row, address)
        if isinstance(queued, SolverRefusal):
            refuse(client, "review", queued.code, queued.retry_after)

    def _show(self, client: Client, row: ReviewRow) -> None:
        if row.review in self.pending:
            self.readers.setdefault(row.review, set()).add(client)
            client.holds(_reading(row.review))
        tell(client, self._news(row))

    def _news(self, row: ReviewRow) -> ReviewResult:
        return review_news(row, self._places.get(row.review))

    # -- the queue ---------------------------------------------------------------------------------

    async def _queue(self, room: Room, row: ReviewRow, address: str) -> ReviewRow | SolverRefusal:
        """Queue a new review, ``row``'s of ``room``, and store its row, unless the pool refuses it."""
        queued = self._queued(room, row, address)
        if isinstance(queued, SolverRefusal):
            return queued
        refusal = await self.pending[row.review][1].admitted()  # a pool in another process answers later
        if refusal is not None:
            self._drop(row.review)
            return refusal
        try:
            await stored(self.live.committer.submit(plan_review(row)))
        except StoreError:
            self._drop(row.review)
            raise
        return row

    def _queued(self, room: Room, row: ReviewRow, address: str) -> ReviewRow | SolverRefusal:
        """Queue ``row``'s review of ``room``, unless the pool refuses it."""
        assert self.work is not None
        known = self.deals.known_start(room.game.deal_number, room.game.start)
        work = self.work.review(room.game, known, seat=f"review:{row.review}", address=address)
        if isinstance(work, SolverRefusal):
            return work
        self._follow(row, work)
        return row

    def _follow(self, row: ReviewRow, work: Work[FoundReview]) -> None:
        assert self.work is not None
        self.pending[row.review] = (row, work)
        self._places[row.review] = work.waiting()
        self.work.watch(work, lambda waiting: self._placed(row, waiting))
        self._tasks[row.review] = asyncio.ensure_future(self._when_done(row, work))

    def _placed(self, row: ReviewRow, waiting: Waiting | None) -> None:
        if waiting is None or row.review not in self.pending:
            return
        self._places[row.review] = waiting
        for client in self.readers.get(row.review, ()):
            tell(client, self._news(row))

    async def _when_done(self, row: ReviewRow, work: Work[FoundReview]) -> None:
        try:
            found = await work.answer()
        except WorkRefused as refusal:
            self._refused(row, refusal.refused)
            return
        except WorkFailed as failure:
            log.warning("review %s of game %s failed: %s", row.review, row.game, failure)
            ended = ReviewRow(row.review, row.game, "failed", row.requested_at, self.clock())
        else:
            ended = ReviewRow(row.review, row.game, "done", row.requested_at, self.clock(), dict(found.report))
        try:
            await stored(self.live.committer.submit(plan_review(ended)))
        except StoreError as problem:
            log.error("%s", problem)
        _work, readers, _task = self._let_go(row.review)
        for client in readers:
            tell(client, self._news(ended))
            client.released(_reading(row.review))

    def forget(self, client: Client) -> None:
        """A connection closed: it is told no more, and a review it was the last to look at leaves the
        pool unless another connection looks at it within ``LEAVE_GRACE``."""
        for review, readers in self.readers.items():
            if client in readers:
                readers.discard(client)
                if not readers:
                    asyncio.get_running_loop().call_later(LEAVE_GRACE, self._drop_if_unread, review)

    def _drop_if_unread(self, review: str) -> None:
        if not self.readers.get(review):
            self._drop(review)

    def _refused(self, row: ReviewRow, refused: SolverRefusal) -> None:
        """A pool in another process refused the review after it was handed over: whoever looks at
        it is told why, and its row stays queued, to be queued again at the next look."""
        _work, readers, _task = self._let_go(row.review)
        for client in readers:
            refuse(client, "review", refused.code, refused.retry_after)
            client.released(_reading(row.review))

    def _drop(self, review: str) -> None:
        """The review's work leaves the pool (its row stays as it is)."""
        pending, _readers, task = self._let_go(review)
        if task is not None:
            task.cancel()
        if pending is not None:
            pending[1].cancel()

    def _let_go(
        self, review: str
    ) -> tuple[tuple[ReviewRow, Work[FoundReview]] | None, set[Client], asyncio.Task[None] | None]:
        """Forget all this holds of a pending review: its row and work, its readers, its place, the task
        that awaits it (for the caller to cancel, or not when it is that task)."""
        self._places.pop(review, None)
        return self.pending.pop(review, None), self.readers.pop(review, set()), self._tasks.pop(review, None)

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _reading(review: str) -> str:
    """What a connection that reads a waiting review holds in the pool (``Client.holds``)."""
    return f"review:{review}"
