"""The file dialogs (pygame_gui's UIFileDialog), opened and answered the same way from every screen.

A dialog is modal (blocking) and sized to the window; it opens in the folder of
the last file saved or loaded. Creating one lists a folder, which can fail on an odd
system, so a failure comes back as a message and no half-made window is left behind.
pygame_gui's dialog also calls ``setlocale(LC_ALL, "")`` to sort the names the
system's way, which raises when ``LANG`` names a locale the system has not generated
(``de_DE.UTF-8`` on a minimal system): ``FileDialog`` keeps the locale in use then.

pygame_gui's dialog posts its "path picked" event and kills itself in the same
frame, so the event arrives a frame later from a dialog that is already gone.
A ``FileDialogSlot`` keeps the dialog it opened until that event has come and
matches the event against it; it also takes Enter in the path box as OK, asks
before a save replaces a file, and closes on Esc.

The list leaves out hidden entries (a name that starts with a dot: ``.cache``, ``.config``,
``.local`` fill the top of a home folder and hold no game of the player's); a hidden folder
still opens by its path typed in the box.

Both work from the keyboard alone: the path box has the keys as soon as the
dialog opens (type a path, Enter), and in the "replace it?" question Tab or the
arrows move between Cancel (where it starts, so two Enters never replace a file
by accident) and Overwrite, and Enter or Space presses the one highlighted.
"""

from __future__ import annotations

import contextlib
import datetime
import html
import locale
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.windows import UIConfirmationDialog, UIFileDialog

from battle.i18n import N_, _
from battle.storage.paths import error_reason

if TYPE_CHECKING:
    from battle.ui.widgets.window import Window

LOAD_TITLE = N_("Load a game (.mbg) or position (.mbp)")
SAVE_TITLE = N_("Save the game record")
SAVE_POSITION_TITLE = N_("Save the position (.mbp)")
LOAD_POSITION_TITLE = N_("Load a position (.mbp, or a game's current position from .mbg)")
REVIEW_TITLE = N_("Review a game record (.mbg)")


DIALOG_EVENTS = frozenset({pygame_gui.UI_FILE_DIALOG_PATH_PICKED, pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED})
"""Events of dialogs; a screen that gets one its slot did not claim ignores it."""
SAVE_SUFFIXES = {"save": ".mbg", "save_position": ".mbp"}
"""The purposes that write a file, and the suffix a name without one gets."""
DIALOG_KINDS: dict[str, tuple[str, frozenset[str]]] = {
    "load": (LOAD_TITLE, frozenset({".mbg", ".mbp"})),
    "save": (SAVE_TITLE, frozenset({".mbg"})),
    "save_position": (SAVE_POSITION_TITLE, frozenset({".mbp"})),
    "load_position": (LOAD_POSITION_TITLE, frozenset({".mbg", ".mbp"})),
    "review": (REVIEW_TITLE, frozenset({".mbg"})),
}
"""Each purpose's dialog: its title (in English, shown through the catalogue) and the suffixes it lists."""


class DialogProblem(Exception):
    """The dialog could not be opened; the message is for the status line."""


class FileDialog(UIFileDialog):
    """pygame_gui's file dialog, made whole or not at all.

    Its window is on screen (and blocking) before the rest of it is made; a failure after
    that left an empty dialog whose every button raised ``AttributeError`` (it has no
    ``cancel_button``). A failed dialog is taken off the screen before the error goes on,
    and a locale the system lacks no longer fails it (``_locale_in_use_on_failure``)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        try:
            with _locale_in_use_on_failure():
                super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        except BaseException:
            with contextlib.suppress(AttributeError):  # failed before the window itself was made
                self.kill()
            raise

    def update_current_file_list(self, should_try_again: bool = True) -> None:
        """The folder's entries as pygame_gui lists them, hidden ones (``.cache``) left out."""
        super().update_current_file_list(should_try_again)
        self.current_file_list = [entry for entry in self.current_file_list if not _entry_name(entry).startswith(".")]


def _entry_name(entry: str | tuple[str, str]) -> str:
    """The name of one of the dialog's list entries: a name, or a name with its element id."""
    return entry if isinstance(entry, str) else entry[0]


@contextlib.contextmanager
def _locale_in_use_on_failure() -> Iterator[None]:
    """While the block runs, ``setlocale(category, "")`` (the system's locale, from ``LANG``) keeps
    the locale in use when the system has not generated the one ``LANG`` names: the dialog only
    sorts file names with it, and the game's own words come from its catalogue, not the locale."""
    real = locale.setlocale

    def setlocale(category: int, value: str | None = None) -> str:
        try:
            return real(category, value)
        except locale.Error:
            if value != "":
                raise
            return real(category)

    locale.setlocale = setlocale  # type: ignore[assignment]
    try:
        yield
    finally:
        locale.setlocale = real


def start_folder(app: Window) -> Path:
    folder = Path(app.settings.last_dir) if app.settings.last_dir else Path.home()
    return folder if folder.is_dir() else Path.home()


def open_file_dialog(app: Window, purpose: str, file_name: str = "") -> UIFileDialog:
    """A modal dialog to ``"load"`` a game or position, or to ``"save"`` as ``file_name``.

    The editor's ``"save_position"`` and ``"load_position"`` and the title's
    ``"review"`` (pick a record to review) work the same way with their own suffixes.
    """
    width, height = app.layout.window
    rect = pygame.Rect(0, 0, max(260, min(560, width - 40)), max(300, min(480, height - 40)))
    rect.center = (width // 2, height // 2)
    folder = start_folder(app)
    saving = purpose in SAVE_SUFFIXES
    title, suffixes = DIALOG_KINDS.get(purpose, DIALOG_KINDS["load"])
    try:
        dialog = FileDialog(
            rect,
            app.manager,
            window_title=_(title),
            initial_file_path=str(folder / file_name if saving else folder),
            allowed_suffixes=set(suffixes),
            allow_existing_files_only=not saving,
        )
    except (OSError, ValueError, locale.Error, pygame.error) as error:
        raise DialogProblem(_("Could not open the file dialog: {error}").format(error=error_reason(error))) from None
    dialog.set_blocking(True)
    return dialog


def with_default_suffix(path: Path, suffix: str) -> Path:
    """The path a save writes: ``suffix`` added when the name has none."""
    return path if path.suffix else path.with_suffix(suffix)


def free_file_name(folder: Path, stem: str, suffix: str, today: datetime.date | None = None) -> str:
    """``deal-5-2026-11-26.mbg``, or ``deal-5-2026-11-26-2.mbg`` when that is taken: two games of one
    deal saved on one day never offer the same name."""
    day = (today or datetime.date.today()).isoformat()
    for number in range(1, 1000):
        name = f"{stem}-{day}{'' if number == 1 else f'-{number}'}{suffix}"
        if not (folder / name).exists():
            return name
    return f"{stem}-{datetime.datetime.now():%Y-%m-%d-%H%M%S}{suffix}"


@dataclass(frozen=True)
class Picked:
    """A file the player chose (and, for a save over an existing file, agreed to replace)."""

    purpose: str
    path: Path


class FileDialogSlot:
    """The one file dialog a screen may have open, and the overwrite question that may follow it."""

    def __init__(self, app: Window) -> None:
        self.app = app
        self.dialog: UIFileDialog | None = None
        """The dialog opened last, kept after pygame_gui kills it until its event has come."""
        self.purpose = ""
        self.question: UIConfirmationDialog | None = None
        self.pending: Picked | None = None
        """The save that waits for the answer to "replace it?"."""
        self.overwrite_focused = False
        """Which of the question's buttons Enter presses: Overwrite, or Cancel (the start)."""

    def is_open(self) -> bool:
        """Whether a dialog or the overwrite question is on screen (then it has the input)."""
        return any(window is not None and window.alive() for window in (self.dialog, self.question))

    def open(self, purpose: str, file_name: str = "") -> str | None:
        """Open the dialog for ``purpose``; returns a problem to show, or None."""
        if self.is_open():
            return None
        try:
            self.dialog = open_file_dialog(self.app, purpose, file_name)
        except DialogProblem as problem:
            return str(problem)
        self.purpose = purpose
        box = self.dialog.file_path_text_line
        self.app.manager.set_focus_set(box)
        box.edit_position = len(box.get_text())
        return None

    def handle(self, event: pygame.event.Event) -> Picked | None:
        """The file chosen, when ``event`` completes a choice; None for every other event."""
        kind = event.type
        element = getattr(event, "ui_element", None)
        if kind == pygame_gui.UI_FILE_DIALOG_PATH_PICKED and element is not None and element is self.dialog:
            self.dialog = None
            return self._chosen(Path(event.text))
        if (
            kind == pygame_gui.UI_TEXT_ENTRY_FINISHED
            and self.dialog is not None
            and self.dialog.alive()
            and element is self.dialog.file_path_text_line
        ):
            return self._entered()
        if kind == pygame_gui.UI_CONFIRMATION_DIALOG_CONFIRMED and element is not None and element is self.question:
            self.question = None
            picked, self.pending = self.pending, None
            return picked
        if kind == pygame.KEYDOWN and event.key == pygame.K_ESCAPE and self.is_open():
            self.close()
        elif kind == pygame.KEYDOWN and self.question is not None and self.question.alive():
            self._question_key(event.key)
        return None

    def _question_key(self, key: int) -> None:
        """Tab and the arrows move between Cancel and Overwrite; Enter and Space press the highlighted one."""
        assert self.question is not None
        if key in (pygame.K_TAB, pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN):
            self.overwrite_focused = not self.overwrite_focused
            self._highlight()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            button = self.question.confirm_button if self.overwrite_focused else self.question.cancel_button
            pygame.event.post(
                pygame.event.Event(
                    pygame_gui.UI_BUTTON_PRESSED, ui_element=button, ui_object_id=button.most_specific_combined_id
                )
            )

    def _highlight(self) -> None:
        if self.question is None:
            return
        focused, other = (self.question.confirm_button, self.question.cancel_button)
        if not self.overwrite_focused:
            focused, other = other, focused
        focused.select()
        other.unselect()

    def _entered(self) -> Picked | None:
        """Enter in the path box: OK, when the box names a file the dialog would accept."""
        assert self.dialog is not None
        path = self.dialog.current_file_path
        if path is None or path.is_dir():
            return None
        if self.purpose in SAVE_SUFFIXES:
            if not path.parent.is_dir():
                return None
        elif not path.is_file():
            return None
        self.dialog.kill()
        self.dialog = None
        return self._chosen(Path(path))

    def _chosen(self, path: Path) -> Picked | None:
        suffix = SAVE_SUFFIXES.get(self.purpose)
        if suffix is None:
            return Picked(self.purpose, path)
        target = with_default_suffix(path, suffix)
        if not target.exists():
            return Picked(self.purpose, target)
        self.pending = Picked(self.purpose, target)
        self.question = ask_to_replace(self.app, target)
        self.overwrite_focused = False
        self._highlight()
        return None

    def close(self) -> None:
        """Close whatever is open, choosing nothing."""
        for window in (self.dialog, self.question):
            if window is not None and window.alive():
                window.kill()
        self.dialog = self.question = None
        self.pending = None


def ask_to_replace(app: Window, path: Path) -> UIConfirmationDialog:
    """The modal "replace it?" question before a save writes over an existing file."""
    width, height = app.layout.window
    rect = pygame.Rect(0, 0, max(260, min(440, width - 40)), max(180, min(220, height - 40)))
    rect.center = (width // 2, height // 2)
    name = path.name if len(path.name) <= 60 else path.name[:57] + "..."
    # the question is pygame_gui's HTML-like text: a name with "<" must not read as markup
    dialog = UIConfirmationDialog(
        rect,
        _("{escape} already exists. Replace it with this one?").format(escape=html.escape(name)),
        app.manager,
        window_title=_("Replace the file?"),
        action_short_name=_("Overwrite"),
    )
    dialog.set_blocking(True)
    return dialog
