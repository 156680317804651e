"""``play``'s solver warm-up: the kernels load on a thread while the first board is read.

On a first run the kernels compile in child processes (about 10 s), which a game that ends sooner
stops within 50 ms (and which end themselves within 0.2 s of this process); otherwise they load
from numba's cache here, in a fraction of a second of LLVM calls after numba's import, which takes
0.4 s on a quiet machine and tens of seconds on a busy one.

Nothing waits for that at the end of a game. The installed command ``leave``s the thread and ends
the process with ``os._exit`` (``battle.cli.command_line.entry_point``): the game is saved after every move,
the history is closed, and no interpreter exit runs to be held up. An interpreter's own exit would
have to wait for the thread: a daemon thread still at work is frozen by the exit wherever it
stands, LLVM's lock included, and the exit's clean-up of the kernels can then wait on that lock for
ever (``closure_dealloc`` -> ``ObjectRef.__del__`` -> ``_LLVMLock.__enter__``; and CPython 3.11 never
calls an ``atexit`` function registered while the exit runs them, such as llvmlite's "shutting
down" flag when numba is imported just after a quick ``quit``). So a program that goes on after
``play`` returns (``battle.cli.command_line.main`` in a test) calls ``end``, which waits for the thread.
``benchmarks/play_exit.py`` measures both.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable
from typing import TypeVar, cast

from battle.cli.interruption import EXIT_INTERRUPTED

_Call = TypeVar("_Call", bound=Callable[..., object])

LEAVE_SECONDS = 0.5
"""The most ``leave`` waits for the warm-up's thread: enough for a compile's children to be killed
(one 0.05 s poll), and quit still returns within a second while numba's import runs on."""


class SolverWarmUp:
    """The kernels loading on the thread ``solver-warm-up`` from construction on, until ``end`` or ``leave``."""

    def __init__(self) -> None:
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._prepare, name="solver-warm-up", daemon=True)
        self._thread.start()

    def _prepare(self) -> None:
        with contextlib.suppress(Exception):  # no solver here: hint and eval say so when asked
            from battle.players import prepare_kernels

            prepare_kernels(self._closing)

    def first(self, call: _Call, meanwhile: Callable[..., object] | None = None) -> _Call:
        """``call``, once the warm-up has ended: the solver's searches wait for it rather than compile
        the kernels a second time beside it; ``meanwhile``, if given, answers while it still runs (a
        level's move in plain Python), unless it answers None (the warm-up ended under it)."""

        def wrapped(*args: object) -> object:
            if meanwhile is not None and self._thread.is_alive():
                answer = meanwhile(*args)
                if answer is not None:
                    return answer
            self._thread.join()
            return call(*args)

        return cast(_Call, wrapped)

    def wait(self) -> None:
        """Until the kernels are ready (or will not be)."""
        self._thread.join()

    def ended(self) -> bool:
        """Whether the kernels are ready (or will not be: the warm-up's thread has ended)."""
        return not self._thread.is_alive()

    def leave(self) -> None:
        """Stop a compile for a process that ends now with ``os._exit``: a compile's children are
        killed by the thread within its 0.05 s poll, so it gets ``LEAVE_SECONDS`` for that; numba's
        import or a load in progress is not waited for (the exit ends it)."""
        self._closing.set()
        self._thread.join(LEAVE_SECONDS)

    def end(self) -> None:
        """Stop a compile and wait for the thread (numba's import or a load from the cache in progress
        finishes: under a second on a quiet machine). A Ctrl-C meanwhile ends the process at once,
        with its output flushed: the game is saved after every move, and the interpreter's exit
        would wait on the thread."""
        self._closing.set()
        try:
            self._thread.join()
        except KeyboardInterrupt:
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(OSError, AttributeError, ValueError):
                    stream.flush()
            os._exit(EXIT_INTERRUPTED)
