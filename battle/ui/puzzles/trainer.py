"""The puzzle screen's puzzles and ratings, without pygame: which puzzle comes next, one go at it,
and the rated attempt the history keeps.

The order is the terminal's (``mahjong-battle puzzles play``): the next puzzle is one of the
filtered set near the player's rating, not tried before while there are any. An attempt is
rated and stored the moment its outcome is decided (the first wrong move, asking for the
solution, or the last move found without either), so closing the window or moving on
never loses one; a puzzle left before anything was decided does not count, as in the
terminal.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from battle.history.puzzle_attempts import rate_attempt
from battle.history.store import History, PuzzleAttempt
from battle.puzzles.puzzle import Puzzle
from battle.puzzles.selection import matching, next_puzzle
from battle.puzzles.session import Attempt, PuzzleSession
from battle.ratings.glicko2 import Rating
from battle.ratings.puzzle_ratings import (
    AttemptOutcome,
    best_streak,
    player_puzzle_rating,
    rate_puzzle_attempt,
    starting_rating,
    streak,
)
from battle.rules.board import Move


class PuzzleTrainer:
    """A set of puzzles, the filters on it, the puzzle being solved and the ratings around it."""

    def __init__(self, puzzles: Sequence[Puzzle], history: History, rng: random.Random | None = None) -> None:
        self.puzzles = puzzles
        self.history = history
        self.rng = rng or random.Random()
        self.theme: str | None = None
        """Only puzzles of this theme (None: any)."""
        self.length: int | None = None
        """Only puzzles with this many moves to find (None: any)."""
        self.session: PuzzleSession | None = None
        """The puzzle being solved; None when the filters leave no puzzle."""
        self.outcome: AttemptOutcome | None = None
        """The rated attempt at the current puzzle, once decided."""
        self.attempts: list[PuzzleAttempt] = history.attempts()
        """Every stored attempt, oldest first, read again after each new one."""

    # -- the set ---------------------------------------------------------------------------

    def lengths(self) -> list[int]:
        """The numbers of moves to find that the set has, fewest first."""
        return sorted({puzzle.length for puzzle in self.puzzles})

    def filtered(self) -> list[Puzzle]:
        return matching(self.puzzles, self.theme, self.length)

    def pick(self) -> Puzzle | None:
        """The next puzzle to solve (a new session), or None when the filters leave none."""
        ratings = self.puzzle_ratings()
        puzzle = next_puzzle(self.filtered(), self.rating.rating, set(ratings), self.rng, ratings)
        self.session = None if puzzle is None else PuzzleSession(puzzle)
        self.outcome = None
        return puzzle

    # -- ratings ---------------------------------------------------------------------------

    @property
    def rating(self) -> Rating:
        """The player's puzzle rating now."""
        return player_puzzle_rating(self.attempts)

    @property
    def streak(self) -> int:
        return streak(self.attempts)

    @property
    def best_streak(self) -> int:
        return best_streak(self.attempts)

    def puzzle_ratings(self) -> dict[str, float]:
        """The puzzles whose rating moved here: their latest rating, by id."""
        return {attempt.puzzle_id: attempt.puzzle.rating for attempt in self.attempts}

    def puzzle_rating(self, puzzle: Puzzle) -> float:
        return self.puzzle_ratings().get(puzzle.id, puzzle.rating)

    # -- one go ----------------------------------------------------------------------------

    def try_move(self, move: Move) -> Attempt:
        """The session's ``try_move`` (its errors included); a wrong move or the last right one decides."""
        session = self._session()
        attempt = session.try_move(move)
        if not attempt.correct or session.finished:
            self._decide()
        return attempt

    def rating_if_missed(self) -> Rating:
        """The player's rating once the current puzzle counts as missed, reckoned as ``rate_attempt``
        will reckon it: what Show solution costs, said before it is pressed."""
        puzzle = self._session().puzzle
        opponent = self.history.puzzle_rating(puzzle.id) or starting_rating(puzzle.rating)
        return rate_puzzle_attempt(self.rating, opponent, solved=False)[0]

    def reveal(self) -> list[Move]:
        """Give up: the rest of the line (played on the session's position); the attempt is decided, missed."""
        rest = self._session().reveal()
        self._decide()
        return rest

    def take_notices(self) -> list[str]:
        """What the history had to say since the last call (a file set aside, a busy database)."""
        return self.history.take_notices()

    def _session(self) -> PuzzleSession:
        if self.session is None:
            raise ValueError("no puzzle is being solved")
        return self.session

    def _decide(self) -> None:
        """Rate and store the attempt once: the first decision is the one that counts."""
        session = self._session()
        if self.outcome is None:
            self.outcome = rate_attempt(self.history, session.puzzle, session.solved)
            self.attempts = self.history.attempts()
