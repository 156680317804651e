"""Settings of the whole Python process that suit a process doing nothing but serve games.

They change the interpreter for every thread and every library in the process, so the server
itself (``running_server``) leaves them alone: only the ``serve`` command, which owns its
process, turns them on with ``tuned_for_serving``.

- The switch interval: the writer thread (``group_commit``) asks for the interpreter's lock
  after each call into SQLite, several a move; at 1,000 games on the loaded 2-core machine
  Python's default 5 ms held the median move at 240 ms, 0.5 ms at 28 ms.
- The collector: what has lived a second moves into its permanent generation (``gc.freeze``),
  so a full collection does not walk every game; one stopped all of them 4 times a run for
  100-145 ms at 1,000 games (none after). Rooms hold no reference cycles and are freed by their
  counts; what a closed connection leaves in cycles is collected by one full collection every
  ``FULL_COLLECTION_SECONDS``.
- The event loop: uvloop's (the ``fast`` extra) when it is installed, asyncio's otherwise
  (``serving_loop``): 9-15% less CPU a move (0.43 ms against 0.50 at 380 moves a second, without the gather).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys
import time
from collections.abc import AsyncIterator, Callable
from typing import Literal

LoopChoice = Literal["auto", "asyncio"]
"""Which event loop ``serve`` runs on: uvloop when it is installed (auto), or asyncio's whatever is installed."""

WRITER_SWITCH_INTERVAL = 0.0005
"""Seconds the interpreter lets one thread run before another that asks gets it (Python's default is 0.005)."""
FREEZE_SECONDS = 1.0
"""How often what has lived that long is moved out of the collector's way."""
FULL_COLLECTION_SECONDS = 600.0
"""How often the collector walks everything (one pause)."""


@contextlib.asynccontextmanager
async def tuned_for_serving() -> AsyncIterator[None]:
    """The process tuned for the game server until the block ends, then as it was."""
    switch_interval = sys.getswitchinterval()
    sys.setswitchinterval(WRITER_SWITCH_INTERVAL)
    freezing = asyncio.create_task(_freeze_survivors())
    try:
        yield
    finally:
        freezing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await freezing
        gc.unfreeze()
        sys.setswitchinterval(switch_interval)


async def _freeze_survivors() -> None:
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(FREEZE_SECONDS)
        if time.monotonic() - last_full >= FULL_COLLECTION_SECONDS:
            gc.unfreeze()
            gc.collect()
            last_full = time.monotonic()
        gc.freeze()


def serving_loop(choice: LoopChoice = "auto") -> Callable[[], asyncio.AbstractEventLoop] | None:
    """What makes the server's event loop (``asyncio.Runner``'s ``loop_factory``; None: asyncio's own).

    ``auto`` takes uvloop when it is installed (``pip install 'mahjong-battle[fast]'``)."""
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop
