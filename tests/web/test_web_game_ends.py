"""A game whose player stops moving, in two browsers: the server's limit ends it, and both pages say
who left and who won in whole sentences. A real ``serve`` process on 127.0.0.1 with the limit set
by its flag, and Debian's Chromium; every wait is for something on the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Served
from tests.web.game_pages import host, join, new_page, play_turns

LIMIT_HOURS = "0.0015"
"""5.4 s for a player to move: the two moves before the wait take well under it."""


def test_a_player_who_stops_moving_loses_and_both_pages_say_so(browser: Any, tmp_path: Path) -> None:
    with Served(tmp_path, "--abandon-hours-one-network", LIMIT_HOURS) as served:
        ann = new_page(browser)
        link = host(ann, served.base, "Ann", deal=1, first="creator")
        bob = new_page(browser)
        join(bob, link, "Bob")
        ann.wait_for_selector("body[data-playable]")
        play_turns([ann, bob], turns=2)  # Ann is to move, and does not
        for page in (ann, bob):
            page.wait_for_selector('body[data-status="finished"]')
        assert ann.text_content("#turn").startswith("You did not move for too long; Bob wins, ")
        assert bob.text_content("#turn").startswith("Ann did not move for too long; you win, ")
        assert ann.errors == bob.errors == []
