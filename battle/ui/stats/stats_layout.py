"""Where the statistics screen's parts go, as pure arithmetic on the window size and text scale.

A title band with Back at its right; under it two columns of three rows: the results per
opponent beside the rating against the solver (and the puzzles), the accuracy curve beside
the puzzle rating curve, the best games beside the worst. The lists of games keep the room
their buttons need; the cards and the curves share the rest of the height.
"""

from __future__ import annotations

from dataclasses import dataclass

from battle.history.stats import BEST_AND_WORST
from battle.ui.widgets.layout import Rect


@dataclass(frozen=True)
class StatsLayout:
    scale: float
    title: Rect
    """The title band: the screen's name and the line under it."""
    back: Rect
    results: Rect
    solver: Rect
    accuracy: Rect
    puzzles: Rect
    """The puzzle rating curve."""
    best: Rect
    worst: Rect
    list_header: int
    """The height of a list's heading above its first game."""
    row_h: int
    row_gap: int

    def game_rows(self, column: Rect) -> list[Rect]:
        """The buttons of a list of games (best or worst), top to bottom."""
        top = column.y + self.list_header
        return [
            Rect(column.x, top + index * (self.row_h + self.row_gap), column.w, self.row_h)
            for index in range(BEST_AND_WORST)
        ]


def stats_layout(width: int, height: int, scale: float) -> StatsLayout:
    margin = max(8, round(min(width, height) * 0.022))
    gap = max(6, round(14 * scale))
    title = Rect(margin, margin, max(1, width - 2 * margin), max(30, round(56 * scale)))
    back_w, back_h = max(70, round(120 * scale)), max(20, round(34 * scale))
    back = Rect(title.right - back_w, title.y + (title.h - back_h) // 2, back_w, back_h)
    top = title.bottom + gap
    column_w = max(1, (title.w - gap) // 2)
    right_x = title.right - column_w
    row_h = max(20, round(30 * scale))
    row_gap = max(3, round(6 * scale))
    list_header = max(16, round(26 * scale))
    lists_h = list_header + BEST_AND_WORST * row_h + (BEST_AND_WORST - 1) * row_gap
    lists_y = height - margin - lists_h
    shared = max(2, lists_y - gap - top - gap)
    cards_h = shared // 2
    plots_y = top + cards_h + gap
    plots_h = max(1, lists_y - gap - plots_y)
    return StatsLayout(
        scale=scale,
        title=title,
        back=back,
        results=Rect(title.x, top, column_w, cards_h),
        solver=Rect(right_x, top, column_w, cards_h),
        accuracy=Rect(title.x, plots_y, column_w, plots_h),
        puzzles=Rect(right_x, plots_y, column_w, plots_h),
        best=Rect(title.x, lists_y, column_w, lists_h),
        worst=Rect(right_x, lists_y, column_w, lists_h),
        list_header=list_header,
        row_h=row_h,
        row_gap=row_gap,
    )
