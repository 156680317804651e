"""Headless checks of the procedural tile art: sizes, distinctness, caching, the font asset."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402
import pygame.freetype  # noqa: E402
import pytest  # noqa: E402

from battle.resources import asset_path  # noqa: E402
from battle.ui.art import tile_art  # noqa: E402
from battle.ui.art.tile_art import KIND_COUNT, TileArt, window_icon  # noqa: E402

SIZES = [(12, 16), (24, 32), (48, 64), (61, 83), (120, 160), (160, 210)]


@pytest.fixture(scope="module")
def art() -> Iterator[TileArt]:
    pygame.init()
    yield TileArt()
    pygame.quit()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_kind_renders_at_exact_size(art: TileArt, width: int, height: int) -> None:
    for kind in range(KIND_COUNT):
        face = art.face(kind, width, height)
        assert face.get_size() == (width, height)
        assert face.get_flags() & pygame.SRCALPHA
    assert art.back(width, height).get_size() == (width, height)


def test_faces_are_pairwise_different(art: TileArt) -> None:
    pixels = {kind: pygame.image.tobytes(art.face(kind, 48, 64), "RGBA") for kind in range(KIND_COUNT)}
    for a, b in itertools.combinations(range(KIND_COUNT), 2):
        assert pixels[a] != pixels[b], f"kinds {a} and {b} render identically"


def test_faces_differ_from_each_other_visibly(art: TileArt) -> None:
    """Not just one stray pixel: two kinds must differ over a fair share of the face."""

    def differing_pixels(a: pygame.Surface, b: pygame.Surface) -> int:
        count = 0
        for x in range(0, a.get_width(), 2):
            for y in range(0, a.get_height(), 2):
                pa, pb = a.get_at((x, y)), b.get_at((x, y))
                if sum(abs(pa[i] - pb[i]) for i in range(3)) > 60:
                    count += 1
        return count

    faces = [art.face(kind, 40, 54) for kind in range(KIND_COUNT)]
    for a, b in itertools.combinations(range(KIND_COUNT), 2):
        assert differing_pixels(faces[a], faces[b]) >= 8, (a, b)


def test_tile_has_a_body_and_transparent_corners(art: TileArt) -> None:
    face = art.face(0, 120, 160)
    assert face.get_at((0, 0)).a < 40  # rounded corner
    assert face.get_at((60, 70)).a == 255
    # the thicker edge at the bottom: its colour is not the ivory of the face centre
    centre = face.get_at((30, 80))
    edge = face.get_at((60, 157))
    assert edge.a == 255
    assert abs(edge.g - centre.g) + abs(edge.r - centre.r) > 40


def test_cache_returns_the_same_object(art: TileArt) -> None:
    assert art.face(5, 64, 86) is art.face(5, 64, 86)
    assert art.shadow(64, 86) is art.shadow(64, 86)
    assert art.back(64, 86) is art.back(64, 86)
    assert art.face(5, 64, 86) is not art.face(5, 65, 86)


def test_cache_is_bounded() -> None:
    small = TileArt(cache_limit=5)
    for width in range(20, 40):
        small.face(0, width, 40)
    assert small.cached_surfaces <= 5


def test_numpy_style_integers_are_accepted(art: TileArt) -> None:
    class Index:
        def __index__(self) -> int:
            return 3

    assert art.face(Index(), 30, 40) is art.face(3, 30, 40)


@pytest.mark.parametrize("kind", [-1, 27, 3.0, "1m", None])
def test_bad_kind_is_a_value_error(art: TileArt, kind: object) -> None:
    with pytest.raises(ValueError, match="tile kind"):
        art.face(kind, 40, 50)  # type: ignore[arg-type]


def test_shadow_is_soft_and_translucent(art: TileArt) -> None:
    shadow = art.shadow(60, 80)
    assert shadow.get_width() > 60 and shadow.get_height() > 80
    alphas = {shadow.get_at((x, shadow.get_height() // 2)).a for x in range(shadow.get_width())}
    assert min(alphas) < 20
    assert max(alphas) < 255
    assert len(alphas) > 4  # a gradient, not a hard edge
    dx, dy = art.shadow_offset(60, 80)
    assert dx < 0 and dy < 0  # the shadow surface is larger and starts above-left of the tile


def test_draw_blits_onto_a_target(art: TileArt) -> None:
    target = pygame.Surface((100, 120))
    target.fill((0, 100, 0))
    rect = art.draw(target, 9, (10, 10), 60, 80)
    assert rect == pygame.Rect(10, 10, 60, 80)
    assert target.get_at((40, 50))[:3] != (0, 100, 0)


def test_tiny_sizes_do_not_raise(art: TileArt) -> None:
    for kind in range(KIND_COUNT):
        for width, height in ((12, 16), (8, 10), (4, 4)):
            assert art.face(kind, width, height).get_size() == (width, height)
    with pytest.raises(ValueError, match="too small"):
        art.face(0, 3, 3)


def test_window_icon_is_64_square() -> None:
    icon = window_icon()
    assert icon.get_size() == (64, 64)
    assert icon.get_at((32, 30)).a == 255


def test_font_asset_exists_and_is_found() -> None:
    path = asset_path("fonts", "NotoSansSC-subset.otf")
    assert path.is_file()
    assert path.stat().st_size < 100_000
    assert asset_path("fonts", "OFL.txt").is_file()
    # the standalone lookup in tile_art must agree with battle.resources
    assert tile_art._default_font_path() == path


def test_font_has_every_glyph_the_tiles_use() -> None:
    pygame.freetype.init()
    font = pygame.freetype.Font(str(asset_path("fonts", "NotoSansSC-subset.otf")))
    text = tile_art.NUMERALS + tile_art.MYRIAD + "麻将雀0123456789"
    assert all(metric is not None for metric in font.get_metrics(text, size=20))


def test_missing_asset_names_the_file_and_places() -> None:
    with pytest.raises(FileNotFoundError) as caught:
        asset_path("fonts", "no-such-font.otf")
    message = str(caught.value)
    assert "no-such-font.otf" in message
    assert "assets" in message


def test_missing_font_falls_back_with_a_warning(tmp_path, caplog) -> None:
    art = TileArt(font_path=tmp_path / "missing.otf")
    with caplog.at_level("WARNING"):
        face = art.face(4, 48, 64)
    assert face.get_size() == (48, 64)
    assert any("font" in record.message for record in caplog.records)
