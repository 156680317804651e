"""A question with a few answers, over the screen that asks it ("Resume it / Keep it / Discard it").

An overlay card with one button per answer. The keyboard works as well as the
mouse: Tab, Shift+Tab and the arrow keys move a visible focus ring over the
buttons, Enter takes the focused answer, Esc takes none. The screen below gets
the answer through a callback after the card has closed, so the callback may
start another screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame
from pygame_gui.core import ObjectID

from battle.ui.art import theme
from battle.ui.scene import Scene
from battle.ui.widgets.buttons import Button

if TYPE_CHECKING:
    from battle.ui.scene import Host


@dataclass(frozen=True)
class Choice:
    key: str
    label: str
    tip: str = ""


class ChoiceScene(Scene):
    overlay = True

    def __init__(
        self, app: Host, title: str, text: str, choices: Sequence[Choice], answered: Callable[[str | None], None]
    ) -> None:
        super().__init__(app)
        self.title = title
        self.text = text
        self.choices = list(choices)
        self.answered = answered
        """Called once with the chosen key, or None for Esc."""
        self.focus = 0
        self.buttons: dict[str, Button] = {}

    def card_rect(self) -> pygame.Rect:
        layout = self.app.layout
        scale = layout.scale
        width = min(round(620 * scale), layout.window[0] - 20)
        height = min(round(220 * scale), layout.window[1] - 20)
        rect = pygame.Rect(0, 0, max(200, width), max(140, height))
        rect.center = (layout.window[0] // 2, layout.window[1] // 2)
        return rect

    def build_ui(self) -> None:
        rect = self.card_rect()
        scale = self.app.layout.scale
        pad = round(20 * scale)
        gap = round(10 * scale)
        height = max(24, round(40 * scale))
        count = len(self.choices)
        width = max(40, (rect.w - 2 * pad - (count - 1) * gap) // count)
        y = rect.bottom - pad - height
        self.buttons = {}
        for index, choice in enumerate(self.choices):
            object_id = ObjectID(object_id="#primary") if index == 0 else None
            button = Button(
                pygame.Rect(rect.x + pad + index * (width + gap), y, width, height),
                choice.label,
                self.app.manager,
                tool_tip_text=choice.tip or None,
                object_id=object_id,
            )
            self.buttons[choice.key] = button
            self.elements.append(button)

    def controls(self) -> dict[str, Button]:
        return self.buttons

    def command(self, name: str) -> None:
        self.answer(name)

    def handle_input(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            count = len(self.choices)
            backwards = event.key == pygame.K_TAB and event.mod & pygame.KMOD_SHIFT
            if event.key in (pygame.K_RIGHT, pygame.K_DOWN) or (event.key == pygame.K_TAB and not backwards):
                self.focus = (self.focus + 1) % count
            elif event.key in (pygame.K_LEFT, pygame.K_UP) or backwards:
                self.focus = (self.focus - 1) % count
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.answer(self.choices[self.focus].key)
            elif event.key == pygame.K_ESCAPE:
                self.answer(None)

    def answer(self, key: str | None) -> None:
        if self.app.stack.top is self:
            self.app.stack.pop()
        self.answered(key)

    def draw(self, surface: pygame.Surface) -> None:
        fonts = self.app.fonts
        scale = self.app.layout.scale
        theme.draw_veil(surface, 130)
        rect = self.card_rect()
        theme.draw_overlay_card(surface, rect, scale)
        y = rect.y + round(18 * scale)
        title = fonts.text(
            fonts.fit(self.title, 22 * scale, rect.w - 40, bold=True), 22 * scale, theme.IVORY, bold=True
        )
        surface.blit(title, title.get_rect(midtop=(rect.centerx, y)))
        y += title.get_height() + round(10 * scale)
        for line in fonts.wrap(self.text, 15 * scale, rect.w - 2 * round(24 * scale)):
            rendered = fonts.text(line, 15 * scale, theme.IVORY_DIM)
            surface.blit(rendered, rendered.get_rect(midtop=(rect.centerx, y)))
            y += rendered.get_height() + round(4 * scale)
        focused = self.buttons.get(self.choices[self.focus].key)
        if focused is not None:
            ring = focused.rect.inflate(round(8 * scale), round(8 * scale))
            pygame.draw.rect(surface, theme.GOLD_BRIGHT, ring, max(2, round(3 * scale)), round(8 * scale))
