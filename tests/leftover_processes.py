"""Every process a test starts ends with the test: the tests' own ``serve``, terminal games,
windows, clusters and proxies, found among the test process's descendants by PID (with its start
time, so a reused PID is never taken for another).

A process started while a module- or session-scoped fixture was set up (the web tests' Chromium, a
module's server) belongs to that fixture and must be gone once the fixture is finalised; its own
descendants (Chromium's renderers) are its business. Python's per-process helpers that live as long
as the process that started them (multiprocessing's resource tracker and fork server) are not
leftovers, though the workers a fork server started are.

A leftover is given ``GRACE_SECONDS`` to end by itself (a process told to stop that the test did
not wait for), then it and its descendants are killed by PID, and the test is failed naming them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field

import psutil

GRACE_SECONDS = 10.0
"""How long a leftover may take to end by itself: a server told to stop on a loaded machine takes
a second or two to write its last lines; ten is far past that and still short beside a test."""
HELPERS = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")
"""Command-line fragments of the interpreter's own helpers, started once for the process that uses
them and ended with it."""

Key = tuple[int, float]
"""A process by PID and start time."""


def key_of(process: psutil.Process) -> Key | None:
    try:
        return process.pid, process.create_time()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None


def running_descendants() -> dict[Key, psutil.Process]:
    """This process's descendants that still run (a zombie has ended; only its exit status is left)."""
    found: dict[Key, psutil.Process] = {}
    for process in psutil.Process().children(recursive=True):
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                continue
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        key = key_of(process)
        if key is not None:
            found[key] = process
    return found


def command_line(process: psutil.Process) -> str:
    try:
        words = process.cmdline()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return f"pid {process.pid} (gone)"
    line = " ".join(words) or process.name()
    return f"pid {process.pid}: {line[:200]}"


def is_helper(process: psutil.Process) -> bool:
    try:
        line = " ".join(process.cmdline())
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return True
    return any(fragment in line for fragment in HELPERS)


def ancestors(process: psutil.Process) -> set[Key]:
    keys: set[Key] = set()
    try:
        for parent in process.parents():
            key = key_of(parent)
            if key is not None:
                keys.add(key)
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        pass
    return keys


def end_and_name(processes: Iterable[psutil.Process]) -> list[str]:
    """Wait up to ``GRACE_SECONDS`` for ``processes`` to end; kill the rest with their descendants.
    Returns the command lines of those that had to be killed."""
    waiting = list(processes)
    _, alive = psutil.wait_procs(waiting, timeout=GRACE_SECONDS)
    names = [command_line(process) for process in alive]
    for process in alive:
        try:
            family = [*process.children(recursive=True), process]
        except psutil.NoSuchProcess:
            continue
        for member in family:
            with contextlib.suppress(psutil.NoSuchProcess):
                member.kill()
        psutil.wait_procs(family, timeout=GRACE_SECONDS)
    return names


@dataclass
class ProcessLedger:
    """Which running descendants belong to which higher-scoped fixture."""

    owned: dict[str, set[Key]] = field(default_factory=dict)
    """Processes by the fixture (``scope:name``) whose set-up started them."""

    def all_owned(self) -> set[Key]:
        return set().union(*self.owned.values()) if self.owned else set()

    def new_since(self, before: dict[Key, psutil.Process]) -> list[psutil.Process]:
        """Processes running now that did not run in ``before`` and belong to no fixture, nor below
        a process that ran before or that a fixture owns (Chromium starts and restarts its own
        helpers whenever it likes), and are not the interpreter's own helpers."""
        older = self.all_owned() | set(before)
        return [
            process
            for key, process in running_descendants().items()
            if key not in older and not (ancestors(process) & older) and not is_helper(process)
        ]

    def hand_over(self, processes: Iterable[psutil.Process], fixture: str) -> bool:
        """Give ``processes`` to the running higher-scoped fixture named ``fixture`` (a pool whose
        worker a test killed starts its replacement during the test); False when no such fixture
        owns processes."""
        owner = next((name for name in self.owned if name.partition(":")[2] == fixture), None)
        if owner is None:
            return False
        self.owned[owner].update(key for process in processes if (key := key_of(process)) is not None)
        return True
