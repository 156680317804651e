"""What the puzzle screen says, in the words of ``mahjong-battle puzzles play``: one puzzle's flow
reads the same in the window and in the terminal. No pygame here.
"""

from __future__ import annotations

from collections.abc import Sequence

from battle.puzzles.puzzle import Puzzle
from battle.puzzles.session import Attempt
from battle.ratings.puzzle_ratings import AttemptOutcome
from battle.rules.board import Move, Position, move_name
from battle.rules.wording import plural

NAMES = ("Player 1", "Player 2")
"""A puzzle's position comes from a game between two levels: its sides are named by number."""
RESULT_WORDS = {1: "a win", 0: "a draw", -1: "a loss"}
TRY_AGAIN = "Try again (pick another pair), or Show solution."


def name_of(side: int) -> str:
    return NAMES[side - 1]


def length_words(length: int) -> str:
    """``1 move to find``."""
    return f"{plural(length, 'move')} to find"


def ask(side: int, step: int) -> str:
    """``Find the best move for Player 1.``, and ``the next best move`` once a move is found."""
    again = " next" if step else ""
    return f"Find the{again} best move for {name_of(side)}."


def right(attempt: Attempt) -> str:
    return f"Right: {move_name(attempt.move)} ({attempt.points})."


def reply(side: int, move: Move, points: int) -> str:
    """The solver's reply from the line, said as it is played for the side that does not solve."""
    return f"{name_of(3 - side)} replies {move_name(move)} ({points})."


def wrong(attempt: Attempt) -> str:
    """``e4-g7 (6) loses 8 points and turns a win into a draw.``"""
    words = f"{move_name(attempt.move)} ({attempt.points}) loses {plural(attempt.loss, 'point')}"
    if attempt.result_after != attempt.result_before:
        words += f" and turns {RESULT_WORDS[attempt.result_before]} into {RESULT_WORDS[attempt.result_after]}"
    return words + "."


def refutation(side: int, move: Move, points: int) -> str:
    return f"Refutation: {reply(side, move, points)}"


def solution(position: Position, moves: Sequence[Move]) -> str:
    """The rest of the line from ``position``: ``Solution: Player 1 c1-c9 (8), then Player 2 ...``."""
    after = position.copy()
    words = []
    for move in moves:
        words.append(f"{name_of(after.to_move)} {move_name(move)} ({after.move_points(move)})")
        after.push(move)
    return "Solution: " + ", then ".join(words) + "."


def verdict(solved: bool) -> str:
    return "Solved!" if solved else "Not solved at the first try."


def themes(puzzle: Puzzle) -> str:
    return f"Themes: {', '.join(puzzle.themes)}." if puzzle.themes else "No particular theme."


def rating_change(outcome: AttemptOutcome) -> str:
    """``Your puzzle rating: 1500 → 1662 ± 452; this puzzle: 1660 → 1498. Streak: 1.``"""
    return (f"Your puzzle rating: {outcome.player_before.rating:.0f} → {outcome.player_after.describe()}; "
            f"this puzzle: {outcome.puzzle_before.rating:.0f} → {outcome.puzzle_after.rating:.0f}. "
            f"Streak: {outcome.streak}.")


def no_puzzle(theme: str | None, length: int | None, total: int) -> str:
    """Why the filters leave nothing: ``No puzzle has theme tempo and 3 moves to find (600 in the set).``"""
    wanted = []
    if theme is not None:
        wanted.append(f"theme {theme}")
    if length is not None:
        wanted.append(f"{plural(length, 'move')} to find")
    return f"No puzzle has {' and '.join(wanted) or 'anything'} ({plural(total, 'puzzle')} in the set)."

