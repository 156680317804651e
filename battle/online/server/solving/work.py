"""The game server's one way to the solver: the solver pool (``battle.players.pool``) seen from
the event loop.

Every piece of the server's solver work (the solver's move in a game against it, a hint, an analysis
board's deepening, a finished game's review, a deal's par) goes to one pool, which orders it (a
waiting player's move first, then hints and analyses, then reviews, then pars), runs one search per
seat, bounds every unit by time or nodes and charges each address's budget of solver time
(``docs/solver-pool.md``; a par is the pool's own, charged to no address). Here a
submission becomes a ``Work``: an awaitable result on the loop, its place in the queue, its
cancellation; a refusal becomes a ``SolverRefusal`` with the seconds until the same work would be taken.
The results come back as the pool's typed values (``MoveResult``, ``AnalysisResult``,
``ReviewResult``), which ``wire`` turns into the server's messages: a renamed field is a type error
there, never a ``KeyError`` in a running server.

This is the only module of the server that imports ``battle.players`` (``pyproject.toml``'s contract
on the door to the solver): the rest of the server asks it for work by what it is for.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Generic, TypeVar

from battle.online.server.solving.outcomes import SolverRefusal, SolverSetup, Waiting, WorkFailed, WorkRefused
from battle.players.pool.client import PoolClient
from battle.players.pool.front import PoolFront, PoolTicket
from battle.players.pool.jobs import (
    AnalysisResult,
    DeepeningJob,
    HintJob,
    Job,
    MoveJob,
    MoveResult,
    ParJob,
    Result,
    ReviewJob,
    ReviewResult,
    position_data,
)
from battle.players.pool.opening import open_pool
from battle.players.pool.queue import PoolError, PoolRefused, PoolUnavailable, SolverPool
from battle.players.pool.schedule import Budget, Refusal, Standing
from battle.players.pool.sharing import PoolService, serve_pool
from battle.rules.board import Position
from battle.rules.game import Game

__all__ = ["AnalysisResult", "MoveResult", "ReviewResult", "SolverWork", "Work"]

Answer = TypeVar("Answer", MoveResult, AnalysisResult, ReviewResult)

PLACES_EVERY = 1.0
"""Seconds between looks at the queue's places: a waiting page's "place 3" moves on at most this often."""
WAIT_MOVED = 1.0
"""Seconds by which the moment a waiting move's budget pays for it must move before its page is told
again: the page counts the wait down itself."""


class Work(Generic[Answer]):
    """One piece of submitted work on the loop: ``answer`` awaits its typed result (or raises
    ``WorkFailed``); cancelling the task that awaits it, or ``cancel``, ends the work, waiting or running."""

    def __init__(self, ticket: PoolTicket, loop: asyncio.AbstractEventLoop, answers: type[Answer]) -> None:
        self.ticket = ticket
        self.result: asyncio.Future[Result] = asyncio.wrap_future(ticket.future, loop=loop)
        self.answers: type[Answer] = answers
        """The type of result its job gives: a move's ``MoveResult``, a hint's or an analysis's
        ``AnalysisResult``, a review's ``ReviewResult``."""

    async def answer(self) -> Answer:
        """The pool's result, as its type."""
        try:
            result = await self.result
        except PoolRefused as error:
            raise WorkRefused(SolverRefusal(error.refusal.reason, error.refusal.retry_after)) from None
        except PoolUnavailable as error:
            raise WorkFailed(str(error), "unavailable", error.retry_after) from None
        except PoolError as error:
            raise WorkFailed(str(error)) from None
        if not isinstance(result, self.answers):
            raise WorkFailed(f"the pool answered a {type(result).__name__}, not a {self.answers.__name__}")
        return result

    async def admitted(self) -> SolverRefusal | None:
        """None once the pool has taken the work, else why it has not: a pool in another process
        answers the hand-over a moment after ``submit`` returned (awaited here, never waited for),
        this process's own pool before."""
        admitted = self.ticket.admitted
        refusal = admitted.result() if admitted.done() else await asyncio.wrap_future(admitted)
        return None if refusal is None else SolverRefusal(refusal.reason, refusal.retry_after)

    def refusal(self) -> SolverRefusal | None:
        """Why a deepening analysis ended before its last depth (its address's budget), else None."""
        refusal = self.ticket.refusal
        return None if refusal is None else SolverRefusal(refusal.reason, refusal.retry_after)

    def place(self) -> int | None:
        """0 while the solver runs it, 1 when it starts next...; None once it has ended."""
        return self.ticket.place()

    def waiting(self) -> Waiting | None:
        """Its place and the seconds it waits for its address's budget; None once it has ended."""
        return _waiting(self.ticket.standing())

    def cancel(self) -> None:
        self.result.cancel()
        self.ticket.cancel()


class SolverWork:
    """The pool, the places told to the pages, and the solver time spent by kind (for ``/stats``)."""

    def __init__(self, pool: PoolFront, *, remote: bool = False) -> None:
        self.pool = pool
        self.remote = remote
        """The pool is another process's (``shared``): its counts and places are round trips to it, asked
        off the event loop once a second (``watch_places``), so a pool that stalls never holds this
        process's games; its ``/stats`` lines are then up to a second old."""
        self._pool_lines: list[tuple[str, str]] = self._read_pool_lines() if remote else []
        self._watched: dict[PoolTicket, tuple[Callable[[Waiting | None], None], _Told, float | None]] = {}
        """Each watched ticket's teller, what it told last (its place and the least its search proved),
        and when (monotonic) it said its budget would pay for it (None: it did not wait for its budget)."""
        self._cpu: dict[str, float] = {"move": 0.0, "analysis": 0.0, "review": 0.0, "par": 0.0}
        self._cpu_lock = threading.Lock()

    @classmethod
    def open(cls, setup: SolverSetup) -> SolverWork:
        """Start the pool ``setup`` asks for (an ``OSError`` for a scheduler that does not answer)."""
        return cls(open_pool(setup.scheduler, workers=setup.workers, budget=Budget(setup.rate, setup.burst)))

    @classmethod
    def shared(cls, path: Path, patience: float) -> SolverWork:
        """The pool another process serves at ``path`` (``serve_to``), waiting up to ``patience``
        seconds for it to start serving (the processes start side by side; its pool opens in about a
        second); an ``OSError`` when nothing serves there by then."""
        deadline = time.monotonic() + patience
        while True:
            try:
                return cls(PoolClient(path), remote=True)
            except OSError:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.1)

    def serve_to(self, path: Path) -> PoolService:
        """Serve this process's own pool at ``path`` to the other processes of the machine."""
        if not isinstance(self.pool, SolverPool):
            raise TypeError("only the process that owns the pool serves it")
        return serve_pool(self.pool, path)

    # -- the work, by what it is for -------------------------------------------------------------

    def move(
        self, position: Position, level: str, seed: int, *, seat: str, address: str
    ) -> Work[MoveResult] | SolverRefusal:
        """The solver's move at ``level`` (``seed`` draws its choice: the same seed, the same move)."""
        return self._submit(MoveJob(position_data(position), level, seed), MoveResult, seat, address)

    def hint(self, position: Position, *, seat: str, address: str) -> Work[AnalysisResult] | SolverRefusal:
        """The hint, evaluation and best line as the window gives them."""
        return self._submit(HintJob(position_data(position)), AnalysisResult, seat, address)

    def analysis(
        self,
        position: Position,
        *,
        seat: str,
        address: str,
        on_step: Callable[[AnalysisResult], None],
        nodes: int,
        to_the_end: bool = False,
    ) -> Work[AnalysisResult] | SolverRefusal:
        """Every move's value, deeper and deeper until exact, each step within ``nodes``;
        ``to_the_end``: one search to the end, without the shallow depths before it. Each step but
        the last goes to ``on_step`` on the loop, the last is the result."""
        loop = asyncio.get_running_loop()

        def step(result: AnalysisResult) -> None:
            loop.call_soon_threadsafe(on_step, result)

        data = position_data(position)
        job = DeepeningJob(data, depths=(None,), nodes=nodes) if to_the_end else DeepeningJob(data, nodes=nodes)
        return self._submit(job, AnalysisResult, seat, address, step)

    def review(
        self, game: Game, known_start: tuple[int, tuple[str, ...]] | None, *, seat: str, address: str
    ) -> Work[ReviewResult] | SolverRefusal:
        """``game``'s review (its report as ``review --json`` writes it); ``known_start``: its deal's
        par and best first moves, when catalogued."""
        job = ReviewJob.from_record(game.to_text())
        if known_start is not None:
            job = ReviewJob(job.start, job.moves, job.players, job.deal, job.seconds_per_move, known_start)
        return self._submit(job, ReviewResult, seat, address)

    def par(self, start: Position, *, seat: str, address: str) -> Work[AnalysisResult] | SolverRefusal:
        """The par of the deal from ``start``: the exact value and best first moves, or an answer that
        is not exact when the pool's budget for one par (``ParJob``) ran out first."""
        return self._submit(ParJob(position_data(start)), AnalysisResult, seat, address)

    def _submit(
        self,
        job: Job,
        answers: type[Answer],
        seat: str,
        address: str,
        on_progress: Callable[[AnalysisResult], None] | None = None,
    ) -> Work[Answer] | SolverRefusal:
        ticket = self.pool.submit(job, seat=seat, address=address, on_progress=on_progress)
        if isinstance(ticket, Refusal):
            return SolverRefusal(ticket.reason, ticket.retry_after)
        kind = job.kind.name.lower()
        ticket.future.add_done_callback(lambda _done: self._spent(kind, ticket.cpu_seconds))
        return Work(ticket, asyncio.get_running_loop(), answers)

    def _spent(self, kind: str, seconds: float) -> None:
        with self._cpu_lock:
            self._cpu[kind] += seconds

    # -- places ----------------------------------------------------------------------------------

    def watch(self, work: Work[Answer], tell: Callable[[Waiting | None], None]) -> None:
        """Tell ``work``'s place (and wait for its budget) now and whenever it changes (``watch_places``),
        None once it has ended. Work handed to another process's pool is told once that pool has
        answered the hand-over (a refused one is told nothing here: its answer says so)."""
        admitted = work.ticket.admitted
        if not admitted.done():
            loop = asyncio.get_running_loop()

            def answered(_admitted: object) -> None:
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: the server stopped
                    loop.call_soon_threadsafe(self._watch_admitted, work, tell)

            admitted.add_done_callback(answered)
            return
        self._watch_admitted(work, tell)

    def _watch_admitted(self, work: Work[Answer], tell: Callable[[Waiting | None], None]) -> None:
        if work.ticket.admitted.result() is not None:
            return
        waiting = work.waiting()
        tell(waiting)
        if waiting is not None:
            self._watched[work.ticket] = (tell, _told(waiting), _paid_at(waiting, time.monotonic()))

    async def watch_places(self) -> None:
        """Every ``PLACES_EVERY`` seconds: each watched work whose place changed is told it (and another
        process's pool's counts are read again for ``/stats``), the round trips to another process's
        pool off the loop."""
        while True:
            await asyncio.sleep(PLACES_EVERY)
            if not self.remote:
                self.tell_places()
                continue
            self._pool_lines = await asyncio.to_thread(self._read_pool_lines)
            if self._watched:
                self.tell_places(await asyncio.to_thread(self.pool.standings))

    def tell_places(self, standings: Mapping[PoolTicket, Standing] | None = None) -> None:
        if not self._watched:
            return
        if standings is None:
            standings = self.pool.standings()
        now = time.monotonic()
        for ticket, (tell, told, paid_at) in list(self._watched.items()):
            waiting = _waiting(standings.get(ticket))
            if waiting is None:
                del self._watched[ticket]
            elif _told(waiting) != told or _moved(paid_at, _paid_at(waiting, now)):
                self._watched[ticket] = (tell, _told(waiting), _paid_at(waiting, now))
            else:
                continue
            tell(waiting)

    # -- the pool as a whole -----------------------------------------------------------------------

    def stats(self) -> list[tuple[str, str]]:
        """``/stats`` lines: the units waiting by kind and running, the workers, the solver seconds
        the work of each kind took so far, and the budget every address gets; with a Dask cluster,
        whether it answers (``solver_cluster connected``, ``solver_cluster reconnecting next_try_in=4``)."""
        lines = list(self._pool_lines) if self.remote else self._read_pool_lines()
        budget = self.pool.budget
        if budget is not None:
            lines += [
                ("solver_budget_seconds", f"{budget.burst:g}"),
                ("solver_refill_per_second", f"{budget.rate:.6g}"),
            ]
        with self._cpu_lock:
            lines += [(f"solver_cpu_seconds_{kind}", f"{seconds:.2f}") for kind, seconds in self._cpu.items()]
        return lines

    def _read_pool_lines(self) -> list[tuple[str, str]]:
        """The pool's own counts and, with a Dask cluster or another process's pool, whether it answers."""
        lines = [(f"solver_{name}", str(count)) for name, count in self.pool.stats().items()]
        cluster = self.pool.cluster()
        if cluster is not None:
            lines.append(("solver_cluster", cluster.text()))
        return lines

    def close(self) -> None:
        """Cancel every unit and end the workers (blocks: run it off the loop)."""
        self.pool.close()


def _paid_at(waiting: Waiting, now: float) -> float | None:
    return now + waiting.wait if waiting.wait > 0 else None


def _moved(told: float | None, now: float | None) -> bool:
    """Whether the moment a budget pays for a move moved enough to tell its page again."""
    if told is None or now is None:
        return told != now
    return abs(now - told) > WAIT_MOVED


_Told = tuple[int, int | None]
"""What a watcher was last told of its work: its place, and the least value its search proved."""


def _told(waiting: Waiting) -> _Told:
    return waiting.place, waiting.at_least


def _waiting(standing: Standing | None) -> Waiting | None:
    if standing is None:
        return None
    return Waiting(standing.place, standing.wait, standing.ahead, standing.at_least)
