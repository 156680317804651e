"""Where the review screen puts things, as pure functions of the window size.

The board takes the play screen's place, shrunk to leave room for the
evaluation graph underneath it; the side panel holds the summary, the turning
points, the graded move list and the buttons. No pygame here: the move list's
pixel-to-move mapping is plain arithmetic, like the board's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from battle.ui.widgets.layout import Layout, Rect, compute_layout, fit_board, visible_row_at

GRAPH_MIN_HEIGHT = 140
"""The evaluation graph's smallest drawing (``render_eval_graph`` draws no lower)."""


@dataclass(frozen=True)
class ReviewLayout:
    board: Layout
    """The board, its status line and the window (its own panel geometry is not used)."""
    graph: Rect
    panel: Rect
    header: Rect
    cards: tuple[Rect, Rect]
    turning: Rect
    """The turning points: a title and a row of clickable chips."""
    moves_header: Rect
    moves: Rect
    row_height: int
    buttons: tuple[Rect, Rect, Rect, Rect]
    """Retry from here (a full row), then Analyse here, Deeper and Back side by side."""
    scale: float

    @property
    def visible_rows(self) -> int:
        return max(1, self.moves.h // max(1, self.row_height))


def review_layout(width: int, height: int, zoom: float = 1.0) -> ReviewLayout:
    width, height = max(1, int(width)), max(1, int(height))
    full = compute_layout(width, height, zoom)
    scale = full.scale
    graph_h = max(GRAPH_MIN_HEIGHT, min(round(height * 0.27), round(300 * scale)))
    gap = max(4, round(8 * scale))
    area = full.play_area
    play_area = Rect(area.x, area.y, area.w, max(1, area.h - graph_h - gap))
    status = Rect(play_area.x, play_area.bottom, play_area.w, full.status.h)
    board = replace(full, play_area=play_area, status=status, **fit_board(play_area))
    graph = Rect(area.x, status.bottom + gap, area.w, max(GRAPH_MIN_HEIGHT, height - full.margin - status.bottom - gap))
    panel = full.panel.rect

    pad = max(6, round(14 * scale))
    x, y = panel.x + pad, panel.y + pad
    inner_w = max(1, panel.w - 2 * pad)
    header = Rect(x, y, inner_w, round(50 * scale))
    y = header.bottom + round(6 * scale)
    card_h = round(78 * scale)
    card_gap = round(8 * scale)
    cards = (Rect(x, y, inner_w, card_h), Rect(x, y + card_h + card_gap, inner_w, card_h))
    y = cards[1].bottom + round(10 * scale)
    turning = Rect(x, y, inner_w, round(50 * scale))
    y = turning.bottom + round(4 * scale)
    moves_header = Rect(x, y, inner_w, round(28 * scale))

    button_h = max(20, round(34 * scale))
    button_gap = max(4, round(8 * scale))
    second_row = panel.bottom - pad - button_h
    buttons_top = second_row - button_gap - button_h
    third = (inner_w - 2 * button_gap) // 3
    buttons = [
        Rect(x, buttons_top, inner_w, button_h),
        Rect(x, second_row, third, button_h),
        Rect(x + third + button_gap, second_row, third, button_h),
        Rect(x + 2 * (third + button_gap), second_row, inner_w - 2 * (third + button_gap), button_h),
    ]
    moves = Rect(x, moves_header.bottom, inner_w, max(0, buttons_top - round(8 * scale) - moves_header.bottom))
    row_height = max(12, round(22 * scale))
    return ReviewLayout(
        board,
        graph,
        panel,
        header,
        cards,
        turning,
        moves_header,
        moves,
        row_height,
        (buttons[0], buttons[1], buttons[2], buttons[3]),
        scale,
    )


def move_row_rect(layout: ReviewLayout, index: int, first_row: int) -> Rect | None:
    """Where move ``index`` (0-based) is listed, or None when scrolled out of view."""
    visible = index - first_row
    if not 0 <= visible < layout.visible_rows:
        return None
    return Rect(layout.moves.x, layout.moves.y + visible * layout.row_height, layout.moves.w, layout.row_height)


def move_row_at(layout: ReviewLayout, pos: tuple[float, float], first_row: int, count: int) -> int | None:
    """The 0-based index of the listed move under the pixel, or None."""
    row = visible_row_at(layout.moves, layout.row_height, layout.visible_rows, pos)
    if row is None:
        return None
    index = first_row + row
    return index if 0 <= index < count else None


def clamp_first(layout: ReviewLayout, first_row: int, count: int) -> int:
    return max(0, min(first_row, count - layout.visible_rows))


def follow(layout: ReviewLayout, first_row: int, index: int, count: int) -> int:
    """The scroll position that keeps move ``index`` in view (moving as little as possible)."""
    if index < first_row:
        first_row = index
    elif index >= first_row + layout.visible_rows:
        first_row = index - layout.visible_rows + 1
    return clamp_first(layout, first_row, count)


def chip_rects(layout: ReviewLayout, widths: list[int], gap: int) -> list[Rect]:
    """The turning-point chips, left to right in one row under the title; those that do not fit are left out."""
    rects = []
    x = layout.turning.x
    height = max(10, round(22 * layout.scale))
    y = layout.turning.bottom - height
    for width in widths:
        if x + width > layout.turning.right:
            break
        rects.append(Rect(x, y, width, height))
        x += width + gap
    return rects
