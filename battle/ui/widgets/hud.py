"""Things drawn over the board: the status line (with a notice pill), the browse banner and the flying points."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import pygame

from battle.i18n import _, format_number
from battle.ui.art import theme
from battle.ui.widgets.animations import FlyingPoints, fly_path
from battle.ui.widgets.layout import Layout, Rect, cell_center, score_anchor, status_line_height

STATUS_COLOURS = {
    "info": theme.IVORY,
    "quiet": theme.IVORY_DIM,
    "warn": theme.WARN,
    "error": theme.ERROR,
    "hint": theme.HINT,
    "good": theme.GOLD_BRIGHT,
}


@dataclass
class StatusLine:
    """The message under the board: what just happened, or why a click did nothing."""

    text: str
    kind: str = "info"
    busy: bool = False
    """Show a small spinner in front (a hint search is running)."""
    since: float | None = None
    """With ``busy``: the scene time the work began, to show the seconds spent."""


STATUS_SIZE = 15
"""Status text in pixels at the 1200x800 design size."""
KEYS_SIZE = 13
"""The shortcut strip's text: smaller and fainter, it gives way to the message."""


@dataclass
class StatusLayout:
    """Where the status area's pieces go: each line of the message and the shortcut strip."""

    size: float
    lines: list[tuple[str, pygame.Rect]]
    """Each line's text and its rect (the rendered text's width, one line high)."""
    keys: pygame.Rect | None
    """The shortcut strip, or None when the message needs its room."""


@functools.lru_cache(maxsize=32)
def status_layout(fonts: theme.Fonts, layout: Layout, text: str, keys_help: str, busy: bool = False) -> StatusLayout:
    """Lay out a message and the shortcut strip in the status area under the board.

    A message that fits beside the strip shares one line with it, centred in the area;
    a longer one wraps over the area's lines (two at 1200x800, three at 800x600) in lines
    of even length, and the strip keeps the end of the last line only if the message
    leaves it free. The message comes whole unless it needs more lines than the area
    has; then the last line ends in an ellipsis. Cached: the same message is laid out
    once, not every frame.
    """
    rect = layout.status
    scale = layout.scale
    size = STATUS_SIZE * scale
    line_h = status_line_height(scale)
    rows = max(1, rect.h // line_h)
    x = rect.x + round(4 * scale) + (round(36 * scale) if busy else 0)
    width = max(10, rect.right - x)
    gap = round(16 * scale)
    keys_w = fonts.width(keys_help, KEYS_SIZE * scale) if keys_help else 0
    text_w = fonts.width(text, size)
    if text_w + (gap + keys_w if keys_w else 0) <= width:
        top = rect.y + (rect.h - line_h) // 2
        keys = pygame.Rect(rect.right - keys_w, top, keys_w, line_h) if keys_w else None
        return StatusLayout(size, [(text, pygame.Rect(x, top, text_w, line_h))] if text else [], keys)
    lines = fonts.balanced_wrap(text, size, width, rows)
    top = rect.y + (rect.h - rows * line_h) // 2
    placed = [
        (line, pygame.Rect(x, top + row * line_h, fonts.width(line, size), line_h)) for row, line in enumerate(lines)
    ]
    keys = None
    if keys_w:
        last_row = top + (rows - 1) * line_h
        strip = pygame.Rect(rect.right - keys_w, last_row, keys_w, line_h)
        if all(not line_rect.inflate(gap, 0).colliderect(strip) for _, line_rect in placed):
            keys = strip
    return StatusLayout(size, placed, keys)


def draw_status(
    surface: pygame.Surface, fonts: theme.Fonts, layout: Layout, status: StatusLine, now: float, keys_help: str
) -> None:
    """The message (wrapped when it is long, see ``status_layout``), a spinner while busy, the shortcuts."""
    scale = layout.scale
    message = status.text
    keys_help = _(keys_help)  # a mode's shortcuts are kept in English and shown in the player's language
    if status.busy and status.since is not None:
        message = f"{message}  {format_number(max(0.0, now - status.since), 1)} s"
    placed = status_layout(fonts, layout, message, keys_help, status.busy)
    colour = STATUS_COLOURS.get(status.kind, theme.IVORY)
    for line, rect in placed.lines:
        text = fonts.text(line, placed.size, colour)
        surface.blit(text, text.get_rect(midleft=(rect.x, rect.centery)))
    if status.busy:
        x = layout.status.x + round(4 * scale)
        cy = placed.lines[0][1].centery if placed.lines else layout.status.center[1]
        for index in range(3):
            phase = (now * 2.5 - index * 0.25) % 1.0
            radius = max(1.5, 3 * scale * (0.6 + 0.4 * math.sin(math.pi * phase)))
            pygame.draw.circle(surface, theme.HINT, (x + 4 + index * round(10 * scale), cy), radius)
    if placed.keys is not None:
        keys = fonts.text(keys_help, KEYS_SIZE * scale, theme.IVORY_FAINT)
        surface.blit(keys, keys.get_rect(midright=(placed.keys.right, placed.keys.centery)))


def draw_status_below(
    surface: pygame.Surface, fonts: theme.Fonts, status: StatusLine, scale: float, window: tuple[int, int], top: int
) -> None:
    """A card screen's status line (the title, the online set-up): one line centred from ``top`` down,
    kept inside the window."""
    if not status.text:
        return
    w, h = window
    colour = STATUS_COLOURS.get(status.kind, theme.IVORY)
    line = fonts.text(fonts.fit(status.text, STATUS_SIZE * scale, w - 40), STATUS_SIZE * scale, colour)
    surface.blit(line, line.get_rect(midtop=(w // 2, min(h - line.get_height() - 6, top))))


NOTICE_FILLS = {
    "error": (48, 10, 8, 235),
    "warn": (46, 34, 6, 235),
    "good": (40, 34, 8, 235),
    "quiet": (6, 24, 17, 225),
}
"""A notice pill's fill for each kind; its border and text take the status line's colour."""
NOTICE_SHARE = 0.6
"""The most of the status area's width a notice takes: the message keeps two fifths beside it."""


def draw_status_and_notice(
    surface: pygame.Surface,
    fonts: theme.Fonts,
    layout: Layout,
    status: StatusLine,
    now: float,
    keys_help: str,
    notice: tuple[str, str] | None,
) -> None:
    """The status line, and a notice (``(text, kind)``) in a pill at its right end.

    A notice stays in sight until its cause is gone (a lost link, the opponent's question), while
    the message beside it changes with every click; the pill takes the shortcuts' place, as it
    says the keys that matter then. Below the board it hides nothing (above it, it hid the
    column letters)."""
    if notice is None:
        draw_status(surface, fonts, layout, status, now, keys_help)
        return
    text, kind = notice
    area, scale = layout.status, layout.scale
    size = 13 * scale
    pad = round(10 * scale)
    colour = STATUS_COLOURS.get(kind, theme.IVORY)
    dot = max(2, round(size * 0.25))
    line = fonts.text(fonts.fit(text, size, round(area.w * NOTICE_SHARE) - 2 * pad - 3 * dot), size, colour)
    height = min(area.h - 2, line.get_height() + round(8 * scale))
    pill = pygame.Rect(0, 0, line.get_width() + 2 * pad + 3 * dot, height)
    pill.midright = (area.right, area.y + area.h // 2)
    fill = NOTICE_FILLS.get(kind, NOTICE_FILLS["quiet"])
    surface.blit(theme.rounded_panel(pill.size, fill, pill.h // 2, (*colour, 230), 1), pill)
    pygame.draw.circle(surface, colour, (pill.x + pad + dot, pill.centery), dot)
    surface.blit(line, line.get_rect(midleft=(pill.x + pad + 3 * dot, pill.centery)))
    beside = Rect(area.x, area.y, max(10, pill.x - round(12 * scale) - area.x), area.h)
    draw_status(surface, fonts, replace(layout, status=beside), status, now, "")


def draw_banner(surface: pygame.Surface, fonts: theme.Fonts, layout: Layout, title: str, detail: str) -> None:
    """Replaces the status line while browsing: you are looking at the past, not the game."""
    status = layout.status
    height = max(8, min(status.h - 4, status_line_height(layout.scale) + round(10 * layout.scale)))
    rect = pygame.Rect(status.x, status.y + (status.h - height) // 2, status.w, height)
    surface.blit(theme.rounded_panel(rect.size, (6, 24, 17, 220), rect.h // 2, (*theme.GOLD, 170), 1), rect)
    size = 14 * layout.scale
    pad = round(12 * layout.scale)
    title_surface = fonts.text(fonts.fit(title, size, rect.w - 2 * pad, bold=True), size, theme.GOLD_BRIGHT, bold=True)
    surface.blit(title_surface, title_surface.get_rect(midleft=(rect.x + pad, rect.centery)))
    room = rect.w - 3 * pad - title_surface.get_width()
    if room > 80:
        detail_surface = fonts.text(fonts.fit(detail, 13 * layout.scale, room), 13 * layout.scale, theme.IVORY_DIM)
        surface.blit(detail_surface, detail_surface.get_rect(midright=(rect.right - pad, rect.centery)))


def draw_flying(surface: pygame.Surface, fonts: theme.Fonts, layout: Layout, flying: FlyingPoints, now: float) -> None:
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


def draw_alert(surface: pygame.Surface, fonts: theme.Fonts, layout: Layout, text: str) -> None:
    """A warning across the top of the board that stays until its cause is gone (a failing autosave):
    the status line under the board changes with every move, so it cannot carry it."""
    mat = layout.mat
    size = 14 * layout.scale
    pad = round(10 * layout.scale)
    line = fonts.text(fonts.fit(text, size, mat.w - 4 * pad, bold=True), size, theme.ERROR, bold=True)
    rect = pygame.Rect(0, 0, min(mat.w - 2 * pad, line.get_width() + 2 * pad), line.get_height() + pad)
    rect.midtop = (mat.x + mat.w // 2, mat.y + pad // 2)
    surface.blit(theme.rounded_panel(rect.size, (48, 10, 8, 235), rect.h // 2, (*theme.ERROR, 230), 2), rect)
    surface.blit(line, line.get_rect(center=rect.center))
