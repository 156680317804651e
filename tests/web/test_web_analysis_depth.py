"""How far the analysis board goes, in Chromium against a real ``serve`` with one solver worker: the
deepening is bounded in nodes, never in wall clock, so a position that needs more than one step's
nodes goes on to exact values while the page is open; and when it stops short, the board says why
(the largest search the server gives one board, or the address's solver time spent). Each server is
a busy one in small: a step of the deepening gets a few thousand nodes (or, where a step is
timed, 20 ms of wall clock), so the deepening takes many steps within a few seconds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.i18n.language_guard import Screen, report
from tests.online_server import ServerProcess
from tests.web.game_pages import DESKTOP, new_page
from tests.web.test_web_analysis import expected_values, final_values
from tests.web.test_web_solver import endgame

SMALL_STEPS = "import battle.online.server.solving.analysis_boards as boards; boards.ANALYSIS_STEP_NODES = {nodes}\n"
KERNELS_MS = 120_000
DEEPENING_MS = 240_000
"""The bound of the wait for the last of some 60 steps of 20,000 nodes, each a unit of the pool:
seconds on a quiet machine, over 20 s beside other work (load 8). Only a hang reaches it."""
POSITION = endgame(11, left=40)
"""80 tiles that `analyse` solves in about 1.2 M nodes: more than a step's, less than the largest search's."""


def analyse_on_the_page(browser: Any, server: ServerProcess, position: str, locale: str = "en-US") -> Any:
    page = new_page(browser, **DESKTOP, locale=locale)
    page.goto(server.base + "/analysis/")
    page.wait_for_selector("#analysis:not([hidden])")
    page.fill("#analysis-text", position)
    page.click("#analysis-button")
    # the first step waits for the new server's worker to load the solver's kernels: seconds on a
    # quiet machine, more on a loaded one
    page.wait_for_function("() => document.body.dataset.analysis", timeout=KERNELS_MS)
    return page


def test_the_board_deepens_by_nodes_until_exact_on_a_busy_server(browser: Any, tmp_path: Path) -> None:
    prelude = SMALL_STEPS.format(nodes=20_000)
    with ServerProcess(tmp_path / "server", "--solver-workers", "1", prelude=prelude) as server:
        page = analyse_on_the_page(browser, server, POSITION)
        assert final_values(page, DEEPENING_MS) == expected_values(POSITION, tmp_path)
        assert page.text_content("#analysis-status") == "Exact values: the solver has searched to the end."
        assert page.errors == []


def test_the_board_says_why_it_stops_short_of_exact(browser: Any, tmp_path: Path) -> None:
    largest = SMALL_STEPS.format(nodes=20_000) + "boards.ANALYSIS_MOST_NODES = 40_000\n"
    with ServerProcess(tmp_path / "largest", "--solver-workers", "1", prelude=largest) as server:
        page = analyse_on_the_page(browser, server, POSITION)
        page.wait_for_selector("body[data-analysis$=':final']")
        status = page.text_content("#analysis-status")
        assert "the solver stops here, at the largest search this server gives one board" in status, status
        assert page.locator("#analysis-moves tr[data-bound=exact]").count() == 0
    # a second of solver time (3 steps of 300,000 nodes), regained so slowly that the page's retry stays far off
    budget = ("--solver-workers", "1", "--solver-budget", "1", "--solver-refill", "0.001")
    with ServerProcess(tmp_path / "budget", *budget, prelude=SMALL_STEPS.format(nodes=300_000)) as server:
        page = analyse_on_the_page(browser, server, POSITION, locale="de-DE")  # said in the reader's language
        page.wait_for_selector("#analysis-status:has-text('verbraucht')")
        status = page.text_content("#analysis-status")
        assert status.startswith("Schätzungen, ") and "Züge tief." in status, status
        assert "Die Solver-Zeit deiner Adresse ist für den Moment verbraucht." in status, status
        assert page.locator("#analysis-moves tr").count() > 0  # the deepest values found are kept
        assert report([Screen("an analysis stopped by the budget", page.inner_text("body"))], "de") == ""
