"""Which texts a real frame draws, and where: for checks that one text does not cover another.

``record_texts(app, monkeypatch)`` makes the window draw into a surface that notes every blit
of a text made by ``Fonts.text`` (the window's own drawing, not pygame_gui's widgets), with
the rectangle it covered; ``TextRecorder.frame`` then steps one frame and returns them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame
import pytest

from battle.ui import app as app_module
from battle.ui.app import App
from battle.ui.art import theme


class RecordingSurface(pygame.Surface):
    def __init__(self, size: tuple[int, int], names: dict[int, tuple[pygame.Surface, str]]) -> None:
        super().__init__(size)
        self.names = names
        self.drawn: list[tuple[str, pygame.Rect]] = []

    def blit(self, source, dest, area=None, special_flags=0):  # type: ignore[override]  # noqa: ANN001, ANN201
        rect = super().blit(source, dest, area, special_flags)
        named = self.names.get(id(source))
        if named is not None and named[0] is source:
            self.drawn.append((named[1], rect))
        return rect


@dataclass
class TextRecorder:
    app: App
    names: dict[int, tuple[pygame.Surface, str]] = field(default_factory=dict)

    def frame(self, dt: float = 0.05) -> list[tuple[str, pygame.Rect]]:
        """Step one frame; the texts it drew, in drawing order, with their rectangles."""
        real_window = app_module.window_surface
        surface = RecordingSurface(real_window().get_size(), self.names)
        app_module.window_surface = lambda: surface  # only the App's draw reads it
        try:
            self.app.step([], dt)
        finally:
            app_module.window_surface = real_window
        real_window().blit(surface, (0, 0))
        return surface.drawn

    def texts(self, dt: float = 0.05) -> list[str]:
        return [text for text, _ in self.frame(dt)]


def record_texts(app: App, monkeypatch: pytest.MonkeyPatch) -> TextRecorder:
    recorder = TextRecorder(app)
    real_text = theme.Fonts.text

    def text(fonts: theme.Fonts, words: str, *args: object, **kwargs: object) -> pygame.Surface:
        made = real_text(fonts, words, *args, **kwargs)  # type: ignore[arg-type]
        recorder.names[id(made)] = (made, words)
        return made

    monkeypatch.setattr(theme.Fonts, "text", text)
    return recorder


def rect_of(drawn: list[tuple[str, pygame.Rect]], start: str) -> pygame.Rect:
    """The rectangle of the one drawn text that starts with ``start``."""
    found = [rect for text, rect in drawn if text.startswith(start)]
    assert len(found) == 1, f"{start!r} drawn {len(found)} times in {[text for text, _ in drawn]}"
    return found[0]
