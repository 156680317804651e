"""A keyboard focus ring over a form's widgets: the title's and the online setup's.

Tab, Shift+Tab and the arrow keys move a visible ring over the buttons, text fields and
lists, in the order the form built them; a text field with the ring takes the typing (its
own arrows then move the caret, except up and down, which leave it). Enter or Space
presses the focused button or opens the focused list; in an open list the arrows choose,
Enter takes the choice and Esc keeps the old one. Esc with nothing open hides the ring.

The ring reaches the form through the form's widgets (read afresh, as a resize rebuilds
them) and two callbacks: a button pressed, a list's new choice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import pygame
from pygame_gui.elements import UIDropDownMenu, UITextEntryLine
from pygame_gui.elements.ui_drop_down_menu import UIExpandedDropDownState

from battle.ui.art import theme
from battle.ui.widgets.buttons import Button

if TYPE_CHECKING:
    from pygame_gui.core import UIElement

    from battle.ui.widgets.window import Window


class FocusRing:
    """Where the keyboard's focus is on a form, and the keys that move and use it."""

    def __init__(
        self,
        app: Window,
        widgets: Callable[[], Mapping[str, UIElement]],
        press: Callable[[str], None],
        choose: Callable[[UIDropDownMenu, str], None],
    ) -> None:
        self.app = app
        self.widgets = widgets
        self.press = press
        """Called with a focused button's name when Enter or Space presses it."""
        self.choose = choose
        """Called with a list and its new choice when Enter takes one."""
        self.focus: str | None = None
        """The widget the ring is on (None: no ring)."""
        self.menu_choice = 0
        """In the focused list while it is open: the option the arrows point at."""

    def order(self) -> list[str]:
        """The widgets Tab visits, top to bottom and left to right (the order they are built in)."""
        return [
            name
            for name, widget in self.widgets().items()
            if isinstance(widget, (Button, UITextEntryLine, UIDropDownMenu))
        ]

    def forget_missing(self) -> None:
        """After a rebuild: a ring on a widget that is gone goes too."""
        if self.focus not in self.order():
            self.focus = None

    def key(self, event: pygame.event.Event) -> bool:
        """Tab, the arrows, Enter, Space and Esc for the ring; True when the key was used."""
        key = event.key
        menu = self._open_menu()
        if menu is not None:
            if key in (pygame.K_UP, pygame.K_DOWN):
                count = len(menu.options_list)
                self.menu_choice = (self.menu_choice + (1 if key == pygame.K_DOWN else -1)) % count
                self._show_menu_choice(menu)
                return True
            if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self._take_menu_choice(menu)
                return True
            if key == pygame.K_ESCAPE:
                _flip_at_next_frame(menu)
                return True
            if key != pygame.K_TAB:
                return False
            _flip_at_next_frame(menu)
        backwards = key == pygame.K_TAB and event.mod & pygame.KMOD_SHIFT
        if key == pygame.K_TAB or key in (pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT):
            self.move(-1 if backwards or key in (pygame.K_UP, pygame.K_LEFT) else 1)
            return True
        focus = self.focus
        widget = self.widgets().get(focus) if focus is not None else None
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE) and focus is not None and widget is not None:
            if isinstance(widget, UIDropDownMenu):
                self._open_menu_of(widget)
                return True
            if isinstance(widget, Button):
                if widget.is_enabled:
                    self.press(focus)
                return True
            return False  # a text field: Space is a character, Enter finishes the entry
        if key == pygame.K_ESCAPE and self.focus is not None:
            self.set(None)
            return True
        return False

    def move(self, step: int) -> None:
        """The ring to the next (1) or previous (-1) widget, from the ring or from the field being typed in."""
        order = self.order()
        if not order:
            return
        current = self.typing_in() or self.focus
        first = 0 if step > 0 else len(order) - 1
        self.set(order[(order.index(current) + step) % len(order)] if current in order else order[first])

    def set(self, name: str | None) -> None:
        """Put the ring on a widget; a text field also gets the keyboard, anything else takes it away."""
        self.focus = name
        widget = self.widgets().get(name) if name is not None else None
        if isinstance(widget, UITextEntryLine):
            self.app.manager.set_focus_set(widget)
        elif self.typing_in() is not None:
            self.app.manager.set_focus_set(None)

    def typing_in(self) -> str | None:
        """The text field that has the keyboard, if any."""
        return next(
            (
                name
                for name, widget in self.widgets().items()
                if isinstance(widget, UITextEntryLine) and widget.is_focused
            ),
            None,
        )

    def follow_typing(self) -> None:
        """Once a frame: a click into another field takes the ring along."""
        typing = self.typing_in()
        if typing is not None and self.focus is not None:
            self.focus = typing

    def draw(self, surface: pygame.Surface, scale: float) -> None:
        widget = self.widgets().get(self.focus) if self.focus is not None else None
        if widget is not None:
            ring = widget.rect.inflate(round(8 * scale), round(8 * scale))
            pygame.draw.rect(surface, theme.GOLD_BRIGHT, ring, max(2, round(3 * scale)), round(8 * scale))

    # -- lists -------------------------------------------------------------------------------

    def _open_menu(self) -> UIDropDownMenu | None:
        """The focused list, when it is open."""
        menu = self.widgets().get(self.focus) if self.focus is not None else None
        if isinstance(menu, UIDropDownMenu) and menu.current_state is menu.menu_states["expanded"]:
            return menu
        return None

    def _open_menu_of(self, menu: UIDropDownMenu) -> None:
        """Open a list as a click on it would (at the next frame), the arrows starting at its choice."""
        options = [option_text(option) for option in menu.options_list]
        chosen = option_text(menu.selected_option)
        self.menu_choice = options.index(chosen) if chosen in options else 0
        self.app.manager.set_focus_set(menu.get_focus_set())  # losing the focus closes it again
        _flip_at_next_frame(menu)

    def _show_menu_choice(self, menu: UIDropDownMenu) -> None:
        """Highlight the option the arrows point at (the open list draws over the ring)."""
        expanded = menu.menu_states["expanded"]
        assert isinstance(expanded, UIExpandedDropDownState), "pygame_gui files a list's open state as expanded"
        selection = expanded.options_selection_list
        if selection is None:
            return
        for index, item in enumerate(selection.item_list):
            button = item.get("button_element")
            if button is not None:
                if index == self.menu_choice:
                    button.select()
                else:
                    button.unselect()

    def _take_menu_choice(self, menu: UIDropDownMenu) -> None:
        before = option_text(menu.selected_option)
        text = option_text(menu.options_list[self.menu_choice])
        menu.selected_option = (text, text)
        _flip_at_next_frame(menu)
        if text != before:
            self.choose(menu, text)


def _flip_at_next_frame(menu: UIDropDownMenu) -> None:
    """Open a closed list, or close an open one, at the next frame: what a click on it does."""
    state = menu.current_state
    assert state is not None, "pygame_gui gives a list its closed state as it makes the list"
    state.should_transition = True


def option_text(option: str | tuple[str, str]) -> str:
    """A list option's text (pygame_gui keeps options as text or as (text, id) pairs)."""
    return option[0] if isinstance(option, tuple) else option
