"""Drawing for online play: the waiting room's big code and its connection line.

The game's notices (a lost connection, the opponent's question, their absence) are drawn
beside the status line, by ``battle.ui.widgets.hud.draw_status_and_notice``.
"""

from __future__ import annotations

import pygame

from battle.ui.art import theme
from battle.ui.widgets.hud import STATUS_COLOURS


def draw_link_line(
    surface: pygame.Surface, fonts: theme.Fonts, centre: tuple[int, int], text: str, kind: str, size: float
) -> pygame.Rect:
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


def draw_code(
    surface: pygame.Surface, fonts: theme.Fonts, centre: tuple[int, int], code: str, size: float, max_width: int
) -> pygame.Rect:
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
