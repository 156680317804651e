"""What the game screen asks the solver for: the opponent's move and the hint.

Both run on the window's ``SearchWorker`` (``app.solver``), off the drawing
thread; each is a run callable for ``SearchWorker.submit`` that checks the
task's cancel flag between the searches it chains.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from battle.rules.board import Move, Position

if TYPE_CHECKING:  # the solver (numba) loads on the worker's thread, not at import
    from battle.players import Engine
    from battle.search_worker import Task

HINT_QUICK_DEPTH = 10
HINT_QUICK_SECONDS = 1.0
HINT_EXACT_SECONDS = 3.0


# -- what the searches do ------------------------------------------------------------------


def level_move(level_name: str, rng: random.Random, position: Position) -> Callable[[Engine, Task], Move | None]:
    """A run callable: search ``position`` as the level does, then pick its move the level's way.

    Raises ValueError at once for an unknown level (a hand-edited file), not on the worker.
    """
    from battle.players import analyse_for_level, choose_from, get_level

    level = get_level(level_name)
    position = position.copy()

    def run(engine: Engine, task: Task) -> Move | None:
        analysis = analyse_for_level(engine, position, level)
        if task.cancelled.is_set():
            return None
        return choose_from(analysis, level, rng)

    return run


@dataclass(frozen=True)
class Hint:
    move: Move
    exact: bool
    alternatives: int
    """How many other moves are as good (when known)."""
    value: int


def hint_search(position: Position) -> Callable[[Engine, Task], Hint | None]:
    """A run callable: the perfect player's move in ``position``, exact when the time allows,
    else the deepest quick search's.

    A bare perfect search that runs out of time knows nothing and falls back to
    the biggest pair, so a short depth-limited search goes first as the fallback.
    """
    position = position.copy()

    def run(engine: Engine, task: Task) -> Hint | None:
        from battle.players import Limits

        quick = engine.search(position, Limits(time=HINT_QUICK_SECONDS, depth=HINT_QUICK_DEPTH))
        chosen = quick
        if not quick.exact and not task.cancelled.is_set():
            full = engine.search(position, Limits(time=HINT_EXACT_SECONDS))
            if full.exact:
                chosen = full
        if not chosen.best_moves:
            return None
        return Hint(chosen.best_moves[0], chosen.exact, len(chosen.best_moves) - 1, chosen.value)

    return run
