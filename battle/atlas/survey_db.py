"""A survey's results in SQLite: one row per deal (and start size), written the moment it is solved.

The file is the survey's memory: a run that is stopped or crashes starts again from it
and never solves a stored deal twice. WAL and ``synchronous=FULL`` make each stored
result survive a power cut; a result costs minutes of solving and one small row, so
the sync is free in comparison. A deal that ran out of its time limit is stored as
``unsolved`` with the estimate its deepest finished search gave, and solved again only
when asked (``retry_unsolved``).

The file opens through the program's one store base (``battle.storage.sqlite_store``): a
damaged page costs the rows on it, not the file; a reader beside a running survey (a report,
an export, the window's catalogue) reads past a damaged page without changing the file. A
run holds the file's claim while it solves, so a second run on the same file says so and
stops instead of solving the same deals twice. A row no survey writes (bad ``best_moves``
JSON, a text ``value`` or ``deal``) is skipped and said once in ``problems``, and so are the
rows a damaged page hides; readers go on with the rest.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, TypeVar

from battle.i18n import N_, NN_, _, ngettext
from battle.rules.board import parse_move
from battle.rules.deal import MAX_DEAL
from battle.rules.errors import BattleError, Phrase, one_line
from battle.storage import sqlite_store
from battle.storage.paths import data_dir, ensure_folder, error_reason
from battle.storage.sqlite_file import sqlite_reason
from battle.storage.sqlite_store import (
    ReaderWords,
    RowProblem,
    SalvageWords,
    StoreKind,
    StoreWords,
    finite,
    shown_value,
    text_or_none,
    whole,
)

T = TypeVar("T")

SCHEMA_VERSION = 2
"""2 takes deal 0, a deal like any other (``battle.rules.deal``: 0 to 2**63 - 1), which 1 refused."""
FULL_DEAL = 108

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    deal INTEGER NOT NULL CHECK (deal >= 0),
    tiles INTEGER NOT NULL CHECK (tiles BETWEEN 4 AND 108),
    solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
    value INTEGER NOT NULL CHECK (value BETWEEN -1000 AND 1000),
    depth INTEGER NOT NULL CHECK (depth >= 0),
    best_moves TEXT CHECK (best_moves IS NULL OR json_valid(best_moves)),
    nodes INTEGER NOT NULL CHECK (nodes >= 0),
    seconds REAL NOT NULL CHECK (seconds >= 0),
    time_limit REAL,
    solver_version TEXT NOT NULL,
    worker TEXT NOT NULL,
    stored_at REAL NOT NULL,
    PRIMARY KEY (deal, tiles)
){strict};
"""
"""STRICT where SQLite has it (3.37), so a text ``value`` is refused when written; a file made
by a release whose table is not STRICT keeps it, and its rows are checked as read."""
_COLUMNS = (
    "deal",
    "tiles",
    "solved",
    "value",
    "depth",
    "best_moves",
    "nodes",
    "seconds",
    "time_limit",
    "solver_version",
    "worker",
    "stored_at",
)
_VERSION_1_CHECK = "CHECK (deal >= 1)"


def _take_deal_zero(connection: sqlite3.Connection) -> None:
    """Version 1 to 2: a table made with ``CHECK (deal >= 1)`` is copied into one whose definition is
    its own with that CHECK widened (SQLite cannot alter a CHECK), so it keeps everything else it
    was: STRICT or not, and the rows it held, hostile ones of an older release included (a table
    of a release before the CHECKs has none to widen and stays as it is)."""
    [made] = connection.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'results'").fetchone()
    if _VERSION_1_CHECK not in made:
        return
    widened = made.replace(_VERSION_1_CHECK, "CHECK (deal >= 0)", 1).replace("results", "results_v2", 1)
    connection.execute(widened)
    connection.execute("INSERT INTO results_v2 SELECT * FROM results")
    connection.execute("DROP TABLE results")
    connection.execute("ALTER TABLE results_v2 RENAME TO results")


WORDS = StoreWords(
    other_file=N_("not a survey database but a file of another kind"),
    mismatch=N_("not a survey database ({reason})"),
    cannot_start=N_("cannot start a new survey database: {error}"),
    set_aside=N_("{path}: not a usable survey database ({reason}); set aside as {name}, starting an empty one"),
    gone=N_("{path}: not a usable survey database ({reason}); gone meanwhile, starting an empty one"),
    salvaged=SalvageWords(
        counted=NN_(
            "{path}: the survey database is {reason}; {count} row kept in a new file, {lost} lost; "
            "the damaged file set aside as {name}",
            "{path}: the survey database is {reason}; {count} rows kept in a new file, {lost} lost; "
            "the damaged file set aside as {name}",
        ),
        counted_gone=NN_(
            "{path}: the survey database is {reason}; {count} row kept in a new file, {lost} lost; "
            "the damaged file gone meanwhile",
            "{path}: the survey database is {reason}; {count} rows kept in a new file, {lost} lost; "
            "the damaged file gone meanwhile",
        ),
        uncounted=NN_(
            "{path}: the survey database is {reason}; {count} row kept in a new file, those on its damaged pages "
            "lost (no index counts them); the damaged file set aside as {name}",
            "{path}: the survey database is {reason}; {count} rows kept in a new file, those on its damaged pages "
            "lost (no index counts them); the damaged file set aside as {name}",
        ),
        uncounted_gone=NN_(
            "{path}: the survey database is {reason}; {count} row kept in a new file, those on its damaged pages "
            "lost (no index counts them); the damaged file gone meanwhile",
            "{path}: the survey database is {reason}; {count} rows kept in a new file, those on its damaged pages "
            "lost (no index counts them); the damaged file gone meanwhile",
        ),
    ),
    reader=ReaderWords(
        missing=N_("no survey database there"), cannot_open=N_("cannot open the survey database: {error}")
    ),
)
"""What the program says about the survey's file, each sentence whole with the kind in it."""
KIND = StoreKind(
    name="survey database",
    words=WORDS,
    version=SCHEMA_VERSION,
    schema=_SCHEMA,
    columns={"results": _COLUMNS},
    upgrades={1: _take_deal_zero},
)


class SurveyDatabaseError(Exception):
    """The survey database cannot be opened or written; the message is one line for the user."""


class SurveyClaimed(SurveyDatabaseError):
    """Another survey run holds the file: two would solve the same deals."""


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

    def __init__(self, path: Path | str | None = None, *, read_only: bool = False, claim: bool = False) -> None:
        """``read_only``: for a reader beside a running survey (the window's catalogue, a report, an
        export), which never makes, converts or sets aside the file. ``claim``: for a survey run,
        which holds the file's claim until ``close`` (``SurveyClaimed`` when another run holds it)."""
        self.path = Path(path) if path is not None else default_survey_path()
        self.named = path is not None
        """The caller named the file (``--db``): one that is not a survey database is refused, not set aside."""
        self.notice: Phrase | None = None
        """One line to print when the file found had to be set aside or salvaged, worded when shown."""
        self.problems: list[str] = []
        """One line per read that skipped rows no survey writes (each said once)."""
        self.damaged = False
        """A read found damaged pages, or ``check`` found the file damaged: rows may be missing."""
        self._lock = threading.Lock()
        self._claim: IO[bytes] | None = None
        if read_only:
            self._connection = self._open(lambda: sqlite_store.open_read_only(self.path, KIND))
            return
        try:
            ensure_folder(self.path.parent)
        except OSError as error:
            raise SurveyDatabaseError(
                one_line(_("{path}: cannot make the folder: {error}").format(path=self.path.parent, error=error))
            ) from None
        if claim:
            self._claim = self._take_claim()
        try:
            opened = self._open(lambda: sqlite_store.open_store(self.path, KIND, named=self.named, timeout=30))
        except BaseException:
            self._release()
            raise
        self.notice = opened.notice
        self._connection = opened.connection

    def _open(self, how: Callable[[], T]) -> T:
        """``how()``, with the store base's refusals as one line each."""
        try:
            return how()
        except sqlite_store.StoreNewer as newer:
            raise SurveyDatabaseError(
                one_line(
                    _(
                        "{path}: written by a newer version (schema {version}, this one reads {ours}); "
                        "it is left as it is"
                    ).format(path=self.path, version=newer.version, ours=SCHEMA_VERSION)
                )
            ) from None
        except sqlite_store.StoreRefused as refused:
            raise SurveyDatabaseError(
                one_line(
                    _("{path}: {refused}; name another file (this one is left as it is)").format(
                        path=self.path, refused=refused
                    )
                )
            ) from None
        except (sqlite_store.StoreBusy, sqlite_store.StoreUnusable) as error:
            raise SurveyDatabaseError(
                one_line(_("{path}: cannot open the survey database: {error}").format(path=self.path, error=error))
            ) from None

    def _take_claim(self) -> IO[bytes]:
        try:
            return sqlite_store.claim(self.path)
        except sqlite_store.StoreClaimed as claimed:
            if claimed.holder is None:
                said = _(
                    "{path}: a survey is already running on this file (another process); it solves the deals, "
                    "this one would solve them twice: wait for it, or stop it and run this again"
                )
            else:
                said = _(
                    "{path}: a survey is already running on this file (process {holder}); it solves the deals, "
                    "this one would solve them twice: wait for it, or stop it and run this again"
                )
            raise SurveyClaimed(one_line(said.format(path=self.path, holder=claimed.holder))) from None
        except OSError as error:
            raise SurveyDatabaseError(
                one_line(
                    _("{path}: cannot claim the survey database: {error}").format(
                        path=self.path, error=error_reason(error)
                    )
                )
            ) from None

    def _release(self) -> None:
        if self._claim is not None:
            self._claim.close()
            self._claim = None

    def close(self) -> None:
        with self._lock:
            self._connection.close()
            self._release()

    def __enter__(self) -> SurveyDatabase:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    @contextlib.contextmanager
    def _locked(self, failed: str, **values: object) -> Iterator[sqlite3.Connection]:
        """The connection under the lock; a database error raises ``SurveyDatabaseError`` with ``failed``,
        a whole sentence of the catalogue with the ``{path}``, the ``{error}`` and the ``values``."""
        with self._lock:
            try:
                yield self._connection
            except sqlite3.Error as error:
                said = _(failed).format(path=self.path, error=sqlite_reason(error), **values)
                raise SurveyDatabaseError(one_line(said)) from None

    # -- writing -----------------------------------------------------------------------

    def store(self, result: DealResult, stored_at: float) -> None:
        """Keep ``result``, replacing an earlier one of the same deal and start size (a retried
        unsolved deal); committed to disk when this returns."""
        moves = None if result.best_moves is None else json.dumps(list(result.best_moves))
        with self._locked(N_("{path}: storing deal {deal}: {error}"), deal=result.deal) as connection:
            connection.execute(
                "INSERT OR REPLACE INTO results (deal, tiles, solved, value, depth, best_moves, nodes, seconds, "
                "time_limit, solver_version, worker, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    result.deal,
                    result.tiles,
                    int(result.solved),
                    result.value,
                    result.depth,
                    moves,
                    result.nodes,
                    result.seconds,
                    result.time_limit,
                    result.solver_version,
                    result.worker,
                    stored_at,
                ),
            )

    # -- reading -----------------------------------------------------------------------

    def stored_deals(self, tiles: int = FULL_DEAL, *, solved_only: bool = False) -> set[int]:
        """Deals with a stored result at this start size (only the exact ones with ``solved_only``)."""
        where = " AND solved = 1" if solved_only else ""
        with self._locked(N_("{path}: reading: {error}")) as connection:
            rows = connection.execute(f"SELECT deal FROM results WHERE tiles = ?{where}", (tiles,)).fetchall()
        return {row[0] for row in rows}

    def results(self, tiles: int = FULL_DEAL, deals: Iterable[int] | None = None) -> list[DealResult]:
        """Stored results at this start size, by deal number; rows on a damaged page are left out, and
        said once in ``problems`` with the rows no survey writes."""
        with self._locked(N_("{path}: reading: {error}")) as connection:
            try:
                rows = connection.execute(
                    f"SELECT {', '.join(_COLUMNS)} FROM results WHERE tiles = ?", (tiles,)
                ).fetchall()
            except sqlite3.OperationalError:  # busy, or the disk: nothing to read around
                raise
            except sqlite3.DatabaseError:  # a damaged page: read around it
                rows = self._rows_around_damage(connection, tiles)
        wanted = None if deals is None else set(deals)
        skips = sqlite_store.RowSkips(str(self.path))
        kept = [skips.keep(row, _result) for row in rows if wanted is None or row[0] in wanted]
        self._say(skips.line())
        return sorted((result for result in kept if result is not None), key=lambda result: result.deal)

    def start_sizes(self) -> dict[int, int]:
        """How many deals are stored at each start size (tiles on the board), smallest first."""
        with self._locked(N_("{path}: reading: {error}")) as connection:
            try:
                rows = connection.execute(
                    "SELECT tiles, COUNT(*) FROM results GROUP BY tiles ORDER BY tiles"
                ).fetchall()
            except sqlite3.OperationalError:
                raise
            except sqlite3.DatabaseError:  # a damaged page: count what can be read around it
                counts: dict[int, int] = {}
                for row in sqlite_store.read_table(connection, "results").rows:
                    counts[row["tiles"]] = counts.get(row["tiles"], 0) + 1
                return dict(sorted(counts.items()))
        return dict(rows)

    def check(self) -> bool:
        """Whether SQLite's quick check finds the file whole; if not, ``damaged`` is set and one line
        said in ``problems``. A damaged page can hide rows without any read failing (a table's page
        overwritten with an empty one reads as no rows), so a report and an export ask this first:
        milliseconds for a survey's file of a few hundred rows."""
        with self._locked(N_("{path}: reading: {error}")) as connection:
            try:
                whole = connection.execute("PRAGMA quick_check(1)").fetchall() == [("ok",)]
            except sqlite3.OperationalError:
                raise
            except sqlite3.DatabaseError:
                whole = False
        if not whole:
            self.damaged = True
            self._say(
                _(
                    "{path} is damaged (SQLite's check of the file fails): deals on its damaged pages are missing"
                ).format(path=self.path)
            )
        return whole

    def _rows_around_damage(self, connection: sqlite3.Connection, tiles: int) -> list[tuple]:
        """The rows at ``tiles`` that SQLite still reads past damaged pages; how many it cannot is said once."""
        self.damaged = True
        read = sqlite_store.read_table(connection, "results")
        if read.unread is None:
            self._say(_("rows of {path} on damaged pages could not be read").format(path=self.path))
        elif read.unread:
            self._say(
                ngettext(
                    "{count} row of {path} is on a damaged page and could not be read",
                    "{count} rows of {path} are on damaged pages and could not be read",
                    read.unread,
                ).format(count=read.unread, path=self.path)
            )
        return [tuple(row[column] for column in _COLUMNS) for row in read.rows if row["tiles"] == tiles]

    def _say(self, line: str | None) -> None:
        if line is not None and one_line(line) not in self.problems:
            self.problems.append(one_line(line))


def _result(row: tuple) -> DealResult:
    """A stored result, or ``RowProblem`` (a ``ValueError``) naming the value no survey writes (a
    hand-edited file, or one whose table is not STRICT)."""
    deal, tiles, solved, value, depth, moves, nodes, seconds, limit, version, worker, stored_at = row
    if not whole(deal, 0, MAX_DEAL):
        raise RowProblem(N_("deal {value} is not a deal number (0 to {last})"), value=shown_value(deal), last=MAX_DEAL)
    checks = (
        ("tiles", tiles, whole(tiles, 4, FULL_DEAL)),
        ("solved", solved, whole(solved, 0, 1)),
        ("value", value, whole(value, -1000, 1000)),
        ("depth", depth, whole(depth, 0, 1 << 31)),
        ("nodes", nodes, whole(nodes, 0, 1 << 62)),
        ("seconds", seconds, finite(seconds, 0, 1e9)),
        ("time_limit", limit, limit is None or finite(limit, 0, 1e9)),
        ("solver_version", version, isinstance(version, str)),
        ("worker", worker, isinstance(worker, str)),
        ("stored_at", stored_at, finite(stored_at, 0, 1e12)),
        ("best_moves", moves, text_or_none(moves)),
    )
    for name, found, good in checks:
        if not good:
            raise RowProblem(
                N_("deal {deal}: {column} {value} is out of range or of the wrong type"),
                deal=deal,
                column=name,
                value=shown_value(found),
            )
    return DealResult(
        deal,
        tiles,
        bool(solved),
        value,
        depth,
        _best_moves(deal, moves),
        nodes,
        float(seconds),
        None if limit is None else float(limit),
        version,
        worker,
        float(stored_at),
    )


def _best_moves(deal: int, text: str | None) -> tuple[str, ...] | None:
    """The stored JSON list of moves in notation, each checked (``parse_move`` names a bad one)."""
    if text is None:
        return None
    try:
        moves = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise RowProblem(
            N_("deal {deal}: best_moves {value} is not a JSON list"), deal=deal, value=shown_value(text)
        ) from None
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise RowProblem(
            N_("deal {deal}: best_moves {value} is not a list of moves"), deal=deal, value=shown_value(text)
        )
    for move in moves:
        try:
            parse_move(move)
        except BattleError as error:
            raise RowProblem(
                N_("deal {deal}: best move {move}: {error}"), deal=deal, move=repr(move[:20]), error=error.phrase
            ) from None
    return tuple(moves)
