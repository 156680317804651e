"""The volume control at the foot of the rules-and-keys card, beside the text size: the window's options.

A slider sets the volume in tenths (its arrows and a click step it; + and - do the same on every
screen) and a button mutes (M on every screen); both are kept in the settings at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.elements import UIHorizontalSlider

from battle.i18n import _
from battle.ui.sound.player import VOLUME_STEP
from battle.ui.widgets.buttons import Button

if TYPE_CHECKING:
    from pygame_gui.core import UIElement

    from battle.ui.sound.player import Sounds

MUTE = "sound_mute"
"""The mute button's command (the card's ``command`` passes it on)."""
SLIDER_STEPS = 10


class SoundControl:
    """A volume slider and a mute button in ``rect`` (right-aligned in it), built with the card's widgets."""

    def __init__(self, sounds: Sounds, manager: pygame_gui.UIManager, rect: pygame.Rect, scale: float) -> None:
        self.sounds = sounds
        gap = round(8 * scale)
        mute_w = max(64, round(96 * scale))
        slider_w = max(80, min(round(140 * scale), rect.w - mute_w - gap))  # its handle and arrows want 80
        left = rect.right - slider_w - gap - mute_w
        self.slider = UIHorizontalSlider(
            pygame.Rect(left, rect.y, slider_w, rect.h),
            round(sounds.volume * SLIDER_STEPS),
            (0, SLIDER_STEPS),
            manager,
            click_increment=1,
        )
        self.slider.set_tooltip(_("Sound volume (+ and - on every screen)"))
        self.mute = Button(
            pygame.Rect(left + slider_w + gap, rect.y, mute_w, rect.h),
            self._mute_label(),
            manager,
            tool_tip_text=_("Sound off or on (M on every screen)"),
        )
        self.left = left
        """Where the control begins: what is drawn before it ends short of this."""

    @property
    def elements(self) -> list[UIElement]:
        return [self.slider, self.mute]

    @property
    def buttons(self) -> dict[str, Button]:
        return {MUTE: self.mute}

    def _mute_label(self) -> str:
        return _("Sound on") if self.sounds.muted else _("Mute")

    def command(self, name: str) -> str | None:
        """The mute button pressed: what the sound says now (None for another command)."""
        if name != MUTE:
            return None
        said = self.sounds.toggle_mute()
        self.mute.set_text(self._mute_label())
        return said

    def handle(self, event: pygame.event.Event) -> bool:
        """The slider moved: the volume follows (and unmutes); True when ``event`` was the slider's."""
        if event.type != pygame_gui.UI_HORIZONTAL_SLIDER_MOVED or getattr(event, "ui_element", None) is not self.slider:
            return False
        steps = round(float(event.value)) - round(self.sounds.volume * SLIDER_STEPS)
        if steps:
            self.sounds.change_volume(steps)
            self.mute.set_text(self._mute_label())
        return True

    def follow(self) -> None:
        """Show the volume and mute as they are (M, + or - pressed while the card is open)."""
        value = round(self.sounds.volume / VOLUME_STEP)
        if self.slider.get_current_value() != value:
            self.slider.set_current_value(value)
        if self.mute.text != self._mute_label():
            self.mute.set_text(self._mute_label())
