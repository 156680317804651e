"""Which puzzle comes next: filtered by theme and length, near the player's rating, new ones first."""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from battle.puzzles.puzzle import Puzzle

NEAREST = 12
"""The next puzzle is drawn from this many puzzles nearest the player's rating: close enough
to be a fair test (the shipped set's ratings are spread over about 2000 points, so 12 of 500
puzzles span about 50), varied enough not to repeat a pattern."""


def matching(puzzles: Sequence[Puzzle], theme: str | None = None, length: int | None = None) -> list[Puzzle]:
    """The puzzles with that theme (any when None) and that many moves to find (any when None)."""
    return [
        puzzle
        for puzzle in puzzles
        if (theme is None or theme in puzzle.themes) and (length is None or puzzle.length == length)
    ]


def next_puzzle(
    puzzles: Sequence[Puzzle],
    rating: float,
    tried: Collection[str],
    rng: random.Random,
    ratings: dict[str, float] | None = None,
) -> Puzzle | None:
    """A puzzle near ``rating``, one not ``tried`` while there are any; None when ``puzzles`` is empty.

    ``ratings`` holds puzzles' current ratings where they moved from their starting one."""
    if not puzzles:
        return None
    fresh = [puzzle for puzzle in puzzles if puzzle.id not in tried] or list(puzzles)
    current = ratings or {}
    fresh.sort(key=lambda puzzle: (abs(current.get(puzzle.id, puzzle.rating) - rating), puzzle.id))
    return rng.choice(fresh[:NEAREST])
