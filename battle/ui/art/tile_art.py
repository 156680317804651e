"""Procedural mahjong tile art: faces, backs, drop shadows and the window icon.

Everything is drawn from primitives at run time instead of shipping bitmaps, so tiles stay
crisp at whatever size the window layout asks for.  Pictures (coins, sticks, the bird and
the tile body) are drawn at a multiple of the target size and smooth-scaled down, which is
pygame's only cheap route to anti-aliased filled shapes.  Text is rendered at the final
size instead, because FreeType's hinting keeps small glyphs sharper than a downscale would.

The module is deliberately standalone (pygame, the standard library and the suits'
pictures in ``tile_pictures``) so that it can be used by tools and tests without importing
the game model.  Tile kinds are plain ints ``suit * 9 + (value - 1)`` with suits ``0 = m``
(characters), ``1 = p`` (circles) and ``2 = s`` (bamboo).
"""

from __future__ import annotations

import logging
import operator
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path

import pygame
import pygame.freetype

from battle.ui.art.tile_pictures import FACE_TOP, Box, Colour, Point, draw_bamboo, draw_circles, mix

__all__ = ["TileArt", "window_icon", "SUIT_ACCENTS", "KIND_COUNT"]

log = logging.getLogger(__name__)

KIND_COUNT = 27
"""Number of distinct tile kinds (three suits of nine values)."""

FONT_PARTS = ("fonts", "NotoSansSC-subset.otf")
"""Location of the CJK font below the assets directory (see tools/make_font_subset.py)."""

NUMERALS = "一二三四五六七八九"
MYRIAD = "萬"

# --- palette --------------------------------------------------------------------------

FACE_BOTTOM: Colour = (239, 231, 209)
SIDE_NEAR: Colour = (232, 220, 192)
SIDE_FAR: Colour = (203, 187, 150)
BACK_NEAR: Colour = (34, 134, 98)
BACK_FAR: Colour = (18, 88, 63)
OUTLINE: Colour = (74, 70, 52)
INK: Colour = (24, 32, 66)
MYRIAD_RED: Colour = (186, 30, 38)

SUIT_ACCENTS: dict[int, Colour] = {
    0: (176, 30, 44),  # characters: the red of 萬
    1: (30, 82, 168),  # circles: coin blue
    2: (22, 118, 66),  # bamboo: stick green
}
"""Per-suit accent colour, used for the corner index so suits differ even at a glance."""


_CACHE_LIMIT = 384


class _LRU:
    """A small least-recently-used map; a resize sweep must not keep every size alive."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[tuple, pygame.Surface] = OrderedDict()

    def get(self, key: tuple) -> pygame.Surface | None:
        item = self._items.get(key)
        if item is not None:
            self._items.move_to_end(key)
        return item

    def put(self, key: tuple, value: pygame.Surface) -> pygame.Surface:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.limit:
            self._items.popitem(last=False)
        return value

    def get_or_make(self, key: tuple, make: Callable[[], pygame.Surface]) -> pygame.Surface:
        """The surface kept under ``key``, made (and kept) on the first call."""
        item = self.get(key)
        return self.put(key, make()) if item is None else item

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        self._items.clear()


# --- the tile body ----------------------------------------------------------------------


class _Geometry:
    """Where the face, sides and symbol box of a ``width`` x ``height`` tile go.

    All numbers are in supersampled pixels (``scale`` per screen pixel) except the
    ``screen_*`` helpers, which map back to the final surface for text.
    """

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        # a power of two, so that _downscale is exact; small tiles need more samples per pixel
        self.scale = 8 if height < 64 else 4 if height < 400 else 2
        s = self.scale
        self.depth_y = max(1.0, height * 0.08) * s
        self.depth_x = max(1.0, width * 0.055) * s
        self.face_w = width * s - self.depth_x
        self.face_h = height * s - self.depth_y
        self.radius = min(self.face_w, self.face_h) * 0.12
        self.outline = s * (0.9 if min(width, height) >= 40 else 0.7)
        inset_x, inset_y = self.face_w * 0.13, self.face_h * 0.095
        self.box = Box(inset_x, inset_y, self.face_w - 2 * inset_x, self.face_h - 2 * inset_y)


def _rounded(surface: pygame.Surface, colour: Sequence[int], rect: Sequence[float], radius: float) -> None:
    x, y, w, h = rect
    r = pygame.Rect(round(x), round(y), max(1, round(w)), max(1, round(h)))
    pygame.draw.rect(surface, colour, r, border_radius=max(0, round(radius)))


_FACE_UP_SIDES = ((SIDE_NEAR, SIDE_FAR), (BACK_NEAR, BACK_FAR))


def _draw_body(
    surface: pygame.Surface,
    geo: _Geometry,
    face_colours: tuple[Colour, Colour],
    sides: tuple[tuple[Colour, Colour], tuple[Colour, Colour]] = _FACE_UP_SIDES,
) -> None:
    """The tile block: outline, a bone layer on a green back (seen from the side), and the face."""
    (near_a, near_b), (far_a, far_b) = sides
    fw, fh, r, o = geo.face_w, geo.face_h, geo.radius, geo.outline
    # one layer per half screen pixel of depth: finer steps vanish in the downscale anyway
    layers = max(2, round(max(geo.depth_x, geo.depth_y) * 2 / geo.scale))
    offsets = [(geo.depth_x * i / layers, geo.depth_y * i / layers, i / layers) for i in range(layers, -1, -1)]
    for dx, dy, _ in offsets:
        _rounded(surface, OUTLINE, (dx, dy, fw, fh), r)
    for dx, dy, t in offsets[:-1]:
        # the layer nearest the face is bone, the far half the (green) back
        colour = mix(near_a, near_b, t / 0.45) if t <= 0.45 else mix(far_a, far_b, (t - 0.45) / 0.55)
        _rounded(surface, colour, (dx + o, dy + o, fw - 2 * o, fh - 2 * o), r - o)

    # the face: a vertical ivory gradient clipped to a rounded rectangle
    face = pygame.Surface((max(1, round(fw - 2 * o)), max(1, round(fh - 2 * o))), pygame.SRCALPHA)
    top, bottom = face_colours
    height = face.get_height()
    for row in range(height):
        pygame.draw.line(face, mix(top, bottom, row / max(1, height - 1)), (0, row), (face.get_width(), row))
    mask = pygame.Surface(face.get_size(), pygame.SRCALPHA)
    _rounded(mask, (255, 255, 255, 255), (0, 0, *face.get_size()), r - o)
    face.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
    surface.blit(face, (round(o), round(o)))

    # bevel: a bright rim top-left and a soft shade bottom-right, as on a polished tile
    bevel = max(o * 1.3, geo.scale * 1.1)
    _crescent(surface, (255, 255, 255, 150), (o, o, fw - 2 * o, fh - 2 * o), r - o, bevel, bevel)
    _crescent(surface, (150, 130, 90, 70), (o, o, fw - 2 * o, fh - 2 * o), r - o, -bevel, -bevel)


def _blank(geo: _Geometry, face_up: bool) -> pygame.Surface:
    """The supersampled tile body with an empty face (ivory) or back (green)."""
    big = pygame.Surface((geo.width * geo.scale, geo.height * geo.scale), pygame.SRCALPHA)
    # transparent pixels carry the outline colour, so smoothscale leaves no dark fringe
    big.fill((*OUTLINE, 0))
    if face_up:
        _draw_body(big, geo, (FACE_TOP, FACE_BOTTOM))
    else:
        # face down, the green layer is on top and the bone layer underneath
        top = mix(BACK_NEAR, (255, 255, 255), 0.1)
        _draw_body(big, geo, (top, BACK_FAR), sides=((BACK_FAR, BACK_NEAR), (SIDE_NEAR, SIDE_FAR)))
    return big


def _crescent(
    surface: pygame.Surface, colour: Sequence[int], rect: Sequence[float], radius: float, dx: float, dy: float
) -> None:
    """Blend a rounded rect minus its copy shifted by (dx, dy): a rim on one side."""
    x, y, w, h = rect
    layer = pygame.Surface((max(1, round(w)), max(1, round(h))), pygame.SRCALPHA)
    _rounded(layer, colour, (0, 0, w, h), radius)
    _rounded(layer, (0, 0, 0, 0), (dx, dy, w, h), radius)
    surface.blit(layer, (round(x), round(y)))


def _downscale(surface: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
    """Shrink by exact halvings.

    pygame's smoothscale averages exactly only at a 2:1 ratio; other ratios lose about 1 %
    of every channel, which would leave tile interiors at alpha 253 and slightly grey.
    """
    while surface.get_width() >= size[0] * 2 and surface.get_height() >= size[1] * 2:
        surface = pygame.transform.smoothscale(surface, (surface.get_width() // 2, surface.get_height() // 2))
    if surface.get_size() != size:
        surface = pygame.transform.smoothscale(surface, size)
    return surface


# --- fonts ------------------------------------------------------------------------------


def _default_font_path() -> Path | None:
    """Mirror battle.resources.asset_path without importing the game package."""
    package = Path(__file__).resolve().parents[2]  # battle/
    for root in (package / "assets", package.parent / "assets"):
        candidate = root.joinpath(*FONT_PARTS)
        if candidate.exists():
            return candidate
    return None


class _Fonts:
    """Lazily opened fonts, so importing this module never touches FreeType."""

    def __init__(self, path: Path | None) -> None:
        self._path = path
        self._cjk: pygame.freetype.Font | None = None
        self._has_cjk = False

    def cjk(self) -> tuple[pygame.freetype.Font, bool]:
        if self._cjk is None:
            if not pygame.freetype.get_init():
                pygame.freetype.init()
            path = self._path or _default_font_path()
            font = None
            if path is not None:
                try:
                    font = pygame.freetype.Font(str(path))
                except (OSError, pygame.error) as error:
                    log.warning("cannot open tile font %s (%s); using pygame's default font", path, error)
            else:
                log.warning("tile font %s not found; using pygame's default font", "/".join(FONT_PARTS))
            if font is None:
                font = pygame.freetype.Font(None)
            font.antialiased = True
            font.kerning = False
            self._cjk = font
            metrics = font.get_metrics(NUMERALS + MYRIAD, size=32)
            self._has_cjk = all(m is not None for m in metrics)
            if not self._has_cjk:
                log.warning("tile font lacks the CJK numerals; characters tiles show Arabic digits")
        return self._cjk, self._has_cjk


def _render_ink(font: pygame.freetype.Font, text: str, colour: Colour, size: float) -> pygame.Surface:
    """Render text and crop it to its ink, so glyphs can be centred by what is visible."""
    surface, _ = font.render(text, colour, size=max(1.0, size))
    ink = surface.get_bounding_rect()
    if ink.width == 0 or ink.height == 0:
        return surface
    return surface.subsurface(ink).copy()


def _fit_size(font: pygame.freetype.Font, text: str, width: float, height: float) -> float:
    """The font size at which the ink of ``text`` just fits ``width`` x ``height``."""
    probe = 100.0
    sample = _render_ink(font, text, (0, 0, 0), probe)
    w, h = sample.get_size()
    return probe * min(width / max(w, 1), height / max(h, 1))


def _blit_centred(target: pygame.Surface, glyphs: pygame.Surface, centre: Point) -> None:
    rect = glyphs.get_rect(center=(round(centre[0]), round(centre[1])))
    target.blit(glyphs, rect)


# --- public API -------------------------------------------------------------------------


class TileArt:
    """Renders and caches tile faces, backs and shadows for any pixel size.

    Surfaces are per-pixel-alpha and not converted to the display format (there may be no
    display); callers that blit many tiles per frame can ``convert_alpha()`` their copies.
    Returned surfaces are shared cache entries: do not draw on them.
    """

    def __init__(self, font_path: Path | str | None = None, cache_limit: int = _CACHE_LIMIT) -> None:
        self._fonts = _Fonts(Path(font_path) if font_path is not None else None)
        self._faces = _LRU(cache_limit)
        self._shadows = _LRU(cache_limit)
        self._blanks = _LRU(4)  # supersampled, so large: only the sizes in current use

    # public -------------------------------------------------------------------------------

    def face(self, kind: int, width: int, height: int) -> pygame.Surface:
        """The face-up tile ``kind`` (0..26) as a ``width`` x ``height`` surface, sides included."""
        kind = _check_kind(kind)
        width, height = _check_size(width, height)
        return self._faces.get_or_make(
            ("face", kind, width, height), lambda: self._render_face(kind, width, height, index=True)
        )

    def back(self, width: int, height: int) -> pygame.Surface:
        """A face-down tile: the green back layer seen from above, same body as :meth:`face`."""
        width, height = _check_size(width, height)
        return self._faces.get_or_make(("back", width, height), lambda: _render_back(width, height))

    def shadow(self, width: int, height: int) -> pygame.Surface:
        """A soft drop shadow for a tile of this size; blit it at :meth:`shadow_offset`."""
        width, height = _check_size(width, height)
        return self._shadows.get_or_make(("shadow", width, height), lambda: _render_shadow(width, height))

    def shadow_offset(self, width: int, height: int) -> tuple[int, int]:
        """Where the shadow's top-left goes relative to the tile's: light comes from top-left."""
        pad = _shadow_pad(width, height)
        return (round(width * 0.04) - pad, round(height * 0.05) - pad)

    def draw(
        self, target: pygame.Surface, kind: int, topleft: tuple[int, int], width: int, height: int, shadow: bool = True
    ) -> pygame.Rect:
        """Blit shadow and face at ``topleft``; returns the tile's rect for hit testing.

        In a tight grid, draw every shadow first (``shadow=False`` here afterwards) so that
        no shadow falls across a neighbour that was drawn before it.
        """
        x, y = topleft
        if shadow:
            dx, dy = self.shadow_offset(width, height)
            target.blit(self.shadow(width, height), (x + dx, y + dy))
        return target.blit(self.face(kind, width, height), (x, y))

    def clear_cache(self) -> None:
        """Drop every cached surface, e.g. after the display format changed."""
        self._faces.clear()
        self._shadows.clear()
        self._blanks.clear()

    @property
    def cached_surfaces(self) -> int:
        """How many surfaces the caches hold (for tests and memory checks)."""
        return len(self._faces) + len(self._shadows)

    # private ------------------------------------------------------------------------------

    def _blank_face(self, geo: _Geometry) -> pygame.Surface:
        """A copy of the supersampled empty tile; the body is most of the drawing time."""
        return self._blanks.get_or_make((geo.width, geo.height), lambda: _blank(geo, face_up=True)).copy()

    def _render_face(self, kind: int, width: int, height: int, index: bool) -> pygame.Surface:
        suit, value = divmod(kind, 9)
        value += 1
        geo = _Geometry(width, height)
        big = self._blank_face(geo)
        if suit == 1:
            draw_circles(big, geo.box, value, geo.scale)
        elif suit == 2:
            draw_bamboo(big, geo.box, value, geo.scale)
        surface = _downscale(big, (width, height))
        if suit == 0:
            self._draw_characters(surface, geo, value)
        if index:
            self._draw_index(surface, geo, suit, value)
        return surface

    def _draw_characters(self, surface: pygame.Surface, geo: _Geometry, value: int) -> None:
        """Numeral above a red 萬, rendered at screen size for crisp strokes."""
        font, has_cjk = self._fonts.cjk()
        box = geo.box
        s = geo.scale
        top = (box.x / s, box.y / s, box.w / s, box.h * 0.40 / s)
        bottom = (box.x / s, (box.y + box.h * 0.46) / s, box.w / s, box.h * 0.54 / s)
        if has_cjk:
            numeral_size = _fit_size(font, "四", top[2] * 0.82, top[3])
            numeral = _render_ink(font, NUMERALS[value - 1], INK, numeral_size)
            myriad_size = _fit_size(font, MYRIAD, bottom[2] * 0.98, bottom[3])
            myriad = _render_ink(font, MYRIAD, MYRIAD_RED, myriad_size)
        else:
            numeral = _render_ink(font, str(value), INK, _fit_size(font, "8", top[2], top[3]))
            myriad = _render_ink(font, "WAN", MYRIAD_RED, _fit_size(font, "WAN", bottom[2], bottom[3] * 0.5))
        _blit_centred(surface, numeral, (top[0] + top[2] / 2, top[1] + top[3] / 2))
        _blit_centred(surface, myriad, (bottom[0] + bottom[2] / 2, bottom[1] + bottom[3] / 2))

    def _draw_index(self, surface: pygame.Surface, geo: _Geometry, suit: int, value: int) -> None:
        """The small Arabic value in the top-left corner, for players who don't read 一二三."""
        s = geo.scale
        # small tiles get a relatively larger index: it is what a glance at a 40 px tile reads
        height = max(geo.face_h / s * 0.095, min(8.0, geo.face_h / s * 0.13))
        if height < 5:
            return  # unreadable anyway; the symbol alone must do at thumbnail size
        font, _ = self._fonts.cjk()
        glyph = _render_ink(font, str(value), SUIT_ACCENTS[suit], _fit_size(font, "8", height, height))
        x = geo.face_w / s * 0.05
        y = geo.face_h / s * 0.032
        surface.blit(glyph, (round(x), round(y)))


def _check_kind(kind: int) -> int:
    """Accept any integer type (numpy's included) so board arrays can be passed directly."""
    try:
        value = operator.index(kind)
    except TypeError:
        value = -1
    if not 0 <= value < KIND_COUNT:
        raise ValueError(f"tile kind must be an int in 0..{KIND_COUNT - 1}: {kind!r}")
    return value


def _check_size(width: int, height: int) -> tuple[int, int]:
    width, height = int(width), int(height)
    if width < 4 or height < 4:
        raise ValueError(f"tile size too small to draw: {width}x{height}")
    return width, height


def _shadow_pad(width: int, height: int) -> int:
    return max(2, round(min(width, height) * 0.1))


def _render_back(width: int, height: int) -> pygame.Surface:
    """The face-down tile: the green body with a light rim on one side of its top and a dark one on the other."""
    geo = _Geometry(width, height)
    big = _blank(geo, face_up=False)
    inset_x, inset_y = geo.face_w * 0.12, geo.face_h * 0.09
    inner = (inset_x, inset_y, geo.face_w - 2 * inset_x, geo.face_h - 2 * inset_y)
    _crescent(big, (255, 255, 255, 60), inner, geo.radius * 0.6, geo.scale * 1.2, geo.scale * 1.2)
    _crescent(big, (0, 40, 20, 70), inner, geo.radius * 0.6, -geo.scale * 1.2, -geo.scale * 1.2)
    return _downscale(big, (width, height))


def _render_shadow(width: int, height: int) -> pygame.Surface:
    pad = _shadow_pad(width, height)
    surface = pygame.Surface((width + 2 * pad, height + 2 * pad), pygame.SRCALPHA)
    surface.fill((0, 0, 0, 0))
    radius = min(width, height) * 0.12
    _rounded(surface, (0, 0, 0, 110), (pad, pad, width, height), radius)
    blur = max(1, pad // 2)
    return pygame.transform.gaussian_blur(surface, blur, repeat_edge_pixels=False)


_ICON: pygame.Surface | None = None


def window_icon(art: TileArt | None = None) -> pygame.Surface:
    """A 64x64 icon: the 1 of bamboo (the sparrow that gave mahjong its name) with a shadow."""
    global _ICON
    if _ICON is None or art is not None:
        art = art or TileArt()
        icon = pygame.Surface((64, 64), pygame.SRCALPHA)
        icon.fill((0, 0, 0, 0))
        width, height = 48, 61
        dx, dy = art.shadow_offset(width, height)
        icon.blit(art.shadow(width, height), (6 + dx, 0 + dy))
        # no corner index: at icon size it would only be noise next to the bird
        icon.blit(art._render_face(18, width, height, index=False), (6, 0))
        _ICON = icon
    return _ICON
