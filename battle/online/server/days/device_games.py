"""The games a browser played, filed under its device key: the rows of its statistics.

A page that holds a seat sends its device key (``device``); the seat's row in ``device_games``
names the key, so the browser's statistics (``my_stats``) and its rows in the day's table find
the game. The key is stored as given: whoever holds it reads the figures (a bearer token, as a
seat's token is; no account). The table is part of the game database's schema (``store``).

Bounds (``ServerLimits``): a network files games under at most ``device_keys_per_hour`` keys it had
not used before in an hour, and a key holds at most ``games_per_device`` games (the statistics read that many);
past either the claim is refused with one line, and the game is played as before.

The statistics themselves are the window's: each game becomes a ``battle.history.GameEntry`` and
``battle.history.stats.compute_stats`` does the arithmetic, so a tally, the rating against the
solver and the accuracy over time are figured as ``mahjong-battle stats`` figures them.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from battle.history.store import GameEntry
from battle.online.server.limits.server import ServerLimits
from battle.online.server.rooms.store import GameStore, Rows, Statement, Write

HOUR = 3600.0


def claim_refusal(
    store: GameStore,
    limits: ServerLimits,
    device: str,
    network: str,
    now: float,
    claiming: Collection[str] = (),
    held: int | None = None,
) -> tuple[str, str] | None:
    """Why ``device`` may not file another game from ``network`` now, or None: (the refusal's ``why``,
    its line). ``claiming``: the new keys whose first game the network is filing now, in any process
    (no row yet), which count as filed under; ``held``: the games filed under ``device``, when the
    caller has counted them (``filed_count``)."""
    held = filed_count(store, device) if held is None else held
    if held >= limits.games_per_device:
        return (
            "device_full",
            f"this device key holds {limits.games_per_device} games already; the game is played but not filed",
        )
    if held == 0 and device not in claiming:
        fresh = store.read_rows(
            "SELECT COUNT(DISTINCT device) FROM device_games WHERE network = ? AND filed_at > ?", (network, now - HOUR)
        )[0][0] + len(claiming)
        if fresh >= limits.device_keys_per_hour:
            return (
                "new_devices",
                f"your network filed games under {fresh} new device keys this hour; try again within the hour",
            )
    return None


def plan_claim(game: str, seat: int, device: str, network: str, now: float) -> Write:
    """The row that files ``game``'s ``seat`` under ``device`` (a seat filed already stays as it is)."""
    return Write(
        game,
        f"filing game {game} under a device key",
        (
            Statement(
                "INSERT OR IGNORE INTO device_games (game, seat, device, network, filed_at) VALUES (?, ?, ?, ?, ?)",
                (game, seat, device, network, now),
            ),
        ),
    )


@dataclass(frozen=True)
class DeviceGame:
    """One finished game of a device, as the statistics read it."""

    entry: GameEntry
    review: str | None
    """The id of its finished review (``/review/ID``), if one ran."""


# A game that hardly began (room.UNRATED_ENDS: aborted, expired) counts for nothing; a draw has no
# winner either, yet it is a result.
_GAMES = """
SELECT g.id, g.finished_at, g.deal, g.winner, g.reason, d.seat, v.seat, v.level, v.par, r.id, r.report,
    (SELECT name FROM seats WHERE game = g.id AND seat = 1),
    (SELECT name FROM seats WHERE game = g.id AND seat = 2),
    (SELECT COALESCE(SUM(points), 0) FROM moves WHERE game = g.id AND seat = 1 AND taken_back_at IS NULL),
    (SELECT COALESCE(SUM(points), 0) FROM moves WHERE game = g.id AND seat = 2 AND taken_back_at IS NULL)
FROM device_games d
JOIN games g ON g.id = d.game
LEFT JOIN solver_seats v ON v.game = g.id
LEFT JOIN reviews r ON r.game = g.id AND r.status = 'done'
WHERE d.device = ? AND g.status = 'finished' AND g.reason NOT IN ('aborted', 'expired')
ORDER BY g.finished_at
LIMIT ?
"""


def filed_count(store: Rows, device: str) -> int:
    """Games filed under ``device``: counted in its index (about 0.1 ms for 2,000)."""
    return int(store.read_rows("SELECT COUNT(*) FROM device_games WHERE device = ?", (device,))[0][0])


def device_games(store: Rows, device: str, most: int) -> list[DeviceGame]:
    """The first ``most`` finished games filed under ``device`` that have a result (an aborted or
    expired one has none)."""
    return [_device_game(row) for row in store.read_rows(_GAMES, (device, most))]


def _device_game(row: tuple[Any, ...]) -> DeviceGame:
    game, finished_at, deal, winner, reason, you, solver_seat, level, par, review, report, *rest = row
    name_1, name_2, score_1, score_2 = rest
    levels = (level if solver_seat == 1 else None, level if solver_seat == 2 else None)
    entry = GameEntry(
        finished_at=finished_at,
        front_end="online",
        players=(name_1 or "", name_2 or ""),
        levels=levels,
        you=you,
        deal=deal,
        record="",
        scores=(score_1, score_2),
        par=par,
        accuracy=_accuracy(report),
        game_key=game,
        winner=None if reason == "no_pair" else winner,
    )
    return DeviceGame(entry, review)


def _accuracy(report: str | None) -> tuple[float | None, float | None]:
    """Each player's accuracy in a review's ``review --json`` report (its ``summary``); None where it does not say."""
    if report is None:
        return (None, None)
    try:
        players = json.loads(report).get("summary")
    except (ValueError, AttributeError):
        return (None, None)
    found: dict[int, float | None] = {}
    for player in players if isinstance(players, list) else []:
        if isinstance(player, dict) and player.get("player") in (1, 2):
            value = player.get("accuracy")
            found[player["player"]] = float(value) if isinstance(value, (int, float)) else None
    return (found.get(1), found.get(2))
