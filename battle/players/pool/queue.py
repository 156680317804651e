"""The solver pool's queue: all of a server's solver work in one queue, over the adapters that run
it on worker processes of this machine (``LocalPool``) or on a Dask cluster (``DaskPool``).

A server submits a job for a seat and an address and gets a ``Ticket`` (or a ``Refusal`` that
says when to try again); it awaits the ticket's ``future`` (``asyncio.wrap_future`` on an event
loop; cancelling the wrapped future cancels the work), cancels it when the connection closes
(``cancel``, or ``cancel_seat`` for every unit of a seat), and shows ``place`` while it waits. The
order, the seats and the budgets are ``battle.players.pool.schedule``'s; the jobs and results
are ``battle.players.pool.jobs``'; the adapters start, stop and watch the workers.

A deepening analysis (``DeepeningJob``) runs as one unit per depth, each queued when the one
before ends (so a move may go between two steps), each step's result handed to the
``on_progress`` callback given to ``submit`` and the last one to the ticket's future; an address
whose budget runs out meanwhile gets the deepest result so far, with the ticket's ``refusal``
saying why it stopped.

Threads: ``submit``, ``cancel`` and the rest may be called from any thread. Futures are resolved
and progress callbacks called on the pool's own threads, never under its lock, so a callback
may submit again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from battle.players.pool.front import ClosesOnExit, Progress, TicketState
from battle.players.pool.jobs import (
    AnalysisResult,
    Continued,
    DeepeningJob,
    Job,
    Result,
    SearchProgress,
    SliceProgress,
    StepJob,
)
from battle.players.pool.schedule import (
    MAX_WAITING,
    Admitted,
    Budget,
    Change,
    Refusal,
    Schedule,
    Standing,
)

if TYPE_CHECKING:
    from battle.players.pool.reconnection import ClusterState
    from battle.players.pool.schedule import Unit

__all__ = ["PoolError", "PoolUnavailable", "SolverPool", "Ticket"]


class PoolError(RuntimeError):
    """A unit that could not be answered: its worker died too often, it did not stop at its limit, or
    the search failed; the message is one line."""


class PoolUnavailable(PoolError):
    """A unit whose pool went away before it answered: the service of a pool another process owns
    (``battle.players.pool.client``); ``retry_after`` is the seconds until the pool is tried again."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PoolRefused(PoolError):
    """Work that a pool another process owns refused after ``submit`` returned its ticket: the client
    (``battle.players.pool.client``) does not hold its caller, a game process's event loop, for the
    service's answer. ``refusal`` says why and when the same work would be taken."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(f"the solver pool refused the work ({refusal.reason}; again in {refusal.retry_after:.0f} s)")
        self.refusal = refusal


class Ticket(TicketState):
    """One submitted job: its result to await, its place to show, its cancellation.

    ``future`` resolves to the job's ``Result``, fails with ``PoolError``, or is cancelled (by
    ``cancel``, a newer job for the same seat, the pool closing, or its caller cancelling it).
    """

    def __init__(
        self, pool: SolverPool, job: Job, seat: str, address: str, on_progress: Progress | None = None
    ) -> None:
        super().__init__(job, seat, address)
        self.admitted.set_result(None)  # the pool took it, as ``submit`` answered before returning it
        self.started = threading.Event()
        """Set when its first unit goes to a worker (a page shows "thinking" instead of its place)."""
        self.started_at: float | None = None
        """``time.monotonic()`` when its first unit went to a worker."""
        self._pool = pool
        self._unit = 0
        self._step = 0
        self._progress = on_progress
        self._slice: SliceProgress | None = None
        """Where its unit's last slice left off (None before the first, or at a new step)."""

    def cancel(self) -> None:
        """End the work: a unit not started never runs, a running one is stopped."""
        self._pool.cancel(self)

    def place(self) -> int | None:
        """0 while a worker runs it, 1 when it starts next, 2 after that...; None once it has ended."""
        return self._pool.place(self)

    def standing(self) -> Standing | None:
        """Its place and the seconds it waits for its address's budget (a move); None once it has ended."""
        return self._pool.standing(self)

    def _step_job(self) -> StepJob:
        job = self.job
        return job.step(job.depths[self._step]) if isinstance(job, DeepeningJob) else job


Action = Callable[[], None]


class SolverPool(ClosesOnExit):
    """The queue and its tickets over a schedule; an adapter (``LocalPool``, ``DaskPool``) runs the units.

    An adapter implements ``_dispatch_locked`` (start what ``self._schedule.take`` gives to its free
    workers, with ``_take_locked``, then ``_yield_locked``), ``_stop_locked`` (tell a running unit's
    worker to stop it), ``_end_slice_locked`` (tell it to end its slice now) and ``_shut_down``
    (after ``close``), and reports each unit's end with ``_ended_locked`` or, when
    its worker died, ``_lost_locked``; the actions those return run through ``_settle`` once the
    lock is released.
    """

    def __init__(
        self,
        workers: int,
        *,
        budget: Budget | None = Budget(),
        max_waiting: int = MAX_WAITING,
        move_reserve: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._clock = clock
        self._lock = threading.Condition()
        self._schedule = Schedule(workers, budget, max_waiting, move_reserve)
        self._tickets: dict[int, Ticket] = {}
        """The ticket of each unit not ended, by unit id (a stopping unit's ticket is already gone)."""
        self._closed = False
        self._payer: threading.Thread | None = None
        """Runs while a move waits for its budget: nothing else wakes the pool when a bucket can pay."""
        self._slices_yielded = 0
        """Background slices asked to end early for a waiting move (``/stats``)."""

    # -- the server's side ------------------------------------------------------------------

    def submit(self, job: Job, *, seat: str, address: str, on_progress: Progress | None = None) -> Ticket | Refusal:
        """Queue ``job`` for ``seat`` (its waiting unit is replaced, its running one stopped) on
        ``address``'s budget; a ``Refusal`` changes nothing. ``on_progress`` gets each step of a
        deepening analysis but the last (on a pool thread)."""
        ticket = Ticket(self, job, seat, address, on_progress)
        step = ticket._step_job()
        with self._lock:
            if self._closed:
                return Refusal("closed", 0.0)
            unavailable = self._unavailable_locked()
            if unavailable is not None:
                return unavailable
            admission = self._schedule.submit(job.kind, seat, address, step.cost, self._clock(), plain=step.plain)
            if isinstance(admission, Refusal):
                return admission
            actions = self._admit_locked(ticket, admission)
            self._dispatch_locked()
            self._wake_payer_locked()
        self._settle(actions)
        ticket.future.add_done_callback(self._caller_cancelled(ticket))
        return ticket

    def cancel(self, ticket: Ticket) -> None:
        """End ``ticket``'s work (nothing once it has ended)."""
        with self._lock:
            if self._tickets.get(ticket._unit) is not ticket:
                return
            actions = self._apply_locked(self._schedule.cancel(ticket._unit))
            self._dispatch_locked()
        self._settle(actions)

    def cancel_seat(self, seat: str) -> None:
        """End every unit of ``seat``, waiting or running."""
        with self._lock:
            actions = self._apply_locked(self._schedule.cancel_seat(seat))
            self._dispatch_locked()
        self._settle(actions)

    def place(self, ticket: Ticket) -> int | None:
        """``ticket``'s place in the queue (``Ticket.place``)."""
        with self._lock:
            if self._tickets.get(ticket._unit) is not ticket:
                return None
            return self._schedule.place(ticket._unit)

    def standing(self, ticket: Ticket) -> Standing | None:
        """``ticket``'s place and wait for its budget (``Ticket.standing``)."""
        with self._lock:
            if self._tickets.get(ticket._unit) is not ticket:
                return None
            standing = self._schedule.standing(ticket._unit, self._clock())
            return None if standing is None else _with_slice(standing, ticket._slice)

    def places(self) -> dict[Ticket, int]:
        """Every waiting or running ticket's place, at once (a server sends the changes once a second)."""
        return {ticket: standing.place for ticket, standing in self.standings().items()}

    def standings(self) -> dict[Ticket, Standing]:
        """Every waiting or running ticket's ``Standing``, at once."""
        with self._lock:
            found = self._schedule.standings(self._clock())
            return {
                self._tickets[unit]: _with_slice(standing, self._tickets[unit]._slice)
                for unit, standing in found.items()
                if unit in self._tickets
            }

    def cluster(self) -> ClusterState | None:
        """Whether the pool's Dask cluster answers (``/stats``); None for a pool on this machine."""
        return None

    def stats(self) -> dict[str, int]:
        """Units waiting by kind and running, and the adapter's worker counts."""
        with self._lock:
            counts = {**self._schedule.counts(), "slices_yielded": self._slices_yielded}
            return {**counts, **self._worker_counts_locked()}

    @property
    def budget(self) -> Budget | None:
        """What every address may spend and regains (None: no budgets)."""
        return self._schedule.budget

    def budget_left(self, address: str) -> float | None:
        """CPU seconds ``address`` may still reserve (None without budgets)."""
        with self._lock:
            return self._schedule.level(address, self._clock())

    def close(self) -> None:
        """Cancel every ticket and end the workers; a later ``submit`` is refused as ``closed``."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            actions: list[Action] = []
            for unit in list(self._tickets):
                actions += self._apply_locked(self._schedule.cancel(unit))
            self._lock.notify_all()
        self._settle(actions)
        self._shut_down()

    # -- for the adapters, under the lock ------------------------------------------------------

    def _dispatch_locked(self) -> None:
        raise NotImplementedError

    def _stop_locked(self, unit: int) -> None:
        raise NotImplementedError

    def _end_slice_locked(self, unit: int) -> None:
        raise NotImplementedError

    def _shut_down(self) -> None:
        raise NotImplementedError

    def _yield_locked(self) -> None:
        """Ask the background slices a waiting unit needs the worker of to end now (``Schedule.yields``)."""
        for unit in self._schedule.yields():
            self._slices_yielded += 1
            self._end_slice_locked(unit)

    def _worker_counts_locked(self) -> dict[str, int]:
        return {}

    def _wake_payer_locked(self) -> None:
        """Start the thread that dispatches when a waiting move's bucket can pay, if one waits and it is not running."""
        if self._payer is not None:
            self._lock.notify_all()  # a sooner payment than the one it waits for
            return
        if self._schedule.next_payment(self._clock()) is None:
            return
        self._payer = threading.Thread(target=self._pay_when_due, name="solver-pool-budget", daemon=True)
        self._payer.start()

    def _pay_when_due(self) -> None:
        """Dispatch each time a waiting move's bucket can pay for it; end once none waits (or the pool closes)."""
        with self._lock:
            while not self._closed:
                due = self._schedule.next_payment(self._clock())
                if due is None:
                    break
                if due > 0:
                    self._lock.wait(due)
                    continue
                self._schedule.pay(self._clock())
                self._dispatch_locked()
            self._payer = None

    def _unavailable_locked(self) -> Refusal | None:
        """Why the adapter takes no work now (its cluster does not answer), else None."""
        return None

    def _take_locked(self, *, plain_only: bool = False) -> tuple[Unit, StepJob, SliceProgress | None] | None:
        """The next unit a free worker starts, with its job and where its last slice left off (its
        ticket is told it started)."""
        unit = self._schedule.take(self._clock(), plain_only=plain_only)
        if unit is None:
            return None
        ticket = self._tickets[unit.id]
        if not ticket.started.is_set():
            ticket.started_at = time.monotonic()
            ticket.started.set()
        return unit, ticket._step_job(), ticket._slice

    def _ended_locked(
        self, unit_id: int, result: Result | Continued | None, error: str | None, cpu: float
    ) -> list[Action]:
        """A unit's run ended on its worker after ``cpu`` seconds: a slice waits for its next turn;
        else its ticket gets the result, the next step, or the error; a stopped unit's result is dropped."""
        now = self._clock()
        if isinstance(result, Continued):
            ticket = self._tickets.get(unit_id)
            if self._schedule.pause(unit_id, cpu, now) and ticket is not None:
                ticket.cpu_seconds += cpu
                ticket._slice = result.progress
            return []  # else it was being stopped: its ticket is already cancelled
        if self._schedule.finish(unit_id, cpu, now) is None:
            return []
        ticket = self._tickets.pop(unit_id, None)
        if ticket is None:
            return []
        ticket.cpu_seconds += cpu
        if error is not None or result is None:
            failure = PoolError(error or "the search was stopped before it answered")
            return [lambda: _fail(ticket, failure)]
        job = ticket.job
        if isinstance(job, DeepeningJob) and isinstance(result, AnalysisResult):
            last = ticket._step + 1 >= len(job.depths)
            if not (result.exact or last or self._closed):
                ticket._step += 1
                ticket._slice = None
                step = ticket._step_job()
                admission = self._schedule.submit(job.kind, ticket.seat, ticket.address, step.cost, now)
                if isinstance(admission, Admitted):
                    progress = [] if ticket._progress is None else [partial(ticket._progress, result)]
                    return progress + self._admit_locked(ticket, admission)
                ticket.refusal = admission  # the deepest step so far is the answer
        return [lambda: _resolve(ticket, result)]

    def _lost_locked(self, unit_id: int, *, counted: bool = True) -> list[Action]:
        """A unit's worker died: the unit waits again, or (too many tries, or being stopped) ends;
        ``counted`` False when its whole cluster went away (``Schedule.retry``)."""
        unit = self._schedule.unit(unit_id)
        if self._schedule.retry(unit_id, self._clock(), counted=counted):
            return []
        ticket = self._tickets.pop(unit_id, None)
        if ticket is None or unit is None:
            return []
        ticket.cpu_seconds += max(0.0, unit.reserved - unit.spent)
        failure = PoolError(f"the solver's worker died {unit.tries} times while searching; try again")
        return [lambda: _fail(ticket, failure)]

    def _admit_locked(self, ticket: Ticket, admission: Admitted) -> list[Action]:
        ticket._unit = admission.unit
        self._tickets[admission.unit] = ticket
        return self._apply_locked(admission.change)

    def _apply_locked(self, change: Change) -> list[Action]:
        """Drop the tickets of units that will never answer, and stop the running ones."""
        actions: list[Action] = []
        for unit in (*change.dropped, *change.stopping):
            ticket = self._tickets.pop(unit, None)
            if ticket is not None:
                actions.append(partial(_cancel, ticket))
        for unit in change.stopping:
            self._stop_locked(unit)
        return actions

    @staticmethod
    def _settle(actions: list[Action]) -> None:
        for action in actions:
            action()

    def _caller_cancelled(self, ticket: Ticket) -> Callable[[Future[Result]], None]:
        def done(future: Future[Result]) -> None:
            if future.cancelled():
                self.cancel(ticket)

        return done


def _with_slice(standing: Standing, progress: SliceProgress | None) -> Standing:
    """``standing`` with what its unit's slices proved so far (a par's least value)."""
    if not isinstance(progress, SearchProgress) or progress.at_least is None:
        return standing
    return replace(standing, at_least=progress.at_least)


def _cancel(ticket: Ticket) -> None:
    ticket.future.cancel()


def _resolve(ticket: Ticket, result: Result) -> None:
    if not ticket.future.done():
        ticket.future.set_result(result)


def _fail(ticket: Ticket, error: BaseException) -> None:
    if not ticket.future.done():
        ticket.future.set_exception(error)
