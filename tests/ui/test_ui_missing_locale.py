"""The window under a ``LANG`` whose locale the system has not generated (``de_DE.UTF-8`` on a minimal
system): the game speaks German from its own catalogue, and pygame_gui's file dialog, which asks the
system for that locale, opens whole and closes with its own close button, the window going on.
"""

from __future__ import annotations

import locale

import pygame
import pytest

from battle.ui.title.title_scene import TitleScene
from tests import ui_harness as ui


def missing_locale() -> str:
    """``de_DE.UTF-8`` when the system lacks it (as a minimal system does), else a German one no system has."""
    kept = locale.setlocale(locale.LC_ALL)
    for name in ("de_DE.UTF-8", "de_ZZ.UTF-8"):
        try:
            locale.setlocale(locale.LC_ALL, name)
        except locale.Error:
            return name
        finally:
            locale.setlocale(locale.LC_ALL, kept)
    pytest.skip("every locale tried is installed")


@pytest.fixture
def lang_without_locale(monkeypatch: pytest.MonkeyPatch) -> str:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_COLLATE", "LC_CTYPE"):
        monkeypatch.delenv(variable, raising=False)
    name = missing_locale()
    monkeypatch.setenv("LANG", name)
    kept = locale.setlocale(locale.LC_ALL)
    yield name
    locale.setlocale(locale.LC_ALL, kept)


def test_the_file_dialog_opens_whole_and_its_close_button_closes_it(
    lang_without_locale: str, tmp_path, monkeypatch
) -> None:  # noqa: ANN001
    (tmp_path / "zebra.mbg").write_text("", encoding="utf-8")
    (tmp_path / "apple.mbg").write_text("", encoding="utf-8")
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        app.settings.last_dir = str(tmp_path)
        title = app.stack.top
        assert isinstance(title, TitleScene) and title.widgets["start"].full_text == "Spiel starten"
        ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
        dialog = title.files.dialog
        assert dialog is not None and dialog.alive(), title.status
        listed = [str(item[0] if isinstance(item, tuple) else item) for item in dialog.current_file_list]
        assert "apple.mbg" in listed and "zebra.mbg" in listed
        ui.click(app, dialog.close_window_button.rect.center)
        ui.settle(app, 3)
        assert not dialog.alive() and not title.files.is_open()
        assert app.stack.top is title
        ui.key(app, pygame.K_o, pygame.KMOD_CTRL)  # and it opens again
        assert title.files.is_open()
