"""The page's words for what the server refuses once and for good: a game it cannot load, a game
with as many watchers as it may have. A real ``serve`` process, the page in headless Chromium."""

from __future__ import annotations

import sqlite3
from typing import Any

from tests.online_server import Client, create, started
from tests.web.conftest import Served
from tests.web.game_pages import new_page


def test_a_game_the_server_cannot_load_is_said_so(browser: Any, served: Served) -> None:
    host, guest, created, _ = started(served.url)
    host.close()
    guest.close()
    served.stop()
    with sqlite3.connect(served.folder / "games.sqlite3") as connection:  # its options damaged, as a bad row would be
        connection.execute("UPDATE games SET options = '{\"bad\": 1}' WHERE id = ?", (created["game"],))
    served.start()
    page = new_page(browser)
    page.goto(f"{served.base}/watch/{created['watch']}")
    page.wait_for_selector("#notice:not([hidden])")
    assert "The server could not load that game: its record there is damaged." in page.text_content("#notice")


def test_a_game_with_fifty_watchers_turns_the_next_away_in_words(browser: Any, served: Served) -> None:
    host = Client(served.url)
    created = create(host)
    watchers = []
    for _ in range(50):
        watcher = Client(served.url)
        watcher.send({"type": "watch", "code": created["watch"]})
        watcher.expect("state", 30)
        watchers.append(watcher)
    page = new_page(browser)
    page.goto(f"{served.base}/watch/{created['watch']}")
    page.wait_for_selector("#notice:not([hidden])")
    assert "As many people watch this game as may: try again later." in page.text_content("#notice")
    for client in (host, *watchers):
        client.close()
