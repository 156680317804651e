"""The page against ``serve --processes 2``: a game whose two players' networks have their homes in
different processes is played in one of them, the other player's connection passed to it whole.

Behind ``--trust-proxy`` the network is the one ``X-Forwarded-For`` names, which each browser context
here sends as a proxy would, so each player's home is known (``shards.home_of``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from battle.online.server.shards import home_of, shard_of
from tests.online_server import ServerProcess
from tests.web.game_pages import DESKTOP, host, join, new_page, play_turns, ply, wait_ply


def network_of_home(home: int) -> str:
    return next(f"203.0.113.{number}" for number in range(1, 255) if home_of(f"203.0.113.{number}", 2) == home)


def test_two_players_of_two_homes_play_one_game_through_the_processes(browser: Any, tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--processes", "2", "--trust-proxy") as server:
        pages = []
        for home in (1, 0):
            headers = {"X-Forwarded-For": network_of_home(home)}
            pages.append(new_page(browser, **DESKTOP, extra_http_headers=headers))
        ann, bob = pages
        link = host(ann, server.base, "Ann", deal=1, first="creator")
        join(bob, link, "Bob")
        ann.wait_for_selector("body[data-playable]")
        play_turns([ann, bob], turns=4)
        for page in (ann, bob):
            wait_ply(page, 4)
        assert ply(ann) == ply(bob) == 4
        bob.reload()  # a new connection from Bob's home, resumed in the game's process
        bob.wait_for_selector('body[data-ply="4"]')
        assert ann.errors == [] and bob.errors == []
        assert shard_of(_game_id(tmp_path), 2) == 1  # made by Ann's home; Bob's connections passed there


def _game_id(folder: Path) -> str:
    with sqlite3.connect(folder / "games.sqlite3") as connection:
        return str(connection.execute("SELECT id FROM games").fetchone()[0])
