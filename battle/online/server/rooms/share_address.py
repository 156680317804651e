"""The address a friend can reach this server at, for the link each client hands out.

A client knows only the address it used itself. When that is loopback (``serve`` started on
this machine, then ``play --online ws://127.0.0.1:8765`` or the page opened at
``http://127.0.0.1:8765``), a link built from it is dead on the friend's machine; the server
knows better and says so in ``welcome``'s ``share_url``:

- ``serve --public-url URL`` (behind a reverse proxy): that URL, always;
- a connection that reached the server by a loopback name, on a server that listens beyond
  loopback: ``http://`` one of this machine's LAN addresses and the port;
- anything else: nothing (null), and the client's own address is the one to share. A client on
  loopback of a server that listens on loopback alone then shows a link that works here only,
  and says so.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from battle.i18n import N_
from battle.online.protocol.addresses import is_loopback_host
from battle.rules.errors import BattleError

WILDCARDS = frozenset({"", "0.0.0.0", "::"})
"""Listening addresses that take connections on every interface."""
PROBE_ADDRESS = "192.0.2.1"
"""A documentation address (RFC 5737, never routed): a UDP socket "connected" to it names the
interface of the default route without sending a packet."""


def check_public_url(text: str) -> str:
    """``text`` as the base of links (``https://games.example.org``, no trailing slash); raises
    ``BattleError`` (a ``ValueError``) naming what is wrong for anything but an
    ``http(s)://HOST[:PORT][/PATH]``, worded in the reader's language where it is shown."""
    shown = repr(text[:80])
    try:
        parts = urlsplit(text.strip())
        parts.port  # noqa: B018 - reading it checks it
    except ValueError:
        raise BattleError(N_("{text} is not a URL: its port is not a number from 0 to 65535"), text=shown) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BattleError(
            N_("{text} is not a URL like https://games.example.org (http or https, with a host)"), text=shown
        )
    if parts.query or parts.fragment:
        raise BattleError(N_("{text}: a base for links has no ?query or #fragment"), text=shown)
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def _usable(address: str) -> bool:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    return parsed.version == 4 and not (parsed.is_loopback or parsed.is_link_local or parsed.is_unspecified)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses a neighbour can reach, best first: the default route's
    interface, then what the host name resolves to; private ranges (a home network) before others."""
    found: list[str] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect((PROBE_ADDRESS, 9))
            found.append(str(probe.getsockname()[0]))
        except OSError:  # no route at all: an offline machine has no neighbour either
            pass
    try:
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(sockaddr[0]))
    except OSError:  # a host name the resolver does not know
        pass
    usable = [address for address in dict.fromkeys(found) if _usable(address)]
    return sorted(usable, key=lambda address: not ipaddress.ip_address(address).is_private)


@dataclass(frozen=True)
class ShareAddress:
    """What a server tells its clients about the address to share."""

    public_url: str | None = None
    """``serve --public-url``: the base of every link, behind a proxy."""
    listening: tuple[str, ...] = ()
    """The addresses the server listens on (``0.0.0.0`` and ``::`` for every interface)."""
    port: int = 0
    lan: tuple[str, ...] = ()
    """This machine's LAN addresses (``lan_addresses``), looked up once when the server starts."""

    @classmethod
    def of_server(cls, public_url: str | None, sockets: list[tuple[str, int]]) -> ShareAddress:
        """For a server listening on ``sockets`` (``(host, port)`` of each listening socket)."""
        listening = tuple(dict.fromkeys(str(host) for host, _port in sockets))
        port = sockets[0][1] if sockets else 0
        wildcard = any(host in WILDCARDS for host in listening)
        return cls(public_url, listening, port, tuple(lan_addresses()) if wildcard and not public_url else ())

    def for_request(self, host_header: str | None, forwarded: bool) -> str | None:
        """The ``share_url`` for a connection that named the server ``host_header`` (its HTTP
        ``Host``); ``forwarded`` when it came through a trusted proxy (whose address is public)."""
        if self.public_url:
            return self.public_url
        if forwarded or not host_header or not is_loopback_host(_host_of(host_header)):
            return None
        reachable = [host for host in self.listening if host not in WILDCARDS and not is_loopback_host(host)]
        if any(host in WILDCARDS for host in self.listening):
            reachable += list(self.lan)
        if not reachable:
            return None
        host = reachable[0]
        return f"http://{f'[{host}]' if ':' in host else host}:{self.port}"


def _host_of(host_header: str) -> str:
    """The host of a ``Host`` header: ``127.0.0.1:8765`` and ``[::1]:8765`` give ``127.0.0.1`` and ``::1``."""
    text = host_header.strip()
    if text.startswith("["):
        return text[1 : text.find("]")] if "]" in text else text
    return text.rsplit(":", 1)[0] if text.count(":") == 1 else text
