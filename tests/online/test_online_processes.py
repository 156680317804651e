"""``serve --processes 2`` through real processes: the supervisor, two game processes, one database.

Every connection here comes from an address of 127.0.0.0/8 chosen for the process that is its
network's home (``shards.home_of``: 127.0.0.1 is process 0's, 127.0.0.3 process 1's), so each
test knows which process a connection reaches first, and which one holds a game (``shard_of``).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from battle.online.client.wording import refusal_text
from battle.online.protocol.codes import new_watch_code
from battle.online.protocol.messages import ErrorCode
from battle.online.protocol.server_messages import Error
from battle.online.server.rooms.shards import home_of, shard_of
from tests.online_server import Client, ServerProcess, a_legal_move, following, midday_offset, process_that_makes

HOME_0 = "127.0.0.1"
HOME_1 = "127.0.0.3"
HOMES = {0: HOME_0, 1: HOME_1}
SECONDS = 30.0
"""The most any wait here takes on a busy machine (a game process started again: about 2 s quiet)."""
RECONNECTS = 3
"""Connections a player opens to resume after a kill: one may be lost with the killed process."""


def test_the_addresses_are_the_homes_the_tests_assume() -> None:
    assert home_of(HOME_0, 2) == 0
    assert home_of(HOME_1, 2) == 1


def game_processes(server: ServerProcess) -> dict[int, int]:
    """The running game processes' ids by their index."""
    found = {index: server.game_process(index) for index in range(2)}
    return {index: process.pid for index, process in found.items() if process is not None}


class Game:
    """One game's two players, each on a connection from its own address, and its acknowledged moves."""

    def __init__(self, url: str, creator_from: str, joiner_from: str) -> None:
        self.url = url
        self.addresses = {1: creator_from, 2: joiner_from}
        host = Client(url, "Ann", source=creator_from)
        host.send({"type": "create", "deal": {"number": 5}, "first": "creator", "name": "Ann"})
        self.created = host.expect("created", SECONDS)
        state = host.expect("state", SECONDS)
        guest = following(url, {"type": "join", "code": self.created["invite"], "name": "Bob"}, "Bob", joiner_from)
        joined = guest.expect("joined", SECONDS)
        guest.expect("state", SECONDS)
        host.expect("state", SECONDS)
        self.players = {1: host, 2: guest}
        self.tokens = {1: self.created["token"], 2: joined["token"]}
        self.position: dict[str, Any] = {"start": state["start"], "moves": list(state["moves"])}
        self.acked: list[tuple[int, str, str]] = []
        """(seat, move id, move) of every ``ack``, in order."""

    @property
    def game_id(self) -> str:
        return str(self.created["game"])

    def seat_to_move(self) -> int:
        return 1 + len(self.position["moves"]) % 2  # the creator moves first; no pass in these few moves

    def send_move(self) -> tuple[int, str, str]:
        seat = self.seat_to_move()
        move, move_id = a_legal_move(self.position), f"m{len(self.position['moves'])}"
        self.players[seat].send({"type": "move", "move": move, "id": move_id})
        return seat, move_id, move

    def acknowledged(self, seat: int, move_id: str) -> None:
        ack = self.players[seat].expect("ack", SECONDS)
        assert ack["id"] == move_id
        if move_id not in {acked_id for _seat, acked_id, _move in self.acked}:
            self.acked.append((seat, move_id, ack["move"]))
        if len(self.position["moves"]) < ack["ply"]:
            self.position["moves"].append(ack["move"])

    def play(self, moves: int) -> None:
        for _ in range(moves):
            seat, move_id, _move = self.send_move()
            self.acknowledged(seat, move_id)

    def reconnect(self, seat: int) -> None:
        """The seat's player opens a new connection and resumes with its token, as the page does (sent
        ``elsewhere`` to its game's process, it follows): a connection passed to a process in the moment
        it was killed is lost with it (the kill is not instant, so the supervisor may still pass one
        there), and the player connects again. ``RECONNECTS`` tries at the most, each one's failure
        said if all fail."""
        self.players[seat].close()
        failures = []
        for _attempt in range(RECONNECTS):
            player = None
            try:
                player = following(
                    self.url, {"type": "resume", "token": self.tokens[seat]}, source=self.addresses[seat]
                )
                state = player.expect("state", SECONDS)
            except (ConnectionClosed, InvalidHandshake, OSError) as lost:
                failures.append(f"{type(lost).__name__}: {lost}")
                if player is not None:
                    player.close()  # the lost attempt's socket, not left open beside the next
                continue
            self.players[seat] = player
            self.position["moves"] = list(state["moves"])
            return
        raise AssertionError(f"seat {seat} from {self.addresses[seat]} could not resume: {failures}")

    def close(self) -> None:
        for player in self.players.values():
            player.close()


def stored_moves(database: Path, game_id: str) -> list[tuple[int, str, str]]:
    with sqlite3.connect(database) as connection:
        return [
            (int(seat), str(move_id), str(move))
            for seat, move_id, move in connection.execute(
                "SELECT seat, move_id, move FROM moves WHERE game = ? AND taken_back_at IS NULL ORDER BY ply",
                (game_id,),
            )
        ]


def test_a_game_of_either_process_is_joined_watched_and_played_through_one_port(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--processes", "2") as server:
        assert set(game_processes(server)) == {0, 1}
        games = [Game(server.url, HOMES[owner], HOMES[1 - owner]) for owner in (0, 1)]
        try:
            for owner, game in zip((0, 1), games, strict=True):
                assert shard_of(game.game_id, 2) == owner  # made by its creator's home
                watcher = following(
                    server.url, {"type": "watch", "code": game.created["watch"]}, source=HOMES[1 - owner]
                )
                assert watcher.expect("state", SECONDS)["game"] == game.game_id
                game.play(4)
                assert watcher.expect("moved", SECONDS)["game"] == game.game_id
                watcher.close()
            deadline = time.monotonic() + SECONDS
            while (counts := server.stats()).get("games_playing") != "2" and time.monotonic() < deadline:
                time.sleep(0.1)  # each process writes its counts once a second
            assert counts["processes"] == "2"
            assert counts["games_playing"] == "2"
        finally:
            for game in games:
                game.close()


def test_a_game_process_killed_with_9_comes_back_with_every_acknowledged_move(tmp_path: Path) -> None:
    through_kills(tmp_path, games=4, kills=1)


@pytest.mark.slow
def test_games_of_both_processes_go_through_kills_of_each(tmp_path: Path) -> None:
    through_kills(tmp_path, games=12, kills=4)


def through_kills(folder: Path, games: int, kills: int) -> None:
    """``games`` games, half of each process, each with a move in flight at every kill of a game
    process (process 1 first, then each in turn); at the end each game's stored moves are the
    moves its players saw acknowledged, each once: 0 lost, 0 doubled."""
    lifted = ("--max-connections-per-address", "100", "--max-games-per-address", "100", "--creates-per-hour", "36000")
    with ServerProcess(folder, "--processes", "2", *lifted) as server:
        played = [Game(server.url, HOMES[index % 2], HOMES[1 - index % 2]) for index in range(games)]
        try:
            for game in played:
                game.play(3)
            for kill in range(kills):
                killed = 1 - kill % 2
                before = game_processes(server)
                in_flight = [(game, game.send_move()) for game in played]  # a move each, then the kill at once
                os.kill(before[killed], signal.SIGKILL)
                for game, (seat, move_id, move) in in_flight:
                    if shard_of(game.game_id, 2) != killed:
                        game.acknowledged(seat, move_id)  # the other process's games go on as if nothing happened
                        continue
                    with contextlib.suppress(ConnectionClosed, TimeoutError):
                        game.acknowledged(seat, move_id)  # its ack may have left before the kill
                    for player_seat in (1, 2):
                        game.reconnect(player_seat)
                    if move_id not in {acked_id for _seat, acked_id, _move in game.acked}:
                        # lost with the process, or stored and its ack lost: the same id is played now, or acknowledged
                        game.players[seat].send({"type": "move", "move": move, "id": move_id})
                        game.acknowledged(seat, move_id)
                    game.players[seat].send({"type": "move", "move": move, "id": move_id})  # a resend is acknowledged
                    assert game.players[seat].expect("ack", SECONDS)["id"] == move_id  # again, not played twice
                after = game_processes(server)
                assert after[1 - killed] == before[1 - killed] and after[killed] != before[killed]
                for game in played:
                    game.play(1)
        finally:
            for game in played:
                game.close()
        for game in played:
            assert stored_moves(folder / "games.sqlite3", game.game_id) == game.acked  # 0 lost, 0 doubled


def test_a_network_is_held_to_its_caps_across_processes(tmp_path: Path) -> None:
    caps = ("--max-connections-per-address", "3", "--max-games-per-address", "2", "--max-waiting-per-address", "5")
    with ServerProcess(tmp_path, "--processes", "2", *caps) as server:
        hosts = []
        for _ in range(2):  # two games of process 1 that HOME_0's network joins
            host = Client(server.url, source=HOME_1)
            host.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
            hosts.append((host, host.expect("created", SECONDS)))
        guests = []
        for _host, created in hosts:
            assert shard_of(created["game"], 2) == 1
            guest = Client(server.url + "/?at=1", source=HOME_0)  # where the game is: no connection left behind
            guest.send({"type": "join", "code": created["invite"]})
            guest.expect("joined", SECONDS)  # in process 1, counted once for its network
            guests.append(guest)
        third = Client(server.url, source=HOME_0)
        third.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
        refused = third.error(SECONDS)
        assert refused["code"] == "busy" and refused["params"] == {"why": "network_games", "count": 2}
        with pytest.raises(InvalidStatus) as over:  # its two guests in process 1 and ``third`` at home
            Client(server.url, source=HOME_0)
        assert over.value.response.status_code == 429
        guests.pop().close()
        deadline = time.monotonic() + SECONDS
        while True:  # once process 1 has seen the close
            try:
                fourth = Client(server.url, source=HOME_0)
                break
            except InvalidStatus:
                assert time.monotonic() < deadline, "a connection closed in process 1 stays counted"
                time.sleep(0.05)
        for client in [fourth, third, *guests, *(host for host, _created in hosts)]:
            client.close()


def test_a_networks_open_puzzles_are_counted_once_whichever_process_holds_them(tmp_path: Path) -> None:
    """Eight puzzles open at a network's home fill its cap: a ninth asked on its connection in another
    process (sent there to join a game) is refused there too, and one closed at home lets it in."""
    with ServerProcess(tmp_path, "--processes", "2") as server:
        host = Client(server.url, source=HOME_1)
        host.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
        created = host.expect("created", SECONDS)
        assert shard_of(created["game"], 2) == 1
        moved = following(server.url, {"type": "join", "code": created["invite"]}, source=HOME_0)
        moved.expect("joined", SECONDS)  # sent to process 1
        at_home = [Client(server.url, source=HOME_0) for _ in range(8)]
        for client in at_home:
            assert puzzle_opened(client)["type"] == "puzzle_shown"
        refused = puzzle_opened(moved)
        assert refused["type"] == "error" and refused["params"] == {"why": "puzzles_open", "count": 8}, refused
        at_home.pop().close()
        deadline = time.monotonic() + SECONDS
        while (answer := puzzle_opened(moved))["type"] != "puzzle_shown":  # once process 0 has seen the close
            assert answer["params"]["why"] == "puzzles_open", answer
            assert time.monotonic() < deadline, "a puzzle closed at home stays counted"
            time.sleep(0.05)
        for client in [host, moved, *at_home]:
            client.close()


def puzzle_opened(client: Client) -> dict[str, Any]:
    """The answer to a ``puzzle_open``: ``puzzle_shown``, or the ``error`` that refused it."""
    client.send({"type": "puzzle_open", "device": "0123456789abcdef0123456789abcdef"})
    while (answer := client.read(SECONDS))["type"] not in ("puzzle_shown", "error"):
        pass
    return answer


def test_a_networks_starts_and_wrong_codes_are_counted_once_whichever_process_serves_it(tmp_path: Path) -> None:
    """One network, one connection in each process (one in process 0 by its address's ``?at=0``):
    its 20 starts and its six wrong codes (five free, one more looked up) are the same as in one
    process, however its requests alternate between the processes (``guard_counts.SharedCounts``)."""
    with ServerProcess(tmp_path, "--processes", "2") as server:
        moved, home = Client(server.url + "/?at=0", source=HOME_1), Client(server.url, source=HOME_1)
        made_in = set()
        for number in range(20):
            client = (moved, home)[number % 2]
            client.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
            made_in.add(shard_of(client.expect("created", SECONDS)["game"], 2))
            client.expect("state", SECONDS)
            client.send({"type": "abort"})  # called off: the caps on waiting games hold no try
            assert client.expect("state", SECONDS)["result"]["reason"] == "aborted"
        assert made_in == {0, 1}
        for client in (moved, home):
            client.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
            refused = client.error(SECONDS)
            assert refused["code"] == "busy" and refused["params"]["why"] == "starts", refused
        for number in range(6):
            client = (moved, home)[number % 2]
            client.send({"type": "watch", "code": new_watch_code()})  # a code no game has
            assert client.error(SECONDS)["code"] == "not_found"
        for client in (moved, home):
            client.send({"type": "watch", "code": new_watch_code()})
            assert client.error(SECONDS)["code"] == "rate_limited"
        moved.close()
        home.close()


def test_a_networks_new_puzzle_ratings_are_counted_once_whichever_process_serves_it(tmp_path: Path) -> None:
    """Device keys with no rating that one network opens puzzles under, in turn in process 0 and at
    its home, meet one cap (3 here): the fourth is refused wherever it is asked."""
    with ServerProcess(tmp_path, "--processes", "2", "--puzzle-ratings-per-hour", "3") as server:
        moved, home = Client(server.url + "/?at=0", source=HOME_1), Client(server.url, source=HOME_1)
        for number in range(4):
            client = (moved, home)[number % 2]
            client.send({"type": "puzzle_open", "device": f"{number:x}" * 32})
            answer = client.read(SECONDS)
            while answer["type"] not in ("puzzle_shown", "error"):
                answer = client.read(SECONDS)
            if number < 3:
                assert answer["type"] == "puzzle_shown", answer
            else:
                assert answer["type"] == "error" and answer["params"] == {"why": "new_devices", "count": 3}, answer
        moved.close()
        home.close()


def test_a_networks_new_device_keys_are_counted_once_whichever_process_files_a_game(tmp_path: Path) -> None:
    """Games filed under device keys new to the server by one network's seats, four at once, two in
    process 0 and two at its home, meet one cap of new keys (2 here): two are filed and two refused,
    however the claims race (each process marks the keys it is filing where the other sees them)."""
    with ServerProcess(tmp_path, "--processes", "2", "--device-keys-per-hour", "2") as server:
        hosts = [Client(server.url + ("/?at=0" if number % 2 == 0 else ""), source=HOME_1) for number in range(4)]
        for host in hosts:
            host.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
            host.expect("created", SECONDS)
        for number, host in enumerate(hosts):
            host.send({"type": "device", "device": f"{number:x}" * 32})
            host.send({"type": "ping", "t": number})
        answers = []
        for host in hosts:
            answer = host.read(SECONDS)
            while answer["type"] not in ("pong", "error"):
                answer = host.read(SECONDS)
            answers.append(answer)
        filed = [answer for answer in answers if answer["type"] == "pong"]  # a claim is filed silently
        refused = [answer for answer in answers if answer["type"] == "error"]
        assert len(filed) == 2 and [error["params"] for error in refused] == [{"why": "new_devices"}] * 2, answers
        for host in hosts:
            host.close()


def test_one_process_is_the_server_as_it_was(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--processes", "1") as server:
        assert game_processes(server) == {}
        assert "processes" not in server.stats()
        client = Client(server.url)
        client.send({"type": "ping", "t": 1})
        assert json.loads(json.dumps(client.expect("pong")))["t"] == 1
        client.close()


def test_behind_a_proxy_a_network_is_counted_at_its_home_before_its_handshake(tmp_path: Path) -> None:
    """Every peer is the proxy: the supervisor reads the forwarded address from the request's head
    and passes the connection to that network's home, which refuses one over the cap with 429 in
    the handshake, as one process does."""
    forwarded = next(f"203.0.113.{number}" for number in range(1, 255) if home_of(f"203.0.113.{number}", 2) == 1)
    with ServerProcess(tmp_path, "--processes", "2", "--trust-proxy", "--max-connections-per-address", "2") as server:
        held = [Client(server.url, forwarded_for=forwarded) for _ in range(2)]
        for client in held:
            client.send({"type": "ping", "t": 1})
            client.expect("pong", SECONDS)
        for _ in range(3):
            with pytest.raises(InvalidStatus) as refused:
                Client(server.url, forwarded_for=forwarded)
            assert refused.value.response.status_code == 429
        other = Client(server.url, forwarded_for="198.51.100.7")  # another network is let in
        other.close()
        for client in held:
            client.close()


def test_a_game_against_the_solver_in_process_1_is_played_on_process_0s_pool(tmp_path: Path) -> None:
    """Process 0 owns the solver's pool and serves it to process 1 (``POOL_SOCKET``): a game against
    the solver asked at process 1's home stays there, its moves and its hint come from the one pool,
    and /stats counts one pool's workers."""
    with ServerProcess(tmp_path, "--processes", "2", "--solver-workers", "1") as server:
        client = Client(server.url, source=HOME_1)  # reaches process 1, which has no pool of its own
        client.send({"type": "solver_game", "level": "beginner", "deal": {"number": 3}, "first": "joiner"})
        client.expect("solver_created", 120.0)
        state = client.expect("state", SECONDS)
        assert shard_of(state["game"], 2) == 1
        moved = client.expect("moved", 120.0)  # the solver's first move
        assert moved["ply"] == 1 and moved["seat"] != state["you"]
        client.send({"type": "hint"})
        hint = client.expect("hint_result", 120.0)
        assert hint["ply"] == 1 and hint["evaluation"]["best_moves"]
        assert server.stats()["solver_workers"] == "1"
        client.close()


def test_a_stopped_pool_delays_only_the_solvers_answers_which_the_player_is_told(tmp_path: Path) -> None:
    """Process 0 owns the pool; stopped (SIGSTOP), process 1 hands its player's move for the solver over
    without waiting for an answer: its connections answer pings at once meanwhile, the player is told
    ``unavailable`` with the seconds to the next try once the pool has been silent ``ANSWER_SECONDS``
    (5 s), and once process 0 goes on the solver moves. The stop ends before the supervisor would
    replace process 0 (``STUCK_SECONDS``, 20 s)."""
    import psutil

    with ServerProcess(tmp_path, "--processes", "2", "--solver-workers", "1") as server:
        player = Client(server.url, source=HOME_1)
        player.send({"type": "solver_game", "level": "beginner", "deal": {"number": 3}, "first": "creator"})
        player.expect("solver_created", 120.0)
        state = player.expect("state", SECONDS)
        assert shard_of(state["game"], 2) == 1 and state["to_move"] == state["you"]
        owner = server.game_process(0)
        assert owner is not None
        owner.send_signal(signal.SIGSTOP)
        try:
            player.send({"type": "move", "move": a_legal_move(state), "id": "m1"})
            player.expect("moved", SECONDS)
            pongs = []
            for _ in range(3):  # the loop of process 1 does not wait for the stopped pool
                sent = time.monotonic()
                assert player.socket.ping().wait(SECONDS)
                pongs.append(time.monotonic() - sent)
            refused = player.expect("solver_refused", SECONDS)
            assert (refused["what"], refused["code"]) == ("move", "unavailable") and refused["retry_after"] >= 1.0
        finally:
            with contextlib.suppress(psutil.NoSuchProcess):
                owner.send_signal(signal.SIGCONT)
        assert max(pongs) < 2.0, pongs
        moved = player.expect("moved", 120.0)  # asked again after the seconds it was told
        assert moved["ply"] == 2 and moved["seat"] != state["you"]
        player.close()


def test_the_deal_of_the_day_fair_deals_and_par_are_every_homes(tmp_path: Path) -> None:
    """The catalogue is every process's, not only the pool's: players whose homes are process 0 and
    process 1 see the same deal of the day, and each plays it, and a fair deal, with its par."""
    with ServerProcess(tmp_path, "--processes", "2", "--solver-workers", "1", clock_offset=midday_offset()) as server:
        tables = []
        for home in (0, 1):
            client = Client(server.url, source=HOMES[home])
            client.send({"type": "daily"})
            table = client.expect("daily_table", SECONDS)
            assert table["deal"] is not None and table["par"] is not None, (home, table)
            tables.append((table["deal"], table["par"]))
            for deal in ({"daily": True}, {"fair": "even"}):
                client.send({"type": "solver_game", "level": "beginner", "deal": deal, "first": "creator"})
                client.expect("solver_created", SECONDS)
                state = client.expect("state", SECONDS)
                assert shard_of(state["game"], 2) == home
                assert client.expect("solver", SECONDS)["par"] is not None, (home, deal)
            client.close()
        assert tables[0] == tables[1]


def test_one_lobby_for_every_process(tmp_path: Path) -> None:
    """The lobby's list lives in process 0: a follower whose home is process 1 is sent there
    (``elsewhere``), sees a challenge opened from process 1's home (sent there too), and takes it."""
    with ServerProcess(tmp_path, "--processes", "2") as server:
        follower = following(server.url, {"type": "lobby_follow"}, "Bob", HOME_1)
        assert follower.expect("lobby", SECONDS)["challenges"] == []
        offer = {"type": "challenge", "deal": {"number": 3}, "first": "creator", "name": "Ann"}
        challenger = following(server.url, offer, "Ann", HOME_1)
        code = challenger.expect("created", SECONDS)["invite"]
        news = follower.expect("lobby_news", SECONDS)
        assert [entry["code"] for entry in news["added"]] == [code]
        taker = following(server.url, {"type": "join", "code": code, "name": "Bob"}, "Bob", HOME_1)
        taker.expect("joined", SECONDS)
        assert follower.expect("lobby_news", SECONDS)["removed"] == [code]
        for client in (follower, challenger, taker):
            client.close()


def test_a_game_process_whose_supervisor_is_gone_before_it_starts_ends_at_once(tmp_path: Path) -> None:
    """A supervisor killed while its game processes still import (no death signal asked for yet)
    leaves none of them serving: each sees a parent other than the supervisor that named itself,
    and ends before it opens the database or prints that it is ready."""
    import subprocess
    import sys

    from battle.online.server.processes.supervisor import SUPERVISOR_VARIABLE

    database = tmp_path / "games.sqlite3"
    gone = str(os.getpid() + 4_000_000)  # no process: not this test, the game process's parent
    ended = subprocess.run(
        [sys.executable, "-m", "battle", "serve", "--db", str(database), "--process-of=1/2", "--solver-workers", "0"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, SUPERVISOR_VARIABLE: gone},
    )
    assert ended.returncode == 0 and ended.stdout == "", ended
    assert not database.exists()


def test_a_process_that_cannot_write_its_counts_says_so_once_and_writes_them_again(tmp_path: Path) -> None:
    """/stats adds up the counts each process writes to the run's folder: a write that fails (a full
    disk there; here a folder where its file goes) is one line in the log, not the end of the task
    for the server's life; once it can write again, it says so and does."""

    with ServerProcess(tmp_path, "--processes", "2") as server:
        blocker = server.run_folder() / "stats-1.tmp"
        deadline = time.monotonic() + SECONDS
        while True:  # the process writes this file every second and renames it at once: block it in between
            try:
                blocker.mkdir()
                break
            except FileExistsError:
                assert time.monotonic() < deadline, "stats-1.tmp never went away"
                time.sleep(0.01)
        try:
            wait_for_log(server, "process 1 cannot write its counts for /stats")
        finally:
            blocker.rmdir()
        wait_for_log(server, "process 1 writes its counts for /stats again")
        log = "\n".join(server.log_lines())
        assert log.count("cannot write its counts") == 1 and "Traceback" not in log


def wait_for_log(server: ServerProcess, words: str) -> None:
    deadline = time.monotonic() + SECONDS
    while not any(words in line for line in server.log_lines()):
        assert time.monotonic() < deadline, f"the log never said {words!r}: {server.log_lines()[-5:]}"
        time.sleep(0.1)


def test_a_stopped_process_gets_no_connections_and_is_replaced(tmp_path: Path) -> None:
    """Each game process beats to the supervisor from its event loop: one stopped (SIGSTOP) is late
    after ``LATE_SECONDS`` (3 s: three beats missed), and its network's new connections are served by
    the other process meanwhile; silent ``STUCK_SECONDS`` (here 12) it is killed and started again."""
    import psutil

    prelude = "import battle.online.server.processes.supervisor as s; s.STUCK_SECONDS = 12.0"
    with ServerProcess(tmp_path, "--processes", "2", prelude=prelude) as server:
        stopped = server.game_process(1)
        assert stopped is not None
        stopped.send_signal(signal.SIGSTOP)
        try:
            wait_for_log(server, "process 1 of the server has not answered for 3 s: new connections go elsewhere")
            meanwhile = Client(server.url, source=HOME_1)  # its home is stopped: the other process serves it
            meanwhile.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
            assert shard_of(meanwhile.expect("created", SECONDS)["game"], 2) == 0
            meanwhile.close()
            wait_for_log(server, "process 1 of the server has not answered for 12 s: replacing it")
        finally:
            with contextlib.suppress(psutil.NoSuchProcess):
                stopped.send_signal(signal.SIGCONT)
        deadline = time.monotonic() + SECONDS
        while True:  # the network's games are made at home again once the new process 1 is ready
            if process_that_makes(server.url, HOME_1) == 1:
                break
            assert time.monotonic() < deadline, "process 1 was not started again"
            time.sleep(0.2)
        fresh = server.game_process(1)
        assert fresh is not None and fresh.pid != stopped.pid


def test_a_game_of_a_stopped_process_is_refused_in_words_not_left_to_time_out(tmp_path: Path) -> None:
    """A watch of a game held by a stopped (SIGSTOP) process, and the lobby it holds: once the
    supervisor has found it late (3 s), the process the player reached says, at once, which part of
    the server does not answer, instead of sending it there; once the stopped process beats again,
    the same watch is sent there."""
    import psutil

    with ServerProcess(tmp_path, "--processes", "2") as server:
        host = Client(server.url, source=HOME_0)
        host.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
        created = host.expect("created", SECONDS)
        assert shard_of(created["game"], 2) == 0
        holder = server.game_process(0)
        assert holder is not None
        holder.send_signal(signal.SIGSTOP)
        refused = {}
        try:
            wait_for_log(server, "process 0 of the server has not answered for 3 s")
            watcher = Client(server.url, source=HOME_1)
            asked = time.monotonic()
            for request in ({"type": "watch", "code": created["watch"]}, {"type": "lobby_follow"}):
                watcher.send(request)
                refused[request["type"]] = watcher.error(SECONDS)
            waited = time.monotonic() - asked
        finally:
            with contextlib.suppress(psutil.NoSuchProcess):
                holder.send_signal(signal.SIGCONT)
        assert waited < 3.0, f"the refusals took {waited:.1f} s"
        for request, what, words in (
            ("watch", "game", "The part of the server that holds this game does not answer now"),
            ("lobby_follow", "lobby", "The part of the server that holds the lobby does not answer now"),
        ):
            error = refused[request]
            assert (error["code"], error["params"]) == ("busy", {"why": "unreachable", "what": what}), error
            assert refusal_text(Error(ErrorCode.BUSY, "", error["params"])).startswith(words)
        wait_for_log(server, "process 0 of the server answers again")
        watcher.send({"type": "watch", "code": created["watch"]})
        assert watcher.expect("elsewhere", SECONDS) == {"type": "elsewhere", "group": "0", "request": "watch"}
        watcher.close()
        watcher = following(server.url, {"type": "watch", "code": created["watch"]}, source=HOME_1)
        assert watcher.expect("state", SECONDS)["game"] == created["game"]
        for client in (watcher, host):
            client.close()


def test_stats_count_a_player_sent_to_its_games_process_once(tmp_path: Path) -> None:
    """A guest whose home is process 1, sent to its game's process (0), is one connection in /stats:
    the one it left is closed and counted nowhere (the request for /stats is the third)."""
    with ServerProcess(tmp_path, "--processes", "2") as server:
        game = Game(server.url, HOME_0, HOME_1)  # the guest from process 1's home joins a game of process 0
        assert shard_of(game.game_id, 2) == 0
        deadline = time.monotonic() + SECONDS
        while True:  # each process writes its counts each second
            shown = server.stats()
            if (shown["connections"], shown["client_addresses"]) == ("3", "2"):  # 127.0.0.1 and 127.0.0.3
                break
            assert time.monotonic() < deadline, f"/stats says {shown['connections']} connections, not 3"
            time.sleep(0.1)
        game.close()


def test_every_feature_of_the_page_answers_a_player_of_either_home(tmp_path: Path) -> None:
    """The lobby (in process 0, where a player of process 1's home is sent), puzzles, a device's
    statistics, the deal of the day and the analysis board answer a player whichever process is its
    network's home."""
    from battle.rules.notation import format_position
    from tests.players.conftest import greedy_down

    device = "0123456789abcdef0123456789abcdef"
    with ServerProcess(tmp_path, "--processes", "2", "--solver-workers", "1") as server:
        for home in (0, 1):
            client = following(server.url, {"type": "lobby_follow"}, source=HOMES[home])
            assert "challenges" in client.expect("lobby", SECONDS)
            client.send({"type": "lobby_leave"})
            client.send({"type": "puzzle_open", "device": device})
            assert client.expect("puzzle_shown", SECONDS)["puzzle"]
            client.send({"type": "my_stats", "device": device})
            client.expect("my_stats_result", SECONDS)
            client.send({"type": "daily", "device": device})
            assert client.expect("daily_table", SECONDS)["deal"] is not None
            client.send({"type": "analyse", "id": f"board{home}", "position": format_position(greedy_down(3, 40))})
            result = client.expect("analysis_result", 120.0)
            assert result["id"] == f"board{home}" and result["evaluation"]["best_moves"], result
            client.close()


def test_silent_connections_hold_up_no_other_networks_connection_and_end(tmp_path: Path) -> None:
    """The supervisor waits for a connection's head to read its ``?at=``: 40 connections of one network
    that send nothing, or half a head, keep nobody else waiting (16 of them are waited for at once,
    the rest go home unpeeked), and each is closed by the server in the end."""
    import socket as sockets

    with ServerProcess(tmp_path, "--processes", "2") as server:
        silent = []
        for number in range(40):
            raw = sockets.create_connection(("127.0.0.1", server.port), source_address=("127.0.0.5", 0))
            if number % 2:
                raw.sendall(b"GET /?at=1 HTTP/1.1\r\nHost: x\r\n")  # a head begun, never ended
            silent.append(raw)
        neighbour = Client(server.url, source=HOME_1)
        neighbour.send({"type": "ping", "t": 1})
        assert neighbour.expect("pong", SECONDS)["t"] == 1
        for raw in silent:  # answered while every silent one is still open: it waited for none of them
            with pytest.raises(BlockingIOError):
                raw.recv(1, sockets.MSG_PEEK | sockets.MSG_DONTWAIT)
        neighbour.close()
        for raw in silent:
            raw.settimeout(SECONDS)
            with contextlib.suppress(ConnectionResetError):
                while raw.recv(4096):  # a refusal's words, or nothing: then the close
                    pass
            raw.close()
