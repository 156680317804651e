"""Plain HTTP on the game port: every request is looked at here before anything else is done with it.

websockets reads each connection's first request (``Peer`` reads no further: a pipelined one
after it is dropped, as every answer closes the connection) and asks ``HttpFront.answer``:

- a connection over a cap (``Peer.refusal``) gets 503 (the server is full) or 429 (its
  network's cap), with the reason as a line of text;
- a request whose ``Host`` names no host this server serves gets 421 (``served_hosts``: a
  DNS-rebinding page names its own), one without a ``Host`` 400; behind a trusted proxy its
  ``X-Forwarded-Host`` is checked too. A WebSocket handshake among them gets no 101;
- a method other than ``GET`` and ``HEAD`` gets 405; ``HEAD`` gets ``GET``'s headers alone;
- ``GET /healthz`` (``ok``) and ``GET /stats`` (live counts) for a service manager or a proxy,
  and the browser client's files (``web_files``);
- a WebSocket handshake goes on (None) when its ``Origin``, if it sends one, is the server's
  own page or one ``--allow-origin`` names (any other page's script gets 403: else every
  visitor of a stranger's page would be one more address against this server). Behind a
  trusted proxy its connection is counted under the client's address the proxy forwards, and
  one without that header under the proxy's own, each within the per-network cap.

Every answer carries one ``Content-Type``, ``nosniff`` and the content security policy.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Iterable
from http import HTTPStatus
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from battle.online.server.limits.address_guard import AddressGuard
from battle.online.server.limits.server import DEFAULT_HOST, ServerLimits, web_origin
from battle.online.server.peers.connections import Peer, forwarded_address
from battle.online.server.shell import web_files
from battle.online.server.shell.served_hosts import ServedHosts

METHODS = ("GET", "HEAD")
"""The methods answered; every answer is a page or a count, never a change."""
HOST_LOG_SECONDS = 10.0
"""At most one log line this often about a request naming a host the server does not serve: the host
learns which name a friend used (to give it with ``--allow-host``), a rebinding page cannot fill the log."""

log = logging.getLogger("mahjong-battle.server")


class HttpFront:
    """The answers to plain HTTP requests, and the checks on a WebSocket handshake."""

    def __init__(
        self, guard: AddressGuard, limits: ServerLimits, stats: Callable[[], str], listening: str = DEFAULT_HOST
    ) -> None:
        self.guard = guard
        self.limits = limits
        self.stats = stats
        """The body of ``GET /stats``."""
        self.hosts = ServedHosts.of_server(listening, limits.public_url, limits.allowed_hosts)
        """The names a request's ``Host`` may give (IP addresses and ``localhost`` always)."""
        self.origins = frozenset(limits.allowed_origins) | _public_origin(limits.public_url)
        """The pages from elsewhere that may connect: ``--allow-origin``'s and ``--public-url``'s."""
        self._host_logged = -HOST_LOG_SECONDS

    def answer(self, connection: ServerConnection, request: Request) -> Response | None:
        """The response to ``request``, or None to go on with the WebSocket handshake."""
        if isinstance(connection, Peer) and connection.refusal is not None:
            status = HTTPStatus.SERVICE_UNAVAILABLE if connection.server_full else HTTPStatus.TOO_MANY_REQUESTS
            return text_response(status, connection.refusal + "\n")
        misdirected = self._host_refusal(request)
        if misdirected is not None:
            return misdirected
        method = getattr(request, "method", "GET")  # websockets before 17 reads GET requests only
        if method not in METHODS:
            refused = text_response(HTTPStatus.METHOD_NOT_ALLOWED, f"{method[:20]} is not answered here\n")
            refused.headers["Allow"] = ", ".join(METHODS)
            return refused
        if method == "GET" and web_files.is_websocket(request):
            return self._handshake(connection, request)
        found = self._page(request)
        return dataclasses.replace(found, body=b"") if method == "HEAD" else found

    def _host_refusal(self, request: Request) -> Response | None:
        """421 for a request that names a host this server does not serve (400 for one that names
        none); None for one it serves."""
        given = request.headers.get_all("Host")
        if len(given) != 1:
            return text_response(HTTPStatus.BAD_REQUEST, "a request names the server in one Host header\n")
        names = list(given)
        if self.limits.trust_proxy:
            names += [name for header in request.headers.get_all("X-Forwarded-Host") for name in header.split(",")]
        for name in names:
            if not self.hosts.serves(name):
                shown = name.strip()[:100].encode("ascii", "replace").decode()
                self._log_host(shown)
                return text_response(
                    HTTPStatus.MISDIRECTED_REQUEST,
                    f"{shown!r} is no name of this server: it answers to its own address, localhost, "
                    "--public-url and --allow-host\n",
                )
        return None

    def _log_host(self, shown: str) -> None:
        now = time.monotonic()
        if now - self._host_logged >= HOST_LOG_SECONDS:
            self._host_logged = now
            log.warning("refused a request naming the server %r (421); serve --allow-host NAME answers a name", shown)

    def _page(self, request: Request) -> Response:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return text_response(HTTPStatus.OK, "ok\n")
        if path == "/stats":
            return text_response(HTTPStatus.OK, self.stats())
        return web_files.answer(request) or text_response(HTTPStatus.NOT_FOUND, "not found\n")

    def _handshake(self, connection: ServerConnection, request: Request) -> Response | None:
        origin = request.headers.get("Origin")
        if origin is not None and not self._origin_allowed(origin, request):
            return text_response(
                HTTPStatus.FORBIDDEN,
                f"a page from {origin[:100]} may not connect here; this server takes its own page "
                "(and those --allow-origin names)\n",
            )
        if self.limits.trust_proxy and isinstance(connection, Peer) and connection.counted is not None:
            forwarded = forwarded_address(request.headers)
            address = forwarded or connection.counted
            refusal = self.guard.reassign(connection.counted, address, time.monotonic())
            if refusal is not None:
                return text_response(HTTPStatus.TOO_MANY_REQUESTS, refusal + "\n")
            connection.counted, connection.client_address = address, forwarded
        return None

    def _origin_allowed(self, origin: str, request: Request) -> bool:
        try:
            wanted = web_origin(origin)
        except ValueError:
            return False  # "null" (a sandboxed page, a file), or nonsense
        if wanted in self.origins:
            return True
        hosts = [request.headers.get("Host", "")]
        if self.limits.trust_proxy:
            hosts.append(request.headers.get("X-Forwarded-Host", ""))
        return any(_same_host(wanted, host) for host in hosts)


def _public_origin(public_url: str | None) -> frozenset[str]:
    """The origin of the page at ``--public-url``: behind a proxy the browser's ``Origin`` names
    the public host while the ``Host`` header may name this server's own address."""
    if not public_url:
        return frozenset()
    parts = urlsplit(public_url)
    return frozenset({web_origin(f"{parts.scheme}://{parts.netloc}")})


def _same_host(origin: str, host: str) -> bool:
    """Whether the canonical ``origin`` names the host and port of a ``Host`` header (a missing port
    is the scheme's own): the page was loaded from the address it connects to."""
    scheme = origin.partition("://")[0]
    try:
        return bool(host.strip()) and web_origin(f"{scheme}://{host.strip()}") == origin
    except ValueError:
        return False


def stats_text(
    connections: int,
    addresses: int,
    waiting: int,
    playing: int,
    moves_told: Iterable[float],
    commit_seconds: Iterable[float],
    solver: Iterable[tuple[str, str]] = (),
) -> str:
    """The live counts ``GET /stats`` shows, one ``name value`` a line: the open ``connections``, the
    client ``addresses`` they come from; ``moves_told`` are the
    monotonic times of recent moves, ``commit_seconds`` how long recent writes took; ``solver``, the
    solver's lines (its games, its queue, its workers, its time spent), follow."""
    now = time.monotonic()
    recent = sum(1 for stamp in moves_told if now - stamp <= 10.0)
    commits = sorted(commit_seconds)
    lines = [
        ("connections", str(connections)),
        ("client_addresses", str(addresses)),
        ("games_waiting", str(waiting)),
        ("games_playing", str(playing)),
        ("moves_per_second", f"{recent / 10.0:.1f}"),
        ("commit_ms_p50", _percentile_ms(commits, 0.50)),
        ("commit_ms_p99", _percentile_ms(commits, 0.99)),
        *solver,
    ]
    return "".join(f"{name} {value}\n" for name, value in lines)


def text_response(status: HTTPStatus, text: str) -> Response:
    """A line (or lines) of text, never cached."""
    return web_files.response(status, text.encode("utf-8"), web_files.TEXT, cache="no-store")


def _percentile_ms(ordered: list[float], fraction: float) -> str:
    if not ordered:
        return "-"
    return f"{ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000:.2f}"
