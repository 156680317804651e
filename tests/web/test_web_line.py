"""A dead line, the way a player meets one: the server stops answering (SIGSTOP: the sockets stay
open, nothing comes back) or the browser goes offline. The page's own heartbeat says the line is
down (never "Connected"), a move made meanwhile says why it waits, and once the line is back the
move arrives, once. Every wait is for words on the page."""

from __future__ import annotations

import signal
from typing import Any

from tests.online_server import ServerProcess
from tests.web.conftest import Served
from tests.web.game_pages import click_pair, host, join, mover, new_page, play_turns, wait_ply
from tests.web.test_web_solver import play_solver

DOWN = "the line seems down"
WAITS = "Your move waits for the line to the server"


def two_players(browser: Any, served: Served, deal: int) -> tuple[Any, Any]:
    ann = new_page(browser)
    bob = new_page(browser)
    join(bob, host(ann, served.base, "Ann", deal=deal))
    play_turns([ann, bob], turns=1)
    return ann, bob


def test_a_stopped_server_is_a_line_down_and_the_move_goes_when_it_answers(browser: Any, served: Served) -> None:
    ann, bob = two_players(browser, served, deal=11)
    player = mover([ann, bob])
    served.signal_all(signal.SIGSTOP)
    try:
        for page in (ann, bob):
            page.wait_for_selector(f"#link:has-text('{DOWN}')")
            assert "Connected" not in page.text_content("#link")
        assert "moves are sent when it is back" in player.text_content("#turn")
        sent = click_pair(player)
        player.wait_for_selector(f"#turn:has-text('{WAITS}')")
    finally:
        served.signal_all(signal.SIGCONT)
    for page in (ann, bob):
        wait_ply(page, 2)
        page.wait_for_selector('#link[data-state="connected"]')
    assert sent in ann.text_content("#moves") and ann.text_content("#moves").count(sent) == 1
    assert ann.errors == bob.errors == []


def test_a_browser_gone_offline_says_so_at_once_and_sends_the_move_when_back(browser: Any, served: Served) -> None:
    ann, bob = two_players(browser, served, deal=12)
    player = mover([ann, bob])
    other = bob if player is ann else ann
    player.context.set_offline(True)
    try:
        player.wait_for_selector(f"#link:has-text('{DOWN}')")
        sent = click_pair(player)
        player.wait_for_selector(f"#turn:has-text('{WAITS}')")
    finally:
        player.context.set_offline(False)
    for page in (player, other):
        wait_ply(page, 2)
    player.wait_for_selector('#link[data-state="connected"]')
    assert other.text_content("#moves").count(sent) == 1


def test_while_the_line_is_down_the_turn_line_says_so_and_nothing_of_the_solver(browser: Any, tmp_path: Any) -> None:
    """A game against perfect: the player moves, the solver thinks (10 million nodes on a full board);
    the browser goes offline: the turn line says the line is down and no longer what the solver does,
    whose news cannot come; back online, the solver's move arrives."""
    with ServerProcess(tmp_path, "--solver-workers", "1") as server:
        player = new_page(browser)
        play_solver(player, server.base, level="perfect", deal=7, first="creator")
        click_pair(player)
        player.wait_for_selector("#turn:has-text('The solver')")  # it thinks, or waits its turn
        player.context.set_offline(True)
        try:
            player.wait_for_selector(f"#link:has-text('{DOWN}')")
            player.wait_for_function("() => !document.getElementById('turn').textContent.includes('The solver')")
            assert "The line to the server is down" in player.text_content("#turn")
        finally:
            player.context.set_offline(False)
        player.wait_for_selector('body[data-ply="2"]', timeout=180_000)  # a perfect move: seconds of a busy machine
        assert player.errors == []
