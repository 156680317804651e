"""Puzzles mined from exact analysis, and the ratings that go with them.

The pure part, which imports neither the solver, numba nor pygame:

* ``puzzle``: the ``Puzzle`` and its JSON line; ``puzzle_file``: reading and writing sets;
* ``criteria``: when a position is a puzzle; ``themes``: what kind of idea its answer is;
* ``difficulty``: a puzzle's difficulty and starting rating from the levels' find rates;
* ``session``: one go at a puzzle, for any front end.

The ratings of puzzles and players are ``battle.ratings``'s.

``miner`` finds puzzles in games the levels play; it alone reaches the solver
(through ``battle.players``), and nothing here imports it.
"""

from battle.puzzles.criteria import MIN_LOSS, PuzzleStep, puzzle_step
from battle.puzzles.puzzle import Puzzle, PuzzleFormatError, PuzzleSource
from battle.puzzles.puzzle_file import load_puzzles, parse_puzzles, save_puzzles, shipped_puzzles_path
from battle.puzzles.session import Attempt, PuzzleSession
from battle.puzzles.themes import THEMES, themes_of

__all__ = [
    "MIN_LOSS",
    "THEMES",
    "Attempt",
    "Puzzle",
    "PuzzleFormatError",
    "PuzzleSession",
    "PuzzleSource",
    "PuzzleStep",
    "load_puzzles",
    "parse_puzzles",
    "puzzle_step",
    "save_puzzles",
    "shipped_puzzles_path",
    "themes_of",
]
