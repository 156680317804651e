"""Buttons whose labels always fit: a short form in a small window, never clipped text.

At the smallest window (640x440) the panel's buttons are 55-90 pixels wide, and
pygame_gui cuts a label that does not fit mid-word ("New gar", "Play vs solve"), which
reads as a bug. So a ``Button`` measures its label with the font pygame_gui draws it
in: the full label when it fits, else its short form from ``SHORT_FORMS``, else the
label cut with an ellipsis. The tool tips still say in full what a button does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame
from pygame_gui.elements import UIButton

from battle.i18n import N_, NP_, _, pgettext

if TYPE_CHECKING:
    from pygame_gui.core import ObjectID
    from pygame_gui.core.interfaces import IUIManagerInterface
    from pygame_gui.elements import UITextEntryLine

SHORT_FORMS: dict[str, tuple[str, str]] = {
    N_("New game"): NP_("narrow button", "New"),
    N_("Edit position"): NP_("narrow button", "Edit"),
    N_("Edit a position"): NP_("narrow button", "Edit"),
    N_("Review a game..."): NP_("narrow button", "Review..."),
    N_("Play vs solver"): NP_("narrow button", "vs solver"),
    N_("To game"): NP_("narrow button", "Game"),
    N_("Analysis off"): NP_("narrow button", "Done"),
    N_("Play line"): NP_("narrow button", "Play"),
    N_("Clear board"): NP_("narrow button", "Clear"),
    N_("Fill board"): NP_("narrow button", "Fill"),
    N_("Save .mbp..."): NP_("narrow button", "Save..."),
    N_("Load game..."): NP_("narrow button", "Load..."),
    N_("Start game"): NP_("narrow button", "Start"),
    N_("Rematch: the last deal, sides swapped"): NP_("narrow button", "Rematch"),
    N_("Retry from here"): NP_("narrow button", "Retry"),
    N_("Analyse here"): NP_("narrow button", "Analyse"),
    N_("number"): NP_("narrow button", "no."),
    N_("Take back"): NP_("narrow button", "Undo?"),
    N_("Rematch"): NP_("narrow button", "Again"),
    N_("Save record"): NP_("narrow button", "Save"),
    N_("Show solution"): NP_("narrow button", "Solution"),
    N_("Next puzzle"): NP_("narrow button", "Next"),
    N_("Rules & keys"): NP_("narrow button", "Rules"),
    N_("Review"): NP_("narrow button", "Review"),
    N_("Save"): NP_("narrow button", "Save"),
}
"""Labels (and a text field's placeholder) that outgrow a small window, and what they become there; in
English, matched and shown through the catalogue. The short forms have a context of their own
("narrow button"): a language may need a shorter word there than where the same English word
stands in full (German "Speichern" for Save fits no narrow button at 800x600; "Sichern" does)."""

TEXT_MARGIN = 6
"""Pixels of a widget's width that its border and rounded corners keep from the text."""


def fitted_label(text: str, room: float, width_of: Callable[[str], int], shorter: Sequence[str] = ()) -> str:
    """The label to show in ``room`` pixels: in full, the first of ``shorter`` that fits, its short
    form, or cut with "..."."""
    for form in (text, *shorter):
        if width_of(form) <= room:
            return form
    short = next((pgettext(*short) for long, short in SHORT_FORMS.items() if _(long) == text), None)
    if short is not None and width_of(short) <= room:
        return short
    cut = short or text
    while len(cut) > 1 and width_of(cut + "...") > room:
        cut = cut[:-1]
    return cut.rstrip() + "..."


def font_width(widget: UIButton | UITextEntryLine) -> Callable[[str], int]:
    """How wide a text is in the font pygame_gui's theme gave this widget."""

    def width(text: str) -> int:
        font = widget.font
        assert font is not None, "pygame_gui themes a widget's font as it makes the widget"
        return int(font.size(text)[0])

    return width


def set_enabled(button: UIButton, on: bool) -> None:
    """Enable or disable ``button``, touching it only when that changes something: screens
    call this every frame, and an enable or disable redraws the button."""
    if on and not button.is_enabled:
        button.enable()
    elif not on and button.is_enabled:
        button.disable()


class Button(UIButton):
    """A ``UIButton`` that fits its label to its width (see the module docstring)."""

    def __init__(
        self,
        relative_rect: pygame.Rect,
        text: str,
        manager: IUIManagerInterface,
        *,
        tool_tip_text: str | None = None,
        object_id: ObjectID | str | None = None,
        shorter: Sequence[str] = (),
    ) -> None:
        self.shorter = tuple(shorter)
        """Shorter labels that say the same, longest first, for a button too narrow for the full one."""
        super().__init__(relative_rect, text, manager, tool_tip_text=tool_tip_text, object_id=object_id)
        self.full_text = text
        self.set_text(text)

    def set_text(self, text: str, *, text_kwargs: dict[str, str] | None = None) -> None:
        if text != getattr(self, "full_text", text):  # (none yet while pygame_gui's __init__ runs)
            self.shorter = ()  # they said the same as the label being replaced
        self.full_text = text
        room = self.relative_rect.width - TEXT_MARGIN
        super().set_text(fitted_label(text, room, font_width(self), self.shorter), text_kwargs=text_kwargs)
