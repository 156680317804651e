"""When a position is a puzzle: one move keeps the margin, every other one clearly does not.

Given the exact value of every legal move (the final margin it leads to for the mover,
counted from now, as ``Engine.search(..., all_exact=True)`` gives it), a position is a
puzzle step when

1. exactly one move has the best value (the answer);
2. every other move loses at least ``MIN_LOSS`` points against it, or changes the result:
   the sign of the final margin from the mover's side (the score so far plus the value)
   differs, so a 1-point slip that turns a win into a draw counts too;
3. the answer is not simply the biggest free pair: some legal move scores more points.

A puzzle's line goes on while the side that solves, after the solver's best reply, again
faces a puzzle step (``miner``). This module is pure: the rules model only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from battle.rules.board import Move, Position

MIN_LOSS = 4
"""Points every wrong move must lose (unless it changes the result): a slip of 1-3 points is
too small to tell by looking, and the levels' own slips are of that size (club loses 0.28 a
move on average, beginner 1.42)."""


@dataclass(frozen=True)
class PuzzleStep:
    """A position's one good move and what each other move loses."""

    answer: Move
    value: int
    """The answer's value: the final margin the mover still makes under perfect play."""
    losses: dict[Move, int]
    """Every other legal move with the points it loses against the answer."""


def sign(number: int) -> int:
    return (number > 0) - (number < 0)


def lead(position: Position) -> int:
    """The mover's score minus the opponent's so far."""
    return position.scores[position.to_move - 1] - position.scores[2 - position.to_move]


def changes_result(position: Position, best: int, value: int) -> bool:
    """Whether a move of ``value`` ends the game with another result (win, draw, loss) than the best move."""
    so_far = lead(position)
    return sign(so_far + value) != sign(so_far + best)


def puzzle_step(position: Position, values: Mapping[Move, int]) -> PuzzleStep | None:
    """The puzzle step of a position given every legal move's exact value, or None when it is none.

    ``values`` must hold every legal move (a missing one raises KeyError: a partial search
    cannot prove that nothing else works)."""
    moves = position.legal_moves()
    if len(moves) < 2:
        return None
    scored = {move: values[move] for move in moves}
    best = max(scored.values())
    answers = [move for move, value in scored.items() if value == best]
    if len(answers) != 1:
        return None
    answer = answers[0]
    if position.move_points(answer) >= max(position.move_points(move) for move in moves):
        return None
    losses = {move: best - value for move, value in scored.items() if move != answer}
    if any(loss < MIN_LOSS and not changes_result(position, best, best - loss) for loss in losses.values()):
        return None
    return PuzzleStep(answer, best, losses)
