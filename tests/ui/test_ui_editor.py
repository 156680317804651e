"""The position editor, headless: placing tiles by clicks, live validity, files, and leaving for a game.

Clicks go where the palette and the board are drawn (``editor_layout``,
``layout.cell_center``), so these tests also check that what is shown where is
what a click there changes.
"""

from __future__ import annotations

import pygame
import pygame_gui
import pytest

from battle.rules.board import Position, parse_cell
from battle.rules.deal import deal
from battle.rules.notation import parse_position
from battle.rules.tiles import EMPTY, parse_kind
from battle.ui.editor.editor_layout import editor_layout, kind_at
from battle.ui.editor.editor_model import EditorModel
from battle.ui.editor.editor_scene import EditorScene
from battle.ui.match import new_match
from battle.ui.play.play_scene import PlayScene
from battle.ui.title.title_scene import TitleScene
from battle.ui.widgets.layout import cell_center, compute_layout
from tests import ui_harness as ui


def open_editor(new_app):  # noqa: ANN001, ANN201
    app = new_app()
    title = app.stack.top
    assert isinstance(title, TitleScene)
    ui.click_button(app, title.widgets["edit"])
    editor = app.stack.top
    assert isinstance(editor, EditorScene)
    return app, editor


def pick(app, editor: EditorScene, kind: str) -> None:  # noqa: ANN001
    rect = editor.geometry().palette[parse_kind(kind)]
    ui.click(app, rect.center)
    assert editor.kind == parse_kind(kind)


def place(app, cells: str) -> None:  # noqa: ANN001
    for name in cells.split():
        ui.click_cell(app, parse_cell(name))


def erase(app, cells: str) -> None:  # noqa: ANN001
    for name in cells.split():
        ui.click(app, cell_center(app.layout, parse_cell(name)), button=3)


def enabled(editor: EditorScene, name: str) -> bool:
    return editor.widgets[name].is_enabled


def pick_path(app, editor: EditorScene, path) -> None:  # noqa: ANN001
    """Type ``path`` into the editor's open file dialog and press its OK button."""
    assert editor.files.is_open()
    ui.choose_file(app, editor.files.dialog, path)


def test_a_gap_and_a_fifth_copy_are_refused_with_the_reason(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, editor = open_editor(new_app)
        assert not enabled(editor, "play") and not enabled(editor, "analyse")  # an empty board has no pair
        pick(app, editor, "7p")
        place(app, "a1 b1")
        assert editor.model.cells[parse_cell("a1")] == parse_kind("7p")
        assert editor.status().kind == "good" and enabled(editor, "play") and enabled(editor, "analyse")

        place(app, "a3")
        status = editor.status()
        assert status.kind == "error" and "column a has a gap between a1 and a3" in status.text
        assert not enabled(editor, "play") and not enabled(editor, "analyse") and not enabled(editor, "save")
        assert parse_cell("a2") in editor.model.problem_cells()
        erase(app, "a3")
        assert editor.status().kind == "good" and enabled(editor, "play")

        place(app, "c1 d1 e1")
        status = editor.status()
        assert "a fifth 7p at e1" in status.text and not enabled(editor, "play")
        assert editor.model.count(parse_kind("7p")) == 5
        ui.click_button(app, editor.widgets["eraser"])
        assert editor.kind is None
        place(app, "d1")
        assert editor.model.cells[parse_cell("d1")] == EMPTY
        assert enabled(editor, "play") and enabled(editor, "analyse")
        app.step([], ui.DT)  # draws with marks and counts


def test_scores_mover_and_deal_fill(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, editor = open_editor(new_app)
        editor.widgets["deal"].set_text("42")
        ui.click_button(app, editor.widgets["fill"])
        assert editor.model.cells == deal(42).cells
        editor.widgets["score1"].set_text("31")
        app.step(
            [pygame.event.Event(pygame_gui.UI_TEXT_ENTRY_CHANGED, text="31", ui_element=editor.widgets["score1"])],
            ui.DT,
        )
        assert editor.model.scores == (31, 0)
        ui.click_button(app, editor.widgets["to_move"])
        assert editor.model.to_move == 2 and "Player 2" in editor.widgets["to_move"].text
        ui.click_button(app, editor.widgets["clear"])
        assert all(kind == EMPTY for kind in editor.model.cells)


def test_save_and_load_round_trip(tmp_path, monkeypatch) -> None:
    start = deal(7)
    for move in start.legal_moves()[:3]:
        if move in start.legal_moves():
            start.push(move)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        editor = app.open_editor(start.copy())
        editor.model.set_score(1, 12)
        editor.model.to_move = 2
        ui.key(app, pygame.K_s, pygame.KMOD_CTRL)
        assert editor.files.purpose == "save_position"
        pick_path(app, editor, tmp_path / "study")
        written = tmp_path / "study.mbp"
        saved = parse_position(written.read_text())
        assert saved.cells == start.cells and saved.to_move == 2 and saved.scores == [12, start.scores[1]]
        assert "Saved" in editor.status().text

        ui.click_button(app, editor.widgets["clear"])
        ui.click_button(app, editor.widgets["load"])
        assert editor.files.purpose == "load_position"
        pick_path(app, editor, written)
        assert editor.model == EditorModel.from_position(saved)
        assert editor.widgets["score1"].get_text() == "12"  # the fields show the loaded values


def test_analyse_and_play_start_games_from_the_position(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, editor = open_editor(new_app)
        pick(app, editor, "9s")
        place(app, "a1 b1 c1")
        pick(app, editor, "2m")
        place(app, "a2 c2")
        ui.click_button(app, editor.widgets["to_move"])
        position = editor.model.position()
        ui.click_button(app, editor.widgets["analyse"])
        scene = app.stack.top
        assert isinstance(scene, PlayScene) and scene.analysis is not None
        assert scene.game.start == position and scene.match.solver_side is None

        editor = app.open_editor(scene.game.position)
        ui.click_button(app, editor.widgets["play"])
        scene = app.stack.top
        assert isinstance(scene, PlayScene) and scene.analysis is None
        assert scene.game.start == position
        assert scene.match.solver_side == 1  # the human takes the side to move (player 2)
        assert scene.game.names[1] == app.settings.human_name


def test_edit_this_position_from_the_game_and_back(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(new_match(3, "hotseat", ("A", "B")))
        ui.play_move(app, scene.position.legal_moves()[0])
        ui.key(app, pygame.K_e)
        editor = app.stack.top
        assert isinstance(editor, EditorScene)
        assert editor.model == EditorModel.from_position(scene.position)
        ui.key(app, pygame.K_ESCAPE)
        assert app.stack.top is scene and scene.game.ply == 1


@pytest.mark.parametrize("size", [(640, 440), (1200, 800), (2000, 1200)])
def test_every_palette_tile_maps_back_to_its_kind(size) -> None:  # noqa: ANN001
    layout = compute_layout(*size)
    geo = editor_layout(layout.panel.rect, layout.scale)
    for kind, rect in enumerate(geo.palette):
        assert kind_at(geo, rect.center) == kind
        assert layout.panel.rect.contains((rect.x, rect.y))
    assert kind_at(geo, (geo.palette[0].x - 3, geo.palette[0].y)) is None
    assert geo.bottom[-1].bottom <= layout.panel.rect.bottom
    assert geo.rows[-1].bottom <= geo.bottom[0].y


def test_the_model_holds_invalid_boards_and_says_why() -> None:
    model = EditorModel.empty()
    assert model.problem() is None and "no pair" in model.playable_problem()
    model.place(parse_cell("b2"), parse_kind("1m"))
    model.place(parse_cell("b4"), parse_kind("1m"))
    assert model.problem() == "column b has a gap between b2 and b4"
    assert model.problem_cells() == {parse_cell("b3")}
    model.place(parse_cell("b3"), parse_kind("5s"))
    assert model.problem() is None and isinstance(model.position(), Position)
    assert model.free_cells() == {parse_cell("b2"), parse_cell("b4")}
    assert model.playable_problem() is None
