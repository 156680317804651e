"""The solver's reply to a wrong move of a puzzle: what the puzzle screen asks the window's worker.

A puzzle file stores what every wrong move loses, not how it is punished, so the reply is
searched when the move is made, on the window's ``SearchWorker`` (``app.solver``), never on
the drawing thread. A puzzle has at most 60 tiles, which the solver settles exactly in
milliseconds once its kernels are loaded; ``battle.search_times.REFUTE_SECONDS`` only bounds the rare
slow one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from battle.rules.board import Move, Position

if TYPE_CHECKING:  # the solver (numba) loads on the worker's thread, not at import
    from battle.players import Opponent
    from battle.puzzles.session import Attempt
    from battle.search_worker import Task


@dataclass
class WrongTry:
    """A wrong move on show: what it loses now, the solver's punishment once found."""

    attempt: Attempt
    refutation: Move | None = None
    searching: bool = True


def refutation_search(position: Position) -> Callable[[Opponent, Task], Move | None]:
    """A run callable: the best reply in ``position`` (the puzzle's position after the wrong move),
    or None when the game ends there (``Opponent.refute``, at most ``REFUTE_SECONDS``)."""
    position = position.copy()

    def run(opponent: Opponent, task: Task) -> Move | None:
        return opponent.refute(position)

    return run
