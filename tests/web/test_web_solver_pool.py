"""The solver pool seen from two pages through a real ``serve`` with one solver worker: while one
page's analysis holds the worker, the other page's move against the solver waits and its turn
line says its place in the queue; the analysing page leaves, its analysis is stopped (not
finished), and the solver's move arrives at once. A review asked first says place 1, then place 2
once another page's move waits: moves are served before reviews (served in the order asked, the
move's page would never read place 1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from battle.rules.deal import deal
from battle.rules.notation import format_position
from tests.online_server import Client, ServerProcess
from tests.web.game_pages import click_pair, new_page, wait_ply
from tests.web.test_web_solver import endgame, open_solver_game, play_solver, play_to_the_end

STEPS_OF_TEN_MINUTES = "import battle.online.server.analysis_boards as boards; boards.ANALYSIS_STEP_NODES = 600_000_000"
"""Each step of an analysis may search 600 M nodes, ten minutes: only its stop frees the worker within a test."""


DEPTH_SHOWN = (
    "() => Number((document.getElementById('analysis-status').textContent"
    ".match(/Estimates (\\d+) moves deep/) || [])[1] || 0)"
)
"""The depth of the deepest step the analysis board shows, 0 before the first."""


def analysing(browser: Any, server: ServerProcess) -> Any:
    """A page whose analysis board on deal 6 (kernels loaded) shows depth 16: its search to the end,
    queued as depth 16 ended, holds the only worker for minutes. The depths before end within
    seconds on a full board, a move asked during one of them runs between two steps."""
    analyst = new_page(browser)
    analyst.goto(server.base + "/analysis/")
    analyst.fill("#analysis-text", format_position(deal(6)))
    analyst.click("#analysis-button")
    analyst.wait_for_function(f"() => ({DEPTH_SHOWN})() >= 16", timeout=120_000)
    return analyst


def waiting_move(browser: Any, server: ServerProcess) -> Any:
    """A page whose move against club waits for the busy worker, its turn line saying place 1."""
    player = new_page(browser)
    play_solver(player, server.base, level="club", deal=4, first="creator")
    click_pair(player)
    player.wait_for_selector("body[data-solver='1']")  # its place, in the page's words:
    assert "place 1 in the queue" in player.text_content("#turn")
    return player


def test_a_move_waits_with_its_place_and_goes_once_the_analysing_page_leaves(browser: Any, tmp_path: Path) -> None:
    flags = ("--solver-workers", "1", "--solver-budget", "3600")  # a budget that holds a ten-minute step
    with ServerProcess(tmp_path, *flags, prelude=STEPS_OF_TEN_MINUTES) as server:
        analyst = analysing(browser, server)
        player = waiting_move(browser, server)
        analyst.click("#home-link")  # the analysis board closes its line: the server stops its search
        wait_ply(player, 2)
        assert player.errors == [] and analyst.errors == []


def test_a_review_asked_first_waits_behind_a_move_asked_later(browser: Any, tmp_path: Path) -> None:
    flags = ("--solver-workers", "1", "--solver-budget", "3600")
    with ServerProcess(tmp_path, *flags, prelude=STEPS_OF_TEN_MINUTES) as server:
        reviewer = new_page(browser)  # a short game against beginner, played out while the worker is free
        open_solver_game(reviewer, server, endgame(8, left=5), "beginner")
        play_to_the_end(reviewer)
        analyst = analysing(browser, server)  # then an analysis holds the only worker

        reviewer.click("#review-game")  # the review is asked first: alone in the queue
        reviewer.wait_for_function(
            "() => document.getElementById('review-status').textContent.includes('place 1 in the queue')"
        )
        player = waiting_move(browser, server)  # a move asked later goes ahead of it
        reviewer.wait_for_function(
            "() => document.getElementById('review-status').textContent.includes('place 2 in the queue')"
        )

        analyst.click("#home-link")  # the worker is free: the move first, then the review
        wait_ply(player, 2)
        reviewer.wait_for_selector("body[data-review=done]")
        assert player.errors == [] and reviewer.errors == [] and analyst.errors == []


SECONDS_SHOWN = (
    "() => Number((document.getElementById('analysis-status').textContent.match(/Asking again in (\\d+) second/)"
    " || [])[1] || 0)"
)
"""The seconds the analysis board says it waits before it asks again, 0 when it says none."""


def test_a_refused_analysis_counts_its_wait_down_and_asks_again(browser: Any, tmp_path: Path) -> None:
    flags = ("--solver-workers", "1", "--solver-budget", "8", "--solver-refill", "1")
    with ServerProcess(tmp_path, *flags, prelude=STEPS_OF_TEN_MINUTES) as server:
        spender = Client(server.url)  # the page's address: a long step holds its whole 8 s
        spender.send({"type": "analyse", "id": "big", "position": format_position(deal(6))})
        while (message := spender.read(60))["type"] != "analysis_result" or message["evaluation"]["depth"] < 16:
            pass
        page = new_page(browser)
        page.goto(server.base + "/analysis/")
        page.fill("#analysis-text", endgame(8, left=6))
        page.click("#analysis-button")  # refused: the 5 s of its first step wait for the bucket
        page.wait_for_function(f"() => ({SECONDS_SHOWN})() > 1")
        status = page.text_content("#analysis-status")
        assert status.startswith("The solver time of your address is spent for now. Asking again in "), status
        first = page.evaluate(SECONDS_SHOWN)
        page.wait_for_function(f"() => ({SECONDS_SHOWN})() === {first - 1}")  # counted down on the page
        spender.close()  # its step stops, the worker is free: the page's next ask runs at once
        page.wait_for_selector("body[data-analysis='a2:final']")  # at 0 it asked again, itself
        assert page.errors == []


TURN_SECONDS = (
    "() => Number((document.getElementById('turn').textContent.match(/it starts in (\\d+) second/) || [])[1] || 0)"
)
"""The seconds the turn line says the solver's move waits for its address's solver time, 0 for none."""


def test_a_move_past_its_budget_counts_its_wait_down_on_the_turn_line(browser: Any, tmp_path: Path) -> None:
    flags = ("--solver-workers", "2", "--solver-budget", "10", "--solver-refill", "0.2")
    with ServerProcess(tmp_path, *flags) as server:
        spender = Client(server.url)  # the page's address: a perfect move's 10 s hold its whole budget
        spender.send({"type": "solver_game", "level": "perfect", "deal": {"number": 5}, "first": "joiner"})
        while spender.expect("solver_queue", 60)["place"] != 0:
            pass
        player = new_page(browser)
        play_solver(player, server.base, level="club", deal=4, first="creator")
        click_pair(player)  # the club move's 2 s wait for the bucket, at 0.2 s a second
        player.wait_for_function(f"() => ({TURN_SECONDS})() > 1")
        first = player.evaluate(TURN_SECONDS)
        assert "The solver's move waits for your address's solver time" in player.text_content("#turn")
        player.wait_for_function(f"() => ({TURN_SECONDS})() === {first - 1}")  # counted down on the page
        wait_ply(player, 2)  # and played once the bucket paid
        assert player.errors == []
        spender.close()
