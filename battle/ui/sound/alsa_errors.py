"""ALSA's own error lines kept off the terminal: the window says "No sound" in its own words.

On a Linux machine without a sound card (a server, a virtual machine, a login over SSH) SDL
tries ALSA's ``default`` device, and ALSA's library prints eight ``ALSA lib ...`` lines on
stderr before SDL reports the failure that the window then shows on its status line. The lines
come from ALSA's error handler, which a program may replace (``snd_lib_error_set_handler``):
the handler set here prints nothing. Only the printing changes: a machine with a device opens
it as before, and a failure still reaches the window through SDL's error.

SDL loads ALSA by its shared library's name (``libasound.so.2``), so the copy loaded here is
the one SDL uses. Where there is no such library there is nothing to quiet.
"""

from __future__ import annotations

import ctypes
import sys

ALSA_LIBRARY = "libasound.so.2"

_HANDLER_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p)
"""``snd_lib_error_handler_t`` without its trailing ``...``: the handler reads none of it."""


def _ignore(file: bytes | None, line: int, function: bytes | None, error: int, text: bytes | None) -> None:
    return None


_silent_handler = _HANDLER_TYPE(_ignore)
"""Kept for the life of the program: ALSA calls it whenever it has something to say."""
_quieted: list[bool] = []


def quiet_alsa_errors() -> bool:
    """Give ALSA the silent handler, once; whether ALSA is now quiet (False off Linux or without ALSA)."""
    if _quieted:
        return _quieted[0]
    quiet = False
    if sys.platform.startswith("linux"):
        try:
            library = ctypes.CDLL(ALSA_LIBRARY)
            library.snd_lib_error_set_handler(_silent_handler)
            quiet = True
        except (OSError, AttributeError):  # no ALSA here, or one without the call
            quiet = False
    _quieted.append(quiet)
    return quiet
