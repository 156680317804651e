"""The game server over real sockets on 127.0.0.1: whole games, reconnects, restarts, spectators,
time limits, takebacks, rematches, and hostile clients that change nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from battle.online.server.limits.server import ServerLimits
from battle.online.server.rooms.store import GameStore
from battle.rules.board import move_name
from battle.rules.game import Game
from tests.online_server import Client, ServerThread, a_legal_move, host_and_join


def stored(database: Path, game: str) -> dict:
    with GameStore(database) as store:
        room = store.load_game(game)
        assert room is not None
        return room.snapshot()


def play_to_the_end(host: Client, guest: Client, state: dict) -> dict:
    """Both players take the first legal pair in turn until no pair is left; returns the final state."""
    players = {1: host, 2: guest}
    number = 0
    while state["status"] == "playing":
        mover = players[state["to_move"]]
        number += 1
        mover.send({"type": "move", "move": a_legal_move(state), "id": f"m{number}"})
        moved = mover.expect("moved")
        assert mover.expect("ack")["ply"] == moved["ply"]
        state["moves"].append(moved["move"])
        state.update(status=moved["status"], to_move=moved["to_move"], scores=moved["scores"])
        other = players[3 - moved["seat"]]
        assert other.expect("moved")["ply"] == moved["ply"]
    return state


def test_a_whole_game_between_two_clients_and_a_spectator(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server:
        host, guest, created, joined = host_and_join(server.url)
        assert (created["seat"], joined["seat"]) == (1, 2) and created["token"] != joined["token"]
        watcher = Client(server.url)
        watcher.send({"type": "watch", "code": created["watch"]})
        state = watcher.expect("state")
        assert state["you"] == "spectator" and state["status"] == "playing" and state["invite"] is None
        assert [p["presence"] for p in state["players"]] == ["connected", "connected"]
        final = play_to_the_end(host, guest, state)
        assert final["status"] == "finished"
        finished = watcher.expect("state", timeout=10)
        while finished["status"] != "finished":
            finished = watcher.expect("state")
        watcher.send({"type": "record"})
        record = watcher.expect("record")["mbg"]
        game = Game.from_text(record)
        assert final["moves"] == [move_name(m) for m in game.moves]
        assert game.is_over() and list(game.position.scores) == finished["result"]["scores"]
    snapshot = stored(tmp_path / "games.sqlite3", created["game"])
    assert snapshot["status"] == "finished" and snapshot["moves"] == final["moves"]


def test_a_resent_move_is_applied_once_and_a_reused_id_is_refused(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server:
        host, guest, created, _ = host_and_join(server.url)
        state = host.seen[-1]
        move = a_legal_move(state)
        for _ in range(3):
            host.send({"type": "move", "move": move, "id": "same"})
            ack = host.expect("ack")
            assert (ack["id"], ack["ply"], ack["move"]) == ("same", 1, move)
        guest.expect("moved")
        host.send({"type": "ping", "t": 1})
        host.expect("pong")
        state["moves"].append(move)
        guest.send({"type": "move", "move": a_legal_move(state), "id": "g1"})
        guest.expect("ack")
        state = dict(state, moves=state["moves"] + [guest.seen[-1]["move"]])
        host.send({"type": "move", "move": a_legal_move(state), "id": "same"})
        assert host.error()["code"] == "id_reused"
    assert len(stored(tmp_path / "games.sqlite3", created["game"])["moves"]) == 2


HOSTILE = [
    ("not json", "bad_json"),
    (b"\xff\xfe\x00", "bad_json"),
    ("[" * 2000 + "]" * 2000, "bad_json"),
    ('{"type": 5}', "bad_message"),
    ('{"type": "teleport"}', "unknown_type"),
    ('{"type": "move", "move": 5, "id": "x"}', "bad_message"),
    ('{"type": "move", "move": "a1-a1", "id": "x"}', "bad_message"),
    ('{"type": "move", "move": "c1-c9", "id": "x", "extra": 1}', "bad_message"),
    ('{"type": "move", "move": "c1-c9", "id": ""}', "bad_message"),
    ('{"type": "create", "deal": {"number": -1}, "first": "creator"}', "bad_message"),
    ('{"type": "hello", "version": 99}', "version"),
    ('{"type": "resume", "token": "not-a-seat-token-at-all"}', "bad_token"),
    ('{"type": "join", "code": "0000-0000"}', "not_found"),
    ('{"type": "watch", "code": "0000-0000"}', "not_found"),
    ('{"type": "takeback_answer", "accept": "yes"}', "bad_message"),
    ('{"type": "ping", "t": NaN}', "bad_json"),
]


def test_hostile_messages_get_an_error_and_change_nothing(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server:
        host, guest, created, _ = host_and_join(server.url)
        before = stored(server.database, created["game"])
        for frame, code in HOSTILE:
            host.send_text(frame)
            error = host.error()
            assert error["code"] == code, (frame[:40], error)
            assert isinstance(error["reason"], str) and "\n" not in error["reason"]
        # out of turn, an illegal pair, a spectator's move, a stranger's, a third player's
        guest.send({"type": "move", "move": "a9-f1", "id": "early"})
        assert guest.error()["code"] == "not_your_turn"
        host.send({"type": "move", "move": "a1-a2", "id": "blocked"})
        assert host.error()["code"] == "illegal_move"
        watcher = Client(server.url)
        watcher.send({"type": "watch", "code": created["watch"]})
        watcher.expect("state")
        for message in (
            {"type": "move", "move": "a9-f1", "id": "w"},
            {"type": "resign"},
            {"type": "takeback_request"},
            {"type": "rematch_offer"},
        ):
            watcher.send(message)
            assert watcher.error()["code"] == "not_a_player"
        stranger = Client(server.url)
        stranger.send({"type": "move", "move": "a9-f1", "id": "s"})
        assert stranger.error()["code"] == "no_game"
        late = Client(server.url)
        late.send({"type": "join", "code": created["invite"]})
        assert late.error()["code"] == "full"
        unhello = Client(server.url, hello=False)
        unhello.send({"type": "join", "code": created["invite"]})
        assert unhello.error()["code"] == "hello_first"
        assert stored(server.database, created["game"]) == before
        host.send({"type": "ping", "t": 7})
        assert host.expect("pong")["t"] == 7


def test_an_oversized_frame_closes_the_connection_and_the_server_goes_on(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server:
        client = Client(server.url)
        client.send_text(json.dumps({"type": "ping", "t": 1, "pad": "x" * 5000}))
        with pytest.raises(ConnectionClosed) as closed:
            client.read(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        other = Client(server.url)
        other.send({"type": "ping", "t": 2})
        assert other.expect("pong")["t"] == 2


def test_a_flood_is_rate_limited_then_cut_off(tmp_path: Path) -> None:
    limits = ServerLimits(rate=5, burst=10, flood_close=50)
    with ServerThread(tmp_path / "games.sqlite3", limits) as server:
        client = Client(server.url)
        for number in range(200):
            try:
                client.send({"type": "ping", "t": number})
            except ConnectionClosed:
                break
        codes = []
        with pytest.raises(ConnectionClosed):
            for _ in range(300):
                message = client.read(timeout=5)
                codes.append(message.get("code") or message["type"])
        assert codes.count("pong") <= 12 and "rate_limited" in codes
        assert client.socket.close_code == 1008
        other = Client(server.url)
        other.send({"type": "ping", "t": 1})
        assert other.expect("pong")


def test_games_per_connection_are_capped(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3", ServerLimits(games_per_connection=2)) as server:
        client = Client(server.url)
        for _ in range(2):
            client.send({"type": "create", "deal": {"random": True}, "first": "random"})
            client.expect("created")
        client.send({"type": "create", "deal": {"random": True}, "first": "random"})
        assert client.error()["code"] == "busy"


def test_a_restarted_server_goes_on_with_every_game(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with ServerThread(database) as server:
        host, guest, created, joined = host_and_join(server.url)
        state = host.seen[-1]
        move = a_legal_move(state)
        host.send({"type": "move", "move": move, "id": "m1"})
        host.expect("ack")
        port = server.port
    with ServerThread(database, port=port) as server:
        for token, seat in ((created["token"], 1), (joined["token"], 2)):
            client = Client(server.url)
            client.send({"type": "resume", "token": token})
            state = client.expect("state")
            assert state["you"] == seat and state["moves"] == [move] and state["to_move"] == 2
        client.send({"type": "move", "move": a_legal_move(state), "id": "g1"})
        assert client.expect("ack")["ply"] == 2


def test_a_seat_taken_without_a_name_is_named_once_and_keeps_it_after_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with ServerThread(database) as server:
        host = Client(server.url, "Ann")
        host.send({"type": "create", "deal": {"number": 5}, "first": "creator", "name": "Ann"})
        created = host.expect("created")
        guest = Client(server.url)  # a friend's link: the game first, the name later
        guest.send({"type": "join", "code": created["invite"]})
        guest.expect("joined")
        assert [p["name"] for p in guest.expect("state")["players"]] == ["Ann", ""]
        watcher = Client(server.url)
        watcher.send({"type": "watch", "code": created["watch"]})
        watcher.expect("state")
        guest.send({"type": "name", "name": "  Bob\u0007 "})
        for client in (host, watcher):  # after the states of the join and the watcher's coming
            names: list[list[str]] = []
            while ["Ann", "Bob"] not in names and len(names) < 4:
                names.append([p["name"] for p in client.expect("state")["players"]])
            assert names[-1] == ["Ann", "Bob"], names
        guest.send({"type": "name", "name": "Eve"})  # named once: the opponent never sees a second name
        refused = guest.error()
        assert (refused["code"], refused["params"]["why"]) == ("not_allowed", "named")
        host.send({"type": "name", "name": "Zed"})
        assert host.error()["code"] == "not_allowed"
        watcher.send({"type": "name", "name": "Eve"})
        assert watcher.error()["code"] == "not_a_player"
        guest.send({"type": "name", "name": " \u3164 "})
        assert guest.error()["code"] == "bad_message"
        port = server.port
    with ServerThread(database, port=port) as server:
        back = Client(server.url)
        back.send({"type": "resume", "token": created["token"]})
        assert [p["name"] for p in back.expect("state")["players"]] == ["Ann", "Bob"]


def test_presence_follows_the_connections(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server:
        host, guest, created, joined = host_and_join(server.url)
        guest.close()
        state = host.expect("state")
        assert [p["presence"] for p in state["players"]] == ["connected", "away"]
        back = Client(server.url)
        back.send({"type": "resume", "token": joined["token"]})
        back.expect("state")
        state = host.expect("state")
        assert [p["presence"] for p in state["players"]] == ["connected", "connected"]


def test_a_takeback_needs_the_opponents_yes(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server:
        host, guest, created, _ = host_and_join(server.url)
        move = a_legal_move(host.seen[-1])
        host.send({"type": "move", "move": move, "id": "m1"})
        host.expect("ack")
        guest.send({"type": "takeback_request"})
        assert guest.error()["code"] == "not_allowed"
        host.send({"type": "takeback_request"})
        assert guest.expect("state")["offers"]["takeback"] == 1
        guest.send({"type": "takeback_answer", "accept": False})
        after_no = guest.expect("state")
        assert after_no["moves"] == [move]
        host.send({"type": "takeback_request"})  # asked again after a no: refused
        assert host.error()["code"] == "not_allowed"
        reply = a_legal_move(after_no)
        guest.send({"type": "move", "move": reply, "id": "g1"})
        guest.expect("ack")
        second = a_legal_move({**after_no, "moves": [move, reply]})
        host.send({"type": "move", "move": second, "id": "m2"})
        host.expect("ack")
        host.send({"type": "takeback_request"})
        assert guest.expect("state")["offers"]["takeback"] == 1
        guest.send({"type": "takeback_answer", "accept": True})
        state = guest.expect("state")
        assert state["moves"] == [move, reply] and state["to_move"] == 1
        host.send({"type": "move", "move": second, "id": "m2"})  # the old id: acknowledged as taken back
        assert host.expect("ack")["taken_back"] is True
    assert stored(tmp_path / "games.sqlite3", created["game"])["moves"] == [move, reply]


def test_resign_then_a_rematch_with_sides_swapped(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server:
        host, guest, created, joined = host_and_join(server.url)
        guest.send({"type": "resign"})
        state = host.expect("state")
        assert state["status"] == "finished" and state["result"]["winner"] == 1
        assert state["result"]["reason"] == "resign"
        host.send({"type": "move", "move": a_legal_move(state), "id": "late"})
        assert host.error()["code"] == "game_over"
        host.send({"type": "rematch_offer"})
        guest.expect("state")
        guest.send({"type": "rematch_accept"})
        started = host.expect("rematch")
        assert started["you"] == 2 and started["game"] != created["game"]
        new_state = host.expect("state")
        assert new_state["game"] == started["game"] and new_state["status"] == "playing"
        assert new_state["to_move"] == 1 and new_state["you"] == 2
        back = Client(server.url)
        back.send({"type": "resume", "token": joined["token"]})
        assert back.expect("state")["game"] == started["game"]


def test_a_declined_rematch_reaches_the_offerer_and_survives_a_restart(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server:
        host, guest, created, _ = host_and_join(server.url)
        guest.send({"type": "resign"})
        host.expect("state")
        guest.expect("state")
        host.send({"type": "rematch_offer"})
        assert guest.expect("state")["offers"]["rematch"] == 1
        host.expect("state")
        host.send({"type": "rematch_decline"})
        assert host.error()["code"] == "no_offer"
        guest.send({"type": "rematch_decline"})
        assert host.expect("state")["offers"]["rematch"] is None
    with ServerThread(tmp_path / "games.sqlite3") as again:
        back = Client(again.url)
        back.send({"type": "watch", "code": created["watch"]})
        state = back.expect("state")
        assert state["status"] == "finished" and state["offers"]["rematch"] is None and state["rematch"] is None


def test_a_move_time_limit_is_decided_by_the_server(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3", ServerLimits(clock_tick=0.05)) as server:
        host, guest, created, _ = host_and_join(server.url, move_seconds=30, lose_on_time=True)
        assert host.seen[-1]["move_seconds"] == 30
        server.offset = 31.0
        state = guest.expect("state", timeout=5)
        assert state["status"] == "finished" and state["result"] == {"winner": 2, "reason": "time", "scores": [0, 0]}
        host.send({"type": "move", "move": a_legal_move(state), "id": "late"})
        assert host.error()["code"] == "game_over"


def test_without_lose_on_time_an_overdue_turn_is_only_reported(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3", ServerLimits(clock_tick=0.05)) as server:
        host, guest, created, _ = host_and_join(server.url, move_seconds=30)
        server.offset = 31.0
        state = guest.expect("state", timeout=5)
        assert state["status"] == "playing" and state["overdue"] is True
        host.send({"type": "move", "move": a_legal_move(state), "id": "m1"})
        assert host.expect("ack")["ply"] == 1
