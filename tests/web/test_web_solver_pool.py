"""The solver pool seen from pages through a real ``serve`` with one solver worker: while one page's
analysis board searches to the end (minutes of work, in slices), another page's move against the
solver is answered between two of its slices and the analysis goes on; a review asked meanwhile
waits behind the analysis, says its place, and runs once the analysing page has left (its search
stopped, not finished). Refusals for an address's spent solver time are counted down on the page."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from battle.rules.deal import deal
from battle.rules.notation import format_position
from tests.online_server import Client, ServerProcess
from tests.web.game_pages import click_pair, new_page, wait_ply
from tests.web.test_web_solver import endgame, open_solver_game, play_solver, play_to_the_end

STEPS_OF_TEN_MINUTES = (
    "import battle.online.server.solving.analysis_boards as boards; boards.ANALYSIS_STEP_NODES = 600_000_000"
)
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


LOOKING_DEEPER = "() => document.getElementById('analysis-status').textContent.includes('looking deeper')"
"""The analysis board still searches (its last step not yet answered)."""


def test_a_move_goes_between_two_slices_of_another_pages_analysis(browser: Any, tmp_path: Path) -> None:
    flags = ("--solver-workers", "1", "--solver-budget", "3600")  # a budget that holds a ten-minute step
    with ServerProcess(tmp_path, *flags, prelude=STEPS_OF_TEN_MINUTES) as server:
        analyst = analysing(browser, server)
        player = new_page(browser)
        play_solver(player, server.base, level="club", deal=4, first="creator")
        click_pair(player)
        wait_ply(player, 2)  # the club move, between two slices of the ten-minute search
        assert analyst.evaluate(LOOKING_DEEPER)  # which goes on
        analyst.click("#home-link")  # the analysis board closes its line: the server stops its search
        deadline = time.monotonic() + 60
        while (running := server.stats()["solver_running"]) != "0":
            assert time.monotonic() < deadline, f"the analysis still runs: solver_running {running}"
            time.sleep(0.1)
        assert player.errors == [] and analyst.errors == []


def test_a_review_waits_behind_an_analysis_while_a_move_goes_between_its_slices(browser: Any, tmp_path: Path) -> None:
    flags = ("--solver-workers", "1", "--solver-budget", "3600")
    with ServerProcess(tmp_path, *flags, prelude=STEPS_OF_TEN_MINUTES) as server:
        reviewer = new_page(browser)  # a short game against beginner, played out while the worker is free
        open_solver_game(reviewer, server, endgame(8, left=5), "beginner")
        play_to_the_end(reviewer)
        analyst = analysing(browser, server)  # then an analysis searches to the end, slice by slice

        reviewer.click("#review-game")  # a review comes after every analysis and move
        reviewer.wait_for_function(
            "() => document.getElementById('review-status').textContent.includes('place 1 in the queue')"
        )
        # the analysis goes first, whole: roughly its seconds are said as other players' work ahead
        assert re.search(r"ahead of it: about \d+ seconds?\.$", str(reviewer.text_content("#review-status")))
        player = new_page(browser)
        play_solver(player, server.base, level="club", deal=4, first="creator")
        click_pair(player)
        wait_ply(player, 2)  # the move asked later is answered between two of the analysis's slices
        assert "in the queue" in reviewer.text_content("#review-status")  # the review still waits

        analyst.click("#home-link")  # the analysis stops: the review runs
        reviewer.wait_for_selector("body[data-review=done]")
        assert player.errors == [] and reviewer.errors == [] and analyst.errors == []


SECONDS_SHOWN = (
    "() => Number((document.getElementById('analysis-status').textContent.match(/Asking again in (\\d+) second/)"
    " || [])[1] || 0)"
)
"""The seconds the analysis board says it waits before it asks again, 0 when it says none."""


TEXT_HISTORY = """(id) => {
  window.textHistory = [];
  const element = document.getElementById(id);
  new MutationObserver(() => {
    const last = window.textHistory[window.textHistory.length - 1];
    const text = element.textContent;
    if (!last || last[1] !== text) window.textHistory.push([Math.round(performance.now()), text]);
  }).observe(element, { childList: true, characterData: true, subtree: true });
}"""
"""Records each new text of the element of an id with the page's clock (``window.textHistory``)."""


def counted_down(page: Any, first: int, words: str) -> None:
    """The counts of ``words`` (a pattern of one number) the page showed from ``first`` on went down
    and never up, by its own record: each count lasts a second, which a wait from here for the
    next one can miss on a loaded machine (a flake-hunt run beside two busy loops did)."""
    history = page.evaluate("window.textHistory")
    counts = [int(found[1]) for _, text in history if (found := re.search(words, text))]
    counted = counts[counts.index(first) :]
    assert counted == sorted(counted, reverse=True) and counted[-1] < first, (first, history)


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
        page.evaluate(TEXT_HISTORY, "analysis-status")
        page.click("#analysis-button")  # refused: the 5 s of its first step wait for the bucket
        page.wait_for_function(f"() => ({SECONDS_SHOWN})() > 1")
        status = page.text_content("#analysis-status")
        assert status.startswith("The solver time of your address is spent for now. Asking again in "), status
        first = page.evaluate(SECONDS_SHOWN)
        spender.close()  # its step stops, the worker is free: the page's next ask runs at once
        page.wait_for_selector("body[data-analysis='a2:final']")  # at 0 it asked again, itself
        counted_down(page, first, r"Asking again in (\d+) second")
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
        player.evaluate(TEXT_HISTORY, "turn")
        click_pair(player)  # the club move's 2 s wait for the bucket, at 0.2 s a second
        player.wait_for_function(f"() => ({TURN_SECONDS})() > 1")
        first = player.evaluate(TURN_SECONDS)
        assert "The solver's move waits for your address's solver time" in player.text_content("#turn")
        wait_ply(player, 2)  # played once the bucket paid
        counted_down(player, first, r"it starts in (\d+) second")
        assert player.errors == []
        spender.close()
