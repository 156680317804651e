"""A stranger inside every documented limit against a real server: ``mahjong-battle serve`` as a
process on 127.0.0.1, driven by websockets' own client (``tests.online_server.Client``) and by
raw sockets (``tests.online.strangers``), never by the project's client.

What is tried: making the server hold memory for connections that do not read, crowding a game
with spectators, resuming in a loop, spending the server's budget of wrong codes so that a real
link is refused, one IPv6 network posing as many clients, connections that say ``hello`` and
nothing more or ask for what leads nowhere (a made-up review, a position that is over), a full
server, creating in parallel, invisible names; and a game whose stored record does not rebuild.
Loops are bounded in count and time; waits are for events.
"""

from __future__ import annotations

import socket
import sqlite3
import time
from contextlib import ExitStack, suppress
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from battle.online.server.limits.server import ServerLimits
from battle.rules.deal import deal
from battle.rules.notation import format_position
from tests.online.strangers import (
    WAIT,
    head_and_body,
    http,
    raw_websocket,
    request,
    resident_mib,
    send,
)
from tests.online_server import (
    Client,
    ServerProcess,
    ServerThread,
    a_legal_move,
    create,
    following,
    nothing_but_pong,
    started,
)


def wrong_code(number: int) -> str:
    return f"{number:08d}".replace("1", "2")


# -- 1. memory: what the server holds for connections that do not read ---------------------------


def test_a_seat_resumed_again_and_again_costs_the_game_nothing(tmp_path: Path) -> None:
    with ServerProcess(tmp_path) as server:
        host, guest, created, _ = started(server.url)
        watcher = Client(server.url)
        watcher.send({"type": "watch", "code": created["watch"]})
        watcher.expect("state", WAIT)
        again = Client(server.url)
        for _ in range(30):  # within the message rate
            again.send({"type": "resume", "token": created["token"]})
        for _ in range(30):
            assert again.expect("state", WAIT)["you"] == created["seat"]  # each resume has its answer
        nothing_but_pong(guest)  # and the seat was connected all along: nobody else heard a word
        nothing_but_pong(watcher)
        again.close()  # the seat stays connected through the host: still nothing to tell
        nothing_but_pong(guest)
        host.close()  # now the seat is away: that is told
        assert [player["presence"] for player in guest.expect("state", WAIT)["players"]].count("away") == 1


def test_a_game_takes_fifty_spectators_and_refuses_the_next_until_one_leaves(tmp_path: Path) -> None:
    with ServerProcess(tmp_path) as server:
        host, guest, created, _ = started(server.url)
        watchers = []
        for _ in range(50):
            watcher = Client(server.url)
            watcher.send({"type": "watch", "code": created["watch"]})
            assert watcher.expect("state", WAIT)["you"] == "spectator"
            watchers.append(watcher)
        late = Client(server.url)
        late.send({"type": "watch", "code": created["watch"]})
        refused = late.error(WAIT)
        assert refused["code"] == "full" and "50 connections watch this game" in refused["reason"]
        watchers.pop().close()
        for _ in range(50):  # the server sees the close soon; bounded tries
            late.send({"type": "watch", "code": created["watch"]})
            answer = late.read(WAIT)
            if answer["type"] == "state":
                break
            time.sleep(0.1)
        assert answer["type"] == "state" and answer["you"] == "spectator"
        for client in (host, guest, late, *watchers):
            client.close()


def test_watchers_that_never_read_and_resumes_in_a_loop_leave_the_memory_as_it_was(tmp_path: Path) -> None:
    """The memory attack of ``benchmarks/online_attack.py``, scaled to a test: 20 watchers with a 4 KiB
    receive buffer that never read, and 40 connections sending ``resume`` with the game's token 20
    times a second each, 4,000 in all; another game's move goes through meanwhile, and the server's
    memory stays where it was (3dde8aa's grew by 206 MiB)."""
    with ServerProcess(tmp_path, "--max-connections-per-address", "200") as server, ExitStack() as stack:
        host, guest, created, _ = started(server.url)
        other, rival, _, other_state = started(server.url, deal=6)
        watchers = [
            stack.enter_context(
                raw_websocket(
                    server.port,
                    {"type": "hello", "version": 1},
                    {"type": "watch", "code": created["watch"]},
                    receive_buffer=4096,
                )
            )
            for _ in range(20)
        ]
        resumers = [
            stack.enter_context(raw_websocket(server.port, {"type": "hello", "version": 1}, receive_buffer=4096))
            for _ in range(40)
        ]
        nothing_but_pong(guest)  # every connection is in; its memory now is the idle figure
        idle = resident_mib(server.pid)
        for _ in range(5):  # 20 resumes a second per connection: the message rate, never over it
            began = time.monotonic()
            for resumer in resumers:
                send(resumer, *[{"type": "resume", "token": created["token"]}] * 20)
            time.sleep(max(0.0, 1.05 - (time.monotonic() - began)))
        other.send({"type": "move", "move": a_legal_move(other_state), "id": "m1"})
        assert other.expect("ack", WAIT)["ply"] == 1  # another game goes on
        assert rival.expect("moved", WAIT)["ply"] == 1
        grown = resident_mib(server.pid) - idle
        assert grown < 16, f"the server's memory grew by {grown:.1f} MiB under the attack"
        nothing_but_pong(guest)  # the resumes held a seat that was connected already: nothing to tell
        assert len(watchers) == 20 and server.process is not None and server.process.poll() is None
        for client in (host, guest, other, rival):
            client.close()


def test_a_connection_whose_buffer_stays_full_is_dropped_with_no_ping_due(tmp_path: Path) -> None:
    """A watcher that asks for its state 20 times a second and reads none of it: once what waits for
    it passes the per-connection bound it is dropped ``ping_timeout`` later, though no keepalive ping
    is due for an hour (a ping could not even be sent past that buffer). In-process, the one way
    to shrink the server's socket buffer (to 4 KiB, from some 3 MB a loopback socket grows to),
    so the bound is reached in seconds."""
    limits = ServerLimits(ping_interval=3600.0, ping_timeout=2.0)
    with ServerThread(tmp_path / "games.sqlite3", limits) as server:
        host, guest, created, _ = started(server.url)
        hoarder = raw_websocket(
            server.port,
            {"type": "hello", "version": 1},
            {"type": "watch", "code": created["watch"]},
            receive_buffer=4096,
        )
        assert server.listening is not None
        port = hoarder.getsockname()[1]
        for _ in range(300):  # the server lists a connection once its handler runs: soon after the 101
            found = [one for one in server.listening.connections if one.remote_address[1] == port]
            if found:
                break
            time.sleep(0.01)
        [seen] = found
        seen.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        hoarder.settimeout(WAIT)
        for _ in range(60):  # 20 a second, its own states: 64 KiB in some 2 s; bounded at 60 s
            if seen.state is State.CLOSED:
                break
            began = time.monotonic()
            with suppress(OSError):
                send(hoarder, *[{"type": "watch", "code": created["watch"]}] * 20)
            time.sleep(max(0.0, 1.0 - (time.monotonic() - began)))
        assert seen.state is State.CLOSED, "a connection that reads nothing is kept with its buffer full"
        nothing_but_pong(guest)
        nothing_but_pong(host)
        hoarder.close()


# -- 2. codes: a real link is never locked out by strangers' guesses -------------------------------


def test_a_link_finds_its_game_while_strangers_have_spent_the_servers_budget_of_wrong_codes(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--trust-proxy") as server:
        host = Client(server.url)
        created = create(host)
        assert len(created["invite_secret"]) == len(created["watch_secret"]) == 32
        # every connection is open before the first guess: the budget (100 at once, then 5 a second)
        # refills while a loaded machine opens one, so guesses sent one connection at a time may never spend it
        guessers = [Client(server.url, forwarded_for=f"198.51.100.{number}") for number in range(120)]
        after = [Client(server.url, forwarded_for=f"203.0.113.{number}") for number in range(30)]
        typed = Client(server.url, forwarded_for="192.0.2.10")
        for number, guesser in enumerate(guessers):
            guesser.send({"type": "watch", "code": wrong_code(number)})
        assert "rate_limited" in [guesser.error(WAIT)["code"] for guesser in guessers]
        for number, guesser in enumerate(after, start=len(guessers)):  # what refilled meanwhile, spent again
            guesser.send({"type": "watch", "code": wrong_code(number)})
        typed.send({"type": "watch", "code": created["watch"]})  # the code read aloud waits like any other
        assert typed.error(WAIT)["code"] == "rate_limited"
        for guesser in guessers + after:
            guesser.close()
        watch = {"type": "watch", "code": created["watch_secret"]}  # the watch link's secret does not wait
        spectator = following(server.url, watch, forwarded_for="192.0.2.11", timeout=WAIT)
        assert spectator.expect("state", WAIT)["you"] == "spectator"
        join = {"type": "join", "code": created["invite_secret"].lower()}  # read as the code is: any case
        friend = following(server.url, join, forwarded_for="192.0.2.12", timeout=WAIT)
        assert friend.expect("joined", WAIT)["seat"] == 2


def test_refused_look_ups_and_forged_links_count_against_the_network_that_sent_them(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--trust-proxy") as server:
        host = Client(server.url)
        created = create(host)
        guesser = Client(server.url, forwarded_for="192.0.2.1")
        for number in range(6):  # 5 free misses; the 6th makes the address wait 1 s
            guesser.send({"type": "join", "code": wrong_code(number)})
            assert guesser.error(WAIT)["code"] == "not_found"
        for number in range(10):  # trying on while told to wait ...
            guesser.send({"type": "join", "code": wrong_code(number)})
            assert guesser.error(WAIT)["code"] == "rate_limited"
        time.sleep(1.5)  # ... is not forgiven when the first wait is over
        guesser.send({"type": "join", "code": created["invite"]})
        refused = guesser.error(WAIT)
        assert refused["code"] == "rate_limited" and "from your network" in refused["reason"]

        forger = Client(server.url, forwarded_for="192.0.2.2")
        forged = created["watch"] + created["invite_secret"][8:]  # a real code under another code's MAC
        for _ in range(6):
            forger.send({"type": "watch", "code": forged})
            answer = forger.error(WAIT)
            assert answer["code"] == "not_found" and "link" in answer["reason"]
        forger.send({"type": "watch", "code": created["watch"]})  # the forged links were its misses
        assert forger.error(WAIT)["code"] == "rate_limited"


# -- 3. networks, not addresses ----------------------------------------------------------------------


def test_one_ipv6_64_counts_as_one_client_for_waiting_games_codes_and_connections(tmp_path: Path) -> None:
    """Behind a proxy (``--trust-proxy``) each connection names its address; the documentation
    prefix 2001:db8::/32 is written in a header and never dialled."""
    with ServerProcess(tmp_path, "--trust-proxy", "--max-connections-per-address", "8") as server:
        hosts = [Client(server.url, forwarded_for=f"2001:db8:1:2::{number + 1:x}") for number in range(6)]
        for host in hosts[:5]:
            create(host)
        hosts[5].send({"type": "create", "deal": {"number": 5}, "first": "creator"})
        refused = hosts[5].error(WAIT)  # a sixth address of the same /64: its sixth waiting game
        assert refused["code"] == "busy" and "wait for a second player" in refused["reason"]
        create(Client(server.url, forwarded_for="2001:db8:1:3::1"))  # the next /64 is another client
        for client in hosts:
            client.close()

        guessers = [Client(server.url, forwarded_for=f"2001:db8:5:6:{number + 1:x}::9") for number in range(7)]
        answers = []
        for number, guesser in enumerate(guessers):
            guesser.send({"type": "watch", "code": wrong_code(number)})
            answers.append(guesser.error(WAIT)["code"])
            guesser.close()
        assert answers == ["not_found"] * 6 + ["rate_limited"]  # seven addresses, one budget

        crowd = [Client(server.url, forwarded_for=f"2001:db8:7:8::{number + 1:x}") for number in range(8)]
        with pytest.raises(Exception, match="429"):  # the ninth connection of the network
            Client(server.url, forwarded_for="2001:db8:7:8::ffff")
        Client(server.url, forwarded_for="2001:db8:7:9::1").close()  # another network gets in
        for client in crowd:
            client.close()


def test_the_ipv6_prefix_is_a_flag_and_128_counts_each_address(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--trust-proxy", "--ipv6-prefix", "128") as server:
        for number in range(6):
            create(Client(server.url, forwarded_for=f"2001:db8:1:2::{number + 1:x}"))


# -- 4. idle connections and a full server ------------------------------------------------------------


def test_a_connection_that_picks_no_game_after_hello_is_closed(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--idle-seconds", "2") as server:
        player = Client(server.url)
        create(player)
        idle = Client(server.url)
        began = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(100):
                idle.send({"type": "hello", "version": 1})  # saying hello again, or anything else,
                idle.send({"type": "ping", "t": 1})  # is not picking a game
                idle.expect("pong", WAIT)
                time.sleep(0.2)  # 10 messages a second: within the rate
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1000
        assert closed.value.rcvd.reason == "idle: in no game and no solver work for 2 s"
        assert time.monotonic() - began >= 1.5
        nothing_but_pong(player)  # the one in a game stays


def closed_as_idle(client: Client, began: float, idle: float) -> None:
    """``client`` is closed as idle (1000), ``idle`` s or more after ``began``, within ``WAIT``; what
    it still gets before that is read and dropped."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(1000):
            client.read(WAIT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1000, closed.value
    assert time.monotonic() - began >= idle - 0.1


def test_a_review_asked_of_a_made_up_id_does_not_keep_a_connection(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--idle-seconds", "1.5") as server:
        player = Client(server.url)
        create(player)
        reader = Client(server.url)
        began = time.monotonic()
        reader.send({"type": "review_get", "review": "0123456789abcdef"})
        assert reader.expect("solver_refused", WAIT)["code"] == "not_found"
        closed_as_idle(reader, began, 1.5)  # from its hello: the answer moved no clock
        nothing_but_pong(player)


def played_out(number: int, pairs_left: int) -> str:
    """Deal ``number`` played by its first legal move until ``pairs_left`` pairs or fewer remain (or none can go)."""
    position = deal(number)
    while position.legal_moves() and sum(kind >= 0 for kind in position.cells) > 2 * pairs_left:
        position.push(position.legal_moves()[0])
    return format_position(position)


LONG_STEPS = (
    "import battle.online.server.solving.analysis_boards as boards\n"
    "boards.ANALYSIS_STEP_NODES = 100_000_000; boards.ANALYSIS_MOST_NODES = 10**10"
)
"""Each depth of an analysis searches up to 100 M nodes (a minute or more): one of a whole deal runs
until it is stopped."""


def test_a_connection_serves_while_its_analysis_runs_and_not_after_nor_for_a_position_over(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--solver-workers", "1", "--idle-seconds", "1", prelude=LONG_STEPS) as server:
        over = Client(server.url)
        began_over = time.monotonic()
        over.send({"type": "analyse", "id": "over", "position": played_out(3, pairs_left=0)})
        assert over.expect("analysis_result", WAIT)["final"]  # answered at once, without the pool
        small = Client(server.url)
        small.send({"type": "analyse", "id": "small", "position": played_out(21, pairs_left=3)})
        while not small.expect("analysis_result", WAIT)["final"]:
            pass
        exact = time.monotonic()
        analyst = Client(server.url)
        began = time.monotonic()
        analyst.send({"type": "analyse", "id": "big", "position": format_position(deal(4))})
        closed_as_idle(over, began_over, 1.0)
        closed_as_idle(small, exact, 1.0)  # its work ended: the clock runs again from there
        while (left := began + 2.5 - time.monotonic()) > 0:  # two idle spans and more while it deepens
            with suppress(TimeoutError):
                assert not analyst.read(left).get("final"), "the whole deal's analysis ended by itself"
        analyst.send({"type": "analyse_stop"})
        stopped = time.monotonic()
        closed_as_idle(analyst, stopped, 1.0)


def test_a_full_server_answers_503_and_a_full_network_429_with_a_line_of_text(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--max-connections", "3", "--max-connections-per-address", "2") as server:
        first, second = Client(server.url), Client(server.url)
        status, headers, body = head_and_body(http(server.port, request("GET", "/")))
        assert status.startswith("HTTP/1.1 429") and b"2 connections from your network are open already" in body
        assert ("content-type", "text/plain; charset=utf-8") in headers
        first.close()
        second.close()
    with ServerProcess(tmp_path / "full", "--max-connections", "2") as server:
        clients = [Client(server.url) for _ in range(2)]
        status, headers, body = head_and_body(http(server.port, request("GET", "/")))
        assert status.startswith("HTTP/1.1 503")
        assert body == b"the server has as many connections as it can hold; try again later\n"
        for client in clients:
            client.close()


# -- 5. a race, and names ------------------------------------------------------------------------------


def test_fifteen_creates_at_once_from_one_address_make_five_waiting_games(tmp_path: Path) -> None:
    """Each write takes 100 ms more (``--slow-sync-ms``): the creates all arrive while the first is stored."""
    with ServerProcess(tmp_path, "--slow-sync-ms", "100") as server:
        hosts = [Client(server.url) for _ in range(15)]
        for host in hosts:
            host.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
        answers = []
        for host in hosts:
            answer = host.read(WAIT)
            answers.append(answer["code"] if answer["type"] == "error" else answer["type"])
        assert sorted(answers) == ["busy"] * 10 + ["created"] * 5
        assert server.stats()["games_waiting"] == "5"
        for host in hosts:
            host.close()


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("\u3164", ""),  # the Hangul filler: a letter that draws nothing
        ("\u2800\u2800", ""),  # the blank Braille pattern
        ("\u200d\u200c \u0301", ""),  # joiners and a mark on nothing
        ("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"),
        ("\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f468\u200d\U0001f469\u200d\U0001f467"),
    ],
)
def test_a_name_needs_a_visible_character_and_keeps_its_joiners(tmp_path: Path, typed: str, shown: str) -> None:
    with ServerProcess(tmp_path) as server:
        host = Client(server.url)
        created = create(host)
        guest = Client(server.url)
        guest.send({"type": "join", "code": created["invite"], "name": typed})
        state = guest.expect("state", WAIT)
        assert state["players"][1]["name"] == shown  # "": the reader's client says "Player 2"
        guest.send({"type": "record"})
        assert f"player2: {shown or 'Player 2'}\n" in guest.expect("record", WAIT)["mbg"]


# -- a game the server cannot rebuild ------------------------------------------------------------------


def damage(database: Path, game: str) -> None:
    """Make ``game``'s stored options unreadable, as a damaged row would be."""
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE games SET options = '{\"bad\": 1}' WHERE id = ?", (game,))


def test_a_game_whose_record_does_not_rebuild_is_refused_damaged_not_internal(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path)
    with server:
        host, guest, created, state = started(server.url)
        host.send({"type": "move", "move": a_legal_move(state), "id": "m1"})
        host.expect("ack", WAIT)
        host.close()
        guest.close()
    damage(tmp_path / "games.sqlite3", created["game"])
    with server:
        back = Client(server.url)
        back.send({"type": "resume", "token": created["token"]})
        refused = back.error(WAIT)
        assert refused["code"] == "damaged" and "could not load this game" in refused["reason"]
        back.send({"type": "ping", "t": 2})  # and the connection, and the server, go on
        assert back.expect("pong", WAIT)["t"] == 2
    assert any("does not rebuild" in line for line in server.log_lines())
