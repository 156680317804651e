"""Drawing for online play: the notice pill over the board, the waiting room's big code and its
connection line.

The status line under the board changes with every click and move, so what must stay in
sight until its cause is gone (a lost connection, the opponent's question, their absence)
sits in a pill at the top of the board instead.
"""

from __future__ import annotations

import pygame

from battle.ui.art import theme
from battle.ui.widgets.hud import STATUS_COLOURS
from battle.ui.widgets.layout import Layout

FILLS = {
    "error": (48, 10, 8, 235),
    "warn": (46, 34, 6, 235),
    "good": (40, 34, 8, 235),
    "quiet": (6, 24, 17, 225),
}
"""The pill's fill for each kind of notice; its border and text take the status line's colour."""


def draw_notice(surface: pygame.Surface, fonts: theme.Fonts, layout: Layout, text: str, kind: str) -> None:
    """A pill in the band above the top row of tiles (where the column letters are): a dot of the
    notice's colour, then its text. It fits the band (21 px at 1200x800, 16 px at 800x600), so it
    hides letters for a while, never a tile."""
    mat, board = layout.mat, layout.board
    scale = layout.scale
    band = board.y - mat.y
    size = max(11.0, min(13 * scale, band * 0.62))
    pad = round(10 * scale)
    colour = STATUS_COLOURS.get(kind, theme.IVORY)
    dot = max(2, round(size * 0.25))
    room = mat.w - 4 * pad - 3 * dot
    line = fonts.text(fonts.fit(text, size, room), size, colour)
    height = min(max(band - 2, 8), line.get_height() + 2)
    width = min(mat.w - 2 * pad, line.get_width() + 2 * pad + 3 * dot)
    rect = pygame.Rect(0, 0, width, height)
    rect.center = (mat.x + mat.w // 2, mat.y + band // 2)
    fill = FILLS.get(kind, FILLS["quiet"])
    surface.blit(theme.rounded_panel(rect.size, fill, rect.h // 2, (*colour, 230), 1), rect)
    pygame.draw.circle(surface, colour, (rect.x + pad + dot, rect.centery), dot)
    surface.blit(line, line.get_rect(midleft=(rect.x + pad + 3 * dot, rect.centery)))


def draw_link_line(surface: pygame.Surface, fonts: theme.Fonts, centre: tuple[int, int], text: str, kind: str,
                   size: float) -> pygame.Rect:
    """A centred line with a coloured dot in front: the waiting room's connection state. Its rect."""
    colour = STATUS_COLOURS.get(kind, theme.IVORY)
    line = fonts.text(text, size, colour)
    dot = max(3, round(size * 0.28))
    width = line.get_width() + 3 * dot
    rect = pygame.Rect(0, 0, width, line.get_height())
    rect.center = centre
    pygame.draw.circle(surface, colour, (rect.x + dot, rect.centery), dot)
    surface.blit(line, line.get_rect(midleft=(rect.x + 3 * dot, rect.centery)))
    return rect


def draw_code(surface: pygame.Surface, fonts: theme.Fonts, centre: tuple[int, int], code: str, size: float,
              max_width: int) -> pygame.Rect:
    """A code to read out, large and spaced a sixth of its height apart (8 characters and a dash
    read as one word otherwise); smaller if it would be wider than ``max_width``. Its rect."""
    gap = size / 6
    width = sum(fonts.width(ch, size, bold=True) for ch in code) + gap * (len(code) - 1)
    if width > max_width:
        size *= max_width / width
        gap = size / 6
        width = sum(fonts.width(ch, size, bold=True) for ch in code) + gap * (len(code) - 1)
    glyphs = [fonts.text(ch, size, theme.GOLD_BRIGHT if ch != "-" else theme.GOLD, bold=True) for ch in code]
    height = max(glyph.get_height() for glyph in glyphs)
    rect = pygame.Rect(0, 0, round(width), height)
    rect.center = centre
    x = float(rect.x)
    for glyph in glyphs:
        surface.blit(glyph, glyph.get_rect(midleft=(round(x), rect.centery)))
        x += glyph.get_width() + gap
    return rect
