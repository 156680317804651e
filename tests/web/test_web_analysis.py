"""The analysis board in Chromium: a position pasted as ``.mbp`` text, one changed in the editor,
and one reached from a finished game against the solver; every legal move's value, its bound and
the evaluation, deepening until exact, equal to ``mahjong-battle analyse --json`` on the same
position; a pair picked on the board analyses the position after it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from battle.rules.board import parse_move
from battle.rules.notation import format_position, parse_position
from tests.i18n.language_guard import Screen, report
from tests.online.strangers import head_and_body, http, request
from tests.online_server import ServerProcess
from tests.web.game_pages import click_pair, new_page, wait_ply
from tests.web.test_web_solver import analysed, endgame, play_solver, play_to_the_end, solver_served

__all__ = ["solver_served"]  # the module's server, shared with the solver's game tests


def final_values(page: Any, timeout_ms: float | None = None) -> dict[str, tuple[int, str]]:
    """Every move's value and bound, once the board says its values are exact (``timeout_ms``: the
    bound of that wait, where the page's own ``WAIT_MS`` is too short for the work asked)."""
    page.wait_for_selector("body[data-analysis$=':final']", timeout=timeout_ms)
    rows = page.eval_on_selector_all(
        "#analysis-moves tr", "rows => rows.map(r => [r.dataset.move, Number(r.dataset.value), r.dataset.bound])"
    )
    return {move: (value, bound) for move, value, bound in rows}


def expected_values(position: str, folder: Path) -> dict[str, tuple[int, str]]:
    answer = analysed(position, folder)
    return {entry["move"]: (entry["value"], entry["bound"]) for entry in answer["moves"]}


def test_a_pasted_position_gets_the_values_analyse_gives(
    browser: Any, solver_served: ServerProcess, tmp_path: Path
) -> None:
    position = endgame(21, left=10)
    page = new_page(browser)
    page.goto(solver_served.base + "/")
    page.click("#analysis-link")
    page.wait_for_selector("#analysis:not([hidden])")
    page.fill("#analysis-text", position)
    page.click("#analysis-button")
    assert final_values(page) == expected_values(position, tmp_path)
    assert "Exact values" in page.text_content("#analysis-status")

    move = page.get_attribute("#analysis-moves tr.best", "data-move")
    page.click(f'#analysis-moves tr[data-move="{move}"]')  # play the best move, analyse what follows
    after = parse_position(position)
    after.push(parse_move(move))
    page.wait_for_selector("#analysis-step:has-text('Move 1 of 1')")
    assert final_values(page) == expected_values(format_position(after), tmp_path)
    assert page.errors == []


def test_a_position_changed_in_the_editor_is_analysed_as_changed(
    browser: Any, solver_served: ServerProcess, tmp_path: Path
) -> None:
    position = parse_position(endgame(23, left=11))
    page = new_page(browser)
    page.goto(solver_served.base + "/analysis/")
    page.fill("#analysis-text", format_position(position))
    page.click("#analysis-button")
    page.wait_for_selector("body[data-analysis$=':final']")
    removed = position.legal_moves()[-1]  # a pair of free tiles taken off the board by hand
    page.check("#analysis-edit")
    page.select_option("#analysis-kind", "-1")
    for cell in removed:
        page.click(f'#analysis-board .cell[data-cell="{"abcdefghijkl"[cell // 9]}{cell % 9 + 1}"]')
    page.select_option("#analysis-to-move", "2")
    page.uncheck("#analysis-edit")
    page.click("#analysis-button")
    position.cells[removed[0]] = position.cells[removed[1]] = -1
    edited = format_position(position).replace("to-move: 1", "to-move: 2")
    assert final_values(page) == expected_values(edited, tmp_path)


def test_a_finished_game_against_the_solver_opens_on_the_board_at_any_move(
    browser: Any, solver_served: ServerProcess, tmp_path: Path
) -> None:
    page = new_page(browser)
    play_solver(page, solver_served.base, level="beginner", deal=13)
    play_to_the_end(page)
    page.click("#analyse")
    page.wait_for_selector("#analysis:not([hidden])")
    try:
        page.wait_for_selector("#analysis-step:has-text('of')")
    except Exception as error:  # Playwright's timeout: say what the board was opened on, and why not
        said = page.text_content("#notice")
        raise AssertionError(f"no move count on the board; address {page.url[:300]}; notice {said!r}") from error
    total = int(str(page.text_content("#analysis-step")).split()[-1])
    for _ in range(6):  # six moves before the end: small enough to solve at once
        page.click("#analysis-back")
    page.wait_for_selector(f"#analysis-step:has-text('Move {total - 6} of {total}')")
    shown = page.input_value("#analysis-text")
    assert final_values(page) == expected_values(shown, tmp_path)


def test_a_message_of_the_game_while_the_board_loads_leaves_the_board_on_the_game(
    browser: Any, solver_served: ServerProcess
) -> None:
    """Analyse opens the board on the game even when the game's server speaks while the board's
    module still loads (a ``state``, as the par worked out at the end sends): the game screen lets go
    of its connection and of the page's address the moment it is left, or the ``state`` would put the
    game's address back and the board open empty. The module is held and the ``state`` sent by the
    test, so the order is the one a loaded machine gives now and then."""
    page = new_page(browser)
    states: list[str] = []
    games: list[Any] = []

    def relay(game: Any) -> None:
        server = game.connect_to_server()

        def to_page(message: str | bytes) -> None:
            if isinstance(message, str) and json.loads(message).get("type") == "state":
                states.append(message)
            game.send(message)

        server.on_message(to_page)
        games.append(game)

    page.route_web_socket(re.compile(r"^ws://"), relay)
    held: list[Any] = []
    page.route("**/analysis_screen.js", lambda route: held.append(route))
    play_solver(page, solver_served.base, level="beginner", deal=13)
    click_pair(page)
    wait_ply(page, 2)  # the solver's reply: two moves on the board
    with page.expect_request("**/analysis_screen.js"):
        page.click("#analyse")
    games[-1].send(states[-1])  # the game's state once more, as the server sends it on news of the game
    for _ in range(100):  # the module's request reaches its route after the request event
        if held:
            break
        page.evaluate("0")
    assert held, "the board's module was loaded without passing its route"
    held[0].continue_()
    page.wait_for_selector("#analysis-step:has-text('Move 2 of 2')")
    assert page.url.split("#")[0].endswith("/analysis/")
    assert page.errors == []


def test_the_analysis_board_reads_in_german(browser: Any, solver_served: ServerProcess) -> None:
    page = new_page(browser, locale="de-DE")
    page.goto(solver_served.base + "/analysis/")
    page.wait_for_selector("#analysis:not([hidden])")
    page.fill("#analysis-text", endgame(5, left=8))
    page.click("#analysis-button")
    page.wait_for_selector("body[data-analysis$=':final']")
    assert page.text_content("#analysis-title") == "Analysebrett"
    assert report([Screen("analysis board", page.inner_text("body"))], "de") == ""


def test_a_board_whose_values_are_exact_rests_when_the_server_closes_it_as_idle(browser: Any, tmp_path: Path) -> None:
    """The server closes a connection that waits for nothing after ``--idle-seconds``: the board keeps
    its values and opens no new connection (that would ask the same analysis again) until a move is
    played on it."""
    with ServerProcess(tmp_path / "server", "--solver-workers", "1", "--idle-seconds", "1") as server:
        page = new_page(browser)
        page.goto(server.base + "/analysis/")
        page.fill("#analysis-text", endgame(21, left=4))
        page.click("#analysis-button")
        values = final_values(page)
        asked = page.get_attribute("body", "data-analysis")
        page.wait_for_selector('#link[data-state="resting"]')
        assert "the line opens again when this page asks" in str(page.text_content("#link"))
        _, _, counts = head_and_body(http(server.port, request("GET", "/stats")))
        assert b"connections 1\n" in counts  # this request alone: the page holds no connection
        assert final_values(page) == values and "Exact values" in str(page.text_content("#analysis-status"))
        move = page.get_attribute("#analysis-moves tr.best", "data-move")
        page.click(f'#analysis-moves tr[data-move="{move}"]')  # a move played: the board asks again
        page.wait_for_selector(f"body[data-analysis$=':final']:not([data-analysis='{asked}'])")
        assert page.errors == []


def test_an_empty_board_and_a_refused_position_say_what_they_are(browser: Any, solver_served: ServerProcess) -> None:
    page = new_page(browser)
    page.goto(solver_served.base + "/analysis/")
    page.wait_for_selector("#analysis:not([hidden])")
    page.check("#analysis-edit")  # an empty board to set up
    page.uncheck("#analysis-edit")  # analysed as it is: nothing on it
    page.wait_for_selector("body[data-analysis$=':final']")
    assert "No pair is left" in page.text_content("#analysis-status")
    assert page.text_content("#analysis-eval") == "Final score 0-0."

    page.check("#analysis-edit")
    page.select_option("#analysis-kind", "0")
    for cell in ("a1", "a3"):  # a gap in a column: no position of the game
        page.click(f'#analysis-board .cell[data-cell="{cell}"]')
    page.uncheck("#analysis-edit")
    page.wait_for_selector("#notice:not([hidden])")
    page.wait_for_selector("#analysis-status:has-text('the server refused it')")
    assert "thinks" not in page.text_content("#analysis-status")
