"""A device's answers on the wire (``daily_table``, ``my_stats_result``): typed values
(``device_messages``) built from the statistics and the day's rows (``days.wire``), whose frames
are pinned byte for byte in ``tests/data/device_frames.txt`` (as the page has always read them)."""

from __future__ import annotations

import datetime
from pathlib import Path

from battle.history.stats import compute_stats
from battle.history.store import GameEntry
from battle.online.protocol import messages
from battle.online.protocol.device_messages import DailyTable, DeviceStats, device_news_json
from battle.online.server.days.device_games import DeviceGame
from battle.online.server.days.table import DayRow
from battle.online.server.days.wire import daily_table, device_stats

FRAMES = Path(__file__).resolve().parents[1] / "data" / "device_frames.txt"
T0 = 1_700_000_000.0
DAY = datetime.date(2026, 11, 29)


def entry(
    number: int,
    levels: tuple[str | None, str | None],
    you: int,
    scores: tuple[int, int],
    accuracy: tuple[float | None, float | None] = (None, None),
    winner: int | None = None,
    deal: int | None = 7,
) -> GameEntry:
    return GameEntry(
        T0 + number * 3600,
        "online",
        ("Ann", "Bob"),
        levels,
        you,
        deal,
        "",
        scores,
        par=4,
        accuracy=accuracy,
        game_key=f"g{number}",
        winner=winner,
    )


GAMES = [
    DeviceGame(entry(1, (None, "beginner"), 1, (150, 120), (83.333, 50.0)), "r1"),
    DeviceGame(entry(2, ("expert", None), 2, (140, 130)), None),
    DeviceGame(entry(3, (None, None), 1, (135, 135)), None),
    DeviceGame(entry(4, (None, "club"), 1, (100, 170), winner=2), "r4"),
    DeviceGame(entry(5, (None, "master"), 1, (160, 110), (71.4286, None), deal=None), None),
]
"""Games of every kind a device files: against levels on either side, a draw between people, a loss
by the rules' end, a composed start, reviewed or not."""
ROWS = (DayRow(1, "Ann", 150, 6, "beginner", True, None), DayRow(2, "Ann", 140, -2, "friend", False, "ab12"))


def frames() -> list[str]:
    news: list[DailyTable | DeviceStats] = [
        device_stats(compute_stats([game.entry for game in GAMES], []), GAMES),
        device_stats(compute_stats([], []), []),
        daily_table(DAY, 17, 4, 2, ROWS),
        daily_table(DAY, None, None, None, ()),
    ]
    return [messages.encode(device_news_json(item)) for item in news]


def test_the_device_answers_are_the_bytes_the_page_reads() -> None:
    assert frames() == FRAMES.read_text(encoding="utf-8").splitlines()


def test_a_day_without_a_deal_says_no_first_player() -> None:
    assert "first" not in device_news_json(daily_table(DAY, None, None, None, ()))
    assert device_news_json(daily_table(DAY, 17, 4, 2, ()))["first"] == 2
