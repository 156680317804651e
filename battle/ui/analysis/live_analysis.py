"""Live analysis: every move's value, refined step by step on a background thread.

The window asks for a position and polls once a frame. Behind it, one search per
depth runs in a ``BackgroundSearch`` (depth 2, 4, 6, ... then the full depth,
``all_exact=True`` so that every move gets a value, not just the best one); each
finished search replaces the shown values, so a player sees rough numbers at
once and exact ones as soon as the proof is done. A new position stops the
running search and starts again from depth 2.

The analysis has its own ``Engine`` (its own transposition table), separate from
the opponent's, so analysing never slows or stops the solver's moves and the
two tables do not evict each other's entries.

No pygame here: the scene only reads ``latest`` and ``searching_depth``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

from battle.rules.board import Position

if TYPE_CHECKING:  # the solver (numba) loads with the first search, not at import
    from battle.players import Analysis, BackgroundSearch, Engine

DEPTHS = (2, 4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32)
"""Depth-limited steps before the full search; a step that already covers the game is skipped."""
TABLE_BITS = 21
"""2**21 entries (32 MiB, touched only as used): the analysis's own table."""
MAX_RETRIES = 2
"""A stop meant for the previous search can cut the next one short; it is then run again."""
CACHE_SIZE = 256
"""Finished analyses kept by position, so stepping back through a variation shows values at once."""


def depth_schedule(position: Position) -> list[int | None]:
    """The depths to search, ``None`` standing for the full depth (a proof).

    A game cannot last longer than half the tiles left, so depth limits at or
    beyond that are the full search already and are left out.
    """
    longest = position.tiles_left() // 2
    return [depth for depth in DEPTHS if depth < longest] + [None]


class LiveAnalysis:
    """Iterative deepening on a background thread, one position at a time."""

    def __init__(self, engine_factory: Callable[[], Engine] | None = None) -> None:
        self._engine_factory = engine_factory
        self._engine: Engine | None = None
        self._position: Position | None = None
        self._key: tuple | None = None
        self._schedule: list[int | None] = []
        self._search: BackgroundSearch | None = None
        self._search_depth: int | None = None
        self._retries = 0
        self._draining: list[BackgroundSearch] = []
        self.latest: Analysis | None = None
        """The deepest finished ``Analysis`` of the current position, or None yet."""
        self.latest_key: tuple | None = None
        self.error: BaseException | None = None
        """What went wrong in the last search (a solver bug), shown instead of values."""
        self._cache: OrderedDict[tuple, Analysis] = OrderedDict()

    # -- the engine --------------------------------------------------------------------------

    def engine(self) -> Engine:
        if self._engine is None:
            if self._engine_factory is not None:
                self._engine = self._engine_factory()
            else:
                from battle.players import Engine

                self._engine = Engine(table_bits=TABLE_BITS)
        return self._engine

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
        self._position = position.copy()
        self._key = key
        self._schedule = depth_schedule(position)
        self.latest = None
        self.latest_key = None
        self.error = None
        self._retries = 0
        known = self._cache.get(key)
        if known is not None:
            self._cache.move_to_end(key)
            self.latest, self.latest_key = known, key
            self._schedule = [] if known.exact else [d for d in self._schedule if d is None or d > known.depth]
        self._start_next()

    def stop(self) -> None:
        """Stop the running search (it drains in the background) and forget the position."""
        search = self._search
        self._search = None
        self._position = None
        self._key = None
        self._schedule = []
        if search is not None and not search.done:
            search.stop(wait=False)
            self._draining.append(search)

    @property
    def searching(self) -> bool:
        """Whether a search of the current position is under way or waiting to start."""
        return self._key is not None and (self._search is not None or bool(self._schedule))

    @property
    def searching_depth(self) -> int | None:
        """Depth of the search under way (``None`` for the full depth); meaningful while ``searching``."""
        if self._search is not None:
            return self._search_depth
        return self._schedule[0] if self._schedule else None

    @property
    def finished(self) -> bool:
        """The current position's values are as good as they will get (proved, or the last step done)."""
        return self._key is not None and not self.searching

    def current_for(self, position: Position) -> Analysis | None:
        """The latest analysis if it is of ``position``, else None."""
        return self.latest if self.latest is not None and self.latest_key == position.key() else None

    # -- once a frame ------------------------------------------------------------------------

    def poll(self) -> bool:
        """Collect a finished search and start the next depth; True when ``latest`` changed."""
        self._draining = [search for search in self._draining if not search.done]
        for search in self._draining:
            search.engine.stop()  # a stop that came between two of its searches must not be lost
        changed = False
        search = self._search
        if search is not None and search.done:
            self._search = None
            changed = self._collect(search)
        if self._search is None:
            self._start_next()
        return changed

    def shutdown(self) -> None:
        self.stop()
        for search in self._draining:
            search.engine.stop()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until no search runs (tests, orderly exits)."""
        import time

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._draining = [search for search in self._draining if not search.done]
            running = self._search is not None and not self._search.done
            if not self._draining and not running:
                return True
            time.sleep(0.005)
        return False

    # -- workers -----------------------------------------------------------------------------

    def _collect(self, search: BackgroundSearch) -> bool:
        try:
            analysis = search.analysis()
        except Exception as error:  # a solver bug must not take the window down
            self.error = error
            self._schedule = []
            return True
        if analysis is None:
            return False
        wanted = self._search_depth
        cut_short = not analysis.exact and (wanted is None or analysis.depth < wanted)
        if cut_short and self._retries < MAX_RETRIES:
            self._retries += 1
            self._schedule.insert(0, wanted)
            return False
        self._retries = 0
        if self.latest is None or analysis.exact or analysis.depth >= self.latest.depth:
            self.latest = analysis
            self.latest_key = self._key
            self._cache[self._key] = analysis
            self._cache.move_to_end(self._key)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        if analysis.exact:
            self._schedule = []
        return True

    def _start_next(self) -> None:
        if self._position is None or not self._schedule or self._draining or self._search is not None:
            return
        from battle.players import BackgroundSearch, Limits

        depth = self._schedule.pop(0)
        self._search_depth = depth
        self._search = BackgroundSearch(self.engine(), self._position, Limits(depth=depth), all_exact=True).start()
