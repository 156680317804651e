"""Live analysis: every move's value, refined step by step on a background thread.

The window asks for a position and polls once a frame. Behind it, one task on a
``SearchWorker`` searches that position depth by depth (2, 4, 6, ... then the
full depth, ``all_exact=True`` so that every move gets a value, not just the best
one) and reports each finished depth; each report replaces the shown values, so
a player sees rough numbers at once and exact ones as soon as the proof is done.
A new position cancels the task and starts again from depth 2.

The analysis has its own worker and ``Advisor`` (its own transposition table),
separate from the opponent's, so analysing never slows or stops the solver's moves and the
two tables do not evict each other's entries.

No pygame here: the scene only reads ``latest`` and ``searching_depth``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from battle.rules.board import Position
from battle.search_worker import SearchWorker, Task

if TYPE_CHECKING:  # the solver (numba) loads on the worker's thread, not at import
    from battle.players import Advisor, Analysis

DEPTHS = (2, 4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32)
"""Depth-limited steps before the full search; a step that already covers the game is skipped."""
TABLE_MEGABYTES = 32
"""The analysis's own table (touched only as used)."""
CACHE_SIZE = 256
"""Finished analyses kept by position, so stepping back through a variation shows values at once."""


def depth_schedule(position: Position) -> list[int | None]:
    """The depths to search, ``None`` standing for the full depth (a proof).

    A game cannot last longer than half the tiles left, so depth limits at or
    beyond that are the full search already and are left out.
    """
    longest = position.tiles_left() // 2
    return [depth for depth in DEPTHS if depth < longest] + [None]


@dataclass(frozen=True)
class Step:
    """What the task reports after each depth: the analysis, and the depth it searches next."""

    analysis: Analysis
    next_depth: int | None
    """``None`` for the full depth, or when nothing follows (the analysis is final)."""


def _analysis_advisor() -> Advisor:
    from battle.players import Advisor

    return Advisor(megabytes=TABLE_MEGABYTES).open()


def deepen(position: Position, schedule: list[int | None]) -> Callable[[Advisor, Task], Analysis | None]:
    """A run callable: search ``position`` at each depth of ``schedule`` in turn, reporting each ``Step``
    (``Advisor.deepen``). A search cut short by a cancel is not reported: its values are those of an
    unfinished depth.
    """
    position = position.copy()

    def run(advisor: Advisor, task: Task) -> Analysis | None:
        return advisor.deepen(
            position,
            schedule,
            cancelled=task.cancelled.is_set,
            report=lambda analysis, next_depth: task.report(Step(analysis, next_depth)),
        )

    return run


class LiveAnalysis:
    """Iterative deepening on a worker thread, one position at a time."""

    def __init__(self, engine_factory: Callable[[], Advisor] = _analysis_advisor) -> None:
        self._worker = SearchWorker(engine_factory, name="analysis")
        self._task: Task | None = None
        self._key: tuple | None = None
        self._depth: int | None = None
        self.latest: Analysis | None = None
        """The deepest finished ``Analysis`` of the current position, or None yet."""
        self.latest_key: tuple | None = None
        self.error: BaseException | None = None
        """What went wrong in the last search (a solver bug), shown instead of values."""
        self._cache: OrderedDict[tuple, Analysis] = OrderedDict()

    # -- requests ----------------------------------------------------------------------------

    @property
    def key(self) -> tuple | None:
        """The position being analysed (``Position.key()``), or None when idle."""
        return self._key

    def analyse(self, position: Position) -> None:
        """Analyse ``position`` (a no-op if it is the one already being analysed)."""
        key = position.key()
        if key == self._key:
            return
        self.stop()
        self._key = key
        self.latest = None
        self.latest_key = None
        self.error = None
        schedule = depth_schedule(position)
        known = self._cache.get(key)
        if known is not None:
            self._cache.move_to_end(key)
            self.latest, self.latest_key = known, key
            schedule = [] if known.exact else [d for d in schedule if d is None or d > known.depth]
        if schedule:
            self._depth = schedule[0]
            self._task = self._worker.submit(deepen(position, schedule), label="analysis", key=key)

    def stop(self) -> None:
        """Cancel the running search (it ends within milliseconds) and forget the position."""
        self._worker.cancel()
        self._task = None
        self._key = None

    @property
    def searching(self) -> bool:
        """Whether a search of the current position is under way or waiting to start."""
        return self._task is not None

    @property
    def searching_depth(self) -> int | None:
        """Depth of the search under way (``None`` for the full depth); meaningful while ``searching``."""
        return self._depth

    @property
    def finished(self) -> bool:
        """The current position's values are as good as they will get (proved, or the last step done)."""
        return self._key is not None and not self.searching

    def current_for(self, position: Position) -> Analysis | None:
        """The latest analysis if it is of ``position``, else None."""
        return self.latest if self.latest is not None and self.latest_key == position.key() else None

    # -- once a frame ------------------------------------------------------------------------

    def poll(self) -> bool:
        """Collect the newest finished depth; True when ``latest`` (or ``error``) changed."""
        task = self._task
        if task is None:
            return False
        changed = False
        step = task.progress
        if isinstance(step, Step) and step.analysis is not self.latest:
            self._adopt(step.analysis)
            self._depth = step.next_depth
            changed = True
        if task.finished:
            self._task = None
            if task.error is not None:  # a solver bug must not take the window down
                self.error = task.error
                changed = True
        return changed

    def shutdown(self) -> None:
        self.stop()
        self._worker.shutdown()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until no search runs (tests, orderly exits)."""
        return self._worker.wait_idle(timeout)

    def _adopt(self, analysis: Analysis) -> None:
        if self.latest is not None and not analysis.exact and analysis.depth < self.latest.depth:
            return  # the cache knew a deeper one
        key = self._key
        assert key is not None, "a search reports only while its position is the current one"
        self.latest = analysis
        self.latest_key = key
        self._cache[key] = analysis
        self._cache.move_to_end(key)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
