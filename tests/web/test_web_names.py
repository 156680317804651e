"""The joiner's name, the way a friend meets it: a first invite link opens the board at once and
asks the name beside it, once, and the browser keeps it; no name given is "Player 2" in each
reader's language (the server stores none), and after a rematch's swap the default names follow
the seats; a kept name too long for the hello frame is cut and said, never a loop of "The server
does not answer"."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Served
from tests.web.game_pages import DESKTOP, host, join, new_page


def test_a_first_link_asks_the_joiners_name_once_and_the_browser_keeps_it(browser: Any, served: Served) -> None:
    ann = new_page(browser)
    bob = new_page(browser)
    bob.goto(host(ann, served.base, "Ann", deal=2))
    bob.wait_for_selector("body[data-playable]")  # the board first, the name asked beside it
    bob.wait_for_selector("#name-ask:not([hidden])")
    assert bob.text_content("#player-2 .name") == "Player 2 (you)"
    assert 'your opponent sees "Player 2"' in bob.text_content("#name-ask-until")
    ann.wait_for_selector("#player-2 .name:text-is('Player 2')")
    assert bob.get_attribute("#name-ask input[name=name]", "placeholder") == "Player"
    bob.fill("#name-ask input[name=name]", "  Bob\u0007 ")
    bob.press("#name-ask input[name=name]", "Enter")
    bob.wait_for_selector("#player-2 .name:text-is('Bob (you)')")
    ann.wait_for_selector("#player-2 .name:text-is('Bob')")
    assert bob.is_hidden("#name-ask")
    # the next link in this browser asks nothing: Bob joins as Bob
    link = host(new_page(browser), served.base, "Cleo", deal=3)
    bob.goto(link)
    bob.wait_for_selector("body[data-playable]")
    assert bob.is_hidden("#name-ask") and bob.text_content("#player-2 .name") == "Bob (you)"
    assert ann.errors == bob.errors == []


def test_a_nameless_joiner_reads_in_each_language_and_the_default_follows_the_seat(
    browser: Any, served: Served
) -> None:
    ann = new_page(browser)
    bob = new_page(browser, **DESKTOP, locale="de-DE")
    join(bob, host(ann, served.base, "Ann", deal=4, first="creator"), name="")  # no name: Join as it is
    assert bob.text_content("#player-2 .name") == "Spieler 2 (du)"
    ann.wait_for_selector("#player-2 .name:text-is('Player 2')")
    bob.click("#resign")
    bob.click("#confirm-yes")
    ann.wait_for_selector('body[data-status="finished"]')
    ann.click("#rematch")
    bob.wait_for_selector("#offer:not([hidden])")
    bob.click("#offer-yes")
    for page in (ann, bob):
        page.wait_for_selector('body[data-ply="0"][data-status="playing"]')
    # the seats swapped: Bob moves first now, and his default name is seat 1's
    assert bob.text_content("#player-1 .name") == "Spieler 1 (du)"
    ann.wait_for_selector("#player-1 .name:text-is('Player 1')")
    assert ann.text_content("#player-2 .name") == "Ann (you)"


def test_a_kept_name_too_long_for_the_hello_frame_is_cut_and_said(browser: Any, served: Served) -> None:
    ann = new_page(browser)
    link = host(ann, served.base, "Ann", deal=5)
    bob = new_page(browser)
    bob.goto(served.base + "/")
    bob.evaluate("() => localStorage.setItem('mahjong-battle.name', 'N'.repeat(5000))")  # over the 4096-byte frame
    bob.goto(link)
    bob.wait_for_selector("body[data-playable]")
    assert "longer than 40 characters" in bob.text_content("#notice")
    assert bob.text_content("#player-2 .name") == "N" * 40 + " (you)"
    ann.wait_for_selector(f"#player-2 .name:text-is('{'N' * 40}')")


def test_the_home_list_names_a_nameless_opponent_by_seat(browser: Any, served: Served) -> None:
    ann = new_page(browser)
    bob = new_page(browser)
    join(bob, host(ann, served.base, "Ann", deal=6), name="")
    ann.wait_for_selector("#player-2 .name:text-is('Player 2')")
    ann.click("#leave")
    ann.wait_for_selector("#home:not([hidden])")
    assert ann.text_content("#game-list").startswith("Game against Player 2 (going on)")


def test_a_name_that_reads_as_the_solvers_is_refused_in_words_and_the_form_keeps_it(
    browser: Any, served: Served
) -> None:
    """A person may not pass for the solver in a game, the lobby or the day's table: hosting as
    "Solver (perfect)" is refused with a sentence that says why, and the home form keeps the name to mend."""
    ann = new_page(browser)
    ann.goto(served.base + "/")
    ann.fill("#host-form input[name=name]", "Solver (perfect)")
    ann.click("#host-button")
    ann.wait_for_selector("text=That name reads as the solver's, which no person may take: choose another name.")
    assert ann.input_value("#host-form input[name=name]") == "Solver (perfect)"
    ann.fill("#host-form input[name=name]", "Solveig")
    ann.click("#host-button")
    ann.wait_for_selector("#invite-link:not(:empty)")
    ann.wait_for_selector("#player-1 .name:has-text('Solveig'), #player-2 .name:has-text('Solveig')")
    assert ann.errors == []
