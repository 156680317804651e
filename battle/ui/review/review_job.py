"""A game review running on a background thread, for the window.

``solver.review.review_game`` grades every move (one search per move, up to the
time per move each); a full game takes about a minute, so the window runs it on
a thread, shows "reviewing move 12/54" from its progress reports, and can
cancel it: the review polls ``should_stop`` between searches, and the running
search is stopped through its engine.

The review gets an engine of its own (its table is built for this game's layout
and thrown away with it), so it never waits for, or stops, another search.
No pygame here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from battle.rules.game import Game

if TYPE_CHECKING:  # the solver (numba) loads on the review's thread, not at import
    from battle.players import Engine, Review, ReviewStep

TABLE_BITS = 21
"""2**21 table entries (32 MiB, touched only as used): plenty for one game's positions."""


class ReviewJob:
    """One review: start it, poll ``progress`` / ``done`` once a frame, cancel it."""

    def __init__(self, game: Game, time_per_move: float, engine_factory: Callable[[], Engine] | None = None) -> None:
        self.game = game
        self.time_per_move = time_per_move
        self.total = game.ply
        """Moves to review."""
        self._engine_factory = engine_factory
        self._engine: Engine | None = None
        self._cancelled = threading.Event()
        self._lock = threading.Lock()
        self._progress: ReviewStep | None = None
        self._review: Review | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, name="review", daemon=True)

    def start(self) -> ReviewJob:
        self._thread.start()
        return self

    def _work(self) -> None:
        try:
            from battle.players import Engine, review_game

            with self._lock:
                self._engine = self._engine_factory() if self._engine_factory else Engine(table_bits=TABLE_BITS)
            if self._cancelled.is_set():
                return
            review = review_game(self.game, time_per_move=self.time_per_move, engine=self._engine,
                                 progress=self._report, should_stop=self._cancelled.is_set)
        except BaseException as error:  # shown in the window, never lost in the thread
            with self._lock:
                self._error = error
            return
        with self._lock:
            self._review = review

    def _report(self, step: ReviewStep) -> None:
        with self._lock:
            self._progress = step

    # -- polled by the window ----------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self._thread.ident is not None and not self._thread.is_alive()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    @property
    def progress(self) -> ReviewStep | None:
        """The last ``ReviewStep`` reported (None before the first move is graded)."""
        with self._lock:
            return self._progress

    @property
    def reviewed(self) -> int:
        """Moves graded so far."""
        step = self.progress
        return 0 if step is None else min(step.number, self.total)

    @property
    def review(self) -> Review | None:
        """The finished ``Review`` (None while running, when cancelled, or after an error)."""
        with self._lock:
            return None if self._cancelled.is_set() else self._review

    @property
    def error(self) -> BaseException | None:
        with self._lock:
            return self._error

    def cancel(self) -> None:
        """Stop as soon as possible: no more searches, and the running one is cut short."""
        self._cancelled.set()
        with self._lock:
            engine = self._engine
        if engine is not None:
            engine.stop()

    def wait(self, timeout: float = 10.0) -> bool:
        """Block until the thread ends (tests, orderly exits)."""
        if self._thread.ident is not None:
            self._thread.join(timeout)
        return not self._thread.is_alive()
