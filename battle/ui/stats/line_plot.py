"""A small curve over time for the statistics screen: accuracy per reviewed game, the puzzle rating.

Pure drawing in the review graph's colours (``eval_graph``): ``render_line_plot`` returns a new
surface and changes nothing. The points are spread evenly left to right in their order (one
per game or attempt, whatever the days between them), the value axis has three to five round
ticks, and an optional band (the rating plus and minus two deviations) shows how sure each
value is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import pygame

from battle.ui.art import theme
from battle.ui.widgets.eval_graph import GRID, NICE_STEPS, PLOT_BACKGROUND

LABEL_SIZE = 12.0
"""Axis text in pixels at the design size."""
MAX_DOTS = 40
"""A dot on each value up to this many: in a 500-pixel plot they stay 12 px apart, more would run together."""
MAX_TICKS = 4
"""Steps between the lowest and the highest tick at most: a low strip keeps its labels apart."""


def value_ticks(low: float, high: float) -> list[float]:
    """Round values from at or below ``low`` to at or above ``high``, ``MAX_TICKS`` steps at most."""
    span = max(high - low, 1.0)
    steps = [*NICE_STEPS, *(step * 10 for step in NICE_STEPS[1:])]
    step = next((step for step in steps if span / step <= MAX_TICKS), steps[-1])
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    if last == first:
        last = first + step
    return [first + index * step for index in range(round((last - first) / step) + 1)]


def render_line_plot(
    values: Sequence[float],
    size: tuple[int, int],
    fonts: theme.Fonts,
    scale: float,
    *,
    band: Sequence[tuple[float, float]] = (),
    value_range: tuple[float, float] | None = None,
    written: Callable[[float], str] = lambda tick: f"{tick:.0f}",
    colour: theme.Colour = theme.GOLD_BRIGHT,
) -> pygame.Surface:
    """The curve of ``values`` on a new surface of ``size`` pixels.

    ``band`` gives a (low, high) per value, shaded behind the curve; ``value_range`` fixes the axis
    (0 to 100 for percentages) instead of fitting it to the values; ``written`` writes each label
    (a percentage the language's way: "50 %" in German).
    """
    width, height = max(60, size[0]), max(40, size[1])
    surface = pygame.Surface((width, height))
    surface.fill(PLOT_BACKGROUND)
    if not values:
        return surface
    text = LABEL_SIZE * scale
    everything = [*values, *(value for pair in band for value in pair)]
    low, high = value_range if value_range is not None else (min(everything), max(everything))
    ticks = value_ticks(low, high)
    labels = [written(tick) for tick in ticks]
    pad = max(4, round(8 * scale))
    left = max(fonts.width(label, text) for label in labels) + 2 * pad
    plot = pygame.Rect(
        left,
        pad + round(text / 2),
        max(10, width - left - 2 * pad - fonts.width("0000", text)),
        max(10, height - 2 * pad - round(text)),
    )

    def to_y(value: float) -> float:
        return plot.bottom - (value - ticks[0]) / (ticks[-1] - ticks[0]) * plot.h

    def to_x(index: int) -> float:
        return plot.centerx if len(values) == 1 else plot.x + plot.w * index / (len(values) - 1)

    for tick, label in zip(ticks, labels, strict=True):
        y = round(to_y(tick))
        pygame.draw.line(surface, GRID, (plot.x, y), (plot.right, y), 1)
        rendered = fonts.text(label, text, theme.IVORY_DIM)
        surface.blit(rendered, rendered.get_rect(midright=(plot.x - pad, y)))
    if len(band) == len(values):
        upper = [(to_x(index), to_y(min(ticks[-1], high_value))) for index, (_, high_value) in enumerate(band)]
        lower = [(to_x(index), to_y(max(ticks[0], low_value))) for index, (low_value, _) in enumerate(band)]
        if len(values) == 1:
            x = upper[0][0]
            upper = [(x - pad, upper[0][1]), (x + pad, upper[0][1])]
            lower = [(x - pad, lower[0][1]), (x + pad, lower[0][1])]
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        pygame.draw.polygon(shade, (*colour, 46), [*upper, *reversed(lower)])
        surface.blit(shade, (0, 0))
    points = [(to_x(index), to_y(value)) for index, value in enumerate(values)]
    if len(points) > 1:
        pygame.draw.lines(surface, colour, False, points, max(1, round(2 * scale)))
    radius = max(2, round(3 * scale))
    if len(points) <= MAX_DOTS:
        for point in points:
            pygame.draw.circle(surface, colour, point, radius)
    last = fonts.text(written(values[-1]), text, theme.IVORY, bold=True)
    surface.blit(last, last.get_rect(midleft=(points[-1][0] + radius + 3, points[-1][1])))
    return surface
