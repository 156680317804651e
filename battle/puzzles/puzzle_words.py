"""What a puzzle's flow says, for the window's puzzle screen and ``mahjong-battle puzzles play`` alike:
one puzzle reads the same in both, each sentence whole in the catalogue. No pygame here.
"""

from __future__ import annotations

from collections.abc import Sequence

from battle.i18n import N_, _, ngettext, pgettext
from battle.puzzles.puzzle import Puzzle
from battle.puzzles.session import Attempt
from battle.puzzles.themes import theme_word
from battle.ratings.puzzle_ratings import AttemptOutcome
from battle.rules.board import Move, Position, move_name
from battle.rules.wording import plural

NAMES = (N_("Player 1"), N_("Player 2"))
"""A puzzle's position comes from a game between two levels: its sides are named by number."""
TRY_AGAIN = N_("Try again (pick another pair), or Show solution.")


def name_of(side: int) -> str:
    return _(NAMES[side - 1])


def length_words(length: int) -> str:
    """``1 move to find``."""
    return ngettext("{count} move to find", "{count} moves to find", length).format(count=length)


def ask(side: int, step: int) -> str:
    """``Find the best move for Player 1.``, and ``the next best move`` once a move is found."""
    if step:
        return _("Find the next best move for {side}.").format(side=name_of(side))
    return _("Find the best move for {side}.").format(side=name_of(side))


def right(attempt: Attempt) -> str:
    return _("Right: {move_name} ({points}).").format(move_name=move_name(attempt.move), points=attempt.points)


def reply(side: int, move: Move, points: int) -> str:
    """The solver's reply from the line, said as it is played for the side that does not solve."""
    return _("{what} replies {move_name} ({points}).").format(
        what=name_of(3 - side), move_name=move_name(move), points=points
    )


def wrong(attempt: Attempt) -> str:
    """``e4-g7 (6) loses 8 points and turns a win into a draw.``"""
    values = {"move": move_name(attempt.move), "points": attempt.points, "count": attempt.loss}
    turn = (attempt.result_before, attempt.result_after)
    if turn == (1, 0):
        said = ngettext(
            "{move} ({points}) loses {count} point and turns a win into a draw.",
            "{move} ({points}) loses {count} points and turns a win into a draw.",
            attempt.loss,
        )
    elif turn == (1, -1):
        said = ngettext(
            "{move} ({points}) loses {count} point and turns a win into a loss.",
            "{move} ({points}) loses {count} points and turns a win into a loss.",
            attempt.loss,
        )
    elif turn == (0, -1):
        said = ngettext(
            "{move} ({points}) loses {count} point and turns a draw into a loss.",
            "{move} ({points}) loses {count} points and turns a draw into a loss.",
            attempt.loss,
        )
    else:
        said = ngettext(
            "{move} ({points}) loses {count} point.", "{move} ({points}) loses {count} points.", attempt.loss
        )
    return said.format(**values)


def refutation(side: int, move: Move, points: int) -> str:
    return _("Refutation: {what} replies {move_name} ({points}).").format(
        what=name_of(3 - side), move_name=move_name(move), points=points
    )


def solution(position: Position, moves: Sequence[Move]) -> str:
    """The rest of the line from ``position``: ``Solution: Player 1 c1-c9 (8), then Player 2 ...``."""
    after = position.copy()
    steps = []
    for move in moves:
        steps.append(
            _("{side} {move} ({points})").format(
                side=name_of(after.to_move), move=move_name(move), points=after.move_points(move)
            )
        )
        after.push(move)
    return _("Solution: {steps}.").format(steps=pgettext("between the moves of a line", ", then ").join(steps))


def verdict(solved: bool) -> str:
    return _("Solved!") if solved else _("Not solved at the first try.")


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
    if theme is not None and length is not None:
        said = ngettext(
            "No puzzle has theme {theme} and {length} move to find ({puzzles} in the set).",
            "No puzzle has theme {theme} and {length} moves to find ({puzzles} in the set).",
            length,
        )
    elif theme is not None:
        said = _("No puzzle has theme {theme} ({puzzles} in the set).")
    elif length is not None:
        said = ngettext(
            "No puzzle has {length} move to find ({puzzles} in the set).",
            "No puzzle has {length} moves to find ({puzzles} in the set).",
            length,
        )
    else:
        said = _("No puzzle in the set ({puzzles}).")
    return said.format(theme=theme_word(theme) if theme else "", length=length, puzzles=plural(total, "puzzle"))
