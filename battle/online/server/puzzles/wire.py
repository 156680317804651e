"""The puzzles' messages (``wire``'s sibling): a puzzle shown, a move judged, its refutation and the
solution, and the standing and rating change inside them, built from the facts the puzzle desk and
its ledger hold (a ``Puzzle``, a session's ``Attempt``, ratings and streaks)."""

from __future__ import annotations

from collections.abc import Iterable

from battle.online.protocol.puzzle_messages import (
    PuzzleJudged,
    PuzzleRefutation,
    PuzzleShown,
    PuzzleSolution,
    RatingChange,
    Standing,
)
from battle.online.server.puzzles.ledger import DeviceStanding, RatingMove
from battle.puzzles.puzzle import Puzzle
from battle.puzzles.session import Attempt, PuzzleSession
from battle.ratings.glicko2 import Rating
from battle.rules.board import Move, move_name


def standing(held: DeviceStanding) -> Standing:
    """A device's puzzle rating and streaks."""
    return Standing(held.rating, held.streak, held.best_streak, held.attempts)


def rating_change(move: RatingMove | None) -> RatingChange | None:
    """What a decided attempt did (None: the attempt was decided before): both ratings before and
    after, and the streak after."""
    if move is None:
        return None
    return RatingChange(move.player_before, move.player_after, move.puzzle_before, move.puzzle_after, move.streak)


def puzzle_shown(puzzle: Puzzle, rating: Rating, held: DeviceStanding) -> PuzzleShown:
    """``puzzle`` to solve, never its line, at its ``rating`` for the device, with the device's standing."""
    return PuzzleShown(
        puzzle.id, puzzle.position_text, puzzle.to_move, puzzle.length, puzzle.themes, rating.rating, standing(held)
    )


def puzzle_judged(session: PuzzleSession, attempt: Attempt, refuting: bool, change: RatingMove | None) -> PuzzleJudged:
    """The verdict on ``attempt``, the latest move of ``session``; ``change`` when it decided the attempt."""
    return PuzzleJudged(
        session.puzzle.id,
        move_name(attempt.move),
        attempt.correct,
        attempt.points,
        attempt.loss,
        attempt.result_before,
        attempt.result_after,
        None if attempt.reply is None else move_name(attempt.reply),
        attempt.reply_points,
        attempt.finished,
        session.solved,
        refuting,
        rating_change(change),
    )


def puzzle_refutation(puzzle: str, move: str, refutation: str | None) -> PuzzleRefutation:
    """The solver's best reply to the wrong ``move`` in ``puzzle`` (None: the game ends there, or none found)."""
    return PuzzleRefutation(puzzle, move, refutation)


def puzzle_solution(puzzle: Puzzle, rest: Iterable[Move], change: RatingMove | None) -> PuzzleSolution:
    """The end of an attempt at ``puzzle``: its whole line, the moves ``rest`` played now, the rating change."""
    return PuzzleSolution(
        puzzle.id,
        tuple(move_name(move) for move in puzzle.line),
        tuple(move_name(move) for move in rest),
        rating_change(change),
    )
