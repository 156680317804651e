"""The online games on disk: one SQLite file, every change committed before anyone is told of it.

- WAL journal with ``synchronous=FULL``: a method returns only after its transaction's WAL
  frames are fsynced, so a crash, a power cut or a ``kill -9`` at any instant keeps every
  change a player was told about and loses at most the one being written. Each write
  method is one transaction: a move, its game's new status and its clock go together or
  not at all.
- Every write is first a ``Write``: its rows as plain values, taken from the room on the
  caller's thread (``plan_add_move`` and kin). ``commit`` stores one in its own transaction;
  ``commit_group`` stores many in one transaction with one sync, each in a savepoint, so a
  write that fails undoes only itself (and the writes after it of the same game). The
  server's group writer (``battle.online.server.rooms.group_commit``) runs ``commit_group`` on
  its own thread and connection (``open_writer``).
- ``slow_sync`` (seconds; 0 unless the benchmark starts ``serve --slow-sync-ms``) is slept
  after every ``COMMIT`` on the committing thread: a disk whose sync takes that much longer,
  as a loaded machine's did (4 ms median).
- The schema carries ``PRAGMA user_version``; foreign keys are on.
- Only SHA-256 hashes of seat tokens are stored; nothing is pickled or evaluated, the
  options are a JSON object and positions and moves are notation text.
- The file is opened, checked, upgraded and set aside as every store of the program's is
  (``battle.storage.sqlite_store``): a file that is not a database, is damaged or holds
  another schema is renamed aside whole (``games.sqlite3.corrupt``; no rows are salvaged,
  as a game copied without some of its moves is no game) and an empty database takes its
  place; ``notice`` says so in one line for the server to print. A database of a newer
  schema is left alone and refused.

If a write raises ``StoreError`` the room in memory is ahead of the disk: the server drops
it and reloads it with ``load_game``, which is the truth.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

from battle.i18n import N_
from battle.online.protocol.codes import new_invite_code, new_watch_code
from battle.online.server.rooms.room import EndReason, MoveReceipt, Options, Room, SeatHolder, Status
from battle.rules.errors import one_line
from battle.rules.notation import format_position, parse_position
from battle.storage import sqlite_file
from battle.storage.paths import StorageProblem, data_dir, ensure_folder
from battle.storage.sqlite_store import (
    StoreBusy,
    StoreKind,
    StoreNewer,
    StoreRefused,
    StoreUnusable,
    StoreWords,
    open_store,
)

SCHEMA_VERSION = 7
"""2 adds the ends ``aborted`` and ``expired``, 3 the key of the links' secrets, 4 the solver's seats
and the reviews (``solving.rows``), 5 the end ``abandoned``, the seats' networks (``seat_networks``)
and the indexes the deletion of old games reads (``old_games``), 6 the pars the server's solver
worked out (``par_rows``), 7 the tables of the features that file rows of their own: the games of
each device key (``device_games``), the lobby's open challenges (``lobby.rows``) and the puzzle
ratings (``puzzles.desk``); an older file is upgraded in place when opened."""
DATABASE_NAME = "games.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    invite TEXT NOT NULL UNIQUE,
    watch TEXT NOT NULL UNIQUE,
    options TEXT NOT NULL,
    start TEXT NOT NULL,
    deal INTEGER,
    creator_seat INTEGER NOT NULL CHECK (creator_seat IN (1, 2)),
    created_at REAL NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('waiting', 'playing', 'finished')),
    winner INTEGER CHECK (winner IN (1, 2)),
    reason TEXT CHECK (reason IN ('no_pair', 'resign', 'time', 'aborted', 'expired', 'abandoned')),
    turn_started REAL,
    finished_at REAL,
    rematch_offer INTEGER CHECK (rematch_offer IN (1, 2)),
    takeback_request INTEGER CHECK (takeback_request IN (1, 2)),
    rematch_of TEXT REFERENCES games (id),
    rematch_game TEXT,
    rematch_watch TEXT
);
CREATE INDEX IF NOT EXISTS games_by_status ON games (status);
CREATE INDEX IF NOT EXISTS games_by_end ON games (finished_at);
CREATE INDEX IF NOT EXISTS games_by_rematch ON games (rematch_of);
CREATE TABLE IF NOT EXISTS seats (
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat IN (1, 2)),
    token_hash TEXT NOT NULL,
    name TEXT NOT NULL,
    joined_at REAL NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS seats_by_token ON seats (token_hash);
CREATE TABLE IF NOT EXISTS moves (
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat IN (1, 2)),
    move_id TEXT NOT NULL,
    ply INTEGER NOT NULL CHECK (ply >= 1),
    move TEXT NOT NULL,
    points INTEGER NOT NULL,
    played_at REAL NOT NULL,
    taken_back_at REAL,
    PRIMARY KEY (game, seat, move_id)
);
CREATE UNIQUE INDEX IF NOT EXISTS live_moves ON moves (game, ply) WHERE taken_back_at IS NULL;
"""
_SOLVER_TABLES = """
CREATE TABLE IF NOT EXISTS solver_seats (
    game TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat IN (1, 2)),
    level TEXT NOT NULL,
    seed INTEGER NOT NULL,
    par INTEGER
);
CREATE TABLE IF NOT EXISTS reviews (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL UNIQUE REFERENCES games (id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('queued', 'done', 'failed')),
    requested_at REAL NOT NULL,
    finished_at REAL,
    report TEXT
);
"""
"""The seat the solver holds in a game against it (its level, the seed of its choices, the deal's
par), and the reviews of finished games with their ``review --json`` reports (``solving.rows``)."""
_SEAT_NETWORKS_TABLE = """
CREATE TABLE IF NOT EXISTS seat_networks (
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat IN (1, 2)),
    network TEXT NOT NULL,
    PRIMARY KEY (game, seat)
);
"""
"""The client network each seat came from, as a keyed hash (``seat_networks``): what a network holds
and whether a game's two seats share one outlive a restart, and no address is written down."""
_PARS_TABLE = """
CREATE TABLE IF NOT EXISTS pars (
    start TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('found', 'unproved')),
    value INTEGER,
    best TEXT NOT NULL,
    found_at REAL NOT NULL
);
"""
"""The pars of deals no catalogue knows, by start position (``.mbp`` text), as the server's solver
worked them out: found (the first player's margin under perfect play and the best first moves) or
unproved (its budget ran out first). Kept with no game: every later game on the deal reads it."""
_FEATURE_TABLES = """
CREATE TABLE IF NOT EXISTS device_games (
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat IN (1, 2)),
    device TEXT NOT NULL,
    network TEXT NOT NULL,
    filed_at REAL NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE INDEX IF NOT EXISTS device_games_by_device ON device_games (device);
CREATE INDEX IF NOT EXISTS device_games_by_network ON device_games (network, filed_at);
CREATE TABLE IF NOT EXISTS lobby_challenges (
    game TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    network TEXT NOT NULL,
    entry TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS puzzle_devices (
    device TEXT PRIMARY KEY,
    network TEXT NOT NULL,
    created_at REAL NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    streak INTEGER NOT NULL,
    best_streak INTEGER NOT NULL,
    attempts INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzle_devices_by_network ON puzzle_devices (network, created_at);
CREATE TABLE IF NOT EXISTS puzzle_device_attempts (
    id INTEGER PRIMARY KEY,
    device TEXT NOT NULL,
    network TEXT NOT NULL,
    attempted_at REAL NOT NULL,
    puzzle_id TEXT NOT NULL,
    solved INTEGER NOT NULL,
    player_rating REAL NOT NULL,
    player_deviation REAL NOT NULL,
    player_volatility REAL NOT NULL,
    puzzle_rating REAL NOT NULL,
    puzzle_deviation REAL NOT NULL,
    puzzle_volatility REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzle_device_attempts_by_device ON puzzle_device_attempts (device, id);
CREATE INDEX IF NOT EXISTS puzzle_device_attempts_by_puzzle ON puzzle_device_attempts (device, puzzle_id, id);
CREATE INDEX IF NOT EXISTS puzzle_device_attempts_by_network ON puzzle_device_attempts (network, attempted_at);
"""
"""The rows features file beside the games: the games each browser's device key holds (its
statistics, ``device_games``), the lobby's open challenges, which outlive their process
(``lobby.rows``), and each device's puzzle rating with its attempts (``puzzles.desk``). A file of
version 6 may hold some of them already (the features made their own tables then): ``IF NOT EXISTS``
keeps those rows."""
_GAMES_TABLE = _SCHEMA[_SCHEMA.index("CREATE TABLE IF NOT EXISTS games") : _SCHEMA.index("CREATE INDEX")]
_GAMES_INDEXES = _SCHEMA[_SCHEMA.index("CREATE INDEX") : _SCHEMA.index("CREATE TABLE IF NOT EXISTS seats")]
_GAMES_COPIED = f"""
{_GAMES_TABLE.replace("CREATE TABLE IF NOT EXISTS games", "CREATE TABLE games_wider", 1)}
INSERT INTO games_wider SELECT * FROM games;
DROP TABLE games;
ALTER TABLE games_wider RENAME TO games;
{_GAMES_INDEXES}
"""
"""Versions 1 and 4 of the ``games`` table allow fewer ends in a CHECK, which SQLite cannot alter:
the table is copied into one with the wider CHECK, in one transaction with foreign keys off
(``battle.storage.sqlite_store`` runs it), so seats and moves keep pointing at the same ids."""
_UPGRADE_FROM_1 = _GAMES_COPIED
_UPGRADE_FROM_4 = _GAMES_COPIED + _SEAT_NETWORKS_TABLE

LINK_KEY_BYTES = 32
"""Random bytes of the links' key (256 bits)."""
_LINK_KEY_TABLE = "CREATE TABLE IF NOT EXISTS link_key (key BLOB NOT NULL);"


def _link_key_script() -> str:
    """The ``link_key`` table with one fresh random key in it, unless the file has one already (two
    copies of the server making one file at once): the key the links' secrets are made with
    (``link_secrets``). Made here, with the schema or the upgrade, so that every file of this
    version has its key and a read-only file needs no write to serve."""
    return (
        f"{_LINK_KEY_TABLE}\nINSERT INTO link_key (key) SELECT X'{secrets.token_hex(LINK_KEY_BYTES)}' "
        "WHERE NOT EXISTS (SELECT 1 FROM link_key);\n"
    )


_COLUMNS_2 = {
    "games": (
        "id",
        "invite",
        "watch",
        "options",
        "start",
        "deal",
        "creator_seat",
        "created_at",
        "status",
        "winner",
        "reason",
        "turn_started",
        "finished_at",
        "rematch_offer",
        "takeback_request",
        "rematch_of",
        "rematch_game",
        "rematch_watch",
    ),
    "seats": ("game", "seat", "token_hash", "name", "joined_at"),
    "moves": ("game", "seat", "move_id", "ply", "move", "points", "played_at", "taken_back_at"),
}
_COLUMNS_3 = {**_COLUMNS_2, "link_key": ("key",)}
_COLUMNS_4 = {
    **_COLUMNS_3,
    "solver_seats": ("game", "seat", "level", "seed", "par"),
    "reviews": ("id", "game", "status", "requested_at", "finished_at", "report"),
}
_COLUMNS_5 = {**_COLUMNS_4, "seat_networks": ("game", "seat", "network")}
_COLUMNS_6 = {**_COLUMNS_5, "pars": ("start", "status", "value", "best", "found_at")}
_COLUMNS = {
    **_COLUMNS_6,
    "device_games": ("game", "seat", "device", "network", "filed_at"),
    "lobby_challenges": ("game", "network", "entry"),
    "puzzle_devices": (
        "device",
        "network",
        "created_at",
        "rating",
        "deviation",
        "volatility",
        "streak",
        "best_streak",
        "attempts",
    ),
    "puzzle_device_attempts": (
        "id",
        "device",
        "network",
        "attempted_at",
        "puzzle_id",
        "solved",
        "player_rating",
        "player_deviation",
        "player_volatility",
        "puzzle_rating",
        "puzzle_deviation",
        "puzzle_volatility",
    ),
}


class StoreError(Exception):
    """The database cannot be used or a write failed; the message is one line for the server's log."""


class GameDamaged(StoreError):
    """A game's rows do not make a valid game (a move that is not legal, options that do not read)."""


@dataclass(frozen=True)
class Statement:
    """One SQL statement of a write with its parameters; ``must_change_one`` is the error when it must
    change exactly one row and does not."""

    sql: str
    parameters: tuple[object, ...]
    must_change_one: str | None = None


@dataclass(frozen=True)
class Write:
    """One store change as plain values, made from the room when it changed: a writer thread
    that runs it later reads nothing the event loop goes on changing."""

    game: str
    """The game it changes: a failed write fails the later writes of its game until a reload."""
    action: str
    """What it stores, for the error's one line: ``storing move 3 of game g1``."""
    statements: tuple[Statement, ...]


WORDS = StoreWords(
    other_file=N_("not a game database but a file of another kind"),
    mismatch=N_("not a game database ({reason})"),
    cannot_start=N_("cannot start a new game database: {error}"),
    set_aside=N_("{path}: not a usable game database ({reason}); set aside as {name}, starting an empty one"),
    gone=N_("{path}: not a usable game database ({reason}); gone meanwhile, starting an empty one"),
)
"""What the program says about the server's file, each sentence whole with the kind in it."""


def _kind() -> StoreKind:
    """The server's file as the store base opens it: made, upgraded from 1, or set aside whole when
    damaged (no salvage: a game copied without some of its moves would be no game)."""
    return StoreKind(
        name="game database",
        words=WORDS,
        version=SCHEMA_VERSION,
        schema=_SCHEMA + _SOLVER_TABLES + _SEAT_NETWORKS_TABLE + _PARS_TABLE + _FEATURE_TABLES + _link_key_script(),
        columns=_COLUMNS,
        upgrades={
            1: _UPGRADE_FROM_1,
            2: _link_key_script(),
            3: _SOLVER_TABLES,
            4: _UPGRADE_FROM_4,
            5: _PARS_TABLE,
            6: _FEATURE_TABLES,
        },
        older_columns={1: _COLUMNS_2, 2: _COLUMNS_2, 3: _COLUMNS_3, 4: _COLUMNS_4, 5: _COLUMNS_5, 6: _COLUMNS_6},
        foreign_keys=True,
        salvage=False,
    )


def default_database_path() -> Path:
    """``data_dir()/online/games.sqlite3`` (the folder made on demand)."""
    return ensure_folder(data_dir() / "online") / DATABASE_NAME


class GameStore:
    """The online games in one SQLite file; safe to share between threads (one lock around each call).

    Opening raises ``StoreError`` when the folder or the file cannot be used (or holds a newer
    schema); every write raises ``StoreError`` after rolling its transaction back.
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self.notice: str | None = None
        """One line for the server to print when the file found was set aside, else None."""
        self.problems: list[str] = []
        """One line per game ``load_unfinished`` could not rebuild (and left out)."""
        self._lock = threading.RLock()
        self.slow_sync = 0.0
        """Seconds slept after every ``COMMIT`` (see the module's note); 0 in normal use."""
        try:
            self.path: Path = Path(path) if path is not None else default_database_path()
            self.named = path is not None
            """The caller named the file (``--db``): one that is not a game database is refused, not set aside."""
            ensure_folder(self.path.parent)
        except StorageProblem as problem:
            raise StoreError(one_line(str(problem))) from None
        self._connection = self._open()
        self.link_key: bytes = self._read_link_key()
        """The key of the links' secrets, kept in the file: links stay good across restarts."""

    # -- opening -----------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        try:
            opened = open_store(self.path, _kind(), named=self.named)
        except StoreRefused as refused:
            if refused.detail is None:
                raise StoreError(
                    one_line(f"{self.path}: {refused}; start the server with another --db (this one is left as it is)")
                ) from None
            raise StoreError(
                one_line(
                    f"{self.path}: not a game database of this server ({refused.detail}); start "
                    "it with another --db (this one is left as it is)"
                )
            ) from None
        except StoreNewer as newer:
            raise StoreError(
                one_line(
                    f"{self.path}: written by a newer version of the game (schema {newer.version}, this one reads "
                    f"{SCHEMA_VERSION}); start this version with another database file"
                )
            ) from None
        except (StoreBusy, StoreUnusable) as error:
            raise StoreError(one_line(f"{self.path}: cannot open the game database: {error}")) from None
        self.notice = None if opened.notice is None else one_line(str(opened.notice))
        return opened.connection

    def _read_link_key(self) -> bytes:
        try:
            row = self._connection.execute("SELECT key FROM link_key LIMIT 1").fetchone()
        except sqlite3.Error as error:
            self._connection.close()
            raise StoreError(one_line(f"{self.path}: cannot read the link key: {error}")) from None
        if row is None or not isinstance(row[0], bytes) or len(row[0]) < 16:
            self._connection.close()
            raise StoreError(one_line(f"{self.path}: the link key is missing or too short; start with another --db"))
        return bytes(row[0])

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def open_writer(self) -> sqlite3.Connection:
        """A second connection to the file, with the store's settings, for a writer thread of its own:
        readers on the store's connection never wait for its syncs (WAL lets them read meanwhile)."""
        try:
            connection = sqlite_file.connect(self.path)
            connection.execute("PRAGMA foreign_keys = ON")
            connection.execute("PRAGMA synchronous = FULL")
        except sqlite3.Error as error:
            raise StoreError(one_line(f"{self.path}: cannot open a writer connection: {error}")) from None
        return connection

    @contextlib.contextmanager
    def _transaction(self, action: str, connection: sqlite3.Connection | None = None) -> Iterator[sqlite3.Connection]:
        """One committed transaction; any SQLite failure rolls it back and becomes a ``StoreError``.

        On the store's connection it holds the store's lock; a writer's own connection is its thread's alone."""
        with self._lock if connection is None else contextlib.nullcontext():
            connection = connection or self._connection
            try:
                connection.execute("BEGIN IMMEDIATE")
                try:
                    yield connection
                except BaseException:
                    with contextlib.suppress(sqlite3.Error):
                        connection.execute("ROLLBACK")
                    raise
                connection.execute("COMMIT")
            except sqlite3.Error as error:
                with contextlib.suppress(sqlite3.Error):
                    if connection.in_transaction:
                        connection.execute("ROLLBACK")
                raise StoreError(one_line(f"{action}: {error}")) from None
            if self.slow_sync:
                time.sleep(self.slow_sync)

    def commit(self, write: Write, connection: sqlite3.Connection | None = None) -> None:
        """Store one write in its own transaction (one sync), on ``connection`` or the store's."""
        with self._transaction(write.action, connection) as held:
            _run(held, write)

    def commit_group(
        self, writes: Sequence[Write], connection: sqlite3.Connection, failed_games: set[str]
    ) -> list[StoreError | None]:
        """Store ``writes`` in order in one transaction with one sync; what became of each (None: stored).

        The writes run one after the other with no savepoint: two statements a move, since each
        call into SQLite lets the event loop's thread take the interpreter until it lets go. If
        one fails, the transaction is rolled back and run again with a savepoint around each
        write: the one that fails is undone alone, and the later writes of its game (in
        ``failed_games``, which the caller keeps between groups) fail with it, since they were
        made from a room that held it. If the transaction itself fails (its ``BEGIN`` or its
        ``COMMIT``: a full disk, an I/O error), each write is committed alone instead.
        """
        failed_before = set(failed_games)
        # the writer's own connection, no lock: the loop's reads never wait for this sync
        for savepoints in (False, True):
            try:
                outcomes = self._group_transaction(writes, connection, failed_games, savepoints)
            except sqlite3.Error:
                with contextlib.suppress(sqlite3.Error):
                    if connection.in_transaction:
                        connection.execute("ROLLBACK")
                failed_games.clear()
                failed_games.update(failed_before)
                continue
            if self.slow_sync:
                time.sleep(self.slow_sync)
            return outcomes
        return self._commit_each(writes, connection, failed_games)

    @staticmethod
    def _group_transaction(
        writes: Sequence[Write], connection: sqlite3.Connection, failed_games: set[str], savepoints: bool
    ) -> list[StoreError | None]:
        outcomes: list[StoreError | None] = []
        connection.execute("BEGIN IMMEDIATE")
        for write in writes:
            if write.game in failed_games:
                outcomes.append(StoreError(f"{write.action}: an earlier write of this game failed"))
                continue
            if not savepoints:
                _run(connection, write)  # a failure rolls the whole group back, to be run with savepoints
                outcomes.append(None)
                continue
            connection.execute("SAVEPOINT one_write")
            try:
                _run(connection, write)
            except sqlite3.Error as error:
                connection.execute("ROLLBACK TO one_write")
                failed_games.add(write.game)
                outcomes.append(StoreError(one_line(f"{write.action}: {error}")))
            else:
                outcomes.append(None)
            connection.execute("RELEASE one_write")
        connection.execute("COMMIT")
        return outcomes

    def _commit_each(
        self, writes: Sequence[Write], connection: sqlite3.Connection, failed_games: set[str]
    ) -> list[StoreError | None]:
        outcomes: list[StoreError | None] = []
        for write in writes:
            if write.game in failed_games:
                outcomes.append(StoreError(f"{write.action}: an earlier write of this game failed"))
                continue
            try:
                self.commit(write, connection)
            except StoreError as error:
                failed_games.add(write.game)
                outcomes.append(error)
            else:
                outcomes.append(None)
        return outcomes

    # -- writing -----------------------------------------------------------------------

    def fresh_codes(self) -> tuple[str, str]:
        """An invite code and a watch code that no game uses as either (so a code names one thing)."""
        with self._lock:
            while True:
                invite, watch = new_invite_code(), new_watch_code()
                if invite != watch and not self._code_in_use(invite) and not self._code_in_use(watch):
                    return invite, watch

    def _code_in_use(self, code: str) -> bool:
        row = self._connection.execute("SELECT 1 FROM games WHERE invite = ? OR watch = ?", (code, code)).fetchone()
        return row is not None

    def create(self, room: Room) -> None:
        """Store a new game (with its seats, and its moves if it has any)."""
        self.commit(self.plan_create(room))

    def join(self, room: Room, seat: int) -> None:
        """Store the seat ``room.join`` just gave, and the game's start."""
        self.commit(self.plan_join(room, seat))

    def add_move(self, room: Room, receipt: MoveReceipt) -> None:
        """Store a move ``room.play`` just applied, with the game's state after it (which may be finished)."""
        self.commit(self.plan_add_move(room, receipt))

    def take_back(self, room: Room, receipt: MoveReceipt) -> None:
        """Store the takeback ``room.answer_takeback`` just made: the move's row stays, marked, so its id stays used."""
        self.commit(self.plan_take_back(room, receipt))

    def update(self, room: Room) -> None:
        """Store the game's status, result, clock and offers (after a resignation, the clock, an offer, an answer)."""
        self.commit(self.plan_update(room))

    def finish(self, room: Room) -> None:
        """Store a game ``resign`` or ``check_time`` just finished."""
        self.commit(self.plan_finish(room))

    def start_rematch(self, old: Room, new: Room) -> None:
        """Store the game ``accept_rematch`` made and the old game's pointer to it, together."""
        self.commit(self.plan_start_rematch(old, new))

    # -- writes as values (what the methods above commit) ------------------------------

    @staticmethod
    def plan_create(room: Room) -> Write:
        return Write(room.game_id, f"storing game {room.game_id}", _insert(room))

    @staticmethod
    def plan_join(room: Room, seat: int) -> Write:
        holder = room.seats[seat]
        return Write(
            room.game_id,
            f"storing the join of game {room.game_id}",
            (
                Statement(
                    "INSERT INTO seats (game, seat, token_hash, name, joined_at) VALUES (?, ?, ?, ?, ?)",
                    (room.game_id, seat, holder.token_hash, holder.name, holder.joined_at),
                ),
                _write_state(room),
            ),
        )

    @staticmethod
    def plan_name(room: Room, seat: int) -> Write:
        return Write(
            room.game_id,
            f"storing the name of seat {seat} of game {room.game_id}",
            (
                Statement(
                    "UPDATE seats SET name = ? WHERE game = ? AND seat = ?",
                    (room.seats[seat].name, room.game_id, seat),
                    f"no seat {seat} of game {room.game_id} in the database",
                ),
            ),
        )

    @staticmethod
    def plan_add_move(room: Room, receipt: MoveReceipt) -> Write:
        return Write(
            room.game_id,
            f"storing move {receipt.ply} of game {room.game_id}",
            (_insert_receipt(room.game_id, receipt), _write_state(room)),
        )

    @staticmethod
    def plan_take_back(room: Room, receipt: MoveReceipt) -> Write:
        return Write(
            room.game_id,
            f"storing the takeback in game {room.game_id}",
            (
                Statement(
                    "UPDATE moves SET taken_back_at = ? WHERE game = ? AND seat = ? AND move_id = ? "
                    "AND taken_back_at IS NULL",
                    (receipt.taken_back_at, room.game_id, receipt.seat, receipt.move_id),
                    f"move id {receipt.move_id!r} is not a move on the board",
                ),
                _write_state(room),
            ),
        )

    @staticmethod
    def plan_update(room: Room) -> Write:
        return Write(room.game_id, f"storing game {room.game_id}", (_write_state(room),))

    @staticmethod
    def plan_finish(room: Room) -> Write:
        """Raises ``StoreError`` at once for a game that is not finished."""
        if room.status != Status.FINISHED:
            raise StoreError(f"game {room.game_id} is not finished")
        return GameStore.plan_update(room)

    @staticmethod
    def plan_start_rematch(old: Room, new: Room) -> Write:
        return Write(old.game_id, f"storing the rematch of game {old.game_id}", (*_insert(new), _write_state(old)))

    # -- reading -----------------------------------------------------------------------

    def load_game(self, game_id: str) -> Room | None:
        """The game as stored, rebuilt move by move; None if there is none. Raises ``GameDamaged``
        if its rows do not make a valid game, ``StoreError`` if they cannot be read."""
        with self._lock:
            try:
                game = self._connection.execute(
                    "SELECT id, invite, watch, options, start, deal, creator_seat, created_at, status, winner, reason, "
                    "turn_started, finished_at, rematch_offer, takeback_request, rematch_of, rematch_game, "
                    "rematch_watch FROM games WHERE id = ?",
                    (game_id,),
                ).fetchone()
                if game is None:
                    return None
                seats = self._connection.execute(
                    "SELECT seat, token_hash, name, joined_at FROM seats WHERE game = ?", (game_id,)
                ).fetchall()
                moves = self._connection.execute(
                    "SELECT seat, move_id, ply, move, points, played_at, taken_back_at FROM moves WHERE game = ?",
                    (game_id,),
                ).fetchall()
            except sqlite3.Error as error:
                raise StoreError(one_line(f"reading game {game_id}: {error}")) from None
        try:
            return Room(
                game_id=game[0],
                invite=game[1],
                watch=game[2],
                options=Options.from_json(json.loads(game[3])),
                start=parse_position(game[4]),
                deal_number=game[5],
                creator_seat=game[6],
                created_at=game[7],
                seats={seat: SeatHolder(token_hash, name, joined_at) for seat, token_hash, name, joined_at in seats},
                status=Status(game[8]),
                winner=game[9],
                reason=None if game[10] is None else EndReason(game[10]),
                turn_started=game[11],
                finished_at=game[12],
                rematch_offer=game[13],
                takeback_request=game[14],
                rematch_of=game[15],
                rematch_game=game[16],
                rematch_watch=game[17],
                receipts=[MoveReceipt(*row) for row in moves],
            )
        except (ValueError, TypeError, KeyError, IndexError) as error:  # BattleError and JSON errors are ValueErrors
            raise GameDamaged(one_line(f"game {game_id} does not rebuild: {error}")) from None

    def load_unfinished(self, wanted: Callable[[str], bool] | None = None) -> list[Room]:
        """Every game waiting or being played (whose id ``wanted`` takes), oldest first; one that does
        not rebuild is left out and named in ``problems``, so one damaged game never keeps the server
        from starting."""
        self.problems = []
        with self._lock:
            ids = [
                row[0]
                for row in self._query("SELECT id FROM games WHERE status != 'finished' ORDER BY created_at, rowid", ())
            ]
        rooms = []
        for game_id in ids if wanted is None else filter(wanted, ids):
            try:
                room = self.load_game(game_id)
            except StoreError as error:
                self.problems.append(str(error))
                continue
            if room is not None:
                rooms.append(room)
        return rooms

    def unfinished_count(self) -> int:
        """How many games wait or are being played (for the server's limit)."""
        return int(self._query("SELECT count(*) FROM games WHERE status != 'finished'", ())[0][0])

    def game_by_invite(self, code: str) -> str | None:
        """The id of the game this invite code belongs to (its seat may be taken by now)."""
        rows = self._query("SELECT id FROM games WHERE invite = ?", (code,))
        return rows[0][0] if rows else None

    def game_by_watch(self, code: str) -> str | None:
        """The id of the game this watch code follows."""
        rows = self._query("SELECT id FROM games WHERE watch = ?", (code,))
        return rows[0][0] if rows else None

    def seat_by_token(self, token_hash: str) -> tuple[str, int] | None:
        """The newest game a token's hash holds a seat in, and the seat: after a rematch, the rematch."""
        rows = self._query(
            "SELECT seats.game, seats.seat FROM seats JOIN games ON games.id = seats.game "
            "WHERE seats.token_hash = ? ORDER BY games.created_at DESC, games.rowid DESC LIMIT 1",
            (token_hash,),
        )
        return (rows[0][0], rows[0][1]) if rows else None

    def record_text(self, game_id: str) -> str | None:
        """The ``.mbg`` record of any stored game, finished or not; None if there is no such game."""
        room = self.load_game(game_id)
        return None if room is None else room.record_text()

    def read_rows(self, sql: str, parameters: tuple[object, ...]) -> list[tuple[Any, ...]]:
        """The rows of one ``SELECT`` (a ``StoreError`` when the file cannot be read)."""
        return self._query(sql, parameters)

    @contextlib.contextmanager
    def reading(self) -> Iterator[ReadConnection]:
        """A read-only connection of its own to the file, for a read on another thread: it takes
        none of the store's lock, so the event loop's reads and the writer never wait for it (WAL)."""
        try:
            connection = sqlite3.connect(f"{self.path.as_uri()}?mode=ro", uri=True, timeout=5.0)
        except sqlite3.Error as error:
            raise StoreError(one_line(f"reading the game database: {error}")) from None
        try:
            yield ReadConnection(connection)
        finally:
            connection.close()

    def _query(self, sql: str, parameters: tuple[object, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return list(self._connection.execute(sql, parameters).fetchall())
            except sqlite3.Error as error:
                raise StoreError(one_line(f"reading the game database: {error}")) from None


class Rows(Protocol):
    """What reads rows: the store, or a connection of its own on another thread (``ReadConnection``)."""

    def read_rows(self, sql: str, parameters: tuple[object, ...]) -> list[tuple[Any, ...]]: ...


@dataclass(frozen=True)
class ReadConnection:
    """A connection of ``GameStore.reading``: ``read_rows`` as the store's."""

    connection: sqlite3.Connection

    def read_rows(self, sql: str, parameters: tuple[object, ...]) -> list[tuple[Any, ...]]:
        try:
            return list(self.connection.execute(sql, parameters).fetchall())
        except sqlite3.Error as error:
            raise StoreError(one_line(f"reading the game database: {error}")) from None


def _run(connection: sqlite3.Connection, write: Write) -> None:
    for statement in write.statements:
        changed = connection.execute(statement.sql, statement.parameters).rowcount
        if statement.must_change_one is not None and changed != 1:
            raise sqlite3.IntegrityError(statement.must_change_one)


def _insert(room: Room) -> tuple[Statement, ...]:
    statements = [
        Statement(
            "INSERT INTO games (id, invite, watch, options, start, deal, creator_seat, created_at, status) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                room.game_id,
                room.invite,
                room.watch,
                json.dumps(room.options.to_json()),
                format_position(room.game.start),
                room.game.deal_number,
                room.creator_seat,
                room.created_at,
                room.status.value,
            ),
        )
    ]
    for seat, holder in sorted(room.seats.items()):
        statements.append(
            Statement(
                "INSERT INTO seats (game, seat, token_hash, name, joined_at) VALUES (?, ?, ?, ?, ?)",
                (room.game_id, seat, holder.token_hash, holder.name, holder.joined_at),
            )
        )
    statements += [_insert_receipt(room.game_id, receipt) for receipt in room.receipts]
    statements.append(_write_state(room))
    return tuple(statements)


def _insert_receipt(game_id: str, receipt: MoveReceipt) -> Statement:
    return Statement(
        "INSERT INTO moves (game, seat, move_id, ply, move, points, played_at, taken_back_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            game_id,
            receipt.seat,
            receipt.move_id,
            receipt.ply,
            receipt.move,
            receipt.points,
            receipt.played_at,
            receipt.taken_back_at,
        ),
    )


def _write_state(room: Room) -> Statement:
    return Statement(
        "UPDATE games SET status = ?, winner = ?, reason = ?, turn_started = ?, finished_at = ?, "
        "rematch_offer = ?, takeback_request = ?, rematch_of = ?, rematch_game = ?, rematch_watch = ? "
        "WHERE id = ?",
        (
            room.status.value,
            room.winner,
            None if room.reason is None else room.reason.value,
            room.turn_started,
            room.finished_at,
            room.rematch_offer,
            room.takeback_request,
            room.rematch_of,
            room.rematch_game,
            room.rematch_watch,
            room.game_id,
        ),
        f"no game {room.game_id} in the database",
    )
