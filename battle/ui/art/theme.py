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
from typing import TypeAlias, cast

import pygame
import pygame.freetype

from battle.resources import asset_path
from battle.storage.textfile import read_limited

log = logging.getLogger(__name__)

Colour = tuple[int, int, int]
ThemeValue: TypeAlias = "dict[str, ThemeValue] | list[ThemeValue] | str | int | float | bool | None"
"""A value in the pygame_gui theme (JSON): a widget's block, a font block, a colour, a size..."""

FELT_CENTRE: Colour = (34, 110, 76)
FELT_EDGE: Colour = (9, 44, 30)
MAT: Colour = (14, 62, 42)
IVORY: Colour = (243, 236, 216)
IVORY_DIM: Colour = (186, 190, 170)
IVORY_FAINT: Colour = (128, 150, 132)
GOLD: Colour = (218, 178, 82)
GOLD_BRIGHT: Colour = (255, 220, 120)
HINT: Colour = (120, 205, 255)
CURSOR_LIGHT: Colour = (255, 255, 255)
CURSOR_DARK: Colour = (6, 18, 12)
"""The keyboard cursor's white band between two near-black ones: at least 3:1 against whatever it
borders (an ivory face, a gold glow, the dark felt), as WCAG asks of a focus indicator."""
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
            if bold and not self._bold_has(text):
                # a letter the Bold subset lacks (its Latin-1 covers German): the Regular face, emboldened
                surface, _ = self.face(False).render(
                    text, colour, style=pygame.freetype.STYLE_STRONG, size=max(4.0, key[1])
                )
            else:
                surface, _ = self.face(bold).render(text, colour, size=max(4.0, key[1]))
            self._texts[key] = surface
            while len(self._texts) > 600:
                self._texts.popitem(last=False)
        else:
            self._texts.move_to_end(key)
        return surface

    def _bold_has(self, text: str) -> bool:
        """Whether the Bold face draws every character of ``text`` (freetype gives no metrics for a
        character it lacks)."""
        return all(metric is not None for metric in self.face(True).get_metrics(text, size=12))

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

    def wrap(
        self,
        text: str,
        size: float,
        max_width: int,
        max_lines: int | None = None,
        bold: bool = False,
        separator: str | None = None,
    ) -> list[str]:
        """The words of ``text`` in lines no wider than ``max_width`` pixels.

        A word wider than a line is shortened with an ellipsis; past ``max_lines`` the rest goes
        on the last line, shortened the same way. With a ``separator`` (``"  ·  "`` in a list of
        keys) the text breaks only there, so "A analysis off" stays together.
        """
        if self.width(text, size, bold) <= max_width:
            return [text] if text else []  # as written, spacing and all
        lines: list[str] = []
        line = ""
        joiner = separator if separator is not None else " "
        words = [word for word in text.split(separator) if word.strip()] if separator else text.split()
        for word in words:
            candidate = f"{line}{joiner}{word}" if line else word
            if line and self.width(candidate, size, bold) > max_width:
                lines.append(line)
                line = word
            else:
                line = candidate
        if line:
            lines.append(line)
        if max_lines is not None and len(lines) > max_lines:
            lines = [*lines[: max_lines - 1], joiner.join(lines[max_lines - 1 :])]
        return [self.fit(line, size, max_width, bold) for line in lines]

    def balanced_wrap(
        self, text: str, size: float, max_width: int, max_lines: int | None = None, bold: bool = False
    ) -> list[str]:
        """``wrap``, with the lines made as even as their number allows: two lines of 60% read
        better than a full one and a stray word."""
        lines = self.wrap(text, size, max_width, None, bold)
        if max_lines is not None and len(lines) > max_lines:
            return self.wrap(text, size, max_width, max_lines, bold)
        if len(lines) < 2:
            return lines
        widest_word = max(self.width(word, size, bold) for word in text.split())
        low = min(max_width, max(widest_word, self.width(text, size, bold) // len(lines)))
        high = max_width
        while low < high:
            middle = (low + high) // 2
            if len(self.wrap(text, size, middle, None, bold)) <= len(lines):
                high = middle
            else:
                low = middle + 1
        return self.wrap(text, size, high, None, bold)


WIDGET_FONT_SIZE = 14
"""pygame_gui's own default font size, which the widgets without a font in the theme use."""
ZOOMED_WIDGETS = ("button", "label", "text_entry_line", "text_box", "tool_tip", "selection_list")
"""Widget types that get a font of their own at a text size other than 1, so that they grow too."""


def load_gui_theme(zoom: float = 1.0) -> dict[str, ThemeValue]:
    """The pygame_gui theme with font paths made absolute and font sizes ``zoom`` times the file's.

    A missing or unreadable theme file gives pygame_gui's default look (logged), not a crash.
    """
    try:
        path = asset_path(*THEME_FILE)
        # the shipped theme is 5,924 bytes; a megabyte is 170 times that, and a FIFO is refused
        theme: dict[str, ThemeValue] = json.loads(read_limited(path, 1 << 20, str(path)).decode("utf-8"))
    except (OSError, ValueError) as error:
        log.warning("cannot read the UI theme (%s); using pygame_gui's default theme", error)
        theme = {}
    _resolve_font_paths(theme)
    if zoom != 1.0:
        _zoom_fonts(theme, zoom)
        for element in ZOOMED_WIDGETS:
            block = cast("dict[str, ThemeValue]", theme.setdefault(element, {}))  # a block per widget type
            block.setdefault("font", {"name": "noto_sans", "size": str(round(WIDGET_FONT_SIZE * zoom))})
    return theme


def _zoom_fonts(node: ThemeValue, zoom: float) -> None:
    """Every ``"size"`` of every font block times ``zoom`` (sizes are strings of whole pixels)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "font" and isinstance(value, dict) and "size" in value:
                size = str(value["size"])
                if size.isdigit():  # else pygame_gui's default size, as at zoom 1
                    value["size"] = str(max(6, round(int(size) * zoom)))
            else:
                _zoom_fonts(value, zoom)
    elif isinstance(node, list):
        for item in node:
            _zoom_fonts(item, zoom)


def _resolve_font_paths(node: ThemeValue) -> None:
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


PLAYER_SHAPES = ("circle", "diamond")
"""Player 1's mark is a circle, player 2's a diamond: the shape (and the number in it, where there is
room) tells the players apart where red and blue do not (colour-blind eyes, a greyscale print)."""
MARK_OUTLINE: Colour = (8, 24, 16)
MARK_TEXT: Colour = (14, 30, 22)


def draw_player_mark(
    surface: pygame.Surface, player: int, centre: tuple[float, float], radius: float, fonts: Fonts | None = None
) -> pygame.Rect:
    """Draw player 1's circle or player 2's diamond in the player's colour, with the player's number
    in it when ``fonts`` is given; returns the rect it covers.

    The diamond reaches 1.25 radii from its centre, so it covers about the circle's area (2 x 1.25²
    against π) and neither looks the bigger.
    """
    colour = PLAYER_COLOURS[player - 1]
    x, y = centre
    r = max(1.5, radius)
    if PLAYER_SHAPES[player - 1] == "circle":
        pygame.draw.circle(surface, MARK_OUTLINE, (x, y), r + 1)
        drawn = pygame.draw.circle(surface, colour, (x, y), r)
    else:
        d = r * 1.25
        points = [(x, y - d), (x + d, y), (x, y + d), (x - d, y)]
        outline = [(x, y - d - 1.5), (x + d + 1.5, y), (x, y + d + 1.5), (x - d - 1.5, y)]
        pygame.draw.polygon(surface, MARK_OUTLINE, outline)
        drawn = pygame.draw.polygon(surface, colour, points)
    if fonts is not None:
        digit = fonts.text(str(player), r * 1.35, MARK_TEXT, bold=True)
        surface.blit(digit, digit.get_rect(center=(round(x), round(y))))
    return drawn


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """Blend two colours (t = 0 gives a, 1 gives b)."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def rounded_panel(
    size: tuple[int, int],
    colour: tuple[int, int, int, int],
    radius: int,
    border: tuple[int, int, int, int] | None = None,
    border_width: int = 1,
) -> pygame.Surface:
    """A translucent rounded rectangle, for cards and panels drawn over the felt."""
    surface = pygame.Surface((max(1, size[0]), max(1, size[1])), pygame.SRCALPHA)
    rect = surface.get_rect()
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width=border_width, border_radius=radius)
    return surface


def draw_veil(surface: pygame.Surface, alpha: int) -> None:
    """Dim the whole screen under an overlay's card; ``alpha`` says how much."""
    veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    veil.fill((0, 10, 6, alpha))
    surface.blit(veil, (0, 0))


def draw_overlay_card(
    surface: pygame.Surface, rect: pygame.Rect, scale: float, *, alpha: int = 245, shadow: bool = False
) -> None:
    """An overlay's card: dark green with a gold rim, over a soft shadow with ``shadow``."""
    if shadow:
        surface.blit(
            rounded_panel((rect.w + 12, rect.h + 12), (0, 0, 0, 90), round(22 * scale)), (rect.x - 6, rect.y + 2)
        )
    surface.blit(rounded_panel(rect.size, (10, 36, 26, alpha), round(18 * scale), (*GOLD, 200), 2), rect)


def soft_blur(surface: pygame.Surface, radius: int) -> pygame.Surface:
    """``gaussian_blur`` for a soft shadow: at a third of the resolution when the radius allows,
    then scaled back. The same look, and the board's mat halo at 1200x800 takes 10 ms, not 250."""
    step = max(1, radius // 2)
    if step == 1:
        return pygame.transform.gaussian_blur(surface, max(1, radius), repeat_edge_pixels=False)
    width, height = surface.get_size()
    small = pygame.transform.smoothscale(surface, (max(1, width // step), max(1, height // step)))
    small = pygame.transform.gaussian_blur(small, max(1, radius // step), repeat_edge_pixels=False)
    return pygame.transform.smoothscale(small, (width, height))
