"""The page against ``serve --processes 2``: a game whose two players' networks have their homes in
different processes is played in one of them; the other player's page is answered ``elsewhere``,
connects again at ``?at=`` and keeps it, so a reload goes straight to the game's process.

Each player's page reaches the server through a relay that connects from an address of that
player's home (``shards.home_of``: 127.0.0.3 is process 1's, 127.0.0.1 process 0's), so the server
sees two networks as it sees two players' own addresses, whatever the browser's build sends."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from battle.online.server.rooms.shards import home_of, shard_of
from tests.loopback_relay import LoopbackRelay
from tests.online_server import ServerProcess
from tests.web.game_pages import DESKTOP, host, join, new_page, play_turns, ply, wait_ply

HOME_0 = "127.0.0.1"
HOME_1 = "127.0.0.3"


def test_the_relays_come_from_the_homes_the_test_assumes() -> None:
    assert (home_of(HOME_0, 2), home_of(HOME_1, 2)) == (0, 1)


def test_two_players_of_two_homes_play_one_game_through_the_processes(browser: Any, tmp_path: Path) -> None:
    with (
        ServerProcess(tmp_path, "--processes", "2") as server,
        LoopbackRelay((server.host, server.port), HOME_1) as ann_relay,
        LoopbackRelay((server.host, server.port), HOME_0) as bob_relay,
    ):
        ann, bob = new_page(browser, **DESKTOP), new_page(browser, **DESKTOP)
        link = host(ann, ann_relay.base(), "Ann", deal=1, first="creator")
        assert link.startswith(ann_relay.base() + "/")
        join(bob, bob_relay.base() + link.removeprefix(ann_relay.base()), "Bob")
        ann.wait_for_selector("body[data-playable]")
        play_turns([ann, bob], turns=4)
        for page in (ann, bob):
            wait_ply(page, 4)
        assert ply(ann) == ply(bob) == 4
        assert "at=1" in bob.url  # the page's address names the game's process
        bob.reload()  # a new connection from Bob's home, straight to the game's process
        bob.wait_for_selector('body[data-ply="4"]')
        assert ann.errors == [] and bob.errors == []
        assert shard_of(_game_id(tmp_path), 2) == 1  # made by Ann's home; Bob's page sent there


def _game_id(folder: Path) -> str:
    with sqlite3.connect(folder / "games.sqlite3") as connection:
        (game_id,) = connection.execute("SELECT id FROM games").fetchall()
        return str(game_id[0])


def test_the_lobby_of_a_player_whose_home_is_not_the_lobbys_process_lists_and_takes_a_challenge(
    browser: Any, tmp_path: Path
) -> None:
    """The lobby lives in process 0: Cleo's home page (process 1's home) is sent there and lists a
    challenge Ann offers from process 1's home as well, and Cleo takes it with a click."""
    from tests.web.test_web_lobby import offer_challenge

    with (
        ServerProcess(tmp_path, "--processes", "2") as server,
        LoopbackRelay((server.host, server.port), HOME_1) as relay,
    ):
        cleo = new_page(browser, **DESKTOP)
        cleo.goto(relay.base() + "/")
        cleo.wait_for_selector("#challenge-empty:not([hidden])")  # the lobby answered, from process 0
        ann = new_page(browser, **DESKTOP)
        offer_challenge(ann, relay.base(), "Ann")
        offered = cleo.locator("#challenge-list button", has_text="Play Ann")
        offered.click()
        cleo.wait_for_selector("body[data-playable]")
        ann.wait_for_selector("body[data-playable]")
        assert cleo.errors == [] and ann.errors == []
