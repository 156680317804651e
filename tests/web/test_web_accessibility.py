"""Every screen of the page checked by axe-core in Chromium, at a desktop's size and a phone's, against
a real ``serve`` with its solver: home, a friend's link with the name asked beside the board, the game,
a takeback asked, the resign dialog, the end, a watcher, a game against the solver, the analysis
board (empty and analysing), a review. None may have a critical or serious violation; a failure
prints each one with the elements it is on."""

from __future__ import annotations

from typing import Any

from tests.online_server import ServerProcess
from tests.web.accessibility import axe_script, described, violations
from tests.web.game_pages import DESKTOP, click_pair, host, new_page, wait_ply
from tests.web.test_web_solver import endgame, open_solver_game, play_to_the_end, solver_served

__all__ = ["solver_served"]  # the module's server, shared with the solver's game tests

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def test_no_screen_has_a_critical_or_serious_accessibility_violation(
    browser: Any, solver_served: ServerProcess
) -> None:
    axe_script()
    found: dict[str, list[dict[str, Any]]] = {}

    def check(page: Any, screen: str) -> None:
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            found[f"{screen} ({size})"] = violations(page)

    def a_page() -> Any:
        return new_page(browser, **DESKTOP, bypass_csp=True)  # axe goes in as a script of the test's

    ann, bob, eve = a_page(), a_page(), a_page()
    base = solver_served.base
    ann.goto(base + "/")
    ann.wait_for_selector("#home:not([hidden])")
    check(ann, "home")
    link = host(ann, base, "Ann", deal=3, first="creator")
    check(ann, "waiting for the friend")
    watch = ann.text_content("#watch-code")
    bob.goto(link)
    bob.wait_for_selector("#name-ask:not([hidden])")
    check(bob, "a friend's link, the name asked")
    bob.fill("#name-ask input[name=name]", "Bob")
    bob.click("#name-ask-button")
    bob.wait_for_selector("#name-ask", state="hidden")
    eve.goto(f"{base}/watch/{watch}")
    eve.wait_for_selector("body[data-playable]")
    click_pair(ann)
    for page in (ann, bob, eve):
        wait_ply(page, 1)
    bob.click("#board .cell.playable >> nth=0")  # a tile picked: the board as it is mid-move
    check(ann, "the game")
    check(eve, "a watcher")
    ann.click("#takeback")
    bob.wait_for_selector("#offer:not([hidden])")
    check(bob, "a takeback asked")
    bob.click("#offer-no")
    bob.click("#resign")
    bob.wait_for_selector("#confirm[open]")
    check(bob, "resign?")
    bob.click("#confirm-yes")
    ann.wait_for_selector('body[data-status="finished"]')
    check(ann, "the end")

    solver = a_page()
    open_solver_game(solver, solver_served, endgame(8, left=7), "beginner")
    solver.wait_for_selector("#solver-panel", state="visible")
    check(solver, "a game against the solver")
    play_to_the_end(solver)
    solver.click("#review-game")
    solver.wait_for_selector("body[data-review=done]")
    check(solver, "a review")
    analysis = a_page()
    analysis.goto(base + "/analysis/")
    analysis.wait_for_selector("#analysis:not([hidden])")
    check(analysis, "the analysis board, empty")
    analysis.fill("#analysis-text", endgame(5, left=8))
    analysis.click("#analysis-button")
    analysis.wait_for_selector("body[data-analysis$=':final']")
    check(analysis, "the analysis board")

    assert described(found) == ""
