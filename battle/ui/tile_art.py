"""Procedural mahjong tile art: faces, backs, drop shadows and the window icon.

Everything is drawn from primitives at run time instead of shipping bitmaps, so tiles stay
crisp at whatever size the window layout asks for.  Pictures (coins, sticks, the bird and
the tile body) are drawn at a multiple of the target size and smooth-scaled down, which is
pygame's only cheap route to anti-aliased filled shapes.  Text is rendered at the final
size instead, because FreeType's hinting keeps small glyphs sharper than a downscale would.

The module is deliberately standalone (pygame and the standard library only) so that it can
be used by tools and tests without importing the game model.  Tile kinds are plain ints
``suit * 9 + (value - 1)`` with suits ``0 = m`` (characters), ``1 = p`` (circles) and
``2 = s`` (bamboo).
"""

from __future__ import annotations

import logging
import math
import operator
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import pygame
import pygame.freetype

__all__ = ["TileArt", "window_icon", "SUIT_ACCENTS", "KIND_COUNT"]

log = logging.getLogger(__name__)

KIND_COUNT = 27
"""Number of distinct tile kinds (three suits of nine values)."""

FONT_PARTS = ("fonts", "NotoSansSC-subset.otf")
"""Location of the CJK font below the assets directory (see tools/make_font_subset.py)."""

NUMERALS = "一二三四五六七八九"
MYRIAD = "萬"

Colour = tuple[int, int, int]
Point = tuple[float, float]

# --- palette --------------------------------------------------------------------------

FACE_TOP: Colour = (253, 250, 240)
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

# (outline, main, highlight) triples for coins and sticks
BLUE = ((20, 44, 112), (36, 88, 180), (128, 166, 230))
GREEN = ((14, 82, 46), (32, 138, 76), (136, 204, 150))
RED = ((128, 20, 24), (206, 44, 44), (244, 150, 136))

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

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        self._items.clear()


# --- small geometry helpers -----------------------------------------------------------


def _lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def _mix(a: Colour, b: Colour, t: float) -> Colour:
    return (
        round(_lerp(a[0], b[0], t)),
        round(_lerp(a[1], b[1], t)),
        round(_lerp(a[2], b[2], t)),
    )


def _ellipse_points(cx: float, cy: float, rx: float, ry: float, angle: float = 0.0, steps: int = 48) -> list[Point]:
    """Polygon of a rotated ellipse: pygame has no rotated ellipse primitive."""
    cos_a, sin_a = math.cos(angle), math.sin(angle)
    points = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x, y = rx * math.cos(t), ry * math.sin(t)
        points.append((cx + x * cos_a - y * sin_a, cy + x * sin_a + y * cos_a))
    return points


def _leaf_points(p0: Point, p1: Point, width: float, steps: int = 24) -> list[Point]:
    """A pointed leaf/feather shape from p0 (stem) to p1 (tip)."""
    (x0, y0), (x1, y1) = p0, p1
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    nx, ny = -uy, ux
    left, right = [], []
    for i in range(steps + 1):
        t = i / steps
        half = width / 2 * math.sin(math.pi * t) ** 0.8
        cx, cy = x0 + ux * length * t, y0 + uy * length * t
        left.append((cx + nx * half, cy + ny * half))
        right.append((cx - nx * half, cy - ny * half))
    return left + right[::-1]


def _polygon(surface: pygame.Surface, colour: Sequence[int], points: Sequence[Point]) -> None:
    if len(points) >= 3:
        pygame.draw.polygon(surface, colour, points)


def _disc(surface: pygame.Surface, colour: Sequence[int], centre: Point, radius: float) -> None:
    if radius > 0.5:
        pygame.draw.circle(surface, colour, centre, radius)


def _thick_line(surface: pygame.Surface, colour: Sequence[int], p0: Point, p1: Point, width: float) -> None:
    """A line with round caps whose width is not rounded to whole supersampled pixels."""
    (x0, y0), (x1, y1) = p0, p1
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1e-6:
        _disc(surface, colour, p0, width / 2)
        return
    nx, ny = -(y1 - y0) / length * width / 2, (x1 - x0) / length * width / 2
    _polygon(surface, colour, [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)])
    _disc(surface, colour, p0, width / 2)
    _disc(surface, colour, p1, width / 2)


class _Box:
    """The symbol area of a face, in supersampled pixels.

    Layouts are written in fractions of this box (u, v in 0..1) and sizes in ``unit``, the
    width of a box with the standard 5:7 proportion, so tiles of other proportions keep
    round coins and straight sticks.
    """

    def __init__(self, x: float, y: float, w: float, h: float) -> None:
        self.x, self.y, self.w, self.h = x, y, w, h
        self.unit = min(w, h * 5 / 7)

    def at(self, u: float, v: float) -> Point:
        return (self.x + u * self.w, self.y + v * self.h)

    @property
    def centre(self) -> Point:
        return (self.x + self.w / 2, self.y + self.h / 2)


# --- circles (p) ------------------------------------------------------------------------

_CIRCLE_LAYOUTS: dict[int, tuple[float, list[tuple[float, float, tuple]]]] = {
    2: (0.30, [(0.5, 0.25, GREEN), (0.5, 0.75, BLUE)]),
    3: (0.20, [(0.2, 0.16, BLUE), (0.5, 0.5, RED), (0.8, 0.84, GREEN)]),
    4: (0.23, [(0.25, 0.27, BLUE), (0.75, 0.27, GREEN), (0.25, 0.73, GREEN), (0.75, 0.73, BLUE)]),
    5: (
        0.20,
        [(0.22, 0.2, BLUE), (0.78, 0.2, GREEN), (0.5, 0.5, RED), (0.22, 0.8, GREEN), (0.78, 0.8, BLUE)],
    ),
    6: (
        0.20,
        [(0.27, 0.15, GREEN), (0.73, 0.15, GREEN)] + [(u, v, RED) for v in (0.565, 0.855) for u in (0.27, 0.73)],
    ),
    7: (
        0.16,
        [(0.18, 0.12, GREEN), (0.5, 0.24, GREEN), (0.82, 0.36, GREEN)]
        + [(u, v, RED) for v in (0.625, 0.875) for u in (0.3, 0.7)],
    ),
    8: (0.165, [(u, v, BLUE) for v in (0.12, 0.373, 0.627, 0.88) for u in (0.28, 0.72)]),
    9: (
        0.15,
        [(u, v, colour) for v, colour in ((0.17, BLUE), (0.5, RED), (0.83, GREEN)) for u in (0.17, 0.5, 0.83)],
    ),
}


def _coin(surface: pygame.Surface, centre: Point, radius: float, palette: tuple, detail: float) -> None:
    """A cash coin as concentric rings; ``detail`` is the final radius in screen pixels."""
    dark, main, _ = palette
    cx, cy = centre
    _disc(surface, dark, centre, radius)
    _disc(surface, main, centre, radius * 0.9)
    if detail < 4.5:
        _disc(surface, FACE_TOP, centre, radius * 0.6)
        _disc(surface, main, centre, radius * 0.36)
        return
    _disc(surface, FACE_TOP, centre, radius * 0.72)
    # a ring of small beads, like the milled rim of a coin
    beads = 12 if detail >= 9 else 8
    for i in range(beads):
        a = 2 * math.pi * i / beads + math.pi / beads
        _disc(surface, main, (cx + math.cos(a) * radius * 0.6, cy + math.sin(a) * radius * 0.6), radius * 0.085)
    _disc(surface, dark, centre, radius * 0.47)
    _disc(surface, main, centre, radius * 0.42)
    _disc(surface, FACE_TOP, centre, radius * 0.26)
    _disc(surface, RED[1] if palette is not RED else dark, centre, radius * 0.13)


def _big_coin(surface: pygame.Surface, centre: Point, radius: float, detail: float) -> None:
    """The ornate single coin of the 1 of circles."""
    cx, cy = centre
    _disc(surface, GREEN[0], centre, radius)
    _disc(surface, GREEN[1], centre, radius * 0.94)
    _disc(surface, FACE_TOP, centre, radius * 0.86)
    petals = 16 if detail >= 14 else 8
    for i in range(petals):
        a = 2 * math.pi * i / petals
        colour = BLUE[1] if i % 2 == 0 else GREEN[1]
        inner = (cx + math.cos(a) * radius * 0.56, cy + math.sin(a) * radius * 0.56)
        outer = (cx + math.cos(a) * radius * 0.83, cy + math.sin(a) * radius * 0.83)
        _polygon(surface, colour, _leaf_points(inner, outer, radius * (0.2 if petals == 16 else 0.3)))
    _disc(surface, RED[0], centre, radius * 0.55)
    _disc(surface, RED[1], centre, radius * 0.51)
    _disc(surface, FACE_TOP, centre, radius * 0.41)
    if detail >= 10:
        for i in range(8):
            a = 2 * math.pi * i / 8 + math.pi / 8
            _disc(surface, BLUE[1], (cx + math.cos(a) * radius * 0.31, cy + math.sin(a) * radius * 0.31), radius * 0.06)
    _disc(surface, GREEN[0], centre, radius * 0.22)
    _disc(surface, GREEN[1], centre, radius * 0.19)
    _disc(surface, FACE_TOP, centre, radius * 0.1)
    _disc(surface, RED[1], centre, radius * 0.06)


def _draw_circles(surface: pygame.Surface, box: _Box, value: int, scale: int) -> None:
    if value == 1:
        radius = box.unit * 0.5
        _big_coin(surface, box.centre, radius, radius / scale)
        return
    factor, coins = _CIRCLE_LAYOUTS[value]
    radius = box.unit * factor
    for u, v, palette in coins:
        _coin(surface, box.at(u, v), radius, palette, radius / scale)


# --- bamboo (s) -------------------------------------------------------------------------


def _stick(surface: pygame.Surface, p0: Point, p1: Point, width: float, palette: tuple, detail: float) -> None:
    """A bamboo stick from p0 to p1: two slightly waisted segments joined by nodes."""
    dark, main, light = palette
    (x0, y0), (x1, y1) = p0, p1
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    nx, ny = -uy, ux
    outline = max(width * 0.15, 1.0)

    def along(t: float, offset: float) -> Point:
        return (x0 + ux * length * t + nx * offset, y0 + uy * length * t + ny * offset)

    def body(grow: float) -> list[Point]:
        steps = 48
        # end caps are rounded by sampling a half-width that falls to zero at both ends
        cap = min(width * 0.5, length * 0.1) / length
        points_left, points_right = [], []
        for i in range(steps + 1):
            t = i / steps
            half = width / 2 * (0.89 + 0.11 * math.cos(4 * math.pi * t))
            edge = min(t, 1 - t)
            if edge < cap:
                half *= math.sqrt(max(0.0, 1 - ((cap - edge) / cap) ** 2))
            points_left.append(along(t, half + grow))
            points_right.append(along(t, -half - grow))
        return points_left + points_right[::-1]

    # the node: a short bulge with a dark ring around the middle of the stick
    node_half = min(0.035, width * 0.3 / length)
    node_a, node_b = along(0.5 - node_half, 0), along(0.5 + node_half, 0)
    _polygon(surface, dark, body(outline))
    _thick_line(surface, dark, node_a, node_b, width * 1.2 + 2 * outline)
    _polygon(surface, main, body(0))
    _thick_line(surface, main, node_a, node_b, width * 1.2)
    _thick_line(surface, dark, along(0.5, -width * 0.6), along(0.5, width * 0.6), outline * 0.9)
    if detail >= 3:
        # a highlight down the lit (left) side of each segment
        for a, b in ((0.1, 0.4), (0.6, 0.9)):
            _thick_line(surface, light, along(a, width * 0.17), along(b, width * 0.17), width * 0.17)


_STICK_LAYOUTS: dict[int, tuple[float, list[tuple[float, float, tuple]]]] = {
    # value: (stick length as a fraction of box height, [(u, v centre, palette)])
    2: (0.45, [(0.5, 0.25, GREEN), (0.5, 0.75, BLUE)]),
    3: (0.45, [(0.5, 0.25, BLUE), (0.3, 0.75, GREEN), (0.7, 0.75, GREEN)]),
    4: (0.45, [(0.3, 0.25, GREEN), (0.7, 0.25, BLUE), (0.3, 0.75, BLUE), (0.7, 0.75, GREEN)]),
    5: (
        0.45,
        [(0.16, 0.25, GREEN), (0.84, 0.25, BLUE), (0.5, 0.5, RED), (0.16, 0.75, BLUE), (0.84, 0.75, GREEN)],
    ),
    6: (0.45, [(u, v, colour) for v, colour in ((0.25, GREEN), (0.75, BLUE)) for u in (0.18, 0.5, 0.82)]),
    7: (
        0.29,
        [(0.5, 0.16, RED)] + [(u, v, colour) for v, colour in ((0.5, GREEN), (0.84, BLUE)) for u in (0.18, 0.5, 0.82)],
    ),
    9: (
        0.29,
        [
            (u, v, RED if u == 0.5 else (GREEN if v != 0.5 else BLUE))
            for v in (0.16, 0.5, 0.84)
            for u in (0.18, 0.5, 0.82)
        ],
    ),
}


#: Fewer sticks may be fatter, as on real tiles where the 2 of bamboo has bold canes.
_STICK_WIDTHS = {2: 0.16, 3: 0.16, 4: 0.16, 5: 0.145, 6: 0.145, 7: 0.125, 8: 0.11, 9: 0.125}


def _draw_bamboo(surface: pygame.Surface, box: _Box, value: int, scale: int) -> None:
    if value == 1:
        _draw_bird(surface, box, scale)
        return
    width = box.unit * _STICK_WIDTHS.get(value, 0.13)
    detail = width / scale
    if value == 8:
        _draw_eight_bamboo(surface, box, width, detail)
        return
    fraction, sticks = _STICK_LAYOUTS[value]
    half = box.h * fraction / 2
    for u, v, palette in sticks:
        x, y = box.at(u, v)
        _stick(surface, (x, y - half), (x, y + half), width, palette, detail)


def _draw_eight_bamboo(surface: pygame.Surface, box: _Box, width: float, detail: float) -> None:
    """The 8 of bamboo: upright outer sticks framing a peak above and a valley below."""
    for top, bottom, upper in ((0.03, 0.46, True), (0.54, 0.97, False)):
        for u in (0.1, 0.9):
            _stick(surface, box.at(u, top), box.at(u, bottom), width, GREEN, detail)
        near, far = (top, bottom) if upper else (bottom, top)
        for inner_u, outer_u in ((0.42, 0.25), (0.58, 0.75)):
            _stick(surface, box.at(inner_u, near), box.at(outer_u, far), width, BLUE if upper else GREEN, detail)


def _draw_bird(surface: pygame.Surface, box: _Box, scale: int) -> None:
    """The 1 of bamboo: a sparrow-like bird with a peacock tail, perched on a bamboo twig."""
    s = box.unit
    cx, cy = box.centre
    cy -= s * 0.1  # the drawing below spans y -0.42..0.66; centre it in the box
    detail = s / scale

    def p(x: float, y: float) -> Point:
        return (cx + x * s, cy + y * s)

    outline = max(s * 0.018, scale * 0.6)
    brown = ((92, 54, 24), (150, 96, 48), (196, 150, 96))

    # twig with leaves
    _stick(surface, p(-0.5, 0.50), p(0.5, 0.40), s * 0.075, brown, detail * 0.075)
    for (x0, y0), (x1, y1), palette in (
        ((-0.30, 0.48), (-0.46, 0.66), GREEN),
        ((0.36, 0.42), (0.50, 0.58), GREEN),
    ):
        _polygon(surface, palette[0], _leaf_points(p(x0, y0), p(x1, y1), s * 0.14))
        _polygon(surface, palette[1], _leaf_points(p(x0, y0), p(x1, y1), s * 0.10))

    # tail: fanned feathers with eye spots, drawn first so the body overlaps their roots
    root = (0.10, 0.14)
    for tip, palette in (((0.30, 0.66), GREEN), ((0.47, 0.52), BLUE), ((0.48, 0.30), GREEN)):
        _polygon(surface, palette[0], _leaf_points(p(*root), p(*tip), s * 0.21))
        _polygon(surface, palette[1], _leaf_points(p(*root), p(*tip), s * 0.16))
        ex, ey = _lerp(root[0], tip[0], 0.78), _lerp(root[1], tip[1], 0.78)
        _disc(surface, RED[1], p(ex, ey), s * 0.055)
        if detail >= 14:
            _disc(surface, (250, 214, 90), p(ex, ey), s * 0.028)
        _thick_line(surface, palette[2], p(*root), p(ex, ey), outline * 0.7)

    # legs
    for x in (-0.09, 0.02):
        _thick_line(surface, (120, 70, 30), p(x, 0.2), p(x - 0.03, 0.45), s * 0.03)

    # body, breast and wing
    body = _ellipse_points(*p(-0.02, 0.06), s * 0.27, s * 0.19, -0.45)
    _polygon(surface, GREEN[0], _ellipse_points(*p(-0.02, 0.06), s * 0.27 + outline, s * 0.19 + outline, -0.45))
    _polygon(surface, GREEN[1], body)
    _polygon(surface, RED[1], _ellipse_points(*p(-0.15, 0.1), s * 0.12, s * 0.11, -0.3))
    wing = _leaf_points(p(-0.14, -0.02), p(0.30, 0.14), s * 0.2)
    _polygon(surface, BLUE[0], _leaf_points(p(-0.16, -0.03), p(0.32, 0.15), s * 0.2 + 2 * outline))
    _polygon(surface, BLUE[1], wing)
    if detail >= 10:
        for t in (0.35, 0.55, 0.75):
            a = p(_lerp(-0.14, 0.30, t), _lerp(-0.02, 0.14, t) - 0.06)
            b = p(_lerp(-0.14, 0.30, t) + 0.06, _lerp(-0.02, 0.14, t) + 0.04)
            _thick_line(surface, BLUE[2], a, b, outline * 0.8)

    # head, beak, eye and crest
    head = p(-0.25, -0.2)
    if detail >= 8:
        for dx, height in ((-0.06, 0.17), (0.0, 0.2), (0.06, 0.17)):
            top = p(-0.25 + dx * 1.2, -0.2 - height)
            _thick_line(surface, GREEN[0], p(-0.25 + dx * 0.4, -0.26), top, outline)
            _disc(surface, RED[1], top, s * 0.03)
    _polygon(surface, (150, 90, 10), [p(-0.33, -0.25), p(-0.33, -0.14), p(-0.53, -0.19)])
    _polygon(surface, (242, 170, 40), [p(-0.34, -0.235), p(-0.34, -0.155), p(-0.50, -0.19)])
    _disc(surface, BLUE[0], head, s * 0.125 + outline)
    _disc(surface, BLUE[1], head, s * 0.125)
    _disc(surface, (255, 255, 255), p(-0.28, -0.22), s * 0.045)
    _disc(surface, (20, 20, 20), p(-0.29, -0.22), s * 0.025)


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
        self.box = _Box(inset_x, inset_y, self.face_w - 2 * inset_x, self.face_h - 2 * inset_y)


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
        colour = _mix(near_a, near_b, t / 0.45) if t <= 0.45 else _mix(far_a, far_b, (t - 0.45) / 0.55)
        _rounded(surface, colour, (dx + o, dy + o, fw - 2 * o, fh - 2 * o), r - o)

    # the face: a vertical ivory gradient clipped to a rounded rectangle
    face = pygame.Surface((max(1, round(fw - 2 * o)), max(1, round(fh - 2 * o))), pygame.SRCALPHA)
    top, bottom = face_colours
    height = face.get_height()
    for row in range(height):
        pygame.draw.line(face, _mix(top, bottom, row / max(1, height - 1)), (0, row), (face.get_width(), row))
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
        top = _mix(BACK_NEAR, (255, 255, 255), 0.1)
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
    here = Path(__file__).resolve().parent  # battle/ui
    for root in (here.parent / "assets", here.parent.parent / "assets"):
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
        key = ("face", kind, width, height)
        cached = self._faces.get(key)
        if cached is None:
            cached = self._faces.put(key, self._render_face(kind, width, height, index=True))
        return cached

    def back(self, width: int, height: int) -> pygame.Surface:
        """A face-down tile: the green back layer seen from above, same body as :meth:`face`."""
        width, height = _check_size(width, height)
        key = ("back", width, height)
        cached = self._faces.get(key)
        if cached is None:
            geo = _Geometry(width, height)
            big = _blank(geo, face_up=False)
            inset_x, inset_y = geo.face_w * 0.12, geo.face_h * 0.09
            inner = (inset_x, inset_y, geo.face_w - 2 * inset_x, geo.face_h - 2 * inset_y)
            _crescent(big, (255, 255, 255, 60), inner, geo.radius * 0.6, geo.scale * 1.2, geo.scale * 1.2)
            _crescent(big, (0, 40, 20, 70), inner, geo.radius * 0.6, -geo.scale * 1.2, -geo.scale * 1.2)
            cached = self._faces.put(key, _downscale(big, (width, height)))
        return cached

    def shadow(self, width: int, height: int) -> pygame.Surface:
        """A soft drop shadow for a tile of this size; blit it at :meth:`shadow_offset`."""
        width, height = _check_size(width, height)
        key = ("shadow", width, height)
        cached = self._shadows.get(key)
        if cached is None:
            cached = self._shadows.put(key, _render_shadow(width, height))
        return cached

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
        key = (geo.width, geo.height)
        blank = self._blanks.get(key)
        if blank is None:
            blank = self._blanks.put(key, _blank(geo, face_up=True))
        return blank.copy()

    def _render_face(self, kind: int, width: int, height: int, index: bool) -> pygame.Surface:
        suit, value = divmod(kind, 9)
        value += 1
        geo = _Geometry(width, height)
        big = self._blank_face(geo)
        if suit == 1:
            _draw_circles(big, geo.box, value, geo.scale)
        elif suit == 2:
            _draw_bamboo(big, geo.box, value, geo.scale)
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
