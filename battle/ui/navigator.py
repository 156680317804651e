"""The navigator: opens the window's screens by intent, the one table of who opens what.

A screen that leaves for another asks the window by intent (``Host.start_match``,
``Host.open_review``, ...) and gets the new screen back as a plain ``Scene``; the window
hands the intent to this navigator, the only module that names the screens. So no
screen imports another to open it, and the ``Host`` protocol names none of them.

The title and the game screen are imported with this module: every window shows one
of them at once. The others load when first opened, which keeps the first frame quick.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from battle.ui.play.autosave import let_go
from battle.ui.play.play_scene import PlayScene
from battle.ui.title.title_scene import TitleScene

if TYPE_CHECKING:
    from battle.rules.board import Position
    from battle.rules.game import Game
    from battle.ui.editor.editor_scene import EditorScene
    from battle.ui.help.help_scene import HelpScene
    from battle.ui.match import Match
    from battle.ui.online.setup_scene import OnlineSetupScene
    from battle.ui.puzzles.puzzle_scene import PuzzleScene
    from battle.ui.review.review_scene import ReviewScene
    from battle.ui.scene import Host, Scene
    from battle.ui.stats.stats_scene import StatsScene

S = TypeVar("S", bound="Scene")


class Navigator:
    """Opens each screen for its intent on ``app``'s scene stack and returns it.

    ``show_title`` and ``start_match`` replace every screen; the others open over the
    current one, whose Back returns to it.
    """

    def __init__(self, app: Host) -> None:
        self.app = app

    def show_title(self, notice: str | None = None, kind: str = "info") -> TitleScene:
        """The title screen, alone; the local game it replaces becomes the title's Rematch."""
        app = self.app
        app.solver.cancel()
        let_go()  # at the title no game is in play: another copy may open the one left
        for scene in app.stack.scenes:
            if isinstance(scene, PlayScene) and scene.local:
                app.last_match = scene.match
        title = TitleScene(app, notice, kind)
        app.stack.replace_all(title)
        return title

    def start_match(
        self, match: Match, notice: str | None = None, kind: str = "info", *, analyse: bool = False
    ) -> PlayScene:
        """The game screen for a match (new, resumed, loaded or a rematch), autosaved at once;
        with ``analyse``, analysis mode is on from the start (a position to study)."""
        self.app.solver.cancel()
        scene = PlayScene(self.app, match, notice, kind)
        self.app.stack.replace_all(scene)
        scene.autosave()
        if analyse:
            scene.set_analysis(True)
        return scene

    def open_editor(self, position: Position | None = None) -> EditorScene:
        """The position editor, empty or with ``position``."""
        from battle.ui.editor.editor_scene import EditorScene

        return self._push(EditorScene(self.app, position))

    def open_review(self, game: Game, time_per_move: float | None = None) -> ReviewScene:
        """The review of ``game``, graded on a background thread."""
        from battle.ui.review.review_scene import ReviewScene

        return self._push(ReviewScene(self.app, game, time_per_move))

    def open_online(self) -> OnlineSetupScene:
        """The online set-up form: host, join or resume a game over the network."""
        from battle.ui.online.setup_scene import OnlineSetupScene

        return self._push(OnlineSetupScene(self.app))

    def open_puzzles(self) -> PuzzleScene:
        from battle.ui.puzzles.puzzle_scene import PuzzleScene

        return self._push(PuzzleScene(self.app))

    def open_stats(self) -> StatsScene:
        from battle.ui.stats.stats_scene import StatsScene

        return self._push(StatsScene(self.app))

    def open_help(self) -> HelpScene:
        """The rules and keys, over any screen."""
        from battle.ui.help.help_scene import HelpScene

        return self._push(HelpScene(self.app))

    def _push(self, scene: S) -> S:
        self.app.stack.push(scene)
        return scene
