"""A stranger on the internet against a real server: ``mahjong-battle serve`` as a process on
127.0.0.1, attacked through real sockets by a client written from ``docs/protocol.md``.

Each attack is one a public server meets: filling it with games nobody joins, guessing invite
codes across many connections, holding connections open without a word, pushing the same
question at a player over and over, a creator taking its own second seat. Every loop is
bounded in count and in time, every wait is for an event (a message, a closed socket), and
only loopback addresses are contacted.
"""

from __future__ import annotations

import asyncio
import json
import resource
import socket
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect as connect_async
from websockets.exceptions import ConnectionClosed

from tests.online_server import Client, ServerProcess, a_legal_move, create, nothing_but_pong, started

WAIT = 30.0
"""The longest any one event is waited for; a loaded machine gets there in a fraction of it."""


@contextmanager
def serve(tmp_path: Path, *flags: str, open_files: int | None = None) -> Iterator[ServerProcess]:
    """``mahjong-battle serve`` with ``flags``, stopped at the end (``open_files``: its open-files limit)."""
    with ServerProcess(tmp_path, *flags, open_files=open_files) as server:
        yield server


def refusal(client: Client, message: dict[str, Any]) -> dict[str, Any]:
    client.send(message)
    return client.error(WAIT)


# -- filling the server with games nobody joins -----------------------------------------------


def test_waiting_games_are_capped_per_address_across_connections_and_abort_frees_one(tmp_path: Path) -> None:
    with serve(tmp_path, "--max-games-per-address", "10") as server:  # the cap on games held is another test's
        hosts = [Client(server.url) for _ in range(15)]
        made = [create(host) for host in hosts[:5]]
        for host in hosts[5:]:  # ten more connections from the same address: no sixth waiting game
            error = refusal(host, {"type": "create", "deal": {"number": 5}, "first": "creator"})
            assert error["code"] == "busy" and "wait for a second player" in error["reason"]
        hosts[0].send({"type": "abort"})
        assert hosts[0].expect("state")["result"]["reason"] == "aborted"
        create(hosts[5])  # the aborted game no longer counts
        assert refusal(Client(server.url), {"type": "join", "code": made[0]["invite"]})["code"] == "expired"
        joined_one = Client(server.url)
        joined_one.send({"type": "join", "code": made[1]["invite"]})
        joined_one.expect("joined")
        create(hosts[6])  # a game that began no longer waits: another may
        for client in hosts:
            client.close()


def test_a_game_nobody_joins_expires_and_its_invite_and_token_then_say_so(tmp_path: Path) -> None:
    with serve(tmp_path, "--wait-hours", "0.0005") as server:  # 1.8 s
        host = Client(server.url)
        created = create(host)
        ended = host.expect("state", WAIT)  # the server's clock ends it; the creator is told
        assert ended["status"] == "finished" and ended["result"]["reason"] == "expired"
        assert ended["result"]["winner"] is None and ended["invite"] is None
        error = refusal(Client(server.url), {"type": "join", "code": created["invite"]})
        assert error["code"] == "expired" and "nobody joined" in error["reason"]
        assert refusal(Client(server.url), {"type": "resume", "token": created["token"]})["code"] == "expired"


def test_either_player_aborts_before_the_second_move_and_neither_after(tmp_path: Path) -> None:
    with serve(tmp_path) as server:
        host, guest, created, state = started(server.url)
        host.send({"type": "move", "move": a_legal_move(state), "id": "m1"})
        host.expect("ack")
        guest.send({"type": "abort"})  # one move played: still abortable
        ended = host.expect("state")
        assert ended["status"] == "finished" and ended["result"] == {
            "winner": None,
            "reason": "aborted",
            "scores": ended["result"]["scores"],
        }
        assert refusal(host, {"type": "rematch_offer"})["code"] == "not_allowed"

        other, rival, created, state = started(server.url, 6)
        first = a_legal_move(state)
        other.send({"type": "move", "move": first, "id": "m1"})
        other.expect("ack")
        rival.send({"type": "move", "move": a_legal_move({**state, "moves": [first]}), "id": "r1"})
        rival.expect("ack")
        error = refusal(other, {"type": "abort"})
        assert error["code"] == "not_allowed" and "resign" in error["reason"]


# -- guessing codes -------------------------------------------------------------------------


def test_guessing_invite_codes_across_50_connections_is_stopped_per_address(tmp_path: Path) -> None:
    with serve(tmp_path, "--max-connections-per-address", "100") as server:
        host = Client(server.url)
        real = create(host)["invite"]
        guessers = [Client(server.url) for _ in range(50)]
        codes = []
        for number, guesser in enumerate(guessers):
            guess = f"{number:08d}".replace("1", "2")
            guesser.send({"type": "join", "code": guess})
            codes.append(guesser.error(WAIT)["code"])
        assert codes[:5] == ["not_found"] * 5  # a few typing mistakes are free
        assert codes.count("not_found") <= 7 and codes.count("rate_limited") >= 43
        # while the address waits, even the right code is not looked up: guessing gains nothing
        late = Client(server.url)
        error = refusal(late, {"type": "join", "code": real})
        assert error["code"] == "rate_limited" and "try again in" in error["reason"]
        for client in (host, late, *guessers):
            client.close()


def test_the_whole_server_takes_a_bounded_number_of_wrong_codes_from_many_addresses(tmp_path: Path) -> None:
    """Behind a proxy (``--trust-proxy``) each connection names its own address, and each address
    guesses once (a miss that costs it nothing); together they run into the server-wide budget:
    100 wrong codes at once, then 5 a second, however slowly a loaded machine sends them."""
    with serve(tmp_path, "--trust-proxy", "--max-connections-per-address", "200") as server:
        found = 0
        refusal = None
        started = time.monotonic()
        for number in range(600):  # bounded: the budget runs out long before, at any speed over 5 a second
            documentation_net = ("192.0.2", "198.51.100", "203.0.113")[number // 250]  # a header, never dialled
            client = Client(server.url, forwarded_for=f"{documentation_net}.{number % 250}")
            client.send({"type": "watch", "code": f"{number:08d}".replace("1", "2")})
            answer = client.error(WAIT)
            client.close()
            if answer["code"] == "rate_limited":
                refusal = answer
                break
            assert answer["code"] == "not_found"
            found += 1
        elapsed = time.monotonic() - started
        assert refusal is not None, f"{found} wrong codes in {elapsed:.1f} s and none refused"
        assert "the server takes no codes for a moment" in refusal["reason"]
        assert 100 <= found <= 100 + 5 * elapsed + 1  # the budget refills with time, never faster


# -- holding connections ------------------------------------------------------------------------


async def _hold_idle(url: str, port: int, count: int) -> int:
    """Open ``count`` connections that say nothing: half finish the WebSocket handshake and stay
    silent, half are bare TCP; returns how many of the silent WebSockets the server closed."""
    sockets: list[socket.socket] = []
    silent = []
    closed = 0
    try:
        for number in range(count):
            if number % 2:
                bare = socket.socket()
                bare.setblocking(False)
                with suppress(BlockingIOError, OSError):
                    bare.connect(("127.0.0.1", port))
                sockets.append(bare)
                continue
            with suppress(OSError, ConnectionClosed, asyncio.TimeoutError, Exception):
                silent.append(await connect_async(url, open_timeout=WAIT))

        async def closed_by_server(connection: Any) -> bool:
            with suppress(ConnectionClosed):
                await connection.recv()
            return connection.close_code is not None

        waits = [asyncio.ensure_future(closed_by_server(connection)) for connection in silent]
        done, _ = await asyncio.wait(waits, timeout=WAIT)
        closed = sum(1 for task in done if not task.cancelled() and task.exception() is None and task.result())
        for task in waits:
            task.cancel()
    finally:
        for connection in silent:
            with suppress(Exception):
                await connection.close()
        for bare in sockets:
            bare.close()
    return closed


def _in_a_thread_of_its_own(run: Callable[[], int]) -> int:
    """``run``'s answer, computed on a new thread: its event loop never meets one a test library
    (Playwright's) may leave running on this one."""
    answers: list[int] = []
    thread = threading.Thread(target=lambda: answers.append(run()), name="idle-connections")
    thread.start()
    thread.join(10 * WAIT)
    assert answers, "the idle connections did not finish"
    return answers[0]


def test_a_thousand_silent_connections_do_not_stop_a_game_nor_fill_the_log(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    try:
        with serve(tmp_path, open_files=256) as server:
            host, guest, created, state = started(server.url)
            closed = _in_a_thread_of_its_own(lambda: asyncio.run(_hold_idle(server.url, server.port, 1000)))
            assert closed > 0  # the silent ones were closed by the server, not only by this test
            host.send({"type": "move", "move": a_legal_move(state), "id": "m1"})  # the game goes on
            assert host.expect("ack", WAIT)["ply"] == 1
            assert guest.expect("moved", WAIT)["ply"] == 1
            newcomer = Client(server.url)  # and a new player gets in once the flood is gone
            create(newcomer, deal=8)
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/healthz", timeout=WAIT) as answer:
                assert answer.read() == b"ok\n"
            assert server.process is not None and server.process.poll() is None
        lines = server.log_lines()
        assert len(lines) < 40, "\n".join(lines[:40])
        assert not any("Traceback" in line for line in lines), "\n".join(lines[:40])
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_connection_that_says_no_hello_is_closed(tmp_path: Path) -> None:
    with serve(tmp_path) as server:
        quiet = Client(server.url, hello=False)
        try:
            quiet.read(WAIT)
            raise AssertionError("the server sent something to a connection that said nothing")
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 1008 and "hello" in closed.rcvd.reason


# -- pushing questions at a player ------------------------------------------------------------


def test_a_declined_takeback_or_rematch_is_not_pushed_at_the_opponent_again(tmp_path: Path) -> None:
    with serve(tmp_path) as server:
        host, guest, created, state = started(server.url)
        host.send({"type": "move", "move": a_legal_move(state), "id": "m1"})
        host.expect("ack")
        guest.expect("moved")
        host.send({"type": "takeback_request"})
        assert guest.expect("state")["offers"]["takeback"] == 1
        guest.send({"type": "takeback_answer", "accept": False})
        guest.expect("state")
        for _ in range(25):  # within the message rate: each is read, and refused
            host.send({"type": "takeback_request"})
        assert [host.error(WAIT)["code"] for _ in range(25)] == ["not_allowed"] * 25
        nothing_but_pong(guest)
        time.sleep(1.5)  # the host's message budget refills (20 a second): its resign must not be rate limited

        host.send({"type": "resign"})
        guest.expect("state")
        host.send({"type": "rematch_offer"})
        assert guest.expect("state")["offers"]["rematch"] == 1
        guest.send({"type": "rematch_decline"})
        guest.expect("state")
        for _ in range(20):
            host.send({"type": "rematch_offer"})
        assert {host.error(WAIT)["code"] for _ in range(20)} == {"not_allowed"}
        nothing_but_pong(guest)


def test_watching_again_and_again_reaches_no_player(tmp_path: Path) -> None:
    with serve(tmp_path) as server:
        host, guest, created, _ = started(server.url)
        spectator = Client(server.url)
        for _ in range(20):
            spectator.send({"type": "watch", "code": created["watch"]})
        for _ in range(20):
            assert spectator.expect("state", WAIT)["you"] == "spectator"
        nothing_but_pong(host)
        nothing_but_pong(guest)


def test_the_creator_cannot_take_the_second_seat_of_its_own_game(tmp_path: Path) -> None:
    with serve(tmp_path) as server:
        host = Client(server.url)
        created = create(host)
        error = refusal(host, {"type": "join", "code": created["invite"]})
        assert error["code"] == "not_allowed" and "other seat" in error["reason"]
        friend = Client(server.url)
        friend.send({"type": "join", "code": created["invite"]})
        assert friend.expect("joined")["seat"] == 2


# -- what a service manager asks -----------------------------------------------------------------


def test_healthz_and_stats_answer_plain_http_on_the_game_port(tmp_path: Path) -> None:
    with serve(tmp_path) as server:
        host = Client(server.url)
        create(host)
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/healthz", timeout=WAIT) as answer:
            assert answer.status == 200 and answer.read() == b"ok\n"
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/stats", timeout=WAIT) as answer:
            counts = dict(line.split(" ", 1) for line in answer.read().decode().splitlines())
        assert counts["games_waiting"] == "1" and counts["games_playing"] == "0"
        assert int(counts["connections"]) >= 1
        assert set(counts) >= {"moves_per_second", "commit_ms_p50", "commit_ms_p99"}
        json.dumps(counts)
