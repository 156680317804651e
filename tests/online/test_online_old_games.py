"""Old finished games leave the database (``old_games``), and files of older versions are
upgraded in place: on real SQLite files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from battle.online.server.days.device_games import plan_claim
from battle.online.server.rooms.old_games import old_attempts, old_games, plan_delete, plan_delete_attempts
from battle.online.server.rooms.room import EndReason, Room
from battle.online.server.rooms.seat_networks import SeatNetworks, with_networks
from battle.online.server.rooms.store import SCHEMA_VERSION, GameStore, Statement, StoreError, Write
from battle.online.server.solving.rows import ReviewRow, plan_review
from tests.online.test_online_store import T0, join, make_room, play

DAY = 86400.0


def finished(store: GameStore, game_id: str, at: float, moves: int = 2) -> Room:
    """A game played ``moves`` moves and resigned at ``at``."""
    room = make_room(store, game_id)
    join(store, room)
    play(store, room, T0 + 2, count=moves)
    room.resign(room.to_move, at)
    store.finish(room)
    return room


def rows(path: Path, table: str, game: str) -> int:
    column = "id" if table == "games" else "game"
    with sqlite3.connect(path) as connection:
        return int(connection.execute(f"SELECT count(*) FROM {table} WHERE {column} = ?", (game,)).fetchone()[0])


def test_old_finished_games_are_found_oldest_first_and_a_recent_or_queued_review_keeps_one(tmp_path: Path) -> None:
    now = T0 + 100 * DAY
    before = now - 30 * DAY
    with GameStore(tmp_path / "games.sqlite3") as store:
        finished(store, "old", T0 + 10 * DAY)
        finished(store, "older", T0 + 5 * DAY)
        finished(store, "recent", now - DAY)
        finished(store, "reviewed_late", T0 + 10 * DAY)
        finished(store, "reviewed_early", T0 + 10 * DAY)
        finished(store, "queued", T0 + 10 * DAY)
        playing = make_room(store, "playing")
        join(store, playing)
        store.commit(plan_review(ReviewRow("r1", "reviewed_late", "done", now - 2 * DAY, now - 2 * DAY, {"moves": []})))
        store.commit(plan_review(ReviewRow("r2", "reviewed_early", "done", T0 + 11 * DAY, T0 + 11 * DAY, {})))
        store.commit(plan_review(ReviewRow("r3", "queued", "queued", T0 + 11 * DAY)))
        assert old_games(store, before, 10) == ["older", "old", "reviewed_early"]
        assert old_games(store, before, 2) == ["older", "old"]


def test_deleting_a_game_takes_its_rows_with_it_and_a_rematch_forgets_where_it_came_from(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        first = finished(store, "first", T0 + DAY)
        networks = SeatNetworks(store.link_key, 64)
        tag = networks.tag("192.0.2.7")
        store.commit(with_networks(store.plan_update(first), "first", {1: tag, 2: tag}))
        store.commit(plan_review(ReviewRow("r1", "first", "done", T0 + DAY, T0 + DAY, {"moves": []})))
        first.offer_rematch(1, T0 + DAY)
        store.update(first)
        invite, watch = store.fresh_codes()
        rematch = first.accept_rematch(2, game_id="second", invite=invite, watch=watch, now=T0 + DAY + 1)
        store.start_rematch(first, rematch)
        assert old_games(store, T0 + 2 * DAY, 10) == ["first"]
        store.commit(plan_delete(["first", "second"]))  # the unfinished rematch is not deleted
        for table in ("games", "seats", "moves", "reviews", "seat_networks"):
            assert rows(path, table, "first") == 0, table
        kept = store.load_game("second")
        assert kept is not None and kept.rematch_of is None and kept.ply == 0
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []


def test_a_version_4_database_is_upgraded_and_takes_the_end_abandoned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from battle.online.server.rooms import store as store_module

    path = tmp_path / "games.sqlite3"
    with monkeypatch.context() as version_4:  # this store as version 4 was: no abandoned, no seat networks
        version_4.setattr(store_module, "_SCHEMA", store_module._SCHEMA.replace(", 'abandoned'", ""))
        version_4.setattr(store_module, "_SEAT_NETWORKS_TABLE", "")
        version_4.setattr(store_module, "SCHEMA_VERSION", 4)
        version_4.setattr(store_module, "_COLUMNS", store_module._COLUMNS_4)
        with GameStore(path) as store:
            room = make_room(store, "g1")
            join(store, room)
            play(store, room, T0 + 3, count=3)
            room.abandon(T0 + 10 * DAY)
            with pytest.raises(StoreError, match="CHECK constraint failed"):  # what the upgrade must mend
                store.finish(room)
    with GameStore(path) as store:
        assert store.notice is None
        store.finish(room)
        loaded = store.load_game("g1")
        assert loaded is not None and loaded.reason == EndReason.ABANDONED and loaded.snapshot() == room.snapshot()
        tag = SeatNetworks(store.link_key, 64).tag("192.0.2.7")
        store.commit(with_networks(store.plan_update(room), "g1", {1: tag}))
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
        indexes = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert {"games_by_status", "games_by_end", "games_by_rematch"} <= indexes


def test_puzzle_attempts_older_than_the_days_kept_are_found_oldest_first_and_deleted(tmp_path: Path) -> None:
    now = T0 + 100 * DAY
    with GameStore(tmp_path / "games.sqlite3") as store:
        assert old_attempts(store, now, 10) == []  # no puzzle opened yet
        made = [T0 + DAY, T0 + 2 * DAY, now - DAY, T0 + 3 * DAY]  # an old one made after a recent one too
        for at in made:
            store.commit(
                Write(
                    "puzzles",
                    "attempt",
                    (
                        Statement(
                            "INSERT INTO puzzle_device_attempts (device, network, attempted_at, puzzle_id, solved, "
                            "player_rating, player_deviation, player_volatility, puzzle_rating, puzzle_deviation, "
                            "puzzle_volatility) VALUES ('d', 'n', ?, 'p', 1, 1500, 300, 0.06, 1500, 300, 0.06)",
                            (at,),
                        ),
                    ),
                )
            )
        before = now - 30 * DAY
        assert old_attempts(store, before, 10) == [1, 2, 4]
        assert old_attempts(store, before, 2) == [1, 2]
        store.commit(plan_delete_attempts([1, 2, 4]))
        assert old_attempts(store, before, 10) == []
        assert [row[0] for row in store.read_rows("SELECT id FROM puzzle_device_attempts", ())] == [3]


def test_a_version_6_database_gets_every_features_table_and_keeps_the_rows_it_made_itself(tmp_path: Path) -> None:
    """Version 6 left the device keys', the lobby's and the puzzles' tables to their features, each made
    on first use: a file may hold any of them, with rows, or none."""
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        room = make_room(store, "g1")
        store.commit(plan_claim(room.game_id, 1, "d" * 32, "net", T0))
    with sqlite3.connect(path) as connection:  # as version 6 left it: the device table made, the rest not
        for table in ("lobby_challenges", "puzzle_device_attempts", "puzzle_devices"):
            connection.execute(f"DROP TABLE {table}")
        connection.execute("PRAGMA user_version = 6")
    with GameStore(path) as store:
        assert store.notice is None
        assert store.read_rows("SELECT device FROM device_games", ()) == [("d" * 32,)]
        assert old_attempts(store, T0, 10) == []
        tables = {row[0] for row in store.read_rows("SELECT name FROM sqlite_master WHERE type = 'table'", ())}
        assert {"device_games", "lobby_challenges", "puzzle_devices", "puzzle_device_attempts"} <= tables
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 7
