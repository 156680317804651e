"""Standard input read to its end in a way a Ctrl-C always stops.

A signal that lands after the interpreter last looked for one and before ``read`` blocks has its
Python handler run only when the read returns: ``show -`` waiting on a pipe or a terminal that
stays open then never raised ``KeyboardInterrupt`` and waited for ever (3 of 1,830 Ctrl-Cs sent
while the command loaded, beside two busy loops; 0 of 1,070 reading here; strace showed SIGINT
delivered 0.3 ms before ``read(0)``). So every wait here is a ``select`` that also watches the pipe of
``signal.set_wakeup_fd``, to which the interpreter's C handler writes a byte for each signal: the
wait ends, and the Python handler runs (and raises) before the next wait begins.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
from collections.abc import Iterator
from typing import BinaryIO

CHUNK = 65_536


def read_standard_input(stream: BinaryIO, most: int) -> bytes:
    """Up to ``most`` bytes of ``stream`` (standard input's binary layer, not read from before),
    up to its end. A stream without a descriptor (a test's ``BytesIO``), a read off the main thread
    (where no wakeup pipe can be set) or on Windows (whose ``select`` takes sockets only) is a
    plain ``read``."""
    try:
        descriptor = stream.fileno()
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both of the first two
        return stream.read(most)
    with _signal_pipe() as woken:
        if woken is None:
            return stream.read(most)
        chunks: list[bytes] = []
        left = most
        while left > 0:
            if _readable(descriptor, woken, None):
                chunk = os.read(descriptor, min(left, CHUNK))
                if not chunk:
                    break
                chunks.append(chunk)
                left -= len(chunk)
        return b"".join(chunks)


def wait_readable(descriptor: int, timeout: float | None) -> bool:
    """Whether ``descriptor`` has something to read (or has ended) within ``timeout`` seconds (None:
    however long it takes). A signal with a Python handler ends the wait early, with False, so that
    its handler (a Ctrl-C's ``KeyboardInterrupt``) runs now rather than once a line comes."""
    with _signal_pipe() as woken:
        return _readable(descriptor, woken, timeout)


def _readable(descriptor: int, woken: int | None, timeout: float | None) -> bool:
    """One ``select`` on ``descriptor`` and the signal pipe ``woken`` (None: none), which it empties."""
    watched = [descriptor] if woken is None else [descriptor, woken]
    readable, _writable, _failed = select.select(watched, [], [], timeout)
    if woken is not None and woken in readable:
        _drain(woken)
    return descriptor in readable


@contextlib.contextmanager
def _signal_pipe() -> Iterator[int | None]:
    """The reading end of a pipe that every signal with a Python handler writes a byte to while
    the block runs; None where none can be set. The wakeup descriptor before comes back after."""
    if sys.platform == "win32":
        yield None
        return
    reading, writing = os.pipe()
    before: int | None = None
    try:
        for end in (reading, writing):
            os.set_blocking(end, False)
        with contextlib.suppress(ValueError):  # not the main thread
            before = signal.set_wakeup_fd(writing)
        yield reading if before is not None else None
    finally:
        if before is not None:
            signal.set_wakeup_fd(before)
        os.close(reading)
        os.close(writing)


def _drain(descriptor: int) -> None:
    with contextlib.suppress(BlockingIOError):
        while os.read(descriptor, CHUNK):
            pass
