"""The pieces of the program's SQLite files (the server's games, the survey's results, the game
history) that the one store base, ``battle.storage.sqlite_store``, opens them with.

Each is one file in WAL mode with ``synchronous=FULL``: a transaction is on disk when its
COMMIT returns, so a kill or a power cut loses nothing a caller was told is kept. Opening
one reads what it holds first (``contents``) and changes nothing until its owner has
decided the file is its own: switching a journal mode rewrites the file's header, which
must never happen to somebody else's database or to a newer version's.
"""

from __future__ import annotations

import random
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from battle.i18n import N_, NN_
from battle.rules.errors import Phrase

WAL_SWITCH_WAIT = 10.0
"""Seconds a connection keeps trying to switch a new file to WAL while other copies open it too."""


@dataclass(frozen=True)
class Contents:
    """What an opened file holds, read before anything is written to it."""

    version: int
    """``PRAGMA user_version``: the schema the file was made with (0 for a new file)."""
    tables: frozenset[str]

    @property
    def empty(self) -> bool:
        """A new file (or one no program has used): the tables are to be made."""
        return self.version == 0 and not self.tables


SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""


def other_kind_of_file(path: Path) -> bool:
    """``path`` holds something that is not an SQLite database (text, a catalogue, an image).
    Named with ``--db`` it is a mistyped name, refused and never set aside, which would rename
    the user's own file; at the program's own path it is set aside like a damaged database."""
    try:
        with open(path, "rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError:  # missing (to be made) or unreadable (opening says why)
        return False
    return bool(head) and head != SQLITE_HEADER


def connect(path: Path, timeout: float = 5.0) -> sqlite3.Connection:
    """A connection for any thread (each owner serialises its calls with a lock of its own) whose
    transactions are the owner's explicit ``BEGIN IMMEDIATE ... COMMIT``; ``timeout`` is how long
    a write waits for another program's."""
    return sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=timeout)


def connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that cannot write the file (``mode=ro``): for a reader that must leave
    another program's file exactly as it is. It still shares the WAL index with a writer."""
    return sqlite3.connect(
        f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None, check_same_thread=False, timeout=5.0
    )


def integrity_problem(connection: sqlite3.Connection) -> Phrase | None:
    """What ``PRAGMA quick_check`` finds wrong with the file, on one line ("damaged (Page 2: free
    space corruption, and 20 more)"), or None when it is sound. A file too damaged for the
    check raises ``sqlite3.DatabaseError``, as opening it does. SQLite's own words are quoted as
    they are: they name pages and cells, no reader's words."""
    check = connection.execute("PRAGMA quick_check").fetchone()
    if check is not None and check[0] == "ok":
        return None
    lines = [line.strip() for line in (check[0] if check else "").splitlines()]
    lines = [line for line in lines if line and not line.startswith("***")]
    if not lines:
        return Phrase(N_("damaged (SQLite's check gives no details)"))
    if len(lines) == 1:
        return Phrase(N_("damaged ({detail})"), detail=lines[0])
    return Phrase(
        *NN_("damaged ({detail}, and {count} more)", "damaged ({detail}, and {count} more)"),
        detail=lines[0],
        count=len(lines) - 1,
    )


_SQLITE_REASONS = frozenset(
    {
        N_("access permission denied"),
        N_("database is locked"),
        N_("database table is locked"),
        N_("out of memory"),
        N_("attempt to write a readonly database"),
        N_("disk I/O error"),
        N_("database disk image is malformed"),
        N_("database or disk is full"),
        N_("unable to open database file"),
        N_("file is not a database"),
    }
)
"""SQLite's reasons a player meets, in the catalogue: the English is SQLite's own (``sqlite3_errstr``
of its result codes), so an English line reads as SQLite's, and another language gets words of its own."""


def sqlite_reason(error: sqlite3.Error) -> Phrase | str:
    """What went wrong in a reader's words, worded when shown: one of SQLite's general reasons ("file is
    not a database") through the catalogue, any other message as SQLite words it (a particular one
    names a table or a column: "no such table: games")."""
    text = str(error)
    return Phrase(text) if text in _SQLITE_REASONS else text


def contents(connection: sqlite3.Connection) -> Contents:
    """The version and the tables, read in one transaction: read apart, another program making the
    file between the two reads shows version 0 with its tables, which is no file of ours."""
    own = not connection.in_transaction
    if own:
        connection.execute("BEGIN")
    try:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        tables = frozenset(row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    finally:
        if own:
            connection.execute("COMMIT")
    return Contents(version, tables)


def columns(connection: sqlite3.Connection, table: str) -> tuple[str, ...]:
    """A table's column names in order (empty for no such table)."""
    quoted = table.replace('"', '""')
    return tuple(row[1] for row in connection.execute(f'PRAGMA table_info("{quoted}")'))


def make_durable(connection: sqlite3.Connection, schema: str, version: int, *, create: bool) -> None:
    """WAL and ``synchronous=FULL``; with ``create``, the tables of ``schema`` and the file's
    ``version`` in one transaction (a schema that two copies of the program may make at once,
    between one's look and its lock, says IF NOT EXISTS)."""
    _switch_to_wal(connection)
    connection.execute("PRAGMA synchronous = FULL")
    if create:
        connection.executescript(f"BEGIN IMMEDIATE; {schema} PRAGMA user_version = {version}; COMMIT;")


def _switch_to_wal(connection: sqlite3.Connection) -> None:
    """``PRAGMA journal_mode = WAL``, tried again while another connection holds the file.

    Switching a rollback-journal file to WAL needs the file to itself, and SQLite answers
    "database is locked" at once, without its busy handler, when another copy is switching or
    reading it at that moment: three processes opening the same 300 new files failed 1 to 4
    times a run. A file already in WAL mode answers at once."""
    deadline = time.monotonic() + WAL_SWITCH_WAIT
    while True:
        try:
            connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
        time.sleep(random.uniform(0.005, 0.05))  # apart, so two waiting copies do not meet again
