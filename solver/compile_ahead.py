"""The first run's compile in processes of their own, so that it never shares the GIL.

A fresh install compiles the search kernels once: about 10 s of one core. Compiled on a
thread of the window's process, the compile and the drawing thread take turns at the
GIL and the solver was ready only after 20-21 s (``benchmarks/warm_up.py``, a game on the
screen at 60 frames a second). ``prepare_kernels_apart`` compiles them in two child
processes instead: one compiles negamax with everything it calls (8 s), the other the
kernels around it (2 s); numba writes both to its cache, and this process then loads
the kernels from there in about a second. ``python -m solver.compile_ahead PART PID NICENESS``
is such a child, started by process PID.
"""

from __future__ import annotations

import contextlib
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

from solver.engine import compile_other_kernels, compile_search_kernel, kernels_cached, prepare_kernels

WINDOW_NICENESS = 5
"""For a window's compile: its frames come first (a frame that waited for a core took up to 68 ms
while two children at 0 and the window shared two cores; 48 ms at 10), yet a child still gets
a quarter of a core beside a busy program at 0 (a tenth at 10)."""
POLL = 0.05
"""Seconds between looks at the children and at ``stop``: a window closed meanwhile ends them this soon."""

PARTS = {"search": compile_search_kernel, "others": compile_other_kernels}


def prepare_kernels_apart(
    stop: threading.Event | None = None, niceness: int = 0, waited_on: threading.Event | None = None
) -> float:
    """Load the kernels into this process, compiling them first in child processes when
    numba's cache lacks them; returns the seconds it took. With ``stop`` set (the program is
    closing) the children are ended and nothing is loaded, not from the cache either. What no
    child compiled (none could start, or one failed) compiles here, as in ``prepare_kernels``.

    ``niceness`` puts the children below the program that waits for them (``WINDOW_NICENESS``
    for a window, whose frames come first); a program that only waits leaves it at 0, as a
    child at 10 gets a tenth of a core beside any busy program (a first ``solve`` took 102 s
    instead of 10 beside a survey on both cores). Once ``waited_on`` is set (a player waits for
    the solver's answer, or a game at a level that needs the kernels has begun) the children are
    raised to this program's own niceness: 142 s for a first reply beside two busy cores at 5,
    under a minute at 0 (``benchmarks/README.md``). Where
    the system would refuse to raise them again (an ordinary user's ``RLIMIT_NICE`` of 0), they
    start at this program's niceness instead."""
    started = time.monotonic()
    stop = stop or threading.Event()
    if not kernels_cached():
        _compile_in_children(stop, niceness if _can_raise_back() else 0, waited_on or threading.Event())
    if not stop.is_set():  # a program closing meanwhile waits for no load (``battle.cli.warm_up``)
        prepare_kernels()
    return time.monotonic() - started


def _can_raise_back() -> bool:
    """Whether this program may give its children back its own priority once they are niced."""
    try:
        own = os.getpriority(os.PRIO_PROCESS, 0)
        soft = resource.getrlimit(resource.RLIMIT_NICE)[0]
    except (AttributeError, OSError):  # no such limit here (not Linux)
        return False
    return os.geteuid() == 0 or soft == resource.RLIM_INFINITY or 20 - soft <= own


def _raise_to_own(children: list[subprocess.Popen]) -> None:
    """Give the running children this program's niceness (a child niced after this is raised at the next look)."""
    own = os.getpriority(os.PRIO_PROCESS, 0)
    for child in children:
        with contextlib.suppress(OSError):  # ended meanwhile, or the system refuses
            if child.poll() is None and os.getpriority(os.PRIO_PROCESS, child.pid) > own:
                os.setpriority(os.PRIO_PROCESS, child.pid, own)


def _compile_in_children(stop: threading.Event, niceness: int, waited_on: threading.Event) -> None:
    """Run ``python -m solver.compile_ahead PART PID NICENESS`` for every part at once, until they end or
    ``stop`` is set; raise them to this program's niceness while ``waited_on`` is set."""
    package_root = str(Path(__file__).resolve().parent.parent)
    path = os.environ.get("PYTHONPATH")
    env = {**os.environ, "PYTHONPATH": package_root + (os.pathsep + path if path else "")}
    children: list[subprocess.Popen] = []
    try:
        for part in PARTS:
            command = [sys.executable, "-m", "solver.compile_ahead", part, str(os.getpid()), str(niceness)]
            # cwd: ``-m`` puts the working folder first on the path, and a source checkout there
            # (the README's own set-up runs the game from it) would be another ``solver``, cached apart
            children.append(
                subprocess.Popen(
                    command,
                    env=env,
                    cwd=package_root,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        while any(child.poll() is None for child in children):
            if niceness > 0 and waited_on.is_set():
                _raise_to_own(children)
            if stop.wait(POLL):
                return
    except OSError:  # no process to be had: the kernels compile here
        return
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()


def _end_with_parent(parent: int) -> None:
    """End this child when ``parent``, the program that started it, is gone (killed: it had no
    time to end us). Its pid comes from the command line, as it may be gone before we look."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


if __name__ == "__main__":
    os.nice(int(sys.argv[3]))
    _end_with_parent(int(sys.argv[2]))
    PARTS[sys.argv[1]]()
