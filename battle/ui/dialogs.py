"""The file dialogs (pygame_gui's UIFileDialog), opened the same way from every screen.

A dialog is modal (blocking) and sized to the window; it opens in the folder of
the last file saved or loaded. Creating one lists a folder and sets the locale,
both of which can fail on an odd system, so failures come back as a message.
"""

from __future__ import annotations

import locale
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
from pygame_gui.windows import UIFileDialog

if TYPE_CHECKING:
    from battle.ui.app import App

LOAD_TITLE = "Load a game (.mbg) or position (.mbp)"
SAVE_TITLE = "Save the game record"
SAVE_POSITION_TITLE = "Save the position (.mbp)"
LOAD_POSITION_TITLE = "Load a position (.mbp, or a game's current position from .mbg)"
REVIEW_TITLE = "Review a game record (.mbg)"


class DialogProblem(Exception):
    """The dialog could not be opened; the message is for the status line."""


def start_folder(app: App) -> Path:
    folder = Path(app.settings.last_dir) if app.settings.last_dir else Path.home()
    return folder if folder.is_dir() else Path.home()


def open_file_dialog(app: App, purpose: str, file_name: str = "") -> UIFileDialog:
    """A modal dialog to ``"load"`` a game or position, or to ``"save"`` as ``file_name``.

    The editor's ``"save_position"`` and ``"load_position"`` and the title's
    ``"review"`` (pick a record to review) work the same way with their own suffixes.
    """
    width, height = app.layout.window
    rect = pygame.Rect(0, 0, max(260, min(560, width - 40)), max(300, min(480, height - 40)))
    rect.center = (width // 2, height // 2)
    folder = start_folder(app)
    try:
        if purpose in ("save", "save_position"):
            title, suffix = (SAVE_TITLE, ".mbg") if purpose == "save" else (SAVE_POSITION_TITLE, ".mbp")
            dialog = UIFileDialog(rect, app.manager, window_title=title,
                                  initial_file_path=str(folder / file_name), allowed_suffixes={suffix},
                                  allow_existing_files_only=False)
        elif purpose == "review":
            dialog = UIFileDialog(rect, app.manager, window_title=REVIEW_TITLE, initial_file_path=str(folder),
                                  allowed_suffixes={".mbg"}, allow_existing_files_only=True)
        elif purpose == "load_position":
            dialog = UIFileDialog(rect, app.manager, window_title=LOAD_POSITION_TITLE, initial_file_path=str(folder),
                                  allowed_suffixes={".mbg", ".mbp"}, allow_existing_files_only=True)
        else:
            dialog = UIFileDialog(rect, app.manager, window_title=LOAD_TITLE, initial_file_path=str(folder),
                                  allowed_suffixes={".mbg", ".mbp"}, allow_existing_files_only=True)
    except (OSError, ValueError, locale.Error, pygame.error) as error:
        raise DialogProblem(f"Could not open the file dialog: {error}") from None
    dialog.set_blocking(True)
    return dialog
