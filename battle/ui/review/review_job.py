"""A game review running on a background thread, for the window.

``battle.players.Reviewer`` grades every move (one search per move, the time per move
counted as nodes on one thread, so that a repeat gives the same grades whatever else
the machine does); a full game takes about a minute, so the window runs it on
a thread, shows "reviewing move 12/54" from its progress reports, and can
cancel it: it runs as a task on a ``SearchWorker``, polls the task's cancel flag
between searches, and a cancel stops the running search through the reviewer.

A catalogued deal's par is the exact value before move 1 and its best first moves
(``known_start``), which grade the first move exactly where the time per move cannot.

The review gets a worker and a ``Reviewer`` of its own (its table is built for this game's layout
and thrown away with it), so it never waits for, or stops, another search.
No pygame here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from battle.rules.game import Game, KnownStart
from battle.search_worker import SearchWorker, Task

if TYPE_CHECKING:  # the solver (numba) loads on the review's thread, not at import
    from battle.players import Review, Reviewer, ReviewStep

TABLE_MEGABYTES = 32
"""The reviewer's table (touched only as used): plenty for one game's positions."""


def _reviewer() -> Reviewer:
    from battle.players import Reviewer

    return Reviewer(megabytes=TABLE_MEGABYTES).open()


class ReviewJob:
    """One review: start it, poll ``progress`` / ``done`` once a frame, cancel it."""

    def __init__(
        self,
        game: Game,
        time_per_move: float,
        engine_factory: Callable[[], Reviewer] = _reviewer,
        known_start: KnownStart | None = None,
    ) -> None:
        self.game = game
        self.time_per_move = time_per_move
        self.known_start = known_start
        """The start's exact value and best moves, when the deal is catalogued (see ``review_game``)."""
        self.total = game.ply
        """Moves to review."""
        self._worker = SearchWorker(engine_factory, name="review")
        self._task: Task[Review] | None = None

    def start(self) -> ReviewJob:
        game, seconds, known = self.game, self.time_per_move, self.known_start

        def run(reviewer: Reviewer, task: Task[Review]) -> Review:
            return reviewer.review(
                game, seconds=seconds, progress=task.report, should_stop=task.cancelled.is_set, known_start=known
            )

        self._task = self._worker.submit(run, label="review")
        return self

    # -- polled by the window ----------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self._task is not None and self._task.finished

    @property
    def cancelled(self) -> bool:
        return self._task is not None and self._task.cancelled.is_set()

    @property
    def progress(self) -> ReviewStep | None:
        """The last ``ReviewStep`` reported (None before the first move is graded)."""
        task = self._task
        return None if task is None else cast("ReviewStep | None", task.progress)

    @property
    def reviewed(self) -> int:
        """Moves graded so far."""
        step = self.progress
        return 0 if step is None else min(step.number, self.total)

    @property
    def review(self) -> Review | None:
        """The finished ``Review`` (None while running, when cancelled, or after an error)."""
        task = self._task
        return None if task is None or task.cancelled.is_set() else task.result()

    @property
    def error(self) -> BaseException | None:
        return self._task.error if self._task is not None else None

    def cancel(self) -> None:
        """Stop as soon as possible: no more searches, and the running one is cut short."""
        self._worker.shutdown()

    def wait(self, timeout: float = 10.0) -> bool:
        """Block until the review's thread is idle (tests, orderly exits)."""
        return self._worker.wait_idle(timeout)
