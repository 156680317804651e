"""Games against the solver through a real ``mahjong-battle serve`` with its solver pool: created,
played to the end, resumed on a new connection, its record a ``.mbg`` that replays, counted apart
from the games between people; and the refusals (a hint in a friend's game, a server without a
solver, a level that does not exist), each a code the client words."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from battle.rules.board import move_name, parse_move
from battle.rules.game import Game
from battle.rules.notation import parse_record
from battle.rules.wording import solver_name
from tests.online.strangers import head_and_body, http, request
from tests.online_server import Client, ServerProcess, ServerThread, a_legal_move, host_and_join

WAIT = 60.0
"""The longest one answer of the solver is waited for (a busy machine, workers still starting)."""


@pytest.fixture(scope="module")
def solver_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("solver"), "--solver-workers", "1") as server:
        yield server


def start_game(client: Client, level: str = "beginner", first: str = "creator", deal: int = 3) -> dict[str, Any]:
    """A new game against the solver; its first ``state`` (the ``solver_created`` and ``solver`` read too)."""
    client.send({"type": "solver_game", "level": level, "deal": {"number": deal}, "first": first})
    client.expect("solver_created", WAIT)
    state = client.expect("state", WAIT)
    solver = client.expect("solver", WAIT)
    assert (solver["game"], solver["seat"], solver["level"]) == (state["game"], 3 - state["you"], level)
    return state


def play_on(client: Client, state: dict[str, Any], until_ply: int | None = None) -> dict[str, Any]:
    """Play legal moves for ``client`` and follow the solver's until the game ends (or reaches
    ``until_ply`` on the client's turn); the state as the client's messages make it. One move a
    turn: the solver's news (``solver``, ``solver_queue``) may come between the solver's move and
    this client's, in any order on a loaded machine, and is no reason to send the move again (a
    resent move is acknowledged, not played, but counts against the connection's message rate)."""
    sent = 0
    sent_at_ply = -1
    while state["status"] == "playing" and sent < 100:
        ply = len(state["moves"])
        if state["to_move"] == state["you"] and sent_at_ply != ply:
            if until_ply is not None and ply >= until_ply:
                return state
            client.send({"type": "move", "move": a_legal_move(state), "id": f"m{ply}"})
            sent, sent_at_ply = sent + 1, ply
        message = client.read(WAIT)
        if message["type"] == "moved":
            state = {**state, "moves": [*state["moves"], message["move"]], "to_move": message["to_move"]}
            state["status"], state["scores"], state["result"] = message["status"], message["scores"], message["result"]
        elif message["type"] == "state":
            state = message
        else:
            assert message["type"] in ("ack", "solver_queue", "solver"), message
    return state


def test_a_game_against_beginner_to_the_end_with_a_record_that_replays(solver_server: ServerProcess) -> None:
    client = Client(solver_server.url, "Ann")
    state = play_on(client, start_game(client))
    assert state["status"] == "finished"
    client.send({"type": "record"})
    record = parse_record(client.expect("record", WAIT)["mbg"])
    assert (record.player1, record.player2) == ("Ann", solver_name("beginner"))
    assert [str(move) for move in record.moves] == [str(parse_move(move)) for move in state["moves"]]
    game = Game(record.start, record.player1, record.player2)
    for move in record.moves:
        game.play(move)
    assert game.is_over() and list(game.position.scores) == state["scores"]
    client.close()


def test_the_solvers_news_come_after_the_move_they_answer(solver_server: ServerProcess) -> None:
    """The solver's move is asked once the player's move is stored and told: the mover reads its
    ``moved`` and ``ack`` before the solver's queue or move."""
    client = Client(solver_server.url)
    state = start_game(client, level="club")
    client.send({"type": "move", "move": a_legal_move(state), "id": "first"})
    kinds = [client.read(WAIT)["type"] for _ in range(2)]
    while kinds[-1] != "moved":
        kinds.append(client.read(WAIT)["type"])
    assert kinds[:2] == ["moved", "ack"] and set(kinds[2:-1]) <= {"solver_queue"}, kinds
    client.close()


LATE_LOOKS = """
import sys
if "--multiprocessing-fork" in sys.argv:  # a solver worker: each move takes half a second more
    import time
    from battle.players.pool import unit_search

    move = unit_search.PoolServices._move

    def slow_move(self, *args, **kwargs):
        time.sleep(0.5)
        return move(self, *args, **kwargs)

    unit_search.PoolServices._move = slow_move
else:  # the server: its look at the pool's places comes just after each move asked, not once a second
    import battle.online.server.solving.work as work
    from battle.online.server.solving.games import SolverGames

    work.PLACES_EVERY = 3600.0
    ask = SolverGames._ask_move

    def ask_then_look(self, room, seat):
        ask(self, room, seat)
        self.work.tell_places()

    SolverGames._ask_move = ask_then_look
"""


def test_the_end_of_the_solvers_last_move_seen_late_is_no_news_of_its_next(tmp_path: Path) -> None:
    """The pool's places are looked at once a second: a look that saw the solver's last move ended only
    once the player's next move had been asked told the game "no move under way" while the next one
    waited (a page showed "The solver is about to move." for 20 s above a move queued behind a par).
    Here the look comes just after each move is asked, and a move takes the worker half a second."""
    with ServerProcess(tmp_path, "--solver-workers", "1", prelude=LATE_LOOKS) as server:
        client = Client(server.url)
        state = start_game(client)
        for ply in (1, 3):
            client.send({"type": "move", "move": a_legal_move(state), "id": f"m{ply}"})
            places = []
            while (message := client.read(WAIT))["type"] != "moved" or message["ply"] != ply + 1:
                if message["type"] == "moved":
                    state = {**state, "moves": [*state["moves"], message["move"]]}
                if message["type"] == "solver_queue":
                    places.append(message["place"])
            state = {**state, "moves": [*state["moves"], message["move"]]}
        assert places == [0], places  # the second move runs, and nothing said it ended before its moved
        client.close()


def test_the_solver_moves_first_and_a_new_connection_resumes_the_game(solver_server: ServerProcess) -> None:
    client = Client(solver_server.url)
    client.send({"type": "solver_game", "level": "club", "deal": {"random": True}, "first": "joiner"})
    token = client.expect("solver_created", WAIT)["token"]
    state = client.expect("state", WAIT)
    assert state["you"] == 2 and state["to_move"] == 1
    state = play_on(client, state, until_ply=3)
    client.close()
    again = Client(solver_server.url)
    again.send({"type": "resume", "token": token})
    resumed = again.expect("state", WAIT)
    assert resumed["game"] == state["game"] and resumed["moves"] == state["moves"]
    assert again.expect("solver", WAIT)["level"] == "club"
    assert play_on(again, resumed)["status"] == "finished"
    again.close()


def test_stats_count_a_game_against_the_solver_apart(solver_server: ServerProcess) -> None:
    client = Client(solver_server.url)
    start_game(client, first="creator")  # waits for the player's move: playing, against the solver
    _, _, body = head_and_body(http(solver_server.port, request("GET", "/stats")))
    lines = dict(line.split(" ", 1) for line in body.decode().splitlines())
    assert int(lines["solver_games_playing"]) >= 1
    assert int(lines["games_playing"]) == 0  # no game between people on this server
    assert "solver_workers" in " ".join(lines)
    client.close()


def test_the_solver_answers_no_rematch_and_no_takeback(solver_server: ServerProcess) -> None:
    client = Client(solver_server.url)
    play_on(client, start_game(client), until_ply=2)
    client.send({"type": "takeback_request"})
    assert client.error(WAIT)["code"] == "not_allowed"
    client.close()


def test_a_hint_in_a_game_between_people_is_refused_with_its_code(solver_server: ServerProcess) -> None:
    host, guest, _created, _joined = host_and_join(solver_server.url)
    host.send({"type": "hint"})
    assert host.expect("solver_refused", WAIT) == {
        "type": "solver_refused",
        "what": "hint",
        "code": "not_solver_game",
        "retry_after": None,
    }
    host.close()
    guest.close()


def test_a_server_without_a_solver_refuses_a_game_against_it(tmp_path: Path) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server:
        client = Client(server.url)
        client.send({"type": "solver_game", "level": "club", "deal": {"random": True}, "first": "creator"})
        assert client.expect("solver_refused")["code"] == "no_solver"
        client.close()


@pytest.mark.parametrize(
    ("message", "names"),
    [
        ({"level": "grandmaster", "deal": {"random": True}, "first": "creator"}, '"level"'),
        ({"level": "club", "deal": {"fair": "nearly"}, "first": "creator"}, '"deal.fair"'),
        ({"level": "club", "deal": {"daily": 1}, "first": "creator"}, '"deal.daily"'),
        ({"level": "club", "deal": {"random": True}, "first": "me"}, '"first"'),
    ],
)
def test_a_game_against_the_solver_that_does_not_read_is_refused_naming_the_field(
    tmp_path: Path, message: dict[str, Any], names: str
) -> None:
    with ServerThread(tmp_path / "games.sqlite3") as server:
        client = Client(server.url)
        client.send({"type": "solver_game", **message})
        error = client.error()
        assert error["code"] == "bad_message" and names in error["reason"]
        client.close()


def test_a_friends_finished_game_is_reviewed_and_its_link_reads_it(solver_server: ServerProcess) -> None:
    host, guest, _created, _joined = host_and_join(solver_server.url)
    host.send({"type": "review"})
    assert host.expect("solver_refused", WAIT)["code"] == "not_finished"
    host.send({"type": "record"})
    start = parse_record(host.expect("record", WAIT)["mbg"]).start
    host.send({"type": "move", "move": move_name(start.legal_moves()[0]), "id": "h1"})
    host.expect("ack", WAIT)
    guest.send({"type": "resign"})
    while host.expect("state", WAIT)["status"] != "finished":
        pass
    host.send({"type": "review"})
    queued = host.expect("review_result", WAIT)
    reader = Client(solver_server.url)  # the link, opened by anyone
    reader.send({"type": "review_get", "review": queued["review"]})
    news = reader.expect("review_result", WAIT)
    while news["status"] == "queued":
        news = reader.expect("review_result", WAIT)
    assert news["status"] == "done" and news["report"]["players"] == ["Ann", "Bob"]
    assert [move["number"] for move in news["report"]["moves"]] == [1]
    host.send({"type": "review"})  # asked again: the same review
    assert host.expect("review_result", WAIT)["review"] == queued["review"]
    for client in (host, guest, reader):
        client.close()


def test_a_hint_of_a_position_moved_past_is_stopped_not_answered(tmp_path: Path) -> None:
    """The player asks a hint on a full board (up to 4 s of solver time) and moves at once: the hint's
    search stops, its work ends without a ``hint_result`` for the position left, and the solver's
    move follows. A server of its own: the module's has this address's games of the tests before,
    which its cap on one network's games against the solver counts until they are abandoned."""
    with ServerProcess(tmp_path, "--solver-workers", "1") as server:
        hint_left_behind(server)


def hint_left_behind(server: ServerProcess) -> None:
    client = Client(server.url)
    state = start_game(client, level="beginner", deal=11)
    client.send({"type": "hint"})
    client.send({"type": "move", "move": a_legal_move(state), "id": "moved-on"})
    seen: list[dict[str, Any]] = []

    def solver_moved() -> bool:
        return any(message["type"] == "moved" and message["seat"] != state["you"] for message in seen)

    def hint_ended() -> bool:
        return any(message == {**message, "type": "solver_queue", "what": "hint", "place": None} for message in seen)

    while not (solver_moved() and hint_ended()):
        seen.append(client.read(WAIT))
    assert not [message for message in seen if message["type"] == "hint_result"], seen
    client.close()
