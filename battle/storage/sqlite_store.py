"""The one way the program's SQLite stores (the online server's games, the game history, the
survey's results) open, check, upgrade, claim and set aside their files.

Opening a store, in order:

1. A file the user named (``--db``) that is not SQLite at all is refused and left as it is:
   a mistyped name must never rename somebody's file.
2. The file is read before anything writes to it (``sqlite_file.contents``): a newer
   version's file is refused and left exactly as it was.
3. A file that opens but fails ``PRAGMA quick_check`` (a damaged page) is salvaged: every
   row SQLite can still read is copied into a new file, which takes the old one's place;
   the damaged file is kept beside it (``.corrupt``), so nothing the user has is lost and
   the rest of the history stays in view (one damaged page of 4,096 bytes costs the rows
   on that page, not 6 games and 20 puzzle attempts). Only a file SQLite cannot read at
   all, or another schema at the program's own path, is set aside whole.
4. A file of another kind of store is refused when named and set aside when it sits at
   the program's own path.
5. A new file gets its tables and its version in one ``BEGIN IMMEDIATE`` transaction with
   ``CREATE ... IF NOT EXISTS``: two copies started at once on a new file both succeed.
   An older version is upgraded in one transaction whose version is read again under the
   lock, as another copy may have upgraded it meanwhile.

``claim`` is the other half: one writer at a time where two would do the same work twice
(two surveys on one file), by an OS lock on a ``.lock`` file beside the database that
ends with the process that holds it, a ``kill -9`` included.
"""

from __future__ import annotations

import contextlib
import math
import os
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from battle.i18n import ngettext
from battle.rules.errors import one_line
from battle.storage import process_lock, sqlite_file
from battle.storage.paths import set_aside

SIDE_FILES = ("-wal", "-shm")
"""SQLite's companions of a WAL database: they belong to it and move with it."""
STRICT = " STRICT" if sqlite3.sqlite_version_info >= (3, 37, 0) else ""
"""Appended to a new file's ``CREATE TABLE``: a column refuses a value of another type
(SQLite 3.37 and later; an older library makes the tables without it, as before)."""


@dataclass(frozen=True)
class StoreKind:
    """What one kind of store's file holds: its schema, its version and its upgrades."""

    name: str
    """For the user's one line: "game history", "survey database", "game database"."""
    version: int
    schema: str
    """``CREATE TABLE IF NOT EXISTS`` (and index) statements of this version; ``{strict}``
    after a table's closing parenthesis becomes ``STRICT`` where SQLite has it."""
    columns: Mapping[str, tuple[str, ...]]
    """Each table and its columns in this version: a file whose tables differ is another kind."""
    oldest: int = 1
    """The oldest version still upgraded."""
    upgrades: Mapping[int, str | Callable[[sqlite3.Connection], None]] = field(default_factory=dict)
    """What brings a file of version N to N + 1, run inside one transaction: its statements, or a
    function of the connection where the statements depend on what the file holds."""
    older_columns: Mapping[int, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    """The tables of an older version, where they differ from this one's."""
    foreign_keys: bool = False
    salvage: bool = True
    """Copy the readable rows of a damaged file into a new one; False for a store whose rows only
    make sense together (the server's games: a game without some of its moves is no game)."""

    def creation(self) -> str:
        return self.schema.replace("{strict}", STRICT)

    def expected_columns(self, version: int) -> Mapping[str, tuple[str, ...]]:
        return self.older_columns.get(version, self.columns)


class StoreRefused(Exception):
    """A file the user named that is not this kind of store: left as it is."""

    def __init__(self, message: str, detail: str | None = None) -> None:
        super().__init__(message)
        self.detail = detail
        """What it holds instead ("schema version 0, expected 2"); None for a file that is not SQLite."""


class StoreNewer(Exception):
    """A file of a newer version of the program: left as it is."""

    def __init__(self, version: int) -> None:
        super().__init__(f"schema {version}")
        self.version = version


class StoreBusy(Exception):
    """Another program holds the file locked for longer than the timeout."""


class StoreUnusable(Exception):
    """The file cannot be opened or written (a read-only folder, a full disk); it may be fine."""


class StoreClaimed(Exception):
    """Another process holds the store's claim (``claim``)."""


@dataclass
class OpenedStore:
    connection: sqlite3.Connection
    notice: str | None = None
    """One line when the file found was set aside or salvaged."""


class _Damaged(Exception):
    """A file to set aside: ``salvage`` when SQLite still reads some of its rows."""

    def __init__(self, reason: str, *, salvage: bool) -> None:
        super().__init__(reason)
        self.salvage = salvage


def open_store(path: Path, kind: StoreKind, *, named: bool, timeout: float = 5.0) -> OpenedStore:
    """Open ``path`` as a ``kind`` store, making, upgrading, salvaging or setting it aside as the
    module docstring says. Raises ``StoreRefused``, ``StoreNewer``, ``StoreBusy`` or
    ``StoreUnusable`` with one line for the user."""
    if named and sqlite_file.other_kind_of_file(path):
        raise StoreRefused(f"not a {kind.name} but a file of another kind")
    try:
        return OpenedStore(_prepare(path, kind, named=named, timeout=timeout))
    except _Damaged as damaged:
        reason, salvage = str(damaged), damaged.salvage
    except sqlite3.OperationalError as error:
        raise _operational(error) from None
    except sqlite3.DatabaseError as error:  # not a database, or too damaged to read its schema
        reason, salvage = str(error), False
    rows = _readable_rows(path, kind) if salvage else {}
    moved = set_aside_with_side_files(path)
    if moved is None and path.exists():
        raise StoreUnusable(f"{path} is damaged ({reason}) and cannot be moved aside")
    where = f"set aside as {moved.name}" if moved is not None else "gone meanwhile"
    try:
        connection = _prepare(path, kind, named=named, timeout=timeout)
    except sqlite3.OperationalError as error:
        raise _operational(error) from None
    except (_Damaged, sqlite3.DatabaseError) as error:
        raise StoreUnusable(f"cannot start a new {kind.name}: {error}") from None
    if salvage:
        kept, lost = _copy_rows(connection, rows)
        lost_text = f"{lost} lost" if lost is not None else "those on its damaged pages lost (no index counts them)"
        notice = (
            f"{path}: the {kind.name} is {reason}; {kept} rows kept in a new file, {lost_text}; "
            f"the damaged file {where}"
        )
    else:
        notice = f"{path}: not a usable {kind.name} ({reason}); {where}, starting an empty one"
    return OpenedStore(connection, one_line(notice))


def open_read_only(path: Path, kind: StoreKind) -> sqlite3.Connection:
    """``path`` for a reader beside a writer (a report beside a running survey, the window's
    catalogue): never made, upgraded, salvaged or set aside, whatever it holds, and a writer
    meanwhile is not disturbed. ``StoreRefused`` for a missing file or one that is not a
    ``kind`` store of a version read (an empty file has no tables yet: nothing to read; an
    older version reads as it is where its tables have this version's columns, and waits for
    a writer's upgrade where they do not), ``StoreNewer`` for a newer one."""
    if not path.is_file():
        raise StoreRefused(f"no {kind.name} there")
    if sqlite_file.other_kind_of_file(path):
        raise StoreRefused(f"not a {kind.name} but a file of another kind")
    try:
        connection = sqlite_file.connect_read_only(path)
    except sqlite3.Error as error:
        raise StoreUnusable(f"cannot open the {kind.name}: {error}") from None
    try:
        found = sqlite_file.contents(connection)
        if found.version > kind.version:
            raise StoreNewer(found.version)
        mismatch = "schema version 0, tables none" if found.empty else _mismatch(connection, kind, found)
        if mismatch is None and found.version < kind.version and kind.expected_columns(found.version) != kind.columns:
            mismatch = f"schema version {found.version}, not yet upgraded"
        if mismatch is not None:
            raise StoreRefused(f"not a {kind.name} ({mismatch})")
    except sqlite3.Error as error:
        connection.close()
        raise StoreRefused(f"not a {kind.name} ({error})") from None
    except BaseException:
        connection.close()
        raise
    return connection


def set_aside_with_side_files(path: Path) -> Path | None:
    """Rename ``path`` aside (``paths.set_aside``) with its WAL beside the new name; the shared-memory
    index, which SQLite rebuilds, is removed. None when it was not moved (it cannot be, or is gone)."""
    moved = set_aside(path)
    if moved is None and path.exists():
        return None
    for suffix in SIDE_FILES:
        companion = path.with_name(path.name + suffix)
        with contextlib.suppress(OSError):
            if moved is not None and suffix == "-wal":
                os.replace(companion, moved.with_name(moved.name + suffix))
            else:
                companion.unlink()
    return moved


def _operational(error: sqlite3.OperationalError) -> Exception:
    text = str(error)
    if "locked" in text.lower() or "busy" in text.lower():
        return StoreBusy(text)
    return StoreUnusable(text)


def _prepare(path: Path, kind: StoreKind, *, named: bool, timeout: float) -> sqlite3.Connection:
    connection = sqlite_file.connect(path, timeout=timeout)
    try:
        if kind.foreign_keys:
            connection.execute("PRAGMA foreign_keys = ON")
        found = sqlite_file.contents(connection)  # read before anything writes
        if found.version > kind.version:
            raise StoreNewer(found.version)
        try:
            problem = sqlite_file.integrity_problem(connection)
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError as error:  # too damaged for the check, but its schema read: salvage
            problem = f"damaged ({error})"
        if problem is not None:
            raise _Damaged(problem, salvage=kind.salvage and not found.empty)
        mismatch = None if found.empty else _mismatch(connection, kind, found)
        if mismatch is not None:
            if named:  # another program's database, or another of this program's stores: never renamed
                raise StoreRefused(f"not a {kind.name} ({mismatch})", mismatch)
            raise _Damaged(mismatch, salvage=False)
        sqlite_file.make_durable(connection, kind.creation(), kind.version, create=found.empty)
        if not found.empty and found.version < kind.version:
            _upgrade(connection, kind)
    except BaseException:
        connection.close()
        raise
    return connection


def _mismatch(connection: sqlite3.Connection, kind: StoreKind, found: sqlite_file.Contents) -> str | None:
    """How a file that holds tables differs from ``kind``, or None when it is one (of a version upgraded)."""
    if not kind.oldest <= found.version <= kind.version:
        return f"schema version {found.version}, expected {kind.version}"
    for table, columns in kind.expected_columns(found.version).items():
        held = sqlite_file.columns(connection, table)
        if held != columns:
            return f"table {table} has columns {', '.join(held) or 'none'}"
    return None


def _upgrade(connection: sqlite3.Connection, kind: StoreKind) -> None:
    """Bring an older file to ``kind.version`` in one transaction, the version read again under
    the lock; foreign keys are off meanwhile, as a table rebuilt by copy would cascade."""
    if kind.foreign_keys:
        connection.execute("PRAGMA foreign_keys = OFF")
    connection.execute("BEGIN IMMEDIATE")
    try:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        while version < kind.version:
            step = kind.upgrades[version]
            if callable(step):
                step(connection)
            else:
                for statement in _statements(step):
                    connection.execute(statement)
            version += 1
        connection.execute(f"PRAGMA user_version = {version}")
        connection.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")
        raise
    finally:
        if kind.foreign_keys:
            connection.execute("PRAGMA foreign_keys = ON")


def _statements(script: str) -> list[str]:
    """A script's statements (split where ``sqlite3.complete_statement`` says one ends)."""
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip():
        statements.append(current.strip())
    return statements


# -- salvage ---------------------------------------------------------------------------------


SALVAGE_PROBES = 4096
"""Rowids tried one by one past a damaged page, before the salvage looks further in doubling jumps
(rowids grow by one per row, so the next readable page starts within a few dozen)."""
SALVAGE_LIMIT = 1 << 62


@dataclass
class TableRows:
    """What a damaged file still gives of one table."""

    rows: list[dict[str, Any]]
    """The rows SQLite reads, by name of column, in rowid order."""
    unread: int | None
    """Rows on pages that do not read: 0 when every page read, else counted by an index of the table
    that reads whole (each index that is not partial lists every row); None when none does."""


def read_table(connection: sqlite3.Connection, table: str) -> TableRows:
    """Every row of ``table`` that SQLite still reads, past damaged pages, and how many it cannot."""
    rows, damaged = _scan(connection, table)
    if not damaged:
        return TableRows([row for _rowid, row in rows], 0)
    return TableRows([row for _rowid, row in rows], _unread(connection, table, {rowid for rowid, _row in rows}))


def _readable_rows(path: Path, kind: StoreKind) -> dict[str, TableRows]:
    """Every row of ``kind``'s tables that SQLite still reads in a damaged file, by name of column."""
    rows: dict[str, TableRows] = {}
    try:
        connection = sqlite_file.connect_read_only(path)
    except sqlite3.Error:
        return rows
    try:
        for table in kind.columns:
            rows[table] = read_table(connection, table)
    finally:
        connection.close()
    return rows


def _scan(connection: sqlite3.Connection, table: str) -> tuple[list[tuple[int, dict[str, Any]]], bool]:
    """The table's readable rows in rowid order, each with its rowid, and whether a page failed: a
    damaged page ends a scan, and the scan starts again at the next rowid whose page reads
    (``_next_readable``)."""
    found: list[tuple[int, dict[str, Any]]] = []
    start: int | None = -SALVAGE_LIMIT
    damaged = False
    while start is not None:
        read_one = False
        try:
            cursor = connection.execute(f'SELECT rowid, * FROM "{table}" WHERE rowid >= ? ORDER BY rowid', (start,))
            names = [column[0] for column in cursor.description][1:]
            for row in cursor:
                start, read_one = row[0] + 1, True
                found.append((row[0], dict(zip(names, row[1:], strict=True))))
            return found, damaged
        except sqlite3.DatabaseError:  # the scan starts again past what it read, or past where it stuck
            damaged = True
            start = _next_readable(connection, table, max(start, 0) + (0 if read_one else 1))
    return found, damaged


def _next_readable(connection: sqlite3.Connection, table: str, after: int) -> int | None:
    """The first rowid from ``after`` whose lookup reads (its page is whole, the row there or not), or None."""
    step, rowid = 1, after
    while rowid < SALVAGE_LIMIT:
        try:
            connection.execute(f'SELECT 1 FROM "{table}" WHERE rowid = ?', (rowid,)).fetchall()
            return rowid
        except sqlite3.DatabaseError:
            pass
        if rowid - after >= SALVAGE_PROBES:
            step *= 2
        rowid += step
    return None


def _unread(connection: sqlite3.Connection, table: str, read: set[int]) -> int | None:
    """How many rows of ``table`` are not among the ``read`` rowids, by the first index of the table
    that reads whole (its own pages are apart from the table's); None when no index does."""
    try:
        indexes = [row[1] for row in connection.execute(f'PRAGMA index_list("{table}")') if not row[4]]
    except sqlite3.DatabaseError:
        return None
    for index in indexes:
        try:
            listed = connection.execute(f'SELECT rowid FROM "{table}" INDEXED BY "{index}"').fetchall()
        except sqlite3.DatabaseError:  # the index is damaged too: another may read
            continue
        return len({row[0] for row in listed} - read)
    return None


def _copy_rows(connection: sqlite3.Connection, rows: Mapping[str, TableRows]) -> tuple[int, int | None]:
    """Insert the salvaged rows into the new file, each that its tables still take; (kept, lost),
    lost counting the rows on damaged pages and those the new tables refuse (None: the damaged
    pages' rows could not be counted)."""
    kept = refused = 0
    connection.execute("BEGIN IMMEDIATE")
    try:
        for table, read in rows.items():
            columns = set(sqlite_file.columns(connection, table))
            for row in read.rows:
                names = [name for name in row if name in columns]
                try:
                    connection.execute(
                        f'INSERT INTO "{table}" ({", ".join(names)}) VALUES ({", ".join("?" * len(names))})',
                        [row[name] for name in names],
                    )
                    kept += 1
                except sqlite3.Error:  # a value the table's constraints refuse
                    refused += 1
        connection.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")
        raise
    unread = [read.unread for read in rows.values()]
    return kept, None if None in unread else refused + sum(count or 0 for count in unread)


# -- reading rows that may be hostile ------------------------------------------------------------


def finite(value: object, low: float, high: float) -> bool:
    """``value`` is a number (not a bool, not text) from ``low`` to ``high``."""
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and low <= value <= high
    )


def whole(value: object, low: int, high: int) -> bool:
    """``value`` is an integer (not a bool, not text) from ``low`` to ``high``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def text_or_none(value: object) -> bool:
    return value is None or isinstance(value, str)


class RowSkips:
    """Rows a store could not use, said once per read as one line: "2 unreadable rows in FILE skipped
    (games row 7: score1 'abc' is not a number from 0 to 1000)"."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.reasons: list[str] = []

    def keep(self, row: tuple, build: Callable[[tuple], Any]) -> Any:  # noqa: ANN401 - any row type
        """``build(row)``, or None (the row noted) when it raises ``ValueError``."""
        try:
            return build(row)
        except ValueError as error:
            self.reasons.append(str(error))
            return None

    def line(self) -> str | None:
        if not self.reasons:
            return None
        count = len(self.reasons)
        # the reason names a column and quotes the row's value: as stored, in English
        return one_line(
            ngettext(
                "{count} unreadable row in {where} skipped ({reason})",
                "{count} unreadable rows in {where} skipped ({reason}, ...)",
                count,
            ).format(count=count, where=self.where, reason=self.reasons[0][:200])
        )


# -- claims ------------------------------------------------------------------------------------


def claim_path(path: Path) -> Path:
    return path.with_name(path.name + ".lock")


def claim(path: Path) -> IO[bytes]:
    """Hold the store's claim until the returned file is closed (or the process ends, a ``kill -9``
    included): ``process_lock``'s lock on ``FILE.lock``; ``StoreClaimed`` names the process that
    holds it."""
    descriptor = process_lock.open_lock_file(claim_path(path))
    try:
        if not process_lock.try_lock(descriptor):
            holder = process_lock.pid_in(descriptor)
            raise StoreClaimed(f"process {holder}" if holder else "another process")
        process_lock.write_pid(descriptor)
    except BaseException:
        os.close(descriptor)
        raise
    return os.fdopen(descriptor, "rb")
