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

from battle.i18n import N_, ngettext
from battle.rules.errors import BattleError, Phrase, one_line
from battle.storage import process_lock, sqlite_file
from battle.storage.paths import set_aside

SIDE_FILES = ("-wal", "-shm")
"""SQLite's companions of a WAL database: they belong to it and move with it."""
STRICT = " STRICT" if sqlite3.sqlite_version_info >= (3, 37, 0) else ""
"""Appended to a new file's ``CREATE TABLE``: a column refuses a value of another type
(SQLite 3.37 and later; an older library makes the tables without it, as before)."""


@dataclass(frozen=True)
class SalvageWords:
    """A salvaged file's notice, one whole sentence for each case: the damaged file set aside as
    ``{name}`` or gone meanwhile, the rows lost counted (``{lost}``) or not (no index counts them);
    each a singular and a plural (``NN_``) for the ``{count}`` of rows kept, with ``{path}`` and the
    ``{reason}`` it is damaged."""

    counted: tuple[str, str]
    counted_gone: tuple[str, str]
    uncounted: tuple[str, str]
    uncounted_gone: tuple[str, str]


@dataclass(frozen=True)
class ReaderWords:
    """What a reader beside a writer (``open_read_only``) says: no file there (``missing``), or one
    SQLite does not open (``cannot_open``, with ``{error}``)."""

    missing: str
    cannot_open: str


@dataclass(frozen=True)
class StoreWords:
    """What the program says about one kind of store: each a whole sentence of the catalogue with the
    kind named in it, marked (``N_``, ``NN_``) where the kind is defined and worded when shown. A
    language inflects the kind ("kein Spielverlauf", "keine Survey-Datenbank", "eine leere"), so no
    sentence takes it as a word of its own."""

    other_file: str
    """"not a game history but a file of another kind": a file that is not SQLite at all."""
    mismatch: str
    """"not a game history ({reason})": a SQLite file of another schema, ``{reason}`` how it differs."""
    cannot_start: str
    """"cannot start a new game history: {error}": the old file is aside and the new one failed."""
    set_aside: str
    """"{path}: not a usable game history ({reason}); set aside as {name}, starting an empty one"."""
    gone: str
    """The same when the file was gone before it could be set aside (no ``{name}``)."""
    salvaged: SalvageWords | None = None
    """For a kind that salvages a damaged file's rows (``StoreKind.salvage``)."""
    reader: ReaderWords | None = None
    """For a kind read beside its writer (``open_read_only``)."""


@dataclass(frozen=True)
class StoreKind:
    """What one kind of store's file holds: its schema, its version and its upgrades."""

    name: str
    """For logs and tests: "game history", "survey database", "game database"; a reader reads ``words``."""
    words: StoreWords
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

    def __post_init__(self) -> None:
        if self.salvage and self.words.salvaged is None:
            raise ValueError(f"the {self.name} salvages a damaged file but has no words to say so")

    def creation(self) -> str:
        return self.schema.replace("{strict}", STRICT)

    def expected_columns(self, version: int) -> Mapping[str, tuple[str, ...]]:
        return self.older_columns.get(version, self.columns)


class StoreProblem(Exception):
    """A store's problem as a ``Phrase``: worded in the reader's language when shown (``str``)."""

    def __init__(self, phrase: Phrase | str) -> None:
        super().__init__(phrase)
        self.phrase = phrase

    def __str__(self) -> str:
        return str(self.phrase)


class StoreRefused(StoreProblem):
    """A file the user named that is not this kind of store: left as it is."""

    def __init__(self, phrase: Phrase, detail: Phrase | str | None = None) -> None:
        super().__init__(phrase)
        self.detail = detail
        """What it holds instead ("schema version 0, expected 2"); None for a file that is not SQLite."""


class StoreNewer(Exception):
    """A file of a newer version of the program: left as it is."""

    def __init__(self, version: int) -> None:
        super().__init__(f"schema {version}")
        self.version = version


class StoreBusy(StoreProblem):
    """Another program holds the file locked for longer than the timeout."""


class StoreUnusable(StoreProblem):
    """The file cannot be opened or written (a read-only folder, a full disk); it may be fine."""


class StoreClaimed(Exception):
    """Another process holds the store's claim (``claim``)."""

    def __init__(self, holder: int | None) -> None:
        super().__init__(f"process {holder}" if holder else "another process")
        self.holder = holder
        """The process id the lock file names, None when it names none."""


@dataclass
class OpenedStore:
    connection: sqlite3.Connection
    notice: Phrase | None = None
    """One line when the file found was set aside or salvaged, worded when shown."""


class _Damaged(Exception):
    """A file to set aside: ``salvage`` when SQLite still reads some of its rows."""

    def __init__(self, reason: Phrase | str, *, salvage: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.salvage = salvage


def open_store(path: Path, kind: StoreKind, *, named: bool, timeout: float = 5.0) -> OpenedStore:
    """Open ``path`` as a ``kind`` store, making, upgrading, salvaging or setting it aside as the
    module docstring says. Raises ``StoreRefused``, ``StoreNewer``, ``StoreBusy`` or
    ``StoreUnusable`` with one line for the user."""
    words = kind.words
    if named and sqlite_file.other_kind_of_file(path):
        raise StoreRefused(Phrase(words.other_file))
    reason: Phrase | str
    try:
        return OpenedStore(_prepare(path, kind, named=named, timeout=timeout))
    except _Damaged as damaged:
        reason, salvage = damaged.reason, damaged.salvage
    except sqlite3.OperationalError as error:
        raise _operational(error) from None
    except sqlite3.DatabaseError as error:  # not a database, or too damaged to read its schema
        reason, salvage = sqlite_file.sqlite_reason(error), False
    rows = _readable_rows(path, kind) if salvage else {}
    moved = set_aside_with_side_files(path)
    if moved is None and path.exists():
        raise StoreUnusable(
            Phrase(N_("{path} is damaged ({reason}) and cannot be moved aside"), path=path, reason=reason)
        )
    try:
        connection = _prepare(path, kind, named=named, timeout=timeout)
    except sqlite3.OperationalError as error:
        raise _operational(error) from None
    except _Damaged as error:
        raise StoreUnusable(Phrase(words.cannot_start, error=error.reason)) from None
    except sqlite3.DatabaseError as error:
        raise StoreUnusable(Phrase(words.cannot_start, error=sqlite_file.sqlite_reason(error))) from None
    named_values = {"path": path, "reason": reason} | ({} if moved is None else {"name": moved.name})
    if salvage and words.salvaged is not None:
        kept, lost = _copy_rows(connection, rows)
        said = words.salvaged
        if lost is None:
            sentence = said.uncounted if moved is not None else said.uncounted_gone
            notice = Phrase(*sentence, count=kept, **named_values)
        else:
            sentence = said.counted if moved is not None else said.counted_gone
            notice = Phrase(*sentence, count=kept, lost=lost, **named_values)
    else:
        notice = Phrase(words.set_aside if moved is not None else words.gone, **named_values)
    return OpenedStore(connection, notice)


def open_read_only(path: Path, kind: StoreKind) -> sqlite3.Connection:
    """``path`` for a reader beside a writer (a report beside a running survey, the window's
    catalogue): never made, upgraded, salvaged or set aside, whatever it holds, and a writer
    meanwhile is not disturbed. ``StoreRefused`` for a missing file or one that is not a
    ``kind`` store of a version read (an empty file has no tables yet: nothing to read; an
    older version reads as it is where its tables have this version's columns, and waits for
    a writer's upgrade where they do not), ``StoreNewer`` for a newer one."""
    words, reader = kind.words, kind.words.reader
    if reader is None:
        raise ValueError(f"the {kind.name} is not read beside its writer")
    if not path.is_file():
        raise StoreRefused(Phrase(reader.missing))
    if sqlite_file.other_kind_of_file(path):
        raise StoreRefused(Phrase(words.other_file))
    try:
        connection = sqlite_file.connect_read_only(path)
    except sqlite3.Error as error:
        raise StoreUnusable(Phrase(reader.cannot_open, error=sqlite_file.sqlite_reason(error))) from None
    try:
        found = sqlite_file.contents(connection)
        if found.version > kind.version:
            raise StoreNewer(found.version)
        mismatch = Phrase(N_("schema version 0, tables none")) if found.empty else _mismatch(connection, kind, found)
        if mismatch is None and found.version < kind.version and kind.expected_columns(found.version) != kind.columns:
            mismatch = Phrase(N_("schema version {version}, not yet upgraded"), version=found.version)
        if mismatch is not None:
            raise StoreRefused(Phrase(words.mismatch, reason=mismatch), mismatch)
    except sqlite3.Error as error:
        connection.close()
        reason = sqlite_file.sqlite_reason(error)
        raise StoreRefused(Phrase(words.mismatch, reason=reason), reason) from None
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
    reason = sqlite_file.sqlite_reason(error)
    if "locked" in text.lower() or "busy" in text.lower():
        return StoreBusy(reason)
    return StoreUnusable(reason)


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
            problem = Phrase(N_("damaged ({reason})"), reason=sqlite_file.sqlite_reason(error))
        if problem is not None:
            raise _Damaged(problem, salvage=kind.salvage and not found.empty)
        mismatch = None if found.empty else _mismatch(connection, kind, found)
        if mismatch is not None:
            if named:  # another program's database, or another of this program's stores: never renamed
                raise StoreRefused(Phrase(kind.words.mismatch, reason=mismatch), mismatch)
            raise _Damaged(mismatch, salvage=False)
        sqlite_file.make_durable(connection, kind.creation(), kind.version, create=found.empty)
        if not found.empty and found.version < kind.version:
            _upgrade(connection, kind)
    except BaseException:
        connection.close()
        raise
    return connection


def _mismatch(connection: sqlite3.Connection, kind: StoreKind, found: sqlite_file.Contents) -> Phrase | None:
    """How a file that holds tables differs from ``kind``, or None when it is one (of a version upgraded)."""
    if not kind.oldest <= found.version <= kind.version:
        return Phrase(N_("schema version {version}, expected {expected}"), version=found.version, expected=kind.version)
    for table, columns in kind.expected_columns(found.version).items():
        held = sqlite_file.columns(connection, table)
        if not held:
            return Phrase(N_("table {table} has columns none"), table=table)
        if held != columns:
            return Phrase(N_("table {table} has columns {columns}"), table=table, columns=", ".join(held))
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


class RowProblem(BattleError):
    """A stored row whose values no release writes (a hand-edited file, a table that is not STRICT):
    a catalogue sentence naming the row and the column, quoting the value as stored."""


def shown_value(value: object) -> str:
    """A stored value for a ``RowProblem``: quoted, at most 40 characters of it."""
    return repr(str(value)[:40])


class RowSkips:
    """Rows a store could not use, said once per read as one line: "2 unreadable rows in FILE skipped
    (game #7: score1 'abc' is out of range or of the wrong type)"."""

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
            raise StoreClaimed(process_lock.pid_in(descriptor) or None)
        process_lock.write_pid(descriptor)
    except BaseException:
        os.close(descriptor)
        raise
    return os.fdopen(descriptor, "rb")
