"""The player's hand on the sound, on every screen: M mutes, + and - set the volume, and what the
window has to say of its sound goes on the status line of the screen in front.

These keys are the window's, before the screens see them (like F1), except while a text field
has the keyboard, where they are letters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pygame
from pygame_gui.elements import UITextEntryBox, UITextEntryLine

from battle.ui.widgets.hud import StatusLine

if TYPE_CHECKING:
    import pygame_gui

    from battle.ui.sound.player import Sounds


class Screens(Protocol):
    @property
    def top(self) -> object | None:
        """The screen in front."""
        ...


class SoundHost(Protocol):
    """What the sound's keys use of the window (the screens' ``Host`` has all of it)."""

    @property
    def sounds(self) -> Sounds: ...

    @property
    def stack(self) -> Screens: ...

    @property
    def manager(self) -> pygame_gui.UIManager: ...


_MODIFIERS = pygame.KMOD_CTRL | pygame.KMOD_META | pygame.KMOD_ALT
LOUDER_KEYS = (pygame.K_PLUS, pygame.K_KP_PLUS)
SOFTER_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS)


def sound_key(app: SoundHost, event: pygame.event.Event) -> bool:
    """M, + or -: mute or change the volume, say so on the status line; True when ``event`` was one."""
    if event.mod & _MODIFIERS or _typing(app):
        return False
    typed = getattr(event, "unicode", "")
    if event.key == pygame.K_m:
        said = app.sounds.toggle_mute()
    elif typed == "+" or event.key in LOUDER_KEYS:
        said = app.sounds.change_volume(+1)
    elif typed == "-" or event.key in SOFTER_KEYS:
        said = app.sounds.change_volume(-1)
    else:
        return False
    tell(app.stack, said, "quiet", replace=True)
    return True


def after_frame(app: SoundHost) -> None:
    """Once a frame has been drawn: start opening the mixer (the first time), and say once that
    there is no sound when it failed."""
    app.sounds.prepare()
    notice = app.sounds.take_notice()
    if notice is not None:
        tell(app.stack, notice, "warn")


def tell(stack: Screens, text: str, kind: str, *, replace: bool = False) -> None:
    """Put ``text`` on the status line of the screen in front: in place of what it says with
    ``replace``, else after it (what the screen had to say stays)."""
    scene = stack.top
    status = getattr(scene, "status", None)
    if not isinstance(status, StatusLine):
        return
    if status.text and not replace:
        text = f"{status.text} {text}"
        kind = kind if kind != "quiet" else status.kind
    scene.status = StatusLine(text, kind)  # type: ignore[attr-defined]


def _typing(app: SoundHost) -> bool:
    return any(
        isinstance(element, (UITextEntryLine, UITextEntryBox)) and element.is_focused
        for element in app.manager.get_focus_set() or ()
    )
