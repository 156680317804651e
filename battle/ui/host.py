"""What a screen may ask of the window that shows it: the ``Host`` protocol.

Screens (scenes, dialogs, demos) are written against this protocol, never against
``App``, which is its one implementation: the application imports its screens, and
no screen imports the application back. The names here are the whole of what a
screen uses: the shared renderers and widgets, the settings, the search worker, the
deal catalogue, the history of games, and the few ways to move between screens.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import pygame_gui

    from battle.atlas.catalogue import Catalogue
    from battle.history.store import History
    from battle.rules.board import Position
    from battle.rules.game import Game
    from battle.search_worker import SearchWorker
    from battle.ui.analysis.live_analysis import LiveAnalysis
    from battle.ui.art.theme import Fonts
    from battle.ui.art.tile_art import TileArt
    from battle.ui.editor.editor_scene import EditorScene
    from battle.ui.files.settings import Settings
    from battle.ui.play.match import Match
    from battle.ui.play.play_scene import PlayScene
    from battle.ui.review.review_scene import ReviewScene
    from battle.ui.scene import SceneStack
    from battle.ui.widgets.board_view import BoardView, Felt
    from battle.ui.widgets.layout import Layout
    from battle.ui.widgets.panel import PanelView


class Host(Protocol):
    layout: Layout
    """Where everything goes at the window's current size and text size."""
    fonts: Fonts
    manager: pygame_gui.UIManager
    stack: SceneStack
    settings: Settings
    solver: SearchWorker
    """The opponent's and the hints' searches, off the drawing thread."""
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
    def history(self) -> History:
        """The player's finished games and puzzle attempts: the puzzles, the statistics."""
        ...

    def start_match(self, match: Match, notice: str | None = None, kind: str = "info",
                    selected: int | None = None) -> PlayScene: ...

    def show_title(self, notice: str | None = None, kind: str = "info") -> None: ...

    def open_editor(self, position: Position | None = None) -> EditorScene: ...

    def open_review(self, game: Game, time_per_move: float | None = None) -> ReviewScene: ...

    def remember_folder(self, folder: Path) -> None: ...

    def save_settings(self) -> None: ...

    def take_notices(self) -> list[tuple[str, str]]: ...

    def set_ui_scale(self, value: float) -> bool: ...
