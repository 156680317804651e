"""The online games on disk: one SQLite file, every change committed before anyone is told of it.

- WAL journal with ``synchronous=FULL``: a method returns only after its transaction's WAL
  frames are fsynced, so a crash, a power cut or a ``kill -9`` at any instant keeps every
  change a player was told about and loses at most the one being written. Each write
  method is one transaction: a move, its game's new status and its clock go together or
  not at all.
- The schema carries ``PRAGMA user_version``; foreign keys are on.
- Only SHA-256 hashes of seat tokens are stored; nothing is pickled or evaluated, the
  options are a JSON object and positions and moves are notation text.
- A file that is not a database, is damaged or holds another schema is renamed aside
  (``games.sqlite3.corrupt``) and an empty database takes its place; ``notice`` says so in
  one line for the server to print. A database of a newer schema is left alone and refused.

If a write raises ``StoreError`` the room in memory is ahead of the disk: the server drops
it and reloads it with ``load_game``, which is the truth.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from battle.online.protocol.codes import new_invite_code, new_watch_code
from battle.online.server.room import EndReason, MoveReceipt, Options, Room, SeatHolder, Status
from battle.rules.errors import one_line
from battle.rules.notation import format_position, parse_position
from battle.storage import sqlite_file
from battle.storage.paths import StorageProblem, data_dir, ensure_folder, set_aside

SCHEMA_VERSION = 2
"""2 adds the ends ``aborted`` and ``expired``; a version 1 file is upgraded in place when opened."""
DATABASE_NAME = "games.sqlite3"
SIDE_FILES = ("-wal", "-shm")
"""SQLite's companions of a WAL database; set aside with it, since they belong to it."""

_SCHEMA = """
CREATE TABLE games (
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
    reason TEXT CHECK (reason IN ('no_pair', 'resign', 'time', 'aborted', 'expired')),
    turn_started REAL,
    finished_at REAL,
    rematch_offer INTEGER CHECK (rematch_offer IN (1, 2)),
    takeback_request INTEGER CHECK (takeback_request IN (1, 2)),
    rematch_of TEXT REFERENCES games (id),
    rematch_game TEXT,
    rematch_watch TEXT
);
CREATE INDEX games_by_status ON games (status);
CREATE TABLE seats (
    game TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat IN (1, 2)),
    token_hash TEXT NOT NULL,
    name TEXT NOT NULL,
    joined_at REAL NOT NULL,
    PRIMARY KEY (game, seat)
);
CREATE INDEX seats_by_token ON seats (token_hash);
CREATE TABLE moves (
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
CREATE UNIQUE INDEX live_moves ON moves (game, ply) WHERE taken_back_at IS NULL;
"""
_GAMES_TABLE = _SCHEMA[_SCHEMA.index("CREATE TABLE games"):_SCHEMA.index("CREATE INDEX games_by_status")]
_UPGRADE_FROM_1 = f"""
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
{_GAMES_TABLE.replace("CREATE TABLE games", "CREATE TABLE games_v2", 1)}
INSERT INTO games_v2 SELECT * FROM games;
DROP TABLE games;
ALTER TABLE games_v2 RENAME TO games;
CREATE INDEX games_by_status ON games (status);
PRAGMA user_version = 2;
COMMIT;
PRAGMA foreign_keys = ON;
"""
"""Version 1's ``games`` table allows only three ends in a CHECK, which SQLite cannot alter: the
table is copied into one with the wider CHECK, in one transaction (seats and moves keep
pointing at the same ids)."""

_COLUMNS = {
    "games": ("id", "invite", "watch", "options", "start", "deal", "creator_seat", "created_at", "status", "winner",
              "reason", "turn_started", "finished_at", "rematch_offer", "takeback_request", "rematch_of",
              "rematch_game", "rematch_watch"),
    "seats": ("game", "seat", "token_hash", "name", "joined_at"),
    "moves": ("game", "seat", "move_id", "ply", "move", "points", "played_at", "taken_back_at"),
}


class StoreError(Exception):
    """The database cannot be used or a write failed; the message is one line for the server's log."""


class _NotOurs(Exception):
    """A readable SQLite file that is not a game database of this schema, or fails its integrity check."""


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
        try:
            self.path: Path = Path(path) if path is not None else default_database_path()
            self.named = path is not None
            """The caller named the file (``--db``): one that is not a game database is refused, not set aside."""
            ensure_folder(self.path.parent)
        except StorageProblem as problem:
            raise StoreError(one_line(str(problem))) from None
        self._connection = self._open()

    # -- opening -----------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        if self.named and sqlite_file.other_kind_of_file(self.path):
            raise StoreError(one_line(f"{self.path}: not a game database but a file of another kind; start the "
                                      "server with another --db (this one is left as it is)"))
        try:
            return self._connect_and_prepare()
        except (_NotOurs, sqlite3.DatabaseError) as error:
            if isinstance(error, sqlite3.OperationalError):  # locked, or not openable: the file may be fine
                raise StoreError(one_line(f"{self.path}: cannot open the game database: {error}")) from None
            reason = str(error)
        moved = set_aside(self.path)
        if moved is None:
            raise StoreError(one_line(f"{self.path}: not a usable game database ({reason}) and cannot be moved aside"))
        for suffix in SIDE_FILES:
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                set_aside(side)
        self.notice = one_line(
            f"{self.path}: not a usable game database ({reason}); set aside as {moved.name}, starting an empty one"
        )
        try:
            return self._connect_and_prepare()
        except (_NotOurs, sqlite3.Error) as error:
            raise StoreError(one_line(f"{self.path}: cannot start a new game database: {error}")) from None

    @staticmethod
    def _schema_mismatch(connection: sqlite3.Connection, found: sqlite_file.Contents) -> str | None:
        """How a file that holds tables differs from this schema, or None when it is this schema."""
        if found.version not in (1, SCHEMA_VERSION):
            return f"schema version {found.version}, expected {SCHEMA_VERSION}"
        for table, columns in _COLUMNS.items():
            held = sqlite_file.columns(connection, table)
            if held != columns:
                return f"table {table} has columns {', '.join(held) or 'none'}"
        return None

    def _connect_and_prepare(self) -> sqlite3.Connection:
        connection = sqlite_file.connect(self.path)
        try:
            connection.execute("PRAGMA foreign_keys = ON")
            # read before anything writes: a newer version's file is left exactly as it was
            found = sqlite_file.contents(connection)
            if found.version > SCHEMA_VERSION:
                raise StoreError(one_line(
                    f"{self.path}: written by a newer version of the game (schema {found.version}, this one reads "
                    f"{SCHEMA_VERSION}); start this version with another database file"
                ))
            problem = sqlite_file.integrity_problem(connection)
            if problem is not None:
                raise _NotOurs(problem)
            mismatch = None if found.empty else self._schema_mismatch(connection, found)
            if mismatch is not None and self.named:  # another program's database (the game history): never renamed
                raise StoreError(one_line(f"{self.path}: not a game database of this server ({mismatch}); start "
                                          "it with another --db (this one is left as it is)"))
            if mismatch is not None:
                raise _NotOurs(mismatch)
            sqlite_file.make_durable(connection, _SCHEMA, SCHEMA_VERSION, create=found.empty)
            if not found.empty and found.version == 1:
                connection.executescript(_UPGRADE_FROM_1)
        except BaseException:
            connection.close()
            raise
        return connection

    def close(self) -> None:
        with self._lock:
            self._connection.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    @contextlib.contextmanager
    def _transaction(self, action: str) -> Iterator[sqlite3.Connection]:
        """One committed transaction; any SQLite failure rolls it back and becomes a ``StoreError``."""
        with self._lock:
            connection = self._connection
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
        with self._transaction(f"storing game {room.game_id}") as connection:
            self._insert(connection, room)

    def join(self, room: Room, seat: int) -> None:
        """Store the seat ``room.join`` just gave, and the game's start."""
        holder = room.seats[seat]
        with self._transaction(f"storing the join of game {room.game_id}") as connection:
            connection.execute(
                "INSERT INTO seats (game, seat, token_hash, name, joined_at) VALUES (?, ?, ?, ?, ?)",
                (room.game_id, seat, holder.token_hash, holder.name, holder.joined_at),
            )
            self._write_state(connection, room)

    def add_move(self, room: Room, receipt: MoveReceipt) -> None:
        """Store a move ``room.play`` just applied, with the game's state after it (which may be finished)."""
        with self._transaction(f"storing move {receipt.ply} of game {room.game_id}") as connection:
            self._insert_receipt(connection, room.game_id, receipt)
            self._write_state(connection, room)

    def take_back(self, room: Room, receipt: MoveReceipt) -> None:
        """Store the takeback ``room.answer_takeback`` just made: the move's row stays, marked, so its id stays used."""
        with self._transaction(f"storing the takeback in game {room.game_id}") as connection:
            changed = connection.execute(
                "UPDATE moves SET taken_back_at = ? WHERE game = ? AND seat = ? AND move_id = ? "
                "AND taken_back_at IS NULL",
                (receipt.taken_back_at, room.game_id, receipt.seat, receipt.move_id),
            ).rowcount
            if changed != 1:
                raise sqlite3.IntegrityError(f"move id {receipt.move_id!r} is not a move on the board")
            self._write_state(connection, room)

    def update(self, room: Room) -> None:
        """Store the game's status, result, clock and offers (after a resignation, the clock, an offer, an answer)."""
        with self._transaction(f"storing game {room.game_id}") as connection:
            self._write_state(connection, room)

    def finish(self, room: Room) -> None:
        """Store a game ``resign`` or ``check_time`` just finished."""
        if room.status != Status.FINISHED:
            raise StoreError(f"game {room.game_id} is not finished")
        self.update(room)

    def start_rematch(self, old: Room, new: Room) -> None:
        """Store the game ``accept_rematch`` made and the old game's pointer to it, together."""
        with self._transaction(f"storing the rematch of game {old.game_id}") as connection:
            self._insert(connection, new)
            self._write_state(connection, old)

    def _insert(self, connection: sqlite3.Connection, room: Room) -> None:
        connection.execute(
            "INSERT INTO games (id, invite, watch, options, start, deal, creator_seat, created_at, status) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (room.game_id, room.invite, room.watch, json.dumps(room.options.to_json()),
             format_position(room.game.start), room.game.deal_number, room.creator_seat, room.created_at,
             room.status.value),
        )
        for seat, holder in sorted(room.seats.items()):
            connection.execute(
                "INSERT INTO seats (game, seat, token_hash, name, joined_at) VALUES (?, ?, ?, ?, ?)",
                (room.game_id, seat, holder.token_hash, holder.name, holder.joined_at),
            )
        for receipt in room.receipts:
            self._insert_receipt(connection, room.game_id, receipt)
        self._write_state(connection, room)

    @staticmethod
    def _insert_receipt(connection: sqlite3.Connection, game_id: str, receipt: MoveReceipt) -> None:
        connection.execute(
            "INSERT INTO moves (game, seat, move_id, ply, move, points, played_at, taken_back_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, receipt.seat, receipt.move_id, receipt.ply, receipt.move, receipt.points, receipt.played_at,
             receipt.taken_back_at),
        )

    @staticmethod
    def _write_state(connection: sqlite3.Connection, room: Room) -> None:
        changed = connection.execute(
            "UPDATE games SET status = ?, winner = ?, reason = ?, turn_started = ?, finished_at = ?, "
            "rematch_offer = ?, takeback_request = ?, rematch_of = ?, rematch_game = ?, rematch_watch = ? "
            "WHERE id = ?",
            (room.status.value, room.winner, None if room.reason is None else room.reason.value, room.turn_started,
             room.finished_at, room.rematch_offer, room.takeback_request, room.rematch_of, room.rematch_game,
             room.rematch_watch, room.game_id),
        ).rowcount
        if changed != 1:
            raise sqlite3.IntegrityError(f"no game {room.game_id} in the database")

    # -- reading -----------------------------------------------------------------------

    def load_game(self, game_id: str) -> Room | None:
        """The game as stored, rebuilt move by move; None if there is none. Raises ``StoreError``
        if its rows do not make a valid game (a move that is not legal, options that do not read)."""
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
                game_id=game[0], invite=game[1], watch=game[2], options=Options.from_json(json.loads(game[3])),
                start=parse_position(game[4]), deal_number=game[5], creator_seat=game[6], created_at=game[7],
                seats={seat: SeatHolder(token_hash, name, joined_at) for seat, token_hash, name, joined_at in seats},
                status=Status(game[8]), winner=game[9], reason=None if game[10] is None else EndReason(game[10]),
                turn_started=game[11], finished_at=game[12], rematch_offer=game[13], takeback_request=game[14],
                rematch_of=game[15], rematch_game=game[16], rematch_watch=game[17],
                receipts=[MoveReceipt(*row) for row in moves],
            )
        except (ValueError, TypeError, KeyError, IndexError) as error:  # BattleError and JSON errors are ValueErrors
            raise StoreError(one_line(f"game {game_id} does not rebuild: {error}")) from None

    def load_unfinished(self) -> list[Room]:
        """Every game waiting or being played, oldest first; one that does not rebuild is left out
        and named in ``problems``, so one damaged game never keeps the server from starting."""
        self.problems = []
        with self._lock:
            ids = [row[0] for row in self._query(
                "SELECT id FROM games WHERE status != 'finished' ORDER BY created_at, rowid", ())]
        rooms = []
        for game_id in ids:
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

    def _query(self, sql: str, parameters: tuple[object, ...]) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return list(self._connection.execute(sql, parameters).fetchall())
            except sqlite3.Error as error:
                raise StoreError(one_line(f"reading the game database: {error}")) from None
