"""Puzzle ratings per attempt: the player's and the puzzle's Glicko-2 ratings both move, and are stored.

The player starts as a newcomer (1500, deviation 350); a puzzle starts from the rating its
mining gave it (``Puzzle.rating``, deviation ``PUZZLE_DEVIATION``). An attempt is a game
between the two, won by the player when the puzzle is solved at the first try of every
move (``PuzzleSession.solved``). Both ratings after it go into the history with the
attempt, so the latest attempt holds the current ratings and the rows hold the curve.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from battle.history.store import History, PuzzleAttempt
from battle.puzzles.difficulty import PUZZLE_DEVIATION
from battle.puzzles.glicko2 import LOSS, WIN, Rating, rate_game
from battle.puzzles.puzzle import Puzzle


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


def player_puzzle_rating(attempts: Sequence[PuzzleAttempt]) -> Rating:
    """The player's puzzle rating after the last attempt (a newcomer's before the first)."""
    return attempts[-1].player if attempts else Rating()


def streak(attempts: Sequence[PuzzleAttempt]) -> int:
    """Puzzles solved in a row, counting back from the latest attempt."""
    count = 0
    for attempt in reversed(attempts):
        if not attempt.solved:
            break
        count += 1
    return count


def best_streak(attempts: Sequence[PuzzleAttempt]) -> int:
    best = run = 0
    for attempt in attempts:
        run = run + 1 if attempt.solved else 0
        best = max(best, run)
    return best


def starting_rating(puzzle: Puzzle) -> Rating:
    return Rating(puzzle.rating, PUZZLE_DEVIATION)


def rate_attempt(history: History, puzzle: Puzzle, solved: bool, when: float | None = None) -> AttemptOutcome:
    """Move both ratings for one attempt and store it."""
    attempts = history.attempts()
    player = player_puzzle_rating(attempts)
    opponent = history.puzzle_rating(puzzle.id) or starting_rating(puzzle)
    player_after, puzzle_after = rate_game(player, opponent, WIN if solved else LOSS)
    attempt = PuzzleAttempt(time.time() if when is None else when, puzzle.id, solved, player_after, puzzle_after)
    stored = history.add_attempt(attempt) is not None
    return AttemptOutcome(player, player_after, opponent, puzzle_after, streak([*attempts, attempt]), stored)
