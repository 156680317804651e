"""Where everything goes in the window, as pure functions of the window size.

Nothing here imports pygame or touches a display: the mapping between pixels and
board cells is plain arithmetic, so tests can check it for any window size, and
the renderer and the click handler cannot disagree about where a tile is.

Tiles keep a 3:4 aspect (TileArt draws the tile body, sides included, into the
whole rectangle). Columns are what the rules care about (a tile is free at either
end of its column), so the gap between columns is wider than between rows: the
board reads as twelve columns at a glance.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

COLS = 12
ROWS = 9
TILE_ASPECT = 0.75
"""Tile width / height."""
COLUMN_GAP = 0.10
"""Gap between columns, as a fraction of the tile width."""
ROW_GAP = 0.025
"""Gap between rows, as a fraction of the tile height."""
LABEL_BAND = 0.34
"""Room around the tiles for the coordinate labels, as a fraction of the tile height."""
MIN_TILE_HEIGHT = 8
STATUS_LINE = 19
"""Line height of the status text under the board at the 1200x800 design size (15 px text)."""
STATUS_LINES = (2, 3)
"""The status area holds two lines, and a third where the board leaves the room (a wide board
in a tall window): the longest messages (the analysis intro, 840 px at 15 px) need two lines
at 1200x800 and three at 800x600; the shortcut strip shares the last line when it is free."""
BUTTON_ROWS = 3
"""Rows of three buttons at the foot of the side panel."""


@dataclass(frozen=True)
class Rect:
    """An integer rectangle; a tiny stand-in for pygame.Rect that needs no pygame."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def center(self) -> tuple[int, int]:
        return (self.x + self.w // 2, self.y + self.h // 2)

    def contains(self, pos: tuple[float, float]) -> bool:
        return self.x <= pos[0] < self.x + self.w and self.y <= pos[1] < self.y + self.h

    def inset(self, dx: int, dy: int | None = None) -> Rect:
        dy = dx if dy is None else dy
        return Rect(self.x + dx, self.y + dy, max(0, self.w - 2 * dx), max(0, self.h - 2 * dy))

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.w, self.h)


@dataclass(frozen=True)
class PanelLayout:
    """The side panel: header, the two player cards, info lines, move list, buttons."""

    rect: Rect
    pad: int
    header: Rect
    cards: tuple[Rect, Rect]
    """Card of player 1 and of player 2."""
    info: Rect
    moves_header: Rect
    moves: Rect
    """The move list rows (below its header)."""
    row_height: int
    buttons: tuple[Rect, ...]
    """Nine button rects in three rows of three (the play scene's: Undo, Redo, Hint / New, Save,
    Load / Analyse, Edit position, Review)."""

    @property
    def visible_rows(self) -> int:
        return max(1, self.moves.h // max(1, self.row_height))


@dataclass(frozen=True)
class Layout:
    """Every rectangle of the play screen for one window size."""

    window: tuple[int, int]
    scale: float
    """Size of text and chrome relative to the 1200x800 design size."""
    margin: int
    tile_w: int
    tile_h: int
    pitch_x: int
    """Distance between the left edges of neighbouring columns."""
    pitch_y: int
    board: Rect
    """The 12x9 tiles exactly (first tile's top-left to the last tile's bottom-right)."""
    mat: Rect
    """The board with its label band: the darker cloth the tiles lie on."""
    play_area: Rect
    """The part of the window left of the panel, above the status line."""
    status: Rect
    panel: PanelLayout
    zoom: float = 1.0
    """The player's text size setting (``Settings.ui_scale``), already part of ``scale``."""


READABLE_SCALE = 0.8
"""The scale below which text is hard to read: 15 px status text and badges become 12 px at 0.8.
Windows smaller than 1200x800 get it where the side panel keeps room for its move list."""
MIN_MOVE_ROWS = 6
"""Rows of the move list a larger scale (readability, the player's zoom) must leave in the panel: the
analysis box takes the place of the info lines and the move list and needs about 221 px at scale 1
(bar, verdict, one row of its best line, a wrapped footer), six rows' more than their 102."""


def ui_scale(width: int, height: int) -> float:
    """Text and chrome grow with the window, within reason."""
    return max(0.75, min(1.5, min(width / 1200, height / 800)))


def layout_scale(width: int, height: int, zoom: float = 1.0) -> float:
    """The scale of text and chrome: the window's, at least ``READABLE_SCALE``, times the player's ``zoom``,
    cut back (not below the window's own scale) until the side panel keeps ``MIN_MOVE_ROWS`` rows of moves.

    At 800x600 a zoom of 1.4 asks for 1.12 and gets 0.95 (1.19 times the unzoomed 0.8): the panel's
    header, two player cards, info lines and nine buttons then leave four rows of its 574 px.
    """
    base = ui_scale(width, height)
    wanted = max(base, READABLE_SCALE) * zoom
    floor = min(base, wanted)
    margin = max(6, round(min(width, height) * 0.022))
    column = Rect(0, margin, 1, max(1, height - 2 * margin))
    scale = wanted
    while scale > floor:
        panel = compute_panel(column, scale)
        if panel.moves.h >= MIN_MOVE_ROWS * panel.row_height:
            break
        scale = max(floor, scale - 0.01)
    return scale


def compute_layout(width: int, height: int, zoom: float = 1.0) -> Layout:
    """The play screen for a window of ``width`` x ``height`` pixels (any size, even tiny),
    with text and chrome ``zoom`` times their size for the window (see ``layout_scale``)."""
    width, height = max(1, int(width)), max(1, int(height))
    scale = layout_scale(width, height, zoom)
    margin = max(6, round(min(width, height) * 0.022))
    # a zoomed panel gets a wider share of the window, so that its bigger text is not cut short
    zoomed = max(1.0, scale / max(ui_scale(width, height), READABLE_SCALE))
    panel_w = max(200, min(round(width * 0.27 * zoomed), round(380 * scale)))
    panel_w = min(panel_w, max(120, width // 2))
    panel = Rect(width - margin - panel_w, margin, panel_w, max(1, height - 2 * margin))

    line = status_line_height(scale)
    pad = round(5 * scale)
    status_h = STATUS_LINES[0] * line + pad
    play_area = Rect(margin, margin, max(1, panel.x - 2 * margin), max(1, height - 2 * margin - status_h))
    board = fit_board(play_area)
    # a board held by the window's width leaves height over: the status takes a line of it
    spare = play_area.h - board["mat"].h
    extra = min(spare, (STATUS_LINES[1] - STATUS_LINES[0]) * line) // line * line
    if extra > 0:
        status_h += extra
        play_area = Rect(play_area.x, play_area.y, play_area.w, play_area.h - extra)
        board = fit_board(play_area)
    status = Rect(play_area.x, play_area.bottom, play_area.w, status_h)

    return Layout(
        window=(width, height),
        scale=scale,
        margin=margin,
        **board,
        play_area=play_area,
        status=status,
        panel=compute_panel(panel, scale),
        zoom=zoom,
    )


def status_line_height(scale: float) -> int:
    """The distance between two lines of status text at a UI scale."""
    return max(12, round(STATUS_LINE * scale))


def fit_board(play_area: Rect) -> dict:
    """The biggest board that fits ``play_area``, centred in it: tile size, pitches, board and mat rects.

    Returned as the matching ``Layout`` fields, so a screen with its own
    arrangement (the review's board over a graph) places the board the same way.
    """
    # Solve for the tile height that fills the play area in the tighter direction.
    width_units = (COLS - 1) * TILE_ASPECT * (1 + COLUMN_GAP) + TILE_ASPECT + 2 * LABEL_BAND
    height_units = (ROWS - 1) * (1 + ROW_GAP) + 1 + 2 * LABEL_BAND
    tile_h = math.floor(min(play_area.w / width_units, play_area.h / height_units))
    tile_h = max(MIN_TILE_HEIGHT, tile_h)
    # Rounding the gaps can overshoot by a pixel or two: shrink until the mat really fits.
    while True:
        tile_w, pitch_x, pitch_y, band, mat_w, mat_h = _board_geometry(tile_h)
        if tile_h <= MIN_TILE_HEIGHT or (mat_w <= play_area.w and mat_h <= play_area.h):
            break
        tile_h -= 1
    board_w, board_h = mat_w - 2 * band, mat_h - 2 * band
    mat_x = play_area.x + (play_area.w - mat_w) // 2
    mat_y = play_area.y + (play_area.h - mat_h) // 2
    mat = Rect(mat_x, mat_y, mat_w, mat_h)
    board = Rect(mat_x + band, mat_y + band, board_w, board_h)
    return {"tile_w": tile_w, "tile_h": tile_h, "pitch_x": pitch_x, "pitch_y": pitch_y, "board": board, "mat": mat}


def _board_geometry(tile_h: int) -> tuple[int, int, int, int, int, int]:
    """Tile width, column and row pitch, label band, and the mat size for a tile height."""
    tile_w = max(6, round(tile_h * TILE_ASPECT))
    pitch_x = tile_w + max(1, round(tile_w * COLUMN_GAP))
    pitch_y = tile_h + max(1, round(tile_h * ROW_GAP))
    band = max(6, round(tile_h * LABEL_BAND))
    board_w = (COLS - 1) * pitch_x + tile_w
    board_h = (ROWS - 1) * pitch_y + tile_h
    return tile_w, pitch_x, pitch_y, band, board_w + 2 * band, board_h + 2 * band


def compute_panel(rect: Rect, scale: float) -> PanelLayout:
    """Split the panel top to bottom; the move list takes whatever height is left."""
    pad = max(6, round(14 * scale))
    inner_w = max(1, rect.w - 2 * pad)
    x = rect.x + pad
    y = rect.y + pad
    header = Rect(x, y, inner_w, round(58 * scale))  # the title and the deal line under it
    y = header.bottom + round(6 * scale)
    card_h = round(86 * scale)  # a name and up to three lines of a level's description
    gap = round(8 * scale)
    card1 = Rect(x, y, inner_w, card_h)
    card2 = Rect(x, card1.bottom + gap, inner_w, card_h)
    info = Rect(x, card2.bottom + round(12 * scale), inner_w, round(66 * scale))

    button_h = max(20, round(34 * scale))
    button_gap = max(4, round(8 * scale))
    buttons_top = rect.bottom - pad - BUTTON_ROWS * button_h - (BUTTON_ROWS - 1) * button_gap
    button_w = max(1, (inner_w - 2 * button_gap) // 3)
    buttons = tuple(
        Rect(x + column * (button_w + button_gap), buttons_top + row * (button_h + button_gap), button_w, button_h)
        for row in range(BUTTON_ROWS)
        for column in range(3)
    )

    moves_header = Rect(x, info.bottom + round(6 * scale), inner_w, round(30 * scale))
    moves_top = moves_header.bottom
    moves = Rect(x, moves_top, inner_w, max(0, buttons_top - round(10 * scale) - moves_top))
    row_height = max(12, round(22 * scale))
    return PanelLayout(rect, pad, header, (card1, card2), info, moves_header, moves, row_height, buttons)


# -- board cells ---------------------------------------------------------------------------


def cell_rect(layout: Layout, cell: int) -> Rect:
    """The tile rectangle of a cell (cells are column-major: ``col * 9 + row``)."""
    col, row = divmod(cell, ROWS)
    return Rect(
        layout.board.x + col * layout.pitch_x, layout.board.y + row * layout.pitch_y, layout.tile_w, layout.tile_h
    )


def cell_center(layout: Layout, cell: int) -> tuple[int, int]:
    return cell_rect(layout, cell).center


def cell_at(layout: Layout, pos: tuple[float, float]) -> int | None:
    """The cell whose tile rectangle holds the pixel, or None (outside, or in a gap)."""
    x, y = pos[0] - layout.board.x, pos[1] - layout.board.y
    if x < 0 or y < 0:
        return None
    col, dx = divmod(int(x), layout.pitch_x)
    row, dy = divmod(int(y), layout.pitch_y)
    if col >= COLS or row >= ROWS or dx >= layout.tile_w or dy >= layout.tile_h:
        return None
    return col * ROWS + row


# -- the move list -------------------------------------------------------------------------


def move_columns(panel: PanelLayout) -> tuple[Rect, Rect]:
    """The two columns of the move list: odd-numbered moves left, even right (as in chess)."""
    half = panel.moves.w // 2
    return (
        Rect(panel.moves.x, panel.moves.y, half, panel.moves.h),
        Rect(panel.moves.x + half, panel.moves.y, panel.moves.w - half, panel.moves.h),
    )


def move_entry_rect(panel: PanelLayout, index: int, first_row: int) -> Rect | None:
    """Where move ``index`` (0-based) is drawn, or None when scrolled out of view."""
    row, column = divmod(index, 2)
    visible = row - first_row
    if visible < 0 or visible >= panel.visible_rows:
        return None
    base = move_columns(panel)[column]
    return Rect(base.x, base.y + visible * panel.row_height, base.w, panel.row_height)


def visible_row_at(rows: Rect, row_height: int, visible_rows: int, pos: tuple[float, float]) -> int | None:
    """Which of a scrolled list's shown rows (0: the top one) is under the pixel, or None."""
    if not rows.contains(pos):
        return None
    row = int(pos[1] - rows.y) // row_height
    return row if row < visible_rows else None


def move_at(panel: PanelLayout, pos: tuple[float, float], first_row: int, count: int) -> int | None:
    """The 0-based index of the move under the pixel, or None."""
    row = visible_row_at(panel.moves, panel.row_height, panel.visible_rows, pos)
    if row is None:
        return None
    column = 0 if pos[0] < panel.moves.x + panel.moves.w // 2 else 1
    index = (first_row + row) * 2 + column
    return index if 0 <= index < count else None


def clamp_first_row(panel: PanelLayout, first_row: int, count: int) -> int:
    """Keep the scroll position inside the list."""
    rows = (count + 1) // 2
    return max(0, min(first_row, rows - panel.visible_rows))


def follow_row(panel: PanelLayout, count: int) -> int:
    """The scroll position that shows the latest move at the bottom."""
    return clamp_first_row(panel, (count + 1) // 2, count)


# -- keyboard cursor -----------------------------------------------------------------------

DIRECTIONS: dict[str, tuple[int, int]] = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}


def next_cell(cells: Iterable[int], current: int | None, direction: tuple[int, int]) -> int | None:
    """The cell the keyboard cursor goes to among ``cells`` (the free ones).

    Moves to the nearest cell that lies in the direction pressed, preferring
    cells in line with the current one; stays put when there is none. Without a
    current cell, starts at the top-left-most cell.
    """
    candidates = sorted(set(cells))
    if not candidates:
        return None
    if current is None:
        return min(candidates, key=lambda c: (c % ROWS, c // ROWS))
    col, row = divmod(current, ROWS)
    dx, dy = direction
    best: tuple[float, int] | None = None
    for cell in candidates:
        c, r = divmod(cell, ROWS)
        along = (c - col) * dx + (r - row) * dy
        if along <= 0:
            continue
        across = abs((c - col) * dy) + abs((r - row) * dx)
        # Free tiles sit at the two ends of each column: up/down should stay in the column
        # (to its other end), left/right should reach the next column at a similar height.
        score = along + 0.3 * across if dx else 0.1 * along + 3 * across
        if best is None or score < best[0]:
            best = (score, cell)
    return current if best is None else best[1]


def nearest_cell(cells: Iterable[int], target: int) -> int | None:
    """The cell among ``cells`` that looks nearest to ``target`` on the board (None if there is none).

    Distances are in tile heights, columns being 0.825 of one apart (a tile is 0.75 wide plus
    its gap) and rows 1.025; ties go to the first cell in board order.
    """
    col, row = divmod(target, ROWS)
    column_pitch = TILE_ASPECT * (1 + COLUMN_GAP)
    row_pitch = 1 + ROW_GAP

    def distance(cell: int) -> float:
        c, r = divmod(cell, ROWS)
        return math.hypot((c - col) * column_pitch, (r - row) * row_pitch)

    return min(sorted(set(cells)), key=distance, default=None)


def score_anchor(panel: PanelLayout, player: int) -> tuple[int, int]:
    """Where a player's score sits in its card: flying points land here."""
    card = panel.cards[player - 1]
    return (card.right - panel.pad - round(card.h * 0.3), card.y + card.h // 2)
