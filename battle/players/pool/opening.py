"""Where a server's solver pool runs: ``open_pool`` starts it on worker processes of this machine
(``battle.players.pool.local_workers``) or connects it to a Dask cluster
(``battle.players.pool.dask_cluster``), and imports Dask only for the second.

What a server hands the pool and gets back lives in the modules the pool's face names
(``battle.players.pool``): the jobs and results in ``jobs``, the refusals and budgets in
``schedule``, the tickets in ``queue``; a pool another process serves is a ``client.PoolClient``,
and both are a ``front.PoolFront``. ``docs/solver-pool.md`` describes the pool for the people who
run a server.
"""

from __future__ import annotations

from battle.players.pool.queue import SolverPool
from battle.players.pool.schedule import MAX_WAITING, Budget

__all__ = ["open_pool"]


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
