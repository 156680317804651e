"""A device's answers (``wire``'s sibling): the table of the deal of the day (``daily_table``) and a
device's statistics (``my_stats_result``), plain JSON objects built from the facts the device desk
reads (the day's rows, the window's ``Stats``): facts, which the page words."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from battle.history.stats import Stats, Tally
from battle.history.store import GameEntry
from battle.online.protocol.messages import JsonObject
from battle.online.server.day_table import DayRow
from battle.online.server.device_games import DeviceGame


def daily_table(
    day: datetime.date, deal: int | None, par: int | None, first: int | None, rows: Sequence[DayRow]
) -> JsonObject:
    """The ``daily_table`` of ``day``: its deal (None: no deal of the day), the deal's par, who moves
    first in it, and the day's table."""
    answer: JsonObject = {
        "type": "daily_table",
        "day": day.isoformat(),
        "deal": deal,
        "par": par,
        "rows": [_row_json(row) for row in rows],
    }
    if deal is not None:
        answer["first"] = first
    return answer


def _row_json(row: DayRow) -> JsonObject:
    return {
        "place": row.place,
        "name": row.name,
        "score": row.score,
        "against_par": row.against_par,
        "opponent": row.opponent,
        "yours": row.yours,
        "tag": row.tag,
    }


def stats_json(stats: Stats, games: list[DeviceGame]) -> JsonObject:
    """The ``my_stats_result`` of ``stats`` (figured from ``games``): facts, which the page words."""
    reviews = {game.entry.game_key: game.review for game in games}
    rating = stats.solver
    return {
        "type": "my_stats_result",
        "games": stats.your_games,
        "tallies": [_tally_json(tally) for tally in stats.tallies],
        "average_margin": None if stats.average_margin is None else round(stats.average_margin, 2),
        "rating": {
            "rating": round(rating.current.rating),
            "deviation": round(rating.current.deviation),
            "margin": round(2 * rating.current.deviation),
            "games": rating.games,
            "plays_like": rating.plays_like(),
            "history": [[when, round(after.rating), round(after.deviation)] for when, after in rating.history],
        },
        "unrated": stats.unrated,
        "accuracy": [[when, round(percent, 1)] for when, percent in stats.accuracy],
        "best": [_game_json(entry, reviews) for entry in stats.best],
        "worst": [_game_json(entry, reviews) for entry in stats.worst],
    }


def _tally_json(tally: Tally) -> JsonObject:
    return {
        "opponent": tally.opponent,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "average_margin": round(tally.average_margin, 2) if tally.margin_games else None,
    }


def _game_json(entry: GameEntry, reviews: dict[str | None, str | None]) -> dict[str, Any]:
    you = entry.you or 1
    return {
        "game": entry.game_key,
        "finished_at": entry.finished_at,
        "deal": entry.deal,
        "opponent": entry.opponent_level() or entry.players[2 - you],
        "solver": entry.opponent_level() is not None,
        "score": entry.scores[you - 1],
        "opponent_score": entry.scores[2 - you],
        "review": reviews.get(entry.game_key),
    }
