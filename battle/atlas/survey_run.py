"""Running a survey on a Dask cluster: one task per deal, each result stored the moment it comes.

With no scheduler address a ``LocalCluster`` is started on this machine (worker processes,
each solving one deal at a time on its own engine); with ``tcp://HOST:8786`` the survey
uses a running cluster (``dask scheduler`` and ``dask worker`` on other machines, or any
Dask deployment). Solve times are heavy-tailed (a whole deal takes 2 to over 25 minutes on
two cores), so tasks are handed out as results come in, a few more than there are workers,
never all at once: a stop loses at most the deals in flight, and the database always says
what is done.

A worker that dies (killed, out of memory) takes its task with it; Dask gives the task to
another worker, up to ``RETRIES`` times. A deal that fails every time is reported and left
out of the database, so the next run tries it again.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from battle.atlas.solve_deal import solve_deal
from battle.atlas.survey_db import DealResult, SurveyDatabase
from battle.i18n import N_, NN_
from battle.rules.errors import Phrase

RETRIES = 2
CLUSTER_STARTS = 3
"""Tries at starting a local cluster: a worker that dies while it starts (killed, out of memory
at import) fails the whole start with Dask's ``Nanny failed to start``; a fresh start usually
goes through."""
IN_FLIGHT_PER_WORKER = 2
"""Tasks queued per worker: one solving, one waiting, so a worker never idles between deals."""


@dataclass(frozen=True)
class SurveyPlan:
    """What to solve and how."""

    deals: list[int]
    tiles: int = 108
    time_limit: float | None = None
    value_only: bool = False
    retry_unsolved: bool = False
    scheduler: str | None = None
    workers: int | None = None
    """Local worker processes (default: one per two cores, at least one)."""
    threads_per_worker: int = 1
    """Search threads of each worker's engine (lazy SMP); a worker solves one deal at a time."""
    memory_per_worker: float | None = None
    """GB a local worker may use; its table gets what is left after about 0.5 GB for the rest."""


@dataclass
class SurveyProgress:
    """How far a run has come, for the progress bar."""

    total: int
    skipped: int
    done: int = 0
    solved: int = 0
    unsolved: int = 0
    failed: list[Phrase] = field(default_factory=list)
    """One line per deal that failed every try (``failure_line``), worded when shown."""
    started: float = field(default_factory=time.monotonic)
    dashboard: str | None = None

    def per_hour(self) -> float:
        hours = (time.monotonic() - self.started) / 3600
        return self.done / hours if hours > 0 else 0.0

    def seconds_left(self) -> float | None:
        rate = self.per_hour()
        left = self.total - self.done - len(self.failed)
        return None if rate <= 0 else left / rate * 3600


def default_workers(threads_per_worker: int = 1) -> int:
    """Workers for this machine: its cores over the threads each uses, at least one."""
    return max(1, (os.cpu_count() or 1) // max(1, threads_per_worker))


WORKER_BASE_GB = 0.5
"""A worker's memory besides its table: about 0.3 GB measured, and a margin."""
TERMINATE_FRACTION = 0.95
"""Dask's nanny kills a worker whose memory passes this share of its limit (its default)."""
WORKER_MEMORY_CONFIG = {
    "distributed.worker.memory.target": False,
    "distributed.worker.memory.spill": False,
    "distributed.worker.memory.pause": False,
    "distributed.worker.memory.terminate": TERMINATE_FRACTION,
}
"""A worker holds no data, only its engine's table, allocated once and filled as it solves:
Dask's spilling has nothing to spill, and its pause at 80% of the limit stops a worker whose
table is most of its memory for good (a 2.5 GB worker with a 2 GiB table sat idle)."""


def table_megabytes(memory_per_worker: float | None) -> int | None:
    """The table a worker may allocate within its memory limit (None: the engine's own default):
    what is left under the kill threshold besides ``WORKER_BASE_GB``. The engine rounds it down
    to a power of two: 2 GB a worker gives a 1 GiB table, 3 GB a 2 GiB one."""
    if memory_per_worker is None:
        return None
    return max(32, int((memory_per_worker * TERMINATE_FRACTION - WORKER_BASE_GB) * 1e9 / (1 << 20)))


def failure_line(key: str, error: BaseException) -> Phrase:
    """One line for a deal that failed every try: which deal, and why in the user's terms
    (Dask's own message for a dead worker runs to four sentences and a link); any other error
    is named as Python names it, with its message as it is."""
    deal = key.split("-")[1] if key.startswith("deal-") else key
    if type(error).__name__ == "KilledWorker":
        return Phrase(
            *NN_(
                "deal {deal}: its worker died {count} time while solving it (out of memory? give "
                "each worker more with --memory-per-worker, or run fewer)",
                "deal {deal}: its worker died {count} times while solving it (out of memory? give "
                "each worker more with --memory-per-worker, or run fewer)",
            ),
            deal=deal,
            count=RETRIES + 1,
        )
    return Phrase(
        N_("deal {deal}: {error}: {message}"), deal=deal, error=type(error).__name__, message=str(error)[:200]
    )


def pending_deals(database: SurveyDatabase, plan: SurveyPlan) -> list[int]:
    """The plan's deals with no stored result (an unsolved one counts as stored unless retried)."""
    stored = database.stored_deals(plan.tiles, solved_only=plan.retry_unsolved)
    return [deal for deal in plan.deals if deal not in stored]


def local_cluster(plan: SurveyPlan) -> Any:  # noqa: ANN401 - a dask LocalCluster, imported only here
    """This machine's cluster for ``plan``: worker processes of one Dask thread each (a worker
    solves one deal at a time; its engine runs ``threads_per_worker`` search threads)."""
    import dask
    from dask.distributed import LocalCluster

    workers = plan.workers or default_workers(plan.threads_per_worker)
    memory = f"{plan.memory_per_worker}GB" if plan.memory_per_worker else "auto"
    with dask.config.set(WORKER_MEMORY_CONFIG):  # each worker's nanny hands the settings on to its process
        return LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            memory_limit=memory,
            dashboard_address=":0",
            # Dask's own ERROR lines are teardown noise here: a worker's heartbeat racing the
            # scheduler's close printed a traceback after a finished survey in one CI run (0 of
            # 12 runs on a loaded machine). Every failure the user must see reaches this process
            # as a failed future or a failed start, and is worded there.
            silence_logs=logging.CRITICAL,
        )


class ClusterStartError(Exception):
    """The local cluster did not start in ``CLUSTER_STARTS`` tries; the message is one line, worded when shown."""

    def __init__(self, phrase: Phrase) -> None:
        super().__init__(phrase)
        self.phrase = phrase

    def __str__(self) -> str:
        return str(self.phrase)


def start_local_cluster(plan: SurveyPlan) -> Any:  # noqa: ANN401 - a dask LocalCluster
    """``local_cluster(plan)``, started again when a worker dies during the start; ``ClusterStartError``
    after ``CLUSTER_STARTS`` failed tries (nothing is stored yet, so the survey resumes whole)."""
    failure: BaseException | None = None
    for _ in range(CLUSTER_STARTS):
        try:
            return local_cluster(plan)
        except (RuntimeError, OSError, TimeoutError) as error:  # Dask's "Nanny failed to start", a port in use
            failure = error
    cause = failure.__cause__ or failure if failure is not None else None
    raise ClusterStartError(
        Phrase(
            N_(
                "the local Dask cluster did not start in {tries} tries ({failure}; {error}: {message}); "
                "nothing was solved, the same command tries again"
            ),
            tries=CLUSTER_STARTS,
            failure=failure,
            error=type(cause).__name__,
            message=str(cause)[:120],
        )
    )


def run_survey(
    plan: SurveyPlan,
    database: SurveyDatabase,
    *,
    report: Callable[[SurveyProgress, DealResult | None], None] = lambda progress, result: None,
    stop: threading.Event | None = None,
    on_client: Callable[[Any], None] | None = None,
) -> SurveyProgress:
    """Solve every pending deal of ``plan`` on Dask, storing each result as it arrives.

    ``on_client`` gets the Dask client once it is connected (monitoring, and tests that
    kill a worker mid-run).
    """
    from dask.distributed import Client, as_completed

    todo = pending_deals(database, plan)
    progress = SurveyProgress(total=len(todo), skipped=len(plan.deals) - len(todo))
    if not todo:
        report(progress, None)
        return progress
    cluster = None
    if plan.scheduler:
        client = Client(plan.scheduler, timeout="20s")
    else:
        cluster = start_local_cluster(plan)
        client = Client(cluster)
    try:
        progress.dashboard = client.dashboard_link
        if on_client is not None:
            on_client(client)
        width = max(1, sum(1 for _ in client.scheduler_info()["workers"])) * IN_FLIGHT_PER_WORKER
        options = dict(
            tiles=plan.tiles,
            time_limit=plan.time_limit,
            value_only=plan.value_only,
            megabytes=table_megabytes(plan.memory_per_worker),
            threads=plan.threads_per_worker,
        )
        queue = list(reversed(todo))

        def submit_next(running: as_completed) -> None:
            if queue and not (stop is not None and stop.is_set()):
                deal = queue.pop()
                running.add(
                    client.submit(
                        solve_deal,
                        deal,
                        **options,
                        key=f"deal-{deal}-{plan.tiles}-{time.time_ns()}",
                        retries=RETRIES,
                        pure=False,
                    )
                )

        running = as_completed([])
        for _ in range(min(width, len(queue))):
            submit_next(running)
        report(progress, None)
        for future in running:
            try:
                result: DealResult = future.result()
            except Exception as error:  # noqa: BLE001 - a deal that failed every retry: reported, tried next run
                progress.failed.append(failure_line(str(future.key), error))
            else:
                database.store(result, time.time())
                progress.done += 1
                progress.solved += result.solved
                progress.unsolved += not result.solved
                report(progress, result)
            submit_next(running)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return progress
