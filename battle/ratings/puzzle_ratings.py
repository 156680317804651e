"""Puzzle ratings per attempt: the player's and the puzzle's Glicko-2 ratings both move.

The player starts as a newcomer (1500, deviation 350); a puzzle starts from the rating its
mining gave it (``Puzzle.rating``, deviation ``PUZZLE_DEVIATION``). An attempt is a game
between the two, won by the player when the puzzle is solved at the first try of every
move (``PuzzleSession.solved``). Both ratings after it go into the history with the
attempt, so the latest attempt holds the current ratings and the rows hold the curve
(``battle.history.puzzle_attempts.rate_attempt`` stores them).

Pure: an attempt is anything with ``solved`` and ``player`` (``battle.history.PuzzleAttempt``
is one), so this module needs neither the history nor the puzzles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from battle.ratings.glicko2 import LOSS, WIN, Rating, rate_game

PUZZLE_DEVIATION = 150.0
"""A mined puzzle's starting rating deviation: its rating comes from 120 tries by the levels,
a firmer start than a newcomer's 350, but the levels are not people."""


class RatedAttempt(Protocol):
    """What the ratings read of a stored attempt."""

    @property
    def solved(self) -> bool: ...

    @property
    def player(self) -> Rating:
        """The player's puzzle rating after the attempt."""
        ...


@dataclass(frozen=True)
class AttemptOutcome:
    """What an attempt did to the ratings, and the streak after it."""

    player_before: Rating
    player_after: Rating
    puzzle_before: Rating
    puzzle_after: Rating
    streak: int
    stored: bool
    """False when the history could not store it (``History.take_notices`` says why)."""


def player_puzzle_rating(attempts: Sequence[RatedAttempt]) -> Rating:
    """The player's puzzle rating after the last attempt (a newcomer's before the first)."""
    return attempts[-1].player if attempts else Rating()


def streak(attempts: Sequence[RatedAttempt]) -> int:
    """Puzzles solved in a row, counting back from the latest attempt."""
    count = 0
    for attempt in reversed(attempts):
        if not attempt.solved:
            break
        count += 1
    return count


def best_streak(attempts: Sequence[RatedAttempt]) -> int:
    best = run = 0
    for attempt in attempts:
        run = run + 1 if attempt.solved else 0
        best = max(best, run)
    return best


def starting_rating(mined_rating: float) -> Rating:
    """A puzzle's rating before its first attempt: the one its mining gave it (``Puzzle.rating``)."""
    return Rating(mined_rating, PUZZLE_DEVIATION)


def rate_puzzle_attempt(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one attempt: a game the player wins by solving it."""
    return rate_game(player, puzzle, WIN if solved else LOSS)
