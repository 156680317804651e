"""What a solver pool's worker runs its units with (``PoolServices``): the worker's side of the pool's
jobs and results (``battle.players.pool.jobs``). It loads the solver and numba, so only a worker
imports it (``battle.players.pool.local_workers``'s processes, ``battle.players.pool.dask_cluster``'s tasks), never a
game server's process, which queues the jobs and reads the results as plain data.

A long unit runs in slices (``jobs.SLICE_NODES``): each run searches at most a slice's nodes
and answers either the result or ``Continued`` with its progress, which the pool hands to the next
run when the unit's turn comes again. A slice's search starts the same position again: the engine of
that position's layout still holds what the last slice found, so its completed iterations come back
from the table at once and it deepens where the last one stopped. A worker keeps an engine for each
of the last ``ENGINES`` layouts it searched, so slices of other games between two of a unit's keep
its table.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from battle.players.pool.jobs import (
    DEFAULT_WORKER_MEGABYTES,
    PAR_MEGABYTES,
    SLICE_NODES,
    AnalysisJob,
    AnalysisResult,
    Continued,
    HintJob,
    HintProgress,
    MoveJob,
    MoveResult,
    ParJob,
    Result,
    ReviewJob,
    ReviewProgress,
    ReviewResult,
    Searched,
    SearchProgress,
    SliceProgress,
    StepJob,
    nodes_of,
    position_of,
)
from battle.players.review import review_nodes, review_of
from battle.players.review_report import ReviewJSON
from battle.players.services import Opponent, PlainOpponent
from battle.rules.board import Move, Position, move_name, parse_move
from battle.rules.game import Game
from solver.levels import choose_from, get_level
from solver.limits import FULL_DEPTH, Limits
from solver.results import Analysis, SearchStatus
from solver.review import GameSearch, SearchedMove

ENGINES = 3
"""Layouts a worker keeps a table for: the games whose slices take turns on it (two workers of a
2-core server, each with 3 tables of 64 MiB: about 200 MB more than one table each). A fourth
layout's slice takes the table used longest ago, and that unit's next slice starts its search cold,
which costs it depth, never its answer (the progress keeps the deepest answer found)."""

Outcome = Result | Continued | None


@dataclass(frozen=True)
class _Slicing:
    """How a run's slice may end: its unit stopped (``cancelled``), the slice ended early for a
    waiting move (``yielded``), or its ``nodes`` searched."""

    cancelled: Callable[[], bool]
    yielded: Callable[[], bool]
    nodes: int


class PoolServices:
    """What one pool worker searches with: an ``Opponent`` (engine and table) for each of the last
    ``ENGINES`` layouts, and the plain search for the shallow levels' moves while the kernels load."""

    def __init__(self, megabytes: int = DEFAULT_WORKER_MEGABYTES) -> None:
        self._megabytes = megabytes
        self._opponents: list[Opponent] = [Opponent(megabytes=megabytes, threads=1)]
        """The most recently used first."""
        self._plain = PlainOpponent()
        self._par_opponent: Opponent | None = None
        """The par's engine (``PAR_MEGABYTES``), while a par runs on this worker."""
        self._stopped = False
        """A ``stop`` came and no ``clear_stop`` since: an engine made meanwhile starts stopped."""

    def open(self) -> PoolServices:
        """Build the first engine (the kernels must be loaded first, ``battle.players.prepare_kernels``)
        and write its whole table once: the system hands out the table's huge pages on their first
        touch, zeroing (and sometimes compacting) 2 MiB each, else a fresh worker's first club move
        pays 0.02-0.13 s for it instead of 0.001 s; writing them all here costs 5-8 ms before it is ready."""
        self._opponents[0].open()
        self._opponents[0].clear()
        return self

    def _opponent_for(self, position: Position) -> Opponent:
        """The engine whose table ``position`` keeps, else a new one while fewer than ``ENGINES``, else
        the one used longest ago (its table is cleared by the search)."""
        chosen = next((opponent for opponent in self._opponents if opponent.agrees(position)), None)
        if chosen is None:
            if len(self._opponents) < ENGINES:
                chosen = Opponent(megabytes=self._megabytes, threads=1).open()
                chosen.clear()
            else:
                chosen = self._opponents[-1]
        if chosen in self._opponents:
            self._opponents.remove(chosen)
        self._opponents.insert(0, chosen)
        return self._stopped_if_asked(chosen)

    def run(
        self,
        job: StepJob,
        *,
        kernels: bool,
        cancelled: Callable[[], bool],
        progress: SliceProgress | None = None,
        slice_nodes: int = SLICE_NODES,
        yielded: Callable[[], bool] = lambda: False,
    ) -> Outcome:
        """Run ``job`` (a sliced one for a slice, from ``progress``); ``kernels`` False (still loading)
        answers a shallow level's move from plain Python. None when ``cancelled`` said so before the
        answer was complete. ``yielded`` True (after ``stop``): the slice ends early, its progress
        counting the nodes it searched."""
        slicing = _Slicing(cancelled, yielded, slice_nodes)
        if isinstance(job, MoveJob):
            return self._move(job, kernels, slicing, progress)
        if isinstance(job, HintJob):
            assert progress is None or isinstance(progress, HintProgress)
            return self._hint(job, progress or HintProgress(), slicing)
        if isinstance(job, AnalysisJob):
            assert progress is None or isinstance(progress, SearchProgress)
            position = position_of(job.position)
            found = self._search(position, job.depth, job.every_move, job.budget, progress, slicing)
            return found if isinstance(found, Continued) else AnalysisResult.of(position, found)
        if isinstance(job, ParJob):
            return self._par(job, progress, _Slicing(cancelled, yielded, job.slice_nodes))
        assert progress is None or isinstance(progress, ReviewProgress)
        reviewed = self._review(job, progress or ReviewProgress(), slicing)
        return None if cancelled() else reviewed

    def _move(self, job: MoveJob, kernels: bool, slicing: _Slicing, progress: SliceProgress | None) -> Outcome:
        cancelled = slicing.cancelled
        position = position_of(job.position)
        rng = random.Random(job.seed)
        plain = job.plain and not kernels
        level = get_level(job.level)
        if plain or not job.sliced:
            service = self._plain if plain else self._opponent_for(position)
            move: Move | None = service.move(position, level=job.level, rng=rng, cancelled=cancelled)
            return None if move is None else MoveResult(move_name(move), job.level, plain)
        assert progress is None or isinstance(progress, SearchProgress)
        found = self._search(position, level.depth, level.temperature > 0, job.budget, progress, slicing)
        if isinstance(found, Continued):
            return found
        return None if cancelled() else MoveResult(move_name(choose_from(found, level, rng)), job.level)

    def _par(self, job: ParJob, progress: SliceProgress | None, slicing: _Slicing) -> Outcome:
        """A slice of a par's exact search, on the worker's par table (``PAR_MEGABYTES``), which is let
        go once the par has its answer."""
        assert progress is None or isinstance(progress, SearchProgress)
        position = position_of(job.start)
        if self._par_opponent is None:
            self._par_opponent = Opponent(megabytes=PAR_MEGABYTES, threads=1).open()
        self._stopped_if_asked(self._par_opponent)
        found = self._search(position, None, False, job.budget, progress, slicing, self._par_opponent, deepen=False)
        if isinstance(found, Continued):
            assert isinstance(found.progress, SearchProgress)
            return Continued(_with_bound(found.progress, progress, self._par_opponent.status()))
        self._par_opponent = None
        return None if slicing.cancelled() else AnalysisResult.of(position, found)

    def _hint(self, job: HintJob, progress: HintProgress, slicing: _Slicing) -> Outcome:
        """The window's hint (``Opponent.hint``) in slices: the quick search ``quick_depth`` deep, then,
        unless it is exact, the exact search, whose answer is taken only when it is exact."""
        position = position_of(job.position)
        if progress.quick is None:
            quick_budget = nodes_of(job.quick_seconds)
            found = self._search(position, job.quick_depth, False, quick_budget, progress.search, slicing)
            if isinstance(found, Continued):
                assert isinstance(found.progress, SearchProgress)
                return Continued(HintProgress(None, found.progress))
            if found.exact or slicing.cancelled():
                return AnalysisResult.of(position, found)
            return Continued(HintProgress(found))
        exact_budget = nodes_of(job.exact_seconds)
        full = self._search(position, None, False, exact_budget, progress.search, slicing)
        if isinstance(full, Continued):
            assert isinstance(full.progress, SearchProgress)
            return Continued(HintProgress(progress.quick, full.progress))
        return AnalysisResult.of(position, full if full.exact else progress.quick)

    def _search(
        self,
        position: Position,
        depth: int | None,
        every_move: bool,
        budget: int,
        progress: SearchProgress | None,
        slicing: _Slicing,
        opponent: Opponent | None = None,
        *,
        deepen: bool = True,
    ) -> Analysis | Continued:
        """One slice of a search ``depth`` deep (None: to the end) within ``budget`` nodes in all: the
        deepest answer once it is complete (exact, or ``depth`` deep), the budget is spent or the unit
        was told to stop (a watchdog's stop asks for the answer so far), else ``Continued`` (a slice
        told to end early has spent the nodes it searched, else its whole slice). ``deepen`` False
        (a par's, which only its exact value answers): each slice goes straight to the exact search,
        as an unlimited one does, instead of deepening step by step, which costs a whole deal about
        2.7x the nodes (``Limits.stop_after``)."""
        spent, best = (0, None) if progress is None else (progress.spent, progress.best)
        nodes = max(1, min(slicing.nodes, budget - spent))
        searcher = opponent if opponent is not None else self._opponent_for(position)
        limits = Limits(nodes=nodes, depth=depth) if deepen else Limits(depth=depth, stop_after_nodes=nodes)
        analysis = searcher.search(position, limits, all_exact=every_move)
        spent += min(nodes, analysis.nodes) if slicing.yielded() else nodes
        if best is None or analysis.depth >= best.depth:
            best = analysis
        complete = best.exact or (depth is not None and best.depth >= min(depth, FULL_DEPTH))
        if complete or spent >= budget or slicing.cancelled():
            return best
        return Continued(SearchProgress(spent, best))

    def _review(self, job: ReviewJob, progress: ReviewProgress, slicing: _Slicing) -> Outcome:
        """One slice of a review: of the next position's search (every move's value), or of the final
        position's once every move is searched; the report once all are."""
        game = job.game()
        done = len(progress.searched)
        budget = review_nodes(job.seconds_per_move)
        assert budget is not None
        position = game.start.copy()
        for move in game.moves[:done]:
            position.push(move)
        if done < len(game.moves):
            found = self._search(position, None, True, budget, progress.search, slicing)
            if isinstance(found, Continued):
                assert isinstance(found.progress, SearchProgress)
                return Continued(ReviewProgress(progress.searched, found.progress))
            move = game.moves[done]
            searched = (
                position.to_move,
                (position.scores[0], position.scores[1]),
                move,
                position.move_points(move),
                found,
            )
            return Continued(ReviewProgress((*progress.searched, searched)))
        final = None
        if not position.is_over():
            found = self._search(position, None, False, budget, progress.search, slicing)
            if isinstance(found, Continued):
                assert isinstance(found.progress, SearchProgress)
                return Continued(ReviewProgress(progress.searched, found.progress))
            final = found
        return ReviewResult(self._report(job, game, progress.searched, position, final))

    @staticmethod
    def _report(
        job: ReviewJob, game: Game, searched: tuple[Searched, ...], position: Position, final: Analysis | None
    ) -> ReviewJSON:
        found = GameSearch(
            game.start.copy(),
            game.names,
            game.deal_number,
            len(game.moves),
            review_nodes(job.seconds_per_move),
            position,
            [SearchedMove(*entry) for entry in searched],
            final,
        )
        known = None if job.known_start is None else (job.known_start[0], tuple(map(parse_move, job.known_start[1])))
        return review_of(found, time_per_move=job.seconds_per_move, known_start=known).to_json()

    def stop(self) -> None:
        """Stop the running search (from another thread): every engine's, as the unit may not have chosen
        its engine yet, and an engine made before ``clear_stop`` starts stopped (a stop that came while
        a new engine was made was lost: the slice ran its whole length); ``clear_stop`` before the next
        unit forgets the others'."""
        self._stopped = True
        for opponent in self._engines():
            opponent.stop()

    def clear_stop(self) -> None:
        """Forget a stop that came after its unit ended, before the next one starts."""
        self._stopped = False
        for opponent in self._engines():
            opponent.clear_stop()

    def _engines(self) -> list[Opponent]:
        return [*self._opponents, *([self._par_opponent] if self._par_opponent is not None else [])]

    def _stopped_if_asked(self, opponent: Opponent) -> Opponent:
        """``opponent``, stopped when a stop came since the last ``clear_stop``: looked at once the engine
        is where ``stop`` finds it, so a stop is never lost between the two."""
        if self._stopped:
            opponent.stop()
        return opponent


def _with_bound(found: SearchProgress, before: SearchProgress | None, status: SearchStatus) -> SearchProgress:
    """``found`` with the least its position's value can be: what its slice's search proved
    (``SearchStatus.proved``) or the slices' before, as each slice starts again from the root."""
    bounds = [bound for bound in (None if before is None else before.at_least, status.proved) if bound is not None]
    return replace(found, at_least=max(bounds, default=None))
