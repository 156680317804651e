"""The probe ``tools/walk.py`` loads into every process of the server it measures (from a
``sitecustomize.py`` on the server's ``PYTHONPATH``); standard library only.

With ``WINDOW_VARIABLE`` naming the one-byte window file of a walk's folder, it traces every
Python call of the process (``sys.settrace`` and ``threading.settrace``: the global trace function
sees each new frame, a coroutine's or a generator's resumption too, and returning ``None`` asks for
no line events). While the window's byte is 0 a call only reads it and returns, so a process starts
and idles almost as it does untraced. While the byte names a window (1-255), each call of a
function of the project's ``battle/`` or ``solver/`` is written as a line to ``calls-PID.tsv``
beside the window file, once a window for each thread, function and caller: the window, the
clock, the thread, the function and its caller, the nearest project function below it on the
stack. A thread pool's work item has no project function below it; the one that handed it over
(``ThreadPoolExecutor.submit``: ``asyncio.to_thread`` and ``run_in_executor`` too) is named its
caller instead, marked ``handed``, so the tool can follow a timer's or a request's work across
threads.

The byte is shared memory (``mmap`` of the file), so the tool opens and closes a window for every
process at once, with no signal and no wait. Each line is one ``os.write``: it survives a process
that is killed or leaves by ``os._exit`` (``multiprocessing``'s workers do).
"""

from __future__ import annotations

import mmap
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

WINDOW_VARIABLE = "MAHJONG_BATTLE_WALK_WINDOW"
"""The window file: one byte, 0 while nothing is recorded, else the number of the window."""
ROOT_VARIABLE = "MAHJONG_BATTLE_WALK_ROOT"
"""The checkout whose ``battle/`` and ``solver/`` the probe records."""
PACKAGES = ("battle", "solver")
MAX_DEPTH = 64
"""How far down the stack a call looks for the project function that called it: past the frames of
asyncio, websockets and the standard library between two of the project's, and bounded, since the
trace function runs on every call of a window."""

Caller = tuple[CodeType, str]
"""A project function's code object and its "file<TAB>function"."""

_keys: dict[CodeType, str] = {}
"""A code object's "file<TAB>function" (the file relative to the root), or "" outside the project:
worked out once a code object, since the trace function runs on every call of a window."""
_seen: set[tuple[int, int, CodeType, CodeType | None]] = set()
"""The calls written: (window, thread, function, caller): each once a window."""
_handed = threading.local()
"""In a thread pool's thread, the project function that handed over the work item it runs (``given``)."""
_sink: list[int] = []
"""The open file descriptor of this process's lines and its pid (reopened in a forked child)."""


class _Probe:
    """The window, the checkout's folders and where to write, shared by the trace function and the
    thread pool's ``submit``."""

    def __init__(self, window: mmap.mmap, root: str, folder: Path) -> None:
        self.window = window
        self.root = root
        self.prefixes = tuple(root + package + os.sep for package in PACKAGES)
        self.folder = folder

    def key(self, code: CodeType) -> str:
        key = _keys.get(code)
        if key is None:
            name = code.co_filename
            key = f"{name[len(self.root) :]}\t{code.co_qualname}" if name.startswith(self.prefixes) else ""
            _keys[code] = key
        return key

    def caller(self, frame: FrameType | None) -> Caller | None:
        """The nearest project function at or below ``frame``, within ``MAX_DEPTH`` frames."""
        for _depth in range(MAX_DEPTH):
            if frame is None:
                return None
            key = self.key(frame.f_code)
            if key:
                return frame.f_code, key
            frame = frame.f_back
        return None

    def sink(self) -> int:
        """This process's file, headed by its pid, parent and command line (how the tool names it)."""
        pid = os.getpid()
        if _sink and _sink[1] == pid:
            return _sink[0]
        descriptor = os.open(self.folder / f"calls-{pid}.tsv", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        argv = " ".join(sys.argv).replace("\t", " ").replace("\n", " ")
        os.write(descriptor, f"process\t{pid}\t{os.getppid()}\t{argv}\n".encode())
        _sink[:] = [descriptor, pid]
        return descriptor

    def trace(self, frame: FrameType, event: str, arg: Any) -> None:
        number = self.window[0]
        if not number:
            return None
        code = frame.f_code
        key = self.key(code)
        if not key:
            return None
        caller = self.caller(frame.f_back)
        handed = ""
        if caller is None:
            caller = getattr(_handed, "given", None)
            handed = "handed" if caller is not None else ""
        thread = threading.get_ident()
        seen = (number, thread, code, caller[0] if caller is not None else None)
        if seen in _seen:
            return None
        _seen.add(seen)
        name = threading.current_thread().name.replace("\t", " ")
        called_by = caller[1] if caller is not None else "\t"
        line = f"call\t{number}\t{time.monotonic():.6f}\t{thread}\t{name}\t{key}\t{called_by}\t{handed}\n"
        os.write(self.sink(), line.encode())
        return None

    def patch_submit(self) -> None:
        """``ThreadPoolExecutor.submit`` that, while a window is open, tells the work item's thread which
        project function handed it over."""
        submit = ThreadPoolExecutor.submit

        def handing_submit(
            pool: ThreadPoolExecutor, fn: Callable[..., Any], /, *args: Any, **kwargs: Any
        ) -> Future[Any]:
            given = self.caller(sys._getframe(1)) if self.window[0] else None
            if given is None:
                return submit(pool, fn, *args, **kwargs)

            def handed_over(*args: Any, **kwargs: Any) -> Any:
                _handed.given = given
                try:
                    return fn(*args, **kwargs)
                finally:
                    _handed.given = None

            return submit(pool, handed_over, *args, **kwargs)

        ThreadPoolExecutor.submit = handing_submit  # type: ignore[method-assign,assignment]


def install() -> None:
    """Trace this process and every thread it starts, if the tool's variables say where to write."""
    window_file = os.environ.get(WINDOW_VARIABLE)
    root = os.environ.get(ROOT_VARIABLE)
    if not window_file or not root:
        return
    with open(window_file, "rb") as opened:
        window = mmap.mmap(opened.fileno(), 1, access=mmap.ACCESS_READ)
    probe = _Probe(window, root.rstrip(os.sep) + os.sep, Path(window_file).parent)
    probe.sink()
    probe.patch_submit()
    threading.settrace(probe.trace)
    sys.settrace(probe.trace)
