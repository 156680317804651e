"""What a solver pool's worker runs its units with (``PoolServices``): the worker's side of the pool's
jobs and results (``battle.players.pool_jobs``). It loads the solver and numba, so only a worker
imports it (``battle.players.local_pool``'s processes, ``battle.players.dask_pool``'s tasks), never a
game server's process, which queues the jobs and reads the results as plain data.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from battle.players.pool_jobs import (
    DEFAULT_WORKER_MEGABYTES,
    AnalysisJob,
    AnalysisResult,
    HintJob,
    MoveJob,
    MoveResult,
    Result,
    ReviewResult,
    StepJob,
    position_of,
)
from battle.players.review import review_game
from battle.players.services import Opponent, PlainOpponent
from battle.rules.board import Move, move_name, parse_move


class PoolServices:
    """What one pool worker searches with: one ``Opponent``, whose engine and table serve every unit
    the worker runs (one table per worker process, not per kind of work), and the plain search for
    the shallow levels' moves while the kernels load."""

    def __init__(self, megabytes: int = DEFAULT_WORKER_MEGABYTES) -> None:
        self._opponent = Opponent(megabytes=megabytes, threads=1)
        self._plain = PlainOpponent()

    def open(self) -> PoolServices:
        """Build the engine (the kernels must be loaded first, ``battle.players.prepare_kernels``) and
        write its whole table once: the system hands out the table's huge pages on their first touch,
        zeroing (and sometimes compacting) 2 MiB each, else a fresh worker's first club move pays
        0.02-0.13 s for it instead of 0.001 s; writing them all here costs 5-8 ms before it is ready."""
        self._opponent.open()
        self._opponent.clear()
        return self

    def run(self, job: StepJob, *, kernels: bool, cancelled: Callable[[], bool]) -> Result | None:
        """Run ``job``; ``kernels`` False (still loading) answers a shallow level's move from plain
        Python. None when ``cancelled`` said so before the answer was complete."""
        if isinstance(job, MoveJob):
            position = position_of(job.position)
            rng = random.Random(job.seed)
            plain = job.plain and not kernels
            service = self._plain if plain else self._opponent
            move: Move | None = service.move(position, level=job.level, rng=rng, cancelled=cancelled)
            return None if move is None else MoveResult(move_name(move), job.level, plain)
        if isinstance(job, HintJob):
            position = position_of(job.position)
            analysis = self._opponent.hint(
                position,
                cancelled,
                quick_seconds=job.quick_seconds,
                quick_depth=job.quick_depth,
                exact_seconds=job.exact_seconds,
            )
            return AnalysisResult.of(position, analysis)
        if isinstance(job, AnalysisJob):
            position = position_of(job.position)
            return AnalysisResult.of(position, self._opponent.search(position, job.limits, all_exact=job.every_move))
        game = job.game()
        known = None if job.known_start is None else (job.known_start[0], tuple(map(parse_move, job.known_start[1])))
        review = review_game(
            game,
            time_per_move=job.seconds_per_move,
            engine=self._opponent._engine_for(game.start),
            should_stop=cancelled,
            known_start=known,
        )
        return None if cancelled() else ReviewResult(review.to_json())

    def stop(self) -> None:
        """Stop the running search (from another thread)."""
        self._opponent.stop()

    def clear_stop(self) -> None:
        """Forget a stop that came after its unit ended, before the next one starts."""
        self._opponent.clear_stop()
