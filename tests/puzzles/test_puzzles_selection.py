"""Which puzzle comes next: the filters, new ones first, near the player's rating."""

from __future__ import annotations

import dataclasses
import random

from battle.puzzles.puzzle import Puzzle
from battle.puzzles.selection import NEAREST, matching, next_puzzle
from tests.puzzles.test_puzzles_format import BLOCKADE_PUZZLE


def copies(count: int) -> list[Puzzle]:
    """Puzzles rated 1000, 1010, ... with ids p0, p1, ...; every third of two moves and the tempo theme."""
    return [
        dataclasses.replace(
            BLOCKADE_PUZZLE,
            id=f"p{index}",
            rating=1000.0 + 10 * index,
            line=BLOCKADE_PUZZLE.line * (3 if index % 3 == 0 else 1),
            themes=("tempo",) if index % 3 == 0 else ("blockade",),
        )
        for index in range(count)
    ]


def test_filters() -> None:
    puzzles = copies(9)
    assert [puzzle.id for puzzle in matching(puzzles, theme="tempo")] == ["p0", "p3", "p6"]
    assert [puzzle.id for puzzle in matching(puzzles, length=2)] == ["p0", "p3", "p6"]
    assert matching(puzzles, theme="sacrifice") == []
    assert len(matching(puzzles)) == 9


def test_the_next_puzzle_is_near_the_rating_and_new() -> None:
    puzzles = copies(100)
    rng = random.Random(3)
    chosen = [next_puzzle(puzzles, 1500, set(), rng) for _ in range(50)]
    assert all(puzzle is not None and abs(puzzle.rating - 1500) <= 10 * NEAREST for puzzle in chosen)
    tried = {f"p{index}" for index in range(40, 60)}
    fresh = next_puzzle(puzzles, 1500, tried, rng)
    assert fresh is not None and fresh.id not in tried
    # a puzzle whose rating moved is placed by its current rating
    moved = next_puzzle(puzzles, 3000, set(), rng, ratings={"p7": 3000.0})
    assert moved is not None and moved.id in {f"p{index}" for index in [7, *range(100 - NEAREST + 1, 100)]}
    assert next_puzzle([], 1500, set(), rng) is None
    everything = next_puzzle(puzzles[:2], 1500, {"p0", "p1"}, rng)
    assert everything is not None  # all tried: any again
