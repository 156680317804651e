"""The guard on the page: every screen of a game by link (home, waiting, the game with its clock, a
takeback, a resignation, a rematch, a call-off, a watcher, bad links) read in headless Chromium
against a real ``serve``, in German and in English, holds no word of the other language
(``tests/i18n/language_guard.py``). A screen is its visible text and what a screen reader
hears (the ``aria-label`` of its elements)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.i18n.language_guard import Screen, report
from tests.web.conftest import Served
from tests.web.game_pages import DESKTOP, click_pair, give_name, host, new_page, wait_ply

NAMES = ("Ann", "Bob", "Eve")
LOCALES = {"de": "de-DE", "en": "en-US"}
READ = """() => {
  const shown = document.body.innerText;
  const heard = [...document.querySelectorAll("[aria-label]")]
    .filter((element) => element.offsetParent !== null)
    .map((element) => element.getAttribute("aria-label"));
  return shown + "\\n" + heard.join("\\n");
}"""


def screen(page: Any, name: str) -> Screen:
    return Screen(name, str(page.evaluate(READ)), NAMES)


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_screen_of_the_page_is_in_one_language(browser: Any, served: Served, language: str) -> None:
    def a_page() -> Any:
        return new_page(browser, **DESKTOP, locale=LOCALES[language])

    screens = []
    ann, bob, eve = a_page(), a_page(), a_page()
    ann.goto(served.base + "/")
    ann.wait_for_selector("#home:not([hidden])")
    screens.append(screen(ann, "home"))

    ann.fill("#host-form input[name=name]", "Ann")
    ann.check("#host-form input[name=deal][value=number]")
    ann.fill("#host-form input[name=number]", "")
    ann.click("#host-button")  # no deal number: the page says what one is
    ann.wait_for_selector("#notice:not(:empty)")
    screens.append(screen(ann, "a wrong deal number"))

    link = host(ann, served.base, "Ann", deal=4, move_seconds="60")
    screens.append(screen(ann, "waiting"))
    ann.click("#abort-waiting")
    ann.wait_for_selector('body[data-status="finished"]')
    screens.append(screen(ann, "called off"))

    link = host(ann, served.base, "Ann", deal=4, first="creator", move_seconds="60")
    ann.click("#copy-link")
    ann.wait_for_selector("#invite-said:not([hidden])")
    screens.append(screen(ann, "the link copied"))
    bob.goto(link)  # the seat is kept in the browser with the server's answer: wait for it, not only the card
    bob.wait_for_selector("body[data-playable]")
    bob.wait_for_selector("#name-ask:not([hidden])")
    screens.append(screen(bob, "a friend's link, the name asked beside the board"))
    give_name(bob, "Bob")
    ann.wait_for_selector("body[data-playable]")
    screens.append(screen(ann, "game with a clock, to move"))
    screens.append(screen(bob, "game with a clock, waiting"))
    watch_code = ann.text_content("#watch-code") or ""
    eve.goto(f"{served.base}/watch/{watch_code}")
    eve.wait_for_selector("body[data-playable]")
    screens.append(screen(eve, "watching"))

    click_pair(ann)
    for page in (ann, bob, eve):
        wait_ply(page, 1)
    ann.click("#takeback")
    bob.wait_for_selector("#offer:not([hidden])")
    screens.append(screen(bob, "a takeback asked"))
    screens.append(screen(ann, "a takeback waiting"))
    bob.click("#offer-no")
    ann.wait_for_selector("#takeback:not([hidden])")
    screens.append(screen(ann, "a takeback turned down"))

    bob.click("#resign")
    bob.wait_for_selector("#confirm[open]")
    screens.append(screen(bob, "resign?"))
    bob.click("#confirm-yes")
    for page in (ann, bob, eve):
        page.wait_for_selector('body[data-status="finished"]')
    screens += [screen(ann, "won by resignation"), screen(bob, "resigned"), screen(eve, "watched a resignation")]
    ann.click("#rematch")
    bob.wait_for_selector("#offer:not([hidden])")
    screens += [screen(bob, "a rematch offered"), screen(ann, "a rematch waiting")]

    for path in ("/join/ZZZZ-ZZZZ", "/watch/ZZZZ-ZZZZ", "/join/UUUU", "/join/"):
        eve.goto(served.base + path)
        eve.wait_for_selector("#notice:not(:empty)")
        screens.append(screen(eve, f"bad link {path}"))

    assert report(screens, language) == ""
    assert ann.errors == bob.errors == eve.errors == []
