"""The board as drawn, compared with a stored picture: layout, tile states, panel, status line.

The reference is the demo position (deal 1 after six moves, a tile selected) at 1200x800,
rendered headless with the animation clock at zero, in English and in German (every word of
the panel and the status line in the player's language). After a deliberate change to the
look, regenerate them and check the new pictures by eye before committing them:

    UPDATE_UI_REFERENCE=1 python -m pytest tests/ui/test_ui_screenshot.py

The comparison allows small differences (font rasterisers and smoothscale differ a little
between machines): a mean absolute difference below 3 (of 255) per channel, and under 2 %
of the pixels off by more than 64.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pygame
import pytest

from tests import ui_harness as ui

REFERENCE = Path(__file__).parents[1] / "data" / "ui" / "demo-deal1-1200x800.png"
REFERENCES = {"en": REFERENCE, "de": REFERENCE.with_name("demo-deal1-1200x800-de.png")}
MAX_MEAN_DIFFERENCE = 3.0
MAX_FAR_PIXELS = 0.02


def render(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, language: str = "en") -> pygame.Surface:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), demo=True, language=language)
        app.step([], 0)
        app.step([], 0)
        return pygame.display.get_surface().copy()


@pytest.mark.parametrize("language", sorted(REFERENCES))
def test_the_demo_position_looks_as_stored(language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stored = REFERENCES[language]
    shot = render(tmp_path, monkeypatch, language)
    if os.environ.get("UPDATE_UI_REFERENCE") == "1":
        stored.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(shot, str(stored))
        pytest.skip(f"reference written to {stored}")
    assert stored.exists(), "no reference picture: run UPDATE_UI_REFERENCE=1 pytest tests/ui/test_ui_screenshot.py"
    reference = pygame.image.load(str(stored))
    assert reference.get_size() == shot.get_size()
    ours = pygame.surfarray.array3d(shot).astype(np.int16)
    theirs = pygame.surfarray.array3d(reference).astype(np.int16)
    difference = np.abs(ours - theirs)
    mean = float(difference.mean())
    far = float((difference.max(axis=2) > 64).mean())
    if mean >= MAX_MEAN_DIFFERENCE or far >= MAX_FAR_PIXELS:
        actual = tmp_path / "actual.png"
        pygame.image.save(shot, str(actual))
        pytest.fail(f"screen differs from {stored.name}: mean {mean:.2f}, {far:.2%} of pixels far off; see {actual}")


def test_the_comparison_notices_a_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Guard against a check that cannot fail: a different position is far from the reference."""
    if not REFERENCE.exists():
        pytest.skip("no reference yet")
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), demo=True)
        scene = ui.play_scene(app)
        scene.undo()
        scene.undo()
        app.step([], 0)
        shot = pygame.display.get_surface().copy()
    reference = pygame.image.load(str(REFERENCE))
    difference = np.abs(
        pygame.surfarray.array3d(shot).astype(np.int16) - pygame.surfarray.array3d(reference).astype(np.int16)
    )
    assert float((difference.max(axis=2) > 64).mean()) > 0.002
