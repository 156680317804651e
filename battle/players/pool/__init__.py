"""The solver pool: one queue for all of a game server's solver work (the solver's moves, hints,
analyses, reviews, pars), run on worker processes of this machine or on a Dask cluster.

The pool orders the work (a waiting player's move first, then hints and analyses, then reviews, then
pars), runs one search per seat, bounds every unit by nodes or seconds, charges each address's budget
of solver time and says each waiting unit's place; a server submits a job and awaits its ticket
(``docs/solver-pool.md``). Only the workers load the solver and numba (``unit_search``): the process
that holds the queue, a game server's, runs no search.

- ``schedule``: the pure core: which unit runs next, the seats, the budgets, the places; no clock;
- ``jobs``: the work as plain data: what a unit asks and what it answers;
- ``queue``: ``SolverPool``, the queue and its tickets over the schedule, which an adapter runs;
- ``local_workers``: ``LocalPool``, the adapter on worker processes of this machine, one per core;
- ``dask_cluster``: ``DaskPool``, the adapter on a Dask cluster's workers; the one module that
  imports Dask;
- ``reconnection``: when a scheduler or a shared pool that went away is tried again (pure);
- ``unit_search``: ``PoolServices``, what a worker searches a unit with: its engines and tables;
- ``opening``: ``open_pool``, a server's pool on this machine or on a Dask cluster;
- ``front``: ``PoolFront`` and ``PoolTicket``, what a server uses of a pool, its own or another
  process's, and the code the two share;
- ``sharing``: ``serve_pool``, one pool for a machine's several game processes, on a Unix socket;
- ``client``: ``PoolClient``, a pool another process serves, used as if it were this process's own;
- ``wire``: the frames between the two, JSON checked field by field;
- ``dask_worker_keeper``: ``python -m battle.players.pool.dask_worker_keeper``, a ``dask worker``
  started again each time it ends, so it rejoins a scheduler that comes back.
"""
