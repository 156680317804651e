"""The page's tile faces are the window's: ``battle/web/tiles.png`` is what ``tools/web_tiles.py``
renders from ``battle.ui.art`` now, so a change to the art without a new sheet fails here
(run ``python tools/web_tiles.py`` and commit the sheet)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pygame

TOOL = Path(__file__).resolve().parents[2] / "tools" / "web_tiles.py"


def test_the_committed_sheet_is_what_the_window_draws_now() -> None:
    spec = importlib.util.spec_from_file_location("web_tiles", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    fresh = tool.render_sheet()
    committed = pygame.image.load(str(tool.SHEET))
    assert committed.get_size() == ((tool.TILE_W + 2 * tool.GUTTER) * 9, (tool.TILE_H + 2 * tool.GUTTER) * 3)
    assert tool.differing_pixels(fresh, committed) == 0, "run python tools/web_tiles.py and commit battle/web/tiles.png"
