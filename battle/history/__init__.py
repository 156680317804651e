"""The player's history: every finished game and puzzle attempt, the statistics and ratings drawn from them.

* ``store``: the SQLite database (``History``, ``GameEntry``, ``PuzzleAttempt``), which never
  stops a game: damage is set aside, a lock skips one write, each says so in one line;
* ``stats``: games, results per opponent, margins, accuracy, best and worst games (pure);
* ``puzzle_attempts``: an attempt at a puzzle, rated (``battle.ratings``) and stored;
* ``review_accuracy``: a finished review's accuracy, added to the stored game it graded;
* ``stats_report``: the statistics as terminal text.

No module here imports the solver, numba or pygame.
"""

from battle.history.puzzle_attempts import rate_attempt
from battle.history.stats import Stats, compute_stats
from battle.history.store import GameEntry, History, PuzzleAttempt, default_history_path

__all__ = [
    "GameEntry",
    "History",
    "PuzzleAttempt",
    "Stats",
    "compute_stats",
    "default_history_path",
    "rate_attempt",
]
