"""Scenes, the scene stack and the ``Host`` they run in: who gets input, who draws, who opens what.

Each scene splits its frame in three: ``handle_event`` consumes input,
``update(dt)`` advances time (animations, polling the solver), ``draw(surface)``
paints and never changes state. Only the top scene gets input; every scene is
updated (a game under the result panel finishes its last animation); drawing
starts at the top-most scene that is not an overlay.

Widgets (pygame_gui) belong to the scene that made them: built on enter and
after a resize, hidden while another scene covers them, killed on exit.

Scenes are written against the ``Host`` protocol, never against ``App``, its one
implementation. A scene opens another by intent (``Host.start_match``, ``open_review``,
...) and gets it back as a plain ``Scene``: the window's navigator
(``battle.ui.navigator``) is the one module that names the screens, so no screen
imports another to open it and this module names none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pygame
import pygame_gui

from battle.ui.widgets.dialogs import DIALOG_EVENTS

if TYPE_CHECKING:
    from pygame_gui.core import UIElement

    from battle.atlas.catalogue import Catalogue
    from battle.atlas.par_finder import ParFinder
    from battle.history.store import History
    from battle.rules.board import Position
    from battle.rules.game import Game
    from battle.search_worker import SearchWorker
    from battle.ui.art.theme import Fonts
    from battle.ui.art.tile_art import TileArt
    from battle.ui.files.settings import Settings
    from battle.ui.live_analysis import LiveAnalysis
    from battle.ui.match import Match
    from battle.ui.sound import Sounds
    from battle.ui.widgets.board_view import BoardView, Felt
    from battle.ui.widgets.dialogs import FileDialogSlot, Picked
    from battle.ui.widgets.layout import Layout
    from battle.ui.widgets.panel import PanelView


def pressed_key(event: pygame.event.Event, widgets: Mapping[str, object]) -> str | None:
    """Which of a scene's named widgets a pygame_gui event came from, if any."""
    element = getattr(event, "ui_element", None)
    if element is None:
        return None
    return next((key for key, widget in widgets.items() if widget is element), None)


class Scene:
    overlay: bool = False
    """An overlay is drawn over the scene below it instead of replacing it."""
    files: FileDialogSlot | None = None
    """The scene's file dialogs, if it opens any: while one is open it has the input."""
    presses_before_dialogs: bool = False
    """Whether the scene's buttons work while a file dialog is open (the game screen's do)."""

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
        self.rebuild_ui()

    def rebuild_ui(self) -> None:
        """Build the widgets again for what the scene shows now; hidden while another scene covers it."""
        self.clear_ui()
        self.build_ui()
        if self.paused:
            for element in self.elements:
                element.hide()

    def stop_background(self) -> None:
        """The window closes: end what the scene runs beside the drawing thread (an online connection)."""

    def wait_background(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for what ``stop_background`` stopped; False if it still runs."""
        return True

    def searching(self) -> bool:
        """Whether a search of this screen's own runs for the player (a review): the par's background
        solve waits for it."""
        return False

    def background_par_allowed(self) -> None:
        """The player turned the par's background work on: a screen whose game has no known par asks for it."""

    def build_ui(self) -> None:
        """Create this scene's widgets (and append them to ``self.elements``)."""

    def clear_ui(self) -> None:
        for element in self.elements:
            element.kill()
        self.elements.clear()

    # -- a frame -----------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        """Route one event: a button of ``controls`` pressed goes to ``command``, a file picked in the
        dialog to ``file_picked``, a list's new choice to ``menu_changed``; while a file dialog is
        open it has the input; everything else goes to ``handle_input``."""
        if self.presses_before_dialogs and self._pressed(event):
            return
        if self.files is not None:
            was_open = self.files.is_open()
            picked = self.files.handle(event)
            if picked is not None:
                self.file_picked(picked)
                return
            if was_open or event.type in DIALOG_EVENTS:
                return
        if self._pressed(event):
            return
        if event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            self.menu_changed(event.ui_element, event.text)
            return
        self.handle_input(event)

    def _pressed(self, event: pygame.event.Event) -> bool:
        """Whether ``event`` is a button press, sent to ``command`` when the button is one of ``controls``."""
        if event.type != pygame_gui.UI_BUTTON_PRESSED:
            return False
        name = pressed_key(event, self.controls())
        if name is not None:
            self.command(name)
        return True

    def controls(self) -> Mapping[str, object]:
        """The scene's buttons by command name (a press sends the name to ``command``)."""
        return {}

    def command(self, name: str) -> None:
        """A button of ``controls`` was pressed (or a key stands for one): its action runs, if it has one."""
        action = self.actions().get(name)
        if action is not None:
            action()

    def actions(self) -> Mapping[str, Callable[[], object]]:
        """What each command name does (see ``command``)."""
        return {}

    def file_picked(self, picked: Picked) -> None:
        """The file dialog's choice."""

    def menu_changed(self, menu: object, text: str) -> None:
        """A list's new choice."""

    def handle_input(self, event: pygame.event.Event) -> None:
        """Input the widgets did not consume, and the widgets' events not routed above."""

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


class Host(Protocol):
    """What a scene may ask of the window that shows it: the shared renderers and widgets, the
    settings, the search worker, the deal catalogue, the history of games, and the screens to open."""

    layout: Layout
    """Where everything goes at the window's current size and text size."""
    fonts: Fonts
    manager: pygame_gui.UIManager
    stack: SceneStack
    settings: Settings
    sounds: Sounds
    """The sound effects: ``sounds.play(Event.SELECT)``."""
    solver: SearchWorker
    """The opponent's and the hints' searches, off the drawing thread."""

    @property
    def plain_solver(self) -> SearchWorker:
        """The moves of the levels up to expert in plain Python while the kernels compile."""
        ...

    board_view: BoardView
    panel_view: PanelView
    art: TileArt
    felt: Felt
    running: bool
    """Set False to close the window after this frame."""
    last_match: Match | None
    autosave_enabled: bool

    @property
    def level_names(self) -> list[str]: ...

    @property
    def default_level(self) -> str: ...

    def level_description(self, name: str) -> str: ...

    @property
    def live_analysis(self) -> LiveAnalysis: ...

    @property
    def catalogue(self) -> Catalogue:
        """The solved deals' pars: fair deals, the deal of the day, a game's par."""
        ...

    @property
    def par_finder(self) -> ParFinder | None:
        """The par of a deal no catalogue knows, worked out in the background; None when turned off."""
        ...

    @property
    def history(self) -> History:
        """The player's finished games and puzzle attempts: the puzzles, the statistics."""
        ...

    # -- moving between screens, by intent (see ``battle.ui.navigator``) ----------------------

    def start_match(
        self, match: Match, notice: str | None = None, kind: str = "info", *, analyse: bool = False
    ) -> Scene:
        """The game screen for ``match``, in place of every screen; with ``analyse``, in analysis mode."""
        ...

    def show_title(self, notice: str | None = None, kind: str = "info") -> Scene:
        """The title screen, in place of every screen."""
        ...

    def open_editor(self, position: Position | None = None) -> Scene:
        """The position editor over the current screen, empty or with ``position``."""
        ...

    def open_review(self, game: Game, time_per_move: float | None = None) -> Scene:
        """The review of ``game`` over the current screen."""
        ...

    def open_online(self) -> Scene:
        """The online set-up form over the current screen."""
        ...

    def open_puzzles(self) -> Scene: ...

    def open_stats(self) -> Scene: ...

    def open_help(self) -> Scene:
        """The rules and keys over the current screen."""
        ...

    # -- the window's files --------------------------------------------------------------------

    def remember_folder(self, folder: Path) -> None: ...

    def save_settings(self) -> None: ...

    def take_notices(self) -> list[tuple[str, str]]: ...

    def set_ui_scale(self, value: float) -> bool: ...

    def set_language(self, language: str) -> bool: ...

    def set_background_par(self, on: bool) -> None: ...
