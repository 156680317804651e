"""The lobby on the home page, in Chromium against a real ``serve``: two strangers meet through it (one
offers a challenge, the other takes it with one click on a phone) and play to the end while a third
page sees the challenge come and go live and watches the game with one click; the lobby in German;
axe-core finds nothing critical or serious on the home page with a challenge and a game listed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.online_server import ServerProcess, following
from tests.web.accessibility import axe_script, described, violations
from tests.web.conftest import Served
from tests.web.game_pages import DESKTOP, PHONE, finished, give_name, new_page, play_turns

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def offer_challenge(page: Any, base: str, name: str, deal: int = 1) -> None:
    """Fill the host form and offer the game in the lobby; the page lands in the game, waiting."""
    page.goto(base + "/")
    page.fill("#host-form input[name=name]", name)
    page.check("#host-form input[name=deal][value=number]")
    page.fill("#host-form input[name=number]", str(deal))
    page.select_option("#host-form select[name=first]", "creator")
    page.select_option("#host-form select[name=move_seconds]", "300")
    page.click("#challenge-button")
    page.wait_for_selector("#invite-link:not(:empty)")


def test_two_strangers_meet_in_the_lobby_and_play_to_the_end(browser: Any, served: Served) -> None:
    cleo = new_page(browser)
    cleo.goto(served.base + "/")
    cleo.wait_for_selector("#challenge-empty:not([hidden])")  # the lobby answered: nothing open yet
    ann = new_page(browser)
    offer_challenge(ann, served.base, "Ann")
    offered_words = "Offered in the lobby: anyone on the home page may take it."
    assert str(ann.text_content("#invite-words")).startswith(offered_words)  # not only a friend's link
    ann.reload()  # the seat remembers that its game is offered
    ann.wait_for_selector(f"#invite-words:has-text('{offered_words}')")

    offered = cleo.locator("#challenge-list li", has_text="Play Ann")
    offered.wait_for()  # came to a page that was open already, as news
    assert "Deal 1; Ann moves first; 5 minutes a move." in offered.text_content()

    bob = new_page(browser, **PHONE)
    bob.goto(served.base + "/")
    bob.locator("#challenge-list button", has_text="Play Ann").tap()
    bob.wait_for_selector("body[data-playable]")
    if bob.is_visible("#name-ask"):
        give_name(bob, "Bob")
    ann.wait_for_selector("body[data-playable]")

    offered.wait_for(state="detached")  # taken: gone from the lobby, and the game is on show
    game = cleo.locator("#lobby-games button", has_text="Ann against")
    game.click()
    cleo.wait_for_selector("body[data-status]")

    play_turns([ann, bob], touch=(bob,))
    cleo.wait_for_selector('body[data-status="finished"]')
    assert finished(ann) and finished(bob)
    for page in (ann, bob, cleo):
        assert page.errors == []


def test_the_lobby_in_german(browser: Any, served: Served) -> None:
    ann = new_page(browser)
    offer_challenge(ann, served.base, "Ann", deal=4)
    page = new_page(browser, **DESKTOP, locale="de-DE")
    page.goto(served.base + "/")
    offered = page.locator("#challenge-list li", has_text="Ann")
    offered.wait_for()
    text = offered.text_content()
    assert "Spiele gegen Ann" in text and "Deal 4" not in text, text
    assert page.text_content("#lobby-title") != "Lobby: play someone"
    assert page.errors == []


def test_the_lobby_has_no_critical_or_serious_accessibility_violation(browser: Any, served: Served) -> None:
    axe_script()
    ann, bob, eve = (new_page(browser, **DESKTOP, bypass_csp=True) for _ in range(3))
    offer_challenge(ann, served.base, "Ann", deal=2)
    offer_challenge(bob, served.base, "Bob", deal=3)
    eve.goto(served.base + "/")
    eve.locator("#challenge-list button", has_text="Play Bob").click()  # a game on show, a challenge open
    eve.wait_for_selector("body[data-playable]")
    page = new_page(browser, **DESKTOP, bypass_csp=True)
    page.goto(served.base + "/")
    page.locator("#lobby-games button").wait_for()
    page.locator("#challenge-list button").wait_for()
    found = {}
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        found[f"home with the lobby ({size})"] = violations(page)
    assert not any(found.values()), described(found)


def test_every_open_challenge_is_reachable_past_the_ones_listed_and_the_oldest_come_first(
    browser: Any, tmp_path: Path
) -> None:
    """The lobby lists the challenges waiting longest (here 3, on a real server 50), oldest first, and
    says how many more are open; "Show the next ones" lists those too, so none is out of reach."""
    prelude = "import battle.online.server.lobby.board as lobby; lobby.LOBBY_LIMITS = lobby.LobbyLimits(shown=3)"
    with ServerProcess(tmp_path, prelude=prelude) as server:
        challengers = []
        for number in range(5):
            name = f"Player {chr(65 + number)}" if number < 4 else None  # the last gives no name
            offer = {"type": "challenge", "deal": {"number": 5}, "first": "creator"}
            client = following(server.url, offer, name=name, source=f"127.0.3.{number + 1}")
            client.expect("created")
            challengers.append(client)
        page = new_page(browser)
        page.goto(server.base + "/")
        page.wait_for_selector("#challenge-more-line:not([hidden])")
        listed = page.locator("#challenge-list li").all_text_contents()
        assert [text.split(";")[0][:13] for text in listed] == ["Play Player A", "Play Player B", "Play Player C"]
        assert page.text_content("#challenge-more") == "2 more challenges are open."
        page.click("#challenge-next")
        page.wait_for_selector("#challenge-list li:nth-child(5)")
        last = page.text_content("#challenge-list li:nth-child(5)")
        assert last == "Play a challenger who gave no nameDeal 5; the challenger moves first; no time limit."
        assert page.is_hidden("#challenge-more-line")
        page.locator("#challenge-list li:nth-child(5)").click()  # the last one, taken with a click
        page.wait_for_selector("body[data-playable]")
        challengers[4].expect("state")
        assert page.errors == []
        for client in challengers:
            client.close()
