"""The deal of the day and this browser's statistics in Chromium, through a real ``serve`` with its
solver: the home screen's deal of the day with its par, a whole game on it against beginner by
clicks, the day's table with the row against par; a friend's game on it, both players listed; a
second game, then ``/stats/`` with the two
games against the level, the rating against the solver, its plot and the best and worst games that
open their game; German on a phone; axe-core on both screens at a desktop's size and a phone's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from battle.history.stats import compute_stats
from battle.history.store import GameEntry
from battle.online.server.days.table import against_par
from battle.online.server.limits.server import ServerLimits
from battle.rules.deal import deal
from tests.loopback_relay import LoopbackRelay
from tests.online.test_online_solver import WAIT, play_on
from tests.online_server import Client, ServerProcess, create, midday_offset
from tests.online_server import play_to_the_end as clients_play_to_the_end
from tests.web.accessibility import axe_script, described, violations
from tests.web.game_pages import DESKTOP, PHONE, join, new_page, play_turns
from tests.web.test_web_solver import play_solver, play_to_the_end

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture
def daily_served(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of the test's own: each test's day starts with an empty table."""
    lifted = ("--max-solver-games-per-address", "100", "--creates-per-hour", "3600000")
    with ServerProcess(tmp_path, "--solver-workers", "1", *lifted, clock_offset=midday_offset()) as server:
        yield server


def the_day(server: ServerProcess) -> dict[str, Any]:
    """The server's ``daily_table`` as a client reads it."""
    client = Client(server.url)
    client.send({"type": "daily"})
    table = client.expect("daily_table", 30)
    client.close()
    return table


def finished_scores(page: Any) -> tuple[int, int]:
    """The final scores the page shows, player 1's first."""
    scores = [int(str(page.text_content(f"#player-{seat} .score")).split()[0]) for seat in (1, 2)]
    return scores[0], scores[1]


def test_the_deal_of_the_day_against_par_and_the_statistics_of_two_games(
    browser: Any, daily_served: ServerProcess
) -> None:
    base = daily_served.base
    day = the_day(daily_served)
    page = new_page(browser)
    page.goto(base + "/")
    page.wait_for_selector("#daily:not([hidden])")
    par = day["par"]
    par_words = "par even" if par == 0 else f"par {par:+d} for the player who moves first"
    assert page.text_content("#daily-deal") == f"Deal of the day: #{day['deal']}, {par_words}."
    assert page.is_visible("#daily-empty") and page.is_hidden("#daily-table")

    page.fill("#daily-form input[name=name]", "Ann")
    page.select_option("#daily-form select[name=level]", "beginner")
    page.click("#daily-solver")
    page.wait_for_selector("body[data-playable]")
    play_to_the_end(page)
    you = deal(day["deal"]).to_move  # the deal of the day's button: the player moves first
    scores = finished_scores(page)

    page.goto(base + "/")
    page.wait_for_selector("#daily-rows tr.yours")
    row = page.eval_on_selector_all("#daily-rows tr.yours td", "cells => cells.map((cell) => cell.textContent)")
    difference = against_par(scores, par, deal(day["deal"]).to_move, you)
    words = "on par" if difference == 0 else f"{abs(difference)} {'better' if difference > 0 else 'worse'}"
    assert row == ["1", "Ann", str(scores[you - 1]), words, "beginner"]

    play_solver(page, base, level="beginner", deal=3)
    play_to_the_end(page)
    second = (deal(3).to_move, finished_scores(page))

    page.goto(base + "/stats/")
    page.wait_for_selector("body[data-stats=shown]")
    tally = page.eval_on_selector_all(".stats-tallies tbody td", "cells => cells.map((cell) => cell.textContent)")
    entries = [
        GameEntry(float(n), "online", ("a", "b"), levels, side, number, "", game_scores)
        for n, (side, game_scores, number) in enumerate([(you, scores, day["deal"]), (*second, 3)])
        for levels in [(None, "beginner") if side == 1 else ("beginner", None)]
    ]
    window = compute_stats(entries, [])
    expected = window.tallies[0]
    assert tally[:4] == ["beginner", str(expected.wins), str(expected.draws), str(expected.losses)]
    rating = window.solver.current
    assert page.text_content("#stats-rating").startswith(
        f"{rating.rating:.0f} ± {2 * rating.deviation:.0f} after 2 rated games"
    )
    assert page.is_visible("#stats-rating-plot")
    assert page.get_attribute("#stats-rating-plot", "aria-label").startswith("Your rating against the solver")
    assert page.locator("#stats-best li").count() == 2
    assert "kept apart" in page.text_content("#stats .lead")
    page.click("#stats-best li a >> nth=0")
    page.wait_for_url(re.compile(rf"{base}/play/\w+"))
    page.wait_for_selector("body[data-status=finished]")
    assert page.errors == []


def test_german_on_a_phone_and_no_serious_accessibility_violation(browser: Any, daily_served: ServerProcess) -> None:
    axe_script()
    page = new_page(browser, **PHONE, locale="de-DE", bypass_csp=True)
    page.goto(daily_served.base + "/")
    page.wait_for_selector("#daily:not([hidden])")
    assert page.text_content("#daily-title") == "Tagesverteilung"
    assert page.text_content("#daily-deal").startswith("Tagesverteilung: #")
    assert page.text_content("#daily-friend") == "Gegen einen Freund spielen"
    # a game of the day played out, a row in the table (by a client: the clicks are the first test's)
    player = Client(daily_served.url, "Hanna")
    player.send({"type": "solver_game", "level": "beginner", "deal": {"daily": True}, "first": "creator"})
    player.expect("solver_created", WAIT)
    assert play_on(player, player.expect("state", WAIT))["status"] == "finished"
    player.close()
    page.goto(daily_served.base + "/")
    page.wait_for_selector("#daily-rows tr")  # the table fits the phone's width
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    found: dict[str, list[dict[str, Any]]] = {}
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        found[f"home with the deal of the day ({size})"] = violations(page)
    page.goto(daily_served.base + "/stats/")
    page.wait_for_selector("body[data-stats=shown]")
    assert page.text_content("#stats-title") == "Deine Statistik"
    assert "getrennt" in page.text_content("#stats .lead")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        found[f"statistics ({size})"] = violations(page)
    assert not any(found.values()), described(found)
    desktop = new_page(browser, **DESKTOP)
    desktop.goto(daily_served.base + "/stats/")
    desktop.wait_for_selector("body[data-stats=shown]")
    assert desktop.errors == []


def table_rows(page: Any) -> list[list[str]]:
    """The day's table as the page shows it: each row's cells after its place."""
    return page.eval_on_selector_all(
        "#daily-rows tr", "rows => rows.map((row) => [...row.cells].slice(1).map((cell) => cell.textContent))"
    )


def test_a_friends_game_between_two_networks_lists_both_and_one_on_one_network_none(
    browser: Any, tmp_path: Path
) -> None:
    """Flo and Gus on two networks are both listed (each browser through a relay from an address of its
    own: Chromium 150 sends no ``extra_http_headers`` in a WebSocket's handshake); Hal and Ivy, two
    connections of one network forwarded by a proxy (by hand, to spare a second game of clicks),
    play the deal of the day to the end as well, and neither is listed (one address would play both
    sides to any score); the page says what counts."""
    lifted = ("--max-solver-games-per-address", "100", "--creates-per-hour", "3600000", "--trust-proxy")
    with (
        ServerProcess(tmp_path, "--solver-workers", "1", *lifted) as served,
        LoopbackRelay((served.host, served.port), "127.0.0.7") as flo_relay,
        LoopbackRelay((served.host, served.port), "127.0.0.9") as gus_relay,
    ):
        day = the_day(served)
        flo_base, gus_base = flo_relay.base(), gus_relay.base()

        def friends_game(host_page: Any, guest: Any, names: tuple[str, str]) -> tuple[tuple[int, int], int]:
            host_page.goto(flo_base + "/")
            host_page.wait_for_selector("#daily:not([hidden])")
            host_page.fill("#daily-form input[name=name]", names[0])
            host_page.click("#daily-friend")
            host_page.wait_for_selector("#invite-link:not(:empty)")
            link = str(host_page.text_content("#invite-link"))
            assert link.startswith(flo_base + "/"), link  # the page's own address, through its relay
            join(guest, gus_base + link.removeprefix(flo_base), names[1])  # opened on the guest's network
            play_turns([host_page, guest])
            host_seat = 1 if names[0] in str(host_page.text_content("#player-1 .name")) else 2
            return finished_scores(host_page), host_seat

        hal = Client(served.url, name="Hal", forwarded_for="198.51.100.20")
        created = create(hal, day["deal"])
        ivy = Client(served.url, name="Ivy", forwarded_for="198.51.100.20")
        ivy.send({"type": "join", "code": created["invite"]})
        ivy.expect("joined")
        state = ivy.expect("state")
        hal.expect("state")
        assert clients_play_to_the_end({created["seat"]: hal, 3 - created["seat"]: ivy}, state)["status"] == "finished"
        hal.close()
        ivy.close()
        ann, bob = new_page(browser, **DESKTOP), new_page(browser, **DESKTOP)
        scores, flo_seat = friends_game(ann, bob, ("Flo", "Gus"))
        first = deal(day["deal"]).to_move
        bob.goto(gus_base + "/")
        bob.wait_for_selector("#daily-rows tr.yours")
        rows = table_rows(bob)
        for name, seat in (("Flo", flo_seat), ("Gus", 3 - flo_seat)):
            difference = against_par(scores, day["par"], first, seat)
            words = "on par" if difference == 0 else f"{abs(difference)} {'better' if difference > 0 else 'worse'}"
            assert [name, str(scores[seat - 1]), words, "a friend"] in rows
        assert len(rows) == 2, rows  # Hal's and Ivy's game is not there
        assert bob.text_content("#daily-rows tr.yours td:nth-child(2)") == "Gus"
        assert "games between two players of two networks" in str(bob.text_content("#daily-bound"))
        assert ann.errors == bob.errors == []


def test_a_game_not_filed_is_said_beside_the_board_and_played_all_the_same(
    browser: Any, daily_served: ServerProcess
) -> None:
    for number in range(
        ServerLimits().device_keys_per_hour
    ):  # the network files games under as many new keys as an hour allows
        client = Client(daily_served.url)
        client.send({"type": "solver_game", "level": "beginner", "deal": {"number": 3}, "first": "creator"})
        client.expect("state", WAIT)
        client.send({"type": "device", "device": f"{number:032x}"})
        client.send({"type": "ping", "t": number})
        client.expect("pong", WAIT)  # the claim before it was handled: a connection's frames are taken in turn
        assert not [message for message in client.seen if message["type"] == "error"]
        client.close()
    page = new_page(browser)
    play_solver(page, daily_served.base, level="beginner", deal=3)
    page.wait_for_function("() => document.getElementById('turn').textContent.includes('not counted')")
    assert "your network began too many new ones within the hour" in str(page.text_content("#turn"))
    assert page.locator("#board.your-turn").count() == 1


def test_one_resigned_game_reads_one_rated_game_and_no_best_games_heading(
    browser: Any, daily_served: ServerProcess
) -> None:
    """A game against beginner resigned at its start, filed under this browser's key: the rating reads
    "after 1 rated game" (one, not "games"), and with no game played to the end there is no "Best
    games" heading over an empty list."""
    device = "00112233445566778899aabbccddeeff"
    player = Client(daily_served.url, "Ann")
    player.send({"type": "solver_game", "level": "beginner", "deal": {"number": 3}, "first": "creator"})
    player.expect("solver_created", WAIT)
    player.expect("state", WAIT)
    player.send({"type": "device", "device": device})
    player.send({"type": "resign"})
    while player.read(WAIT).get("status") != "finished":
        pass
    player.close()
    page = new_page(browser)
    page.add_init_script(f"localStorage.setItem('mahjong-battle-device', '{device}')")
    page.goto(daily_served.base + "/stats/")
    page.wait_for_selector("body[data-stats=shown]")
    assert re.search(r" after 1 rated game: you play like the level ", page.text_content("#stats-rating") or "")
    assert page.is_hidden("#stats-best-title") and page.is_hidden("#stats-best")
    assert page.errors == []
