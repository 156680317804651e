"""Render the window's tile faces into the browser client's sprite sheet, so one design serves both.

    python tools/web_tiles.py [--check]

Writes ``battle/web/tiles.png``: the 27 faces of ``battle.ui.art.tile_art.TileArt`` (the
window's own drawing code, sides and corner index included), 9 a row in kind order (row 1
characters 1m-9m, row 2 circles, row 3 bamboo), each ``TILE_W`` x ``TILE_H`` inside a
transparent ``GUTTER`` on every side (without it a screen that scales the sheet by a
fraction shows a sliver of the next tile at a tile's edge; battle/web/board.js uses the same
numbers). The page shows a
tile at up to 64 x 85 CSS pixels, so 96 x 128 stays sharp on a 1.5x screen in 110 KB (the
image data deflated again at zlib's level 9: 112 KB against pygame's 129 KB, the same pixels).
``--check`` renders to memory and exits 1 if the committed sheet differs (the test does the same).
Runs headless (SDL's dummy video driver).
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
import zlib
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from battle.ui.art.tile_art import KIND_COUNT, TileArt  # noqa: E402

TILE_W, TILE_H = 96, 128
GUTTER = 4
PER_ROW = 9
SHEET = Path(__file__).resolve().parent.parent / "battle" / "web" / "tiles.png"


def render_sheet() -> pygame.Surface:
    """The sprite sheet as a surface (transparent between tiles)."""
    pygame.init()
    art = TileArt()
    pitch_x, pitch_y = TILE_W + 2 * GUTTER, TILE_H + 2 * GUTTER
    sheet = pygame.Surface((pitch_x * PER_ROW, pitch_y * (KIND_COUNT // PER_ROW)), pygame.SRCALPHA)
    sheet.fill((0, 0, 0, 0))
    for kind in range(KIND_COUNT):
        row, col = divmod(kind, PER_ROW)
        sheet.blit(art.face(kind, TILE_W, TILE_H), (col * pitch_x + GUTTER, row * pitch_y + GUTTER))
    return sheet


def differing_pixels(a: pygame.Surface, b: pygame.Surface, tolerance: int = 8) -> int:
    """Pixels whose colour or alpha differ by more than ``tolerance`` in some channel
    (a FreeType or zlib update may move an edge pixel by a step or two)."""
    if a.get_size() != b.get_size():
        return a.get_width() * a.get_height()
    first, second = pygame.image.tobytes(a, "RGBA"), pygame.image.tobytes(b, "RGBA")
    return sum(
        1 for i in range(0, len(first), 4) if max(abs(first[i + k] - second[i + k]) for k in range(4)) > tolerance
    )


def deflate_again(path: Path) -> None:
    """Rewrite the PNG at ``path`` with its image data in one chunk deflated at level 9: the same
    filtered rows, so the same pixels, in 13% fewer bytes than libpng's default level."""
    data = path.read_bytes()
    chunks: list[tuple[bytes, bytes]] = []
    at = 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        chunks.append((data[at + 4 : at + 8], data[at + 8 : at + 8 + length]))
        at += 12 + length
    pixels = zlib.compress(zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT")), 9)
    out = [data[:8]]
    written = False
    for kind, body in chunks:
        if kind == b"IDAT":
            if written:
                continue
            body, written = pixels, True
        out.append(struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body)))
    path.write_bytes(b"".join(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed sheet instead of writing")
    args = parser.parse_args(argv)
    sheet = render_sheet()
    if args.check:
        differ = differing_pixels(sheet, pygame.image.load(str(SHEET)))
        print(f"{SHEET.name}: {differ} pixels differ from a fresh render")
        return 1 if differ else 0
    pygame.image.save(sheet, str(SHEET))
    deflate_again(SHEET)
    print(f"wrote {SHEET} ({SHEET.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
