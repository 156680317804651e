"""Render every tile at a small and a large size onto one PNG, for eyeballing the art.

    python tools/tile_sheet.py [OUT.png] [--sizes 48x64,120x160]

Runs headless (SDL's dummy video driver); no window opens.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from battle.ui.art.tile_art import KIND_COUNT, TileArt, window_icon  # noqa: E402

FELT = (22, 92, 60)
FELT_DARK = (16, 70, 46)
GAP = 10
MARGIN = 24


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """Parse ``48x64,120x160`` into pairs; a typo should fail loudly, not draw nothing."""
    sizes = []
    for part in text.split(","):
        try:
            width, height = (int(n) for n in part.lower().split("x"))
        except ValueError:
            raise SystemExit(f"expected sizes like 48x64,120x160: {text!r}") from None
        sizes.append((width, height))
    return sizes


def felt(size: tuple[int, int]) -> pygame.Surface:
    """A table-felt background with a gentle vignette, so tiles are judged in context."""
    surface = pygame.Surface(size)
    width, height = size
    for y in range(height):
        t = abs(y / max(1, height - 1) - 0.5) * 2
        colour = [round(a + (b - a) * t * t) for a, b in zip(FELT, FELT_DARK, strict=True)]
        pygame.draw.line(surface, colour, (0, y), (width, y))
    return surface


def render_sheet(sizes: list[tuple[int, int]]) -> pygame.Surface:
    """Nine columns per size band: one row per suit (m, p, s), then the backs and the icon."""
    art = TileArt()
    band_heights = [3 * (h + GAP) + h + GAP for _, h in sizes]
    width = max(9 * (w + GAP) for w, _ in sizes) + 2 * MARGIN
    height = sum(band_heights) + 2 * MARGIN + GAP * len(sizes)
    sheet = felt((width, height))
    y = MARGIN
    for (tile_w, tile_h), band in zip(sizes, band_heights, strict=True):
        for kind in range(KIND_COUNT):
            suit, index = divmod(kind, 9)
            art.draw(sheet, kind, (MARGIN + index * (tile_w + GAP), y + suit * (tile_h + GAP)), tile_w, tile_h)
        row_y = y + 3 * (tile_h + GAP)
        back = art.back(tile_w, tile_h)
        for i in range(2):
            x = MARGIN + i * (tile_w + GAP)
            dx, dy = art.shadow_offset(tile_w, tile_h)
            sheet.blit(art.shadow(tile_w, tile_h), (x + dx, row_y + dy))
            sheet.blit(back, (x, row_y))
        sheet.blit(window_icon(), (MARGIN + 2 * (tile_w + GAP), row_y))
        y += band + GAP
    return sheet


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", type=Path, default=Path("/tmp/tile_sheet.png"))
    parser.add_argument("--sizes", default="48x64,120x160", type=parse_sizes)
    options = parser.parse_args(argv)
    pygame.init()
    try:
        sheet = render_sheet(options.sizes)
        pygame.image.save(sheet, str(options.output))
    finally:
        pygame.quit()
    print(f"wrote {options.output} ({sheet.get_width()}x{sheet.get_height()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
