"""Searches in a background thread, so a window keeps drawing while the solver thinks.

The kernels release the GIL (``nogil=True``), so the UI thread really runs in
parallel; ``stop()`` sets the engine's stop flag and the search ends within
milliseconds with its best result so far.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from battle.rules.board import Position
from solver.engine import Analysis, Engine, Progress
from solver.limits import Limits


class BackgroundSearch:
    """One search on its own thread: start it, poll it from the UI loop, stop it.

    It runs ``engine.search(position, limits, all_exact=all_exact)``, or ``run(engine, position)`` when given
    (a search of the caller's own, e.g. a hint's quick search then its exact one).
    """

    def __init__(self, engine: Engine, position: Position, limits: Limits = Limits(), *, all_exact: bool = False,
                 run: Callable[[Engine, Position], object] | None = None) -> None:
        self.engine = engine
        self.position = position.copy()
        self._run = run
        self._limits = limits
        self._all_exact = all_exact
        self._lock = threading.Lock()
        self._progress: Progress | None = None
        self._result: object | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, name="solver", daemon=True)
        self._started = False

    def start(self) -> BackgroundSearch:
        self._started = True
        self._thread.start()
        return self

    def _report(self, progress: Progress) -> None:
        with self._lock:
            self._progress = progress

    def _work(self) -> None:
        try:
            if self._run is not None:
                result = self._run(self.engine, self.position)
            else:
                result = self.engine.search(self.position, self._limits, all_exact=self._all_exact,
                                            progress=self._report)
        except BaseException as error:  # reported to the UI thread, never lost
            with self._lock:
                self._error = error
            return
        with self._lock:
            self._result = result

    @property
    def done(self) -> bool:
        return self._started and not self._thread.is_alive()

    @property
    def progress(self) -> Progress | None:
        """The last completed iteration's report, if any."""
        with self._lock:
            return self._progress

    def result(self) -> object | None:
        """The finished result (an ``Analysis`` for a plain search), or None while running.

        Re-raises, in the caller's thread, an error the search thread hit.
        """
        with self._lock:
            if self._error is not None:
                raise self._error
            return self._result

    def analysis(self) -> Analysis | None:
        result = self.result()
        return result if isinstance(result, Analysis) else None

    def stop(self, wait: bool = True) -> None:
        """End the search early; with ``wait``, until its thread has finished."""
        self.engine.stop()
        if wait and self._started:
            self._thread.join()
