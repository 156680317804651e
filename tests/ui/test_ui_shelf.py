"""The window's unfinished games as a user meets them: the game named by the next new-game
prompt, and a game open in another copy of the program (a terminal here)."""

from __future__ import annotations

import os

import pygame

from battle.rules.board import move_name
from battle.rules.game import Game
from battle.ui.choice_scene import ChoiceScene
from battle.ui.play.play_scene import PlayScene
from battle.ui.title.title_scene import TitleScene
from tests import ui_harness as ui
from tests.cli.terminal_process import TerminalProcess, run


def _start(app, deal: int) -> None:  # noqa: ANN001
    title = app.stack.top
    assert isinstance(title, TitleScene)
    title.widgets["deal"].set_text(str(deal))
    ui.click_button(app, title.widgets["start"])


def test_after_keep_it_start_new_the_next_prompt_names_the_game_just_left(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        _start(app, 6)
        first = ui.play_scene(app)
        ui.play_move(app, first.position.legal_moves()[0])
        ui.key(app, pygame.K_n)
        _start(app, 7)
        prompt = app.stack.top
        assert isinstance(prompt, ChoiceScene)
        ui.click_button(app, prompt.buttons["keep"])
        second = ui.play_scene(app)
        assert second.match.game.deal_number == 7
        ui.play_move(app, second.position.legal_moves()[0])
        ui.key(app, pygame.K_n)
        title = app.stack.top
        assert isinstance(title, TitleScene) and title.others[0].game.deal_number == 6
        ui.click_button(app, title.widgets["other:0"])  # back to the game kept for later
        resumed = ui.play_scene(app)
        assert resumed.match.game.deal_number == 6
        ui.play_move(app, resumed.position.legal_moves()[0])
        ui.key(app, pygame.K_n)
        _start(app, 8)
        prompt = app.stack.top
        assert isinstance(prompt, ChoiceScene)
        assert "deal 6" in prompt.text and "deal 7" not in prompt.text, prompt.text


def _unfinished_in_a_terminal(home) -> None:  # noqa: ANN001
    game = Game.new(5)
    made = run(["play", "--deal", "5"], home, f"{move_name(game.position.legal_moves()[0])}\nquit\n")
    assert made.returncode == 0, made.stderr


def test_a_game_open_in_a_terminal_shows_in_use_at_the_title_and_does_not_open(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        _unfinished_in_a_terminal(tmp_path)
        terminal = TerminalProcess(["play", "--resume"], tmp_path)
        terminal.wait_for("to move> ")
        app = new_app()
        title = app.stack.top
        assert isinstance(title, TitleScene) and title.resume is not None
        assert title.widgets["resume"].text.startswith("In use: ")
        ui.click_button(app, title.widgets["resume"])
        assert app.stack.top is title
        assert f"open in another copy of Mahjong Battle (pid {terminal.process.pid})" in title.status.text
        # a new game does not ask about the game the terminal plays
        _start(app, 8)
        assert isinstance(app.stack.top, PlayScene)
        terminal.type("quit")
        assert terminal.finish()[0] == 0
        ui.key(app, pygame.K_n)
        title = app.stack.top
        assert isinstance(title, TitleScene)
        assert title.widgets["resume"].text.startswith("Resume: ")
        ui.click_button(app, title.widgets["resume"])
        assert ui.play_scene(app).match.game.deal_number == 5


def test_a_terminal_is_refused_the_game_the_window_plays(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        _unfinished_in_a_terminal(tmp_path)
        app = new_app()
        ui.click_button(app, app.stack.top.widgets["resume"])
        scene = ui.play_scene(app)
        ui.play_move(app, scene.position.legal_moves()[0])
        refused = run(["play", "--resume"], tmp_path, "quit\n")
        assert refused.returncode == 2
        assert f"this game is open in another copy of Mahjong Battle (pid {os.getpid()})" in refused.stderr
        ui.key(app, pygame.K_n)  # back at the title the window lets the game go
        resumed = run(["play", "--resume"], tmp_path, "quit\n")
        assert resumed.returncode == 0, resumed.stderr
        assert "The game is kept" in resumed.stdout
