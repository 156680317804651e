"""The client session over real sockets: it keeps the state, survives a server restart, resends
unacknowledged moves with their ids, and ends with a reason when retrying cannot help."""

from __future__ import annotations

import time
from pathlib import Path

from battle.online.client.seats import Seat, forget_seat, load_seats, remember_seat
from battle.online.client.session import OnlineSession, backoff_delays
from battle.online.protocol.messages import Create, NumberedDeal, PlayMove
from battle.online.protocol.writer import server_json
from battle.online.server.rooms.store import GameStore
from tests.online_server import Client, ServerThread, a_legal_move


def wait_for(condition, timeout: float = 10.0) -> None:  # noqa: ANN001 - a callable
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def create(url: str) -> OnlineSession:
    return OnlineSession(url, Create(NumberedDeal(9), "creator", name="Ann"), "Ann")


def test_backoff_doubles_to_half_a_minute_with_jitter() -> None:
    delays = backoff_delays()
    first = [next(delays) for _ in range(10)]
    assert 0.375 <= first[0] <= 0.5 and 0.75 <= first[1] <= 1.0
    assert all(22.5 <= delay <= 30.0 for delay in first[7:])


def test_a_session_hosts_and_follows_the_opponent(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server:
        session = create(server.url)
        try:
            wait_for(lambda: session.state is not None and session.seat is not None)
            seat = session.seat
            assert seat is not None and seat.seat == 1 and seat.token
            invite = session.state.invite
            guest = Client(server.url, "Bob")
            guest.send({"type": "join", "code": invite})
            guest.expect("joined")
            state = guest.expect("state")
            wait_for(lambda: session.state is not None and session.state.status == "playing")
            move = a_legal_move(state)
            session.play(move)
            wait_for(lambda: not session.pending and session.state is not None and session.state.ply == 1)
            assert guest.expect("moved")["move"] == move
            state["moves"].append(move)
            reply = a_legal_move(state)
            guest.send({"type": "move", "move": reply, "id": "b1"})
            wait_for(lambda: session.state is not None and session.state.moves == (move, reply))
            assert session.state.to_move == 1 and session.link.state == "connected"
        finally:
            session.close()


def test_a_move_sent_while_the_server_is_down_is_applied_once_after_it_returns(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with ServerThread(database) as server:
        port = server.port
        session = create(server.url)
        wait_for(lambda: session.state is not None)
        guest = Client(server.url, "Bob")
        guest.send({"type": "join", "code": session.state.invite})
        guest.expect("joined")
        wait_for(lambda: session.state is not None and session.state.status == "playing")
    try:
        wait_for(lambda: session.link.state == "retrying")
        move = a_legal_move(server_json(session.state))
        move_id = session.play(move)  # the server is down: kept, sent when it is back
        assert session.pending == [(move_id, move)]
        with ServerThread(database, port=port):
            wait_for(lambda: not session.pending, timeout=15)
            assert session.state.moves == (move,) and session.link.state == "connected"
            session.send(PlayMove(move, move_id))  # a stray resend changes nothing
            time.sleep(0.3)
    finally:
        session.close()
    with GameStore(database) as store:
        room = store.load_game(session.seat.game)
        assert room is not None and [r.move for r in room.live_receipts] == [move]


def test_a_wrong_token_ends_the_session_with_the_reason(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server:
        session = OnlineSession.resume(Seat(server.url, "nogame", "x" * 32, 1))
        try:
            wait_for(lambda: session.link.state == "closed")
            assert "token" in session.link.detail
        finally:
            session.close()


def test_an_unreachable_server_is_retried_not_fatal() -> None:
    session = create("ws://127.0.0.1:9")
    try:
        wait_for(lambda: session.link.state == "retrying")
        assert "cannot reach" in session.link.detail
    finally:
        session.close()
    assert session.link.state == "closed"


def test_kept_seats_are_private_and_survive_a_corrupt_file(tmp_path: Path) -> None:
    path = tmp_path / "online" / "seats.json"
    remember_seat(Seat("ws://a", "g1", "secret", 1, updated=1.0), path)
    remember_seat(Seat("ws://a", "g2", "secret2", 2, updated=2.0), path)
    seats, problem = load_seats(path)
    assert problem is None and [s.game for s in seats] == ["g2", "g1"]
    assert path.stat().st_mode & 0o077 == 0
    forget_seat("ws://a", "g2", path)
    assert [s.game for s in load_seats(path)[0]] == ["g1"]
    path.write_text('{"not": "a list"}')
    seats, problem = load_seats(path)
    assert seats == [] and problem is not None and "set aside" in problem
