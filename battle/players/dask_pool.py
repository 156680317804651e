"""The solver pool on a Dask cluster: ``scheduler="tcp://HOST:8786"`` and every machine that runs a
``dask worker`` against it adds solver capacity, as the survey's workers do (``battle.atlas.survey_run``).

The queue stays here (``battle.players.pool_schedule``: priorities, seats, budgets, places), and
units go to the cluster as Dask tasks only while it has a free thread for them, never queued
there, so a move submitted after a hundred reviews still goes first; the number of threads is
read again every ``CAPACITY_EVERY`` seconds, so workers that join are used.

On a worker, ``SolverWorkerPlugin`` starts loading the kernels as the worker starts (or as the
pool connects); a shallow level's move is answered from plain Python meanwhile, any other unit
waits for them. Each worker thread keeps one ``PoolServices`` (its engine and table) between
units. A running unit is stopped by a message to every worker (``stop_unit``): the one running it
stops its search; one that has not started it yet skips it.

A worker that dies (killed, out of memory) takes its unit with it; Dask's scheduler gives the
task to another worker (up to its ``distributed.scheduler.allowed-failures``, 3 by default), and
when Dask gives up (``KilledWorker``) the pool queues the unit again, up to ``MAX_TRIES`` times.
This module imports Dask, so only a pool that asks for a scheduler imports it.
"""

from __future__ import annotations

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

from battle.players.pool import SolverPool
from battle.players.pool_jobs import DEFAULT_WORKER_MEGABYTES, Result, StepJob
from battle.players.pool_schedule import MAX_WAITING, Budget

if TYPE_CHECKING:
    from battle.players.pool_services import PoolServices

CAPACITY_EVERY = 2.0
"""Seconds between looks at how many worker threads the cluster has."""
CONNECT_SECONDS = 20
PLUGIN_NAME = "mahjong-battle-solver"

Outcome = tuple[Result | None, str | None, float]
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
        client = Client(scheduler, timeout=f"{CONNECT_SECONDS}s", set_as_default=False)
        try:
            client.register_plugin(SolverWorkerPlugin(), name=PLUGIN_NAME)
            threads = _threads(client)
        except BaseException:
            client.close()
            raise
        super().__init__(threads, budget=budget, max_waiting=max_waiting, move_reserve=move_reserve, clock=clock)
        self._client = client
        self._megabytes = megabytes
        self._name = uuid.uuid4().hex[:12]
        """Names this pool's units on the workers, which outlive it and may serve other pools at once."""
        self._futures: dict[int, DaskFuture] = {}
        self._stopper = ThreadPoolExecutor(1, thread_name_prefix="solver-pool-stop")
        """Sends stops off the lock: a broadcast waits for the scheduler's answer."""
        self._watcher = threading.Thread(target=self._watch_capacity, name="solver-pool-capacity", daemon=True)
        self._watcher.start()

    @property
    def client(self) -> Client:
        """The Dask client (monitoring, and tests that kill a worker)."""
        return self._client

    def _dispatch_locked(self) -> None:
        if self._closed:
            return
        while (taken := self._take_locked()) is not None:
            unit, job = taken
            future = self._client.submit(
                run_unit,
                self.token(unit.id),
                job,
                self._megabytes,
                key=f"solver-{unit.kind.name.lower()}-{self.token(unit.id)}",
                pure=False,
                priority=-int(unit.kind),
            )
            self._futures[unit.id] = future
            future.add_done_callback(partial(self._done, unit.id))

    def _done(self, unit: int, future: DaskFuture) -> None:
        """On Dask's callback thread: a unit's task ended, answered, failed, or lost its workers."""
        lost = False
        outcome: Outcome = (None, None, 0.0)
        try:
            outcome = future.result()
        except CancelledError:  # the cluster dropped it (the client reconnected, the scheduler restarted)
            lost = True
        except Exception as error:  # noqa: BLE001 - Dask's KilledWorker, or the task's own failure: said in one line
            lost = type(error).__name__ == "KilledWorker"
            outcome = (None, f"{type(error).__name__}: {str(error)[:200]}", 0.0)
        with self._lock:
            self._futures.pop(unit, None)
            actions = self._lost_locked(unit) if lost else self._ended_locked(unit, *outcome)
            self._dispatch_locked()
        self._settle(actions)

    def _stop_locked(self, unit: int) -> None:
        self._stopper.submit(self._client.run, stop_unit, self.token(unit))

    def token(self, unit: int) -> str:
        """What the workers call ``unit``: unit ids count from 1 in every pool, and a cluster outlives a
        pool (a server started again) or serves several, so a stop meant for one must not skip another's."""
        return f"{self._name}-{unit}"

    def _worker_counts_locked(self) -> dict[str, int]:
        return {"workers": self._schedule.workers}

    def _watch_capacity(self) -> None:
        """Follow the cluster's size: workers that join take units, workers that leave are not waited for."""
        while True:
            with self._lock:
                if self._lock.wait_for(lambda: self._closed, CAPACITY_EVERY):
                    return
            try:
                threads = _threads(self._client)
            except (OSError, TimeoutError):  # the scheduler is away for a moment: keep the last count
                continue
            with self._lock:
                self._schedule.set_workers(threads)
                self._dispatch_locked()

    def _shut_down(self) -> None:
        self._stopper.shutdown(wait=True)
        self._client.close()


def _threads(client: Client) -> int:
    """The cluster's worker threads (at least one, so units wait for a worker to come)."""
    return max(1, sum(client.nthreads().values()))


# -- on the workers --------------------------------------------------------------------------

_kernels = threading.Event()
_kernels_started = threading.Lock()
_kernels_asked: list[bool] = []
_local = threading.local()
_running: dict[str, tuple[PoolServices, list[bool]]] = {}
_running_lock = threading.Lock()
_stopped_early: deque[str] = deque(maxlen=1000)
"""Units told to stop before they started here: they are skipped when they come."""


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


def run_unit(unit: str, job: StepJob, megabytes: int) -> Outcome:
    """A unit's Dask task (``unit`` its pool's ``token``): ``job`` on this thread's ``PoolServices``, unless
    it was stopped before it began."""
    load_kernels_once()
    if not job.plain:
        _kernels.wait()
    services = getattr(_local, "services", None)
    if services is None:
        from battle.players.pool_services import PoolServices  # the solver and numba: the worker's, not the server's

        services = _local.services = PoolServices(megabytes)
    stopped = [False]
    with _running_lock:
        if unit in _stopped_early:
            return None, None, 0.0
        services.clear_stop()
        _running[unit] = (services, stopped)
    started = time.thread_time()
    try:
        result = services.run(job, kernels=_kernels.is_set(), cancelled=lambda: stopped[0])
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
        services, stopped = entry
        stopped[0] = True
        services.stop()
        return True


def running_units() -> list[str]:
    """The units running on this worker (``client.run(running_units)``: which worker to kill in a test)."""
    with _running_lock:
        return list(_running)
