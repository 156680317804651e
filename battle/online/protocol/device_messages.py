"""The browser's own figures in the online protocol: the deal of the day's table and a device's
statistics, as typed values both ways.

A page names itself with its device key (``battle/web/device.js``: 32 lowercase hex digits kept in
local storage, no account). It sends ``device`` once it holds a seat, which files that game under
the key; ``daily`` asks for the day's deal, its par and the table of the day's results against
par; ``my_stats`` asks for the statistics of the games filed under the key. The server answers
``daily_table`` and ``my_stats_result`` (``DeviceNews``, written by ``device_news_json``): facts,
which the page words. ``docs/protocol.md`` describes each with an example.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

from battle.online.protocol.messages import ErrorCode, JsonObject, ProtocolError, RequestFields

DEVICE_KEY = re.compile(r"[0-9a-f]{32}")
"""A device key: 128 random bits as 32 lowercase hex digits, stored as given (a bearer token)."""


@dataclass(frozen=True)
class ClaimGame:
    """File the game of the connection's seat under ``device``: its results count in that browser's
    statistics and name it in the day's table."""

    TYPE: ClassVar[str] = "device"
    device: str


@dataclass(frozen=True)
class AskDaily:
    """The deal of the day, its par and the day's table; ``device`` (optional) adds the viewer's own rows."""

    TYPE: ClassVar[str] = "daily"
    device: str | None = None


@dataclass(frozen=True)
class AskStats:
    """The statistics of the games filed under ``device``."""

    TYPE: ClassVar[str] = "my_stats"
    device: str


DeviceRequest = ClaimGame | AskDaily | AskStats


def device_key(value: object) -> str:
    """``value`` as a device key; ``ProtocolError`` quoting what is wrong with anything else."""
    if isinstance(value, str) and DEVICE_KEY.fullmatch(value):
        return value
    shown = repr(value)[:40]
    raise ProtocolError(ErrorCode.BAD_MESSAGE, f'"device": expected 32 lowercase hex digits, got {shown}')


def _read_daily(fields: RequestFields) -> AskDaily:
    value = fields.get("device", False)
    return AskDaily(None if value is None else device_key(value))


def device_readers() -> dict[str, Any]:
    """The readers of the device's requests, by type, for ``reader``'s table."""
    return {
        ClaimGame.TYPE: lambda fields: ClaimGame(device_key(fields.get("device", True))),
        AskDaily.TYPE: _read_daily,
        AskStats.TYPE: lambda fields: AskStats(device_key(fields.get("device", True))),
    }


# -- what the server answers -----------------------------------------------------------------------


@dataclass(frozen=True)
class TableRow:
    """A row of the day's table."""

    place: int
    """Its place in the top (1 the best against par); a row of the viewer's below the top: its place among all rows."""
    name: str
    score: int
    against_par: int
    """The seat's margin less its par: above 0 is better than par."""
    opponent: str
    """The solver's level, or ``friend``."""
    yours: bool
    """The row is a game of the asking device's."""
    tag: str | None
    """A short mark of the row's device when another row of the top has its name."""


@dataclass(frozen=True)
class DailyTable:
    """The deal of the day (None: the server has none), its par, who moves first in it and the day's table."""

    TYPE: ClassVar[str] = "daily_table"
    day: str
    """The day, ``YYYY-MM-DD`` (UTC)."""
    deal: int | None
    par: int | None
    """The first player's margin under perfect play, or None when unknown."""
    rows: tuple[TableRow, ...]
    first: int | None
    """The seat that moves first in the deal (on the wire only when there is a deal)."""


@dataclass(frozen=True)
class TallyFacts:
    """The device's results against one opponent (a solver level, or people)."""

    opponent: str
    wins: int
    draws: int
    losses: int
    average_margin: float | None
    """Rounded to 0.01; None when no game of it has a margin."""


@dataclass(frozen=True)
class SolverRatingFacts:
    """The device's rating against the solver's levels (Glicko-2), rounded as the page shows it."""

    rating: int
    deviation: int
    margin: int
    """Twice the deviation: the page's ``±``."""
    games: int
    plays_like: str | None
    """The level whose rating is nearest, None before the first rated game."""
    history: tuple[tuple[float, int, int], ...]
    """(when, rating, deviation) after each rated game."""


@dataclass(frozen=True)
class GameFacts:
    """One of the device's best or worst games."""

    game: str | None
    finished_at: float
    deal: int | None
    opponent: str
    solver: bool
    """The opponent is a solver level."""
    score: int
    opponent_score: int
    review: str | None
    """The id of its finished review (``/review/ID``), if one ran."""


@dataclass(frozen=True)
class DeviceStats:
    """The statistics of the games filed under a device key, as the window's ``stats`` figures them."""

    TYPE: ClassVar[str] = "my_stats_result"
    games: int
    tallies: tuple[TallyFacts, ...]
    average_margin: float | None
    rating: SolverRatingFacts
    unrated: int
    """Games against the solver that its rating leaves out."""
    accuracy: tuple[tuple[float, float], ...]
    """(when, review accuracy in percent, rounded to 0.1) of the reviewed games, oldest first."""
    best: tuple[GameFacts, ...]
    worst: tuple[GameFacts, ...]


DeviceNews = DailyTable | DeviceStats


def device_news_json(news: DeviceNews) -> JsonObject:
    """The frame of ``news``: its fields in their order (the order the page has always read them),
    tuples as arrays; a day without a deal has no ``first``."""
    frame: JsonObject = {"type": news.TYPE, **asdict(news)}
    if isinstance(news, DailyTable) and news.deal is None:
        del frame["first"]
    return frame
