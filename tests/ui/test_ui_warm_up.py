"""The solver's warm-up in the window: it runs on the solver's thread while frames keep coming,
and a window closed before it finishes closes at once."""

from __future__ import annotations

import threading
import time

from battle.ui import app as app_module
from battle.ui.title.title_scene import PREPARING_CHECK
from tests import ui_harness as ui


def _drawn_text_near_the_corner(app) -> bool:  # noqa: ANN001 - App
    """Whether something light is drawn in the bottom right corner, where the note goes."""
    import pygame

    surface = pygame.display.get_surface()
    w, h = surface.get_size()
    corner = surface.subsurface(pygame.Rect(w - 220, h - 40, 210, 32))
    return any(sum(corner.get_at((x, y))[:3]) > 400 for x in range(0, 210, 2) for y in range(0, 32, 2))


def test_the_warm_up_never_holds_up_a_frame_and_a_close_does_not_wait_for_it(tmp_path, monkeypatch) -> None:
    """The warm-up is held until the test lets it go: every frame drawn and the close itself come
    while it still waits, so none of them waited for it, however slowly the machine draws."""
    release = threading.Event()
    started = threading.Event()
    finished = threading.Event()

    # stands in for a first run's 11-20 s compile
    def slow_prepare(closing: threading.Event, waited_on: threading.Event) -> None:
        started.set()
        release.wait(60)
        finished.set()

    monkeypatch.setattr(app_module, "prepare_solver", slow_prepare)
    try:
        with ui.session(tmp_path, monkeypatch) as new_app:
            app = new_app()
            assert started.wait(30), "the warm-up did not start when the window opened"
            for _ in range(30):
                app.step(dt=ui.DT)
            assert not finished.is_set(), "a frame waited for the warm-up"
            assert not app.solver.ready
            title = app.stack.top
            assert title is not None and title.next_frame_in() <= PREPARING_CHECK  # the note is looked after
            assert _drawn_text_near_the_corner(app)
            app.close()
            assert not finished.is_set(), "the close waited for the warm-up"
    finally:
        release.set()


def test_the_solver_is_ready_soon_after_the_window_opens_with_cached_kernels(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        deadline = time.monotonic() + 60
        while not app.solver.ready:
            assert time.monotonic() < deadline, "the solver never became ready"
            app.step(dt=ui.DT)
            time.sleep(0.01)
        app.step(dt=ui.DT)
        assert not _drawn_text_near_the_corner(app)  # the note is gone


def test_the_title_draws_the_boards_tiles_ahead_and_the_game_finds_them(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        title = app.stack.top
        assert title.next_frame_in() <= 1 / 30  # frames keep coming until the tiles are drawn
        for _ in range(120):  # four seconds of title frames
            app.step(dt=1 / 30)
        assert title.tiles.done(app.layout)
        drawn = dict(app.board_view._faces)
        assert len(drawn) == 54  # 27 kinds, each as it is and dimmed
        ui.click_button(app, title.widgets["start"])
        app.step(dt=ui.DT)
        assert app.stack.top is not title
        assert all(app.board_view._faces[key] is surface for key, surface in drawn.items())  # none drawn again
