"""Scenes and the scene stack: the one place that decides who gets input and who draws.

Each scene splits its frame in three: ``handle_event`` consumes input,
``update(dt)`` advances time (animations, polling the solver), ``draw(surface)``
paints and never changes state. Only the top scene gets input; every scene is
updated (a game under the result panel finishes its last animation); drawing
starts at the top-most scene that is not an overlay.

Widgets (pygame_gui) belong to the scene that made them: built on enter and
after a resize, hidden while another scene covers them, killed on exit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from pygame_gui.core import UIElement

    from battle.ui.host import Host


def pressed_key(event: pygame.event.Event, widgets: Mapping[str, object]) -> str | None:
    """Which of a scene's named widgets a pygame_gui event came from, if any."""
    element = getattr(event, "ui_element", None)
    if element is None:
        return None
    return next((key for key, widget in widgets.items() if widget is element), None)


class Scene:
    overlay: bool = False
    """An overlay is drawn over the scene below it instead of replacing it."""

    def __init__(self, app: Host) -> None:
        self.app = app
        self.elements: list[UIElement] = []
        self.paused = False

    # -- lifecycle ---------------------------------------------------------------------

    def on_enter(self) -> None:
        self.build_ui()

    def on_exit(self) -> None:
        self.clear_ui()

    def on_pause(self) -> None:
        self.paused = True
        for element in self.elements:
            element.hide()

    def on_resume(self) -> None:
        self.paused = False
        for element in self.elements:
            element.show()

    def on_resize(self) -> None:
        """The window changed size: widgets are rebuilt for the new layout."""
        self.clear_ui()
        self.build_ui()
        if self.paused:
            for element in self.elements:
                element.hide()

    def stop_background(self) -> None:
        """The window closes: end what the scene runs beside the drawing thread (an online connection)."""

    def build_ui(self) -> None:
        """Create this scene's widgets (and append them to ``self.elements``)."""

    def clear_ui(self) -> None:
        for element in self.elements:
            element.kill()
        self.elements.clear()

    # -- a frame -----------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        """Input the widgets did not consume, and the widgets' own events (button presses)."""

    def update(self, dt: float) -> None:
        """Advance time by ``dt`` seconds."""

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the scene; must not change any state."""

    def next_frame_in(self) -> float | None:
        """How soon the scene looks different without any input, in seconds.

        ``0.0``: something moves, draw every frame; a few hundredths: a slow
        change (a colour pulse, a search's progress to poll); None: only input
        changes it, so the window may sleep until the next event.
        """
        return None


class SceneStack:
    def __init__(self) -> None:
        self.scenes: list[Scene] = []

    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        if self.scenes:
            self.scenes[-1].on_pause()
        self.scenes.append(scene)
        scene.on_enter()

    def pop(self) -> Scene | None:
        if not self.scenes:
            return None
        scene = self.scenes.pop()
        scene.on_exit()
        if self.scenes:
            self.scenes[-1].on_resume()
        return scene

    def replace_all(self, scene: Scene) -> None:
        while self.scenes:
            self.scenes.pop().on_exit()
        self.push(scene)

    def update(self, dt: float) -> None:
        for scene in list(self.scenes):
            scene.update(dt)

    @property
    def visible(self) -> list[Scene]:
        """The scenes drawn: the top-most one that is not an overlay and the overlays above it."""
        start = 0
        for index in range(len(self.scenes) - 1, -1, -1):
            if not self.scenes[index].overlay:
                start = index
                break
        return self.scenes[start:]

    def draw(self, surface: pygame.Surface) -> None:
        for scene in self.visible:
            scene.draw(surface)

    def next_frame_in(self) -> float | None:
        """The soonest a drawn scene changes by itself (see ``Scene.next_frame_in``), or None."""
        waits = [wait for wait in (scene.next_frame_in() for scene in self.visible) if wait is not None]
        return min(waits, default=None)

    def resize(self) -> None:
        for scene in self.scenes:
            scene.on_resize()
