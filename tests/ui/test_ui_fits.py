"""What the window draws fits where it is drawn and says what is true, in real frames at 800x600 and
1200x800: texts that covered each other, a label cut short, a result read from the wrong side."""

from __future__ import annotations

import pygame
import pytest

from tests import ui_harness as ui
from tests.ui.drawn_text import record_texts, rect_of

SIZES = [(800, 600), (1200, 800)]
LEGEND = ("★ best", "2 worse", "10 worse", "~ estimate")


@pytest.mark.parametrize("size", SIZES)
def test_the_analysis_panels_more_line_and_legend_do_not_overlap(size, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size, demo="analysis", autosave=False)
        recorder = record_texts(app, monkeypatch)
        scene = app.stack.top
        # the demo's position has a long best line: wait until the panel cuts it short
        ui.run_until(app, lambda: len(scene.analysis.pv) > 12, timeout=300)
        drawn = recorder.frame()
        more = [rect for text, rect in drawn if text.endswith(" more") and text.startswith("+")]
        assert len(more) == 1, [text for text, _ in drawn]
        panel = app.layout.panel.rect
        panel_right = panel.x + panel.w
        for text, rect in drawn:
            if text in LEGEND:
                assert not rect.colliderect(more[0]), f"{text!r} covers the '+N more' line"
                assert rect.right <= panel_right, f"{text!r} runs past the panel"
        assert more[0].right <= panel_right
