"""The window in German: the title's buttons, pygame_gui's own widgets, the rules page, and the
language button on that page, which switches every screen at once and is kept in the settings.

Each test opens the real window under SDL's dummy driver and reads what its widgets show.
"""

from __future__ import annotations

import json

import pygame
import pygame.freetype
import pytest
from babel.messages.pofile import read_po
from pygame_gui.core.utility import translate

from battle import i18n
from battle.resources import asset_path
from battle.ui.art.theme import BOLD_FONT, REGULAR_FONT
from battle.ui.help.help_scene import HelpScene
from battle.ui.match import new_match
from battle.ui.title.title_scene import TitleScene
from battle.ui.widgets.buttons import Button
from tests import ui_harness as ui


def button_texts(app) -> dict[str, str]:  # noqa: ANN001
    return {name: widget.full_text for name, widget in app.stack.top.widgets.items() if isinstance(widget, Button)}


def drawn_texts(app, monkeypatch) -> list[str]:  # noqa: ANN001
    """The texts the window's fonts draw from now on, in order."""
    drawn: list[str] = []
    real_text = app.fonts.text
    monkeypatch.setattr(
        app.fonts, "text", lambda text, *rest, **options: (drawn.append(text), real_text(text, *rest, **options))[1]
    )
    return drawn


def test_the_title_is_german_when_the_system_is(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("LANGUAGE")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        assert isinstance(app.stack.top, TitleScene)
        shown = button_texts(app)
        assert shown["start"] == "Spiel starten"
        assert shown["online"] == "Online spielen"
        assert shown["help"] == "Regeln & Tasten"
        assert app.manager.get_locale() == "de"


def test_the_command_lines_lang_beats_the_system_and_the_settings(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("LANGUAGE")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), language="en")
        assert button_texts(app)["start"] == "Start game"
        assert app.manager.get_locale() == "en"


def test_the_language_button_switches_every_screen_and_is_kept(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        assert button_texts(app)["start"] == "Start game"
        ui.key(app, pygame.K_F1)
        help_scene = app.stack.top
        assert isinstance(help_scene, HelpScene)
        assert help_scene.buttons["language"].full_text == "English"
        ui.click_button(app, help_scene.buttons["language"])
        assert app.stack.top.buttons["language"].full_text == "Deutsch"
        assert app.stack.top.buttons["close"].full_text == "Schließen"
        assert app.manager.get_locale() == "de"
        ui.key(app, pygame.K_ESCAPE)
        assert button_texts(app)["start"] == "Spiel starten"
        settings = json.loads((tmp_path / "config" / "mahjong-battle" / "settings.json").read_text("utf-8"))
        assert settings["language"] == "de"

        again = new_app((1200, 800))  # the next run of the program
        assert button_texts(again)["start"] == "Spiel starten"


def test_the_rules_page_and_the_game_speak_german(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), language="de")
        app.start_match(new_match(3, "hotseat", ("Ann", "Ben")))
        scene = ui.play_scene(app)
        assert scene.status.text == "Ann ist am Zug: 8 Paare zur Wahl."
        labels = {button.full_text for button in scene.elements if isinstance(button, Button)}
        assert {"Tipp", "Neues Spiel", "Analyse", "Speichern"} <= labels
        drawn = drawn_texts(app, monkeypatch)
        ui.key(app, pygame.K_F1)
        app.draw()
        assert "Regeln & Tasten" in drawn
        assert any(line.startswith("108 Steine liegen offen in 12 Spalten") for line in drawn)
        assert "frei: nimm ihn" in drawn


def test_every_german_letter_is_in_both_faces() -> None:
    """A letter missing from a bundled face draws as a box: every character of every German text
    (ä ö ü ß » « – …) is in the Regular face and in the Bold one the titles and primary buttons use."""
    pygame.freetype.init()
    with open(i18n.LOCALE_DIR / "de" / "LC_MESSAGES" / f"{i18n.DOMAIN}.po", "rb") as handle:
        catalogue = read_po(handle)
    letters = set()
    for message in catalogue:
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            letters.update(text)
    letters -= {"\n", "\t"}
    assert {"ä", "ö", "ü", "ß", "Ü", "»", "«"} <= letters
    # the arrows and signs of the keys are the same in English and drawn in the Regular face
    words = {letter for letter in letters if letter.isalnum() or letter in "„“‘’–—…%&()+,-./:;?!'"}
    for face, wanted in ((REGULAR_FONT, letters), (BOLD_FONT, words)):
        font = pygame.freetype.Font(str(asset_path(*face)))
        ordered = sorted(wanted)
        missing = [
            letter
            for letter, metric in zip(ordered, font.get_metrics("".join(ordered), size=14), strict=True)
            if metric is None
        ]
        assert not missing, f"{face[1]} lacks {missing}"


@pytest.mark.parametrize("size", [(800, 600), (1200, 800)])
def test_german_labels_fit_their_buttons(tmp_path, monkeypatch, size) -> None:
    """Longer German words never overflow a button: each shows in full, as its short form or cut
    with "...", within the button's width, on the title, the game, analysis and the editor."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size, language="de")
        screens = ["title"]
        checked = 0

        def check(name: str) -> None:
            nonlocal checked
            for button in (element for element in app.stack.top.elements if isinstance(element, Button)):
                width = button.font.size(button.text)[0]
                assert width <= button.relative_rect.width - 6, f"{name}: {button.text!r} is {width} px wide"
                if name == "game":  # the game's own buttons read whole words ("Sichern", not "Speich...")
                    assert not button.text.endswith("..."), f"{name}: {button.full_text!r} cut to {button.text!r}"
                checked += 1

        check("title")
        app.start_match(new_match(3, "solver", ("Ann", "You")))
        check("game")
        ui.key(app, pygame.K_a)
        check("analysis")
        ui.key(app, pygame.K_e)
        check("editor")
        ui.key(app, pygame.K_F1)
        check("rules")
        screens.append("done")
        assert checked > 30


def test_pygame_guis_file_dialog_speaks_the_chosen_language(tmp_path, monkeypatch) -> None:
    """The load dialog's own buttons come from pygame_gui's German, its title from the game's."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), language="de")
        ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
        dialog = app.stack.top.files.dialog
        assert dialog is not None and dialog.alive()
        assert translate(dialog.cancel_button.text) == "Abbrechen"  # as pygame_gui draws it
        assert dialog.window_display_title == "Eine Partie (.mbg) oder Stellung (.mbp) laden"


def test_the_german_window_starts_over_a_cached_catalogue_naming_an_unknown_field(
    tmp_path, monkeypatch, capsys
) -> None:
    """A well-formed compiled catalogue in the cache whose "Text size {percent}%" reads
    "Schriftgröße {xpercent} %": the window compiles the catalogue again, says so in one line, and
    its rules page shows the text size in German."""
    from tests.i18n.test_catalogue_cache import cached_catalogue, german_mo, with_unknown_field

    cached = cached_catalogue(tmp_path / "cache")
    cached.parent.mkdir(parents=True)
    cached.write_bytes(german_mo(with_unknown_field))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(i18n, "_catalogues", {})
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), language="de")
        assert button_texts(app)["start"] == "Spiel starten"
        drawn = drawn_texts(app, monkeypatch)
        ui.key(app, pygame.K_F1)
        app.draw()
    assert any(text.startswith("Schriftgröße ") and text.split()[1].isdigit() for text in drawn), drawn
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f"mahjong-battle: {cached}: the translation of 'Text size {{percent}}%' names a field")
    assert line.endswith(" kompiliert"), line
