"""A browser's puzzle rating, reckoned as the window reckons a player's: the pure arithmetic of the
server's puzzle desk, without a database or a socket.

A device (a browser's key, ``battle/web/device.js``) is one player of ``battle.ratings.puzzle_ratings``:
it starts as a newcomer, each decided attempt is one Glicko-2 game against the puzzle, and a puzzle's
rating is the device's own (the mined rating before the device's first attempt at it, then the one
its latest attempt left), as a window's history keeps its puzzles' ratings apart from anyone else's.
So the same results in the same order give the same figures on the page and in the window.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from battle.ratings.glicko2 import Rating
from battle.ratings.puzzle_ratings import rate_puzzle_attempt, starting_rating


@dataclass(frozen=True)
class DeviceStanding:
    """A device's puzzle rating and streaks, as its row keeps them."""

    rating: Rating
    streak: int
    """Puzzles solved in a row, up to its latest attempt."""
    best_streak: int
    attempts: int
    """Decided attempts, all told (the rows kept are fewer: ``ATTEMPTS_KEPT``)."""


@dataclass(frozen=True)
class RatingMove:
    """What one decided attempt did to both ratings, and the device's streak after it."""

    player_before: Rating
    player_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating
    streak: int


NEWCOMER = DeviceStanding(Rating(), 0, 0, 0)
"""A device before its first attempt: 1500 ± 700, no streak."""
ATTEMPTS_KEPT = 5_000
"""Attempts kept per device, the oldest dropped beyond them: ten a day for more than a year, 500 kB.
The device's rating and streaks live in its own row and stay; a dropped puzzle's rating for the
device goes back to its mined one."""
PRUNE_EVERY = 100
"""The oldest attempts beyond ``ATTEMPTS_KEPT`` go every this many attempts, in one statement: a
device holds 5,000 to 5,100 rows, and a rating's write does not walk 5,000 index entries each time."""


def rate_attempt(standing: DeviceStanding, puzzle: Rating, solved: bool) -> tuple[DeviceStanding, RatingMove]:
    """The device's standing after one decided attempt at a puzzle rated ``puzzle`` for it, and the change."""
    player_after, puzzle_after = rate_puzzle_attempt(standing.rating, puzzle, solved)
    streak = standing.streak + 1 if solved else 0
    after = DeviceStanding(player_after, streak, max(standing.best_streak, streak), standing.attempts + 1)
    return after, RatingMove(standing.rating, player_after, puzzle, puzzle_after, streak)


def puzzle_rating_for(mined: float, device_ratings: Mapping[str, Rating], puzzle_id: str) -> Rating:
    """A puzzle's rating for a device: its latest attempt's, else the mined one with its starting deviation."""
    return device_ratings.get(puzzle_id) or starting_rating(mined)


def latest_ratings(rows: Iterable[tuple[str, Rating]]) -> dict[str, Rating]:
    """Each puzzle's rating after the device's latest attempt at it, from ``(id, rating)`` rows oldest first."""
    return dict(rows)
