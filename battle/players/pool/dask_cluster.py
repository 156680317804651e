"""The solver pool on a Dask cluster: ``scheduler="tcp://HOST:8786"`` and every machine that runs a
``dask worker`` against it adds solver capacity, as the survey's workers do (``battle.atlas.survey_run``).

The queue stays here (``battle.players.pool.schedule``: priorities, seats, budgets, places), and
units go to the cluster as Dask tasks only while it has a free thread for them, never queued
there, so a move submitted after a hundred reviews still goes first; the number of threads is
read again every ``CAPACITY_EVERY`` seconds, so workers that join are used.

On a worker, ``SolverWorkerPlugin`` starts loading the kernels as the worker starts (or as the
pool connects); a shallow level's move is answered from plain Python meanwhile, any other unit
waits for them. Each worker thread keeps one ``PoolServices`` (its engine and table) between
units. A running unit is stopped by a message to every worker (``stop_unit``): the one running it
stops its search; one that has not started it yet skips it. A background slice a waiting move needs
the thread of is told to end early the same way (``end_slice``), naming the slice (its task's
number): a worker that has not taken that slice up yet answers it at once when it comes, with the
unit's progress unchanged, and a later slice of the unit is never skipped for it.

A worker that dies (killed, out of memory) takes its unit with it; Dask's scheduler gives the
task to another worker (up to its ``distributed.scheduler.allowed-failures``, 3 by default), and
when Dask gives up (``KilledWorker``) the pool queues the unit again, up to ``MAX_TRIES`` times.

A scheduler that goes away (restarted, its machine down) is noticed at once when its connection
closes, else within ``CAPACITY_EVERY`` + ``ANSWER_SECONDS`` by the look at the cluster's size. The
units it ran wait in the queue again, their tries not counted; new work is refused as
``"unavailable"`` with the seconds until the next try; the pool connects again to the same address
with back-off (``battle.players.pool.reconnection``: 1, 2, 4 ... 30 s), and the waiting units go to the
cluster as soon as it answers. The log says each change in one line, and Dask's own tracebacks about
the closed connection are left out (``_LostSchedulerNoise``).
This module imports Dask, so only a pool that asks for a scheduler imports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from concurrent.futures import CancelledError, ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any

from distributed import Client, WorkerPlugin
from distributed import Future as DaskFuture
from distributed.comm.core import CommClosedError
from distributed.utils import LoopRunner

from battle.players.pool.jobs import DEFAULT_WORKER_MEGABYTES, Continued, Result, SliceProgress, StepJob
from battle.players.pool.queue import SolverPool
from battle.players.pool.reconnection import ClusterLink, ClusterState
from battle.players.pool.schedule import MAX_WAITING, Budget, Refusal

log = logging.getLogger("mahjong-battle.solver-pool")

if TYPE_CHECKING:
    from battle.players.pool.unit_search import PoolServices

CAPACITY_EVERY = 2.0
"""Seconds between looks at how many worker threads the cluster has (each also tells whether it answers)."""
ANSWER_SECONDS = 10.0
"""A scheduler that does not say its size within this many seconds counts as lost."""
CONNECT_SECONDS = 20
"""Seconds the first connection may take: a server whose scheduler is not there does not start."""
TRY_SECONDS = 5
"""Seconds one try to connect again may take (Dask's connect retries within them)."""
PLUGIN_NAME = "mahjong-battle-solver"

Outcome = tuple[Result | Continued | None, str | None, float]
"""What a unit's task returns: its result (None when stopped), an error's one line, its CPU seconds."""


class DaskPool(SolverPool):
    """The pool on the Dask cluster whose scheduler is at ``scheduler`` (``tcp://HOST:8786``); each worker
    thread's table has ``megabytes``. The other arguments are ``SolverPool``'s."""

    def __init__(
        self,
        scheduler: str,
        *,
        budget: Budget | None = Budget(),
        max_waiting: int = MAX_WAITING,
        move_reserve: int | None = None,
        megabytes: int = DEFAULT_WORKER_MEGABYTES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._loop = LoopRunner()
        """The event loop every client of this pool runs on. Dask stops a client's own loop only when the
        client is closed, and one that fails to connect is never closed: each try would leave a thread
        and three descriptors behind, 120 threads an hour at the 30 s back-off. Shared, a failed try
        leaves only a count on this loop, which then runs on after ``close`` until the process ends."""
        self._loop.start()
        try:
            client, threads = _connect(scheduler, CONNECT_SECONDS, self._loop)
        except BaseException:
            self._loop.stop()
            raise
        super().__init__(
            max(1, threads), budget=budget, max_waiting=max_waiting, move_reserve=move_reserve, clock=clock
        )
        _LostSchedulerNoise.install()
        self._threads = threads
        """The cluster's worker threads at the last look (0: none is there, and units wait for one)."""
        self._address = scheduler
        self._client = client
        self._link = ClusterLink()
        self._dropped: list[Client] = []
        """Clients of a lost scheduler, for the watcher to close (never on Dask's own threads)."""
        self._megabytes = megabytes
        self._name = uuid.uuid4().hex[:12]
        """Names this pool's units on the workers, which outlive it and may serve other pools at once."""
        self._futures: dict[int, tuple[DaskFuture, int]] = {}
        """Each running unit's task and the task's number (what a yield names: ``end_slice``)."""
        self._submissions = itertools.count(1)
        """Numbers each task's key: a unit handed out again never meets its earlier task on the scheduler."""
        self._stopper = ThreadPoolExecutor(1, thread_name_prefix="solver-pool-stop")
        """Sends stops off the lock: a broadcast waits for the scheduler's answer."""
        self._watcher = threading.Thread(target=self._watch_cluster, name="solver-pool-cluster", daemon=True)
        self._watcher.start()

    @property
    def client(self) -> Client:
        """The Dask client (monitoring, and tests that kill a worker); a new one after each reconnection."""
        return self._client

    def cluster(self) -> ClusterState:
        with self._lock:
            return self._link.state(time.monotonic(), self._threads)

    def _dispatch_locked(self) -> None:
        if self._closed or not self._link.connected or self._threads == 0:
            return
        while (taken := self._take_locked()) is not None:
            unit, job, progress = taken
            number = next(self._submissions)
            try:
                future = self._client.submit(
                    run_unit,
                    self.token(unit.id),
                    job,
                    self._megabytes,
                    progress,
                    number,
                    key=f"solver-{unit.kind.name.lower()}-{self.token(unit.id)}-{number}",
                    pure=False,
                    priority=-int(unit.kind),
                )
            except Exception as error:  # noqa: BLE001 - a client Dask closed under us: the unit waits for the next
                self._schedule.retry(unit.id, self._clock(), counted=False)
                self._lose_locked(_one_line(error))
                return
            self._futures[unit.id] = (future, number)
            future.add_done_callback(partial(self._done, unit.id))
        self._yield_locked()

    def _done(self, unit: int, future: DaskFuture) -> None:
        """On Dask's callback thread: a unit's task ended, answered, failed, or lost its workers or its scheduler."""
        lost = False
        outcome: Outcome = (None, None, 0.0)
        try:
            outcome = future.result()
        except CancelledError:  # the cluster dropped it (its scheduler went away, or restarted)
            lost = True
        except Exception as error:  # noqa: BLE001 - Dask's KilledWorker, or the task's own failure: said in one line
            lost = type(error).__name__ == "KilledWorker"
            outcome = (None, f"{type(error).__name__}: {str(error)[:200]}", 0.0)
        with self._lock:
            running = self._futures.get(unit)
            if running is None or running[0] is not future:  # handed back when its scheduler was lost
                return
            if lost and not self._closed and self._client.status != "running":  # Dask cancels them all as it goes
                self._lose_locked("its connection closed")
                return
            del self._futures[unit]
            actions = self._lost_locked(unit) if lost else self._ended_locked(unit, *outcome)
            self._dispatch_locked()
        self._settle(actions)

    def _stop_locked(self, unit: int) -> None:
        if self._link.connected and self._client.status == "running":  # a lost cluster's units are handed back
            self._stopper.submit(self._client.run, stop_unit, self.token(unit))

    def _end_slice_locked(self, unit: int) -> None:
        running = self._futures.get(unit)
        if running is not None and self._link.connected and self._client.status == "running":
            self._stopper.submit(self._client.run, end_slice, self.token(unit), running[1])

    def token(self, unit: int) -> str:
        """What the workers call ``unit``: unit ids count from 1 in every pool, and a cluster outlives a
        pool (a server started again) or serves several, so a stop meant for one must not skip another's."""
        return f"{self._name}-{unit}"

    def _worker_counts_locked(self) -> dict[str, int]:
        return {"workers": self._threads if self._link.connected else 0}

    def _unavailable_locked(self) -> Refusal | None:
        if not self._link.connected:
            return Refusal("unavailable", self._link.retry_after(time.monotonic()))
        if self._threads == 0:  # the scheduler answers, and no worker is there: the next look may find one
            return Refusal("unavailable", CAPACITY_EVERY + 1.0)
        return None

    def _workers_locked(self, threads: int) -> None:
        """The cluster has ``threads`` worker threads now. With none, the units it holds wait in the queue
        again (their tries not counted), as nobody searches them, and new work is refused until a worker
        joins: a page then says the solver is unavailable, never that it thinks. Said once each way."""
        before, self._threads = self._threads, threads
        self._schedule.set_workers(max(1, threads))
        if threads == 0 and before != 0:
            for unit, (future, _number) in self._futures.items():
                self._lost_locked(unit, counted=False)
                self._stopper.submit(future.cancel)
            self._futures.clear()
            log.warning("the solver cluster at %s has no workers; its searches wait for one", self._address)
        elif threads and before == 0:
            log.warning("the solver cluster at %s has %d worker threads again", self._address, threads)

    # -- the link to the scheduler ------------------------------------------------------------------

    def _lose_locked(self, why: str) -> None:
        """The scheduler does not answer: its units wait again (their tries not counted: no fault of
        theirs), and the watcher closes its client and tries again. Said once a loss."""
        if self._closed or not self._link.lose(time.monotonic()):
            return
        for unit in self._futures:
            # a running unit waits again; one being stopped ends; neither fails its ticket (no try counted)
            self._lost_locked(unit, counted=False)
        self._futures.clear()
        self._dropped.append(self._client)
        log.warning(
            "the solver cluster at %s does not answer (%s); its searches wait and new ones are refused "
            "until it does; trying again in %.0f s",
            self._address,
            why,
            self._link.wait(time.monotonic()),
        )
        self._lock.notify_all()

    def _watch_cluster(self) -> None:
        """Follow the cluster: workers that join take units, workers that leave are not waited for, a
        scheduler that does not answer is tried again with back-off until it does."""
        while True:
            with self._lock:
                if not (self._closed or self._dropped):
                    self._lock.wait(CAPACITY_EVERY if self._link.connected else self._link.wait(time.monotonic()))
                dropped, self._dropped = self._dropped, []
                closed, connected, client = self._closed, self._link.connected, self._client
                due = self._link.due(time.monotonic())
            for old in dropped:
                _close_quietly(old)
            if closed:
                return
            if connected:
                self._look(client)
            elif due:
                self._try_again()

    def _look(self, client: Client) -> None:
        """Read the cluster's size, which also tells whether its scheduler answers."""
        if client.status != "running":  # Dask's client saw its connection close
            why = "its connection closed"
        else:
            try:
                threads = _threads(client, ANSWER_SECONDS)
            except Exception as error:  # noqa: BLE001 - whatever the call raises, the scheduler did not answer
                why = _one_line(error)
            else:
                with self._lock:
                    if self._client is client and self._link.connected:
                        self._workers_locked(threads)
                        self._dispatch_locked()
                return
        with self._lock:
            if self._client is client:
                self._lose_locked(why)

    def _try_again(self) -> None:
        """One try to connect to the lost scheduler: the waiting units go to it, or the next try waits longer."""
        try:
            client, threads = _connect(self._address, TRY_SECONDS, self._loop)
        except OSError:  # still away (refused, or no answer in TRY_SECONDS): said when it answers
            with self._lock:
                self._link.failed(time.monotonic())
            return
        except Exception as error:  # noqa: BLE001 - another answer (a scheduler of another version): said, and tried again
            with self._lock:
                self._link.failed(time.monotonic())
                wait = self._link.wait(time.monotonic())
            log.warning(
                "the solver cluster at %s refused the pool (%s); trying again in %.0f s",
                self._address,
                _one_line(error),
                wait,
            )
            return
        with self._lock:
            if self._closed:
                self._dropped.append(client)
                return
            lost_for = self._link.regain(time.monotonic())
            self._client = client
            self._workers_locked(threads)
            waiting = sum(count for name, count in self._schedule.counts().items() if name.startswith("waiting_"))
            log.warning(
                "the solver cluster at %s answers again after %.0f s; searches waiting for it: %d",
                self._address,
                lost_for,
                waiting,
            )
            self._dispatch_locked()

    def _shut_down(self) -> None:
        self._stopper.shutdown(wait=True)
        with self._lock:
            clients = [self._client, *self._dropped]
            self._dropped = []
        for client in clients:
            _close_quietly(client)
        self._loop.stop()


def _connect(address: str, seconds: float, loop: LoopRunner) -> tuple[Client, int]:
    """A client of the scheduler at ``address`` on ``loop``, its workers told to load the kernels, and its
    threads; an ``OSError`` when it does not answer within ``seconds``."""
    client = Client(address, timeout=f"{seconds}s", set_as_default=False, loop=loop.loop)
    try:
        client.register_plugin(SolverWorkerPlugin(), name=PLUGIN_NAME)
        threads = _threads(client, seconds)
    except BaseException:
        _close_quietly(client)
        raise
    return client, threads


def _threads(client: Client, seconds: float) -> int:
    """The cluster's worker threads (0 while none is there)."""
    return sum(client.nthreads(callback_timeout=seconds).values())


def _close_quietly(client: Client) -> None:
    with contextlib.suppress(Exception):  # a client of a lost scheduler fails to say goodbye to it
        client.close(timeout=TRY_SECONDS)


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())[:200]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class _LostSchedulerNoise(logging.Filter):
    """Leaves out Dask's own records of a closed scheduler connection (a traceback each, from the
    client's report stream, its batched sends and its reconnection, which the pool closes): the pool
    says the loss and the return in one line each."""

    LOGGERS = ("distributed.client", "distributed.batched")
    TEXTS = ("Batched Comm Closed", "Failed to reconnect to scheduler")
    _installed = False
    _install_lock = threading.Lock()

    @classmethod
    def install(cls) -> None:
        with cls._install_lock:
            if cls._installed:
                return
            cls._installed = True
            noise = cls()
            for name in cls.LOGGERS:
                logging.getLogger(name).addFilter(noise)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith(self.TEXTS):
            return False
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, (CommClosedError, asyncio.CancelledError))


# -- on the workers --------------------------------------------------------------------------

_kernels = threading.Event()
_kernels_started = threading.Lock()
_kernels_asked: list[bool] = []
_local = threading.local()
_running: dict[str, tuple[PoolServices, list[bool], int]] = {}
"""Each unit running here: its services, whether it was told to stop and to end its slice, and its
slice's number."""
_running_lock = threading.Lock()
_stopped_early: deque[str] = deque(maxlen=1000)
"""Units told to stop before they started here: they are skipped when they come."""
_ended_early: deque[tuple[str, int]] = deque(maxlen=1000)
"""Slices (unit, number) told to end before they started here: answered at once when they come. A
record of a slice that runs on another worker stays until pushed out, and never matches another slice."""


def _load_kernels() -> None:
    from battle.players import prepare_kernels

    try:
        prepare_kernels()
    finally:  # a failed load: each search then fails with the reason, reported per unit
        _kernels.set()


def load_kernels_once() -> None:
    """Start loading the kernels on a thread of this worker process, once."""
    with _kernels_started:
        if not _kernels_asked:
            _kernels_asked.append(True)
            threading.Thread(target=_load_kernels, name="solver-kernels", daemon=True).start()


class SolverWorkerPlugin(WorkerPlugin):
    """Loads the kernels on every worker as it starts or joins, before its first unit."""

    idempotent = True

    def setup(self, worker: Any) -> None:  # noqa: ANN401 - a distributed.Worker
        load_kernels_once()


def run_unit(
    unit: str, job: StepJob, megabytes: int, progress: SliceProgress | None = None, number: int = 0
) -> Outcome:
    """A unit's Dask task (``unit`` its pool's ``token``, ``number`` its slice's): ``job`` (a slice of
    it from ``progress``) on this thread's ``PoolServices``, unless it was stopped before it began
    (no result), or its slice was told to end before it began (``Continued`` from ``progress``)."""
    load_kernels_once()
    if not job.plain:
        _kernels.wait()
    services = getattr(_local, "services", None)
    if services is None:
        from battle.players.pool.unit_search import PoolServices  # the solver and numba: the worker's, not the server's

        services = _local.services = PoolServices(megabytes)
    told = [False, False]
    with _running_lock:
        if unit in _stopped_early:
            return None, None, 0.0
        if (unit, number) in _ended_early:
            _ended_early.remove((unit, number))
            return Continued(progress), None, 0.0
        services.clear_stop()
        _running[unit] = (services, told, number)
    started = time.thread_time()
    try:
        result = services.run(
            job, kernels=_kernels.is_set(), cancelled=lambda: told[0], progress=progress, yielded=lambda: told[1]
        )
    except Exception as error:  # noqa: BLE001 - reported to the unit's ticket in one line
        return None, f"{type(error).__name__}: {error}", time.thread_time() - started
    finally:
        with _running_lock:
            del _running[unit]
    return result, None, time.thread_time() - started


def stop_unit(unit: str) -> bool:
    """Run on every worker by ``client.run``: stop ``unit`` if it runs here (True), else remember to skip it."""
    with _running_lock:
        entry = _running.get(unit)
        if entry is None:
            _stopped_early.append(unit)
            return False
        services, told, _number = entry
        told[0] = True
        services.stop()
        return True


def end_slice(unit: str, number: int) -> bool:
    """Run on every worker by ``client.run``: end ``unit``'s slice ``number`` now if it runs here
    (True); it answers its progress, as at its node limit. One not running here is remembered: if it
    comes here later, it is answered at once."""
    with _running_lock:
        entry = _running.get(unit)
        if entry is None or entry[2] != number:
            _ended_early.append((unit, number))
            return False
        if entry[1][0]:
            return False
        services, told, _number = entry
        told[1] = True
        services.stop()
        return True


def running_units() -> list[str]:
    """The units running on this worker (``client.run(running_units)``: which worker to kill in a test)."""
    with _running_lock:
        return list(_running)
