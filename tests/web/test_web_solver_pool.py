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
from tests.online_server import ServerProcess
from tests.web.game_pages import click_pair, new_page, wait_ply
from tests.web.test_web_solver import endgame, open_solver_game, play_solver, play_to_the_end

STEPS_OF_TEN_MINUTES = "import battle.online.server.analysis_boards as boards; boards.ANALYSIS_STEP_NODES = 600_000_000"
"""Each depth of an analysis may search 600 M nodes, ten minutes: only its stop frees the worker within a test."""


def analysing(browser: Any, server: ServerProcess) -> Any:
    """A page whose analysis board deepens on deal 6 (kernels loaded): it holds the only worker."""
    analyst = new_page(browser)
    analyst.goto(server.base + "/analysis/")
    analyst.fill("#analysis-text", format_position(deal(6)))
    analyst.click("#analysis-button")
    analyst.wait_for_selector("body[data-analysis$=':step']", timeout=120_000)
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
