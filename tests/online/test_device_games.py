"""The device keys' rows in a real game database: filed once a seat, the bounds on new keys per
network an hour and on games per key, a review's accuracy read into the statistics' entries, and
the rows gone with their games."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from battle.online.server.days import device_games
from battle.online.server.days.device_games import (
    HOUR,
    claim_refusal,
    plan_claim,
)
from battle.online.server.limits.server import ServerLimits
from battle.online.server.rooms.store import GameStore, Statement, Write
from tests.online.test_online_store import T0, join, make_room

LIMITS = ServerLimits()


def key(number: int) -> str:
    return f"{number:032x}"


def test_a_network_files_games_under_few_new_keys_an_hour(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        for number in range(LIMITS.device_keys_per_hour):
            room = make_room(store, f"g{number}")
            assert claim_refusal(store, LIMITS, key(number), "net", T0) is None
            store.commit(plan_claim(room.game_id, 1, key(number), "net", T0))
        refusal = claim_refusal(store, LIMITS, key(99), "net", T0 + 1)
        assert refusal is not None and refusal[0] == "new_devices"
        assert refusal[1].startswith(
            f"your network filed games under {LIMITS.device_keys_per_hour} new device keys this hour;"
        )
        assert claim_refusal(store, LIMITS, key(0), "net", T0 + 1) is None  # a key it used already
        assert claim_refusal(store, LIMITS, key(99), "other", T0 + 1) is None  # another network
        assert claim_refusal(store, LIMITS, key(99), "net", T0 + HOUR + 1) is None  # an hour later


def test_a_key_holds_so_many_games_and_a_seat_is_filed_once(tmp_path: Path) -> None:
    two = replace(LIMITS, games_per_device=2)
    with GameStore(tmp_path / "games.sqlite3") as store:
        first, second = make_room(store, "g1"), make_room(store, "g2")
        store.commit(plan_claim(first.game_id, 1, key(1), "net", T0))
        store.commit(plan_claim(first.game_id, 1, key(2), "net", T0))  # the seat stays with key 1
        assert store.read_rows("SELECT device FROM device_games", ()) == [(key(1),)]
        store.commit(plan_claim(second.game_id, 1, key(1), "net", T0))
        assert claim_refusal(store, two, key(1), "net", T0) == (
            "device_full",
            "this device key holds 2 games already; the game is played but not filed",
        )


def test_the_entries_read_the_result_and_the_reviews_accuracy_and_go_with_the_game(tmp_path: Path) -> None:
    with GameStore(tmp_path / "games.sqlite3") as store:
        room = make_room(store, "g1", number=8)
        join(store, room)
        store.commit(plan_claim(room.game_id, 2, key(1), "net", T0))
        room.resign(1, T0 + 5)
        store.finish(room)
        report = {"summary": [{"player": 1, "accuracy": 50.0}, {"player": 2, "accuracy": 75.5}]}
        store.commit(
            Write(
                "g1",
                "a review",
                (
                    Statement(
                        "INSERT INTO reviews (id, game, status, requested_at, finished_at, report)"
                        " VALUES ('r1', 'g1', 'done', ?, ?, ?)",
                        (T0 + 6, T0 + 7, json.dumps(report)),
                    ),
                ),
            )
        )
        [game] = device_games.device_games(store, key(1), LIMITS.games_per_device)
        entry = game.entry
        assert (entry.you, entry.deal, entry.winner, entry.players) == (2, 8, 2, ("Ann", "Bob"))
        assert entry.accuracy == (50.0, 75.5) and game.review == "r1"
        store.commit(Write("g1", "deleting", (Statement("DELETE FROM games WHERE id = 'g1'", ()),)))
        assert store.read_rows("SELECT COUNT(*) FROM device_games", ()) == [(0,)]


def test_a_drawn_game_counts_and_an_aborted_one_does_not(tmp_path: Path) -> None:
    """A draw has no winner, as an aborted game has none: the statistics tell them apart by the
    game's end, so a draw is counted (it was left out with the aborted ones) and an abort is not."""
    with GameStore(tmp_path / "games.sqlite3") as store:
        for game, reason in (("g1", "no_pair"), ("g2", "aborted"), ("g3", "expired")):
            room = make_room(store, game)
            join(store, room)
            store.commit(plan_claim(room.game_id, 1, key(1), "net", T0))
            room.resign(1, T0 + 5)
            store.finish(room)
            ended = Statement("UPDATE games SET winner = NULL, reason = ? WHERE id = ?", (reason, game))
            store.commit(Write(game, "the game's end as the test wants it", (ended,)))
        [drawn] = device_games.device_games(store, key(1), LIMITS.games_per_device)
        assert (drawn.entry.game_key, drawn.entry.winner, drawn.entry.scores) == ("g1", None, (0, 0))
