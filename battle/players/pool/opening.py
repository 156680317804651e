"""What a server imports to run its solver work on a pool: ``open_pool`` and everything it hands
over and back (the pool and its tickets, the jobs, the results, the refusals and budgets).

The pool itself is ``battle.players.pool.queue`` (the queue and its tickets) over
``battle.players.pool.schedule`` (its pure core: priorities, seats, budgets, places), with the
jobs and results in ``battle.players.pool.jobs`` and the two adapters that run the units,
``battle.players.pool.local_workers`` (worker processes on this machine) and ``battle.players.pool.dask_cluster``
(a Dask cluster). A server process may use a pool another process of the machine owns instead,
through a ``PoolClient`` (``battle.players.pool.sharing``, which the owner runs with ``serve_pool``);
both are a ``PoolFront``.
``docs/solver-pool.md`` describes it for the people who run a server.
"""

from __future__ import annotations

from battle.players.pool.client import PoolClient
from battle.players.pool.front import PoolFront, PoolTicket
from battle.players.pool.jobs import (
    AnalysisJob,
    AnalysisResult,
    DeepeningJob,
    HintJob,
    Job,
    MoveJob,
    MoveResult,
    ParJob,
    PositionData,
    Result,
    ReviewJob,
    ReviewResult,
    position_data,
)
from battle.players.pool.queue import PoolError, PoolRefused, PoolUnavailable, SolverPool, Ticket
from battle.players.pool.schedule import IPV6_PREFIX, MAX_WAITING, Budget, Kind, Refusal, Standing, address_key
from battle.players.pool.sharing import PoolService, serve_pool

__all__ = [
    "IPV6_PREFIX",
    "MAX_WAITING",
    "AnalysisJob",
    "AnalysisResult",
    "Budget",
    "DeepeningJob",
    "HintJob",
    "Job",
    "Kind",
    "MoveJob",
    "MoveResult",
    "ParJob",
    "PoolClient",
    "PoolError",
    "PoolFront",
    "PoolService",
    "PoolTicket",
    "PoolRefused",
    "PoolUnavailable",
    "PositionData",
    "Refusal",
    "Result",
    "ReviewJob",
    "ReviewResult",
    "SolverPool",
    "Standing",
    "Ticket",
    "address_key",
    "open_pool",
    "position_data",
    "serve_pool",
]


def open_pool(
    scheduler: str | None = None,
    *,
    workers: int | None = None,
    budget: Budget | None = Budget(),
    max_waiting: int = MAX_WAITING,
) -> SolverPool:
    """The pool a server runs its solver work on: worker processes on this machine's cores (``workers``,
    default one per core), or with ``scheduler`` (``tcp://HOST:8786``) a Dask cluster's workers. Dask
    is imported only for the second."""
    if scheduler is None:
        from battle.players.pool.local_workers import LocalPool

        return LocalPool(workers, budget=budget, max_waiting=max_waiting)
    from battle.players.pool.dask_cluster import DaskPool

    return DaskPool(scheduler, budget=budget, max_waiting=max_waiting)
