"""Searches off the caller's thread: one service, one worker thread, one task at a time.

A window (or any program that must keep answering) hands a ``SearchWorker`` a
task, polls it once a frame and cancels it when the position changes under it.
The kernels release the GIL (``nogil=True``), so the caller really runs in
parallel with the search; a cancel stops the running search within
milliseconds.

The worker runs the tasks on one of ``battle.players``' services (an ``Opponent`` unless
told otherwise), which it builds on its own thread together with the service's engine
(importing numba, loading the kernels and allocating the table take from a few hundred
milliseconds to the first-run compile's seconds, which a drawing thread must never spend),
and keeps from one task to the next, so its transposition table carries over.

Stops never leak from one task into the next: a cancel stops the service only
while the cancelled task is the one running (both under the worker's lock), and
the worker clears the service's stop flag before it starts a task.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from battle.rules.board import Position

if TYPE_CHECKING:  # the solver (numba) loads on the worker's thread, never on the caller's
    from battle.players import Analysis, Limits, Opponent, ProgressCallback

T = TypeVar("T")


class Searcher(Protocol):
    """What a worker runs its tasks on: a ``battle.players`` service (or, in tests, an engine)."""

    def search(
        self,
        position: Position,
        limits: Limits = ...,
        *,
        all_exact: bool = ...,
        progress: ProgressCallback | None = ...,
    ) -> Analysis: ...

    def stop(self) -> None: ...

    def clear_stop(self) -> None: ...


S = TypeVar("S", bound=Searcher)


def prepare_solver(closing: threading.Event, waited_on: threading.Event) -> None:
    """A ``prepare`` hook: load the search kernels on the worker's thread; on a first run they
    compile in child processes first (``solver.compile_ahead``), which ``closing`` ends, below
    the window's priority until ``waited_on`` says a player waits for them."""
    from battle.players import prepare_kernels

    prepare_kernels(closing, window=True, waited_on=waited_on)


def _default_service() -> Opponent:
    from battle.players import Opponent

    return Opponent().open()


class Task(Generic[T]):
    """One piece of work for a ``SearchWorker``: what it runs, its progress and its outcome.

    ``run(service, task)`` executes on the worker thread; it reads ``task.cancelled``
    between the searches it chains and may ``report`` progress for the caller.
    """

    def __init__(self, run: Callable[[Any, Task[T]], T], *, label: str = "", key: object = None) -> None:
        self.run = run
        self.label = label
        """What the task is for (``"move"``, ``"hint"``...), for the caller's own bookkeeping."""
        self.key = key
        """What it was asked about (typically ``Position.key()``), to check an answer still fits."""
        self.cancelled = threading.Event()
        self.started_at: float | None = None
        """``time.monotonic()`` when the worker began it; None while it waits."""
        self._lock = threading.Lock()
        self._progress: object = None
        self._result: T | None = None
        self._error: BaseException | None = None
        self._finished = threading.Event()

    # -- the worker's side -----------------------------------------------------------------

    def report(self, progress: object) -> None:
        """Called on the worker thread: the latest progress, for ``progress``."""
        with self._lock:
            self._progress = progress

    def _execute(self, service: Searcher) -> None:
        self.started_at = time.monotonic()
        try:
            result = None if self.cancelled.is_set() else self.run(service, self)
        except BaseException as error:  # handed to the caller's thread, never lost in this one
            with self._lock:
                self._error = error
        else:
            with self._lock:
                self._result = result
        self._finished.set()

    def _end_unstarted(self, error: BaseException | None = None) -> None:
        """Finish without running: cancelled while waiting, or no service to run on."""
        with self._lock:
            self._error = error
        self._finished.set()

    # -- the caller's side -----------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self._finished.is_set()

    @property
    def progress(self) -> object:
        """The last thing ``report`` was given (None before the first report)."""
        with self._lock:
            return self._progress

    @property
    def error(self) -> BaseException | None:
        """What the run raised (a solver bug, a service that could not be built), if anything."""
        with self._lock:
            return self._error

    def result(self) -> T | None:
        """The run's return value once finished (None before, and for a task cancelled before it began)."""
        with self._lock:
            return self._result

    def elapsed(self) -> float:
        return 0.0 if self.started_at is None else time.monotonic() - self.started_at

    def wait(self, timeout: float | None = None) -> bool:
        """Block until finished (tests and scripts; a window polls instead)."""
        return self._finished.wait(timeout)


class SearchWorker(Generic[S]):
    """Runs tasks on one service and one daemon thread, newest first: submitting cancels the current task."""

    def __init__(
        self,
        engine_factory: Callable[[], S] = _default_service,  # type: ignore[assignment]
        name: str = "solver",
        prepare: Callable[[threading.Event, threading.Event], object] | None = None,
    ) -> None:
        """``engine_factory`` builds the service on the worker's thread (default: an ``Opponent``).
        ``prepare`` runs there right after, before any task: loading (on a first run,
        compiling) the kernels there keeps them off the first task. It is given an event set
        by ``shutdown``, to end early when the program closes, and ``waited_on``."""
        self._engine_factory = engine_factory
        self._prepare = prepare
        self._name = name
        self._service: S | None = None
        self.engine_error: BaseException | None = None
        """Why the service could not be built (numba missing, no memory); every task then fails with it."""
        self._lock = threading.Condition()
        self._thread: threading.Thread | None = None
        self._waiting: Task | None = None
        self._running: Task | None = None
        self._closing = threading.Event()
        """Set once by ``shutdown``: no more tasks, and the ``prepare`` hook stops early."""
        self.waited_on = threading.Event()
        """Set once a task is submitted before the service is ready: someone waits for ``prepare``."""
        self.current: Task | None = None
        """The task submitted last and not yet collected by ``poll`` or cancelled."""

    # -- the caller's side -----------------------------------------------------------------

    def warm_up(self) -> None:
        """Start the thread and build the service now, before the first task needs it."""
        with self._lock:
            self._ensure_thread()

    @property
    def ready(self) -> bool:
        """The service is built: a task submitted now starts at once."""
        return self._service is not None

    def submit(self, run: Callable[[S, Task[T]], T], *, label: str = "", key: object = None) -> Task[T]:
        """Queue ``run`` as the current task, cancelling the one before; it starts once the service is free."""
        task: Task[T] = Task(run, label=label, key=key)
        with self._lock:
            if self._closing.is_set():
                raise RuntimeError(f"the {self._name} worker is shut down")
            self._cancel_locked()
            if self._service is None:
                self.waited_on.set()
            self.current = task
            self._waiting = task
            self._ensure_thread()
            self._lock.notify_all()
        return task

    def search(
        self, position: Position, limits: Limits | None = None, *, all_exact: bool = False, key: object = None
    ) -> Task[Analysis]:
        """Submit one search of ``position`` (no limits: exact); its ``progress`` is the
        last iteration's ``Progress``."""
        position = position.copy()

        def run(service: S, task: Task[Analysis]) -> Analysis:
            from battle.players import Limits

            return service.search(position, limits or Limits(), all_exact=all_exact, progress=task.report)

        return self.submit(run, label="search", key=position.key() if key is None else key)

    def cancel(self) -> None:
        """Drop the current task: it never starts, or its search is stopped and its result ignored."""
        with self._lock:
            self._cancel_locked()

    def poll(self) -> Task | None:
        """Once a frame: the current task once it has finished (then no task is current), else None."""
        task = self.current
        if task is None or not task.finished:
            return None
        self.current = None
        return task

    @property
    def busy(self) -> bool:
        """A task is current (waiting or running)."""
        return self.current is not None

    @property
    def stopping(self) -> bool:
        """A cancelled task still runs (its search ends within milliseconds)."""
        running = self._running
        return running is not None and running.cancelled.is_set()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until no task runs or waits (tests and orderly exits)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._running is not None or self._waiting is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
        return True

    def shutdown(self) -> None:
        """Cancel everything and let the thread end; the worker takes no more tasks."""
        with self._lock:
            self._cancel_locked()
            self._closing.set()
            self._lock.notify_all()

    def join(self) -> None:
        """After ``shutdown``, wait for the thread to end: a kernel load in progress finishes (about a
        second), as the interpreter's exit would freeze the thread wherever it stands, LLVM's lock
        included, and then wait on that lock for ever (see ``battle.cli.warm_up``)."""
        if self._thread is not None:
            self._thread.join()

    # -- the worker thread -----------------------------------------------------------------

    def _cancel_locked(self) -> None:
        task = self.current
        self.current = None
        if task is None:
            return
        task.cancelled.set()
        if self._waiting is task:
            self._waiting = None
            task._end_unstarted()
        if self._running is task and self._service is not None:
            self._service.stop()

    def _ensure_thread(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name=self._name, daemon=True)
            self._thread.start()

    def _build_service(self) -> S | None:
        try:
            service = self._engine_factory()
            if self._prepare is not None:
                self._prepare(self._closing, self.waited_on)
        except BaseException as error:  # reported through every task, so the caller can say why
            self.engine_error = error
            return None
        self._service = service
        return service

    def _work(self) -> None:
        service = self._build_service()
        while True:
            with self._lock:
                while self._waiting is None and not self._closing.is_set():
                    self._lock.wait()
                task = self._waiting
                if self._closing.is_set() or task is None:
                    self._lock.notify_all()
                    return
                self._waiting = None
                self._running = task
                if service is not None:
                    service.clear_stop()
            if service is None:
                task._end_unstarted(self.engine_error or RuntimeError("no engine"))
            else:
                task._execute(service)
            with self._lock:
                self._running = None
                self._lock.notify_all()
