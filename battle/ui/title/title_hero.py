"""The title's hero: a fan of tiles floating over the game's name and its one-line pitch.

The fan is rendered once per window size and a frame only blits it; it floats 2 px each
way (scaled) over a 5.2 s period, which is about 8 redraws a period rather than 60 frames
a second, so an idle title costs next to no CPU.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from battle.i18n import N_, _
from battle.ui.art import theme
from battle.ui.art.theme import Fonts
from battle.ui.art.tile_art import TileArt

HERO_KINDS = (18, 4, 13, 22, 8, 9, 26)
"""The tiles fanned above the title: the bird (1 bamboo) first, then a mix of suits."""

TAGLINE = N_("Take pairs of free tiles, score their value: 270 points in play, the bigger share wins.")


@dataclass(frozen=True)
class HeroPlace:
    """Where the hero goes at the window's size, in pixels."""

    top: int
    height: int
    shrink: float
    """The hero's height as a share of its full height (a short window shrinks it)."""
    card_top: int
    """The form's card below: the tagline is left out rather than drawn under it."""


class TitleHero:
    def __init__(self) -> None:
        self.fan: pygame.Surface | None = None

    def render(self, art: TileArt, scale: float) -> None:
        """The fan of tiles at ``scale`` (the layout's scale times the hero's shrink)."""
        tile_h = max(24, round(92 * scale))
        tile_w = round(tile_h * 0.75)
        count = len(HERO_KINDS)
        width = round(tile_w * count * 0.82 + tile_w * 2)
        height = round(tile_h * 1.6)
        fan = pygame.Surface((width, height), pygame.SRCALPHA)
        fan.fill((0, 0, 0, 0))
        for index, kind in enumerate(HERO_KINDS):
            t = index / (count - 1) - 0.5
            tile = pygame.Surface((tile_w + 12, tile_h + 12), pygame.SRCALPHA)
            tile.fill((0, 0, 0, 0))
            art.draw(tile, kind, (2, 2), tile_w, tile_h)
            rotated = pygame.transform.rotozoom(tile, -t * 36, 1.0)
            cx = width / 2 + t * tile_w * count * 0.78
            cy = height * 0.56 + (t * t) * tile_h * 0.9
            fan.blit(rotated, rotated.get_rect(center=(round(cx), round(cy))))
        self.fan = fan

    @staticmethod
    def bob(clock: float, scale: float) -> int:
        """The fan's float at ``clock`` seconds, in whole pixels."""
        return round(math.sin(clock * 1.2) * 2 * scale)

    def next_move_in(self, clock: float, scale: float) -> float | None:
        """Seconds until the fan next moves a pixel (None: nothing rendered, nothing moves)."""
        if self.fan is None:
            return None
        now = self.bob(clock, scale)
        for frame in range(1, 121):
            if self.bob(clock + frame / 60, scale) != now:
                return frame / 60
        return 2.0

    def draw(self, surface: pygame.Surface, fonts: Fonts, place: HeroPlace, clock: float, scale: float) -> None:
        w = surface.get_width()
        if self.fan is not None:
            lift = round(28 * scale * place.shrink)
            surface.blit(self.fan, self.fan.get_rect(midtop=(w // 2, place.top + self.bob(clock, scale) - lift)))
        title_y = place.top + round(place.height * 0.70)
        mark = fonts.text("麻将", 30 * scale, theme.GOLD, bold=True)
        title = fonts.text(_("Mahjong Battle"), 44 * scale, theme.IVORY, bold=True)
        space = round(14 * scale)
        x = (w - (mark.get_width() + space + title.get_width())) // 2
        surface.blit(mark, mark.get_rect(midleft=(x, title_y)))
        surface.blit(title, title.get_rect(midleft=(x + mark.get_width() + space, title_y)))
        tagline = fonts.text(_(TAGLINE), 15 * scale, theme.IVORY_DIM)
        tagline_rect = tagline.get_rect(midtop=(w // 2, title_y + title.get_height() // 2 + round(8 * scale)))
        if tagline_rect.bottom < place.card_top:  # a short window squeezes it out rather than under the form
            surface.blit(tagline, tagline_rect)
