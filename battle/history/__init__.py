"""The player's history: every finished game and puzzle attempt, the statistics and ratings drawn from them.

* ``store``: the SQLite database (``History``, ``GameEntry``, ``PuzzleAttempt``), which never
  stops a game: damage is set aside, a lock skips one write, each says so in one line;
* ``stats``: games, results per opponent, margins, accuracy, best and worst games (pure);
* ``solver_rating``: a Glicko-2 rating from games against the levels, on their scale (pure);
* ``puzzle_ratings``: the player's and the puzzles' ratings, moved per attempt;
* ``report``: the statistics as terminal text.

No module here imports the solver, numba or pygame.
"""

from battle.history.puzzle_ratings import AttemptOutcome, rate_attempt
from battle.history.solver_rating import SolverRating, solver_rating
from battle.history.stats import Stats, compute_stats
from battle.history.store import GameEntry, History, PuzzleAttempt, default_history_path

__all__ = [
    "AttemptOutcome",
    "GameEntry",
    "History",
    "PuzzleAttempt",
    "SolverRating",
    "Stats",
    "compute_stats",
    "default_history_path",
    "rate_attempt",
    "solver_rating",
]
