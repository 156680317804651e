"""Recording a puzzle attempt: both ratings move (``battle.ratings.puzzle_ratings``) and go into the history."""

from __future__ import annotations

import time

from battle.history.store import History, PuzzleAttempt
from battle.puzzles.puzzle import Puzzle
from battle.ratings.puzzle_ratings import (
    AttemptOutcome,
    player_puzzle_rating,
    rate_puzzle_attempt,
    starting_rating,
    streak,
)


def rate_attempt(history: History, puzzle: Puzzle, solved: bool, when: float | None = None) -> AttemptOutcome:
    """Move both ratings for one attempt and store it."""
    attempts = history.attempts()
    player = player_puzzle_rating(attempts)
    opponent = history.puzzle_rating(puzzle.id) or starting_rating(puzzle.rating)
    player_after, puzzle_after = rate_puzzle_attempt(player, opponent, solved)
    attempt = PuzzleAttempt(time.time() if when is None else when, puzzle.id, solved, player_after, puzzle_after)
    stored = history.add_attempt(attempt) is not None
    return AttemptOutcome(player, player_after, opponent, puzzle_after, streak([*attempts, attempt]), stored)
