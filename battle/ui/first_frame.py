"""The window's first frame, drawn before the heavy imports so the window is never black.

The window's own modules pull in pygame_gui, numpy and the door to the solver: 1-2 s on a
quiet machine with a warm cache, 8-10 s on a loaded one, and until they are in, nothing
could draw. This module imports only pygame and the settings (for the window's size), opens
the window, draws the felt, the title and a "loading..." line in the player's language (from
the catalogue compiled at an earlier start: Babel is one of the heavy imports), and flips: about 0.3 s after
the process starts (``benchmarks/first_frame.py``). ``battle.ui.app`` then takes the same
window over.

With ``MAHJONG_BATTLE_FIRST_FRAME_LOG=1`` the flip writes one JSON line to stderr: the time
(``time.time()``), the names in ``sys.modules`` at that moment and the "loading..." line shown, so a test or a benchmark
in another process can see when the frame came and what was loaded by then.
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass

import pygame
import pygame.freetype

from battle.i18n import N_, cached_gettext
from battle.resources import asset_path
from battle.ui.art import theme
from battle.ui.files.settings import Settings, load_settings

TITLE = "Mahjong Battle"
LOADING = N_("loading...")
LOG_VARIABLE = "MAHJONG_BATTLE_FIRST_FRAME_LOG"
FELT_RINGS = 24
"""Rings of the felt's radial gradient: smooth enough for a second's view, and the numpy-made
felt of the title follows at once."""


@dataclass
class FirstFrame:
    """What the first frame read on its way, handed to the ``App`` so nothing is read twice
    (a settings file set aside here must still be reported there)."""

    settings: Settings
    settings_problem: str | None


def size_from_environment() -> tuple[int, int] | None:
    """``MAHJONG_BATTLE_SIZE=1200x800``: the window's size for tools and tests (None: the remembered one)."""
    text = os.environ.get("MAHJONG_BATTLE_SIZE", "")
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        return None
    return (max(200, width), max(200, height))


def show_first_frame(requested: tuple[int, int] | None, language: str | None = None) -> FirstFrame:
    """Open the window at its size (``requested`` or the remembered one) and draw the first frame,
    its "loading..." in ``language`` (``--lang``), else the remembered one, else the system's.

    A display that cannot open leaves the window closed: the ``App`` opens it again and says why.
    """
    settings, problem = load_settings()
    loading = cached_gettext(LOADING, language or settings.language or None)
    try:
        pygame.display.init()
        surface = pygame.display.set_mode(requested or settings.window_size, pygame.RESIZABLE)
        pygame.display.set_caption(TITLE)
        draw_loading(surface, loading)
        pygame.display.flip()
    except pygame.error:
        return FirstFrame(settings, problem)
    if os.environ.get(LOG_VARIABLE, "") not in ("", "0"):
        line = json.dumps({"first_frame": time.time(), "modules": sorted(sys.modules), "loading": loading})
        print(line, file=sys.stderr, flush=True)
    return FirstFrame(settings, problem)


def draw_loading(surface: pygame.Surface, loading: str = LOADING) -> None:
    """The felt (concentric rings, no numpy), the title in gold and "loading..." under it."""
    w, h = surface.get_size()
    centre = (w // 2, round(h * 0.42))
    surface.fill(theme.FELT_EDGE)
    outer = round(1.25 * max(w, h) / 2)
    for ring in range(FELT_RINGS):
        t = (1 - ring / FELT_RINGS) ** 1.7
        pygame.draw.circle(
            surface,
            theme.mix(theme.FELT_CENTRE, theme.FELT_EDGE, t),
            centre,
            max(1, round(outer * (1 - ring / FELT_RINGS))),
        )
    scale = max(0.5, min(w / 1200, h / 800))
    pygame.freetype.init()
    title = _font(bold=True).render(TITLE, theme.GOLD, size=56 * scale)[0]
    surface.blit(title, title.get_rect(center=centre))
    note = _font(bold=False).render(loading, theme.IVORY_DIM, size=18 * scale)[0]
    surface.blit(note, note.get_rect(midtop=(centre[0], centre[1] + title.get_height() // 2 + round(18 * scale))))


def _font(bold: bool) -> pygame.freetype.Font:
    try:
        return pygame.freetype.Font(str(asset_path(*(theme.BOLD_FONT if bold else theme.REGULAR_FONT))))
    except OSError:
        return pygame.freetype.Font(None)  # a broken install still gets its frame
