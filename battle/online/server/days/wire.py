"""A device's answers (``wire``'s sibling): the table of the deal of the day (``daily_table``) and a
device's statistics (``my_stats_result``), typed messages (``device_messages``) built from the facts
the device desk reads (the day's rows, the window's ``Stats``): facts, which the page words."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from battle.history.stats import Stats, Tally
from battle.history.store import GameEntry
from battle.online.protocol.device_messages import (
    DailyTable,
    DeviceStats,
    GameFacts,
    SolverRatingFacts,
    TableRow,
    TallyFacts,
)
from battle.online.server.days.device_games import DeviceGame
from battle.online.server.days.table import DayRow


def daily_table(
    day: datetime.date, deal: int | None, par: int | None, first: int | None, rows: Sequence[DayRow]
) -> DailyTable:
    """The ``daily_table`` of ``day``: its deal (None: no deal of the day), the deal's par, who moves
    first in it, and the day's table."""
    return DailyTable(day.isoformat(), deal, par, tuple(map(_row, rows)), first if deal is not None else None)


def _row(row: DayRow) -> TableRow:
    return TableRow(row.place, row.name, row.score, row.against_par, row.opponent, row.yours, row.tag)


def device_stats(stats: Stats, games: list[DeviceGame]) -> DeviceStats:
    """The ``my_stats_result`` of ``stats`` (figured from ``games``), rounded as the page shows it."""
    reviews = {game.entry.game_key: game.review for game in games}
    rating = stats.solver
    return DeviceStats(
        games=stats.your_games,
        tallies=tuple(_tally(tally) for tally in stats.tallies),
        average_margin=None if stats.average_margin is None else round(stats.average_margin, 2),
        rating=SolverRatingFacts(
            rating=round(rating.current.rating),
            deviation=round(rating.current.deviation),
            margin=round(2 * rating.current.deviation),
            games=rating.games,
            plays_like=rating.plays_like(),
            history=tuple((when, round(after.rating), round(after.deviation)) for when, after in rating.history),
        ),
        unrated=stats.unrated,
        accuracy=tuple((when, round(percent, 1)) for when, percent in stats.accuracy),
        best=tuple(_game(entry, reviews) for entry in stats.best),
        worst=tuple(_game(entry, reviews) for entry in stats.worst),
    )


def _tally(tally: Tally) -> TallyFacts:
    average = round(tally.average_margin, 2) if tally.margin_games else None
    return TallyFacts(tally.opponent, tally.wins, tally.draws, tally.losses, average)


def _game(entry: GameEntry, reviews: dict[str | None, str | None]) -> GameFacts:
    you = entry.you or 1
    return GameFacts(
        game=entry.game_key,
        finished_at=entry.finished_at,
        deal=entry.deal,
        opponent=entry.opponent_level() or entry.players[2 - you],
        solver=entry.opponent_level() is not None,
        score=entry.scores[you - 1],
        opponent_score=entry.scores[2 - you],
        review=reviews.get(entry.game_key),
    )
