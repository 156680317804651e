"""What the puzzle screen says, in the words of ``mahjong-battle puzzles play``: one puzzle's flow
reads the same in the window and in the terminal. No pygame here.
"""

from __future__ import annotations

from collections.abc import Sequence

from battle.i18n import N_, _
from battle.puzzles.puzzle import Puzzle
from battle.puzzles.session import Attempt
from battle.puzzles.themes import theme_word
from battle.ratings.puzzle_ratings import AttemptOutcome
from battle.rules.board import Move, Position, move_name
from battle.rules.wording import plural

NAMES = (N_("Player 1"), N_("Player 2"))
"""A puzzle's position comes from a game between two levels: its sides are named by number."""
RESULT_WORDS = {1: N_("a win"), 0: N_("a draw"), -1: N_("a loss")}
TRY_AGAIN = N_("Try again (pick another pair), or Show solution.")


def name_of(side: int) -> str:
    return _(NAMES[side - 1])


def length_words(length: int) -> str:
    """``1 move to find``."""
    return _("{plural} to find").format(plural=plural(length, "move"))


def ask(side: int, step: int) -> str:
    """``Find the best move for Player 1.``, and ``the next best move`` once a move is found."""
    again = " next" if step else ""
    return _("Find the{again} best move for {what}.").format(again=again, what=name_of(side))


def right(attempt: Attempt) -> str:
    return _("Right: {move_name} ({points}).").format(move_name=move_name(attempt.move), points=attempt.points)


def reply(side: int, move: Move, points: int) -> str:
    """The solver's reply from the line, said as it is played for the side that does not solve."""
    return _("{what} replies {move_name} ({points}).").format(
        what=name_of(3 - side), move_name=move_name(move), points=points
    )


def wrong(attempt: Attempt) -> str:
    """``e4-g7 (6) loses 8 points and turns a win into a draw.``"""
    words = _("{move_name} ({points}) loses {plural}").format(
        move_name=move_name(attempt.move), points=attempt.points, plural=plural(attempt.loss, "point")
    )
    if attempt.result_after != attempt.result_before:
        words += _(" and turns {RESULT_WORDS} into {RESULT_WORDS2}").format(
            RESULT_WORDS=_(RESULT_WORDS[attempt.result_before]), RESULT_WORDS2=_(RESULT_WORDS[attempt.result_after])
        )
    return words + "."


def refutation(side: int, move: Move, points: int) -> str:
    return _("Refutation: {reply}").format(reply=reply(side, move, points))


def solution(position: Position, moves: Sequence[Move]) -> str:
    """The rest of the line from ``position``: ``Solution: Player 1 c1-c9 (8), then Player 2 ...``."""
    after = position.copy()
    words = []
    for move in moves:
        words.append(f"{name_of(after.to_move)} {move_name(move)} ({after.move_points(move)})")
        after.push(move)
    return "Solution: " + _(", then ").join(words) + "."


def verdict(solved: bool) -> str:
    return "Solved!" if solved else _("Not solved at the first try.")


def themes(puzzle: Puzzle) -> str:
    if not puzzle.themes:
        return _("No particular theme.")
    return _("Themes: {join}.").format(join=", ".join(map(theme_word, puzzle.themes)))


def rating_change(outcome: AttemptOutcome) -> str:
    """``Your puzzle rating: 1500 → 1662 ± 452; this puzzle: 1660 → 1498. Streak: 1.``"""
    return _(
        "Your puzzle rating: {rating:.0f} → {what}; this puzzle: {rating2:.0f} → {rating3:.0f}. Streak: {streak}."
    ).format(
        rating=outcome.player_before.rating,
        what=outcome.player_after.describe(),
        rating2=outcome.puzzle_before.rating,
        rating3=outcome.puzzle_after.rating,
        streak=outcome.streak,
    )


def no_puzzle(theme: str | None, length: int | None, total: int) -> str:
    """Why the filters leave nothing: ``No puzzle has theme tempo and 3 moves to find (600 in the set).``"""
    wanted = []
    if theme is not None:
        wanted.append(_("theme {theme}").format(theme=theme_word(theme)))
    if length is not None:
        wanted.append(_("{plural} to find").format(plural=plural(length, "move")))
    return _("No puzzle has {value} ({plural} in the set).").format(
        value=" and ".join(wanted) or "anything", plural=plural(total, "puzzle")
    )
