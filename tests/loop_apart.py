"""Running a coroutine to its end from a test, on a thread of its own.

A browser test's Playwright (sync API, one per test process for the session) leaves an event loop
running on the main thread, and ``asyncio.run`` refuses to start beside it; with pytest-xdist any
test may follow a browser test in the same process, so a test that drives a coroutine runs it here.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run_apart(coroutine: Coroutine[Any, Any, T], timeout: float = 600.0) -> T:
    """``asyncio.run(coroutine)`` on a new thread: its answer, or the exception it raised."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append((True, asyncio.run(coroutine)))
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread as it is
            outcome.append((False, error))

    thread = threading.Thread(target=run, name="test-event-loop", daemon=True)
    thread.start()
    thread.join(timeout)
    if not outcome:
        raise TimeoutError(f"the coroutine did not end within {timeout:g} s")
    ok, value = outcome[0]
    if not ok:
        raise value
    return value
