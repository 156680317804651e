"""The one way the program opens its SQLite files: look first, change nothing until the owner
has said the file is its own, then WAL with synchronous=FULL."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from battle.storage import sqlite_file

SCHEMA = "CREATE TABLE IF NOT EXISTS things (id INTEGER PRIMARY KEY, name TEXT NOT NULL);"


def test_a_new_file_is_empty_and_gets_its_tables_version_and_journal(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    connection = sqlite_file.connect(path)
    found = sqlite_file.contents(connection)
    assert found.empty and found.version == 0 and found.tables == frozenset()
    assert sqlite_file.integrity_problem(connection) is None
    sqlite_file.make_durable(connection, SCHEMA, 3, create=True)
    connection.close()
    again = sqlite3.connect(path)
    assert again.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert again.execute("PRAGMA user_version").fetchone()[0] == 3
    assert sqlite_file.columns(again, "things") == ("id", "name")
    assert sqlite_file.columns(again, "nothing") == ()
    again.close()


def test_looking_at_someone_elses_file_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "theirs.sqlite3"
    theirs = sqlite3.connect(path)
    theirs.executescript("CREATE TABLE notes (text TEXT); PRAGMA user_version = 7;")
    theirs.close()
    before = path.read_bytes()
    connection = sqlite_file.connect(path)
    found = sqlite_file.contents(connection)
    assert not found.empty and found.version == 7 and found.tables == {"notes"}
    connection.close()
    assert path.read_bytes() == before  # no journal switch, no version: the owner decides first
    assert not (tmp_path / "theirs.sqlite3-wal").exists()


def test_a_damaged_file_is_named_on_one_line(tmp_path: Path) -> None:
    path = tmp_path / "damaged.sqlite3"
    good = sqlite3.connect(path)
    good.executescript("CREATE TABLE t (x); " + "INSERT INTO t VALUES (randomblob(3000)); " * 20)
    good.close()
    data = bytearray(path.read_bytes())
    data[4096:4108] = bytes.fromhex("0d00000005ffff0000000000")  # the table's root page: cells past its end
    path.write_bytes(bytes(data))
    connection = sqlite_file.connect(path)
    found = sqlite_file.integrity_problem(connection)
    connection.close()
    problem = str(found)
    assert found is not None and problem.startswith("damaged (Page 2: ")
    assert "\n" not in problem and problem.endswith(" more)")
