"""The pixel <-> cell mapping and the panel geometry, as pure functions (no display needed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from battle.ui.widgets.layout import (
    COLS,
    ROWS,
    cell_at,
    cell_center,
    cell_rect,
    clamp_first_row,
    compute_layout,
    follow_row,
    move_at,
    move_entry_rect,
    next_cell,
)

SIZES = st.tuples(st.integers(1, 4000), st.integers(1, 3000))


def test_the_layout_module_needs_no_pygame() -> None:
    root = Path(__file__).resolve().parents[2]
    code = "import sys, battle.ui.widgets.layout; print('pygame' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


@given(SIZES)
@settings(max_examples=200, deadline=None)
def test_every_tile_centre_maps_back_to_its_cell(size: tuple[int, int]) -> None:
    layout = compute_layout(*size)
    for cell in range(COLS * ROWS):
        assert cell_at(layout, cell_center(layout, cell)) == cell
        rect = cell_rect(layout, cell)
        assert cell_at(layout, (rect.x, rect.y)) == cell
        assert cell_at(layout, (rect.right - 1, rect.bottom - 1)) == cell


@given(SIZES)
@settings(max_examples=200, deadline=None)
def test_gaps_and_outside_map_to_no_cell(size: tuple[int, int]) -> None:
    layout = compute_layout(*size)
    board = layout.board
    assert cell_at(layout, (board.x - 1, board.y)) is None
    assert cell_at(layout, (board.x, board.y - 1)) is None
    assert cell_at(layout, (board.right, board.y)) is None
    assert cell_at(layout, (board.x, board.bottom)) is None
    first = cell_rect(layout, 0)
    if layout.pitch_x > layout.tile_w:  # the gap between columns a and b
        assert cell_at(layout, (first.right, first.y + 1)) is None


@given(st.tuples(st.integers(640, 4000), st.integers(440, 3000)))
@settings(max_examples=200, deadline=None)
def test_usable_windows_fit_board_and_panel_without_overlap(size: tuple[int, int]) -> None:
    layout = compute_layout(*size)
    width, height = size
    assert layout.mat.x >= 0 and layout.mat.y >= 0
    assert layout.mat.right <= layout.panel.rect.x
    assert layout.mat.bottom <= layout.status.y
    assert layout.panel.rect.right <= width and layout.panel.rect.bottom <= height
    assert abs(layout.tile_w / layout.tile_h - 0.75) < 0.05
    for button in layout.panel.buttons:
        assert layout.panel.rect.contains((button.x, button.y))
        assert button.bottom <= layout.panel.rect.bottom
    assert layout.panel.moves.y >= layout.panel.info.bottom
    assert layout.panel.moves.bottom <= layout.panel.buttons[0].y


def test_tiles_grow_with_the_window() -> None:
    small, large = compute_layout(900, 600), compute_layout(1800, 1200)
    assert large.tile_h > small.tile_h * 1.7


def test_move_list_entries_map_back_to_their_moves() -> None:
    panel = compute_layout(1200, 800).panel
    count = 41
    for first_row in (0, 3, clamp_first_row(panel, 99, count)):
        for index in range(count):
            rect = move_entry_rect(panel, index, first_row)
            if rect is None:
                continue
            assert move_at(panel, rect.center, first_row, count) == index
    assert move_at(panel, (panel.moves.x - 5, panel.moves.y + 2), 0, count) is None
    assert follow_row(panel, count) == clamp_first_row(panel, 10**6, count)
    assert move_entry_rect(panel, count - 1, follow_row(panel, count)) is not None


def test_keyboard_cursor_moves_between_free_cells() -> None:
    def cell(col: int, row: int) -> int:
        return col * ROWS + row

    free = [cell(0, 0), cell(0, 8), cell(1, 1), cell(1, 7), cell(3, 0), cell(3, 8)]
    assert next_cell(free, None, (1, 0)) == cell(0, 0)
    assert next_cell(free, cell(0, 0), (1, 0)) == cell(1, 1)  # the next column's top, not its bottom
    assert next_cell(free, cell(1, 1), (1, 0)) == cell(3, 0)
    assert next_cell(free, cell(0, 0), (0, 1)) == cell(0, 8)  # down stays in the column
    assert next_cell(free, cell(0, 8), (0, -1)) == cell(0, 0)
    assert next_cell(free, cell(0, 0), (-1, 0)) == cell(0, 0)  # nothing further left: stay
    assert next_cell([], cell(0, 0), (1, 0)) is None
