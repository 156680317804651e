"""Short-lived visual effects: pairs lifting off the board, points flying to the score.

The model changes at once when a move is played; animations only remember what
to show while they run (which tiles, where from, which score they fly to).
They hold logical anchors (cells, a player) rather than pixels, so a window
resize in mid-flight just moves them. Times are the scene clock in seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

REMOVE_SECONDS = 0.26
FLY_SECONDS = 0.75
FLY_DELAY = 0.08


def ease_out(t: float) -> float:
    t = max(0.0, min(1.0, t))
    return 1 - (1 - t) ** 3


def ease_in_out(t: float) -> float:
    t = max(0.0, min(1.0, t))
    return 0.5 - 0.5 * math.cos(math.pi * t)


class Timed:
    """An effect that runs for ``duration`` seconds from ``start`` (each effect's dataclass has both)."""

    start: float
    duration: float

    def progress(self, now: float) -> float:
        """How far the effect has run: 0 before its start, 1 from its end on."""
        return max(0.0, min(1.0, (now - self.start) / self.duration))

    def done(self, now: float) -> bool:
        return now >= self.start + self.duration


@dataclass(frozen=True)
class Removal(Timed):
    """A pair leaving the board: each tile fades out while lifting."""

    cells: tuple[int, int]
    kind: int
    start: float
    duration: float = REMOVE_SECONDS


@dataclass(frozen=True)
class FlyingPoints(Timed):
    """``+7`` rising from the pair and gliding to the mover's score, which counts it on landing."""

    text: str
    points: int
    player: int
    cells: tuple[int, int]
    start: float
    duration: float = FLY_SECONDS

    def landed(self, now: float) -> bool:
        """Whether the points have reached the score (the flight is done)."""
        return self.done(now)


@dataclass(frozen=True)
class Pulse(Timed):
    """A brief glow on a score that just went up."""

    player: int
    start: float
    duration: float = 0.45

    def strength(self, now: float) -> float:
        t = (now - self.start) / self.duration
        return 0.0 if t < 0 or t > 1 else math.sin(math.pi * t)


Animation = Removal | FlyingPoints | Pulse
"""Any of the effects a scene keeps running (its ``animations`` list)."""


def pending_points(animations: list[Animation], player: int, now: float) -> int:
    """Points still in the air towards a player's score (the score shows them on landing)."""
    return sum(a.points for a in animations if isinstance(a, FlyingPoints) and a.player == player and not a.landed(now))


def fly_path(start: tuple[float, float], end: tuple[float, float], t: float) -> tuple[float, float, float]:
    """Position and opacity along the flight: a short rise, then a curve to the target."""
    rise = 0.18
    if t < rise:
        k = ease_out(t / rise)
        return (start[0], start[1] - 26 * k, min(1.0, 0.3 + k))
    k = ease_in_out((t - rise) / (1 - rise))
    x0, y0 = start[0], start[1] - 26
    # bend the path upwards a little, so it reads as a throw rather than a slide
    mid_x, mid_y = (x0 + end[0]) / 2, min(y0, end[1]) - 60
    x = (1 - k) ** 2 * x0 + 2 * (1 - k) * k * mid_x + k**2 * end[0]
    y = (1 - k) ** 2 * y0 + 2 * (1 - k) * k * mid_y + k**2 * end[1]
    alpha = 1.0 if k < 0.85 else max(0.0, (1 - k) / 0.15)
    return (x, y, alpha)
