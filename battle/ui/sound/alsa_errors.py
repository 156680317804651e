"""ALSA's own error lines kept off the terminal: the window says "No sound" in its own words.

On a Linux machine without a sound card (a server, a virtual machine, a login over SSH) SDL
tries ALSA's ``default`` device, and ALSA's library prints eight ``ALSA lib ...`` lines on
stderr before SDL reports the failure that the window then shows on its status line. The lines
come from ALSA's error handler, which a program may replace (``snd_lib_error_set_handler``):
the handler set here prints nothing. Only the printing changes: a machine with a device opens
it as before, and a failure still reaches the window through SDL's error.

SDL loads ALSA by its shared library's name (``libasound.so.2``), so the copy loaded here is
the one SDL uses. Where there is no such library there is nothing to quiet.

The handler is a C function that reads none of what it is given (libc's ``sched_yield``; the C
calling convention lets a function ignore arguments it was passed), never a Python function: a
Python handler needs Python's lock on whichever thread ALSA reports from, and SDL's ALSA thread
reports while the thread opening the mixer holds that lock and waits for SDL, which froze the
window for good.
"""

from __future__ import annotations

import ctypes
import sys

ALSA_LIBRARY = "libasound.so.2"
_quieted: list[bool] = []


def quiet_alsa_errors() -> bool:
    """Give ALSA the silent handler, once; whether ALSA is now quiet (False off Linux or without ALSA)."""
    if _quieted:
        return _quieted[0]
    quiet = False
    if sys.platform.startswith("linux"):
        try:
            library = ctypes.CDLL(ALSA_LIBRARY)
            silent = ctypes.cast(ctypes.CDLL(None).sched_yield, ctypes.c_void_p)
            library.snd_lib_error_set_handler.argtypes = [ctypes.c_void_p]
            library.snd_lib_error_set_handler(silent)
            quiet = True
        except (OSError, AttributeError):  # no ALSA here, or one without the call
            quiet = False
    _quieted.append(quiet)
    return quiet
