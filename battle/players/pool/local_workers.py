"""The solver pool on this machine: one worker process per core, each with its own engine.

Each worker is a process of its own (started by ``multiprocessing``'s spawn, never forked from a
server with threads), so searches run on every core without sharing an interpreter lock, and
keeps one ``PoolServices`` (its engine and transposition table) from one unit to the next.
Units and results travel over a pipe as pickles of the pool's own dataclasses.

The kernels before the first search: a worker, once started, answers the moves of the levels
beginner to expert from plain Python at once, and every other unit once its kernels are
loaded. On a first run, when numba's cache lacks them, one worker compiles them (in child
processes, about 10 s of a core; ``battle.players.prepare_kernels``) while the others wait for
the cache rather than compile the same kernels beside it; then they load them (about a second).

Long units at a lower priority: a worker runs a short move (``schedule.SHORT_SECONDS``) on a
thread of normal priority and every other unit on a thread of niceness ``LONG_NICENESS``, so that
on a machine with as many workers as cores a long search yields the CPU to a short move's
search, to the server's own process, and to nothing else's loss when the machine is idle.

Slices: a long unit's run is one slice (``jobs.SLICE_NODES``); its worker answers its progress
and takes whatever the schedule gives next first, so a unit whose next slice comes next stays on the
worker that holds its table. A background slice whose worker a waiting move needs is told to end
early (``yield``): its search stops as at its node limit and answers its progress. A slice its thread
has not taken up yet is answered at once by the worker's listening thread, as a slice that searched
nothing: dropped, such a yield left a beginner's move waiting behind a par's whole slice (10 CPU
seconds at niceness 10), and a thread of niceness 10 beside busy loops took 17 s to take such a
slice up only to end it.

Stopping: a running unit is stopped through the solver's own stop (the worker's listening thread
sets it; the search answers within milliseconds and the worker takes the next unit), which is
far cheaper than killing the process and starting another (a new worker needs seconds to import
numba, load the kernels and touch its table: ``benchmarks/pool_load.py --cancel``). A worker
that dies (killed, out of memory) is started again and its unit retried (``MAX_TRIES``); the
watchdog kills one whose unit runs far past its limit and ignores the stop, or that stops using
the CPU altogether while it holds a unit (blocked), and fails that unit.

The watchdog counts the worker's CPU seconds, not the wall clock's: a unit's limit is nodes (or
CPU seconds), and on a loaded machine its wall time is many times its CPU time (a 2-move game's
review took 22 s of wall clock at load 25-45, and a wall-clock watchdog failed 7 of 14 of them).
Where the system tells no process's CPU time (no ``/proc``), it counts wall seconds.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from battle.players.pool.jobs import DEFAULT_WORKER_MEGABYTES, Continued, slice_seconds
from battle.players.pool.queue import SolverPool
from battle.players.pool.schedule import MAX_WAITING, Budget

WATCHDOG_FACTOR = 4.0
WATCHDOG_SLACK = 10.0
"""A run (a slice of a long unit, or a short unit whole) that has used ``WATCHDOG_FACTOR`` times its
cost plus this many CPU seconds of its worker is told to stop: its own node limit should have ended
it long before (a core four times slower than the budget assumes, a first search that also touches
its table). The heartbeat of a sliced unit is its slice: a worker that answers no slice within
``WATCHDOG_FACTOR * SLICE_SECONDS + WATCHDOG_SLACK`` (12) CPU seconds is stopped, then replaced."""
STOP_GRACE = 5.0
"""CPU seconds a unit told to stop by the watchdog may still use before its worker is killed."""
BLOCKED_SECONDS = 60.0
"""Seconds of the wall clock in which a worker holding a unit used no CPU at all: it is blocked (a
stopped process, a deadlock), not slow, since even a niceness-10 thread beside busy loops gets a
tenth of a core; it is killed and its unit failed."""
WATCH_EVERY = 1.0
"""How often the watchdog reads the CPU time of the workers that hold a unit."""
QUIT_WAIT = 5.0
"""Seconds ``close`` waits for the workers to end before it kills them."""
LONG_NICENESS = 10
"""The niceness of the thread that runs a worker's long units: at 10 a search shares a core with a
process of niceness 0 about one part in ten (Linux's weights, 110 against 1024), so a club
move's 0.02 s search on a core a perfect search fills takes about as long as alone."""


@dataclass
class _Slot:
    """One worker process as the pool sees it."""

    index: int
    process: BaseProcess | None = None
    connection: Connection | None = None
    state: str = "starting"
    """``starting``, ``plain`` (answers shallow moves while its kernels load), ``ready``, or ``gone``."""
    prepared: bool = False
    """Told to load the kernels."""
    unit: int | None = None
    allowance: float = float("inf")
    """CPU seconds of the worker at which its unit is told to stop (or, once told, its worker killed)."""
    cpu_seen: float = 0.0
    """The worker's CPU seconds at the watchdog's last look."""
    cpu_moved_at: float = 0.0
    """When (the monotonic clock) the worker's CPU time last grew while it held a unit."""
    stop_sent: bool = False
    overran: bool = False
    generation: int = 0
    """Counts its processes, so that news from a dead one is not taken for its successor's."""
    pid: int | None = None
    sending: threading.Lock = field(default_factory=threading.Lock)


class LocalPool(SolverPool):
    """The pool on ``workers`` worker processes (default: one per core), each with a table of
    ``megabytes``. The other arguments are ``SolverPool``'s."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        budget: Budget | None = Budget(),
        max_waiting: int = MAX_WAITING,
        move_reserve: int | None = None,
        megabytes: int = DEFAULT_WORKER_MEGABYTES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        count = workers if workers is not None else os.cpu_count() or 1
        super().__init__(count, budget=budget, max_waiting=max_waiting, move_reserve=move_reserve, clock=clock)
        self._megabytes = megabytes
        self._context = multiprocessing.get_context("spawn")
        self._slots = [_Slot(index) for index in range(count)]
        self._kernels_cached = False
        """Whether the kernels are in numba's cache: a worker says so when it starts (this process loads
        no numba to look)."""
        self._compiler: _Slot | None = None
        """The worker compiling the kernels on a first run (the others wait for it)."""
        with self._lock:
            for slot in self._slots:
                self._start_locked(slot)
        self._watchdog = threading.Thread(target=self._watch, name="solver-pool-watchdog", daemon=True)
        self._watchdog.start()

    # -- the workers ---------------------------------------------------------------------------

    def _start_locked(self, slot: _Slot) -> None:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(
            target=worker_main, args=(theirs, self._megabytes), name=f"solver-worker-{slot.index}", daemon=True
        )
        process.start()
        theirs.close()
        slot.process, slot.connection, slot.pid = process, ours, process.pid
        slot.state, slot.prepared, slot.generation = "starting", False, slot.generation + 1
        reader = threading.Thread(
            target=self._read,
            args=(slot, slot.generation, ours, process),
            name=f"solver-pool-{slot.index}",
            daemon=True,
        )
        reader.start()

    def _read(self, slot: _Slot, generation: int, connection: Connection, process: BaseProcess) -> None:
        """One worker's messages, until its pipe closes (it ended or died)."""
        while True:
            try:
                message = connection.recv()
            except (EOFError, OSError):  # the worker is gone
                break
            with self._lock:
                if slot.generation != generation:
                    break
                actions = self._message_locked(slot, message)
                self._dispatch_locked(first=slot)
            self._settle(actions)
        process.join(QUIT_WAIT)
        connection.close()
        with self._lock:
            if slot.generation != generation:
                return
            actions = self._gone_locked(slot)
            self._dispatch_locked()
        self._settle(actions)

    def _message_locked(self, slot: _Slot, message: tuple) -> list:
        kind = message[0]
        if kind == "started":
            slot.state = "plain"
            self._kernels_cached = self._kernels_cached or message[2]
            self._prepare_locked()
        elif kind == "ready":
            slot.state = "ready"
            if not self._kernels_cached:
                self._kernels_cached = True
                self._compiler = None
                self._prepare_locked()
        elif kind == "done":
            _, unit, result, error, cpu = message
            slot.unit, slot.allowance, slot.stop_sent = None, float("inf"), False
            return self._ended_locked(unit, result, error, cpu)
        return []

    def _prepare_locked(self) -> None:
        """Tell the started workers to load the kernels: all of them once the kernels are in numba's
        cache, else one (the compiler)."""
        for slot in self._slots:
            if slot.state == "plain" and not slot.prepared:
                if not self._kernels_cached:
                    if self._compiler is not None and self._compiler.state != "gone":
                        continue
                    self._compiler = slot
                slot.prepared = True
                self._send_locked(slot, ("prepare",))

    def _gone_locked(self, slot: _Slot) -> list:
        """A worker's process ended: its unit is retried (or fails), and unless the pool closes, another starts."""
        unit, overran = slot.unit, slot.overran
        slot.state, slot.unit, slot.allowance, slot.stop_sent, slot.overran = "gone", None, float("inf"), False, False
        actions = []
        if unit is not None:
            if overran:  # its address pays the whole reservation: what it used is not known
                held = self._schedule.unit(unit)
                spent = 0.0 if held is None else held.reserved
                actions = self._ended_locked(unit, None, "the search did not stop at its limit", spent)
            else:
                actions = self._lost_locked(unit)
        if self._compiler is slot:
            self._compiler = None
        if not self._closed:
            self._start_locked(slot)
            self._prepare_locked()
        return actions

    def _send_locked(self, slot: _Slot, message: tuple) -> None:
        connection = slot.connection
        if connection is None:
            return
        with slot.sending, contextlib.suppress(OSError):  # a worker that died meanwhile: its reader tells
            connection.send(message)

    # -- the adapter's part -------------------------------------------------------------------

    def _dispatch_locked(self, first: _Slot | None = None) -> None:
        """Give the free workers what the schedule takes next; ``first``, a worker that has just ended
        a run, chooses first: a long unit's next slice, when it comes next, then finds its table there."""
        if self._closed:
            return
        slots = self._slots if first is None else [first, *(slot for slot in self._slots if slot is not first)]
        for slot in slots:
            if slot.unit is not None or slot.state not in ("plain", "ready"):
                continue
            taken = self._take_locked(plain_only=slot.state == "plain")
            if taken is None:
                continue
            unit, job, progress = taken
            slot.unit = unit.id
            slot.cpu_seen, slot.cpu_moved_at = worker_seconds(slot.pid), time.monotonic()
            slot.allowance = slot.cpu_seen + WATCHDOG_FACTOR * slice_seconds(job) + WATCHDOG_SLACK
            self._send_locked(slot, ("run", unit.id, job, unit.short, progress))
        self._yield_locked()
        self._lock.notify_all()

    def _stop_locked(self, unit: int) -> None:
        self._tell_runner_locked(unit, "stop")

    def _end_slice_locked(self, unit: int) -> None:
        self._tell_runner_locked(unit, "yield")

    def _tell_runner_locked(self, unit: int, what: str) -> None:
        """Send ``(what, unit)`` to the worker running ``unit``."""
        for slot in self._slots:
            if slot.unit == unit:
                self._send_locked(slot, (what, unit))

    def _worker_counts_locked(self) -> dict[str, int]:
        return {
            "workers": len(self._slots),
            "workers_ready": sum(slot.state == "ready" for slot in self._slots),
            "workers_plain": sum(slot.state == "plain" for slot in self._slots),
        }

    def worker_pids(self) -> list[int | None]:
        """Each worker's process id (None while one starts again), for a test that kills one."""
        with self._lock:
            return [slot.pid if slot.state != "gone" else None for slot in self._slots]

    def wait_ready(self, timeout: float) -> bool:
        """Block until every worker has its kernels loaded (scripts and tests)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not all(slot.state == "ready" for slot in self._slots):
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    return False
                self._lock.wait(left)
        return True

    def _watch(self) -> None:
        """Stop a unit far past its limit in its worker's CPU seconds, then kill its worker if the stop
        is not obeyed; kill a worker that holds a unit and uses no CPU for ``BLOCKED_SECONDS``.

        It looks every ``WATCH_EVERY`` seconds by its own clock while any unit runs: the condition it
        waits on is notified at every dispatch, and a look just after each (a busy pool dispatches
        slices and short moves several times a second) would never find a unit overdue."""
        look_at = 0.0
        with self._lock:
            while not self._closed:
                now = time.monotonic()
                if not any(slot.unit is not None for slot in self._slots):
                    look_at = now + WATCH_EVERY
                    self._lock.wait(60.0)
                    continue
                if now < look_at:
                    self._lock.wait(look_at - now)
                    continue
                look_at = now + WATCH_EVERY
                for slot in self._slots:
                    if slot.unit is None:
                        continue
                    used = worker_seconds(slot.pid)
                    if used > slot.cpu_seen:
                        slot.cpu_seen, slot.cpu_moved_at = used, now
                    blocked = now - slot.cpu_moved_at >= BLOCKED_SECONDS
                    if used < slot.allowance and not blocked:
                        continue
                    if not slot.stop_sent and not blocked:
                        slot.stop_sent = True
                        slot.allowance = used + STOP_GRACE
                        self._send_locked(slot, ("stop", slot.unit))
                    elif slot.process is not None and not slot.overran:
                        slot.overran = True
                        slot.process.kill()

    def _shut_down(self) -> None:
        with self._lock:
            slots = list(self._slots)
            for slot in slots:
                self._send_locked(slot, ("quit",))
            self._lock.notify_all()
        deadline = time.monotonic() + QUIT_WAIT
        for slot in slots:
            process = slot.process
            if process is None:
                continue
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(QUIT_WAIT)


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") and "SC_CLK_TCK" in os.sysconf_names else 100
"""The unit of ``/proc``'s CPU times."""


def worker_seconds(pid: int | None) -> float:
    """The CPU seconds (user and system, every thread) process ``pid`` has used, from ``/proc``; where
    there is no ``/proc`` (or the process is gone), the wall clock's seconds, so that the watchdog
    counts wall time there as it must."""
    if pid is not None:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        except (OSError, ValueError, IndexError):
            pass
    return time.monotonic()


# -- the worker process ----------------------------------------------------------------------


def lower_priority(niceness: int) -> None:
    """Raise the calling thread's niceness by ``niceness`` (Linux: a thread's own; elsewhere nothing,
    as other systems would lower the whole process's)."""
    if sys.platform == "linux":
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0) + niceness)


def worker_main(connection: Connection, megabytes: int) -> None:
    """A worker process: runs units one at a time on its ``PoolServices`` (a short move on a thread of
    normal priority, any other unit on one of niceness ``LONG_NICENESS``) while this thread listens
    to the pool (a stop reaches the running search at once)."""
    from battle.players import kernels_ready
    from battle.players.pool.unit_search import PoolServices  # the solver and numba: the worker's, not the server's

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in a server's terminal is the server's to handle
    services = PoolServices(megabytes)
    kernels = threading.Event()
    state = threading.Lock()
    running: list = [None, False, False]
    """The running unit's id, whether it was told to stop and whether to end its slice now."""
    stopped_early: deque[int] = deque(maxlen=64)
    """Units told to stop while still queued here: skipped when their turn comes."""
    queued: list = [None]
    """The run sent here that its thread has not taken up yet: ``[unit, job, progress, answered]``."""
    sending = threading.Lock()

    def send(message: tuple) -> None:
        with sending:
            connection.send(message)

    def prepare() -> None:
        from battle.players import prepare_kernels

        try:
            seconds = prepare_kernels()
            services.open()
        except Exception:  # noqa: BLE001 - no kernels: every search fails with the reason, reported per unit
            seconds = 0.0
        else:
            kernels.set()
        send(("ready", seconds))

    def work(units: queue.Queue, niceness: int) -> None:
        if niceness:
            lower_priority(niceness)
        while True:
            taken = units.get()
            unit, job, progress, _ = taken
            with state:
                if queued[0] is taken:
                    queued[0] = None
                if taken[3]:
                    continue  # yielded before it began: the listening thread answered it
                if unit in stopped_early:
                    send(("done", unit, None, None, 0.0))
                    continue
                running[:] = [unit, False, False]
                services.clear_stop()
            started = time.thread_time()
            result, error = None, None
            try:
                result = services.run(
                    job,
                    kernels=kernels.is_set(),
                    cancelled=lambda: running[1],
                    progress=progress,
                    yielded=lambda: running[2],
                )
            except Exception as failure:  # noqa: BLE001 - a failed unit is the pool's to report, the worker goes on
                error = f"{type(failure).__name__}: {failure}"
            cpu = time.thread_time() - started
            with state:
                running[:] = [None, False, False]
            send(("done", unit, result, error, cpu))

    short_units: queue.Queue = queue.Queue()
    long_units: queue.Queue = queue.Queue()
    """One unit at a time in all (the pool sends the next once this one is done), each on its thread."""
    threading.Thread(target=work, args=(short_units, 0), name="solver-short-unit", daemon=True).start()
    threading.Thread(target=work, args=(long_units, LONG_NICENESS), name="solver-long-unit", daemon=True).start()
    send(("started", os.getpid(), kernels_ready()))
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):  # the pool is gone: so is this worker
            break
        if message[0] == "prepare":
            threading.Thread(target=prepare, name="solver-kernels", daemon=True).start()
        elif message[0] == "run":
            _, unit, job, short, progress = message
            with state:
                queued[0] = [unit, job, progress, False]
                (short_units if short else long_units).put(queued[0])
        elif message[0] == "stop":
            with state:
                if running[0] == message[1]:
                    running[1] = True
                    services.stop()
                else:
                    stopped_early.append(message[1])
        elif message[0] == "yield":
            with state:
                if running[0] == message[1] and not running[1]:
                    running[2] = True
                    services.stop()
                elif queued[0] is not None and queued[0][0] == message[1]:
                    queued[0][3] = True  # its slice ends before it began: the move need not wait for its thread
                    send(("done", message[1], Continued(queued[0][2]), None, 0.0))
                    queued[0] = None
        elif message[0] == "quit":
            break
    os._exit(0)  # a search may still run on the unit thread: end it with the process
