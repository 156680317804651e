"""A card's widgets, each kept by name: labelled rows of text fields and lists, and buttons with a tool tip.

The title's new-game form and the online set-up lay out their cards alike: a label at the left of a
row, its field to the right. Every widget goes into the scene's ``widgets`` by name (the focus ring
and ``Scene.controls`` find it there) and into its ``elements`` (hidden and killed with the scene).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIDropDownMenu, UILabel, UITextEntryLine

from battle.ui.widgets.buttons import Button

if TYPE_CHECKING:
    from pygame_gui.core import UIElement
    from pygame_gui.core.interfaces import IUIManagerInterface

LABEL_GAP = 8
"""Pixels between a label's end and its field."""
FIELD_LABEL = ObjectID(object_id="#field_label")
"""The theme's look of a field's label (and of a note beside a field)."""
PRIMARY = ObjectID(object_id="#primary")
"""The theme's look of a card's main button."""


@dataclass
class FormRows:
    """Adds a card's widgets (see the module docstring); the fields' column starts at ``field_x``."""

    widgets: dict[str, UIElement]
    elements: list[UIElement]
    manager: IUIManagerInterface
    left: int
    """Where the labels start."""
    field_x: int
    field_w: int
    row_h: int

    def add(self, name: str, element: UIElement) -> None:
        self.widgets[name] = element
        self.elements.append(element)

    def field_rect(self, top: int, width: int | None = None) -> pygame.Rect:
        """A row's field, the column's width unless ``width`` says otherwise."""
        return pygame.Rect(self.field_x, top, self.field_w if width is None else width, self.row_h)

    def label(self, text: str, top: int) -> None:
        """A row's label, left of its field."""
        self.note(f"label:{text}", pygame.Rect(self.left, top, self.field_x - self.left - LABEL_GAP, self.row_h), text)

    def note(self, name: str, rect: pygame.Rect, text: str) -> None:
        """Words in the labels' look: a row's label, or what the choice beside them means."""
        self.add(name, UILabel(rect, text, self.manager, object_id=FIELD_LABEL))

    def entry(self, name: str, rect: pygame.Rect, text: str, placeholder: str, limit: int) -> None:
        """A text field holding ``text``, at most ``limit`` characters long."""
        entry = UITextEntryLine(rect, self.manager, placeholder_text=placeholder)
        entry.set_text_length_limit(limit)
        entry.set_text(text)
        self.add(name, entry)

    def field(self, name: str, label: str, top: int, text: str, placeholder: str, limit: int) -> None:
        """A labelled row with a text field across the column."""
        self.label(label, top)
        self.entry(name, self.field_rect(top), text, placeholder, limit)

    def menu(self, name: str, rect: pygame.Rect, choices: Sequence[str], chosen: str) -> None:
        """A drop-down list of ``choices`` showing ``chosen``."""
        options: list[str | tuple[str, str]] = list(choices)
        self.add(name, UIDropDownMenu(options, chosen, rect, self.manager))

    def button(
        self, name: str, rect: pygame.Rect, text: str, tip: str, *, primary: bool = False, shorter: Sequence[str] = ()
    ) -> None:
        """A button with its tool tip; ``primary``: the card's main one."""
        object_id = PRIMARY if primary else None
        self.add(name, Button(rect, text, self.manager, tool_tip_text=tip, object_id=object_id, shorter=shorter))
