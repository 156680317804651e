"""Fixed ratings of the solver's levels, on the Glicko scale, from the levels' calibration matches.

``python benchmarks/bench_solver.py --levels`` plays each level against the one below it on
10 numbered deals, each deal twice with the sides swapped (20 games; the table in
``benchmarks/README.md``, "``--levels``: how the levels compare", 2026-11-23):

=========  ==========  =====
level      vs below    W-D-L
=========  ==========  =====
casual     beginner    20-0-0
club       casual      18-0-2
expert     club        19-1-0
master     expert      12-2-6
perfect    master      13-0-7
=========  ==========  =====

A level's lead over the level below is the Elo difference that its score predicts,
``400 * log10(p / (1 - p))``, with ``p`` the score fraction after one drawn game is added to
each match (``(W + D/2 + 1/2) / (N + 1)``), so that a 20-0 sweep gives a finite lead (+645)
instead of an infinite one. The leads add up from ``beginner``, fixed at 1000:

    beginner 1000, casual 1645 (+645), club 1993 (+348), expert 2513 (+520), master 2615 (+102),
    perfect 2717 (+102).

The levels define the scale, so they count as opponents whose rating is known
(``LEVEL_DEVIATION``); the 20-game matches themselves would allow about +-80 points for
the closest pair and +-250 for a sweep. ``perfect`` against ``master`` was measured with
a second a move, which holds ``perfect`` back on a full board: its true lead is larger.

The level names are the solver's (``battle.players.LEVELS``; a test checks that they agree),
written here so that this module needs no solver.
"""

from __future__ import annotations

import math

from battle.ratings.glicko2 import Rating

ANCHOR_LEVEL = "beginner"
ANCHOR_RATING = 1000.0
"""The weakest level's rating; a newcomer's 1500 lies between ``beginner`` and ``casual``."""
LEVEL_DEVIATION = 30.0
"""The deviation a level counts with as an opponent: small, since the levels are the scale's anchors."""

CALIBRATION: tuple[tuple[str, str, int, int, int], ...] = (
    ("casual", "beginner", 20, 0, 0),
    ("club", "casual", 18, 0, 2),
    ("expert", "club", 19, 1, 0),
    ("master", "expert", 12, 2, 6),
    ("perfect", "master", 13, 0, 7),
)
"""(level, the level below, wins, draws, losses) of each calibration match, from the level's side."""

LEVEL_NAMES: tuple[str, ...] = (ANCHOR_LEVEL, *(level for level, *_ in CALIBRATION))
"""The solver's levels, weakest first."""


def elo_lead(wins: int, draws: int, losses: int) -> float:
    """The rating difference a match's score predicts, with one drawn game added (see the module docstring)."""
    games = wins + draws + losses
    score = (wins + draws / 2 + 0.5) / (games + 1)
    return 400.0 * math.log10(score / (1.0 - score))


def _level_ratings() -> dict[str, float]:
    ratings = {ANCHOR_LEVEL: ANCHOR_RATING}
    for level, below, wins, draws, losses in CALIBRATION:
        ratings[level] = float(round(ratings[below] + elo_lead(wins, draws, losses)))
    return ratings


LEVEL_RATINGS: dict[str, float] = _level_ratings()
"""Each level's rating: beginner 1000, casual 1645, club 1993, expert 2513, master 2615, perfect 2717."""


def level_rating(level: str) -> Rating:
    """The level as an opponent: its fixed rating with ``LEVEL_DEVIATION``."""
    return Rating(LEVEL_RATINGS[level], LEVEL_DEVIATION)


def nearest_level(rating: float) -> str:
    """The level whose rating is closest: whom a player of this rating plays like."""
    return min(LEVEL_NAMES, key=lambda level: abs(LEVEL_RATINGS[level] - rating))
