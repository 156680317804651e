"""A survey's results in SQLite: one row per deal (and start size), written the moment it is solved.

The file is the survey's memory: a run that is stopped or crashes starts again from it
and never solves a stored deal twice. WAL and ``synchronous=FULL`` make each stored
result survive a power cut; a result costs minutes of solving and one small row, so
the sync is free in comparison. A deal that ran out of its time limit is stored as
``unsolved`` with the estimate its deepest finished search gave, and solved again only
when asked (``retry_unsolved``).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from battle.rules.errors import one_line
from battle.storage import sqlite_file
from battle.storage.paths import data_dir, ensure_folder, set_aside

SCHEMA_VERSION = 1
FULL_DEAL = 108

_SCHEMA = """
CREATE TABLE results (
    deal INTEGER NOT NULL,
    tiles INTEGER NOT NULL,
    solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
    value INTEGER NOT NULL,
    depth INTEGER NOT NULL,
    best_moves TEXT,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    time_limit REAL,
    solver_version TEXT NOT NULL,
    worker TEXT NOT NULL,
    stored_at REAL NOT NULL,
    PRIMARY KEY (deal, tiles)
);
"""


class SurveyDatabaseError(Exception):
    """The survey database cannot be opened or written; the message is one line for the user."""


@dataclass(frozen=True)
class DealResult:
    """What solving one deal from its start found."""

    deal: int
    tiles: int
    """The survey's start size: 108 for a whole deal, fewer for ``start_position(deal, tiles)``."""
    solved: bool
    """True: ``value`` is exact. False: the time limit came first and ``value`` is the estimate
    of the deepest search that finished (at ``depth`` moves)."""
    value: int
    """The final margin for the player to move at the start (player 1 in a whole deal)."""
    depth: int
    best_moves: tuple[str, ...] | None
    """Every best first move in notation when solved (None when only the value was asked for)."""
    nodes: int
    seconds: float
    time_limit: float | None
    solver_version: str
    worker: str
    stored_at: float = 0.0


def default_survey_path() -> Path:
    return data_dir() / "atlas" / "survey.sqlite3"


class SurveyDatabase:
    """The results of one or more survey runs."""

    def __init__(self, path: Path | str | None = None, *, read_only: bool = False) -> None:
        self.path = Path(path) if path is not None else default_survey_path()
        self.named = path is not None
        """The caller named the file (``--db``): one that is not a survey database is refused, not set aside."""
        self.notice: str | None = None
        """One line to print when the file found had to be set aside."""
        self._lock = threading.Lock()
        if read_only:
            self._connection = self._open_read_only()
            return
        try:
            ensure_folder(self.path.parent)
        except OSError as error:
            raise SurveyDatabaseError(one_line(f"{self.path.parent}: cannot make the folder: {error}")) from None
        self._connection = self._open()

    def _open(self) -> sqlite3.Connection:
        if self.named and sqlite_file.other_kind_of_file(self.path):
            raise SurveyDatabaseError(one_line(f"{self.path}: not a survey database but a file of another kind; "
                                               "name another file (this one is left as it is)"))
        try:
            return self._prepare()
        except sqlite3.DatabaseError as error:
            if isinstance(error, sqlite3.OperationalError):
                raise SurveyDatabaseError(one_line(f"{self.path}: cannot open the survey database: {error}")) from None
            reason = str(error)
        moved = set_aside(self.path)
        if moved is None:
            raise SurveyDatabaseError(one_line(f"{self.path}: not a survey database ({reason}), cannot be moved aside"))
        self.notice = one_line(f"{self.path}: not a survey database ({reason}); set aside as {moved.name}, "
                               "starting an empty one")
        return self._prepare()

    def _open_read_only(self) -> sqlite3.Connection:
        """For a reader beside a running survey (the window's catalogue, a report, an export):
        the file is never made, converted or set aside, whatever it holds, and a survey writing
        to it meanwhile is not disturbed (WAL lets one reader and one writer share the file)."""
        if not self.path.is_file():
            raise SurveyDatabaseError(one_line(f"{self.path}: no survey database there"))
        if sqlite_file.other_kind_of_file(self.path):
            raise SurveyDatabaseError(one_line(f"{self.path}: not a survey database but a file of another kind"))
        try:
            connection = sqlite_file.connect_read_only(self.path)
        except sqlite3.Error as error:
            raise SurveyDatabaseError(one_line(f"{self.path}: cannot open the survey database: {error}")) from None
        try:
            found, foreign = self._contents(connection)
            if foreign is not None or found.empty:  # an empty file has no survey's tables yet: nothing to read
                raise SurveyDatabaseError(one_line(f"{self.path}: not a survey database "
                                                   f"({foreign or 'schema version 0, tables none'})"))
        except sqlite3.Error as error:
            connection.close()
            raise SurveyDatabaseError(one_line(f"{self.path}: not a survey database ({error})")) from None
        except BaseException:
            connection.close()
            raise
        return connection

    def _contents(self, connection: sqlite3.Connection) -> tuple[sqlite_file.Contents, str | None]:
        """What the file holds, and what makes it another kind of database ("schema version 0,
        tables games"; None for this version's survey database or a new, empty file). A newer
        version's file is refused at once, left as it is."""
        found = sqlite_file.contents(connection)
        if found.version > SCHEMA_VERSION:
            raise SurveyDatabaseError(one_line(f"{self.path}: written by a newer version (schema {found.version}, "
                                               f"this one reads {SCHEMA_VERSION}); it is left as it is"))
        if found.empty or (found.version == SCHEMA_VERSION and "results" in found.tables):
            return found, None
        return found, f"schema version {found.version}, tables {', '.join(sorted(found.tables)) or 'none'}"

    def _prepare(self) -> sqlite3.Connection:
        connection = sqlite_file.connect(self.path, timeout=30)
        try:
            found, foreign = self._contents(connection)
            if foreign is not None:
                if self.named:  # another program's database, or this one's game history: never renamed
                    raise SurveyDatabaseError(one_line(f"{self.path}: not a survey database ({foreign}); name "
                                                       "another file (this one is left as it is)"))
                raise sqlite3.DatabaseError(foreign)
            sqlite_file.make_durable(connection, _SCHEMA, SCHEMA_VERSION, create=found.empty)
        except BaseException:
            connection.close()
            raise
        return connection

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __enter__(self) -> SurveyDatabase:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    @contextlib.contextmanager
    def _locked(self, action: str) -> Iterator[sqlite3.Connection]:
        with self._lock:
            try:
                yield self._connection
            except sqlite3.Error as error:
                raise SurveyDatabaseError(one_line(f"{self.path}: {action}: {error}")) from None

    # -- writing -----------------------------------------------------------------------

    def store(self, result: DealResult, stored_at: float) -> None:
        """Keep ``result``, replacing an earlier one of the same deal and start size (a retried
        unsolved deal); committed to disk when this returns."""
        moves = None if result.best_moves is None else json.dumps(list(result.best_moves))
        with self._locked(f"storing deal {result.deal}") as connection:
            connection.execute(
                "INSERT OR REPLACE INTO results (deal, tiles, solved, value, depth, best_moves, nodes, seconds, "
                "time_limit, solver_version, worker, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (result.deal, result.tiles, int(result.solved), result.value, result.depth, moves, result.nodes,
                 result.seconds, result.time_limit, result.solver_version, result.worker, stored_at),
            )

    # -- reading -----------------------------------------------------------------------

    def stored_deals(self, tiles: int = FULL_DEAL, *, solved_only: bool = False) -> set[int]:
        """Deals with a stored result at this start size (only the exact ones with ``solved_only``)."""
        where = " AND solved = 1" if solved_only else ""
        with self._locked("reading") as connection:
            rows = connection.execute(f"SELECT deal FROM results WHERE tiles = ?{where}", (tiles,)).fetchall()
        return {row[0] for row in rows}

    def results(self, tiles: int = FULL_DEAL, deals: Iterable[int] | None = None) -> list[DealResult]:
        """Stored results at this start size, by deal number."""
        with self._locked("reading") as connection:
            rows = connection.execute(
                "SELECT deal, tiles, solved, value, depth, best_moves, nodes, seconds, time_limit, solver_version, "
                "worker, stored_at FROM results WHERE tiles = ? ORDER BY deal", (tiles,)).fetchall()
        wanted = None if deals is None else set(deals)
        return [_result(row) for row in rows if wanted is None or row[0] in wanted]


def _result(row: tuple) -> DealResult:
    deal, tiles, solved, value, depth, moves, nodes, seconds, limit, version, worker, stored_at = row
    best = None if moves is None else tuple(str(move) for move in json.loads(moves))
    return DealResult(deal, tiles, bool(solved), value, depth, best, nodes, seconds, limit, version, worker, stored_at)
