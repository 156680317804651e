"""The window in one language, whole: every screen of a session (``window_screens``) under ``--lang de``
and under a ``LANG`` whose locale the system has not generated, with no English word in it, no
word cut short where it is drawn; and the same session in English with no German word.
"""

from __future__ import annotations

import pytest

from tests import ui_harness as ui
from tests.i18n.language_guard import report
from tests.i18n.window_screens import walk
from tests.ui.drawn_text import record_texts
from tests.ui.test_ui_missing_locale import missing_locale


def read_session(tmp_path, monkeypatch, size: tuple[int, int], language: str | None) -> dict:  # noqa: ANN001
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size, language=language, autosave=False)
        recorder = record_texts(app, monkeypatch)
        return dict(walk(app, recorder))


@pytest.mark.parametrize(
    ("size", "language", "system"),
    [((1200, 800), "de", None), ((800, 600), None, "missing"), ((1200, 800), "en", None)],
    ids=["de 1200x800", "LANG without its locale 800x600", "en 1200x800"],
)
def test_every_screen_is_in_one_language_and_no_word_is_cut(size, language, system, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    if system == "missing":
        for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(variable, raising=False)
        monkeypatch.setenv("LANG", missing_locale())
    readings = read_session(tmp_path, monkeypatch, size, language)
    expected = language or "de"
    problems = report((reading.screen(name) for name, reading in readings.items()), expected)
    cut = [f"{name}: {text!r}" for name, reading in readings.items() for text in reading.cut()]
    assert not problems and not cut, "\n".join([problems, *cut])
