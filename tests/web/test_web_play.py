"""Two people in two browsers, the way they play: one hosts from the page and sends the link, the
other opens it on a phone; a whole game with clicks and taps, a takeback asked and granted, a
rematch; a reload in the middle of a game; the server killed with SIGKILL and started again; a
browser against the terminal client; links that lead nowhere. A real ``serve`` process on
127.0.0.1 and Debian's Chromium; every wait is for something on the page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.online_server import Client
from tests.web.conftest import Served
from tests.web.game_pages import (
    PHONE,
    click_pair,
    finished,
    host,
    join,
    mover,
    new_page,
    play_turns,
    ply,
    wait_ply,
)


def test_a_whole_game_by_link_with_a_takeback_and_a_rematch(browser: Any, served: Served) -> None:
    ann = new_page(browser)
    link = host(ann, served.base, "Ann", deal=1, first="creator")
    assert re.fullmatch(rf"{served.base}/join/\w{{4}}-\w{{4}}-\w{{24}}", link)  # the code and its secret
    assert "Waiting for your opponent" in ann.text_content("#turn")
    bob = new_page(browser, **PHONE)
    join(bob, link, "Bob")
    ann.wait_for_selector("body[data-playable]")
    assert "Ann" in bob.text_content("#player-1") and "(you)" in bob.text_content("#player-2")
    assert ann.is_visible("#keys-friend") and ann.is_hidden("#keys-over")

    play_turns([ann, bob], turns=3, touch=(bob,))
    # Ann (player 1) moved last at ply 3: she asks to take it back, Bob's page asks him, Y grants it
    ann.click("#takeback")
    bob.wait_for_selector("#offer:not([hidden])")
    assert "asks to take back" in bob.text_content("#offer-text")
    bob.keyboard.press("y")
    for page in (ann, bob):
        wait_ply(page, 2)
    assert mover([ann, bob]) is ann

    played = play_turns([ann, bob], touch=(bob,))
    assert finished(ann) and finished(bob)
    total = ply(ann)
    assert total == 2 + len(played) and ply(bob) == total
    result = ann.text_content("#turn")
    assert re.fullmatch(r"(You win \d+-\d+ \(by \d+\)|Bob wins \d+-\d+ \(by \d+\)|Draw, \d+-\d+)\.", result), result
    assert ann.locator("#moves li").count() == total
    # nothing left to take or take back: the keys line names only what answers a rematch
    assert ann.is_hidden("#keys-friend") and ann.text_content("#keys-over") == (
        "Keys: Y yes, N no to your opponent's offer of a rematch."
    )

    bob.click("#rematch")
    ann.wait_for_selector("#offer:not([hidden])")
    assert "rematch" in ann.text_content("#offer-text")
    ann.keyboard.press("y")  # as the keys line says
    for page in (ann, bob):
        page.wait_for_selector('body[data-ply="0"][data-status="playing"]')
    assert mover([ann, bob]) is bob  # the seats swap: Bob moves first now
    assert "(you)" in bob.text_content("#player-1")
    assert ann.is_visible("#keys-friend") and ann.is_hidden("#keys-over")
    assert ann.errors == [] and bob.errors == []  # no exception, no console error: nothing the CSP refused


def test_a_reload_returns_to_the_seat_and_the_game_goes_on(browser: Any, served: Served) -> None:
    ann = new_page(browser)
    bob = new_page(browser)
    join(bob, host(ann, served.base, "Ann", deal=3))
    play_turns([ann, bob], turns=2)
    # Bob moved last: he asks to take it back, Ann turns it down with N
    bob.click("#takeback")
    ann.wait_for_selector("#offer:not([hidden])")
    ann.keyboard.press("n")
    ann.wait_for_selector("#offer", state="hidden")
    bob.wait_for_selector("#takeback:text-is('Take back (T)')")
    assert ply(ann) == ply(bob) == 2
    bob.reload()
    bob.wait_for_selector('body[data-ply="2"][data-status="playing"]')
    assert bob.url.startswith(served.base + "/play/")
    ann.wait_for_selector("#player-2 .presence:text('online')")
    play_turns([ann, bob], turns=2)
    # a closed tab: the link opened again later goes back to the same seat, not to a new join
    game = bob.get_attribute("body", "data-game")
    context = bob.context
    bob.close()
    ann.wait_for_selector("#player-2 .presence:text('away')")
    again = context.new_page()
    again.goto(served.base + "/")
    again.click("#game-list button >> nth=0")
    again.wait_for_selector('body[data-ply="4"]')
    assert again.get_attribute("body", "data-game") == game
    play_turns([ann, again], turns=1)


def test_the_server_killed_and_restarted_loses_no_move_and_doubles_none(browser: Any, served: Served) -> None:
    ann = new_page(browser)
    bob = new_page(browser)
    join(bob, host(ann, served.base, "Ann", deal=7))
    play_turns([ann, bob], turns=3)
    game = ann.get_attribute("body", "data-game")
    served.kill()
    for page in (ann, bob):
        page.wait_for_selector("#link[data-state=retrying]")
        assert "Connection lost: retrying in" in page.text_content("#link")
    # Bob moves while the server is down: the move waits in the page and goes when it is back
    sent = click_pair(mover([ann, bob]))
    served.start()
    for page in (ann, bob):
        page.wait_for_selector('#link[data-state="connected"]')
        wait_ply(page, 4)
    play_turns([ann, bob], turns=2)
    watcher = Client(served.url)
    watcher.send({"type": "watch", "code": ann_watch_code(ann, served, game)})
    state = watcher.expect("state")
    watcher.close()
    assert state["ply"] == 6 and state["moves"][3] == sent
    assert ply(ann) == ply(bob) == 6


def ann_watch_code(page: Any, served: Served, game: str | None) -> str:
    """The game's watch code, from the seat the page keeps in its storage."""
    seats = page.evaluate("() => JSON.parse(localStorage.getItem('mahjong-battle.seats'))")
    return next(seat["watch"] for seat in seats if seat["game"] == game)


def test_links_that_lead_nowhere_say_so_in_words(browser: Any, served: Served) -> None:
    page = new_page(browser)
    page.goto(served.base + "/join/ABCD-EFGH")  # no name is asked for a game that is not there
    page.wait_for_selector("#notice:not([hidden])")
    assert "No game has the invite code ABCD-EFGH" in page.text_content("#notice")
    page.goto(served.base + "/join/not-a-code!")
    assert "does not read" in page.text_content("#notice")

    creator = Client(served.url)
    creator.send({"type": "create", "deal": {"number": 2}, "first": "creator"})
    invite = creator.expect("created")["invite"]
    creator.send({"type": "abort"})
    creator.expect("state")
    creator.close()
    page.goto(f"{served.base}/join/{invite}")
    page.wait_for_selector("#notice:not([hidden])")
    assert "expired or was called off" in page.text_content("#notice")

    served.stop()  # the page is open; the server is gone when the player clicks Join
    page.fill("#join-form input[name=code]", "ABCD-EFGH")
    page.click("#join-button")
    page.wait_for_selector("#link[data-state=retrying]")
    assert "The server does not answer: retrying in" in page.text_content("#link")


def test_a_browser_plays_the_terminal_client(browser: Any, served: Served, tmp_path: Path) -> None:
    from tests.online.test_online_terminal import Program

    ann = Program(["play", "--online", served.url, "--deal", "5", "--first", "--player1", "Ann"], tmp_path / "ann")
    try:
        link = ann.wait_for(r"Invite link \(opens the game in a browser\): (\S+)").group(1)
        bob = new_page(browser, **PHONE)
        join(bob, link)
        mark = 0
        for turn in range(4):
            if turn % 2 == 0:  # Ann types her move in the terminal
                ann.wait_for("Ann, your move", after=mark)
                mark = ann.mark()
                ann.type("moves")
                move = ann.wait_for(r"\n  (\w\d-\w\d) \(\d+\)", after=mark).group(1)
                mark = ann.mark()
                ann.type(move)
                ann.wait_for(f"Move {turn + 1}, {move}, is on the server.", after=mark)
            else:  # Bob taps his on the phone
                mark = ann.mark()
                move = click_pair(bob, touch=True)
                ann.wait_for(f"takes {move}", after=mark)
            wait_ply(bob, turn + 1)
        assert "Ann" in bob.text_content("#player-1") and "online" in bob.text_content("#player-1")
    finally:
        ann.stop()


def test_resign_asks_first_abort_calls_off_and_a_watcher_only_watches(browser: Any, served: Served) -> None:
    ann = new_page(browser)
    ann.goto(served.base + "/")
    ann.fill("#host-form input[name=name]", "Ann")
    ann.click("#host-button")  # a random deal, first or second at random
    ann.wait_for_selector("#invite-link:not(:empty)")
    ann.click("#abort-waiting")
    ann.wait_for_selector('body[data-status="finished"]')
    assert "called off" in ann.text_content("#turn")

    bob = new_page(browser)
    join(bob, host(ann, served.base, "Ann", deal=4, move_seconds="60"))
    assert re.search(r"[01]:\d\d left", ann.text_content("#turn")), ann.text_content("#turn")  # the move's clock
    watch_code = ann.text_content("#watch-code") or ""
    eve = new_page(browser)
    eve.goto(f"{served.base}/watch/{watch_code}")
    eve.wait_for_selector("body[data-playable]")
    # Ann plays from the keyboard: the arrows jump between free tiles (down to the column's other end,
    # right to the next column's tile at that end), Enter picks a tile, then its twin
    first, second = a_pair_in(ann)
    ann.focus('#board .cell[data-cell="a1"]')
    ann.keyboard.press("ArrowDown")
    ann.keyboard.press("ArrowRight")
    assert ann.evaluate("() => document.activeElement.dataset.cell") == "b9"
    for cell in (first, second):
        ann.focus(f'#board .cell[data-cell="{cell}"]')
        ann.keyboard.press("Enter")
    for page in (ann, bob, eve):
        wait_ply(page, 1)
    assert eve.is_hidden("#resign") and eve.is_hidden("#takeback") and "Ann" in eve.text_content("#player-1")
    assert eve.locator(".keys:visible").count() == 0  # a spectator takes nothing and answers no offer
    eve.click("#board .cell.playable >> nth=0")
    assert "You are watching" in eve.text_content("#turn")

    bob.click("#resign")
    bob.wait_for_selector("#confirm[open]")
    bob.click("#confirm-no")
    assert bob.get_attribute("body", "data-status") == "playing"
    bob.click("#resign")
    bob.click("#confirm-yes")
    for page in (ann, bob, eve):
        page.wait_for_selector('body[data-status="finished"]')
    assert bob.text_content("#turn").startswith("You resigned; Ann wins, ")
    assert ann.text_content("#turn").startswith("Bob resigned; you win, ")
    assert bob.is_visible("#keys-over") and eve.locator(".keys:visible").count() == 0
    ann.click("#rematch")
    ann.wait_for_selector("#rematch:text('Rematch offered')")
    bob.wait_for_selector("#offer:not([hidden])")
    bob.keyboard.press("n")  # turned down: the offer is gone on both pages
    bob.wait_for_selector("#offer", state="hidden")
    ann.wait_for_selector("#rematch:text-is('Rematch')")
    assert ann.errors == bob.errors == eve.errors == []


def a_pair_in(page: Any) -> tuple[str, str]:
    from tests.web.game_pages import a_pair

    page.wait_for_selector("#board.your-turn")
    return a_pair(page)
