"""The host names this server answers to, read from a request's ``Host`` header.

A page at ``http://evil.example:8765`` whose name the stranger's DNS then points at this machine
(DNS rebinding) has its visitor's browser talk to this server as the stranger's own origin: the
``Origin`` check passes (``Origin`` and ``Host`` both name ``evil.example``), and the page's script
could play, read games and spend the solver from the visitor's address, a server on a LAN or on
loopback included. What gives it away is the ``Host`` header: the browser sends the name it
resolved. So a request is answered only when its ``Host`` names

- an IP address, any: a rebinding needs a name the stranger's DNS answers for, and a friend who
  dials an address (a LAN address, a VPN's, a router's public one forwarded here) uses it as is;
- ``localhost``;
- the name ``--host`` listens on, the host of ``--public-url``, this machine's own name (and its
  ``.local`` form, as mDNS gives it) and each ``serve --allow-host NAME``.

The port is not compared: the connection reached this port already, and a proxy passes the port
the browser used, its own (Caddy's ``localhost:443``). Behind ``--trust-proxy`` the
``X-Forwarded-Host`` a proxy adds is checked the same way.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

LOOPBACK_NAMES = frozenset({"localhost"})
"""Names every browser resolves to this machine itself, never through anyone's DNS."""
_NAME = re.compile(r"[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*")
"""A DNS name as it comes in a ``Host`` header: labels of letters, digits, ``-`` and ``_``."""
_HOST = re.compile(r"(?:\[(?P<literal>[0-9a-f:.]+)\]|(?P<name>[a-z0-9._-]+))(?::[0-9]{1,5})?")
"""A ``Host`` header: a name or an IPv4 address, or an IPv6 address in brackets, then maybe a port."""


def host_name(header: str) -> str | None:
    """The host a ``Host`` header names, in lower case, without its port, its brackets or a trailing
    dot (``Games.Example.org.:443`` gives ``games.example.org``, ``[::1]:8765`` gives ``::1``);
    None for a header that names no host (a user, a path, spaces, an empty name)."""
    found = _HOST.fullmatch(header.strip().lower())
    if found is None:
        return None
    literal = found["literal"]
    if literal is not None:
        return literal if _is_address(literal) else None
    name = found["name"].removesuffix(".")
    return name if _is_address(name) or _NAME.fullmatch(name) else None


def check_host_name(text: str) -> str:
    """``text`` as a name for ``--allow-host`` (``games.example.org``), in lower case; raises
    ``ValueError`` quoting it for anything else (a URL, a port, a space)."""
    wanted = text.strip().lower().removesuffix(".")
    name = host_name(wanted)
    if name is None or name not in (wanted, wanted.strip("[]")):
        raise ValueError(f"{text[:80]!r} is not a host name like games.example.org (no scheme, port or path)")
    return name


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def machine_names() -> frozenset[str]:
    """This machine's own name as the system knows it, the first label of it and their ``.local``
    forms (without asking any DNS server: a lookup could hang the start)."""
    whole = socket.gethostname().lower().removesuffix(".")
    if not whole or _NAME.fullmatch(whole) is None:
        return frozenset()
    short = whole.split(".", 1)[0]
    return frozenset({whole, short, f"{short}.local"})


@dataclass(frozen=True)
class ServedHosts:
    """The names a request's ``Host`` may give (IP addresses and ``localhost`` always)."""

    names: frozenset[str]

    @classmethod
    def of_server(cls, listening: str, public_url: str | None, allowed: Iterable[str]) -> ServedHosts:
        """For a server listening on ``listening`` (``--host``), reached at ``public_url``, with the
        names ``allowed`` (``--allow-host``)."""
        names = set(LOOPBACK_NAMES) | machine_names() | {name.lower() for name in allowed}
        listening_name = host_name(listening)
        if listening_name is not None:
            names.add(listening_name)
        public_name = urlsplit(public_url).hostname if public_url else None
        if public_name:
            names.add(public_name.lower().removesuffix("."))
        return cls(frozenset(names))

    def serves(self, header: str) -> bool:
        """Whether a ``Host`` (or ``X-Forwarded-Host``) header names this server."""
        name = host_name(header)
        return name is not None and (name in self.names or _is_address(name))
