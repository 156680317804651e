"""A browser's own figures through a real ``serve`` with its solver: a game on the deal of the day
filed under a device key lands in the day's table against par and in the device's statistics,
figured as the window figures them; a device key that does not read is refused in one line."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from battle.history.stats import compute_stats
from battle.history.store import GameEntry
from battle.online.server.days.table import against_par
from battle.rules.deal import deal
from tests.online.test_online_solver import WAIT, play_on
from tests.online_server import Client, ServerProcess, midday_offset

DEVICE = "0123456789abcdef0123456789abcdef"


@pytest.fixture(scope="module")
def solver_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("device")
    with ServerProcess(folder, "--solver-workers", "1", clock_offset=midday_offset()) as server:
        yield server


def test_the_deal_of_the_day_in_the_table_and_the_statistics(solver_server: ServerProcess) -> None:
    asker = Client(solver_server.url)
    asker.send({"type": "daily"})
    before = asker.expect("daily_table", WAIT)
    assert isinstance(before["deal"], int) and isinstance(before["par"], int) and before["rows"] == []
    player = Client(solver_server.url, "Ann")
    player.send({"type": "solver_game", "level": "beginner", "deal": {"daily": True}, "first": "creator"})
    player.expect("solver_created", WAIT)
    state = player.expect("state", WAIT)
    player.send({"type": "device", "device": DEVICE})
    state = play_on(player, state)
    assert state["status"] == "finished"
    you = state["you"]
    scores = tuple(state["scores"])
    first = deal(before["deal"]).to_move
    asker.send({"type": "daily", "device": DEVICE})
    table = asker.expect("daily_table", WAIT)
    assert table["rows"] == [
        {
            "place": 1,
            "name": "Ann",
            "score": scores[you - 1],
            "against_par": against_par(scores, table["par"], first, you),  # type: ignore[arg-type]
            "opponent": "beginner",
            "yours": True,
            "tag": None,
        }
    ]
    asker.send({"type": "my_stats", "device": DEVICE})
    stats = asker.expect("my_stats_result", WAIT)
    levels = (None, "beginner") if you == 1 else ("beginner", None)
    window = compute_stats(
        [GameEntry(0.0, "window", ("a", "b"), levels, you, before["deal"], "", scores)],  # type: ignore[arg-type]
        [],
    )
    tally = window.tallies[0]
    assert stats["tallies"] == [
        {
            "opponent": "beginner",
            "wins": tally.wins,
            "draws": tally.draws,
            "losses": tally.losses,
            "average_margin": tally.average_margin,
        }
    ]
    assert (stats["rating"]["rating"], stats["rating"]["games"]) == (round(window.solver.current.rating), 1)
    assert [game["review"] for game in stats["best"]] == [None]
    for client in (asker, player):
        client.close()


def test_a_device_key_that_does_not_read_is_refused_in_one_line(solver_server: ServerProcess) -> None:
    client = Client(solver_server.url)
    client.send({"type": "my_stats", "device": "ABC"})
    error = client.error(WAIT)
    assert error["reason"] == "\"device\": expected 32 lowercase hex digits, got 'ABC'"
    client.send({"type": "device", "device": DEVICE})
    assert client.error(WAIT)["code"] == "no_game"
    client.close()
