"""Whether the X server a ``DISPLAY`` names answers, asked before SDL is: SDL, finding no X server
there, goes on to try Wayland, whose library prints its own line ("error: XDG_RUNTIME_DIR is
invalid or not set") before the game can say in its own words that no display answers.

An X server listens on a local socket (``/tmp/.X11-unix/X0`` for ``:0``, also in Linux's abstract
namespace) or on TCP port 6000 + N for ``host:N`` (an SSH tunnel's ``localhost:10.0``). Connecting
to it is all that is asked: a refusal means nobody listens; anything this module cannot read (a
macOS launchd path, an odd protocol) is left to SDL.
"""

from __future__ import annotations

import contextlib
import re
import socket

CONNECT_SECONDS = 2.0
"""How long a TCP display may take to accept: an SSH tunnel on this host accepts in milliseconds."""
_DISPLAY = re.compile(r"^(?:(?P<protocol>[a-z]+)/)?(?P<host>[^:/]*):(?P<number>\d+)(?:\.\d+)?$")


def x_server_answers(display: str) -> bool | None:
    """True when something accepts a connection where ``display`` points, False when nothing does,
    None when the name is not one this module reads."""
    found = _DISPLAY.match(display.strip())
    if found is None:
        return None
    protocol, host, number = found["protocol"], found["host"], int(found["number"])
    if protocol not in (None, "unix", "local", "tcp", "inet", "inet6"):
        return None
    if host in ("", "unix") and protocol in (None, "unix", "local"):
        return any(_unix_socket_answers(path) for path in (f"/tmp/.X11-unix/X{number}", f"\0/tmp/.X11-unix/X{number}"))
    return _tcp_answers(host or "localhost", 6000 + number)


def _unix_socket_answers(path: str) -> bool:
    if not hasattr(socket, "AF_UNIX"):
        return False
    with contextlib.closing(socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)) as probe:
        try:
            probe.connect(path)
        except OSError:
            return False
    return True


def _tcp_answers(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=CONNECT_SECONDS):
            return True
    except (OSError, UnicodeError, OverflowError):  # OverflowError: a display number past the last port
        return False
