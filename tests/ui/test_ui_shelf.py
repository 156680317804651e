"""The window's unfinished games as a user meets them: the game named by the next new-game
prompt, and a game open in another copy of the program (a terminal here)."""

from __future__ import annotations

import pygame

from battle.ui.choice_scene import ChoiceScene
from battle.ui.play.play_scene import PlayScene
from battle.ui.title.title_scene import TitleScene
from tests import ui_harness as ui


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
