"""Ratings: Glicko-2, the solver levels' fixed ratings, and the player's ratings built on them.

* ``glicko2``: Glicko-2 ratings (``Rating``, ``rate``, ``rate_game``);
* ``level_ratings``: the solver levels' fixed ratings, from their calibration matches;
* ``solver_rating``: the player's rating from games against the levels, on their scale;
* ``puzzle_ratings``: the player's and a puzzle's ratings, moved per attempt, and the streaks.

Pure arithmetic: nothing here imports the solver, numba, numpy, pygame, a database, the
puzzles or the history; those use it (a stored game or attempt is read through a protocol).
"""

from battle.ratings.glicko2 import DRAW, LOSS, WIN, Rating, expected_score, rate, rate_game
from battle.ratings.level_ratings import LEVEL_NAMES, LEVEL_RATINGS, level_rating, nearest_level
from battle.ratings.puzzle_ratings import AttemptOutcome, best_streak, player_puzzle_rating, streak
from battle.ratings.solver_rating import SolverRating, solver_rating

__all__ = [
    "DRAW",
    "LEVEL_NAMES",
    "LEVEL_RATINGS",
    "LOSS",
    "WIN",
    "AttemptOutcome",
    "Rating",
    "SolverRating",
    "best_streak",
    "expected_score",
    "level_rating",
    "nearest_level",
    "player_puzzle_rating",
    "rate",
    "rate_game",
    "solver_rating",
    "streak",
]
