"""The look of the window: palette, fonts, cached text, and the pygame_gui theme.

One palette (dark green felt, ivory text, gold accents) is shared by the custom
drawing here and by the pygame_gui widgets, whose theme lives in
``assets/ui/theme.json``. Font paths in that file are relative to ``assets/``
and are resolved here, so the theme works from a checkout and from a wheel.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from typing import Any

import pygame
import pygame.freetype

from battle.resources import asset_path

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]

FELT_CENTRE: Colour = (34, 110, 76)
FELT_EDGE: Colour = (9, 44, 30)
MAT: Colour = (14, 62, 42)
IVORY: Colour = (243, 236, 216)
IVORY_DIM: Colour = (186, 190, 170)
IVORY_FAINT: Colour = (128, 150, 132)
GOLD: Colour = (218, 178, 82)
GOLD_BRIGHT: Colour = (255, 220, 120)
HINT: Colour = (120, 205, 255)
WARN: Colour = (245, 196, 110)
ERROR: Colour = (255, 150, 130)
PANEL: tuple[int, int, int, int] = (8, 30, 21, 205)
CARD: tuple[int, int, int, int] = (255, 255, 255, 14)
CARD_ACTIVE: tuple[int, int, int, int] = (218, 178, 82, 38)
PLAYER_COLOURS: tuple[Colour, Colour] = ((236, 112, 96), (110, 170, 240))
"""Player 1 red and player 2 blue (the 萬 red and the coin blue of the tiles, lightened)."""

REGULAR_FONT = ("fonts", "NotoSansSC-Regular-subset.otf")
BOLD_FONT = ("fonts", "NotoSansSC-subset.otf")
THEME_FILE = ("ui", "theme.json")


class Fonts:
    """The two bundled faces at any size, opened once.

    Falls back to pygame's default font (with a log line naming the file) if an
    asset is missing, so a broken install still shows a window.
    """

    def __init__(self) -> None:
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        self._faces: dict[str, pygame.freetype.Font] = {}
        self._texts: OrderedDict[tuple, pygame.Surface] = OrderedDict()

    def face(self, bold: bool = False) -> pygame.freetype.Font:
        key = "bold" if bold else "regular"
        font = self._faces.get(key)
        if font is None:
            try:
                font = pygame.freetype.Font(str(asset_path(*(BOLD_FONT if bold else REGULAR_FONT))))
            except (FileNotFoundError, OSError, pygame.error) as error:
                log.warning("%s; using pygame's default font", error)
                font = pygame.freetype.Font(None)
            font.antialiased = True
            font.pad = True
            self._faces[key] = font
        return font

    def text(self, text: str, size: float, colour: Colour, bold: bool = False) -> pygame.Surface:
        """Rendered text, cached: the panel redraws the same strings every frame."""
        key = (text, round(size * 2) / 2, colour, bold)
        surface = self._texts.get(key)
        if surface is None:
            surface, _ = self.face(bold).render(text, colour, size=max(4.0, key[1]))
            self._texts[key] = surface
            while len(self._texts) > 600:
                self._texts.popitem(last=False)
        else:
            self._texts.move_to_end(key)
        return surface

    def width(self, text: str, size: float, bold: bool = False) -> int:
        return self.text(text, size, IVORY, bold).get_width()

    def fit(self, text: str, size: float, max_width: int, bold: bool = False) -> str:
        """The text, shortened with an ellipsis until it fits ``max_width`` pixels."""
        if self.width(text, size, bold) <= max_width:
            return text
        ellipsis = "…" if not bold else "..."
        while len(text) > 1 and self.width(text + ellipsis, size, bold) > max_width:
            text = text[:-1]
        return text.rstrip() + ellipsis


def load_gui_theme() -> dict[str, Any]:
    """The pygame_gui theme with font paths made absolute.

    A missing or unreadable theme file gives pygame_gui's default look (logged), not a crash.
    """
    try:
        path = asset_path(*THEME_FILE)
        theme = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        log.warning("cannot read the UI theme (%s); using pygame_gui's default theme", error)
        return {}
    _resolve_font_paths(theme)
    return theme


def _resolve_font_paths(node: Any) -> None:
    if isinstance(node, dict):
        for key, value in list(node.items()):
            if key.endswith("_path") and isinstance(value, str):
                try:
                    node[key] = str(asset_path(*value.split("/")))
                except (FileNotFoundError, ValueError) as error:
                    log.warning("theme font: %s", error)
                    node.pop(key)
            else:
                _resolve_font_paths(value)
    elif isinstance(node, list):
        for item in node:
            _resolve_font_paths(item)


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """Blend two colours (t = 0 gives a, 1 gives b)."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def rounded_panel(size: tuple[int, int], colour: tuple[int, int, int, int], radius: int,
                  border: tuple[int, int, int, int] | None = None, border_width: int = 1) -> pygame.Surface:
    """A translucent rounded rectangle, for cards and panels drawn over the felt."""
    surface = pygame.Surface((max(1, size[0]), max(1, size[1])), pygame.SRCALPHA)
    rect = surface.get_rect()
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width=border_width, border_radius=radius)
    return surface
