"""The par at a game's end on the page: a deal no catalogue knows, from a position a friend hosted,
is worked out by the server's solver while the game is played, and the page's end says the par and
each player's result against it in whole sentences, read from the numbers. A real ``serve`` with a
solver on 127.0.0.1 and Debian's Chromium; every wait is for something on the page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from battle.players import Advisor
from battle.rules.deal import deal
from battle.rules.notation import format_position, parse_position
from tests.online_server import Client, a_legal_move, with_an_unproved_par
from tests.web.conftest import Served
from tests.web.game_pages import click_pair, join, new_page, wait_ply


def endgame(number: int, tiles: int) -> str:
    position = deal(number)
    while position.tiles_left() > tiles:
        position.push(position.legal_moves()[-1])
    return format_position(position)


def played(browser: Any, served: Served, text: str) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """A friend's game from ``text`` (.mbp) hosted by Ann's client and joined by Bob's page, played to
    its end (each moves its first free pair); Bob's page, the last state and Ann's ``created``."""
    host = Client(served.url, "Ann")
    host.send({"type": "create", "deal": {"position": text}, "first": "creator", "name": "Ann"})
    created = host.expect("created")
    state = host.expect("state")
    page = new_page(browser)
    join(page, f"{served.base}/join/{created['invite_secret']}", "Bob")
    assert page.is_hidden("#par-card")  # nothing of the par before the end
    while state["status"] != "playing":
        state = host.expect("state")
    for _ in range(len(parse_position(text).legal_moves()) + 20):  # 14 tiles: at most 7 moves
        if state["status"] != "playing":
            break
        count = len(state["moves"])
        if state["to_move"] == created["seat"]:
            host.send({"type": "move", "move": a_legal_move(state), "id": f"m{count}"})
        else:
            click_pair(page)
        moved = host.expect("moved")
        state = {
            **state,
            "moves": [*state["moves"], moved["move"]],
            "to_move": moved["to_move"],
            "status": moved["status"],
            "scores": moved["scores"],
        }
        wait_ply(page, count + 1)
    page.wait_for_selector('body[data-status="finished"]')
    host.close()
    return page, state, created


def resigned_after_a_move(url: str, text: str) -> tuple[Client, Client, dict[str, Any]]:
    """A friend's game from ``text`` (.mbp): Ann hosts, Bob joins, the player to move takes a pair and
    Ann resigns. Ann's and Bob's connections and Ann's ``created``."""
    host = Client(url, "Ann")
    host.send({"type": "create", "deal": {"position": text}, "first": "creator", "name": "Ann"})
    created = host.expect("created")
    guest = Client(url, "Bob")
    guest.send({"type": "join", "code": created["invite"], "name": "Bob"})
    state = guest.expect("state")
    while state["status"] != "playing":
        state = guest.expect("state")
    mover = host if state["to_move"] == created["seat"] else guest
    mover.send({"type": "move", "move": a_legal_move(state), "id": "m0"})
    host.expect("moved")
    host.send({"type": "resign"})
    while host.expect("state")["status"] != "finished":
        pass
    return host, guest, created


def test_the_end_of_a_game_on_a_new_deal_says_its_par_and_each_players_result_against_it(
    browser: Any, tmp_path: Path
) -> None:
    """The par worked out while the game is played, then the next game's refused: one new deal's
    par an hour for the network (``--pars-per-hour 1``)."""
    text = endgame(4, 14)
    start = parse_position(text)
    found = Advisor(megabytes=16).search(start)
    assert found.exact
    value = found.value + start.scores[start.to_move - 1] - start.scores[2 - start.to_move]  # the final margin
    with Served(tmp_path, "--solver-workers", "1", "--pars-per-hour", "1") as served:
        page, state, created = played(browser, served, text)
        page.wait_for_function("() => document.querySelector('#par-line').textContent.includes('perfect play')")
        line = str(page.text_content("#par-line"))
        scores = state["scores"]
        first = start.to_move
        difference = scores[0] - scores[1] - (value if first == 1 else -value)
        said = {1: _against(difference), 2: _against(-difference)}
        names = {created["seat"]: "Ann", 3 - created["seat"]: "Bob"}
        head = (
            "Par: even (a draw under perfect play)."
            if value == 0
            else f"Par: {value:+d} for {names[first]} under perfect play."
        )
        assert line == f"{head} {names[1]}: {said[1]}; {names[2]}: {said[2]}.", line
        assert page.errors == []

        again, _state, _created = played(browser, served, endgame(5, 14))  # another new deal, within the hour
        refused = (  # an hour less the seconds since the first game's ask, in whole minutes
            r"^Par: not worked out yet: your network has asked for as many new deals' pars as it may this hour\. "
            r"The page asks again in (5\d|60) minutes\.$"
        )
        again.wait_for_function(
            "said => new RegExp(said).test(document.querySelector('#par-line').textContent)", arg=refused
        )
        assert again.errors == []


def test_while_the_server_works_out_a_par_the_end_says_the_least_it_can_be_then_the_par(
    browser: Any, tmp_path: Path
) -> None:
    """An 88-tile start whose par takes the pool two slices of its search (about 17 million nodes; the
    first proves the first root move's value): Ann and Bob play a move and Ann resigns, then Eve opens
    the game to watch it, and her page, whose ask starts the search, says "at least" while the second
    slice runs, then the par, never less than the least it said."""
    text = endgame(7, 88)
    start = parse_position(text)
    with Served(tmp_path, "--solver-workers", "1") as served:
        host, guest, created = resigned_after_a_move(served.url, text)
        page = new_page(browser)
        page.goto(f"{served.base}/watch/{created['watch']}")
        page.wait_for_selector('body[data-status="finished"]')
        names = {created["seat"]: "Ann", 3 - created["seat"]: "Bob"}
        first = names[start.to_move]
        page.wait_for_function(
            "() => document.querySelector('#par-line').textContent.includes('So far it is at least')", timeout=240_000
        )
        working = str(page.text_content("#par-line"))
        said = re.fullmatch(
            r"Par: (?:being worked out by the server's solver|waiting for the server's solver, place \d+ in its "
            r"queue)\. So far it is at least (?:even|(?P<least>[+-]\d+) for (?P<name>\w+))\.",
            working,
        )
        assert said is not None, working
        assert said["name"] in (None, first)
        page.wait_for_function(
            "() => document.querySelector('#par-line').textContent.includes('perfect play')", timeout=240_000
        )
        known = str(page.text_content("#par-line"))
        par = re.match(r"Par: (?:even|(?P<value>[+-]\d+) for (?P<name>\w+)) ", known)
        assert par is not None and par["name"] in (None, first), known
        assert int(said["least"] or 0) <= int(par["value"] or 0)
        assert page.errors == []
        host.close()
        guest.close()


def test_a_par_the_server_could_not_prove_says_so_with_the_least_it_proved(browser: Any, tmp_path: Path) -> None:
    """A deal whose search ran out of its nodes (a row of the server's ``pars`` saying so, with the
    least it proved): the end of a game on it says the par is not proved, and what was."""
    text = endgame(14, 30)
    start = parse_position(text)
    with_an_unproved_par(tmp_path, text, 2)
    least = 2 + start.scores[start.to_move - 1] - start.scores[2 - start.to_move]  # the margin, as a par's
    with Served(tmp_path, "--solver-workers", "1") as served:
        host, guest, created = resigned_after_a_move(served.url, text)
        page = new_page(browser)
        page.goto(f"{served.base}/watch/{created['watch']}")
        page.wait_for_function("() => document.querySelector('#par-line').textContent.includes('not proved')")
        names = {created["seat"]: "Ann", 3 - created["seat"]: "Bob"}
        said = (
            "So far it is at least even."
            if least == 0
            else f"So far it is at least {least:+d} for {names[start.to_move]}."
        )
        assert page.text_content("#par-line") == (
            f"Par: not proved: this deal takes the server's solver longer than it spends on one. {said}"
        )
        assert page.errors == []
        host.close()
        guest.close()


def _against(difference: int) -> str:
    if difference == 0:
        return "on par"
    count = abs(difference)
    unit = "point" if count == 1 else "points"
    return f"{count} {unit} {'better' if difference > 0 else 'worse'} than par"
