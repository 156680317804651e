"""Mahjong Battle's solver: exact numba search behind a small typed API.

It reads positions from the ``battle`` model and never imports pygame.
"""

from solver.engine import FULL_DEPTH, Analysis, Engine, MoveValue, Progress

__all__ = ["FULL_DEPTH", "Analysis", "Engine", "MoveValue", "Progress"]
