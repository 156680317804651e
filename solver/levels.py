"""Playing strengths: from a beginner who mostly grabs points to perfect play.

A level searches to a depth and then chooses among the moves by their values
with a temperature: a move that loses ``d`` points against the best is chosen
with weight ``exp(-d / temperature)``. Low levels so play plausible moves and
make human-sized mistakes (rarely a gross blunder), instead of random ones.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from battle.rules.board import Move, Position
from solver.limits import Limits
from solver.results import Analysis

if TYPE_CHECKING:  # the table of levels is read without numba (a game server's pool checks a level's name)
    from solver.engine import Engine


@dataclass(frozen=True)
class Level:
    name: str
    depth: int | None
    """Search depth in moves; None searches to the end (exact when time allows)."""
    temperature: float
    """Points of loss that make a move e times less likely; 0 always plays a best move."""
    time_limit: float
    """Seconds the level may think per move."""
    description: str

    @property
    def limits(self) -> Limits:
        """The search a move of this level makes: its depth, within its time."""
        return Limits(time=self.time_limit, depth=self.depth)


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("beginner", 1, 3.0, 1.0, "grabs points, often careless"),
        Level("casual", 2, 1.5, 1.0, "looks one reply ahead"),
        Level("club", 4, 0.8, 2.0, "sees short combinations"),
        Level("expert", 8, 0.3, 3.0, "deep tactics, rare slips"),
        Level("master", 16, 0.0, 5.0, "deep search, no deliberate slips"),
        Level("perfect", None, 0.0, 10.0, "exact whenever the time allows, else the deepest search"),
    )
}
DEFAULT_LEVEL = "club"


def get_level(name: str) -> Level:
    """The level of that name, with an error listing the names if unknown."""
    level = LEVELS.get(name.lower().strip()) if isinstance(name, str) else None
    if level is None:
        raise ValueError(f"unknown level {name!r} (choose one of: {', '.join(LEVELS)})")
    return level


def analyse_for_level(engine: Engine, position: Position, level: Level) -> Analysis:
    """The search a level makes before choosing (every move's value at its depth)."""
    return engine.search(position, level.limits, all_exact=level.temperature > 0)


def choose_from(analysis: Analysis, level: Level, rng: random.Random) -> Move:
    """Pick a move from a finished search the way the level plays."""
    if level.temperature <= 0 or not analysis.move_values:
        return rng.choice(analysis.best_moves) if analysis.best_moves else analysis.move_values[0].move
    best = max(mv.value for mv in analysis.move_values)
    weights = [math.exp((mv.value - best) / level.temperature) for mv in analysis.move_values]
    return rng.choices([mv.move for mv in analysis.move_values], weights=weights, k=1)[0]


def best_move(
    position: Position, level: str = "perfect", *, engine: Engine | None = None, rng: random.Random | None = None
) -> Move:
    """A move for the player to move, as the named level would play it."""
    chosen = get_level(level)
    if not position.legal_moves():
        raise ValueError("no legal move: the game is over")
    if engine is None:
        from solver.engine import Engine

        engine = Engine()
    analysis = analyse_for_level(engine, position, chosen)
    return choose_from(analysis, chosen, rng if rng is not None else random.Random())
