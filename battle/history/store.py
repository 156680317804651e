"""The history database: every finished game and every puzzle attempt, in SQLite.

One file, ``data_dir()/history.sqlite3``, in WAL mode with ``synchronous=FULL``: each game
or attempt is one transaction, so a crash or a ``kill -9`` in the middle of a write
leaves the database as it was before that write or after it, never half of it, and a
power cut loses nothing committed. A write takes milliseconds; the fsync costs nothing
next to a game.

The history must never stop a game. Every call catches the database's failures and
leaves one line in ``notices`` for the front end to show:

* a file that is not our database (not SQLite, damaged, another schema) is set aside
  (``battle.storage.paths.set_aside``: ``history.sqlite3.corrupt``, its WAL beside it) and a
  new one started, so the damaged one stays for the curious; but a file the user named
  (``--db``) that is another program's database or not SQLite at all is left as it is and
  the history is off for the session (a mistyped name must not move somebody's file);
* a database another copy of the program holds locked for longer than ``BUSY_SECONDS``
  is left alone (it is healthy, and moving it would split the history in two): that one
  write is skipped and said so, and the next call tries again;
* a folder that cannot be used, or a file written by a newer version of the game (whose
  history is its own to keep), turns the history off for the session.

A file of an older schema is brought up to this one in one transaction (schema 1 had no
``winner``); its games stay.

The game itself is saved as ``.mbg`` elsewhere (``battle.storage.saved_games``), so a
skipped write loses a statistic, never a game.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from battle.ratings.glicko2 import Rating
from battle.rules.errors import one_line
from battle.rules.game import Game
from battle.storage import sqlite_file
from battle.storage.paths import StorageProblem, data_dir, ensure_folder, set_aside

SCHEMA_VERSION = 2
FILE_NAME = "history.sqlite3"
BUSY_SECONDS = 2.0
"""How long a write waits for another copy's lock: its writes take milliseconds."""
FRONT_ENDS = ("window", "terminal", "online")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    finished_at REAL NOT NULL,
    front_end TEXT NOT NULL,
    player1 TEXT NOT NULL,
    player2 TEXT NOT NULL,
    level1 TEXT,
    level2 TEXT,
    you INTEGER CHECK (you IN (1, 2)),
    deal INTEGER,
    record TEXT NOT NULL,
    score1 INTEGER NOT NULL,
    score2 INTEGER NOT NULL,
    par INTEGER,
    accuracy1 REAL,
    accuracy2 REAL,
    game_key TEXT UNIQUE,
    winner INTEGER CHECK (winner IN (1, 2))
);
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    id INTEGER PRIMARY KEY,
    attempted_at REAL NOT NULL,
    puzzle_id TEXT NOT NULL,
    solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
    player_rating REAL NOT NULL,
    player_deviation REAL NOT NULL,
    player_volatility REAL NOT NULL,
    puzzle_rating REAL NOT NULL,
    puzzle_deviation REAL NOT NULL,
    puzzle_volatility REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzle_attempts_by_puzzle ON puzzle_attempts (puzzle_id);
"""
_TABLES = {"games", "puzzle_attempts"}
_GAME_COLUMNS = ("id, finished_at, front_end, player1, player2, level1, level2, you, deal, record, score1, score2, "
                 "par, accuracy1, accuracy2, game_key, winner")
_UPGRADES = {1: "ALTER TABLE games ADD COLUMN winner INTEGER CHECK (winner IN (1, 2));"}
"""The statements that bring a file of schema N to schema N + 1."""

T = TypeVar("T")


@dataclass(frozen=True)
class GameEntry:
    """One finished game as the history keeps it."""

    finished_at: float
    """Seconds since the epoch."""
    front_end: str
    """``window``, ``terminal`` or ``online``."""
    players: tuple[str, str]
    levels: tuple[str | None, str | None]
    """The solver's level on each side, None for a person."""
    you: int | None
    """The side this machine's player had, 1 or 2; None for two people at one machine or two levels."""
    deal: int | None
    record: str
    """The game as ``.mbg`` text."""
    scores: tuple[int, int]
    par: int | None = None
    """The deal's value under perfect play for player 1, when the catalogue knows it."""
    accuracy: tuple[float | None, float | None] = (None, None)
    """Each side's review accuracy in percent (best moves / moves), once a review ran."""
    game_key: str | None = None
    """The saved game's id, so the same game is stored once however often it is reported."""
    winner: int | None = None
    """The side that won a game ended before the rules' end (a resignation, the clock), whose
    scores do not say it; None for a game played out, whose scores decide."""
    id: int | None = None
    """The row's number, once stored."""

    @classmethod
    def from_game(cls, game: Game, *, front_end: str, levels: tuple[str | None, str | None] = (None, None),
                  you: int | None = None, par: int | None = None, game_key: str | None = None,
                  finished_at: float | None = None, winner: int | None = None) -> GameEntry:
        """The entry of a game (finished or not: the scores are where it stands)."""
        position = game.position
        return cls(time.time() if finished_at is None else finished_at, front_end, game.names, levels, you,
                   game.deal_number, game.to_text(), (position.scores[0], position.scores[1]), par,
                   game_key=game_key, winner=winner)

    @property
    def played_out(self) -> bool:
        """The game went to the rules' end, so its scores are its result."""
        return self.winner is None

    def margin_for(self, side: int) -> int:
        """The side's score minus the other's."""
        return self.scores[side - 1] - self.scores[2 - side]

    def result_for(self, side: int) -> int:
        """1 for the side's win, 0 for a draw, -1 for a loss: by ``winner`` for a game ended early."""
        if self.winner is not None:
            return 1 if self.winner == side else -1
        margin = self.margin_for(side)
        return (margin > 0) - (margin < 0)

    def opponent_level(self) -> str | None:
        """The level the player (``you``) faced; None against a person or without a ``you``."""
        return None if self.you is None else self.levels[2 - self.you]


def online_entry(game: Game, seat: int, server: str, game_id: str, winner: int | None = None) -> GameEntry:
    """A game played on a server: two people, the player on ``seat``; ``winner`` for a game ended by
    a resignation or the clock (None for one played out, whose scores give its result). Stored
    once however often it is reported, from the window or the terminal."""
    return GameEntry.from_game(game, front_end="online", you=seat, game_key=f"online {server} {game_id}",
                               winner=winner)


@dataclass(frozen=True)
class PuzzleAttempt:
    """One go at a puzzle, with both ratings after it."""

    attempted_at: float
    puzzle_id: str
    solved: bool
    player: Rating
    """The player's puzzle rating after the attempt."""
    puzzle: Rating
    """The puzzle's rating after the attempt."""
    id: int | None = None


def default_history_path() -> Path:
    return data_dir() / FILE_NAME


class _Busy(Exception):
    """The database stayed locked by another connection for ``BUSY_SECONDS``."""


class _Newer(Exception):
    """The file is a history of a newer schema than this version reads."""

    def __init__(self, version: int) -> None:
        super().__init__(f"schema {version}")
        self.version = version


class _NotAHistory(Exception):
    """A file named by the caller (``--db``) that is no game history: another program's
    database, or not SQLite at all. It is left as it is, never set aside."""


class History:
    """The history database; every method is safe to call whatever state the file is in.

    Methods that write return the new row's id (or True), None (or False) when the write
    could not be made; reads return what could be read. Either way ``take_notices`` then
    has the line to show. Safe to share between threads (one connection, behind a lock).
    """

    def __init__(self, path: Path | str | None = None, busy_seconds: float = BUSY_SECONDS) -> None:
        self._path = None if path is None else Path(path)
        self._named = path is not None
        """The caller named the file: one that is no game history is left alone, not set aside."""
        self._busy_seconds = busy_seconds
        self._connection: sqlite3.Connection | None = None
        self._disabled = False
        self._lock = threading.Lock()
        self.notices: list[str] = []
        """One line each, for the user: what went wrong with the database and what was done."""

    @property
    def path(self) -> Path:
        if self._path is None:
            self._path = default_history_path()
        return self._path

    def take_notices(self) -> list[str]:
        """The notices since the last call, for the front end to show once."""
        notices, self.notices = self.notices, []
        return notices

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._connection.close()
                self._connection = None

    def __enter__(self) -> History:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games -------------------------------------------------------------------------

    def add_game(self, entry: GameEntry) -> int | None:
        """Store a finished game; its row id, or None when it could not be stored (see ``notices``).
        A game whose ``game_key`` is already stored is not stored again (its row id is returned)."""

        def write(connection: sqlite3.Connection) -> int | None:
            if entry.game_key is not None:
                found = connection.execute("SELECT id FROM games WHERE game_key = ?", (entry.game_key,)).fetchone()
                if found is not None:
                    return int(found[0])
            cursor = connection.execute(
                f"INSERT INTO games ({_GAME_COLUMNS.removeprefix('id, ')}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (entry.finished_at, entry.front_end, entry.players[0], entry.players[1], entry.levels[0],
                 entry.levels[1], entry.you, entry.deal, entry.record, entry.scores[0], entry.scores[1], entry.par,
                 entry.accuracy[0], entry.accuracy[1], entry.game_key, entry.winner))
            return cursor.lastrowid

        return self._run(write, "store the game", None, writes=True)

    def set_accuracy(self, game_id: int, accuracy1: float | None, accuracy2: float | None) -> bool:
        """Record a review's accuracies for a stored game; False when the game is not there or the write failed."""

        def write(connection: sqlite3.Connection) -> bool:
            cursor = connection.execute("UPDATE games SET accuracy1 = ?, accuracy2 = ? WHERE id = ?",
                                        (accuracy1, accuracy2, game_id))
            return cursor.rowcount == 1

        return bool(self._run(write, "store the review's accuracy", False, writes=True))

    def games(self) -> list[GameEntry]:
        """Every stored game, oldest first."""

        def read(connection: sqlite3.Connection) -> list[GameEntry]:
            rows = connection.execute(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY finished_at, id").fetchall()
            return [_game_from_row(row) for row in rows]

        return self._run(read, "read the games", [])

    def game(self, game_id: int) -> GameEntry | None:
        def read(connection: sqlite3.Connection) -> GameEntry | None:
            row = connection.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
            return None if row is None else _game_from_row(row)

        return self._run(read, "read the game", None)

    # -- puzzle attempts ---------------------------------------------------------------

    def add_attempt(self, attempt: PuzzleAttempt) -> int | None:
        """Store a puzzle attempt; its row id, or None when it could not be stored."""

        def write(connection: sqlite3.Connection) -> int | None:
            cursor = connection.execute(
                "INSERT INTO puzzle_attempts (attempted_at, puzzle_id, solved, player_rating, player_deviation, "
                "player_volatility, puzzle_rating, puzzle_deviation, puzzle_volatility) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (attempt.attempted_at, attempt.puzzle_id, int(attempt.solved), attempt.player.rating,
                 attempt.player.deviation, attempt.player.volatility, attempt.puzzle.rating,
                 attempt.puzzle.deviation, attempt.puzzle.volatility))
            return cursor.lastrowid

        return self._run(write, "store the puzzle attempt", None, writes=True)

    def attempts(self) -> list[PuzzleAttempt]:
        """Every puzzle attempt, oldest first."""

        def read(connection: sqlite3.Connection) -> list[PuzzleAttempt]:
            rows = connection.execute(
                "SELECT id, attempted_at, puzzle_id, solved, player_rating, player_deviation, player_volatility, "
                "puzzle_rating, puzzle_deviation, puzzle_volatility FROM puzzle_attempts "
                "ORDER BY attempted_at, id").fetchall()
            return [PuzzleAttempt(row[1], row[2], bool(row[3]), Rating(row[4], row[5], row[6]),
                                  Rating(row[7], row[8], row[9]), id=row[0]) for row in rows]

        return self._run(read, "read the puzzle attempts", [])

    def puzzle_rating(self, puzzle_id: str) -> Rating | None:
        """The puzzle's rating after its last attempt here, None before its first."""

        def read(connection: sqlite3.Connection) -> Rating | None:
            row = connection.execute(
                "SELECT puzzle_rating, puzzle_deviation, puzzle_volatility FROM puzzle_attempts "
                "WHERE puzzle_id = ? ORDER BY attempted_at DESC, id DESC LIMIT 1", (puzzle_id,)).fetchone()
            return None if row is None else Rating(row[0], row[1], row[2])

        return self._run(read, "read the puzzle's rating", None)

    # -- the connection ----------------------------------------------------------------

    def _run(self, work: Callable[[sqlite3.Connection], T], doing: str, failed: T, *, writes: bool = False) -> T:
        """``work`` on the database (in a transaction when it ``writes``), with the failures of the module
        docstring turned into notices and ``failed`` returned; a damaged file is set aside and ``work``
        tried once on a new one."""
        with self._lock:
            for attempt in range(2):
                try:
                    connection = self._connect()
                    if connection is None:
                        return failed
                    if not writes:
                        return work(connection)
                    with self._transaction(connection):
                        return work(connection)
                except _Busy:
                    self._notice(f"the history database is busy (another copy of the game is writing): "
                                 f"could not {doing}")
                    return failed
                except sqlite3.OperationalError as error:
                    if _is_busy(error):
                        self._notice(f"the history database is busy (another copy of the game is writing): "
                                     f"could not {doing}")
                        return failed
                    if attempt or not _is_damage(error):
                        self._notice(f"could not {doing} in the history database ({error})")
                        return failed
                    self._replace(str(error))
                except sqlite3.DatabaseError as error:
                    if attempt:
                        self._notice(f"could not {doing} in the history database ({error})")
                        return failed
                    self._replace(str(error))
            return failed

    @contextlib.contextmanager
    def _transaction(self, connection: sqlite3.Connection) -> Iterator[None]:
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    def _connect(self) -> sqlite3.Connection | None:
        """The open connection, opening (and checking) the file at the first call; None when the history is off."""
        if self._connection is not None:
            return self._connection
        if self._disabled:
            return None
        try:
            ensure_folder(self.path.parent)
        except StorageProblem as error:
            self._disabled = True
            self._notice(f"no game history this time: {error}")
            return None
        try:
            if self._named and sqlite_file.other_kind_of_file(self.path):
                raise _NotAHistory("a file of another kind")
            self._connection = self._open()
        except _NotAHistory as other:
            self._disabled = True
            self._notice(f"{self.path} is not a game history ({other}); it is left as it is: no game history "
                         "this time")
            return None
        except _Newer as newer:
            self._disabled = True
            self._notice(f"{self.path} was written by a newer version of the game (schema {newer.version}, "
                         f"this one reads {SCHEMA_VERSION}): no game history this time")
            return None
        return self._connection

    def _open(self) -> sqlite3.Connection:
        """Open and check the file: ``sqlite3.DatabaseError`` when it is not our database, ``_Busy`` when locked."""
        connection = sqlite_file.connect(self.path, timeout=self._busy_seconds)
        try:
            problem = sqlite_file.integrity_problem(connection)
            if problem is not None:
                raise sqlite3.DatabaseError(problem)
            found = sqlite_file.contents(connection)
            if found.version > SCHEMA_VERSION and found.tables >= _TABLES:
                raise _Newer(found.version)
            if not found.empty and (not 1 <= found.version <= SCHEMA_VERSION or not found.tables >= _TABLES):
                held = f"schema {found.version}, tables {', '.join(sorted(found.tables)) or 'none'}"
                if self._named:
                    raise _NotAHistory(held)
                raise sqlite3.DatabaseError(f"not a game history ({held})")
            sqlite_file.make_durable(connection, _SCHEMA, SCHEMA_VERSION, create=found.empty)
            if not found.empty and found.version < SCHEMA_VERSION:
                self._upgrade(connection)
        except sqlite3.OperationalError as error:
            connection.close()
            if _is_busy(error):
                raise _Busy() from None
            raise
        except BaseException:
            connection.close()
            raise
        return connection

    def _upgrade(self, connection: sqlite3.Connection) -> None:
        """Bring an older schema's file to this one, in one transaction; the version is read again
        under the lock, as another copy of the game may have upgraded it meanwhile."""
        with self._transaction(connection):
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            while version < SCHEMA_VERSION:
                connection.execute(_UPGRADES[version])
                version += 1
            connection.execute(f"PRAGMA user_version = {version}")

    def _replace(self, reason: str) -> None:
        """Set the damaged file aside (with its WAL) so that the next connection starts a new one."""
        if self._connection is not None:
            with contextlib.suppress(sqlite3.Error):
                self._connection.close()
            self._connection = None
        moved = set_aside(self.path)
        if moved is None and self.path.exists():
            self._disabled = True
            self._notice(f"{self.path} is damaged ({reason}) and cannot be moved aside: no game history this time")
            return
        for suffix in ("-wal", "-shm"):
            companion = self.path.with_name(self.path.name + suffix)
            with contextlib.suppress(OSError):
                if moved is not None and suffix == "-wal":
                    os.replace(companion, moved.with_name(moved.name + suffix))
                else:
                    companion.unlink()
        where = f"set aside as {moved.name}" if moved is not None else "gone"
        self._notice(f"the game history {self.path} is damaged or not ours ({reason}): {where}, starting a new one")

    def _notice(self, text: str) -> None:
        self.notices.append(one_line(text))


def _is_busy(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def _is_damage(error: sqlite3.OperationalError) -> bool:
    """An operational error that a damaged file gives (as opposed to a full disk or a read-only folder)."""
    text = str(error).lower()
    return "malformed" in text or "not a database" in text or "no such table" in text or "no such column" in text


def _game_from_row(row: tuple) -> GameEntry:
    return GameEntry(
        finished_at=row[1], front_end=row[2], players=(row[3], row[4]), levels=(row[5], row[6]), you=row[7],
        deal=row[8], record=row[9], scores=(row[10], row[11]), par=row[12], accuracy=(row[13], row[14]),
        game_key=row[15], winner=row[16], id=row[0],
    )
