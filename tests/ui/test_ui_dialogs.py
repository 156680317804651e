"""Every file dialog does what its OK says, pressed the way a player presses it.

Each test opens the dialog with the screen's real button or shortcut, types into
the dialog's own path box and clicks its real OK (or presses Enter there), so
that pygame_gui itself turns the clicks into the press, over real frames; then
it checks the file on disk and the status line.
"""

from __future__ import annotations

import datetime
import os
import stat

import pygame
import pytest

from battle.rules.deal import deal
from battle.rules.game import Game
from battle.rules.notation import format_position, parse_position
from battle.storage.saved_games import Shelf
from battle.ui.choice_scene import ChoiceScene
from battle.ui.editor.editor_scene import EditorScene
from battle.ui.match import new_match
from battle.ui.play.play_scene import PlayScene
from battle.ui.review.review_scene import ReviewScene
from battle.ui.title.title_scene import TitleScene
from tests import ui_harness as ui


def played_game(app, deal_number: int = 5, moves: int = 4) -> PlayScene:  # noqa: ANN001
    scene = app.start_match(new_match(deal_number, "hotseat", ("Ann", "Ben")))
    for _ in range(moves):
        ui.play_move(app, scene.position.legal_moves()[-1])
    return scene


def record_file(tmp_path, name: str = "game.mbg", moves: int = 3) -> tuple:  # noqa: ANN001
    game = Game.new(9, "Ann", "Ben")
    for _ in range(moves):
        game.play(game.position.legal_moves()[0])
    path = tmp_path / name
    path.write_text(game.to_text())
    return path, game


@pytest.mark.parametrize("enter", [False, True], ids=["ok-button", "enter-in-path-box"])
def test_the_save_button_writes_the_game_and_says_so(tmp_path, monkeypatch, enter) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = played_game(app)
        ui.click_button(app, scene.buttons["save"])
        assert scene.files.is_open()
        target = tmp_path / "mine.mbg"
        ui.choose_file(app, scene.files.dialog, target, enter=enter)
        assert Game.from_text(target.read_text()).moves == scene.game.moves
        assert scene.status.text.startswith("Saved mine.mbg"), scene.status.text
        assert not scene.files.is_open()


def test_ctrl_s_offers_a_dated_name_that_two_games_of_one_deal_do_not_share(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        app.settings.last_dir = str(tmp_path)
        scene = played_game(app)
        before = datetime.date.today()
        ui.key(app, pygame.K_s, pygame.KMOD_CTRL)
        first = scene.files.dialog.current_file_path
        days = {before, datetime.date.today()}  # the day the dialog opened, whichever side of midnight
        ui.click(app, scene.files.dialog.ok_button.rect.center)
        ui.settle(app, 2)
        assert first.exists() and first.name in {f"deal-5-{day.isoformat()}.mbg" for day in days}
        assert f"Saved {first.name}" in scene.status.text
        other = played_game(app, 5, 2)
        ui.key(app, pygame.K_s, pygame.KMOD_CTRL)
        second = other.files.dialog.current_file_path
        new_day = datetime.date.today() not in days  # past midnight the day's first name is free again
        assert second != first and second.name.startswith("deal-5-") and (second.name.endswith("-2.mbg") or new_day)
        ui.click(app, other.files.dialog.ok_button.rect.center)
        ui.settle(app, 2)
        assert Game.from_text(first.read_text()).ply == 4 and Game.from_text(second.read_text()).ply == 2


def test_saving_over_a_file_asks_first_and_keeps_its_permissions(tmp_path, monkeypatch) -> None:
    existing = tmp_path / "kept.mbg"
    existing.write_text("not yet a game\n")
    os.chmod(existing, 0o640)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = played_game(app)
        ui.key(app, pygame.K_s, pygame.KMOD_CTRL)
        ui.choose_file(app, scene.files.dialog, existing)
        question = scene.files.question
        assert question is not None and question.alive()
        assert existing.read_text() == "not yet a game\n"  # nothing written before the answer
        ui.click_button(app, question.cancel_button)
        ui.settle(app, 2)
        assert existing.read_text() == "not yet a game\n" and not scene.files.is_open()

        ui.key(app, pygame.K_s, pygame.KMOD_CTRL)
        ui.choose_file(app, scene.files.dialog, existing)
        ui.click_button(app, scene.files.question.confirm_button)
        ui.settle(app, 2)
        assert Game.from_text(existing.read_text()).moves == scene.game.moves
        assert stat.S_IMODE(existing.stat().st_mode) == 0o640
        assert "Saved kept.mbg" in scene.status.text


def test_cancel_and_esc_do_nothing_and_say_nothing(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        app.settings.last_dir = str(tmp_path)
        scene = played_game(app)
        before = scene.status
        ui.key(app, pygame.K_s, pygame.KMOD_CTRL)
        ui.click_button(app, scene.files.dialog.cancel_button)
        ui.key(app, pygame.K_s, pygame.KMOD_CTRL)
        ui.key(app, pygame.K_ESCAPE)
        assert not scene.files.is_open()
        assert scene.status == before
        assert not list(tmp_path.glob("*.mbg"))
        ui.key(app, pygame.K_u)  # the board has the keys again
        assert scene.game.ply == 3


def test_the_load_button_loads_a_record(tmp_path, monkeypatch) -> None:
    path, game = record_file(tmp_path)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = played_game(app)
        ui.click_button(app, scene.buttons["load"])
        ui.choose_file(app, scene.files.dialog, path, enter=True)
        loaded = ui.play_scene(app)
        assert loaded is not scene and loaded.game.moves == game.moves
        assert "Loaded the game record game.mbg" in loaded.status.text


def test_the_list_leaves_out_hidden_entries_and_a_hidden_folder_opens_by_its_path(tmp_path, monkeypatch) -> None:
    home = tmp_path / "home"
    for folder in (".cache", ".config", ".local", "games"):
        (home / folder).mkdir(parents=True)
    record_file(home, "a.mbg")
    record_file(home, ".b.mbg")
    inside, game = record_file(home / ".config", "kept.mbg")
    monkeypatch.setenv("HOME", str(home))  # the dialog opens in the home folder
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = played_game(app)
        ui.click_button(app, scene.buttons["load"])
        dialog = scene.files.dialog
        assert [item["text"] for item in dialog.file_selection_list.item_list] == ["games", "a.mbg"]
        ui.fill_path_box(app, dialog, home / ".config")
        ui.key(app, pygame.K_RETURN)
        assert [item["text"] for item in dialog.file_selection_list.item_list] == ["kept.mbg"]
        ui.choose_file(app, dialog, inside, enter=True)
        assert ui.play_scene(app).game.moves == game.moves


def test_the_titles_load_and_review_buttons_open_what_was_chosen(tmp_path, monkeypatch) -> None:
    path, game = record_file(tmp_path)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        title = app.stack.top
        assert isinstance(title, TitleScene)
        ui.click_button(app, title.widgets["review"])
        ui.choose_file(app, title.files.dialog, path)
        review = app.stack.top
        assert isinstance(review, ReviewScene) and review.game.moves == game.moves

        app.show_title()
        title = app.stack.top
        ui.click_button(app, title.widgets["load"])
        ui.choose_file(app, title.files.dialog, path)
        loaded = ui.play_scene(app)
        assert loaded.game.moves == game.moves


def test_the_editors_save_and_load_buttons(tmp_path, monkeypatch) -> None:
    position = deal(4)
    position.push(position.legal_moves()[0])
    source = tmp_path / "source.mbp"
    source.write_text(format_position(position))
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        editor = app.open_editor()
        assert isinstance(editor, EditorScene)
        ui.click_button(app, editor.widgets["load"])
        ui.choose_file(app, editor.files.dialog, source)
        assert editor.model.position().cells == position.cells
        assert "Loaded source.mbp" in editor.status().text

        ui.click_button(app, editor.widgets["save"])
        target = tmp_path / "copy"
        ui.choose_file(app, editor.files.dialog, target, enter=True)
        written = tmp_path / "copy.mbp"
        assert parse_position(written.read_text()).cells == position.cells
        assert editor.status().text.startswith("Saved copy.mbp")


def test_a_new_game_asks_about_the_unfinished_one(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        first = played_game(app, 5, 3)
        first_id = first.match.game_id
        ui.key(app, pygame.K_n)
        title = app.stack.top
        ui.click_button(app, title.widgets["start"])
        question = app.stack.top
        assert isinstance(question, ChoiceScene) and "deal 5, Ann vs Ben, 3 moves" in question.text

        ui.click_button(app, question.buttons["resume"])  # Resume it
        assert ui.play_scene(app).match.game_id == first_id

        ui.key(app, pygame.K_n)
        ui.click_button(app, app.stack.top.widgets["start"])
        ui.click_button(app, app.stack.top.buttons["keep"])  # Keep it and start a new one
        second = ui.play_scene(app)
        assert second.match.game_id != first_id
        ui.play_move(app, second.position.legal_moves()[0])
        games, _ = Shelf().unfinished()
        assert {saved.game_id for saved in games} == {first_id, second.match.game_id}

        ui.key(app, pygame.K_n)
        title = app.stack.top
        assert "other:0" in title.widgets  # the kept game is listed under the newest
        ui.click_button(app, title.widgets["start"])
        question = app.stack.top
        assert "1 move" in question.text  # asks about the newest, not the kept one
        ui.key(app, pygame.K_TAB)
        ui.key(app, pygame.K_TAB)
        ui.key(app, pygame.K_RETURN)  # Discard it, from the keyboard
        games, _ = Shelf().unfinished()
        assert [saved.game_id for saved in games] == [first_id]

        ui.key(app, pygame.K_n)
        title = app.stack.top
        ui.click_button(app, title.widgets["start"])
        assert isinstance(app.stack.top, PlayScene)  # a kept game is not asked about again


def test_a_failed_autosave_stays_on_screen_until_a_save_works(tmp_path, monkeypatch) -> None:
    import battle.storage.saved_games as saved_games

    real_write = saved_games.write_atomically

    def full_disk(path, text) -> None:  # noqa: ANN001
        raise OSError(28, "No space left on device")

    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = played_game(app, 5, 2)
        record = Shelf().record_path(scene.match.game_id)
        monkeypatch.setattr(saved_games, "write_atomically", full_disk)
        for _ in range(3):
            ui.play_move(app, scene.position.legal_moves()[-1])
        assert "No space left on device" in (scene.save_problem or "")
        assert "Autosave failed" not in scene.status.text  # the move's own message is in the status line
        alert = pygame.display.get_surface().subsurface(alert_rect(app)).copy()
        assert Game.from_text(record.read_text()).ply == 2

        monkeypatch.setattr(saved_games, "write_atomically", real_write)
        ui.play_move(app, scene.position.legal_moves()[-1])
        assert scene.save_problem is None
        assert Game.from_text(record.read_text()).ply == 6
        calm = pygame.display.get_surface().subsurface(alert_rect(app)).copy()
        assert pygame.image.tobytes(alert, "RGB") != pygame.image.tobytes(calm, "RGB")


def alert_rect(app) -> pygame.Rect:  # noqa: ANN001
    mat = app.layout.mat
    return pygame.Rect(mat.x + mat.w // 4, mat.y, mat.w // 2, round(30 * app.layout.scale))


def test_the_dialogs_work_from_the_keyboard_alone(tmp_path, monkeypatch) -> None:
    path, game = record_file(tmp_path)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        title = app.stack.top
        ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
        assert title.files.is_open()
        ui.key(app, pygame.K_a, pygame.KMOD_CTRL)  # the path box has the keys from the start
        ui.type_text(app, str(path))
        ui.key(app, pygame.K_RETURN)
        scene = ui.play_scene(app)
        assert scene.game.moves == game.moves

        ui.play_move(app, scene.position.legal_moves()[0])
        for answer, expected in ((pygame.K_RETURN, game.moves), (pygame.K_TAB, scene.game.moves)):
            ui.key(app, pygame.K_s, pygame.KMOD_CTRL)
            ui.key(app, pygame.K_a, pygame.KMOD_CTRL)
            ui.type_text(app, str(path))
            ui.key(app, pygame.K_RETURN)
            assert scene.files.question is not None and scene.files.question.alive()
            if answer == pygame.K_TAB:  # from Cancel, where the question starts, to Overwrite
                ui.key(app, pygame.K_TAB)
            ui.key(app, pygame.K_RETURN)
            ui.settle(app, 2)
            assert not scene.files.is_open()
            assert Game.from_text(path.read_text()).moves == expected
