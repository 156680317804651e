"""Every game's par from the server, through real sockets: a catalogued deal's at once, any other
worked out by the pool at its lowest priority, kept for every later game on the deal (across a
restart too), and refused past a network's pars an hour with the seconds to wait."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from battle.atlas.catalogue import Catalogue
from battle.players import Advisor
from battle.rules.board import move_name
from battle.rules.deal import deal
from battle.rules.notation import format_position, parse_position
from tests.online_server import Client, ServerProcess, a_legal_move, with_an_unproved_par

WAIT = 120.0
"""The longest a par is waited for: a small position's, on a loaded machine with the worker starting."""


@pytest.fixture(scope="module")
def par_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("pars"), "--solver-workers", "1", "--pars-per-hour", "2") as server:
        yield server


def endgame(number: int, tiles: int) -> str:
    """Deal ``number`` with the last pair in the list taken until ``tiles`` are left, as ``.mbp`` text."""
    position = deal(number)
    while position.tiles_left() > tiles:
        position.push(position.legal_moves()[-1])
    return format_position(position)


def hosted(url: str, deal_field: dict[str, Any], forwarded_for: str | None = None) -> tuple[Client, dict[str, Any]]:
    """A new friend's game on ``deal_field`` and its host's connection."""
    host = Client(url, "Ann", forwarded_for=forwarded_for)
    host.send({"type": "create", "deal": deal_field, "first": "creator", "name": "Ann"})
    created = host.expect("created")
    host.expect("state")
    return host, created


def final_news(client: Client) -> dict[str, Any]:
    """The par's news until it is no longer being worked out."""
    news = client.expect("par_result", WAIT)
    while news["status"] == "working":
        news = client.expect("par_result", WAIT)
    return news


def test_a_catalogued_deals_par_comes_at_once(par_server: ServerProcess) -> None:
    host, created = hosted(par_server.url, {"number": 5})
    host.send({"type": "par"})
    news = host.expect("par_result")
    par = Catalogue.load().par(5)
    assert par is not None
    assert (news["game"], news["status"], news["value"]) == (created["game"], "known", par.value)
    assert news["best_moves"]
    host.close()


def test_a_new_deals_par_is_worked_out_and_kept_for_the_next_game(par_server: ServerProcess) -> None:
    text = endgame(11, 26)
    host, created = hosted(par_server.url, {"position": text})
    host.send({"type": "par"})
    first = host.expect("par_result", WAIT)
    assert first["status"] == "working" and first["game"] == created["game"]
    news = final_news(host)
    expected = Advisor(megabytes=32).search(parse_position(text))
    assert expected.exact
    start = parse_position(text)  # the par is the first player's final margin: the scores so far count
    margin = start.scores[start.to_move - 1] - start.scores[2 - start.to_move]
    assert (news["status"], news["value"]) == ("known", expected.value + margin)
    assert set(news["best_moves"]) == {move_name(move) for move in expected.best_moves}
    host.close()

    again, _ = hosted(par_server.url, {"position": text})
    again.send({"type": "par"})
    kept = again.expect("par_result")
    assert (kept["status"], kept["value"], kept["best_moves"]) == ("known", news["value"], news["best_moves"])
    again.close()


def test_a_network_past_its_pars_an_hour_is_refused_with_the_wait_and_another_is_not(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--solver-workers", "1", "--pars-per-hour", "1", "--trust-proxy") as server:
        first, _ = hosted(server.url, {"position": endgame(12, 20)}, forwarded_for="203.0.113.5")
        first.send({"type": "par"})
        assert first.expect("par_result", WAIT)["status"] == "working"
        second, created = hosted(server.url, {"position": endgame(13, 20)}, forwarded_for="203.0.113.5")
        second.send({"type": "par"})
        refused = second.expect("par_result")
        assert (refused["game"], refused["status"], refused["why"]) == (created["game"], "refused", "per_hour")
        assert 3000 < refused["retry_after"] <= 3600  # one par an hour: the next in about an hour
        other, _ = hosted(server.url, {"position": endgame(13, 20)}, forwarded_for="198.51.100.7")
        other.send({"type": "par"})
        assert other.expect("par_result", WAIT)["status"] == "working"  # another network's own hour
        assert final_news(other)["status"] == "known"
        assert final_news(first)["status"] == "known"
        for client in (first, second, other):
            client.close()


def test_a_par_the_budget_did_not_prove_says_the_least_its_search_proved(tmp_path: Path) -> None:
    """A deal whose search ran out of nodes keeps the least it proved (a row of ``pars`` as the pool's
    last standing left it), told as a margin with the scores so far, and is not worked out again."""
    text = endgame(14, 30)
    start = parse_position(text)
    with_an_unproved_par(tmp_path, text, -3)
    with ServerProcess(tmp_path, "--solver-workers", "1") as server:
        host, created = hosted(server.url, {"position": text})
        host.send({"type": "par"})
        news = host.expect("par_result", WAIT)
        margin = start.scores[start.to_move - 1] - start.scores[2 - start.to_move]
        assert (news["game"], news["status"], news["at_least"], news["value"]) == (
            created["game"],
            "unproved",
            -3 + margin,
            None,
        )
        host.close()


def test_a_par_at_work_on_the_only_worker_never_holds_up_the_solvers_moves(par_server: ServerProcess) -> None:
    """A whole deal's par takes minutes: while it holds the pool's one worker, a game against the
    solver is played on, the par ending a slice for each of the solver's moves, and still working."""
    number = 987_654_321
    assert Catalogue.load().par(number) is None
    watcher, _ = hosted(par_server.url, {"number": number})
    watcher.send({"type": "par"})
    news = watcher.expect("par_result", WAIT)
    while news["place"] != 0:
        news = watcher.expect("par_result", WAIT)
    player = Client(par_server.url, "Cy")
    player.send({"type": "solver_game", "level": "expert", "deal": {"number": 4}, "first": "creator"})
    player.expect("solver_created", WAIT)
    state = player.expect("state", WAIT)
    for ply in range(0, 6, 2):  # three moves each: every one of the solver's comes
        player.send({"type": "move", "move": a_legal_move(state), "id": f"m{ply}"})
        for _ in range(2):
            moved = player.expect("moved", WAIT)
            state = {**state, "moves": [*state["moves"], moved["move"]], "to_move": moved["to_move"]}
    assert len(state["moves"]) == 6
    watcher.send({"type": "par"})  # asked again: still at work, and nobody asked it to start over
    assert watcher.expect("par_result", WAIT)["status"] == "working"
    for client in (watcher, player):
        client.close()
