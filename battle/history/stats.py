"""Statistics over the history: pure arithmetic on stored games and puzzle attempts.

"Your" games are those with a ``you`` side (against a level, or online against a
person); games between two people at one machine, or two levels, count in the total
only. A game's margin is your score minus the opponent's; a win is a positive margin, or
a game the other side resigned or lost on time. Such a game ended early: it counts among
the wins and losses, not in the margins, which would be a half-played game's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from battle.history.store import GameEntry, PuzzleAttempt
from battle.ratings.glicko2 import Rating
from battle.ratings.level_ratings import LEVEL_NAMES
from battle.ratings.puzzle_ratings import best_streak, streak
from battle.ratings.solver_rating import SolverRating, solver_rating

PEOPLE = "people"
"""The opponent of a game against a person, in the tallies."""
COMPOSED = "composed"
"""The row of your games against a level from a composed start (the editor, a loaded position, a
review's "Retry from here"), apart from the levels' rows: such a start may hand either side the
game, so a win there says nothing of the level, and the rating leaves them out too."""
BEST_AND_WORST = 3
"""Games listed as best and as worst."""


@dataclass(frozen=True)
class Tally:
    """Your results against one kind of opponent."""

    opponent: str
    """A level's name, or ``PEOPLE``."""
    wins: int
    draws: int
    losses: int
    margin_total: int
    """Over the games played out (``margin_games``)."""
    margin_games: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def average_margin(self) -> float:
        return self.margin_total / self.margin_games if self.margin_games else 0.0


@dataclass(frozen=True)
class Stats:
    """Everything the statistics screen and ``mahjong-battle stats`` show."""

    games: int
    """Every stored game."""
    your_games: int
    tallies: tuple[Tally, ...]
    """Per opponent, weakest level first, then composed starts (``COMPOSED``), people last; only
    opponents you met."""
    average_margin: float | None
    """Over your games played out; None without any."""
    accuracy: tuple[tuple[float, float], ...]
    """(when, your review accuracy in percent) for your reviewed games, oldest first."""
    best: tuple[GameEntry, ...]
    """Your games played out of the largest margin, best first."""
    worst: tuple[GameEntry, ...]
    """Your games of the smallest margin, worst first, leaving out those already among the best."""
    puzzle_ratings: tuple[tuple[float, Rating], ...]
    """(when, your puzzle rating after the attempt), oldest first."""
    puzzles_tried: int
    puzzles_solved: int
    streak: int
    best_streak: int
    solver: SolverRating
    unrated: int = 0
    """Your games against a level from a composed start (the editor, a loaded position, a review's
    "Retry from here"): kept and tallied in their own row (``COMPOSED``), but not rated, since such
    a start may hand either side the game; only numbered or random deals feed ``solver``."""


def _yours(entry: GameEntry) -> bool:
    return entry.you is not None


def compute_stats(games: Sequence[GameEntry], attempts: Sequence[PuzzleAttempt]) -> Stats:
    """The statistics of these games and attempts (in any order)."""
    ordered = sorted(games, key=lambda entry: (entry.finished_at, entry.id or 0))
    yours = [entry for entry in ordered if _yours(entry)]
    counts: dict[str, list[int]] = {}
    for entry in yours:
        assert entry.you is not None
        level = entry.opponent_level()
        row = PEOPLE if level is None else level if entry.deal is not None else COMPOSED
        tally = counts.setdefault(row, [0, 0, 0, 0, 0])
        tally[1 - entry.result_for(entry.you)] += 1
        if entry.played_out:
            tally[3] += entry.margin_for(entry.you)
            tally[4] += 1
    order = [*LEVEL_NAMES, COMPOSED, PEOPLE]
    tallies = tuple(
        Tally(name, *counts[name])
        for name in sorted(counts, key=lambda name: (order.index(name) if name in order else len(order), name))
    )
    played_out = [entry for entry in yours if entry.played_out]
    margins = [entry.margin_for(entry.you) for entry in played_out if entry.you is not None]
    accuracy: list[tuple[float, float]] = []
    for entry in yours:
        percent = entry.accuracy[entry.you - 1] if entry.you is not None else None
        if percent is not None:
            accuracy.append((entry.finished_at, percent))
    by_margin = sorted(played_out, key=lambda entry: (-entry.margin_for(entry.you or 1), entry.finished_at))
    best = by_margin[:BEST_AND_WORST]
    worst = [entry for entry in reversed(by_margin) if entry not in best][:BEST_AND_WORST]
    attempts = sorted(attempts, key=lambda attempt: (attempt.attempted_at, attempt.id or 0))
    return Stats(
        games=len(ordered),
        your_games=len(yours),
        tallies=tallies,
        average_margin=sum(margins) / len(margins) if margins else None,
        accuracy=tuple(accuracy),
        best=tuple(best),
        worst=tuple(worst),
        puzzle_ratings=tuple((attempt.attempted_at, attempt.player) for attempt in attempts),
        puzzles_tried=len(attempts),
        puzzles_solved=sum(attempt.solved for attempt in attempts),
        streak=streak(attempts),
        best_streak=best_streak(attempts),
        solver=solver_rating(ordered),
        unrated=sum(1 for entry in yours if entry.opponent_level() is not None and entry.deal is None),
    )
