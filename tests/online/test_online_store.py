"""The online games' database: every change committed before the method returns, games rebuilt exactly
after a restart or a kill, a damaged file set aside, tokens kept only as hashes."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battle.online.protocol.codes import hash_token, new_token
from battle.online.protocol.messages import GivenPosition, NumberedDeal
from battle.online.server.rooms.refusals import Refused
from battle.online.server.rooms.room import EndReason, Options, Room, Status, TimeCheck, plan_start
from battle.online.server.rooms.store import SCHEMA_VERSION, GameStore, StoreError, default_database_path
from battle.rules import Game, Position, deal, format_position, move_name

ROOT = Path(__file__).resolve().parents[2]
T0 = 1_700_000_000.0
ANN_TOKEN, BOB_TOKEN = new_token(), new_token()
ANN, BOB = hash_token(ANN_TOKEN), hash_token(BOB_TOKEN)


def make_room(
    store: GameStore,
    game_id: str,
    number: int = 1,
    move_seconds: int | None = None,
    lose_on_time: bool = False,
    start: Position | None = None,
) -> Room:
    """A new game stored the way the server stores it: codes from the store, then ``create``."""
    invite, watch = store.fresh_codes()
    choice = NumberedDeal(number) if start is None else GivenPosition(format_position(start))
    room = Room.create(
        game_id=game_id,
        invite=invite,
        watch=watch,
        plan=plan_start(choice, "creator"),
        options=Options(move_seconds, lose_on_time, "creator"),
        creator_name="Ann",
        creator_token_hash=ANN,
        now=T0,
    )
    store.create(room)
    return room


def join(store: GameStore, room: Room, now: float = T0 + 1) -> None:
    seat = room.join("Bob", BOB, now)
    store.join(room, seat)


def play(store: GameStore, room: Room, now: float, count: int = 1) -> None:
    for _ in range(count):
        seat = room.to_move
        assert seat is not None
        moves = room.game.position.legal_moves()
        outcome = room.play(seat, move_name(moves[room.ply % len(moves)]), f"id-{len(room.receipts)}", now)
        assert not outcome.duplicate
        store.add_move(room, outcome.receipt)


def reopened(path: Path, rooms: list[Room]) -> GameStore:
    """Open the file again and check that every room comes back exactly."""
    store = GameStore(path)
    assert store.notice is None
    for room in rooms:
        loaded = store.load_game(room.game_id)
        assert loaded is not None
        assert loaded.snapshot() == room.snapshot()
    return store


def test_the_default_database_lives_in_the_data_folder(private_home: Path) -> None:
    path = default_database_path()
    assert path == private_home / "data" / "mahjong-battle" / "online" / "games.sqlite3"
    assert path.parent.is_dir()
    with GameStore() as store:
        assert store.path == path and path.is_file()


def test_every_kind_of_change_survives_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = GameStore(path)
    waiting = make_room(store, "waiting", number=2)
    playing = make_room(store, "playing", number=3, move_seconds=60)
    join(store, playing)
    play(store, playing, T0 + 2, count=5)
    playing.request_takeback(playing.last_receipt.seat)  # type: ignore[union-attr]
    store.update(playing)
    taken = playing.answer_takeback(playing.to_move, True, T0 + 9)
    assert taken is not None
    store.take_back(playing, taken)
    play(store, playing, T0 + 10)
    playing.request_takeback(playing.last_receipt.seat)  # type: ignore[union-attr]
    store.update(playing)  # left pending: the request survives a restart too
    resigned = make_room(store, "resigned", number=4)
    join(store, resigned)
    play(store, resigned, T0 + 3, count=2)
    resigned.resign(2, T0 + 4)
    store.finish(resigned)
    resigned.offer_rematch(1, T0 + 4)
    store.update(resigned)
    rematch = resigned.accept_rematch(2, game_id="rematch", invite="M0RX4T2Q", watch="QQQQ1111", now=T0 + 5)
    store.start_rematch(resigned, rematch)
    play(store, rematch, T0 + 6)
    timed = make_room(store, "timed", number=5, move_seconds=10, lose_on_time=True)
    join(store, timed)
    assert timed.check_time(T0 + 30) == TimeCheck.LOST
    store.finish(timed)
    rooms = [waiting, playing, resigned, rematch, timed]
    store.close()

    store = reopened(path, rooms)
    unfinished = store.load_unfinished()
    assert [room.game_id for room in unfinished] == ["waiting", "playing", "rematch"]
    assert [room.snapshot() for room in unfinished] == [waiting.snapshot(), playing.snapshot(), rematch.snapshot()]
    assert store.problems == [] and store.unfinished_count() == 3
    again = store.load_game("playing")
    assert again is not None and again.takeback_request is not None
    assert [r.taken_back for r in again.receipts].count(True) == 1
    # the resent id of the taken-back move is still recognised after the restart
    outcome = again.play(taken.seat, taken.move, taken.move_id, T0 + 20)
    assert outcome.duplicate and outcome.receipt.taken_back
    store.close()


def test_codes_and_tokens_find_their_games(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        room = make_room(store, "g1")
        other = make_room(store, "g2", number=8)
        assert store.game_by_invite(room.invite) == "g1" and store.game_by_watch(other.watch) == "g2"
        assert store.game_by_invite(room.watch) is None and store.game_by_watch(room.invite) is None
        assert store.game_by_invite("ZZZZZZZZ") is None
        assert store.seat_by_token(ANN) in {("g1", 1), ("g2", 1)}
        assert store.seat_by_token(BOB) is None
        join(store, room)
        assert store.load_game("g1").seat_of(BOB) == 2  # type: ignore[union-attr]
        room.resign(1, T0 + 2)
        store.finish(room)
        room.offer_rematch(2, T0 + 2)
        store.update(room)
        rematch = room.accept_rematch(1, game_id="g3", invite="M0RX4T2Q", watch="QQQQ1111", now=T0 + 99)
        store.start_rematch(room, rematch)
        # after a rematch the same token resumes the newest game of the series, in its swapped seat
        assert store.seat_by_token(BOB) == ("g3", 1)
        assert store.game_by_watch("QQQQ1111") == "g3"
        assert store.load_game("nope") is None and store.record_text("nope") is None


def test_fresh_codes_are_used_by_no_game_in_either_role(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        rooms = [make_room(store, f"g{n}") for n in range(20)]
        used = {room.invite for room in rooms} | {room.watch for room in rooms}
        assert len(used) == 40
        for _ in range(50):
            invite, watch = store.fresh_codes()
            assert invite != watch and invite not in used and watch not in used


def test_the_record_of_any_game_is_its_mbg(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        room = make_room(store, "g1", number=6)
        join(store, room)
        while room.status == Status.PLAYING:
            play(store, room, T0 + 2)
        text = store.record_text("g1")
        assert text == room.record_text()
        game = Game.from_text(text)  # type: ignore[arg-type]
        assert game.moves == room.game.moves and game.is_over() and game.deal_number == 6
        assert room.reason == EndReason.NO_PAIR


def test_the_file_holds_token_hashes_and_never_a_token(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        room = make_room(store, "g1")
        join(store, room)
        files = [path, *(tmp_path / f"games.sqlite3{suffix}" for suffix in ("-wal", "-shm"))]
        raw = b"".join(file.read_bytes() for file in files if file.exists())
    assert ANN.encode() in raw or ANN.encode() in path.read_bytes()
    assert ANN_TOKEN.encode() not in raw and BOB_TOKEN.encode() not in raw


def test_the_database_is_wal_full_sync_with_foreign_keys_and_a_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        make_room(store, "g1")
        connection = store._connection  # the settings below are per connection: read them on the store's own
        assert connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert connection.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        other = sqlite3.connect(path)
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert other.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        with pytest.raises(sqlite3.IntegrityError):  # a seat of no game: the foreign key holds
            connection.execute("INSERT INTO seats VALUES ('nowhere', 1, 'h', 'n', 0)")
        other.close()


def test_a_failed_write_changes_nothing_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        room = make_room(store, "g1")
        join(store, room)
        play(store, room, T0 + 2)
        stored = store.load_game("g1").snapshot()  # type: ignore[union-attr]
        receipt = room.last_receipt
        assert receipt is not None
        room.resign(2, T0 + 3)  # in memory only, then a write that fails half-way
        with pytest.raises(StoreError, match="storing move 1 of game g1"):
            store.add_move(room, receipt)  # the move row exists: the insert fails, the status update is undone
        assert store.load_game("g1").snapshot() == stored  # type: ignore[union-attr]
        with pytest.raises(StoreError):
            store.create(room)  # the same id twice
        with pytest.raises(StoreError, match="not finished"):
            store.finish(make_room(store, "g2"))


def test_a_group_commit_fails_only_the_bad_write_and_its_games_later_ones(tmp_path: Path) -> None:
    """One transaction for many writes: a write that fails is undone alone (its savepoint), the
    later writes of its game fail with it, every other game's writes are stored."""
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        rooms = [make_room(store, f"g{n}", number=n) for n in range(1, 4)]
        for room in rooms:
            join(store, room)
        good, bad, other = rooms
        play(store, bad, T0 + 2)
        stale = bad.last_receipt
        assert stale is not None
        writes = []
        for room in (good, bad, other):
            seat = room.to_move
            assert seat is not None
            moves = room.game.position.legal_moves()
            outcome = room.play(seat, move_name(moves[0]), "fresh", T0 + 3)
            writes.append(store.plan_add_move(room, outcome.receipt))
        writes.insert(1, store.plan_add_move(bad, stale))  # its row exists: this insert fails
        writer = store.open_writer()
        failed: set[str] = set()
        outcomes = store.commit_group(writes, writer, failed)
        writer.close()
        assert [outcome is None for outcome in outcomes] == [True, False, False, True]
        assert "storing move 1 of game g2" in str(outcomes[1])
        assert "an earlier write of this game failed" in str(outcomes[2])
        assert failed == {"g2"}
        for room, plies in ((good, 1), (bad, 1), (other, 1)):
            assert store.load_game(room.game_id).ply == plies  # type: ignore[union-attr]
        assert store.load_game("g1").snapshot() == good.snapshot()  # type: ignore[union-attr]


# -- files that are not ours -------------------------------------------------------------------------


def test_a_file_that_is_not_a_database_at_the_servers_own_path_is_set_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = default_database_path()
    tmp_path = path.parent
    garbage = b"these are not the games you are looking for\n" * 100
    path.write_bytes(garbage)
    with GameStore() as store:
        assert store.notice is not None and "\n" not in store.notice
        assert "not a usable game database" in store.notice and "games.sqlite3.corrupt" in store.notice
        assert (tmp_path / "games.sqlite3.corrupt").read_bytes() == garbage
        room = make_room(store, "g1")
        join(store, room)
    with GameStore() as store:
        assert store.notice is None and store.load_game("g1") is not None


def test_a_db_named_that_is_no_game_database_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("server notes\n")
    history = tmp_path / "history.sqlite3"
    with sqlite3.connect(history) as connection:
        connection.execute("CREATE TABLE games (id INTEGER)")
        connection.execute("CREATE TABLE puzzles (id INTEGER)")
    other_schema = rf"not a game database of this server \(schema version 0, expected {SCHEMA_VERSION}\)"
    for path, words in ((text, "not a game database but a file of another kind"), (history, other_schema)):
        before = path.read_bytes()
        with pytest.raises(StoreError, match=words):
            GameStore(path)
        assert path.read_bytes() == before and not path.with_name(path.name + ".corrupt").exists()


def test_a_version_1_database_is_upgraded_in_place_and_keeps_its_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from battle.online.server.rooms import store as store_module

    path = tmp_path / "games.sqlite3"
    with monkeypatch.context() as version_1:  # this store as version 1 was: its schema, no upgrade
        version_1.setattr(store_module, "_SCHEMA", store_module._SCHEMA.replace(", 'aborted', 'expired'", ""))
        version_1.setattr(store_module, "SCHEMA_VERSION", 1)
        version_1.setattr(store_module, "_UPGRADE_FROM_1", "")
        with GameStore(path) as store:
            playing = make_room(store, "g1")
            join(store, playing)
            play(store, playing, T0 + 3, count=2)
            waiting = make_room(store, "g2")
            waiting.abort(waiting.creator_seat, T0 + 9)
            with pytest.raises(StoreError, match="CHECK constraint failed"):  # what the upgrade must mend
                store.finish(waiting)
    with GameStore(path) as store:
        assert store.notice is None
        assert store.load_game("g1").snapshot() == playing.snapshot()  # type: ignore[union-attr]
        store.finish(waiting)
        assert store.load_game("g2").reason == EndReason.ABORTED  # type: ignore[union-attr]
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_damaged_database_is_set_aside_and_an_earlier_one_kept(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    (tmp_path / "games.sqlite3.corrupt").write_bytes(b"an earlier one")
    with GameStore(path) as store:
        for number in range(12):
            room = make_room(store, f"g{number}", number=number)
            join(store, room)
            play(store, room, T0 + 2, count=20)
    data = bytearray(path.read_bytes())
    assert len(data) > 3 * 4096
    data[2 * 4096 : 3 * 4096] = b"\xff" * 4096  # one page of the tables overwritten
    path.write_bytes(bytes(data))
    with GameStore(path) as store:
        assert store.notice is not None and "games.sqlite3.2.corrupt" in store.notice
        assert store.load_unfinished() == []
    assert (tmp_path / "games.sqlite3.corrupt").read_bytes() == b"an earlier one"
    assert (tmp_path / "games.sqlite3.2.corrupt").read_bytes() == bytes(data)


def test_another_programs_database_at_the_servers_own_path_is_set_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    other = sqlite3.connect(default_database_path())
    other.execute("CREATE TABLE notes (text TEXT)")
    other.commit()
    other.close()
    with GameStore() as store:
        assert store.notice is not None and "schema version 0" in store.notice
        make_room(store, "g1")


def test_a_newer_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE games (id TEXT)")
    other.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    other.commit()
    other.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer version"):
        GameStore(path)
    assert path.read_bytes() == before
    assert not (tmp_path / "games.sqlite3.corrupt").exists()


def test_a_game_that_does_not_rebuild_is_left_out_and_named(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        good = make_room(store, "good")
        broken = make_room(store, "broken", number=2)
        join(store, broken)
        play(store, broken, T0 + 2, count=3)
    other = sqlite3.connect(path)
    other.execute("UPDATE moves SET move = 'b2-b3' WHERE game = 'broken' AND ply = 2")
    other.commit()
    other.close()
    with GameStore(path) as store:
        rooms = store.load_unfinished()
        assert [room.snapshot() for room in rooms] == [good.snapshot()]
        assert len(store.problems) == 1 and store.problems[0].startswith("game broken does not rebuild: ")
        assert "b2 is not free" in store.problems[0]
        with pytest.raises(StoreError):
            store.load_game("broken")


# -- a kill in the middle of writing ---------------------------------------------------------------

WRITER = """
import sys, time
from battle import move_name
from battle.online.protocol.messages import NumberedDeal
from battle.online.server.rooms.room import Options, Room, Status, plan_start
from battle.online.server.rooms.store import GameStore

store = GameStore(sys.argv[1])
log = open(sys.argv[2], "a", buffering=1)
number = 0
while True:
    number += 1
    invite, watch = store.fresh_codes()
    plan = plan_start(NumberedDeal(number), "creator")
    room = Room.create(game_id=f"g{number}", invite=invite, watch=watch, plan=plan, options=Options(),
                       creator_name="A", creator_token_hash="a" * 64, now=time.time())
    store.create(room)
    store.join(room, room.join("B", "b" * 64, time.time()))
    while room.status == Status.PLAYING:
        move = room.game.position.legal_moves()[0]
        outcome = room.play(room.to_move, move_name(move), f"m{room.ply}", time.time())
        store.add_move(room, outcome.receipt)
        log.write(f"{room.game_id} {outcome.receipt.ply} {outcome.receipt.move}\\n")
"""


def test_a_killed_writer_leaves_every_committed_move(tmp_path: Path) -> None:
    path, log = tmp_path / "games.sqlite3", tmp_path / "committed.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), str(log)], env=env, cwd=ROOT, stderr=subprocess.PIPE
    )
    try:
        give_up = time.monotonic() + 10  # start-up is well under a second; a writer that never writes fails below
        while time.monotonic() < give_up and writer.poll() is None:
            if log.exists() and log.read_text().count("\n") >= 300:
                break
            time.sleep(0.02)
        time.sleep(0.1)
    finally:
        writer.send_signal(signal.SIGKILL)
        _, errors = writer.communicate(timeout=10)
    assert writer.returncode == -signal.SIGKILL, errors.decode()
    committed = [line.split() for line in log.read_text().splitlines() if line.count(" ") == 2]
    assert len(committed) >= 300, f"the writer committed only {len(committed)} moves: {errors.decode()}"
    with GameStore(path) as store:
        assert store.notice is None
        rooms = {}
        for game_id, ply, move in committed:
            if game_id not in rooms:
                rooms[game_id] = store.load_game(game_id)
            room = rooms[game_id]
            assert room is not None
            assert room.game.ply >= int(ply) and move_name(room.game.moves[int(ply) - 1]) == move
        assert len(rooms) >= 3  # games of 50 moves or so: the writer got through several


# -- random sessions, as the server would store them -----------------------------------------------

session_steps = st.lists(
    st.tuples(
        st.sampled_from(["move"] * 6 + ["resend", "takeback", "takeback", "decline", "resign", "wait", "rematch"]),
        st.integers(0, 10**6),
    ),
    min_size=10,
    max_size=50,
)


@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(session_steps, st.booleans())
def test_random_sessions_reload_exactly(tmp_path: Path, steps: list[tuple[str, int]], lose_on_time: bool) -> None:
    path = tmp_path / f"session-{time.monotonic_ns()}.sqlite3"
    store = GameStore(path)
    start = deal(11)
    while start.tiles_left() > 30:
        start.push(start.legal_moves()[-1])
    room = make_room(store, "g0", move_seconds=20, lose_on_time=lose_on_time, start=start.copy())
    join(store, room)
    rooms, now = [room], T0 + 1
    for action, pick in steps:
        now += pick % 15
        if room.check_time(now) == TimeCheck.LOST:
            store.finish(room)
        last = room.last_receipt
        if room.status == Status.PLAYING:
            if action == "move":
                moves = room.game.position.legal_moves()
                seat = room.to_move
                outcome = room.play(seat, move_name(moves[pick % len(moves)]), f"m{len(room.receipts)}", now)
                assert not outcome.duplicate
                store.add_move(room, outcome.receipt)
            elif action == "resend" and last is not None:
                assert room.play(last.seat, last.move, last.move_id, now).duplicate
            elif action in ("takeback", "decline") and last is not None:
                try:
                    room.request_takeback(last.seat)
                except Refused:  # this move's takeback was declined already: not asked again
                    continue
                store.update(room)
                taken = room.answer_takeback(3 - last.seat, action == "takeback", now)
                if taken is None:
                    store.update(room)
                else:
                    store.take_back(room, taken)
            elif action == "resign":
                room.resign(1 + pick % 2, now)
                store.finish(room)
        elif room.status == Status.FINISHED and action == "rematch":
            room.offer_rematch(1 + pick % 2, now)
            store.update(room)
            invite, watch = store.fresh_codes()
            rematch = room.accept_rematch(2 - pick % 2, game_id=f"g{len(rooms)}", invite=invite, watch=watch, now=now)
            store.start_rematch(room, rematch)
            room = rematch
            rooms.append(room)
    store.close()
    reopened(path, rooms).close()


def test_a_folder_that_cannot_be_used_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot be used"):
        GameStore(tmp_path / "no\x00such" / "games.sqlite3")  # no system accepts a NUL in a name
