"""The board's kept layer and the panel's kept pixels draw what a fresh drawing would.

``BoardView`` keeps the felt and the tiles lying on it as one layer while the board and the
selection stay the same; ``PanelView`` keeps its last drawing while what it shows stays the same.
Here a hot-seat game is driven by real clicks, keys and resizes, and after each the frame is drawn
twice: by the window's own views (what they kept) and by new views, which keep nothing yet. The
two must match pixel for pixel, so anything kept past a change (a move, a pick, a take-back, a
hovered move, a new size, another language) fails here.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pygame

from battle.i18n import current_language, set_language
from battle.rules.game import Game
from battle.ui.app import App
from battle.ui.match import Match
from battle.ui.widgets.board_view import BoardView
from battle.ui.widgets.layout import move_entry_rect
from battle.ui.widgets.panel import PanelView
from tests import ui_harness as ui


def frame_by(board_view: BoardView, panel_view: PanelView, app: App, surface: pygame.Surface) -> np.ndarray:
    scene = ui.play_scene(app)
    board_view.draw(surface, app.layout, scene.board_state())
    panel_view.draw(surface, app.layout.panel, scene.panel_info(), app.layout.scale)
    return pygame.surfarray.array3d(surface)


def assert_kept_drawing_is_fresh(app: App, step: str) -> None:
    """The board and the panel drawn again on the window by the window's own views (from what they
    kept through the frames the step made) against new views' drawing on a new surface."""
    kept = frame_by(app.board_view, app.panel_view, app, pygame.display.get_surface())
    fresh_views = (BoardView(app.art, app.fonts, app.felt), PanelView(app.fonts))
    fresh = frame_by(*fresh_views, app, pygame.Surface(app.layout.window))
    differing = int(np.count_nonzero(np.any(kept != fresh, axis=2)))
    assert differing == 0, f"after {step}: {differing} pixels differ from a fresh drawing"


def test_what_the_window_keeps_follows_picks_moves_hovers_takebacks_languages_and_resizes(
    tmp_path,  # noqa: ANN001
    monkeypatch,  # noqa: ANN001
) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        scene = app.start_match(Match(Game.new(3, "Alice", "Bob")))
        ui.settle(app, 2)
        assert_kept_drawing_is_fresh(app, "the start")
        for number in range(4):
            first, second = scene.position.legal_moves()[number % 2]
            ui.click_cell(app, first)
            assert scene.selected == first
            assert_kept_drawing_is_fresh(app, f"picking {first} (move {number + 1})")
            ui.click_cell(app, second)
            assert scene.selected is None
            assert_kept_drawing_is_fresh(app, f"move {number + 1}, its points in flight")
            ui.settle(app)
            assert_kept_drawing_is_fresh(app, f"move {number + 1}")
        entry = move_entry_rect(app.layout.panel, 1, 0)
        assert entry is not None
        app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=entry.center, rel=(0, 0), buttons=(0, 0, 0))], ui.DT)
        assert scene.panel_info().hover == 1
        assert_kept_drawing_is_fresh(app, "hovering move 2")
        ui.key(app, pygame.K_u)
        ui.settle(app)
        assert len(scene.game.moves) == 3
        assert_kept_drawing_is_fresh(app, "a take-back")
        before = current_language()
        try:
            set_language("de")
            ui.settle(app, 2)
            assert_kept_drawing_is_fresh(app, "German")
        finally:
            set_language(before)
        for size in ((900, 640), (1600, 900)):
            app.step([pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size)], ui.DT)
            assert app.layout.window == size
            assert_kept_drawing_is_fresh(app, f"a resize to {size}")


def test_a_thinking_card_moves_over_the_kept_panel_as_a_fresh_drawing_would(
    tmp_path,  # noqa: ANN001
    monkeypatch,  # noqa: ANN001
) -> None:
    """While a player thinks, the panel's kept pixels are blitted and the card's words, seconds and
    spinner drawn over them each frame: frame after frame (the clock moving, the first run's compile,
    its time limit, the thinking ending) the result is what a new view draws."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        app.start_match(Match(Game.new(3, "Alice", "Bob")))
        ui.settle(app, 2)
        scene = ui.play_scene(app)
        base = scene.panel_info()
        bob = base.players[1]
        board = pygame.Surface(app.layout.window)
        BoardView(app.art, app.fonts, app.felt).draw(board, app.layout, scene.board_state())
        kept_view, surface = PanelView(app.fonts), pygame.display.get_surface()
        frames = [(None, False, None)] + [(0.1 * step, False, None) for step in range(8)]
        frames += [(1.0, True, None), (2.0, True, None), (2.5, False, 4.0), (2.7, False, 4.0), (None, False, None)]
        for index, (thinking, preparing, limit) in enumerate(frames):
            player = replace(bob, thinking=thinking, preparing=preparing, limit=limit, to_move=True)
            info = replace(base, players=(base.players[0], player), now=0.37 * index)
            surface.blit(board, (0, 0))  # as the window draws a frame: the board, then the panel over it
            kept_view.draw(surface, app.layout.panel, info, app.layout.scale)
            fresh = board.copy()
            PanelView(app.fonts).draw(fresh, app.layout.panel, info, app.layout.scale)
            differing = int(
                np.count_nonzero(np.any(pygame.surfarray.array3d(surface) != pygame.surfarray.array3d(fresh), axis=2))
            )
            assert differing == 0, f"frame {index} ({thinking} s, preparing {preparing}): {differing} pixels differ"
