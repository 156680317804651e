"""Playing the solver in Chromium, the way a player does: the home page's solver form (level, deal,
who moves first), a whole game against beginner by clicks, a reload in the middle that comes back
to ``/play/GAME``, the record downloaded and read by ``mahjong-battle replay``; two browsers
against the solver at once; the solver moving first. A real ``serve`` with its solver pool."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from battle.rules.deal import deal
from battle.rules.notation import format_position
from tests.i18n.language_guard import Screen, report
from tests.online_server import ROOT, Client, ServerProcess
from tests.web.conftest import HINT_WAIT_MS
from tests.web.game_pages import PHONE, a_pair, click_pair, finished, new_page, ply, wait_ply, what_it_shows

# the modules that take this one's helpers skip with it where Playwright is missing (README's
# `pip install '.[test]'` installs no browser driver), as the browser fixture skips
PlaywrightTimeout = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install '.[browser]')"
).TimeoutError


@pytest.fixture(scope="module")
def solver_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # every page of the module plays from 127.0.0.1 on this one server: the caps on one network's games are lifted
    lifted = ("--max-solver-games-per-address", "100", "--creates-per-hour", "3600000")
    with ServerProcess(tmp_path_factory.mktemp("solver-web"), "--solver-workers", "1", *lifted) as server:
        yield server


def play_solver(page: Any, base: str, level: str = "beginner", deal: int | None = 3, first: str = "creator") -> None:
    """Start a game against the solver from the home page's form, as a player fills it in."""
    page.goto(base + "/")
    page.select_option("#solver-form select[name=level]", level)
    if deal is not None:
        page.fill("#solver-form input[name=number]", str(deal))
    page.select_option("#solver-form select[name=first]", first)
    page.click("#solver-button")
    page.wait_for_selector("body[data-playable]")


def play_to_the_end(page: Any, turns: int = 200) -> list[str]:
    """The player's moves by clicks, each time the board is theirs, until the game ends (or ``turns``)."""
    played: list[str] = []
    while len(played) < turns:
        try:
            page.wait_for_function(
                "() => document.body.dataset.status === 'finished'"
                " || document.getElementById('board').classList.contains('your-turn')"
            )
        except PlaywrightTimeout:
            raise AssertionError(
                f"neither the player's turn nor the end: the page shows {what_it_shows(page)}"
            ) from None
        if finished(page):
            break
        count = ply(page)
        played.append(click_pair(page))
        page.wait_for_function(f"() => Number(document.body.dataset.ply) > {count}")
    return played


def test_a_whole_game_against_beginner_by_clicks_with_a_reload_and_the_record(
    browser: Any, solver_served: ServerProcess, tmp_path: Path
) -> None:
    page = new_page(browser)
    play_solver(page, solver_served.base)
    assert re.fullmatch(rf"{solver_served.base}/play/\w+", page.url)
    # the solver's card follows its own message, which may come just after the game's first state
    page.wait_for_function("() => document.getElementById('solver-level').textContent.includes('at level beginner')")
    assert "You play the solver at level beginner" in page.text_content("#solver-level")
    assert page.is_hidden("#takeback") and page.is_visible("#hint")
    # the keys line names the hint, not the offers the solver never answers
    assert page.is_visible("#keys-solver") and page.is_hidden("#keys-friend")

    play_to_the_end(page, turns=2)
    wait_ply(page, 4)  # the player's two moves and the solver's two answers
    address, before = page.url, ply(page)
    page.reload()
    page.wait_for_selector("body[data-playable]")
    assert page.url == address and ply(page) == before
    # the server's "solver" message follows the game's state: the card shows once it is read
    page.wait_for_selector("#solver-panel", state="visible")

    play_to_the_end(page)
    assert finished(page)
    assert re.search(r"(You win|Solver \(beginner\) wins|A draw)\D*\d+-\d+", page.text_content("#turn"))
    # no tile to point at and no hint to ask: only what is true of a game over stays
    page.wait_for_function("() => document.getElementById('solver-level').textContent.includes('You played')")
    assert page.is_hidden("#opens") and page.is_hidden("#keys-solver") and page.is_hidden("#hint")
    assert page.is_hidden("#alerts")  # the solver neither joins nor moves again
    with page.expect_download() as download:
        page.click("#record")
    record = tmp_path / "game.mbg"
    download.value.save_as(record)
    assert "player2: Solver (beginner)" in record.read_text(encoding="utf-8")
    replayed = subprocess.run(
        [sys.executable, "-c", "from battle.cli import entry_point; entry_point()", "replay", str(record)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert replayed.returncode == 0, replayed.stderr
    assert page.errors == []


def test_two_browsers_play_the_solver_at_once_and_it_can_move_first(browser: Any, solver_served: ServerProcess) -> None:
    ann = new_page(browser)
    bob = new_page(browser, **PHONE)
    play_solver(ann, solver_served.base, level="casual", deal=5, first="creator")
    play_solver(bob, solver_served.base, level="club", deal=None, first="joiner")
    wait_ply(bob, 1)  # the solver opened Bob's game
    assert "Solver (club)" in bob.text_content("#player-1")
    for _ in range(3):
        for page in (ann, bob):
            play_to_the_end(page, turns=1)
    for page in (ann, bob):  # three moves each, and the solver's answers: Ann's third is still on its way
        page.wait_for_function("() => Number(document.body.dataset.ply) >= 6")
    assert ann.url != bob.url
    assert ann.errors == [] and bob.errors == []


def test_the_home_page_lists_a_game_against_the_solver_and_opens_it_again(
    browser: Any, solver_served: ServerProcess
) -> None:
    page = new_page(browser)
    play_solver(page, solver_served.base, level="beginner", deal=7)
    game = page.url.rsplit("/", 1)[1]
    page.goto(solver_served.base + "/")
    page.wait_for_selector("#game-list button")
    assert "Solver (beginner)" in page.text_content("#game-list")
    page.click("#game-list li:first-child button:first-child")
    page.wait_for_selector("body[data-playable]")
    assert page.url.endswith(f"/play/{game}")
    page.wait_for_selector("#solver-panel", state="visible")  # with the "solver" message after the state


def test_a_game_against_the_solver_reads_in_german(browser: Any, solver_served: ServerProcess) -> None:
    page = new_page(browser, locale="de-DE")
    page.goto(solver_served.base + "/")
    page.wait_for_selector("#home:not([hidden])")
    assert page.text_content("#solver-button") == "Gegen den Solver spielen"
    home = Screen("home", page.inner_text("body"))
    play_solver(page, solver_served.base, level="expert", deal=9, first="joiner")
    page.wait_for_selector("#solver-level:has-text('Experte')")
    # the solver's side in the reader's language, wherever it is named: "Solver (Experte)"
    page.wait_for_selector("#player-1 .name:text-is('Solver (Experte)')")
    game = Screen("game against the solver", page.inner_text("body"), names=("Player",))
    page.wait_for_selector("#board.your-turn")
    page.click("#hint")
    page.wait_for_selector("#hint-result:not([hidden])", timeout=HINT_WAIT_MS)
    hint = Screen("a hint", page.inner_text("body"), names=("Player",))
    assert report([home, game, hint], "de") == ""
    page.goto(solver_served.base + "/")
    page.wait_for_selector("#game-list button:has-text('Solver (Experte)')")


def endgame(deal_number: int, left: int) -> str:
    """Deal ``deal_number`` played out greedily (the first legal move) until ``left`` pairs or fewer remain."""
    position = deal(deal_number)
    while len(position.legal_moves()) and sum(kind >= 0 for kind in position.cells) > 2 * left:
        position.push(position.legal_moves()[0])
    return format_position(position)


def analysed(text: str, folder: Path) -> dict[str, Any]:
    """``mahjong-battle analyse --json`` of a position: what the page's values must equal."""
    file = folder / "position.mbp"
    file.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", "from battle.cli import entry_point; entry_point()", "analyse", "--json", "--quiet"]
        + ["--threads", "1", str(file)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def reviewed(record: Path) -> dict[str, Any]:
    """``mahjong-battle review --json`` of a record with the command's default search a move."""
    done = subprocess.run(
        [sys.executable, "-c", "from battle.cli import entry_point; entry_point()", "review", "--json", "--quiet"]
        + [str(record)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def seat_in_browser(page: Any, base: str, created: dict[str, Any]) -> None:
    """Give the browser the seat a test's client took (as the page keeps a seat), and open its game."""
    seat = {"token": created["token"], "game": created["game"], "seat": created["seat"], "pending": []}
    page.goto(base + "/")
    page.evaluate("seat => localStorage.setItem('mahjong-battle.seats', JSON.stringify([seat]))", seat)
    page.goto(f"{base}/play/{created['game']}")
    page.wait_for_selector("body[data-playable]")


def open_solver_game(page: Any, server: ServerProcess, position: str, level: str) -> None:
    """A game against the solver at ``level`` from ``position``, the player first, created by a
    test's client and opened in ``page`` as the page keeps its seats."""
    client = Client(server.url, "Ann")
    client.send({"type": "solver_game", "level": level, "deal": {"position": position}, "first": "creator"})
    created = client.expect("solver_created", 60)
    client.close()
    seat_in_browser(page, server.base, created)


def test_a_hint_on_a_known_position_says_the_value_analyse_gives(
    browser: Any, solver_served: ServerProcess, tmp_path: Path
) -> None:
    start = endgame(11, left=9)
    expected = analysed(start, tmp_path)
    page = new_page(browser)
    open_solver_game(page, solver_served, start, "club")
    page.wait_for_selector("#board.your-turn")
    page.click("#hint")
    page.wait_for_selector("#hint-result:not([hidden])", timeout=HINT_WAIT_MS)
    words = page.text_content("#hint-result")
    # the value is what is still to take, the final score where the game ends: never one for the other
    value, final = expected["value"], expected["final_score"]
    assert value > 0 and sum(final) > value, expected  # points taken before: the two figures differ
    assert f"exact: from here you take {value} points more than the solver" in words, words
    you = int(re.search(r"to-move: ([12])", start).group(1))  # the player moves first from the position
    assert f"final score: you {final[you - 1]}, the solver {final[2 - you]}" in words, words
    assert "margin" not in words
    assert any(move in words for move in expected["best_moves"]), (words, expected["best_moves"])
    # the solver lives on the server: its card never says it is online or away
    label = page.get_attribute(f"#player-{3 - you}", "aria-label") or ""
    assert "Solver (club)" in label and not re.search(r"\b(away|online)\b", label), label

    first, second = a_pair(page)
    page.hover(f'#board .cell[data-cell="{first}"]')
    page.click(f'#board .cell[data-cell="{first}"]')
    page.hover(f'#board .cell[data-cell="{second}"]')
    low, high = sorted((first, second), key=lambda cell: (cell[0], int(cell[1:])))
    page.wait_for_selector(f"#opens:has-text('{low}-{high} frees')")
    assert page.errors == []


def test_a_finished_game_is_reviewed_in_the_background_and_its_link_shows_it(
    browser: Any, solver_served: ServerProcess, tmp_path: Path
) -> None:
    page = new_page(browser)
    open_solver_game(page, solver_served, endgame(8, left=7), "beginner")
    play_to_the_end(page)
    played = ply(page)
    with page.expect_download() as download:
        page.click("#record")
    record = tmp_path / "game.mbg"
    download.value.save_as(record)
    page.click("#review-game")
    page.wait_for_selector("#review:not([hidden])")
    assert re.fullmatch(rf"{solver_served.base}/review/[0-9a-f]{{16}}", page.url)
    page.wait_for_selector("body[data-review=done]")
    summary = page.text_content("#review-summary")
    assert "Ann" in summary and "Solver (beginner)" in summary and "%" in summary
    # one default search a move for the page and `mahjong-battle review`, stated by both
    cli = reviewed(record)
    budget = f"Search per move: up to {cli['nodes_per_move']:,} nodes."
    assert page.text_content("#review-budget") == budget
    rows = page.locator("#review-summary tr").all_text_contents()
    shown = [re.findall(r"(\d+\.\d)%", row)[0] for row in rows]  # to the tenth, as the command line writes it
    assert shown == [f"{player['accuracy']:.1f}" for player in cli["summary"]], (shown, cli["summary"])
    assert played > 0 and page.locator("#review-moves tr").count() == played  # a row for every move of the game
    assert page.locator("#review-graph polyline").count() == 1
    caption = page.text_content("#review-graph-caption")  # what the line is, and who is ahead where
    said = re.fullmatch(
        r"The final margin under perfect play before the first move and after each: "
        r"above the dashed line (.+) is ahead, below it (.+)\.",
        str(caption),
    )
    assert said is not None and {said[1], said[2]} == {"Ann", "Solver (beginner)"}, caption

    shared = new_page(browser, locale="de-DE")  # the link, opened elsewhere, shows the same review
    shared.goto(page.url)
    shared.wait_for_selector("body[data-review=done]")
    assert shared.text_content("#review-title") == "Partiebewertung"

    german = [re.findall(r"(\d+,\d) %", row)[0] for row in shared.locator("#review-summary tr").all_text_contents()]
    assert german == [figure.replace(".", ",") for figure in shown]  # the same figures, the German way
    assert "Solver (Anfänger)" in shared.text_content("#review-summary")
    screen = Screen("review", shared.inner_text("body"), names=("Ann",))
    assert report([screen], "de") == ""
    assert page.errors == [] and shared.errors == []

    phone = new_page(browser, **PHONE)  # every column of the summary on a phone, none cut
    phone.goto(page.url)
    phone.wait_for_selector("body[data-review=done]")
    width = PHONE["viewport"]["width"]
    table = phone.evaluate(
        "() => { const t = document.querySelector('.review-summary'); return [t.scrollWidth, t.clientWidth]; }"
    )
    assert table[0] <= table[1] and phone.evaluate("() => document.scrollingElement.scrollWidth") <= width, table
