"""The browser client in the reader's language: the server answers each language's words for the
page from the game's catalogue (``/locale/de.json``), and a browser set to German shows the page,
its buttons and its sentences in German, the moves and codes as they are."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

import pytest

from tests.online_server import ServerThread
from tests.web.conftest import Served
from tests.web.game_pages import DESKTOP, host, new_page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    with ServerThread(tmp_path_factory.mktemp("web") / "games.sqlite3") as running:
        yield running


def get(server: ServerThread | Served, path: str) -> tuple[int, str, bytes]:
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


def test_the_page_applies_the_catalogues_plural_forms_read_without_eval(browser: Any, served: Served) -> None:
    status, _type, body = get(served, "/locale/de.json")
    assert status == 200 and json.loads(body)["plural_forms"] == "nplurals=2; plural=(n != 1);"
    page = new_page(browser, **DESKTOP)
    page.goto(served.base + "/")
    picked = page.evaluate(
        """async () => {
          const { pluralRule } = await import("/i18n.js");
          const rules = {
            ru: "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : "
              + "n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
            pl: "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : 2);",
            ja: "nplurals=1; plural=0;",
            de: "nplurals=2; plural=(n != 1);",
            code: "nplurals=2; plural=alert(1);",
          };
          const counts = [0, 1, 2, 5, 11, 21, 22, 112];
          return Object.fromEntries(Object.entries(rules).map(([name, rule]) => [name, counts.map(pluralRule(rule))]));
        }"""
    )
    assert picked == {
        "ru": [2, 0, 1, 2, 2, 0, 1, 2],
        "pl": [2, 0, 1, 2, 2, 2, 1, 2],
        "ja": [0, 0, 0, 0, 0, 0, 0, 0],
        "de": [1, 0, 1, 1, 1, 1, 1, 1],
        "code": [1, 0, 1, 1, 1, 1, 1, 1],  # not C's arithmetic: English's rule, and nothing run
    }
    assert page.errors == []


def test_the_pages_words_are_the_catalogues_entries_in_the_web_context() -> None:
    from babel.messages.pofile import read_po

    from battle.i18n import WEB_CONTEXT, web_messages

    with open(Path(__file__).resolve().parents[2] / "battle/locale/de/LC_MESSAGES/mahjong_battle.po", "rb") as handle:
        catalogue = read_po(handle, locale="de")
    in_context = {m.id if isinstance(m.id, str) else m.id[0] for m in catalogue if m.id and m.context == WEB_CONTEXT}
    assert set(web_messages("de")) == in_context
    assert all(
        place.startswith("battle/web/") for m in catalogue if m.context == WEB_CONTEXT for place, _ in m.locations
    )
