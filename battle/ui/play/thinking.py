"""What the game screen asks the solver for: the opponent's move and the hint.

Both run on the window's ``SearchWorker`` (``app.solver``), whose service is a
``battle.players.Opponent``, off the drawing thread; each is a run callable for
``SearchWorker.submit`` that hands the task's cancel flag to the opponent.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from battle.rules.board import Move, Position
from battle.search_times import HINT_QUICK_DEPTH, HINT_QUICK_SECONDS, HINT_SECONDS

if TYPE_CHECKING:  # the solver (numba) loads on the worker's thread, not at import
    from battle.players import Opponent, PlainOpponent
    from battle.search_worker import Task


# -- what the searches do ------------------------------------------------------------------


def level_move(level_name: str, rng: random.Random, position: Position) -> Callable[[Opponent, Task], Move | None]:
    """A run callable: the opponent's move in ``position`` at the level, its search then its choice.

    Raises ValueError at once for an unknown level (a hand-edited file), not on the worker.
    """
    from battle.players import get_level

    level = get_level(level_name)
    position = position.copy()

    def run(opponent: Opponent, task: Task) -> Move | None:
        return opponent.move(position, level=level, rng=rng, cancelled=task.cancelled.is_set)

    return run


def plain_level_move(
    level_name: str, rng: random.Random, position: Position
) -> Callable[[PlainOpponent, Task], Move | None]:
    """A run callable for the plain-Python opponent (``battle.players.PlainOpponent``): the same move
    as ``level_move``'s at a level up to expert, master's within its time, while the kernels compile."""
    position = position.copy()

    def run(opponent: PlainOpponent, task: Task) -> Move | None:
        return opponent.move(position, level=level_name, rng=rng, cancelled=task.cancelled.is_set)

    return run


def plays_without_kernels(level_name: str) -> bool:
    """Whether the level's moves come from plain Python while the kernels compile (``PLAIN_LEVELS``)."""
    from battle.players import PLAIN_LEVELS

    return level_name in PLAIN_LEVELS


def plain_time_limit(level_name: str) -> float | None:
    """The seconds a level's plain Python move stops at (master's 5: ``TIMED_PLAIN_LEVELS``), else None."""
    from battle.players import TIMED_PLAIN_LEVELS, get_level

    return get_level(level_name).time_limit if level_name in TIMED_PLAIN_LEVELS else None


@dataclass(frozen=True)
class Hint:
    move: Move
    exact: bool
    alternatives: int
    """How many other moves are as good (when known)."""
    value: int


def hint_search(position: Position) -> Callable[[Opponent, Task], Hint | None]:
    """A run callable: the perfect player's move in ``position``, exact when the time allows,
    else the deepest quick search's (``Opponent.hint``)."""
    position = position.copy()

    def run(opponent: Opponent, task: Task) -> Hint | None:
        chosen = opponent.hint(
            position,
            task.cancelled.is_set,
            quick_seconds=HINT_QUICK_SECONDS,
            quick_depth=HINT_QUICK_DEPTH,
            exact_seconds=HINT_SECONDS,
        )
        if not chosen.best_moves:
            return None
        return Hint(chosen.best_moves[0], chosen.exact, len(chosen.best_moves) - 1, chosen.value)

    return run
