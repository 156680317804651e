"""Where the position editor's panel puts things, as pure functions of the panel rectangle.

The board keeps the play screen's place (``layout.compute_layout``), so a
position looks the same in the editor and in the game; the side panel holds the
palette of the 27 tile kinds and the editor's controls. No pygame here, so the
palette's pixel-to-kind mapping is tested like the board's.
"""

from __future__ import annotations

from dataclasses import dataclass

from battle.rules.tiles import KIND_COUNT
from battle.ui.widgets.layout import TILE_ASPECT, Rect

PALETTE_COLUMNS = 9
"""One row per suit (characters, circles, bamboo), values 1-9 left to right."""


@dataclass(frozen=True)
class EditorLayout:
    header: Rect
    palette: tuple[Rect, ...]
    """The 27 kinds' tiles, in kind order (1m ... 9m, 1p ... 9p, 1s ... 9s)."""
    count_h: int
    """Height of the copies-placed label under each palette tile."""
    rows: tuple[Rect, ...]
    """Full-width control rows under the palette, top to bottom."""
    info: Rect
    """Free room for the position's summary, between the controls and the bottom buttons."""
    bottom: tuple[Rect, ...]
    """Full-width rows at the foot of the panel (Analyse / Play, Back)."""
    row_h: int
    gap: int


def editor_layout(panel: Rect, scale: float, control_rows: int = 5, bottom_rows: int = 2) -> EditorLayout:
    pad = max(6, round(14 * scale))
    x, y = panel.x + pad, panel.y + pad
    inner_w = max(1, panel.w - 2 * pad)
    header = Rect(x, y, inner_w, round(50 * scale))
    y = header.bottom + round(6 * scale)

    gap = max(2, round(4 * scale))
    tile_w = max(6, (inner_w - (PALETTE_COLUMNS - 1) * gap) // PALETTE_COLUMNS)
    tile_h = round(tile_w / TILE_ASPECT)
    count_h = max(10, round(15 * scale))
    palette = []
    for kind in range(KIND_COUNT):
        row, column = divmod(kind, PALETTE_COLUMNS)
        palette.append(Rect(x + column * (tile_w + gap), y + row * (tile_h + count_h + gap), tile_w, tile_h))
    y = palette[-1].bottom + count_h + round(8 * scale)

    row_h = max(20, round(32 * scale))
    row_gap = max(4, round(8 * scale))
    rows = []
    for _ in range(control_rows):
        rows.append(Rect(x, y, inner_w, row_h))
        y += row_h + row_gap
    bottom_top = panel.bottom - pad - bottom_rows * row_h - (bottom_rows - 1) * row_gap
    bottom = tuple(Rect(x, bottom_top + index * (row_h + row_gap), inner_w, row_h) for index in range(bottom_rows))
    info = Rect(x, y, inner_w, max(0, bottom_top - row_gap - y))
    return EditorLayout(header, tuple(palette), count_h, tuple(rows), info, bottom, row_h, row_gap)


def kind_at(layout: EditorLayout, pos: tuple[float, float]) -> int | None:
    """The palette kind under the pixel (the tile or its count label), or None."""
    for kind, rect in enumerate(layout.palette):
        if Rect(rect.x, rect.y, rect.w, rect.h + layout.count_h).contains(pos):
            return kind
    return None


def split_row(row: Rect, shares: tuple[float, ...], gap: int) -> tuple[Rect, ...]:
    """A row cut into pieces of the given shares of its width (the last piece takes the rounding)."""
    room = row.w - gap * (len(shares) - 1)
    pieces = []
    x = row.x
    for index, share in enumerate(shares):
        width = row.right - x if index == len(shares) - 1 else round(room * share)
        pieces.append(Rect(x, row.y, width, row.h))
        x += width + gap
    return tuple(pieces)
