"""Getting the store's writes to disk for the server: in groups on a writer thread, or one by one.

The server changes a room on its event loop, turns the change into a ``Write`` (plain rows)
and ``submit``s it; the future it gets resolves once the write is on disk, and only then does
the server tell anyone. ``GroupCommit`` is the server's way: one thread with its own SQLite
connection takes everything submitted since its last commit and stores it in one
transaction with one sync (``GameStore.commit_group``), so a sync of several milliseconds
costs a group of moves what it cost one, and the loop never waits for it. ``EachCommit`` is
the one-transaction-a-write way on the loop itself, kept for the benchmark to compare
(``serve --commit each``).

Woken by a write, the writer thread waits ``gather_seconds`` for more before it commits: a
commit costs it 0.14 ms of CPU for one move (half of it the kernel's, the sync), and the loop a
wake-up to hear of it. At 380 moves a second 2 ms more for each move put 2 in a commit at the
median and took 2-9% off the server's CPU a move (benchmarks/README.md, "CPU a move").

Writes are committed in the order submitted: the moves of one game reach the disk in the
order the room applied them. A write that fails fails its own future with ``StoreError``,
and the later writes of its game fail with it until the server reloads the game from the
store and says so with ``forgive`` (queued in order, so it parts the writes made from the
old room from those made from the reloaded one).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Protocol

from battle.online.server.rooms.store import GameStore, StoreError, Write

log = logging.getLogger("mahjong-battle.server")

GATHER_SECONDS = 0.002
"""How long the writer waits, once woken, for more writes to commit with the first."""


class Committer(Protocol):
    """What the server needs of a way to commit: submit a write, forgive a reloaded game, stop."""

    batch_sizes: Counter[int]
    """How many commits held how many writes: ``{writes: commits}``."""

    def submit(self, write: Write) -> asyncio.Future[None]: ...

    def forgive(self, game: str) -> None: ...

    def close(self) -> None: ...


class EachCommit:
    """Each write in its own transaction, at once, on the caller's thread (the event loop): one sync a move."""

    def __init__(self, store: GameStore) -> None:
        self.store = store
        self.batch_sizes: Counter[int] = Counter()

    def submit(self, write: Write) -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        try:
            self.store.commit(write)
        except StoreError as error:
            future.set_exception(error)
        else:
            future.set_result(None)
        self.batch_sizes[1] += 1
        return future

    def forgive(self, game: str) -> None:
        pass  # a failed write here leaves nothing queued behind it

    def close(self) -> None:
        pass


@dataclass
class _Job:
    write: Write
    future: asyncio.Future[None]


@dataclass
class _Forgive:
    game: str


class GroupCommit:
    """One writer thread: what was submitted while it committed goes into its next transaction.

    ``close`` commits everything still queued, then stops the thread and closes its connection.
    """

    def __init__(self, store: GameStore, gather_seconds: float = GATHER_SECONDS) -> None:
        self.store = store
        self.gather_seconds = gather_seconds
        self.batch_sizes: Counter[int] = Counter()
        self._connection: sqlite3.Connection = store.open_writer()
        self._queue: queue.SimpleQueue[_Job | _Forgive | None] = queue.SimpleQueue()
        self._failed_games: set[str] = set()
        """Games whose write failed, until their ``forgive``: the writer thread's alone."""
        self._thread = threading.Thread(target=self._run, name="group-commit", daemon=True)
        self._thread.start()

    def submit(self, write: Write) -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put(_Job(write, future))
        return future

    def forgive(self, game: str) -> None:
        self._queue.put(_Forgive(game))

    def close(self) -> None:
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        with contextlib.suppress(sqlite3.Error):
            self._connection.close()

    # -- the writer thread -----------------------------------------------------------------

    def _run(self) -> None:
        stopping = False
        while not stopping:
            items = [self._queue.get()]
            if self.gather_seconds > 0 and items[0] is not None:
                time.sleep(self.gather_seconds)  # the loop goes on queueing meanwhile
            with contextlib.suppress(queue.Empty):
                while True:
                    items.append(self._queue.get_nowait())
            jobs: list[_Job] = []
            for item in items:
                if isinstance(item, _Job):
                    jobs.append(item)
                    continue
                self._commit(jobs)  # what came before a forgive or the stop is committed first
                jobs = []
                if item is None:
                    stopping = True
                else:
                    self._failed_games.discard(item.game)
            self._commit(jobs)

    def _commit(self, jobs: list[_Job]) -> None:
        if not jobs:
            return
        try:
            outcomes = self.store.commit_group([job.write for job in jobs], self._connection, self._failed_games)
        except Exception as error:  # a writer that died would leave every later move waiting: fail this group
            log.exception("the group commit failed")
            outcomes = [StoreError(f"{job.write.action}: {type(error).__name__}: {error}") for job in jobs]
        self.batch_sizes[len(jobs)] += 1
        loop = jobs[0].future.get_loop()
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is left to tell
            loop.call_soon_threadsafe(_resolve, jobs, outcomes)


def _resolve(jobs: list[_Job], outcomes: list[StoreError | None]) -> None:
    for job, outcome in zip(jobs, outcomes, strict=True):
        if job.future.done():  # its waiter went away (cancelled)
            continue
        if outcome is None:
            job.future.set_result(None)
        else:
            job.future.set_exception(outcome)
