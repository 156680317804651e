"""Things drawn over the board: the status line, the browse banner and the flying points."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from battle.ui import theme
from battle.ui.animations import FlyingPoints, fly_path
from battle.ui.layout import Layout, cell_center, score_anchor

STATUS_COLOURS = {
    "info": theme.IVORY,
    "quiet": theme.IVORY_DIM,
    "warn": theme.WARN,
    "error": theme.ERROR,
    "hint": theme.HINT,
    "good": theme.GOLD_BRIGHT,
}


@dataclass
class Status:
    """The message under the board: what just happened, or why a click did nothing."""

    text: str
    kind: str = "info"
    busy: bool = False
    """Show a small spinner in front (a hint search is running)."""
    since: float | None = None
    """With ``busy``: the scene time the work began, to show the seconds spent."""


def draw_status(surface: pygame.Surface, fonts: theme.Fonts, layout: Layout, status: Status, now: float,
                keys_help: str) -> None:
    rect = layout.status
    size = 15 * layout.scale
    x = rect.x + round(4 * layout.scale)
    cy = rect.y + rect.h // 2
    if status.busy:
        for index in range(3):
            phase = (now * 2.5 - index * 0.25) % 1.0
            radius = max(1.5, 3 * layout.scale * (0.6 + 0.4 * math.sin(math.pi * phase)))
            pygame.draw.circle(surface, theme.HINT, (x + 4 + index * round(10 * layout.scale), cy), radius)
        x += round(36 * layout.scale)
    help_surface = fonts.text(keys_help, 13 * layout.scale, theme.IVORY_FAINT) if keys_help else None
    room = rect.right - x - (help_surface.get_width() + round(16 * layout.scale) if help_surface else 0)
    if help_surface is not None and room < rect.w * 0.45:
        help_surface, room = None, rect.right - x
    colour = STATUS_COLOURS.get(status.kind, theme.IVORY)
    message = status.text
    if status.busy and status.since is not None:
        message = f"{message}  {max(0.0, now - status.since):.1f} s"
    text = fonts.text(fonts.fit(message, size, max(10, room)), size, colour)
    surface.blit(text, text.get_rect(midleft=(x, cy)))
    if help_surface is not None:
        surface.blit(help_surface, help_surface.get_rect(midright=(rect.right, cy)))


def draw_banner(surface: pygame.Surface, fonts: theme.Fonts, layout: Layout, title: str, detail: str) -> None:
    """Replaces the status line while browsing: you are looking at the past, not the game."""
    status = layout.status
    rect = pygame.Rect(status.x, status.y + 2, status.w, max(8, status.h - 4))
    surface.blit(theme.rounded_panel(rect.size, (6, 24, 17, 220), rect.h // 2, (*theme.GOLD, 170), 1), rect)
    size = 14 * layout.scale
    pad = round(12 * layout.scale)
    title_surface = fonts.text(fonts.fit(title, size, rect.w - 2 * pad, bold=True), size, theme.GOLD_BRIGHT,
                               bold=True)
    surface.blit(title_surface, title_surface.get_rect(midleft=(rect.x + pad, rect.centery)))
    room = rect.w - 3 * pad - title_surface.get_width()
    if room > 80:
        detail_surface = fonts.text(fonts.fit(detail, 13 * layout.scale, room), 13 * layout.scale, theme.IVORY_DIM)
        surface.blit(detail_surface, detail_surface.get_rect(midright=(rect.right - pad, rect.centery)))


def draw_flying(surface: pygame.Surface, fonts: theme.Fonts, layout: Layout, flying: FlyingPoints,
                now: float) -> None:
    t = flying.progress(now)
    if t <= 0 or t >= 1:
        return
    a, b = (cell_center(layout, cell) for cell in flying.cells)
    start = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    end = score_anchor(layout.panel, flying.player)
    x, y, alpha = fly_path(start, end, t)
    size = 30 * layout.scale * (1.15 - 0.35 * t)
    colour = theme.PLAYER_COLOURS[flying.player - 1]
    glow = fonts.text(flying.text, size, theme.mix(colour, (0, 0, 0), 0.6), bold=True).copy()
    text = fonts.text(flying.text, size, theme.mix(colour, theme.IVORY, 0.35), bold=True).copy()
    glow.set_alpha(round(160 * alpha))
    text.set_alpha(round(255 * alpha))
    for dx, dy in ((2, 2), (-1, 2), (2, -1)):
        surface.blit(glow, glow.get_rect(center=(round(x) + dx, round(y) + dy)))
    surface.blit(text, text.get_rect(center=(round(x), round(y))))
