"""The survey report's histogram as a PNG: the first player's value over the solved deals.

Drawn with pygame (already a dependency, no display needed), in the window's colours, so
docs/solver.md's plot looks like the rest of the program.
"""

from __future__ import annotations

import io
import os
from collections import Counter

from battle.atlas.survey_report import SurveyReport
from battle.i18n import _, format_signed, ngettext
from battle.storage.paths import write_atomically

WIDTH, HEIGHT = 900, 420
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 60, 20, 50, 50
BACKGROUND = (250, 247, 240)
INK = (40, 40, 40)
BAR = (46, 125, 90)
FAINT = (200, 196, 186)


def save_histogram(report: SurveyReport, path: str) -> None:
    """Write the histogram of ``report.values`` to ``path`` (PNG); raises OSError or pygame.error."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    import pygame.freetype

    pygame.freetype.init()
    font = pygame.freetype.SysFont(None, 15)
    title_font = pygame.freetype.SysFont(None, 18)
    surface = pygame.Surface((WIDTH, HEIGHT))
    surface.fill(BACKGROUND)
    counts = Counter(report.values)
    low, high = (min(counts), max(counts)) if counts else (-1, 1)
    low, high = min(low, 0), max(high, 0)
    tallest = max(counts.values(), default=1)
    plot_w, plot_h = WIDTH - MARGIN_LEFT - MARGIN_RIGHT, HEIGHT - MARGIN_TOP - MARGIN_BOTTOM
    slot = plot_w / (high - low + 1)
    base = MARGIN_TOP + plot_h
    for step in range(tallest + 1):
        if tallest > 10 and step % max(1, tallest // 5):
            continue
        y = base - plot_h * step / tallest
        pygame.draw.line(surface, FAINT, (MARGIN_LEFT, y), (WIDTH - MARGIN_RIGHT, y))
        font.render_to(surface, (MARGIN_LEFT - 30, y - 6), str(step), INK)
    for value in range(low, high + 1):
        x = MARGIN_LEFT + slot * (value - low)
        height = plot_h * counts[value] / tallest
        if counts[value]:
            pygame.draw.rect(
                surface,
                BAR,
                pygame.Rect(round(x + slot * 0.1), round(base - height), max(1, round(slot * 0.8)), round(height)),
            )
        if value % max(1, (high - low) // 12 + 1) == 0:
            font.render_to(surface, (round(x + slot / 2 - 8), base + 8), f"{value:+d}", INK)
    zero = MARGIN_LEFT + slot * (0 - low) + slot / 2
    pygame.draw.line(surface, INK, (zero, MARGIN_TOP), (zero, base), 1)
    pygame.draw.line(surface, INK, (MARGIN_LEFT, base), (WIDTH - MARGIN_RIGHT, base), 2)
    if report.mean is None:
        title = ngettext(
            "First player's value under perfect play: {count} deal",
            "First player's value under perfect play: {count} deals",
            report.solved,
        ).format(count=report.solved)
    else:
        title = ngettext(
            "First player's value under perfect play: {count} deal, mean {mean}",
            "First player's value under perfect play: {count} deals, mean {mean}",
            report.solved,
        ).format(count=report.solved, mean=format_signed(report.mean, 2))
    title_font.render_to(surface, (MARGIN_LEFT, 16), title, INK)
    footer = _("final margin for the player who moves first")
    width = font.get_rect(footer).width
    font.render_to(surface, ((WIDTH - width) // 2, HEIGHT - 22), footer, INK)
    image = io.BytesIO()
    pygame.image.save(surface, image, "histogram.png")
    write_atomically(path, image.getvalue())  # never over a FIFO or a device, never half an image
