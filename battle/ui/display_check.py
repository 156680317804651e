"""Whether the window has a screen to open on, asked before anything is drawn.

On Linux and the BSDs a window needs an X server (``DISPLAY``) or a Wayland compositor
(``WAYLAND_DISPLAY``). Without either (a login over SSH, a server with no desktop) SDL does not
fail: it tries X11, then Wayland (whose library prints an ``XDG_RUNTIME_DIR`` warning), then
settles on its ``offscreen`` driver, and the window runs for ever where nobody can see it. So the
command line asks first, and once more after SDL chose a driver (a ``DISPLAY`` naming a server
that is not there ends the same way). ``SDL_VIDEODRIVER`` set by hand is the user's choice and
is never second-guessed: ``dummy`` is how the tests and the screenshot tool run the window.
macOS and Windows always have their own display driver.
"""

from __future__ import annotations

from collections.abc import Mapping

INVISIBLE_DRIVERS = ("offscreen", "dummy")
"""SDL's video drivers that draw into memory only."""
OWN_DISPLAY_PLATFORMS = ("win32", "cygwin", "darwin")
"""Platforms whose window system needs no variable to be found."""


def display_missing(environ: Mapping[str, str], platform: str) -> bool:
    """Whether no display can be found before SDL is asked: no ``DISPLAY`` nor ``WAYLAND_DISPLAY``
    on a platform that needs one, and no ``SDL_VIDEODRIVER`` chosen by hand."""
    if platform.startswith(OWN_DISPLAY_PLATFORMS) or environ.get("SDL_VIDEODRIVER"):
        return False
    return not (environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def fell_back_to_no_display(driver: str | None, environ: Mapping[str, str]) -> bool:
    """Whether SDL, left to choose, chose a driver that shows nothing (``driver`` is
    ``pygame.display.get_driver()``, None when the display did not open)."""
    return driver in INVISIBLE_DRIVERS and not environ.get("SDL_VIDEODRIVER")


def sdl_fell_back(environ: Mapping[str, str]) -> bool:
    """After the display was opened: whether SDL settled on a driver that shows nothing, in which
    case the display is closed again for the caller to say so."""
    import pygame

    driver = pygame.display.get_driver() if pygame.display.get_init() else None
    if not fell_back_to_no_display(driver, environ):
        return False
    pygame.display.quit()
    return True
