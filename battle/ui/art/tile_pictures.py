"""The pictures on the circle and bamboo faces: coins, sticks and the 1-bamboo bird.

Drawn from primitives in supersampled pixels inside a ``Box`` (the face's symbol area);
``battle.ui.art.tile_art`` scales the result down with the tile body. Split from it so that
the suits' drawings, most of the art's code, sit apart from the tile body, the text
and the caches. pygame and the standard library only, like ``tile_art``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pygame

Colour = tuple[int, int, int]
Point = tuple[float, float]

FACE_TOP: Colour = (253, 250, 240)
"""The face's colour at its top, also the colour of a coin's holes."""

# (outline, main, highlight) triples for coins and sticks
BLUE = ((20, 44, 112), (36, 88, 180), (128, 166, 230))
GREEN = ((14, 82, 46), (32, 138, 76), (136, 204, 150))
RED = ((128, 20, 24), (206, 44, 44), (244, 150, 136))


# --- small geometry helpers -----------------------------------------------------------


def _lerp(a: float, b: float, t: float) -> float:
    return a + (b - a) * t


def mix(a: Colour, b: Colour, t: float) -> Colour:
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


class Box:
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


def draw_circles(surface: pygame.Surface, box: Box, value: int, scale: int) -> None:
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


def draw_bamboo(surface: pygame.Surface, box: Box, value: int, scale: int) -> None:
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


def _draw_eight_bamboo(surface: pygame.Surface, box: Box, width: float, detail: float) -> None:
    """The 8 of bamboo: upright outer sticks framing a peak above and a valley below."""
    for top, bottom, upper in ((0.03, 0.46, True), (0.54, 0.97, False)):
        for u in (0.1, 0.9):
            _stick(surface, box.at(u, top), box.at(u, bottom), width, GREEN, detail)
        near, far = (top, bottom) if upper else (bottom, top)
        for inner_u, outer_u in ((0.42, 0.25), (0.58, 0.75)):
            _stick(surface, box.at(inner_u, near), box.at(outer_u, far), width, BLUE if upper else GREEN, detail)


def _draw_bird(surface: pygame.Surface, box: Box, scale: int) -> None:
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
