"""The solver behind the window: one engine, one search at a time, on a background thread.

The UI thread never waits for a search. It asks for a move or a hint, polls once
a frame, and cancels when the game changes under the search (new game, undo,
quit). A cancelled search is told to stop and then left to drain: the engine is
single-threaded, so the next search starts only when the old one has returned.

``Engine.search`` clears its stop flag when it starts, so a stop sent in the
instant before a search begins would be lost; while a cancelled search drains we
therefore repeat the stop every frame. The run callables also check the job's
cancel flag between the searches they chain.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from battle.rules.board import Move, Position

if TYPE_CHECKING:  # the solver (numba) loads on the warm-up thread, not at import
    from battle.players import BackgroundSearch, Engine

HINT_QUICK_DEPTH = 10
HINT_QUICK_SECONDS = 1.0
HINT_EXACT_SECONDS = 3.0


@dataclass
class Job:
    """One request: what it is for, the position it was asked about, and its outcome."""

    purpose: str
    """``"move"`` (the solver's move) or ``"hint"``."""
    position_key: tuple
    run: Callable[[Engine, Position, threading.Event], object]
    position: Position
    cancelled: threading.Event = field(default_factory=threading.Event)
    search: BackgroundSearch | None = None
    started_at: float | None = None
    result: object = None
    error: BaseException | None = None
    finished: bool = False


class SolverService:
    """Owns the engine (created on first use: it allocates the transposition table)."""

    def __init__(self, engine_factory: Callable[[], Engine] | None = None) -> None:
        self._engine_factory = engine_factory
        self._engine: Engine | None = None
        self._engine_lock = threading.Lock()
        self._warming: threading.Thread | None = None
        self.current: Job | None = None
        self._draining: list[BackgroundSearch] = []

    def engine(self) -> Engine:
        """The engine, built now if need be (blocks: the UI thread uses ``_ready_engine``)."""
        with self._engine_lock:
            if self._engine is None:
                if self._engine_factory is not None:
                    self._engine = self._engine_factory()
                else:
                    from battle.players import Engine

                    self._engine = Engine()
            return self._engine

    def warm_up(self) -> None:
        """Build the engine on a background thread: importing numba, loading the
        kernels and allocating the table take a few hundred milliseconds, which
        the UI thread must never spend (a frozen first move otherwise)."""
        if self._engine is None and self._warming is None:
            self._warming = threading.Thread(target=self.engine, name="solver-warm-up", daemon=True)
            self._warming.start()

    def _ready_engine(self) -> Engine | None:
        """The engine if it is built, else None (and the build is started)."""
        if self._engine is not None:
            return self._engine
        self.warm_up()
        return None

    # -- requests ------------------------------------------------------------------------

    def request(self, purpose: str, position: Position,
                run: Callable[[Engine, Position, threading.Event], object]) -> Job:
        """Ask for a search; any current one is cancelled first."""
        self.cancel()
        job = Job(purpose, position.key(), run, position.copy())
        self.current = job
        self._start_if_free()
        return job

    def cancel(self) -> None:
        """Drop the current job; its search, if running, is stopped and left to drain."""
        job = self.current
        self.current = None
        if job is None:
            return
        job.cancelled.set()
        if job.search is not None and not job.search.done:
            job.search.stop(wait=False)
            self._draining.append(job.search)

    @property
    def busy(self) -> bool:
        return self.current is not None

    @property
    def draining(self) -> bool:
        """Cancelled searches are still stopping: ``tick`` must run until they have."""
        return bool(self._draining)

    def elapsed(self) -> float:
        job = self.current
        if job is None or job.started_at is None:
            return 0.0
        return time.monotonic() - job.started_at

    def tick(self) -> None:
        """Keep cancelled searches stopping, and start the waiting job once they have."""
        still = []
        for search in self._draining:
            if not search.done:
                search.engine.stop()
                still.append(search)
        self._draining = still
        self._start_if_free()

    def poll(self) -> Job | None:
        """Call once a frame: returns the current job once it has finished, else None."""
        self.tick()
        job = self.current
        if job is None or job.search is None or not job.search.done:
            return None
        try:
            job.result = job.search.result()
        except Exception as error:  # a solver bug must not take the window down
            job.error = error
        job.finished = True
        self.current = None
        return job

    def shutdown(self) -> None:
        """Stop everything without waiting (threads are daemons)."""
        self.cancel()
        for search in self._draining:
            search.engine.stop()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until no search is draining (tests and orderly exits)."""
        deadline = time.monotonic() + timeout
        while self._draining and time.monotonic() < deadline:
            self.poll()
            time.sleep(0.005)
        return not self._draining

    def _start_if_free(self) -> None:
        job = self.current
        if job is None or job.search is not None or self._draining:
            return
        engine = self._ready_engine()
        if engine is None:
            return  # tick() starts the job once the warm-up has built the engine
        from battle.players import BackgroundSearch

        def run(engine: Engine, position: Position) -> object:
            if job.cancelled.is_set():
                return None
            return job.run(engine, position, job.cancelled)

        job.search = BackgroundSearch(engine, job.position, run=run)
        job.started_at = time.monotonic()
        job.search.start()


# -- what the searches do ------------------------------------------------------------------


def level_move(level_name: str, rng: random.Random) -> Callable[[Engine, Position, threading.Event], Move | None]:
    """A run callable: search as the level does, then pick its move the level's way."""
    from battle.players import analyse_for_level, choose_from, get_level

    level = get_level(level_name)

    def run(engine: Engine, position: Position, cancelled: threading.Event) -> Move | None:
        analysis = analyse_for_level(engine, position, level)
        if cancelled.is_set():
            return None
        return choose_from(analysis, level, rng)

    return run


@dataclass(frozen=True)
class Hint:
    move: Move
    exact: bool
    alternatives: int
    """How many other moves are as good (when known)."""
    value: int


def hint_search(engine: Engine, position: Position, cancelled: threading.Event) -> Hint | None:
    """The perfect player's move: exact when the time allows, else the deepest quick search.

    A bare perfect search that runs out of time knows nothing and falls back to
    the biggest pair, so a short depth-limited search goes first as the fallback.
    """
    from battle.players import Limits

    quick = engine.search(position, Limits(time=HINT_QUICK_SECONDS, depth=HINT_QUICK_DEPTH))
    chosen = quick
    if not quick.exact and not cancelled.is_set():
        full = engine.search(position, Limits(time=HINT_EXACT_SECONDS))
        if full.exact:
            chosen = full
    if not chosen.best_moves:
        return None
    return Hint(chosen.best_moves[0], chosen.exact, len(chosen.best_moves) - 1, chosen.value)
