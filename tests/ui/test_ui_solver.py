"""Playing against the solver in the window: its moves come from a background thread.

The window must keep drawing while the solver thinks; the tests step frames
until the reply arrives, as the real loop would.
"""

from __future__ import annotations

import random
import time

import pygame

from battle.rules.tiles import TOTAL_POINTS
from battle.ui.match import new_match
from battle.ui.play.result_scene import ResultScene
from battle.ui.title.title_scene import TitleScene
from tests import ui_harness as ui


def test_a_game_against_the_beginner_is_played_to_the_end(tmp_path, monkeypatch) -> None:
    rng = random.Random(11)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        title = app.stack.top
        assert isinstance(title, TitleScene)
        title.set_mode("solver")
        title.form.level = "beginner"
        title.widgets["deal"].set_text("21")
        title.widgets["human_name"].set_text("Tester")
        ui.click_button(app, title.widgets["start"])
        scene = ui.play_scene(app)
        match = scene.match
        assert match.solver_side == 2 and match.level == "beginner"
        assert match.game.names == ("Tester", "Solver (beginner)")
        frames_while_thinking = 0
        while not match.game.is_over():
            if match.human_to_move():
                move = rng.choice(match.position.legal_moves())
                ui.play_move(app, move)
                assert match.game.moves[-1] == move
            else:
                ply = match.game.ply
                # Real time must pass for the solver's thread (the first search may
                # even compile its kernels), so wait by the clock, not by frames.
                deadline = time.monotonic() + 120
                while match.game.ply == ply:
                    app.step([], ui.DT)
                    time.sleep(0.002)
                    frames_while_thinking += 1
                    # clicks while the solver thinks are refused with a message
                    if frames_while_thinking == 3:
                        ui.click_cell(app, match.position.free_cells()[0])
                        assert "thinking" in scene.status.text
                    assert time.monotonic() < deadline, "the solver's reply never came"
        assert frames_while_thinking > 0
        scores = match.position.scores
        assert scores[0] + scores[1] + match.position.points_on_board() == TOTAL_POINTS
        ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=5)


def test_undo_against_the_solver_takes_back_the_reply_too(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(new_match(5, "solver", ("Me", "Me"), "beginner", human_first=True))
        match = scene.match
        first = match.position.legal_moves()[0]
        ui.play_move(app, first)
        ui.run_until(app, lambda: match.game.ply == 2)
        ui.key(app, pygame.K_u)
        assert match.game.ply == 0
        assert "Took back" in scene.status.text
        ui.key(app, pygame.K_r)
        assert match.game.ply == 2
        assert match.game.moves[0] == first
        # undo while the solver is thinking: only the human's move comes back, the search stops
        ui.key(app, pygame.K_u)
        ui.key(app, pygame.K_r)
        second = match.position.legal_moves()[-1]
        ui.play_move(app, second)
        assert match.game.ply == 3
        game_mode = scene.game_mode
        assert game_mode.move_job is not None or game_mode.solver_move is not None  # thinking, or about to move
        assert scene.panel_info().players[1].thinking is not None
        ui.key(app, pygame.K_u)
        assert match.game.ply == 2 and not app.solver.busy
        assert game_mode.move_job is None and game_mode.solver_move is None
        assert match.human_to_move()


def test_the_solver_moves_first_when_it_starts(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(new_match(9, "solver", ("Me", "Me"), "beginner", human_first=False))
        assert scene.match.solver_side == 1
        app.step([], ui.DT)
        assert scene.panel_info().players[0].thinking is not None
        ui.run_until(app, lambda: scene.match.game.ply == 1)
        # nothing of the human's to take back yet
        ui.key(app, pygame.K_u)
        assert scene.match.game.ply == 1
        assert "Nothing to take back" in scene.status.text


def test_hint_is_a_legal_move_and_is_highlighted(tmp_path, monkeypatch) -> None:
    from battle.ui.play import (
        thinking,  # the hint's search limits, shortened: this checks the plumbing, not the solver's strength
    )

    monkeypatch.setattr(thinking, "HINT_QUICK_SECONDS", 0.3)
    monkeypatch.setattr(thinking, "HINT_SECONDS", 0.5)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(new_match(3, "hotseat", ("A", "B")))
        game = scene.match.game
        for _ in range(20):
            ui.play_move(app, game.position.legal_moves()[0])
        ui.key(app, pygame.K_h)
        assert scene.status.busy
        ui.run_until(app, lambda: scene.game_mode.hint is not None, timeout=20)
        assert scene.game_mode.hint.move in game.position.legal_moves()
        assert scene.board_state().hint == scene.game_mode.hint.move
        assert "Hint" in scene.status.text
        # playing any move clears the hint
        ui.play_move(app, scene.game_mode.hint.move)
        assert scene.game_mode.hint is None and game.ply == 21
