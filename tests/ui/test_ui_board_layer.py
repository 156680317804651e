"""The board's kept layer draws what a fresh drawing would, whatever the player did since.

``BoardView`` keeps the felt and the tiles lying on it as one layer while the board and the
selection stay the same. Here a hot-seat game is driven by real clicks, keys and resizes, and
after each the board the window shows is drawn twice: by the window's own view (its kept layer)
and by a new ``BoardView``, which keeps nothing yet. The two must match pixel for pixel, so a
layer kept past a change (a move, a pick, a take-back, a new size) fails here.
"""

from __future__ import annotations

import numpy as np
import pygame

from battle.rules.game import Game
from battle.ui.app import App
from battle.ui.match import Match
from battle.ui.widgets.board_view import BoardView
from tests import ui_harness as ui


def drawn_by(view: BoardView, app: App) -> np.ndarray:
    surface = pygame.Surface(app.layout.window)
    view.draw(surface, app.layout, ui.play_scene(app).board_state())
    return pygame.surfarray.array3d(surface)


def assert_kept_layer_is_fresh(app: App, step: str) -> None:
    kept = drawn_by(app.board_view, app)
    fresh = drawn_by(BoardView(app.art, app.fonts, app.felt), app)
    differing = int(np.count_nonzero(np.any(kept != fresh, axis=2)))
    assert differing == 0, f"after {step}: {differing} pixels differ from a fresh drawing"


def test_the_kept_layer_follows_picks_moves_takebacks_and_resizes(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        scene = app.start_match(Match(Game.new(3, "Alice", "Bob")))
        ui.settle(app, 2)
        assert_kept_layer_is_fresh(app, "the start")
        for number in range(4):
            first, second = scene.position.legal_moves()[number % 2]
            ui.click_cell(app, first)
            assert scene.selected == first
            assert_kept_layer_is_fresh(app, f"picking {first} (move {number + 1})")
            ui.click_cell(app, second)
            assert scene.selected is None
            assert_kept_layer_is_fresh(app, f"move {number + 1}, mid-animation")
            ui.settle(app)
            assert_kept_layer_is_fresh(app, f"move {number + 1}")
        assert len(scene.game.moves) == 4
        ui.key(app, pygame.K_u)
        ui.settle(app)
        assert len(scene.game.moves) == 3
        assert_kept_layer_is_fresh(app, "a take-back")
        for size in ((900, 640), (1600, 900)):
            app.step([pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size)], ui.DT)
            assert app.layout.window == size
            assert_kept_layer_is_fresh(app, f"a resize to {size}")
