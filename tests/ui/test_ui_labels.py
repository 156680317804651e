"""Button labels fit their buttons at every window size: in full, as a short form, or cut with "...".

Before ``battle.ui.widgets.buttons``, pygame_gui cut labels mid-word at the smallest window
("New gar", "Edit pos", "Play vs solve").
"""

from __future__ import annotations

import pygame
import pytest

from battle.ui.editor.editor_scene import EditorScene
from battle.ui.files.settings import MIN_SIZE
from battle.ui.match import Match, new_match
from battle.ui.play.result_scene import ResultScene
from battle.ui.review.review_scene import ReviewScene
from battle.ui.title.title_scene import TitleScene
from battle.ui.widgets.buttons import SHORT_FORMS, TEXT_MARGIN, Button, fitted_label
from tests import ui_harness as ui
from tests.ui_harness import reviewed, short_game


def ten_per_letter(text: str) -> int:
    return 10 * len(text)


def test_a_label_that_fits_is_kept() -> None:
    assert fitted_label("New game", 80, ten_per_letter) == "New game"


def test_a_label_too_wide_becomes_its_short_form() -> None:
    assert fitted_label("New game", 79, ten_per_letter) == "New"
    assert fitted_label("Play vs solver", 100, ten_per_letter) == "vs solver"


def test_without_a_short_form_that_fits_the_label_is_cut_with_an_ellipsis() -> None:
    assert fitted_label("Analyse", 60, ten_per_letter) == "Ana..."
    # the short form is what gets cut when it exists
    assert fitted_label("Play vs solver", 70, ten_per_letter) == "vs s..."
    assert all(len(short) <= len(full) for full, (_context, short) in SHORT_FORMS.items())


def buttons_of(app) -> list[Button]:  # noqa: ANN001
    return [element for element in app.stack.top.elements if isinstance(element, Button)]


def assert_labels_fit(app, scene_name: str, full: bool) -> None:  # noqa: ANN001
    buttons = buttons_of(app)
    assert buttons, f"{scene_name}: no buttons found"
    for button in buttons:
        shown = button.text
        width = button.font.size(shown)[0]
        assert width <= button.relative_rect.width - TEXT_MARGIN, f"{scene_name}: {shown!r} is {width} px wide"
        if full:
            assert shown == button.full_text, f"{scene_name}: {button.full_text!r} shortened at the default size"
        else:
            short = SHORT_FORMS.get(button.full_text, ("", ""))[1]
            assert shown in (button.full_text, short) or shown.endswith("..."), shown


@pytest.mark.parametrize("size", [MIN_SIZE, (1200, 800)])
def test_every_scenes_buttons_fit_at_the_smallest_and_the_default_size(tmp_path, monkeypatch, size) -> None:
    full = size == (1200, 800)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        assert isinstance(app.stack.top, TitleScene)
        assert_labels_fit(app, "title", full)

        app.start_match(new_match(3, "hotseat", ("Ann", "Ben")))
        assert_labels_fit(app, "game", full)
        ui.key(app, pygame.K_a)
        assert_labels_fit(app, "analysis", full)
        ui.key(app, pygame.K_e)
        assert isinstance(app.stack.top, EditorScene)
        assert_labels_fit(app, "editor", full)

        game = short_game()
        last = game.undo()
        app.start_match(Match(game))
        ui.play_move(app, last)
        ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=5)
        assert_labels_fit(app, "result", full)
        ui.click_button(app, app.stack.top.buttons["review"])
        assert isinstance(app.stack.top, ReviewScene)
        assert_labels_fit(app, "review (running)", full)
        reviewed(app, app.stack.top)
        assert_labels_fit(app, "review", full)


def test_the_smallest_window_shows_short_forms_not_clipped_text(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(MIN_SIZE)
        app.start_match(new_match(3, "hotseat", ("Ann", "Ben")))
        shown = {button.full_text: button.text for button in buttons_of(app)}
        assert shown["New game"] == "New"
        assert shown["Edit position"] == "Edit"
        assert shown["Undo"] == "Undo"
        # a label set later (the editor's mover button) is fitted too
        ui.key(app, pygame.K_e)
        editor = app.stack.top
        assert isinstance(editor, EditorScene)
        editor.widgets["to_move"].set_text("Player 2 to move, a label much too long for this button")
        assert editor.widgets["to_move"].text.endswith("...")
