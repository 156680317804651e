"""The history database: every finished game and every puzzle attempt, in SQLite.

One file, ``data_dir()/history.sqlite3``, in WAL mode with ``synchronous=FULL``: each game
or attempt is one transaction, so a crash or a ``kill -9`` in the middle of a write
leaves the database as it was before that write or after it, never half of it, and a
power cut loses nothing committed. A write takes milliseconds; the fsync costs nothing
next to a game.

The history must never stop a game. Every call catches the database's failures and
leaves one line in ``notices`` for the front end to show:

* the file is opened, checked, upgraded and set aside as every store of the program's is
  (``battle.storage.sqlite_store``): a file with a damaged page keeps every row SQLite
  still reads, in a new file, with the damaged one kept beside it (``.corrupt``); a file
  that is not SQLite or holds another schema is set aside and a new one started; but a
  file the user named (``--db``) that is another program's database or not SQLite at all
  is left as it is and the history is off for the session (a mistyped name must not move
  somebody's file);
* a row whose values no release writes (a score of ``'abc'``, a rating of ``1e308``, in a
  file edited by hand or made by a release whose tables are not STRICT) is skipped and said once;
  the other rows stay in use;
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
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from battle.i18n import N_, NN_, _
from battle.ratings.glicko2 import DEVIATION_RANGE, RATING_RANGE, VOLATILITY_RANGE, Rating
from battle.rules.errors import one_line
from battle.rules.game import Game
from battle.storage.paths import StorageProblem, data_dir, ensure_folder
from battle.storage.sqlite_file import sqlite_reason
from battle.storage.sqlite_store import (
    RowProblem,
    RowSkips,
    SalvageWords,
    StoreBusy,
    StoreKind,
    StoreNewer,
    StoreRefused,
    StoreUnusable,
    StoreWords,
    finite,
    open_store,
    shown_value,
    text_or_none,
    whole,
)

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
    score1 INTEGER NOT NULL CHECK (score1 BETWEEN 0 AND 100000),
    score2 INTEGER NOT NULL CHECK (score2 BETWEEN 0 AND 100000),
    par INTEGER,
    accuracy1 REAL CHECK (accuracy1 BETWEEN 0 AND 100),
    accuracy2 REAL CHECK (accuracy2 BETWEEN 0 AND 100),
    game_key TEXT UNIQUE,
    winner INTEGER CHECK (winner IN (1, 2))
){strict};
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    id INTEGER PRIMARY KEY,
    attempted_at REAL NOT NULL,
    puzzle_id TEXT NOT NULL,
    solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
    player_rating REAL NOT NULL CHECK (player_rating BETWEEN -1000 AND 5000),
    player_deviation REAL NOT NULL CHECK (player_deviation BETWEEN 1 AND 1000),
    player_volatility REAL NOT NULL CHECK (player_volatility BETWEEN 0.000001 AND 10),
    puzzle_rating REAL NOT NULL CHECK (puzzle_rating BETWEEN -1000 AND 5000),
    puzzle_deviation REAL NOT NULL CHECK (puzzle_deviation BETWEEN 1 AND 1000),
    puzzle_volatility REAL NOT NULL CHECK (puzzle_volatility BETWEEN 0.000001 AND 10)
){strict};
CREATE INDEX IF NOT EXISTS puzzle_attempts_by_puzzle ON puzzle_attempts (puzzle_id);
"""
"""A new file's tables are STRICT (a score of 'abc' is refused when written); the CHECKs hold
the ranges the statistics and the rating arithmetic take: ratings from -1,000 to 5,000 keep
Glicko-2's expected score short of exactly 0 or 1 (at 20,000 apart it rounds to 0 and
divides by zero), a deviation of at least 1 and a volatility above 0 keep its divisions and
logarithms finite (every corner of these ranges rates without error). A file made before
keeps its tables: its rows are checked as read."""
_GAME_COLUMNS = (
    "id, finished_at, front_end, player1, player2, level1, level2, you, deal, record, score1, score2, "
    "par, accuracy1, accuracy2, game_key, winner"
)
_ATTEMPT_COLUMNS = (
    "id, attempted_at, puzzle_id, solved, player_rating, player_deviation, player_volatility, "
    "puzzle_rating, puzzle_deviation, puzzle_volatility"
)
WORDS = StoreWords(
    other_file=N_("not a game history but a file of another kind"),
    mismatch=N_("not a game history ({reason})"),
    cannot_start=N_("cannot start a new game history: {error}"),
    set_aside=N_("{path}: not a usable game history ({reason}); set aside as {name}, starting an empty one"),
    gone=N_("{path}: not a usable game history ({reason}); gone meanwhile, starting an empty one"),
    salvaged=SalvageWords(
        counted=NN_(
            "{path}: the game history is {reason}; {count} row kept in a new file, {lost} lost; "
            "the damaged file set aside as {name}",
            "{path}: the game history is {reason}; {count} rows kept in a new file, {lost} lost; "
            "the damaged file set aside as {name}",
        ),
        counted_gone=NN_(
            "{path}: the game history is {reason}; {count} row kept in a new file, {lost} lost; "
            "the damaged file gone meanwhile",
            "{path}: the game history is {reason}; {count} rows kept in a new file, {lost} lost; "
            "the damaged file gone meanwhile",
        ),
        uncounted=NN_(
            "{path}: the game history is {reason}; {count} row kept in a new file, those on its damaged pages "
            "lost (no index counts them); the damaged file set aside as {name}",
            "{path}: the game history is {reason}; {count} rows kept in a new file, those on its damaged pages "
            "lost (no index counts them); the damaged file set aside as {name}",
        ),
        uncounted_gone=NN_(
            "{path}: the game history is {reason}; {count} row kept in a new file, those on its damaged pages "
            "lost (no index counts them); the damaged file gone meanwhile",
            "{path}: the game history is {reason}; {count} rows kept in a new file, those on its damaged pages "
            "lost (no index counts them); the damaged file gone meanwhile",
        ),
    ),
)
"""What the program says about the history's file, each sentence whole with the kind in it."""
KIND = StoreKind(
    name="game history",
    words=WORDS,
    version=SCHEMA_VERSION,
    schema=_SCHEMA,
    columns={"games": tuple(_GAME_COLUMNS.split(", ")), "puzzle_attempts": tuple(_ATTEMPT_COLUMNS.split(", "))},
    upgrades={1: "ALTER TABLE games ADD COLUMN winner INTEGER CHECK (winner IN (1, 2));"},
    older_columns={
        1: {"games": tuple(_GAME_COLUMNS.split(", "))[:-1], "puzzle_attempts": tuple(_ATTEMPT_COLUMNS.split(", "))}
    },
)
"""The history's file: schema 1 had no ``winner``, added in place."""
SCORE_RANGE = (0, 100000)

T = TypeVar("T")


@dataclass(frozen=True)
class Task:
    """One of the history's reads or writes as its notices say it: each a whole sentence of the
    catalogue with what could not be done in it ("could not store the game"), never a verb glued in."""

    busy: str
    """Another copy of the game holds the file locked past ``BUSY_SECONDS``."""
    failed: str
    """Any other failure of the database, with its ``{error}``."""


STORE_GAME = Task(
    N_("the history database is busy (another copy of the game is writing): could not store the game"),
    N_("could not store the game in the history database ({error})"),
)
STORE_ACCURACY = Task(
    N_("the history database is busy (another copy of the game is writing): could not store the review's accuracy"),
    N_("could not store the review's accuracy in the history database ({error})"),
)
READ_GAMES = Task(
    N_("the history database is busy (another copy of the game is writing): could not read the games"),
    N_("could not read the games in the history database ({error})"),
)
READ_GAME = Task(
    N_("the history database is busy (another copy of the game is writing): could not read the game"),
    N_("could not read the game in the history database ({error})"),
)
STORE_ATTEMPT = Task(
    N_("the history database is busy (another copy of the game is writing): could not store the puzzle attempt"),
    N_("could not store the puzzle attempt in the history database ({error})"),
)
READ_ATTEMPTS = Task(
    N_("the history database is busy (another copy of the game is writing): could not read the puzzle attempts"),
    N_("could not read the puzzle attempts in the history database ({error})"),
)
READ_PUZZLE_RATING = Task(
    N_("the history database is busy (another copy of the game is writing): could not read the puzzle's rating"),
    N_("could not read the puzzle's rating in the history database ({error})"),
)


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
    def from_game(
        cls,
        game: Game,
        *,
        front_end: str,
        levels: tuple[str | None, str | None] = (None, None),
        you: int | None = None,
        par: int | None = None,
        game_key: str | None = None,
        finished_at: float | None = None,
        winner: int | None = None,
        from_ply: int = 0,
    ) -> GameEntry:
        """The entry of a game (finished or not: the scores are where it stands). A game the solver
        joined at move ``from_ply`` (a review's "Retry from here") is stored without its deal, as a
        composed start is: the player did not play it from the deal's start, so it is not rated."""
        position = game.position
        return cls(
            time.time() if finished_at is None else finished_at,
            front_end,
            game.names,
            levels,
            you,
            game.deal_number if not from_ply else None,
            game.to_text(),
            (position.scores[0], position.scores[1]),
            par,
            game_key=game_key,
            winner=winner,
        )

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
    return GameEntry.from_game(game, front_end="online", you=seat, game_key=f"online {server} {game_id}", winner=winner)


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
        self._said: set[str] = set()
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
                (
                    entry.finished_at,
                    entry.front_end,
                    entry.players[0],
                    entry.players[1],
                    entry.levels[0],
                    entry.levels[1],
                    entry.you,
                    entry.deal,
                    entry.record,
                    entry.scores[0],
                    entry.scores[1],
                    entry.par,
                    entry.accuracy[0],
                    entry.accuracy[1],
                    entry.game_key,
                    entry.winner,
                ),
            )
            return cursor.lastrowid

        return self._run(write, STORE_GAME, None, writes=True)

    def set_accuracy(self, game_id: int, accuracy1: float | None, accuracy2: float | None) -> bool:
        """Record a review's accuracies for a stored game; False when the game is not there or the write failed."""

        def write(connection: sqlite3.Connection) -> bool:
            cursor = connection.execute(
                "UPDATE games SET accuracy1 = ?, accuracy2 = ? WHERE id = ?", (accuracy1, accuracy2, game_id)
            )
            return cursor.rowcount == 1

        return bool(self._run(write, STORE_ACCURACY, False, writes=True))

    def games(self) -> list[GameEntry]:
        """Every stored game, oldest first."""

        def read(connection: sqlite3.Connection) -> list[GameEntry]:
            rows = connection.execute(f"SELECT {_GAME_COLUMNS} FROM games ORDER BY finished_at, id").fetchall()
            return self._keep_rows(rows, _game_from_row, N_("the game history's games"))

        return self._run(read, READ_GAMES, [])

    def game(self, game_id: int) -> GameEntry | None:
        def read(connection: sqlite3.Connection) -> GameEntry | None:
            row = connection.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
            kept = [] if row is None else self._keep_rows([row], _game_from_row, N_("the game history's games"))
            return kept[0] if kept else None

        return self._run(read, READ_GAME, None)

    # -- puzzle attempts ---------------------------------------------------------------

    def add_attempt(self, attempt: PuzzleAttempt) -> int | None:
        """Store a puzzle attempt; its row id, or None when it could not be stored."""

        def write(connection: sqlite3.Connection) -> int | None:
            cursor = connection.execute(
                "INSERT INTO puzzle_attempts (attempted_at, puzzle_id, solved, player_rating, player_deviation, "
                "player_volatility, puzzle_rating, puzzle_deviation, puzzle_volatility) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    attempt.attempted_at,
                    attempt.puzzle_id,
                    int(attempt.solved),
                    attempt.player.rating,
                    attempt.player.deviation,
                    attempt.player.volatility,
                    attempt.puzzle.rating,
                    attempt.puzzle.deviation,
                    attempt.puzzle.volatility,
                ),
            )
            return cursor.lastrowid

        return self._run(write, STORE_ATTEMPT, None, writes=True)

    def attempts(self) -> list[PuzzleAttempt]:
        """Every puzzle attempt, oldest first."""

        def read(connection: sqlite3.Connection) -> list[PuzzleAttempt]:
            rows = connection.execute(
                f"SELECT {_ATTEMPT_COLUMNS} FROM puzzle_attempts ORDER BY attempted_at, id"
            ).fetchall()
            return self._keep_rows(rows, _attempt_from_row, N_("the game history's puzzle attempts"))

        return self._run(read, READ_ATTEMPTS, [])

    def puzzle_rating(self, puzzle_id: str) -> Rating | None:
        """The puzzle's rating after its last attempt here, None before its first."""

        def read(connection: sqlite3.Connection) -> Rating | None:
            rows = connection.execute(
                f"SELECT {_ATTEMPT_COLUMNS} FROM puzzle_attempts WHERE puzzle_id = ? "
                "ORDER BY attempted_at DESC, id DESC",
                (puzzle_id,),
            ).fetchall()
            for row in rows:  # the latest attempt whose ratings read; the bad ones are said by ``attempts``
                with contextlib.suppress(ValueError):
                    return _attempt_from_row(row).puzzle
            return None

        return self._run(read, READ_PUZZLE_RATING, None)

    # -- the connection ----------------------------------------------------------------

    def _run(self, work: Callable[[sqlite3.Connection], T], task: Task, failed: T, *, writes: bool = False) -> T:
        """``work`` on the database (in a transaction when it ``writes``), with the failures of the module
        docstring turned into notices and ``failed`` returned; a file found damaged meanwhile is opened
        again (salvaged or set aside, ``battle.storage.sqlite_store``) and ``work`` tried once more."""
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
                except StoreBusy:
                    self._notice(_(task.busy))
                    return failed
                except sqlite3.OperationalError as error:
                    if _is_busy(error):
                        self._notice(_(task.busy))
                        return failed
                    if attempt or not _is_damage(error):
                        self._notice(_(task.failed).format(error=sqlite_reason(error)))
                        return failed
                    self._reopen()
                except sqlite3.DatabaseError as error:
                    if attempt:
                        self._notice(_(task.failed).format(error=sqlite_reason(error)))
                        return failed
                    self._reopen()
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
            self._notice(_("no game history this time: {error}").format(error=error))
            return None
        try:
            opened = open_store(self.path, KIND, named=self._named, timeout=self._busy_seconds)
        except StoreRefused as other:
            self._disabled = True
            self._notice(
                _("{path} is {other}; it is left as it is: no game history this time").format(
                    path=self.path, other=other
                )
            )
            return None
        except StoreNewer as newer:
            self._disabled = True
            self._notice(
                _(
                    "{path} was written by a newer version of the game (schema {version}, this one reads "
                    "{ours}): no game history this time"
                ).format(path=self.path, version=newer.version, ours=SCHEMA_VERSION)
            )
            return None
        except StoreUnusable as error:
            self._disabled = True
            self._notice(_("no game history this time: {error}").format(error=error))
            return None
        if opened.notice is not None:
            self._notice(str(opened.notice))
        self._connection = opened.connection
        return self._connection

    def _reopen(self) -> None:
        """Close the connection after a damage found mid-session, so that the next call checks the file again."""
        if self._connection is not None:
            with contextlib.suppress(sqlite3.Error):
                self._connection.close()
            self._connection = None

    def _notice(self, text: str) -> None:
        self.notices.append(one_line(text))

    def _keep_rows(self, rows: list[tuple], build: Callable[[tuple], T | None], where: str) -> list[T]:
        """The rows ``build`` makes sense of; the others are skipped and said in one notice."""
        skips = RowSkips(_(where))
        kept = [item for item in (skips.keep(row, build) for row in rows) if item is not None]
        line = skips.line()
        if line is not None and line not in self._said:  # the same bad rows are read again and again
            self._said.add(line)
            self._notice(line)
        return kept


def _is_busy(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


def _is_damage(error: sqlite3.OperationalError) -> bool:
    """An operational error that a damaged file gives (as opposed to a full disk or a read-only folder)."""
    text = str(error).lower()
    return "malformed" in text or "not a database" in text or "no such table" in text or "no such column" in text


def _game_from_row(row: tuple) -> GameEntry:
    """A stored game, or ``RowProblem`` (a ``ValueError``) naming the value that is no game's (a file written by hand or
    another program: old files' tables are not STRICT)."""
    (
        number,
        finished_at,
        front_end,
        player1,
        player2,
        level1,
        level2,
        you,
        deal,
        record,
        score1,
        score2,
        par,
        accuracy1,
        accuracy2,
        game_key,
        winner,
    ) = row
    problem = _first_problem(
        ("finished_at", finished_at, finite(finished_at, 0, 1e12)),
        ("front_end", front_end, isinstance(front_end, str)),
        ("player1", player1, isinstance(player1, str)),
        ("player2", player2, isinstance(player2, str)),
        ("level1", level1, text_or_none(level1)),
        ("level2", level2, text_or_none(level2)),
        ("you", you, you in (None, 1, 2) and not isinstance(you, bool | float)),
        ("deal", deal, deal is None or whole(deal, 0, 1 << 62)),
        ("record", record, isinstance(record, str)),
        ("score1", score1, whole(score1, *SCORE_RANGE)),
        ("score2", score2, whole(score2, *SCORE_RANGE)),
        ("par", par, par is None or whole(par, -SCORE_RANGE[1], SCORE_RANGE[1])),
        ("accuracy1", accuracy1, accuracy1 is None or finite(accuracy1, 0, 100)),
        ("accuracy2", accuracy2, accuracy2 is None or finite(accuracy2, 0, 100)),
        ("game_key", game_key, text_or_none(game_key)),
        ("winner", winner, winner in (None, 1, 2) and not isinstance(winner, bool | float)),
    )
    if problem is not None:
        column, value = problem
        raise RowProblem(
            N_("game #{number}: {column} {value} is out of range or of the wrong type"),
            number=number,
            column=column,
            value=shown_value(value),
        )
    return GameEntry(
        finished_at=float(finished_at),
        front_end=front_end,
        players=(player1, player2),
        levels=(level1, level2),
        you=you,
        deal=deal,
        record=record,
        scores=(score1, score2),
        par=par,
        accuracy=(accuracy1, accuracy2),
        game_key=game_key,
        winner=winner,
        id=number,
    )


def _rating_checks(values: tuple, side: str) -> tuple[tuple[str, object, bool], ...]:
    """``_first_problem``'s checks of a row's three values of one side's rating."""
    rating, deviation, volatility = values
    return (
        (f"{side}_rating", rating, finite(rating, *RATING_RANGE)),
        (f"{side}_deviation", deviation, finite(deviation, *DEVIATION_RANGE)),
        (f"{side}_volatility", volatility, finite(volatility, *VOLATILITY_RANGE)),
    )


def _attempt_from_row(row: tuple) -> PuzzleAttempt:
    """A stored puzzle attempt, or ``RowProblem`` (a ``ValueError``) naming the value no attempt has."""
    number, attempted_at, puzzle_id, solved = row[:4]
    problem = _first_problem(
        ("attempted_at", attempted_at, finite(attempted_at, 0, 1e12)),
        ("puzzle_id", puzzle_id, isinstance(puzzle_id, str)),
        ("solved", solved, solved in (0, 1) and not isinstance(solved, float)),
        *_rating_checks(row[4:7], "player"),
        *_rating_checks(row[7:10], "puzzle"),
    )
    if problem is not None:
        column, value = problem
        raise RowProblem(
            N_("puzzle attempt #{number}: {column} {value} is out of range or of the wrong type"),
            number=number,
            column=column,
            value=shown_value(value),
        )
    player, puzzle = (Rating(*(float(value) for value in row[start : start + 3])) for start in (4, 7))
    return PuzzleAttempt(float(attempted_at), puzzle_id, bool(solved), player, puzzle, id=number)


def _first_problem(*checks: tuple[str, object, bool]) -> tuple[str, object] | None:
    """The column and the value of the first check that fails, None when all hold."""
    for name, value, good in checks:
        if not good:
            return name, value
    return None
