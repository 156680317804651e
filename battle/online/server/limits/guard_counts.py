"""Where an ``AddressGuard`` keeps what it counts (each network's wrong codes, the server's budget of
wrong codes, each network's starts, marks that count for a network until a time (the games being
made with a seat of its, the device keys it started a puzzle rating under), and what each network
holds open now: its connections, its open puzzles):
in this process (``MemoryCounts``, a server of one
process), or in a SQLite file that every process of one server opens (``SharedCounts``, in its run
folder), so a network meets the same caps whichever process serves it and a race of requests in two
processes cannot pass one.

Each of the guard's decisions is one ``held()`` block: it reads what it needs, decides and writes
back; in ``SharedCounts`` the block is one ``BEGIN IMMEDIATE`` transaction, so two processes' blocks
never interleave. The figures are the guard's own (``_Misses``, ``TokenBucket``); the clock is
``time.monotonic``, the same for every process of one machine.

What a network holds open is kept per process (``holding``: a row a kind, network and process), so
that a process that dies takes its count with it: the process started again in its place deletes
the rows of its index before it takes a connection, since every connection it held died with it.

The file holds counts that a restart may lose (a network's wrong codes are forgotten after
``failed_code_memory`` anyway), so it is written without waiting for the disk.
"""

from __future__ import annotations

import fcntl
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from battle.online.server.limits.token_bucket import TokenBucket

__all__ = ["Counts", "CountsNow", "MemoryCounts", "Misses", "SharedCounts"]

BUSY_MILLISECONDS = 2000
"""How long a block waits for another process's: each takes tens of microseconds, so two seconds is a
process stopped inside one (then the request is refused as a busy server, ``sqlite3.OperationalError``)."""
PRUNE_EVERY = 1000
"""Blocks between two sweeps of the file for counts that no longer hold anything back."""


@dataclass
class Misses:
    """One network's wrong codes: how many in a row, and until when it must wait."""

    failures: int = 0
    last_failure: float = 0.0
    blocked_until: float = 0.0


class CountsNow(Protocol):
    """The counts inside one ``held()`` block."""

    def bucket(self, key: str, rate: float, burst: float) -> TokenBucket:
        """The bucket under ``key`` (full when there is none yet); ``put_bucket`` keeps a change."""

    def put_bucket(self, key: str, bucket: TokenBucket) -> None: ...

    def misses(self, network: str) -> Misses | None: ...

    def put_misses(self, network: str, misses: Misses | None) -> None:
        """Keep ``misses`` for ``network`` (None forgets it)."""

    def marked(self, kind: str, network: str, now: float) -> set[str]:
        """The keys of ``kind`` marked for ``network`` (a game being made with a seat of its, a device
        key it started a rating under), by any process, until each is dropped (``drop_mark``) or its
        ``until`` has passed."""

    def put_mark(self, kind: str, network: str, key: str, until: float) -> None: ...

    def drop_mark(self, kind: str, key: str) -> None: ...

    def holding(self, kind: str, network: str) -> int:
        """How many of ``kind`` (connections, open puzzles) ``network`` holds open now, in every process."""

    def hold(self, kind: str, network: str, change: int) -> None:
        """``network`` holds ``change`` more of ``kind`` (fewer when negative) in this process."""


class Counts(Protocol):
    def held(self, now: float) -> AbstractContextManager[CountsNow]:
        """One decision's counts: alone against every other block, written back at its end."""

    def close(self) -> None: ...


class MemoryCounts:
    """The counts of a server of one process, in dictionaries; buckets that hold nothing back any more,
    and marks whose time has passed, are let go once there are ``prune_at``."""

    def __init__(self, prune_at: int = 10_000) -> None:
        self.buckets: dict[str, TokenBucket] = {}
        self.missed: dict[str, Misses] = {}
        self.marks: dict[tuple[str, str], tuple[str, float]] = {}
        """Each mark's network and until, by its kind and key."""
        self.held_open: dict[tuple[str, str], int] = {}
        self._prune_at = prune_at

    @contextmanager
    def held(self, now: float) -> Iterator[CountsNow]:
        if len(self.buckets) >= self._prune_at:
            self.buckets = {key: old for key, old in self.buckets.items() if old.level(now) < old.burst}
        if len(self.marks) >= self._prune_at:  # marks whose ``drop_mark`` never came
            self.marks = {key: mark for key, mark in self.marks.items() if mark[1] > now}
        yield self

    def bucket(self, key: str, rate: float, burst: float) -> TokenBucket:
        found = self.buckets.get(key)
        if found is None:
            found = self.buckets[key] = TokenBucket(rate, burst)
        return found

    def put_bucket(self, key: str, bucket: TokenBucket) -> None:
        self.buckets[key] = bucket

    def misses(self, network: str) -> Misses | None:
        return self.missed.get(network)

    def put_misses(self, network: str, misses: Misses | None) -> None:
        if misses is None:
            self.missed.pop(network, None)
        else:
            self.missed[network] = misses

    def marked(self, kind: str, network: str, now: float) -> set[str]:
        return {
            key
            for (of_kind, key), (tag, until) in self.marks.items()
            if (of_kind, tag) == (kind, network) and until > now
        }

    def put_mark(self, kind: str, network: str, key: str, until: float) -> None:
        self.marks[(kind, key)] = (network, until)

    def drop_mark(self, kind: str, key: str) -> None:
        self.marks.pop((kind, key), None)

    def holding(self, kind: str, network: str) -> int:
        return self.held_open.get((kind, network), 0)

    def hold(self, kind: str, network: str, change: int) -> None:
        held = self.held_open.get((kind, network), 0) + change
        if held > 0:
            self.held_open[(kind, network)] = held
        else:
            self.held_open.pop((kind, network), None)

    def close(self) -> None:
        pass


class SharedCounts:
    """The counts of every process of one server, in the SQLite file at ``path`` (made if missing),
    as process ``process`` sees them (what it held before a restart is let go here). ``memory`` is how
    long a network's wrong codes are kept (``failed_code_memory``)."""

    def __init__(self, path: Path, memory: float, process: int = 0) -> None:
        self.path = path
        self.process = process
        self._memory = memory
        self._lock = threading.Lock()  # one connection, one block at a time in this process
        self._blocks = 0
        self._connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._connection.execute(f"PRAGMA busy_timeout = {BUSY_MILLISECONDS}")
        with _setting_up(path):
            self._set_up(process)

    def _set_up(self, process: int) -> None:
        self._connection.execute("PRAGMA journal_mode = WAL")
        self._connection.execute("PRAGMA synchronous = OFF")
        self._connection.executescript(
            """
            CREATE TABLE IF NOT EXISTS buckets (
                key TEXT PRIMARY KEY, rate REAL NOT NULL, burst REAL NOT NULL, tokens REAL NOT NULL,
                stamp REAL NOT NULL, full_at REAL NOT NULL
            );
            CREATE TABLE IF NOT EXISTS misses (
                network TEXT PRIMARY KEY, failures INTEGER NOT NULL, last_failure REAL NOT NULL,
                blocked_until REAL NOT NULL
            );
            CREATE TABLE IF NOT EXISTS marks (
                kind TEXT NOT NULL, key TEXT NOT NULL, network TEXT NOT NULL, until REAL NOT NULL,
                PRIMARY KEY (kind, key)
            );
            CREATE INDEX IF NOT EXISTS marks_by_network ON marks (kind, network);
            CREATE TABLE IF NOT EXISTS holding (
                kind TEXT NOT NULL, network TEXT NOT NULL, process INTEGER NOT NULL, held INTEGER NOT NULL,
                PRIMARY KEY (kind, network, process)
            );
            """
        )
        with self._lock:  # what this process's index held before it was started again died with it
            self._connection.execute("DELETE FROM holding WHERE process = ?", (process,))

    @contextmanager
    def held(self, now: float) -> Iterator[CountsNow]:
        with self._lock:
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                self._blocks += 1
                if self._blocks % PRUNE_EVERY == 0:
                    self._prune(now)
                yield _SharedNow(self._connection, self.process)
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise
            self._connection.execute("COMMIT")

    def _prune(self, now: float) -> None:
        self._connection.execute("DELETE FROM buckets WHERE full_at <= ?", (now,))
        self._connection.execute("DELETE FROM misses WHERE last_failure < ?", (now - self._memory,))
        self._connection.execute("DELETE FROM marks WHERE until <= ?", (now,))

    def close(self) -> None:
        with self._lock:
            self._connection.close()


class _SharedNow:
    def __init__(self, connection: sqlite3.Connection, process: int) -> None:
        self._connection = connection
        self._process = process

    def bucket(self, key: str, rate: float, burst: float) -> TokenBucket:
        row = self._connection.execute("SELECT tokens, stamp FROM buckets WHERE key = ?", (key,)).fetchone()
        if row is None:
            return TokenBucket(rate, burst)
        return TokenBucket(rate, burst, tokens=float(row[0]), stamp=float(row[1]))

    def put_bucket(self, key: str, bucket: TokenBucket) -> None:
        tokens = bucket.burst if bucket.tokens is None else bucket.tokens
        full_at = bucket.stamp + (bucket.burst - tokens) / bucket.rate if bucket.rate > 0 else float("inf")
        self._connection.execute(
            "INSERT OR REPLACE INTO buckets (key, rate, burst, tokens, stamp, full_at) VALUES (?, ?, ?, ?, ?, ?)",
            (key, bucket.rate, bucket.burst, tokens, bucket.stamp, full_at),
        )

    def misses(self, network: str) -> Misses | None:
        row = self._connection.execute(
            "SELECT failures, last_failure, blocked_until FROM misses WHERE network = ?", (network,)
        ).fetchone()
        return None if row is None else Misses(int(row[0]), float(row[1]), float(row[2]))

    def put_misses(self, network: str, misses: Misses | None) -> None:
        if misses is None:
            self._connection.execute("DELETE FROM misses WHERE network = ?", (network,))
            return
        self._connection.execute(
            "INSERT OR REPLACE INTO misses (network, failures, last_failure, blocked_until) VALUES (?, ?, ?, ?)",
            (network, misses.failures, misses.last_failure, misses.blocked_until),
        )

    def marked(self, kind: str, network: str, now: float) -> set[str]:
        rows = self._connection.execute(
            "SELECT key FROM marks WHERE kind = ? AND network = ? AND until > ?", (kind, network, now)
        )
        return {str(row[0]) for row in rows}

    def put_mark(self, kind: str, network: str, key: str, until: float) -> None:
        self._connection.execute(
            "INSERT OR REPLACE INTO marks (kind, key, network, until) VALUES (?, ?, ?, ?)", (kind, key, network, until)
        )

    def drop_mark(self, kind: str, key: str) -> None:
        self._connection.execute("DELETE FROM marks WHERE kind = ? AND key = ?", (kind, key))

    def holding(self, kind: str, network: str) -> int:
        row = self._connection.execute(
            "SELECT COALESCE(SUM(held), 0) FROM holding WHERE kind = ? AND network = ?", (kind, network)
        ).fetchone()
        return int(row[0])

    def hold(self, kind: str, network: str, change: int) -> None:
        key = (kind, network, self._process)
        self._connection.execute(
            "INSERT INTO holding (kind, network, process, held) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (kind, network, process) DO UPDATE SET held = held + excluded.held",
            (*key, change),
        )
        self._connection.execute(
            "DELETE FROM holding WHERE kind = ? AND network = ? AND process = ? AND held <= 0", key
        )


@contextmanager
def _setting_up(path: Path) -> Iterator[None]:
    """One process at a time sets the file up: game processes forked together open a new file at
    the same moment, and SQLite answers a second switch to WAL "database is locked" at once, without
    waiting its busy timeout (both hold a shared lock and want the exclusive one): a traceback and a
    restart of that process, 1 in a fresh-clone run of the suite."""
    with open(path.with_name(path.name + ".setup"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        yield
