"""Nothing is lost and nothing crashes: save, load, autosave and resume, corrupt files.

File dialogs are opened through the UI (Ctrl+S, Ctrl+O) and answered as a user
answers them: the path typed into the dialog's own path box, then its real OK
button clicked (or Enter pressed in the box), over real frames.
"""

from __future__ import annotations

import json

import pygame

from battle.rules.deal import deal
from battle.rules.game import Game
from battle.rules.notation import format_position
from battle.storage.saved_games import Shelf
from battle.ui.match import new_match
from battle.ui.play.play_scene import PlayScene
from battle.ui.title.title_scene import TitleScene
from tests import ui_harness as ui


def pick_path(app, scene, path) -> None:  # noqa: ANN001
    """Type ``path`` into the scene's open file dialog and press its OK button."""
    assert scene.files.is_open()
    ui.choose_file(app, scene.files.dialog, path)
    assert not scene.files.is_open()


def legacy_autosave_paths(tmp_path):  # noqa: ANN001, ANN201
    """Where the window kept its one autosave before the list of unfinished games."""
    folder = tmp_path / "data" / "mahjong-battle"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "autosave.mbg", folder / "autosave.json"


def test_save_and_load_through_the_dialogs(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(new_match(17, "hotseat", ("Ann", "Ben")))
        game = scene.match.game
        for _ in range(5):
            ui.play_move(app, game.position.legal_moves()[-1])
        ui.key(app, pygame.K_s, pygame.KMOD_CTRL)
        assert scene.files.is_open() and scene.files.purpose == "save"
        ui.key(app, pygame.K_u)  # keys go to the dialog, not the board
        assert game.ply == 5
        target = tmp_path / "saved"
        pick_path(app, scene, target)
        written = tmp_path / "saved.mbg"
        assert written.exists()
        assert Game.from_text(written.read_text()).moves == game.moves
        assert "Saved" in scene.status.text

        ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
        assert scene.files.purpose == "load"
        pick_path(app, scene, written)
        loaded = ui.play_scene(app)
        assert loaded is not scene
        assert loaded.match.game.moves == game.moves
        assert loaded.match.game.names == ("Ann", "Ben")


def test_a_game_saved_then_loaded_is_kept_once_and_a_finished_record_loaded_twice_is_filed_once(
    tmp_path, monkeypatch
) -> None:
    """Ctrl+S then Ctrl+O of the game in play leaves one unfinished game on the title, not two; a
    finished game's record opened twice with Ctrl+O is one finished game, not three."""
    shelf = Shelf(tmp_path / "data" / "mahjong-battle")
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(new_match(17, "hotseat", ("Ann", "Ben")))
        for _ in range(4):
            ui.play_move(app, scene.match.game.position.legal_moves()[-1])
        ui.key(app, pygame.K_s, pygame.KMOD_CTRL)
        pick_path(app, scene, tmp_path / "kept")
        ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
        pick_path(app, scene, tmp_path / "kept.mbg")
        loaded = ui.play_scene(app)
        ui.play_move(app, loaded.match.game.position.legal_moves()[-1])  # autosaved
        ui.settle(app)
        games, problems = shelf.unfinished()
        assert problems == [] and [saved.game.ply for saved in games] == [5], [g.describe() for g in games]

        finished = Game(deal(3), "Ann", "Ben")
        while not finished.is_over():
            finished.play(finished.position.legal_moves()[0])
        record = tmp_path / "over.mbg"
        record.write_text(finished.to_text())
        for _ in range(2):
            ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
            pick_path(app, ui.play_scene(app), record)
            ui.settle(app)
        assert len(list(shelf.finished_dir.glob("*.mbg"))) == 1


def test_a_record_loaded_against_the_solver_says_whom_the_solver_plays(tmp_path, monkeypatch) -> None:
    game = Game(deal(9), "Ann", "Ben")
    for _ in range(3):
        game.play(game.position.legal_moves()[0])
    path = tmp_path / "hotseat.mbg"
    path.write_text(game.to_text())
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(new_match(1, "solver", ("You", "You"), level="casual"))
        solver_side = scene.match.solver_side
        assert solver_side is not None
        ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
        pick_path(app, scene, path)
        loaded = ui.play_scene(app)
        assert loaded.match.game.moves == game.moves
        assert (loaded.match.solver_side, loaded.match.level) == (solver_side, "casual")
        assert f"The solver (casual) plays {game.names[solver_side - 1]}." in loaded.status.text


def test_a_position_file_loads(tmp_path, monkeypatch) -> None:
    position = deal(4)
    for move in position.legal_moves()[:1]:
        position.push(move)
    path = tmp_path / "study.mbp"
    path.write_text(format_position(position.copy()))
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(new_match(1, "hotseat", ("A", "B")))
        ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
        pick_path(app, scene, path)
        loaded = ui.play_scene(app)
        assert loaded.match.game.deal_number is None
        assert loaded.position.cells == position.cells
        assert loaded.position.to_move == position.to_move


def test_malformed_files_are_reported_not_raised(tmp_path, monkeypatch) -> None:
    bad_record = tmp_path / "bad.mbg"
    bad_record.write_text("player1: A\nplayer2: B\ndeal: 5\n1. a1-a2 (3)\n")
    bad_position = tmp_path / "bad.mbp"
    bad_position.write_text("to-move: 1\nscore: 0 0\n1m 2m\n")
    binary = tmp_path / "binary.mbg"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(new_match(1, "hotseat", ("A", "B")))
        for path, expected in ((bad_record, "move 1"), (bad_position, "expected 12 cells"), (binary, "not UTF-8")):
            ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
            pick_path(app, scene, path)
            assert ui.play_scene(app) is scene
            assert scene.status.kind == "error"
            assert path.name in scene.status.text and expected in scene.status.text, scene.status.text
        # a file chosen and then deleted before OK: the dialog stays; Esc closes it and says nothing
        missing = tmp_path / "missing.mbg"
        missing.write_text("")
        ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
        ui.fill_path_box(app, scene.files.dialog, missing)
        missing.unlink()
        ui.click(app, scene.files.dialog.ok_button.rect.center)
        assert scene.files.is_open()
        before = scene.status
        ui.key(app, pygame.K_ESCAPE)
        assert not scene.files.is_open() and scene.status == before


def test_resume_after_a_crash(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        first = new_app()
        scene = first.start_match(new_match(33, "solver", ("Me", "Me"), "casual", human_first=True))
        game = scene.match.game
        ui.play_move(first, game.position.legal_moves()[0])
        ui.run_until(first, lambda: game.ply == 2)
        ui.play_move(first, game.position.legal_moves()[0])
        moves = list(game.moves)
        # the process dies here: no close(), no settings saved; a new run starts
        second = new_app()
        title = second.stack.top
        assert isinstance(title, TitleScene) and title.resume is not None
        assert "resume" in title.widgets
        ui.click_button(second, title.widgets["resume"])
        resumed = ui.play_scene(second)
        assert resumed.match.game.moves == moves
        assert resumed.match.solver_side == 2 and resumed.match.level == "casual"
        ui.run_until(second, lambda: resumed.match.game.ply == 4)


def test_a_corrupt_autosave_is_set_aside(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        record, sidecar = legacy_autosave_paths(tmp_path)
        record.write_text("player1: A\nplayer2: B\ndeal: 1\n1. a1-b7 (5)\n")
        sidecar.write_text("{not json")
        app = new_app()
        title = app.stack.top
        assert isinstance(title, TitleScene)
        assert title.resume is None and "resume" not in title.widgets
        assert "could not be read" in title.status.text and "move 1" in title.status.text
        assert not record.exists()
        assert record.with_name("autosave.mbg.corrupt").exists()
        # a second corrupt file does not overwrite the first
        record.write_text("not a record\n")
        again = new_app()
        assert "could not be read" in again.stack.top.status.text
        assert record.with_name("autosave.mbg.2.corrupt").read_text() == "not a record\n"


def test_a_corrupt_sidecar_resumes_as_hot_seat(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        record, sidecar = legacy_autosave_paths(tmp_path)
        game = Game.new(8, "A", "B")
        game.play(game.position.legal_moves()[0])
        record.write_text(game.to_text())
        sidecar.write_text(json.dumps({"solver_side": 7, "level": "club"}))
        app = new_app()
        title = app.stack.top
        assert title.resume is not None and title.resume.solver_side is None
        assert title.resume.game.moves == game.moves
        assert "could not be read" in title.status.text and "solver_side" in title.status.text
        assert sidecar.with_name("autosave.json.corrupt").exists()


def test_settings_persist_and_a_corrupt_file_is_reported(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1000, 700))
        title = app.stack.top
        title.widgets["player1"].set_text("Xia")
        title.widgets["player2"].set_text("Yun")
        ui.click_button(app, title.widgets["start"])
        assert isinstance(app.stack.top, PlayScene)
        app.close()
        again = new_app(None)
        assert pygame.display.get_surface().get_size() == (1000, 700)
        assert (again.settings.player1, again.settings.player2) == ("Xia", "Yun")
        settings_file = tmp_path / "config" / "mahjong-battle" / "settings.json"
        assert json.loads(settings_file.read_text())["mode"] == "hotseat"
        settings_file.write_text("[1, 2")
        third = new_app()
        assert isinstance(third.stack.top, TitleScene)
        assert "Settings file" in third.stack.top.status.text
        assert settings_file.with_name("settings.json.corrupt").exists()
        assert third.settings.player1 == "Player 1"


def test_autosave_follows_every_move_and_undo(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(new_match(12, "hotseat", ("A", "B")))
        record = Shelf().record_path(scene.match.game_id)
        assert not record.exists()  # a fresh deal: nothing to lose yet
        ui.play_move(app, scene.position.legal_moves()[0])
        assert Game.from_text(record.read_text()).ply == 1
        ui.key(app, pygame.K_u)
        assert Game.from_text(record.read_text()).ply == 0
        assert json.loads(record.with_suffix(".json").read_text())["solver_side"] is None
