"""The browser client in the reader's language: the server answers each language's words for the
page from the game's catalogue (``/locale/de.json``), and a browser set to German shows the page,
its buttons and its sentences in German, the moves and codes as they are."""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest

from tests.online_server import ServerThread
from tests.web.conftest import Served
from tests.web.game_pages import DESKTOP, host, new_page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    with ServerThread(tmp_path_factory.mktemp("web") / "games.sqlite3") as running:
        yield running


def get(server: ServerThread, path: str) -> tuple[int, str, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, response.getheader("Content-Type") or "", body


def test_the_server_answers_a_languages_words_for_the_page(server: ServerThread) -> None:
    status, content_type, body = get(server, "/locale/de.json")
    assert status == 200 and content_type == "application/json"
    words = json.loads(body)
    assert words["language"] == "de"
    assert words["messages"]["Host a game"] == "Partie anbieten"
    assert words["messages"]["Play a friend or the solver"] == "Spiel gegen einen Freund oder den Solver"
    assert words["messages"]["{count} point"] == ["{count} Punkt", "{count} Punkte"]
    assert "Start game" not in words["messages"], "only the page's own texts are sent"
    for path in ("/locale/xx.json", "/locale/../de.json", "/locale/de", "/locale/en.json"):
        assert get(server, path)[0] == (200 if path == "/locale/en.json" else 404), path
    assert json.loads(get(server, "/locale/en.json")[2])["messages"] == {}


def test_a_german_browser_reads_the_page_in_german(browser: Any, served: Served) -> None:
    page = new_page(browser, **DESKTOP, locale="de-DE")
    page.goto(served.base + "/")
    page.wait_for_selector("#home:not([hidden])")
    assert page.text_content("#home-title") == "Spiel gegen einen Freund oder den Solver"
    assert page.text_content("#host-button") == "Anbieten und Link holen"
    assert page.get_attribute("html", "lang") == "de"
    host(page, served.base, "Anna", deal=1, first="creator")
    assert "Warte, bis dein Gegner den Link öffnet" in page.text_content("#turn")
    assert page.text_content("#copy-link") == "Link kopieren"
    assert page.text_content("#invite-here-only").startswith("Dieser Link funktioniert nur auf diesem Rechner.")
    assert page.errors == []

    english = new_page(browser, **DESKTOP, locale="en-US")
    english.goto(served.base + "/?lang=en")
    english.wait_for_selector("#home:not([hidden])")
    assert english.text_content("#home-title") == "Play a friend or the solver"
