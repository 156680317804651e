"""The puzzles in Chromium through a real ``serve``: one puzzle solved and one failed, the rating the
page shows moving exactly as the window's history moves it for the same results, the wrong move's
loss and the solver's refutation, a reload keeping the rating, a link opening its puzzle, German,
a phone's screen, and axe-core clean on the screen in each of its states."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from battle.history.puzzle_attempts import rate_attempt
from battle.history.store import History
from battle.puzzles import load_puzzles
from battle.puzzles.puzzle import Puzzle
from battle.rules.board import Move, cell_name, move_name
from tests.i18n.language_guard import Screen, report
from tests.online_server import ServerProcess
from tests.web.accessibility import axe_script, described, violations
from tests.web.game_pages import DESKTOP, PHONE, new_page

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture(scope="module")
def puzzles_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("puzzles-web"), "--solver-workers", "1") as server:
        yield server


@pytest.fixture(scope="module")
def puzzles() -> list[Puzzle]:
    return load_puzzles()


def two_moves(puzzles: list[Puzzle]) -> Puzzle:
    return next(puzzle for puzzle in puzzles if puzzle.length == 2)


def one_move(puzzles: list[Puzzle]) -> Puzzle:
    return next(puzzle for puzzle in puzzles if puzzle.length == 1 and puzzle.value > 0)


def click_move(page: Any, move: Move) -> None:
    for cell in move:
        page.click(f'#puzzle-board [data-cell="{cell_name(cell)}"]')


def wait_phase(page: Any, puzzle: Puzzle, phase: str) -> None:
    page.wait_for_selector(f'body[data-puzzle="{puzzle.id}:{phase}"]')


def standing_text(page: Any) -> str:
    return page.text_content("#puzzle-standing") or ""


def test_a_puzzle_solved_and_one_failed_rate_as_the_window_would(
    browser: Any, puzzles_served: ServerProcess, puzzles: list[Puzzle], tmp_path: Path
) -> None:
    solved, failed = two_moves(puzzles), one_move(puzzles)
    page = new_page(browser)
    page.goto(f"{puzzles_served.base}/puzzles/{solved.id}")  # a link to a puzzle opens it
    wait_phase(page, solved, "step0")
    assert standing_text(page) == "Your puzzle rating: 1500 ± 700. Streak: 0 (best 0)."
    assert "Find the best move for Player" in page.text_content("#puzzle-status")
    click_move(page, solved.line[0])
    wait_phase(page, solved, "step1")
    assert f"replies {move_name(solved.line[1])}" in page.text_content("#puzzle-status")
    click_move(page, solved.line[2])
    wait_phase(page, solved, "solved")
    assert page.text_content("#puzzle-status").startswith("Solved!")

    history = History(tmp_path / "window.sqlite3")  # the window's history, given the same results
    first = rate_attempt(history, solved, True)
    second = rate_attempt(history, failed, False)
    history.close()
    assert standing_text(page) == f"Your puzzle rating: {first.player_after.describe()}. Streak: 1 (best 1)."

    page.goto(f"{puzzles_served.base}/puzzles/{failed.id}")
    wait_phase(page, failed, "step0")
    wrong = min(failed.losses[0])
    click_move(page, wrong)
    wait_phase(page, failed, "refuted")
    status = page.text_content("#puzzle-status")
    loss = failed.losses[0][wrong]
    assert status.startswith(f"{move_name(wrong)} (") and f"loses {loss} point" in status
    assert "Refutation: Player" in status
    assert page.locator("#puzzle-board .cell.twin").count() == 2  # the refutation's tiles framed
    assert standing_text(page) == f"Your puzzle rating: {second.player_after.describe()}. Streak: 0 (best 1)."
    change = page.text_content("#puzzle-change")
    assert f"this puzzle: {second.puzzle_before.rating:.0f} → {second.puzzle_after.rating:.0f}" in change

    page.click("#puzzle-retry")
    wait_phase(page, failed, "step0")
    page.click("#puzzle-reveal")
    wait_phase(page, failed, "missed")
    assert f"Solution: {move_name(failed.answer)}." in page.text_content("#puzzle-status")

    page.reload()  # the rating is the server's, under this browser's key
    wait_phase(page, failed, "step0")
    assert standing_text(page) == f"Your puzzle rating: {second.player_after.describe()}. Streak: 0 (best 1)."
    other_tab = page.context.new_page()
    other_tab.goto(f"{puzzles_served.base}/puzzles/")
    other_tab.wait_for_selector("body[data-puzzle$=':step0']")
    assert standing_text(other_tab) == standing_text(page)
    assert other_tab.url.startswith(f"{puzzles_served.base}/puzzles/") and other_tab.url.count("/") == 4

    page.click("#puzzle-next")
    page.wait_for_selector(f"body[data-puzzle$=':step0']:not([data-puzzle^='{failed.id}'])")
    assert page.errors == []


def test_the_home_screen_leads_to_a_puzzle_of_the_theme_asked(
    browser: Any, puzzles_served: ServerProcess, puzzles: list[Puzzle]
) -> None:
    themes = {puzzle.id: puzzle.themes for puzzle in puzzles}
    page = new_page(browser)
    page.goto(puzzles_served.base + "/")
    page.click("#puzzles-link")
    page.wait_for_selector("body[data-puzzles-shown='1'][data-puzzle$=':step0']")
    page.select_option("#puzzle-theme", "blockade")
    page.wait_for_selector("body[data-puzzles-shown='2'][data-puzzle$=':step0']")
    shown = page.get_attribute("body", "data-puzzle").split(":")[0]
    assert page.evaluate("location.pathname") == f"/puzzles/{shown}"
    assert "blockade" in themes[shown]
    assert "Themes:" in page.text_content("#puzzle-about")
    page.goto(puzzles_served.base + "/puzzles/0000000000")
    page.wait_for_selector("#puzzle-status:has-text('This server has no such puzzle.')")
    assert page.text_content("#notice") == "This server has no such puzzle."
    page.click("#puzzle-next")  # the next one near the rating instead
    page.wait_for_selector("body[data-puzzle$=':step0']")
    assert page.is_hidden("#notice")
    page.goto(puzzles_served.base + "/puzzles/nothing")
    page.wait_for_selector("#home:not([hidden])")
    assert page.text_content("#notice") == "This puzzle link does not read: check the link."
    assert page.errors == []


def test_german_on_a_phone(browser: Any, puzzles_served: ServerProcess, puzzles: list[Puzzle]) -> None:
    failed = one_move(puzzles)
    page = new_page(browser, **PHONE)
    page.goto(f"{puzzles_served.base}/puzzles/{failed.id}?lang=de")
    wait_phase(page, failed, "step0")
    assert page.text_content("#puzzle-status").startswith("Finde den besten Zug für Spieler")
    assert page.text_content("#puzzle-retry") == "Noch einmal"
    assert page.text_content("#puzzle-reveal") == "Lösung zeigen"
    assert standing_text(page).startswith("Deine Aufgabenwertung:")
    wrong = min(failed.losses[0])
    for cell in wrong:
        page.tap(f'#puzzle-board [data-cell="{cell_name(cell)}"]')
    wait_phase(page, failed, "refuted")
    status = page.text_content("#puzzle-status")
    assert "verliert" in status and "Widerlegung:" in status
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, f"the puzzle screen is {wide} px wide on a 390 px phone"
    assert page.url.endswith(f"/puzzles/{failed.id}?lang=de")
    assert report([Screen("a wrong move on the puzzles screen", page.inner_text("body"))], "de") == ""
    page.click("#puzzle-reveal")
    wait_phase(page, failed, "missed")
    assert page.text_content("#puzzle-status").startswith("Nicht im ersten Versuch gelöst. Lösung:")
    assert report([Screen("a puzzle's solution", page.inner_text("body"))], "de") == ""
    assert page.errors == []


def test_showing_the_solution_before_any_move_says_first_that_it_counts_as_missed(
    browser: Any, puzzles_served: ServerProcess, puzzles: list[Puzzle]
) -> None:
    """As the window does: on an undecided attempt, "Show solution" says what it costs and asks again
    ("Yes, show it"); a move instead takes it back; the second press shows the line, rated a miss."""
    puzzle = one_move(puzzles)
    page = new_page(browser)
    page.goto(f"{puzzles_served.base}/puzzles/{puzzle.id}")
    wait_phase(page, puzzle, "step0")
    page.click("#puzzle-reveal")
    wait_phase(page, puzzle, "confirm")
    assert "counts this puzzle as missed" in page.text_content("#puzzle-status")
    assert page.text_content("#puzzle-reveal") == "Yes, show it"
    assert page.text_content("#puzzle-change") == ""  # nothing rated yet
    page.click(f'#puzzle-board [data-cell="{cell_name(puzzle.answer[0])}"]')  # a move instead: no solution
    wait_phase(page, puzzle, "step0")
    assert page.text_content("#puzzle-reveal") == "Show solution"
    page.click("#puzzle-reveal")
    wait_phase(page, puzzle, "confirm")
    page.click("#puzzle-reveal")
    wait_phase(page, puzzle, "missed")
    assert "Streak: 0" in standing_text(page) and page.text_content("#puzzle-change") != ""
    assert page.errors == []


def test_no_puzzle_screen_has_a_critical_or_serious_accessibility_violation(
    browser: Any, puzzles_served: ServerProcess, puzzles: list[Puzzle]
) -> None:
    axe_script()
    found: dict[str, list[dict[str, Any]]] = {}
    failed = one_move(puzzles)
    page = new_page(browser, **DESKTOP, bypass_csp=True)

    def check(screen: str) -> None:
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            found[f"{screen} ({size})"] = violations(page)

    page.goto(f"{puzzles_served.base}/puzzles/{failed.id}")
    wait_phase(page, failed, "step0")
    check("a puzzle")
    click_move(page, min(failed.losses[0]))
    wait_phase(page, failed, "refuted")
    check("a wrong move refuted")
    page.click("#puzzle-reveal")
    wait_phase(page, failed, "missed")
    check("the solution shown")
    assert not any(found.values()), described(found)
