"""Works out the par of the deal being played when no catalogue knows it, in the background.

A deal's par is its exact value before move 1; the shipped catalogue holds 62 deals, and any
other takes a complete solve: a few minutes of two threads, some deals over twenty (the survey's
exact solves took 18 s to 807 s, median 199 s, and one stopped at 4 G nodes; docs/solver-notes.md).
This runs that solve on one thread at the lowest priority (niceness 19: a thread the player waits for
gets the core), and stops it whenever the front end's solver works for the player (a move, a hint,
an analysis, a review: ``pause``) and while the machine runs on its battery (``on_battery``),
starting again from the same table when the solver is free, so the work done stays in the table.
A par found is kept by ``keep`` (the window's and the terminal's: ``keep_in_survey``, in the user's
survey database, where every later run, ``play``, ``show``, ``deal`` and ``par`` find it), so no
deal is solved twice. No pygame here.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from battle.atlas.catalogue import Par
from battle.atlas.solve_deal import deal_result, start_position
from battle.rules.board import Position
from battle.storage.power import on_battery

if TYPE_CHECKING:
    from battle.atlas.survey_db import DealResult
    from battle.players import DealSolver

PAR_MEGABYTES = 256
"""The table of the background solve: a complete deal's best speed wants 2 GiB, more than a
window should take beside its own solver; a smaller table costs the solve time, not its value."""
POWER_EVERY = 10.0
"""Seconds between two looks at the power supply: a laptop unplugged stops the solve within them, and
a look (a few small files read) every 10 s costs nothing a player would see."""
BACKGROUND_NICENESS = 19
"""The lowest priority a thread can have: the par's solve takes only what nothing else wants."""


class ParFinder:
    """One deal's par at a time, on a thread of its own started at the first ``want``."""

    def __init__(
        self,
        keep: Callable[[DealResult], None],
        *,
        start_of: Callable[[int], Position] = start_position,
        megabytes: int = PAR_MEGABYTES,
        battery: Callable[[], bool] | None = None,
        power_every: float = POWER_EVERY,
    ) -> None:
        self._keep = keep
        self._start_of = start_of
        self._megabytes = megabytes
        self._battery = battery or (lambda: on_battery())  # the platform's, looked up when asked
        self._power_every = power_every
        self._lock = threading.Condition()
        self._wanted: int | None = None
        self._paused = False
        self.on_battery = False
        """The platform says the machine runs on its battery: the solve stands aside until mains."""
        self._closing = False
        self._searching: int | None = None
        """The deal whose solve runs now (None while waiting or paused)."""
        self._found: dict[int, Par] = {}
        self._bounds: dict[int, int] = {}
        """The best lower bound on each deal's par seen in its exact search (kept over pauses)."""
        self._solver: DealSolver | None = None
        self._thread: threading.Thread | None = None
        self.waiting = False
        """The thread waits for a deal or for the solver to be free (read under no lock: a test's look)."""
        self.solves = 0
        """Solves started (a pause and a resume make two)."""

    # -- the window's side ---------------------------------------------------------------------

    def want(self, deal: int) -> None:
        """Work out ``deal``'s par (a deal wanted before it is dropped: one deal at a time)."""
        with self._lock:
            if self._closing or deal in self._found or deal == self._wanted:
                return
            self._wanted = deal
            self._stop_locked()
            self._lock.notify_all()
            if self._thread is None:
                self.on_battery = self._battery()  # before the first solve: one unplugged never starts one
                self._thread = threading.Thread(target=self._run, name="par-finder", daemon=True)
                self._thread.start()
                threading.Thread(target=self._watch_power, name="par-finder-power", daemon=True).start()

    def pause(self, paused: bool) -> None:
        """Stop the solve while the window's solver works for the player; go on when it is free."""
        with self._lock:
            if paused == self._paused:
                return
            self._paused = paused
            if paused:
                self._stop_locked()
            self._lock.notify_all()

    def found(self, deal: int) -> Par | None:
        with self._lock:
            return self._found.get(deal)

    def working(self) -> bool:
        """Whether a deal's par is being worked out."""
        with self._lock:
            return self._wanted is not None

    def working_on(self, deal: int) -> bool:
        """Whether ``deal``'s par is being worked out (running, or waiting for the solver to be free)."""
        with self._lock:
            return deal == self._wanted and deal not in self._found

    def lower_bound(self, deal: int) -> int | None:
        """The least ``deal``'s par can be, from its exact search so far (None before its first
        root move is proved)."""
        with self._lock:
            solver = self._solver if self._searching == deal else None
            bound = self._bounds.get(deal)
        if solver is not None:
            with contextlib.suppress(RuntimeError):  # the engine is not built yet
                proved = solver.status().proved
                if proved is not None:
                    bound = proved if bound is None else max(bound, proved)
                    with self._lock:
                        self._bounds[deal] = bound
        return bound

    def wait_found(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the wanted deal's par; True once no par is being worked out."""
        with self._lock:
            return self._lock.wait_for(lambda: self._wanted is None or self._closing, timeout)

    def wait_waiting(self, timeout: float) -> bool:
        """Wait until the thread waits (for a deal, or for the solver to be free); False after ``timeout``."""
        with self._lock:
            return self._lock.wait_for(lambda: self.waiting, timeout)

    def shutdown(self, timeout: float = 5.0) -> bool:
        """Stop the solve and the thread; True once the thread has ended within ``timeout``."""
        with self._lock:
            self._closing = True
            self._stop_locked()
            self._lock.notify_all()
            thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    # -- the thread ----------------------------------------------------------------------------

    def _stop_locked(self) -> None:
        if self._solver is not None and self._searching is not None:
            self._solver.stop()

    def _watch_power(self) -> None:
        """Every ``power_every`` seconds: on battery, the solve stops and waits; on mains, it goes on."""
        while True:
            battery = self._battery()
            with self._lock:
                if self._closing:
                    return
                if battery != self.on_battery:
                    self.on_battery = battery
                    if battery:
                        self._stop_locked()
                    self._lock.notify_all()
                self._lock.wait(self._power_every)

    def _run(self) -> None:
        try:
            self._solve_wanted()
        finally:
            with self._lock:
                self._solver = None  # a finder shut down lets its table go, though it is still referenced

    def _solve_wanted(self) -> None:
        with contextlib.suppress(AttributeError, OSError):  # Linux sets a thread's niceness; elsewhere it stays
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), BACKGROUND_NICENESS)
        while True:
            with self._lock:
                while not self._closing and (self._paused or self.on_battery or self._wanted is None):
                    self.waiting = True
                    self._lock.notify_all()
                    self._lock.wait()
                self.waiting = False
                if self._closing:
                    return
                deal = self._wanted
                assert deal is not None
                self._searching = deal
                self.solves += 1
            start = self._start_of(deal)  # the terminal's waits here for the kernels' warm-up
            try:
                with self._lock:
                    if self._closing or self._paused or self.on_battery or self._wanted != deal:
                        self._searching = None
                        continue  # the table is not even made for a finder that is leaving
                    solver = self._solver_locked()
                    solver.clear_stop()  # a pause from here on stops this solve
                began = time.monotonic()
                analysis = solver.solve(start)
            except Exception:  # noqa: BLE001 - no solver here (numba missing, no memory): no par, the game goes on
                with self._lock:
                    self._searching = None
                    self._wanted = None
                    self._lock.notify_all()
                return
            with self._lock:
                self._searching = None
                if not analysis.exact:
                    continue  # paused or redirected: the table keeps the work for the next start
                result = deal_result(deal, start.tiles_left(), analysis, time.monotonic() - began, None)
                self._found[deal] = Par.of(result)  # kept even if another is wanted now
                if self._wanted == deal:
                    self._wanted = None
                self._lock.notify_all()
            self._keep(result)

    def _solver_locked(self) -> DealSolver:
        if self._solver is None:
            from battle.players import DealSolver

            self._solver = DealSolver(max_megabytes=self._megabytes, threads=1)
        return self._solver


def keep_in_survey(result: DealResult) -> str | None:
    """Store a par found in the user's survey database; the one line to say when it cannot be kept."""
    from battle.atlas.survey_db import SurveyDatabase, SurveyDatabaseError
    from battle.i18n import _
    from battle.storage.paths import StorageProblem

    try:
        with SurveyDatabase() as database:
            database.store(result, time.time())
    except (SurveyDatabaseError, StorageProblem, OSError) as error:
        said = _("The par of deal {deal} is known now, but could not be kept for later runs: {error}")
        return said.format(deal=result.deal, error=error)
    return None
