"""Drawing the table: the felt, the board mat with its coordinates, and the tiles in their states.

Tiles come in three states that a player must tell apart at a glance:

* blocked (not at either end of its column): dimmed and a little greyed;
* free but without a free twin: full brightness;
* playable (free, and a free twin exists): full brightness on a soft gold glow.

On top of those go the selection (lifted, gold outline), the hint (pulsing blue),
the keyboard cursor (a thick white frame between two near-black ones, seen on an ivory face,
a gold glow and the felt alike), the last move's empty cells (corner brackets and
the mover's shape on a faint wash, in the mover's colour) and, when browsing, the pair the shown move
took (a dashed gold frame).
Everything expensive (felt, tile variants, glows) is cached per size, and the tiles lying on
the felt are kept as one layer while the board and the selection stay the same, so a frame that
only animates is one blit and its overlays.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
import pygame

from battle.ui.art import theme
from battle.ui.art.tile_art import TileArt
from battle.ui.widgets.animations import Removal, ease_out
from battle.ui.widgets.layout import COLS, ROWS, Layout, Rect, cell_rect

EMPTY = -1
LETTERS = "abcdefghijkl"


@dataclass
class BoardState:
    """Everything the board drawing depends on, prepared by the scene (drawing reads only this)."""

    cells: list[int]
    free: frozenset[int]
    playable: frozenset[int]
    selected: int | None = None
    cursor: int | None = None
    hint: tuple[int, int] | None = None
    marked: tuple[int, int] | None = None
    last_move: tuple[int, int] | None = None
    """The pair the last move took, marked on its empty cells until the next move."""
    last_mover: int = 1
    """Who made it (1 or 2): the mark is in that player's colour."""
    twins: frozenset[int] = frozenset()
    """Free tiles that would pair with the selected one."""
    removals: list[Removal] = field(default_factory=list)
    now: float = 0.0


def playable_cells(cells: list[int], free: Iterable[int]) -> frozenset[int]:
    """Free cells whose kind has another free copy: the tiles that can be taken right now."""
    by_kind: dict[int, list[int]] = {}
    for cell in free:
        by_kind.setdefault(cells[cell], []).append(cell)
    return frozenset(cell for group in by_kind.values() if len(group) > 1 for cell in group)


def face_rect(rect: Rect) -> Rect:
    """The top face of a tile (TileArt puts the sides right and below it)."""
    return Rect(rect.x, rect.y, rect.w - max(1, round(rect.w * 0.055)), rect.h - max(1, round(rect.h * 0.08)))


def _to_display(surface: pygame.Surface) -> pygame.Surface:
    """Convert for fast blits when a display exists; tests without one keep the original."""
    if pygame.display.get_surface() is not None:
        try:
            return surface.convert_alpha()
        except pygame.error:
            pass
    return surface


class Felt:
    """The table cloth: a radial green gradient with a faint grain, one surface per window size."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, int, tuple[float, float]], pygame.Surface] = {}
        self._grain: pygame.Surface | None = None

    def surface(self, size: tuple[int, int], centre: tuple[float, float] = (0.5, 0.48)) -> pygame.Surface:
        key = (size[0], size[1], centre)
        cached = self._cache.get(key)
        if cached is None:
            if len(self._cache) > 4:
                self._cache.clear()
            cached = self._cache[key] = self._render(size, centre)
        return cached

    def _render(self, size: tuple[int, int], centre: tuple[float, float]) -> pygame.Surface:
        w, h = max(1, size[0]), max(1, size[1])
        # The gradient is smooth, so compute it small and let smoothscale fill in.
        sw, sh = max(2, w // 4), max(2, h // 4)
        xs = (np.arange(sw, dtype=np.float32) / (sw - 1) - centre[0])[:, None] * (w / max(w, h)) * 2
        ys = (np.arange(sh, dtype=np.float32) / (sh - 1) - centre[1])[None, :] * (h / max(w, h)) * 2
        r = np.sqrt(xs**2 + ys**2)
        t = np.clip(r / 1.25, 0, 1) ** 1.7
        inner = np.array(theme.FELT_CENTRE, dtype=np.float32)
        outer = np.array(theme.FELT_EDGE, dtype=np.float32)
        rgb = inner[None, None, :] * (1 - t[..., None]) + outer[None, None, :] * t[..., None]
        small = pygame.surfarray.make_surface(np.clip(rgb, 0, 255).astype(np.uint8))
        surface = pygame.transform.smoothscale(small, (w, h))
        grain = self._grain_tile()
        for x in range(0, w, grain.get_width()):
            for y in range(0, h, grain.get_height()):
                surface.blit(grain, (x, y), special_flags=pygame.BLEND_RGB_MULT)
        if pygame.display.get_surface() is not None:
            surface = surface.convert()
        return surface

    def _grain_tile(self) -> pygame.Surface:
        if self._grain is None:
            rng = np.random.default_rng(7)
            values = 255 - rng.integers(0, 9, size=(128, 128), dtype=np.uint8)
            self._grain = pygame.surfarray.make_surface(np.repeat(values[:, :, None], 3, axis=2))
        return self._grain


class BoardView:
    """Renders a board for a layout; caches tiles and glows per tile size."""

    def __init__(self, art: TileArt, fonts: theme.Fonts, felt: Felt) -> None:
        self.art = art
        self.fonts = fonts
        self.felt = felt
        self._size: tuple[int, int] = (0, 0)
        self._faces: dict[tuple[int, str], pygame.Surface] = {}
        self._glows: dict[tuple, pygame.Surface] = {}
        self._background: tuple[tuple, pygame.Surface] | None = None
        self._lying: tuple[tuple, pygame.Surface] | None = None

    # -- cached pieces -------------------------------------------------------------------

    def _check_size(self, layout: Layout) -> None:
        size = (layout.tile_w, layout.tile_h)
        if size != self._size:
            self._size = size
            self._faces.clear()
            self._glows.clear()

    def tile(self, kind: int, variant: str, layout: Layout) -> pygame.Surface:
        """A face in one of the variants ``normal`` or ``dim``."""
        self._check_size(layout)
        key = (kind, variant)
        surface = self._faces.get(key)
        if surface is None:
            face = self.art.face(kind, layout.tile_w, layout.tile_h)
            surface = _dim(face) if variant == "dim" else face.copy()
            surface = self._faces[key] = _to_display(surface)
        return surface

    def shadow(self, layout: Layout) -> pygame.Surface:
        return self.art.shadow(layout.tile_w, layout.tile_h)

    def glow(self, layout: Layout, colour: tuple[int, int, int], alpha: int, spread: float) -> pygame.Surface:
        """A blurred halo the size of a tile face, blitted behind it (offset by its padding)."""
        self._check_size(layout)
        key = (colour, alpha, spread)
        surface = self._glows.get(key)
        if surface is None:
            pad = max(3, round(layout.tile_h * spread))
            face = face_rect(Rect(0, 0, layout.tile_w, layout.tile_h))
            surface = pygame.Surface((face.w + 2 * pad, face.h + 2 * pad), pygame.SRCALPHA)
            surface.fill((*colour, 0))
            radius = max(2, round(min(face.w, face.h) * 0.14))
            inner = pygame.Rect(pad // 2, pad // 2, face.w + pad, face.h + pad)
            pygame.draw.rect(surface, (*colour, alpha), inner, border_radius=radius + pad // 2)
            surface = pygame.transform.gaussian_blur(surface, max(1, pad // 2), repeat_edge_pixels=False)
            surface = self._glows[key] = _to_display(surface)
        return surface

    def last_move_mark(self, layout: Layout, player: int) -> pygame.Surface:
        """Where the last pair lay: a faint wash of the mover's colour, a bracket in each corner and
        the mover's shape (player 1's circle, player 2's diamond) small in the middle.

        Quiet on purpose (a 13% wash, brackets a third of the side long, the shape a quarter of
        the width): it must read at a glance next to the tiles without competing with the
        selection or the hint; the shape says who moved without telling red from blue.
        """
        self._check_size(layout)
        colour = theme.PLAYER_COLOURS[player - 1]
        key = ("last", player)
        surface = self._glows.get(key)
        if surface is None:
            face = face_rect(Rect(0, 0, layout.tile_w, layout.tile_h))
            surface = pygame.Surface((face.w, face.h), pygame.SRCALPHA)
            surface.fill((*colour, 0))
            radius = max(2, round(min(face.w, face.h) * 0.14))
            pygame.draw.rect(surface, (*colour, 34), surface.get_rect(), border_radius=radius)
            width = max(2, round(face.w * 0.06))
            arm = max(width + 2, round(min(face.w, face.h) * 0.32))
            w, h = face.w, face.h
            bars = (
                (0, 0, arm, width),
                (0, 0, width, arm),  # top left
                (w - arm, 0, arm, width),
                (w - width, 0, width, arm),  # top right
                (0, h - width, arm, width),
                (0, h - arm, width, arm),  # bottom left
                (w - arm, h - width, arm, width),
                (w - width, h - arm, width, arm),
            )  # bottom right
            for bar in bars:
                pygame.draw.rect(surface, (*colour, 215), bar)
            theme.draw_player_mark(surface, player, (w / 2, h / 2), max(2.5, w * 0.11))
            surface = self._glows[key] = _to_display(surface)
        return surface

    def background(self, layout: Layout) -> pygame.Surface:
        """Felt, mat and coordinate labels for this layout."""
        key = (layout.window, layout.mat, layout.board)
        if self._background is not None and self._background[0] == key:
            return self._background[1]
        w, h = layout.window
        centre = (layout.mat.center[0] / max(1, w), layout.mat.center[1] / max(1, h))
        surface = self.felt.surface(layout.window, centre).copy()
        self._draw_mat(surface, layout)
        self._background = (key, surface)
        return surface

    def _lying_layer(self, layout: Layout, state: BoardState) -> pygame.Surface:
        """The background and every tile lying on it (shadows, glows, faces), kept while the board and
        its selection stay the same: a frame that only animates (the twins' pulse, a removal, the
        cursor) is then one blit and its overlays, where drawing the layer took about 250 blits."""
        key = (layout, tuple(state.cells), state.free, state.playable, _lifted(state))
        if self._lying is not None and self._lying[0] == key:
            return self._lying[1]
        layer = self.background(layout).copy()
        self._draw_lying(layer, layout, state, 0.0)
        self._lying = (key, layer)
        return layer

    def _draw_lying(self, surface: pygame.Surface, layout: Layout, state: BoardState, pulse: float) -> None:
        """Shadows, glows and faces of the tiles that lie on the board (the lifted one is drawn later)."""
        lift = max(2, round(layout.tile_h * 0.10))
        present = [cell for cell, kind in enumerate(state.cells) if kind != EMPTY]

        shadow = self.shadow(layout)
        dx, dy = self.art.shadow_offset(layout.tile_w, layout.tile_h)
        for cell in present:
            if cell != state.selected:
                rect = cell_rect(layout, cell)
                surface.blit(shadow, (rect.x + dx, rect.y + dy))

        gold = self.glow(layout, theme.GOLD_BRIGHT, 210, 0.17)
        for cell in present:
            if cell in state.playable and cell != state.selected:
                self._blit_glow(surface, gold, cell_rect(layout, cell))
        lifted = _lifted(state)
        if lifted is not None:
            # the picked-up tile: a wide glow on the cloth, under its neighbours
            rect = cell_rect(layout, lifted)
            self._blit_glow(
                surface,
                self.glow(layout, theme.GOLD_BRIGHT, 255, 0.3),
                Rect(rect.x, rect.y - lift // 2, rect.w, rect.h),
            )
        if state.hint is not None:
            hint = self.glow(layout, theme.HINT, 235, 0.22)
            hint_copy = hint.copy()
            hint_copy.set_alpha(round(150 + 105 * pulse))
            for cell in state.hint:
                if state.cells[cell] != EMPTY:
                    self._blit_glow(surface, hint_copy, cell_rect(layout, cell))

        for cell in present:
            if cell == state.selected:
                continue
            rect = cell_rect(layout, cell)
            variant = "normal" if cell in state.free else "dim"
            surface.blit(self.tile(state.cells[cell], variant, layout), (rect.x, rect.y))

    def _draw_mat(self, surface: pygame.Surface, layout: Layout) -> None:
        mat = layout.mat
        radius = max(4, round(layout.tile_h * 0.22))
        # a soft dark halo first, so the mat seems to lie a little lower than the felt
        halo_pad = max(4, round(layout.tile_h * 0.25))
        halo = pygame.Surface((mat.w + 2 * halo_pad, mat.h + 2 * halo_pad), pygame.SRCALPHA)
        halo.fill((0, 0, 0, 0))
        pygame.draw.rect(halo, (0, 20, 10, 70), pygame.Rect(halo_pad, halo_pad, mat.w, mat.h), border_radius=radius)
        halo = theme.soft_blur(halo, halo_pad // 2)
        surface.blit(halo, (mat.x - halo_pad, mat.y - halo_pad + halo_pad // 3))
        cloth = theme.rounded_panel((mat.w, mat.h), (*theme.MAT, 120), radius, (*theme.GOLD, 70), 1)
        surface.blit(cloth, (mat.x, mat.y))
        inner = theme.rounded_panel((mat.w - 8, mat.h - 8), (0, 0, 0, 0), max(2, radius - 4), (*theme.GOLD, 28), 1)
        surface.blit(inner, (mat.x + 4, mat.y + 4))

        band = layout.board.x - mat.x
        size = max(7.0, band * 0.5)
        colour = theme.IVORY_FAINT
        for col in range(COLS):
            label = self.fonts.text(LETTERS[col], size, colour)
            cx = layout.board.x + col * layout.pitch_x + layout.tile_w // 2
            for cy in (mat.y + band // 2, mat.bottom - band // 2):
                surface.blit(label, label.get_rect(center=(cx, cy)))
        for row in range(ROWS):
            label = self.fonts.text(str(row + 1), size, colour)
            cy = layout.board.y + row * layout.pitch_y + layout.tile_h // 2
            for cx in (mat.x + band // 2, mat.right - band // 2):
                surface.blit(label, label.get_rect(center=(cx, cy)))

    # -- a frame -------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface, layout: Layout, state: BoardState) -> None:
        lift = max(2, round(layout.tile_h * 0.10))
        pulse = 0.5 + 0.5 * math.sin(state.now * 4.0)
        if state.hint is None:
            surface.blit(self._lying_layer(layout, state), (0, 0))
        else:  # the hint's glow pulses under the tiles: every frame draws them anew
            surface.blit(self.background(layout), (0, 0))
            self._draw_lying(surface, layout, state, pulse)
        shadow = self.shadow(layout)
        dx, dy = self.art.shadow_offset(layout.tile_w, layout.tile_h)

        if state.hint is not None:
            for cell in state.hint:
                if state.cells[cell] != EMPTY:
                    self._outline(surface, face_rect(cell_rect(layout, cell)), theme.HINT, layout, 3)

        for cell in state.twins:
            if state.cells[cell] != EMPTY:
                colour = theme.mix(theme.GOLD, theme.GOLD_BRIGHT, pulse)
                self._outline(surface, face_rect(cell_rect(layout, cell)), colour, layout, 2)

        if state.last_move is not None:
            mark = self.last_move_mark(layout, state.last_mover)
            for cell in state.last_move:
                if state.cells[cell] == EMPTY:
                    face = face_rect(cell_rect(layout, cell))
                    surface.blit(mark, (face.x, face.y))

        if state.marked is not None:
            for cell in state.marked:
                if state.cells[cell] == EMPTY:
                    self._dashed(surface, face_rect(cell_rect(layout, cell)), theme.GOLD_BRIGHT, layout)

        selected = _lifted(state)
        if selected is not None:
            rect = cell_rect(layout, selected)
            lifted = Rect(rect.x, rect.y - lift, rect.w, rect.h)
            surface.blit(shadow, (rect.x + dx + lift // 3, rect.y + dy + lift // 3))
            surface.blit(self.tile(state.cells[selected], "normal", layout), (lifted.x, lifted.y))
            self._outline(surface, face_rect(lifted), theme.GOLD_BRIGHT, layout, 4)

        if state.cursor is not None:
            rect = cell_rect(layout, state.cursor)
            if state.cursor == state.selected:
                rect = Rect(rect.x, rect.y - lift, rect.w, rect.h)
            self._draw_cursor(surface, face_rect(rect), layout)

        for removal in state.removals:
            self._draw_removal(surface, layout, removal, state.now)

    def _blit_glow(self, surface: pygame.Surface, glow: pygame.Surface, rect: Rect) -> None:
        face = face_rect(rect)
        surface.blit(glow, glow.get_rect(center=(face.x + face.w / 2, face.y + face.h / 2)))

    def _outline(
        self, surface: pygame.Surface, rect: Rect, colour: tuple[int, int, int], layout: Layout, width: int
    ) -> None:
        radius = max(2, round(min(rect.w, rect.h) * 0.14))
        width = max(1, round(width * layout.scale))
        pygame.draw.rect(surface, colour, pygame.Rect(rect.as_tuple()).inflate(2, 2), width=width, border_radius=radius)

    def _draw_cursor(self, surface: pygame.Surface, face: Rect, layout: Layout) -> None:
        """The keyboard cursor round a tile's face: from the outside in, a dark band, a white band and a
        dark band again (2, 3 and 2 px at the 1200x800 design size, never thinner), a pixel off the face."""
        dark, light = max(2, round(2 * layout.scale)), max(3, round(3 * layout.scale))
        radius = max(2, round(min(face.w, face.h) * 0.14))
        for outset, colour, width in (
            (1 + dark + light + dark, theme.CURSOR_DARK, dark),
            (1 + dark + light, theme.CURSOR_LIGHT, light),
            (1 + dark, theme.CURSOR_DARK, dark),
        ):
            ring = pygame.Rect(face.as_tuple()).inflate(2 * outset, 2 * outset)
            pygame.draw.rect(surface, colour, ring, width=width, border_radius=radius + outset)

    def _dashed(self, surface: pygame.Surface, rect: Rect, colour: tuple[int, int, int], layout: Layout) -> None:
        """Where a pair was: a dashed frame on the empty cloth."""
        dash = max(3, round(layout.tile_h * 0.08))
        width = max(1, round(2 * layout.scale))
        x0, y0, x1, y1 = rect.x, rect.y, rect.right, rect.bottom
        for x in range(x0, x1, dash * 2):
            pygame.draw.line(surface, colour, (x, y0), (min(x + dash, x1), y0), width)
            pygame.draw.line(surface, colour, (x, y1), (min(x + dash, x1), y1), width)
        for y in range(y0, y1, dash * 2):
            pygame.draw.line(surface, colour, (x0, y), (x0, min(y + dash, y1)), width)
            pygame.draw.line(surface, colour, (x1, y), (x1, min(y + dash, y1)), width)

    def _draw_removal(self, surface: pygame.Surface, layout: Layout, removal: Removal, now: float) -> None:
        t = ease_out(removal.progress(now))
        if t >= 1:
            return
        face = self.tile(removal.kind, "normal", layout)
        grow = 1 + 0.12 * t
        size = (max(1, round(layout.tile_w * grow)), max(1, round(layout.tile_h * grow)))
        ghost = pygame.transform.smoothscale(face, size) if grow != 1 else face.copy()
        ghost.set_alpha(round(255 * (1 - t)))
        rise = layout.tile_h * 0.45 * t
        for cell in removal.cells:
            rect = cell_rect(layout, cell)
            cx, cy = rect.center
            surface.blit(ghost, ghost.get_rect(center=(cx, round(cy - rise))))


def _lifted(state: BoardState) -> int | None:
    """The selected cell while it holds a tile: drawn lifted, above the others."""
    if state.selected is not None and state.cells[state.selected] != EMPTY:
        return state.selected
    return None


def _dim(face: pygame.Surface) -> pygame.Surface:
    """A blocked tile: darker and partly greyed, with the same alpha (so the shape stays crisp)."""
    dimmed = face.copy()
    pixels = pygame.surfarray.pixels3d(dimmed)
    rgb = pixels.astype(np.float32)
    luminance = rgb @ np.array([0.3, 0.59, 0.11], dtype=np.float32)
    out = rgb * 0.40 + luminance[..., None] * 0.24 + np.array([6, 16, 12], dtype=np.float32)
    pixels[...] = np.clip(out, 0, 255).astype(np.uint8)
    del pixels
    return dimmed


def shuffle_preview(seed: int, count: int) -> list[int]:
    """Some tile kinds for decoration (the title screen), repeatable."""
    rng = random.Random(seed)
    return [rng.randrange(27) for _ in range(count)]
