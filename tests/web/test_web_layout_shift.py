"""Nothing on the page jumps while the server's answers arrive: the browser's own ``layout-shift``
entries (the Layout Instability API that Lighthouse's layout shift adds up) over a cold load on a
slow line (150 ms each way, 200 kB/s), until the deal of the day, the lobby's challenges or a joined
game's first state are shown. Each screen keeps the place of what comes later: the lobby's lists
scroll in boxes of their own, the deal of the day comes below the forms, a joiner's name card shows
before the state, the header's line keeps where its words start."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.online_server import Client, ServerProcess, following
from tests.web.game_pages import DESKTOP, PHONE, new_page

SLOW_LINE = {"offline": False, "latency": 150, "downloadThroughput": 200_000, "uploadThroughput": 90_000}
SHIFTS = """() => new Promise((resolve) => {
  const found = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.hadRecentInput) {
        found.push([entry.value, entry.sources.map((source) => source.node?.id || source.node?.nodeName || "?")]);
      }
    }
  }).observe({ type: "layout-shift", buffered: true });
  setTimeout(() => resolve(found), 500);
})"""
"""Every layout shift since the page began (``buffered``), each with the elements that moved, read
half a second on: the frames that follow the last answer shown are in it."""


@pytest.fixture
def lobby_served(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server with the deal of the day (its solver's catalogue) and three open challenges."""
    with ServerProcess(tmp_path, "--solver-workers", "1") as server:
        challengers = []
        for number, source in enumerate(("127.0.0.2", "127.0.0.2", "127.0.0.4")):
            offer = {"type": "challenge", "deal": {"number": 3 + number}, "first": "creator", "name": "Ann"}
            challenger = following(server.url, offer, source=source)
            challenger.expect("created")
            challengers.append(challenger)
        yield server
        for challenger in challengers:
            challenger.close()


SLOW_WAIT_MS = 90_000
"""The longest a cold load over the slow line may take: its module imports come in turns of 300 ms
round trips, and beside two busy loops a join page's load passed the pages' usual 20 s once."""


def on_a_slow_line(browser: Any, size: dict[str, Any]) -> Any:
    page = new_page(browser, **size)
    page.set_default_timeout(SLOW_WAIT_MS)
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.emulateNetworkConditions", SLOW_LINE)
    return page


def shift_of(page: Any) -> tuple[float, list[Any]]:
    """The page's layout shift so far (their sum, as Lighthouse counts it) and the shifts."""
    shifts = page.evaluate(SHIFTS)
    return sum(value for value, _ in shifts), shifts


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_home_does_not_move_when_the_deal_of_the_day_and_the_lobby_arrive(
    browser: Any, lobby_served: ServerProcess, size: dict[str, Any]
) -> None:
    page = on_a_slow_line(browser, size)
    page.goto(lobby_served.base + "/")
    page.wait_for_selector("#daily:not([hidden])")
    page.wait_for_function("() => document.querySelectorAll('#challenge-list li').length === 3")
    total, shifts = shift_of(page)
    assert total < 0.001, shifts  # Lighthouse's three decimals: 0.000
    if size is PHONE:  # the first screen shows the open challenges and the way to the puzzles
        below = page.evaluate("() => document.getElementById('puzzles-link').getBoundingClientRect().bottom")
        first = page.evaluate("() => document.querySelector('#challenge-list li').getBoundingClientRect().bottom")
        assert max(below, first) <= 844, (below, first)
    assert page.errors == []


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_friends_link_does_not_move_the_board_or_the_panel_when_the_game_arrives(
    browser: Any, served: ServerProcess, size: dict[str, Any]
) -> None:
    host = Client(served.url, source="127.0.0.2")
    host.send({"type": "create", "deal": {"number": 5}, "first": "creator", "name": "Ann"})
    invite = host.expect("created")["invite_secret"]
    page = on_a_slow_line(browser, size)
    page.goto(f"{served.base}/join/{invite}")
    page.wait_for_selector("body[data-playable]")
    page.wait_for_function("() => document.querySelector('#player-1 .name').textContent === 'Ann'")
    total, shifts = shift_of(page)
    assert total < 0.001, shifts
    assert page.is_visible("#name-ask")  # shown before the state, its line of the opponent's view kept
    if size is PHONE:  # above the board, which did not move
        board = page.evaluate("() => document.getElementById('board').getBoundingClientRect().top")
        assert board > page.evaluate("() => document.getElementById('name-ask').getBoundingClientRect().bottom")
    host.close()
    assert page.errors == []


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("/puzzles/", "#puzzle-about:not(:empty)"),
        ("/stats/", "#stats:not([hidden])"),
        ("/analysis/", "#analysis:not([hidden])"),
    ],
    ids=["puzzles", "statistics", "analysis"],
)
def test_the_puzzles_statistics_and_analysis_do_not_move_when_their_answers_arrive(
    browser: Any, lobby_served: ServerProcess, path: str, shown: str, size: dict[str, Any]
) -> None:
    page = on_a_slow_line(browser, size)
    page.goto(lobby_served.base + path)
    page.wait_for_selector(shown)
    total, shifts = shift_of(page)
    assert total < 0.001, shifts
    assert page.errors == []
