"""Games that end, against a real ``mahjong-battle serve`` process on 127.0.0.1 and its real SQLite file:
one network's flood of games it creates and joins itself is capped, a player who stops moving loses
the game as abandoned (or it is aborted when nobody moved), a restart ends what a stop left past
its limit and gives the network its slots back, and ``--keep-days`` deletes old finished games.

The limits are the command line's own flags, set to a second or two; each wait is for an event (a
message, a line of ``/stats``), bounded in time. Behind ``--trust-proxy`` each connection names
its address in a header (documentation prefixes, never dialled); one without the header counts as
127.0.0.1.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from tests.online.test_online_solver import WAIT as SOLVER_WAIT
from tests.online.test_online_solver import start_game
from tests.online_server import Client, ServerProcess, a_legal_move, host_and_join

WAIT = 30.0
"""The longest any one event is waited for; a loaded machine gets there in a fraction of it."""
HOUR = 3600.0
SHORT_HOURS = "0.0005"
SOLVER_GAME_HOURS = "0.003"
"""10.8 s: long enough for a player's first move on a loaded machine, short enough to wait for."""
"""1.8 s: the abandon limit the tests set."""
CREATE = {"type": "create", "deal": {"number": 5}, "first": "creator"}


def game_row(database: Path, game: str) -> dict[str, Any]:
    """The game's row as the file has it now (the server keeps writing it meanwhile: WAL)."""
    with sqlite3.connect(database) as connection:
        connection.row_factory = sqlite3.Row
        row = connection.execute("SELECT * FROM games WHERE id = ?", (game,)).fetchone()
    assert row is not None, f"no game {game} in {database}"
    return dict(row)


def rows_of(database: Path, table: str, game: str) -> int:
    column = "id" if table == "games" else "game"
    with sqlite3.connect(database) as connection:
        return int(connection.execute(f"SELECT count(*) FROM {table} WHERE {column} = ?", (game,)).fetchone()[0])


def finished_state(client: Client) -> dict[str, Any]:
    """The first ``state`` of a finished game ``client`` gets (presence states before it are skipped)."""
    deadline = time.monotonic() + WAIT
    while True:
        state = client.expect("state", max(0.01, deadline - time.monotonic()))
        if state["status"] == "finished":
            return state


def play_two_moves(host: Client, guest: Client) -> None:
    """The host moves, then the guest: move 2 is played, and the host is to move."""
    state = host.seen[-1]
    first = a_legal_move(state)
    host.send({"type": "move", "move": first, "id": "h1"})
    host.expect("ack", WAIT)
    guest.expect("moved", WAIT)
    guest.send({"type": "move", "move": a_legal_move({**state, "moves": [first]}), "id": "g1"})
    guest.expect("ack", WAIT)
    host.expect("moved", WAIT)


# -- one network's games ---------------------------------------------------------------------------


def test_one_address_creating_and_joining_its_own_games_is_capped_and_a_stranger_still_creates(
    tmp_path: Path,
) -> None:
    """The flood that filled 295 of 300 games in 31 s, against a server that holds 8: one network
    gets 5, and a stranger's game is still taken."""
    with ServerProcess(tmp_path, "--trust-proxy", "--max-games", "8") as server:
        flood = "192.0.2.7"
        clients: list[Client] = []
        made, refusals = 0, []
        for _ in range(8):
            host = Client(server.url, forwarded_for=flood)
            clients.append(host)
            host.send(CREATE)
            answer = host.read(WAIT)
            if answer["type"] == "error":
                refusals.append(answer)
                continue
            assert answer["type"] == "created"
            made += 1
            guest = Client(server.url, forwarded_for=flood)
            clients.append(guest)
            guest.send({"type": "join", "code": answer["invite"]})
            guest.expect("joined", WAIT)
        assert made == 5 and len(refusals) == 3
        for refusal in refusals:
            assert refusal["code"] == "busy" and refusal["params"] == {"why": "network_games", "count": 5}
        stranger = Client(server.url, forwarded_for="198.51.100.9")
        stranger.send(CREATE)
        assert stranger.expect("created", WAIT)["game"]
        for client in (*clients, stranger):
            client.close()


# -- a player who stops moving ---------------------------------------------------------------------


def test_a_player_who_stops_moving_loses_as_abandoned_and_a_game_nobody_moved_in_is_aborted(
    tmp_path: Path,
) -> None:
    """Both seats from one network: 1.8 s (``--abandon-hours-one-network``); a game whose seats came
    from two networks keeps the longer limit and plays on."""
    flags = ("--trust-proxy", "--abandon-hours-one-network", SHORT_HOURS)
    with ServerProcess(tmp_path, *flags) as server:
        database = server.folder / "games.sqlite3"
        host, guest, created, joined = host_and_join(server.url)
        play_two_moves(host, guest)
        idle_host, idle_guest, idle_created, _ = host_and_join(server.url, deal=6)
        far = Client(server.url, "Cy", forwarded_for="192.0.2.7")
        far.send({**CREATE, "name": "Cy"})
        far_created = far.expect("created", WAIT)
        away = Client(server.url, "Di", forwarded_for="198.51.100.9")
        away.send({"type": "join", "code": far_created["invite"], "name": "Di"})
        away.expect("joined", WAIT)

        for client in (host, guest):  # the host is to move and does not: both are told
            ended = finished_state(client)
            assert ended["result"]["reason"] == "abandoned" and ended["result"]["winner"] == joined["seat"]
        for client in (idle_host, idle_guest):
            ended = finished_state(client)
            assert ended["result"]["reason"] == "aborted" and ended["result"]["winner"] is None

        row = game_row(database, created["game"])
        assert (row["status"], row["reason"], row["winner"]) == ("finished", "abandoned", joined["seat"])
        assert row["finished_at"] == pytest.approx(row["turn_started"] + float(SHORT_HOURS) * HOUR)
        assert game_row(database, idle_created["game"])["reason"] == "aborted"
        assert game_row(database, far_created["game"])["status"] == "playing"
        host.send({"type": "record"})
        assert host.expect("record", WAIT)["mbg"].startswith("# Ann abandons the game after move 2\n")
        for client in (host, guest, idle_host, idle_guest, far, away):
            client.close()


def test_a_restart_ends_the_games_a_stop_left_past_their_limit_and_frees_their_network(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, "--trust-proxy")
    database = tmp_path / "games.sqlite3"
    flood = "192.0.2.7"
    with server:
        games, tokens = [], []
        for number in range(5):
            host = Client(server.url, "Ann", forwarded_for=flood)
            host.send({**CREATE, "deal": {"number": number + 1}, "name": "Ann"})
            created = host.expect("created", WAIT)
            host.expect("state", WAIT)
            guest = Client(server.url, "Bob", forwarded_for=flood)
            guest.send({"type": "join", "code": created["invite"], "name": "Bob"})
            joined = guest.expect("joined", WAIT)
            guest.expect("state", WAIT)
            host.expect("state", WAIT)
            if number == 0:
                play_two_moves(host, guest)
            games.append(created["game"])
            tokens.append(joined["token"])
            host.close()
            guest.close()
        refused = Client(server.url, forwarded_for=flood)
        refused.send(CREATE)
        assert refused.error(WAIT)["params"] == {"why": "network_games", "count": 5}
        refused.close()
    with sqlite3.connect(database) as connection:  # seven hours pass while the server is down
        connection.execute("UPDATE games SET turn_started = turn_started - ? WHERE status = 'playing'", (7 * HOUR,))
    with server:
        again = Client(server.url, forwarded_for=flood)
        again.send(CREATE)
        assert again.expect("created", WAIT)["game"] not in games  # the network's slots are free
        rows = [game_row(database, game) for game in games]
        assert [row["reason"] for row in rows] == ["abandoned"] + ["aborted"] * 4
        for row in rows:  # ended as of the moment the 6 h ran out, not as of the restart
            assert row["status"] == "finished" and row["finished_at"] == pytest.approx(row["turn_started"] + 6 * HOUR)
        back = Client(server.url, forwarded_for=flood)
        back.send({"type": "resume", "token": tokens[0]})
        state = back.expect("state", WAIT)
        assert state["status"] == "finished" and state["result"]["reason"] == "abandoned"
        for client in (again, back):
            client.close()


# -- old games -------------------------------------------------------------------------------------


def test_keep_days_deletes_old_finished_games_with_their_rows_and_keeps_the_rest(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, "--keep-days", "30")
    database = tmp_path / "games.sqlite3"
    with server:
        called_off = Client(server.url)
        called_off.send(CREATE)
        aborted = called_off.expect("created", WAIT)["game"]
        called_off.send({"type": "abort"})
        finished_state(called_off)
        host, guest, created, _ = host_and_join(server.url, deal=6)
        play_two_moves(host, guest)
        guest.send({"type": "resign"})
        finished_state(host)
        host.send({"type": "rematch_offer"})
        guest.expect("state", WAIT)
        guest.send({"type": "rematch_accept"})
        rematch = host.expect("rematch", WAIT)["game"]
        guest.send({"type": "resign"})
        finished_state(host)
        waiting = Client(server.url)
        waiting.send({**CREATE, "deal": {"number": 7}})
        unfinished = waiting.expect("created", WAIT)["game"]
        for client in (called_off, host, guest, waiting):
            client.close()
    played = created["game"]
    with sqlite3.connect(database) as connection:  # forty days pass for two of them
        connection.execute(
            "UPDATE games SET finished_at = finished_at - ? WHERE id IN (?, ?)", (40 * 86400.0, aborted, played)
        )
    with server:
        deadline = time.monotonic() + WAIT
        while server.stats().get("old_games_deleted") != "2":
            assert time.monotonic() < deadline, server.stats()
            time.sleep(0.1)
        for table in ("games", "seats", "moves", "seat_networks"):
            assert rows_of(database, table, aborted) == rows_of(database, table, played) == 0, table
        assert game_row(database, rematch)["rematch_of"] is None  # the rematch stays, its origin gone
        assert game_row(database, unfinished)["status"] == "waiting"


# -- games against the solver ----------------------------------------------------------------------


def test_games_against_the_solver_are_capped_at_three_a_network(tmp_path: Path) -> None:
    """Three games at once per network; the fourth is refused with the count. The games never end
    here on their own (the default limits are hours), so the count is three however slow the machine."""
    with ServerProcess(tmp_path, "--solver-workers", "1") as server:
        players = [Client(server.url) for _ in range(4)]
        for player in players[:3]:
            start_game(player)
        players[3].send({"type": "solver_game", "level": "beginner", "deal": {"number": 3}, "first": "creator"})
        refused = players[3].error(SOLVER_WAIT)
        assert refused["code"] == "busy" and refused["params"] == {"why": "solver_games", "count": 3}
        for player in players:
            player.close()


def test_games_against_the_solver_end_when_their_player_is_gone(tmp_path: Path) -> None:
    """A player gone for the limit (the one-network one: nobody else waits) loses the game that
    began, and the games nobody moved in are aborted, which gives the network its slots back.

    The solver's own turn has the same limit and is its player's to lose (``game_ends``): on a
    loaded machine a fresh worker's first reply can take longer than the limit, and the game ends
    the same way, abandoned with the solver the winner, whether or not its move came first. The
    limit (``SOLVER_GAME_HOURS``, 10.8 s) only has to outlast the player's own first move."""
    flags = ("--solver-workers", "1", "--abandon-hours-one-network", SOLVER_GAME_HOURS)
    with ServerProcess(tmp_path, *flags) as server:
        players = [Client(server.url) for _ in range(4)]
        first = start_game(players[0])
        players[0].send({"type": "move", "move": a_legal_move(first), "id": "m1"})
        players[0].expect("ack", SOLVER_WAIT)
        for player in players[1:3]:
            start_game(player)
        ended = finished_state(players[0])
        assert ended["result"] == {**ended["result"], "reason": "abandoned", "winner": 3 - first["you"]}
        assert len(ended["moves"]) in (1, 2)  # the player's move, and the solver's if it came in time
        for player in players[1:3]:
            assert finished_state(player)["result"]["reason"] == "aborted"
        start_game(players[3])
        for player in players:
            player.close()
