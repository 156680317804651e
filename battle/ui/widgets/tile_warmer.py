"""The board's tile faces drawn ahead, a few a frame, while a screen waits for the player.

A game screen's first frame draws every face it shows (and the dimmed copies of blocked
ones) at the board's size: about 120 ms at 1200x800, most of that frame's 194 ms. The
title draws them beforehand, two a frame (about 9 ms), so the game opens without the pause.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from battle.rules.tiles import KIND_COUNT

if TYPE_CHECKING:
    from battle.ui.widgets.board_view import BoardView
    from battle.ui.widgets.layout import Layout

PER_FRAME = 2
INTERVAL = 1 / 30
"""Seconds between frames while faces are left: all 54 drawn within a second of idling."""
VARIANTS = ("normal", "dim")


class TileWarmer:
    """Faces left to draw at the current board size; ``step`` draws the next few."""

    def __init__(self, board: BoardView) -> None:
        self.board = board
        self.size: tuple[int, int] | None = None
        self.left: list[tuple[int, str]] = []

    def done(self, layout: Layout) -> bool:
        return self.size == (layout.tile_w, layout.tile_h) and not self.left

    def step(self, layout: Layout) -> None:
        """Draw the next faces into the board's cache (all again after a resize changed their size)."""
        size = (layout.tile_w, layout.tile_h)
        if size != self.size:
            self.size = size
            self.left = [(kind, variant) for kind in reversed(range(KIND_COUNT)) for variant in VARIANTS]
        for _ in range(min(PER_FRAME, len(self.left))):
            kind, variant = self.left.pop()
            self.board.tile(kind, variant, layout)
