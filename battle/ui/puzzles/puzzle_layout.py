"""Where the puzzle screen's own things go in the game screen's side panel: pure arithmetic.

The puzzle screen keeps the game screen's layout (``compute_layout``): the board where a
game's board is, so a click means the same cell, and the panel's header and player cards,
where a move's points fly to. Under the cards come the two filters, then the puzzle's
text, then four buttons in two rows at the foot.
"""

from __future__ import annotations

from dataclasses import dataclass

from battle.ui.widgets.layout import Layout, Rect


@dataclass(frozen=True)
class PuzzlePanel:
    theme_menu: Rect
    length_menu: Rect
    text: Rect
    """The puzzle's words and the ratings, between the filters and the buttons."""
    buttons: tuple[Rect, Rect, Rect, Rect]
    """Try again, Show solution (the upper row); Next puzzle, Back (the lower)."""


def puzzle_panel(layout: Layout) -> PuzzlePanel:
    panel = layout.panel
    scale = layout.scale
    x, width = panel.cards[1].x, panel.cards[1].w
    row_h = max(20, round(32 * scale))
    gap = max(4, round(8 * scale))
    top = panel.cards[1].bottom + round(12 * scale)
    theme_menu = Rect(x, top, width, row_h)
    length_menu = Rect(x, theme_menu.bottom + gap, width, row_h)
    button_h = max(20, round(34 * scale))
    half = max(1, (width - gap) // 2)
    lower = panel.rect.bottom - panel.pad - button_h
    upper = lower - gap - button_h
    buttons = (
        Rect(x, upper, half, button_h),
        Rect(x + width - half, upper, half, button_h),
        Rect(x, lower, half, button_h),
        Rect(x + width - half, lower, half, button_h),
    )
    text_top = length_menu.bottom + round(12 * scale)
    text = Rect(x, text_top, width, max(0, upper - round(10 * scale) - text_top))
    return PuzzlePanel(theme_menu, length_menu, text, buttons)
