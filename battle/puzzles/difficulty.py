"""A puzzle's difficulty from how often each solver level finds its line.

The miner lets every level try the whole line ``FIND_TRIES`` times with seeded choices (the
level's own search and temperature, ``battle.players.choose_from``) and keeps the fraction
that found every move. From those rates:

* ``difficulty``: 1 + the index of the weakest level that finds the line at least
  ``RELIABLE`` of the time, so 1 is "a beginner finds it" and 6 "only perfect play does";
* ``puzzle_rating``: the starting Glicko rating, on the levels' scale (``level_ratings``):
  the rating a player would have who, facing the levels, scores as each level "scores"
  against the puzzle. It is the maximum-likelihood rating ``R`` for the tries, where a level
  of rating ``L`` finds the line with the Elo chance ``1 / (1 + 10**((R - L) / 400))``, with
  half a found and half a missed try added at every level so that a line every level finds
  (or misses) still gets a finite rating.
"""

from __future__ import annotations

from collections.abc import Mapping

from battle.ratings.level_ratings import LEVEL_NAMES, LEVEL_RATINGS

FIND_TRIES = 20
"""Seeded tries per level: enough to tell a level that finds the line from one that guesses
(a 1-in-3 guess finds it 15 times of 20 with odds under 1 in 10,000)."""
RELIABLE = 0.75
"""The find rate from which a level counts as finding the line."""
RATING_FLOOR, RATING_CEILING = 0.0, 4000.0
"""The search interval of ``puzzle_rating``; the smoothing keeps every answer well inside."""


def difficulty(find_rates: Mapping[str, float]) -> int:
    """1 + the index of the weakest level that finds the line reliably (6: none below perfect)."""
    for index, level in enumerate(LEVEL_NAMES):
        if find_rates.get(level, 0.0) >= RELIABLE:
            return index + 1
    return len(LEVEL_NAMES)


def _elo_chance(level_rating: float, puzzle: float) -> float:
    return 1.0 / (1.0 + 10.0 ** ((puzzle - level_rating) / 400.0))


def puzzle_rating(find_rates: Mapping[str, float], tries: int = FIND_TRIES) -> float:
    """The starting rating that best explains the levels' find rates (see the module docstring)."""
    levels = [level for level in LEVEL_NAMES if level in find_rates]
    if not levels:
        return LEVEL_RATINGS[LEVEL_NAMES[len(LEVEL_NAMES) // 2]]

    def surplus(rating: float) -> float:
        """Found tries minus the tries expected at ``rating``: rises with the rating (a harder puzzle
        is expected to be found less), so the answer is where it crosses zero."""
        return sum(
            find_rates[level] * tries + 0.5 - (tries + 1) * _elo_chance(LEVEL_RATINGS[level], rating)
            for level in levels
        )

    low, high = RATING_FLOOR, RATING_CEILING
    for _ in range(60):
        middle = (low + high) / 2
        if surplus(middle) > 0:
            high = middle
        else:
            low = middle
    return (low + high) / 2
