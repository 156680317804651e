"""One go at a puzzle, for any front end: moves checked against the line, the solver's replies played.

A right move is played with the solver's reply from the line; a wrong one is not played:
the attempt says what it loses and, when the front end gives a ``refute`` function (the
solver, through ``battle.players``), the reply that punishes it, and the player tries
again. The puzzle counts as solved only when every move was found without a wrong one and
without asking for the solution, as a puzzle rating needs. Pure: the rules model only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from battle.i18n import N_
from battle.puzzles.criteria import lead, sign
from battle.puzzles.puzzle import Puzzle, signed_points
from battle.rules.board import Move, Position, move_name
from battle.rules.errors import IllegalMoveError

Refute = Callable[[Position], Move | None]
"""The solver's best reply in a position (None when the game is over there)."""


@dataclass(frozen=True)
class Attempt:
    """What one move did."""

    move: Move
    correct: bool
    points: int
    """The pair's points."""
    loss: int
    """Points of final margin it loses against perfect play (0 for the right move)."""
    result_before: int
    """The result perfect play reaches from here, for the side that solves: 1 win, 0 draw, -1 loss."""
    result_after: int
    """The result the move leads to under perfect play (differs from ``result_before`` only for a wrong move)."""
    refutation: Move | None = None
    """After a wrong move: the solver's best reply, when a ``refute`` function was given."""
    reply: Move | None = None
    """After a right move: the solver's reply from the line, already played (None at the end)."""
    reply_points: int = 0
    finished: bool = False


class PuzzleSession:
    """A puzzle being solved; ``position`` is the board the player sees."""

    def __init__(self, puzzle: Puzzle, refute: Refute | None = None) -> None:
        self.puzzle = puzzle
        self.position: Position = puzzle.start()
        self.step = 0
        """Which of the side's moves is asked for now, from 0."""
        self.mistakes = 0
        self.revealed = False
        self._refute = refute

    @property
    def side(self) -> int:
        """The side that solves, 1 or 2."""
        return self.puzzle.to_move

    @property
    def finished(self) -> bool:
        return self.revealed or self.step >= self.puzzle.length

    @property
    def solved(self) -> bool:
        """Finished with every move found at the first try and no solution shown."""
        return self.finished and not self.revealed and self.mistakes == 0

    @property
    def tried(self) -> bool:
        """Whether the player did anything that counts for the rating: a move or asking for the solution."""
        return self.step > 0 or self.mistakes > 0 or self.revealed

    def expected(self) -> Move:
        """The move the line asks for now."""
        return self.puzzle.line[2 * self.step]

    def value_now(self) -> int:
        """The margin the side that solves still makes from here under perfect play."""
        start = self.puzzle.start()
        return self.puzzle.value - signed_points(start, self.puzzle.line[: 2 * self.step], self.side)

    def try_move(self, move: Move) -> Attempt:
        """Check a move: a right one is played with the reply, a wrong one is only judged.

        Raises ``IllegalMoveError`` (nothing counted) when the move breaks the rules, and
        ``ValueError`` when the puzzle is already finished."""
        if self.finished:
            raise ValueError("the puzzle is finished")
        move = (min(move), max(move))
        reason = self.position.illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(N_("{move}: {reason}"), move=_name(move), reason=reason)
        points = self.position.move_points(move)
        best = self.value_now()
        before = sign(lead(self.position) + best)
        if move == self.expected():
            return self._play_right(move, points, before)
        loss = self.puzzle.losses[self.step][move]
        self.mistakes += 1
        refutation = None
        if self._refute is not None:
            self.position.push(move)
            try:
                refutation = self._refute(self.position)
            finally:
                self.position.pop()
        return Attempt(move, False, points, loss, before, sign(lead(self.position) + best - loss), refutation)

    def _play_right(self, move: Move, points: int, before: int) -> Attempt:
        self.position.push(move)
        self.step += 1
        reply, reply_points = None, 0
        if not self.finished:
            reply = self.puzzle.line[2 * self.step - 1]
            reply_points = self.position.push(reply)
        return Attempt(
            move, True, points, 0, before, before, reply=reply, reply_points=reply_points, finished=self.finished
        )

    def reveal(self) -> list[Move]:
        """Give up: the rest of the line from here (played on ``position``); the puzzle counts as missed."""
        rest = list(self.puzzle.line[2 * self.step :])
        for move in rest:
            self.position.push(move)
        self.revealed = True
        return rest


def _name(move: Move) -> str:
    try:
        return move_name(move)
    except (IndexError, TypeError):
        return repr(move)
