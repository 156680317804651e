"""The link a player sends a friend, for the window and the terminal alike: built on the address
the server says a friend can reach (``welcome``'s ``share_url``), else on the one this client
used; and, when that can only work on this machine, a sentence that says so."""

from __future__ import annotations

from battle.i18n import _
from battle.online.protocol.addresses import is_loopback_url
from battle.online.protocol.codes import invite_link


def friend_link(server_url: str, share_url: str | None, code: str, purpose: str = "join") -> str:
    """``/join/CODE`` (or ``/watch/CODE``) on ``share_url`` when the server gave one, else on ``server_url``."""
    return invite_link(share_url or server_url, code, purpose)


def friend_server(server_url: str, share_url: str | None) -> str:
    """The server address for a friend's ``play --online``: ``share_url`` as ``ws://``/``wss://``,
    else ``server_url``."""
    if not share_url:
        return server_url
    scheme, rest = share_url.split("://", 1)
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}"


def here_only_note(link: str) -> str | None:
    """What to say of a link that names this machine only (127.0.0.1, localhost); None for any other."""
    if not is_loopback_url(link):
        return None
    return _(
        "This link works on this machine only. For a friend elsewhere, start the server with "
        "'serve --host 0.0.0.0' (your network) or behind a proxy with '--public-url URL' (docs/online.md)."
    )
