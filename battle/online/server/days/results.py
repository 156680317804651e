"""The day's results on the deal of the day, read from the game database for ``table``.

Nothing is written for them: a game on the day's deal number that went to the rules' end during
the day (UTC) is a result, whichever way it was started (the deal of the day against the solver,
a friend's game on its number, a rematch). Only results that count (``table.counts``) are
read: a game against the solver, or one whose two seats came from two networks.

The read goes on from where the last one stopped (``after``: the end time, game and seat of the
last seat read), in the games' end-time index (``INDEXED BY``: the status index the planner would
pick reads every finished game the file keeps, up to ``--keep-days`` of them), at most ``limit``
seats at a time: every result of the day is read once, in any number, with no first-come cut.
"""

from __future__ import annotations

import datetime
from typing import Any

from battle.online.server.days.table import FRIEND, DayResult
from battle.online.server.rooms.store import Rows

READ_CHUNK = 500
"""Seats read for the table at most per read (on the server's statistics thread, ``desk``):
a day with more results is read on at the next ask, so no ask waits for a whole day's read."""
MAX_RESULTS = 5000
"""Rows of the other server groups read back for the shared day's table at most: each group writes
only the best result of each network and of each device (``shared``), so this is 5,000 of them."""
Cursor = tuple[float, str, int]
"""Where a read stopped: the end time, game id and seat of the last seat read."""
START: Cursor = (0.0, "", 0)

_RESULTS = """
SELECT g.id, g.finished_at, s.seat, s.name, COALESCE(n.network, ''), v.level, d.device, COALESCE(o.network, ''),
    (SELECT COALESCE(SUM(points), 0) FROM moves WHERE game = g.id AND seat = 1 AND taken_back_at IS NULL),
    (SELECT COALESCE(SUM(points), 0) FROM moves WHERE game = g.id AND seat = 2 AND taken_back_at IS NULL)
FROM games g INDEXED BY games_by_end
JOIN seats s ON s.game = g.id
LEFT JOIN seat_networks n ON n.game = g.id AND n.seat = s.seat
LEFT JOIN seat_networks o ON o.game = g.id AND o.seat = 3 - s.seat
LEFT JOIN solver_seats v ON v.game = g.id
LEFT JOIN device_games d ON d.game = g.id AND d.seat = s.seat
WHERE g.finished_at >= ? AND g.finished_at < ? AND g.deal = ? AND g.status = 'finished' AND g.reason = 'no_pair'
    AND (g.finished_at, g.id, s.seat) > (?, ?, ?)
    AND (v.seat IS NULL OR v.seat != s.seat)
    AND (v.level IS NOT NULL OR (n.network IS NOT NULL AND o.network IS NOT NULL AND n.network <> o.network))
ORDER BY g.finished_at, g.id, s.seat
LIMIT ?
"""


def day_bounds(day: datetime.date) -> tuple[float, float]:
    """The day's first second and the next day's, since the epoch (UTC)."""
    start = datetime.datetime.combine(day, datetime.time(), datetime.UTC).timestamp()
    return start, start + 86400.0


def finished_on(store: Rows, day: datetime.date) -> int:
    """Games finished during ``day``: counted in the end-time index, it changes whenever the day's
    results may have (a cache of ``day_results`` keeps them until it does)."""
    start, end = day_bounds(day)
    sql = "SELECT COUNT(*) FROM games INDEXED BY games_by_end WHERE finished_at >= ? AND finished_at < ?"
    return int(store.read_rows(sql, (start, end))[0][0])


def day_results(
    store: Rows, day: datetime.date, deal: int, first: int, after: Cursor = START, limit: int = READ_CHUNK
) -> list[DayResult]:
    """The seats that count in a game on ``deal`` played out during ``day``, after ``after`` in end
    order, at most ``limit``; ``first`` is the seat the deal's start says moves first."""
    start, end = day_bounds(day)
    rows = store.read_rows(_RESULTS, (start, end, deal, *after, limit))
    return [_result(row, first) for row in rows]


def cursor_of(result: DayResult) -> Cursor:
    """Where a read that ended with ``result`` goes on from."""
    return (result.finished_at, result.game, result.seat)


def _result(row: tuple[Any, ...], first: int) -> DayResult:
    game, finished_at, seat, name, network, level, device, other_network, score_1, score_2 = row
    return DayResult(
        game=game,
        seat=seat,
        name=name,
        scores=(score_1, score_2),
        first=first,
        opponent=FRIEND if level is None else level,
        finished_at=finished_at,
        network=network,
        device=device,
        other_network=other_network,
    )
