"""The header's sections, the way a player finds things: from every screen one tap reaches the forms that start a game,
the lobby, the puzzles, the analysis board and the statistics (the brand is home, where games are played), in
the reader's language and on a phone held upright without widening the page."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Served
from tests.web.game_pages import DESKTOP, PHONE, new_page

SECTIONS = {
    "Play": "/#solver-form",
    "Lobby": "/#lobby",
    "Puzzles": "/puzzles/",
    "Analysis": "/analysis/",
    "Statistics": "/stats/",
}
SCREENS = ("/", "/puzzles/", "/analysis/", "/stats/")


def test_every_screen_reaches_every_section_in_one_tap(browser: Any, served: Served) -> None:
    page = new_page(browser, **DESKTOP)
    for screen in SCREENS:
        page.goto(served.base + screen)
        links = page.eval_on_selector_all(
            "header nav.sections a", "links => links.map((a) => [a.textContent, a.getAttribute('href')])"
        )
        assert dict(links) == SECTIONS, (screen, links)
    page.goto(served.base + "/puzzles/")
    page.click("header nav.sections a:text-is('Statistics')")
    page.wait_for_url("**/stats/")
    page.wait_for_selector("#stats:not([hidden])")
    page.click("header nav.sections a:text-is('Lobby')")
    page.wait_for_selector("#lobby-title")
    page.wait_for_function("() => document.getElementById('lobby').getBoundingClientRect().top < innerHeight")
    page.click("header .brand")
    page.wait_for_selector("#home:not([hidden])")
    page.goto(served.base + "/analysis/")
    page.click("header nav.sections a:text-is('Play')")
    page.wait_for_selector("#solver-form")
    page.wait_for_function("() => document.getElementById('solver-form').getBoundingClientRect().top < innerHeight")
    assert page.errors == []


def test_the_sections_are_in_the_readers_language_on_a_phone(browser: Any, served: Served) -> None:
    page = new_page(browser, **PHONE)
    page.goto(served.base + "/stats/?lang=de")
    page.wait_for_selector("#stats:not([hidden])")
    names = page.eval_on_selector_all("header nav.sections a", "links => links.map((a) => a.textContent)")
    assert names == ["Spielen", "Lobby", "Aufgaben", "Analyse", "Statistik"]
    assert all("lang=de" in href for href in page.eval_on_selector_all("header nav a", "a => a.map((l) => l.href)"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.set_viewport_size({"width": 320, "height": 640})  # the narrowest phone: the longest names still fit
    page.wait_for_function("() => document.documentElement.scrollWidth <= 320")
    heights = page.eval_on_selector_all("header nav.sections a", "links => links.map((a) => a.offsetHeight)")
    assert min(heights) >= 44  # a finger's target
    assert page.errors == []
