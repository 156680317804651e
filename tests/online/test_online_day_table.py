"""The day's table through a real ``serve`` and hand-written clients on their own addresses: games a
network plays against itself stay out, a game between two networks is in, each network holds one
row, and a result that ends after many others is still read (the table reads on, a chunk a
``daily``, with no first-come cut)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.online.test_online_groups_shared import DAILY
from tests.online_server import Client, ServerProcess, create, following, midday_offset, play_to_the_end

CHUNK = 2
"""Seats a ``daily`` reads at most in this test's server (500 in a real one)."""
DEVICE = "fedcba9876543210fedcba9876543210"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServerProcess]:
    prelude = f"{DAILY}\nimport battle.online.server.days.results as results; results.READ_CHUNK = {CHUNK}"
    lifted = ("--creates-per-hour", "3600000", "--max-games-per-address", "50")
    with ServerProcess(tmp_path, *lifted, prelude=prelude, clock_offset=midday_offset()) as server:
        yield server


def daily(server: ServerProcess, device: str | None = None) -> dict[str, Any]:
    asker = Client(server.url, source="127.0.8.1")
    asker.send({"type": "daily", "device": device} if device else {"type": "daily"})
    table = asker.expect("daily_table", 30)
    asker.close()
    return table


def friends_game(server: ServerProcess, deal: int, sources: tuple[str, str], names: tuple[str, str]) -> None:
    """A friends' game on ``deal`` between ``sources``, played to its end; the guest files it under ``DEVICE``."""
    host = Client(server.url, name=names[0], source=sources[0])
    created = create(host, deal)
    guest = following(server.url, {"type": "join", "code": created["invite"]}, name=names[1], source=sources[1])
    guest.expect("joined")
    state = guest.expect("state")
    host.expect("state")
    guest.send({"type": "device", "device": DEVICE})
    players = {created["seat"]: host, 3 - created["seat"]: guest}
    assert play_to_the_end(players, state)["status"] == "finished"
    host.close()
    guest.close()


def test_self_played_games_stay_out_and_a_late_result_is_read_however_many_came_first(
    served: ServerProcess,
) -> None:
    number = daily(served)["deal"]
    assert isinstance(number, int)
    for crowd in range(3):  # three addresses, each playing both sides of two games
        address = f"127.0.7.{crowd + 1}"
        for game in range(2):
            friends_game(served, number, (address, address), (f"Maria {crowd}{game}", f"Maria x{crowd}{game}"))
    friends_game(served, number, ("127.0.6.1", "127.0.6.2"), ("Ann", "Ben"))
    friends_game(served, number, ("127.0.6.1", "127.0.6.3"), ("Ann again", "Cid"))
    friends_game(served, number, ("127.0.6.4", "127.0.6.5"), ("Maria", "Dan"))  # the last to end
    assert len(daily(served)["rows"]) <= CHUNK  # the first ask after them reads two seats
    names: set[str] = set()
    for _ in range(8):  # 6 seats count, read two a daily: every one is in within a few asks
        names = {row["name"] for row in daily(served)["rows"]}
        if "Maria" in names:
            break
    assert "Maria" in names and "Dan" in names
    assert not any(name.startswith("Maria ") for name in names)  # the self-played games never count
    rows = daily(served, DEVICE)["rows"]
    assert len([row for row in rows if row["name"] in ("Ann", "Ann again")]) == 1  # one row a network
    assert {row["name"] for row in rows} == names
    assert all(row["tag"] is None for row in rows)
    assert [row["place"] for row in rows] == list(range(1, len(rows) + 1))
    assert {row["name"] for row in rows if row["yours"]} == {"Ben", "Cid", "Dan"}  # the guests filed the games
