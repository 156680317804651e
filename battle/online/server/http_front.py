"""Plain HTTP on the game port: every request that is not a WebSocket handshake is answered here.

websockets reads each connection's first request and asks ``HttpFront.answer`` what to do
with it: ``GET /healthz`` (``ok``) and ``GET /stats`` (live counts as text) for a service
manager or a proxy, and the browser client's files (``web_files``); None lets a WebSocket
handshake go on to the game server. Behind a trusted proxy the handshake is also where the
client's own address is found (the proxy's is every client's) and counted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from http import HTTPStatus

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from battle.online.server import web_files
from battle.online.server.address_guard import AddressGuard
from battle.online.server.connections import Peer, forwarded_address
from battle.online.server.server_limits import ServerLimits


class HttpFront:
    """The answers to plain HTTP requests, and the handshake's look at a trusted proxy's header."""

    def __init__(self, guard: AddressGuard, limits: ServerLimits, stats: Callable[[], str]) -> None:
        self.guard = guard
        self.limits = limits
        self.stats = stats
        """The body of ``GET /stats``."""

    def answer(self, connection: ServerConnection, request: Request) -> Response | None:
        """The response to ``request``, or None to go on with the WebSocket handshake."""
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return text_response(connection, HTTPStatus.OK, "ok\n")
        if path == "/stats":
            return text_response(connection, HTTPStatus.OK, self.stats())
        page = web_files.answer(request)  # the browser client's files; None for a WebSocket handshake
        if page is not None:
            return page
        if self.limits.trust_proxy:
            forwarded = forwarded_address(request.headers)
            if forwarded is not None:
                refusal = self.guard.admit(forwarded)
                if refusal is not None:
                    return text_response(connection, HTTPStatus.TOO_MANY_REQUESTS, refusal + "\n")
                if isinstance(connection, Peer):
                    connection.counted.append(forwarded)
                    connection.client_address = forwarded
        return None


def stats_text(
    guard: AddressGuard, waiting: int, playing: int, moves_told: Iterable[float], commit_seconds: Iterable[float]
) -> str:
    """The live counts ``GET /stats`` shows, one ``name value`` a line: ``moves_told`` are the
    monotonic times of recent moves, ``commit_seconds`` how long recent writes took."""
    now = time.monotonic()
    recent = sum(1 for stamp in moves_told if now - stamp <= 10.0)
    commits = sorted(commit_seconds)
    lines = [
        ("connections", str(guard.total)),
        ("client_addresses", str(len(guard.connections))),
        ("games_waiting", str(waiting)),
        ("games_playing", str(playing)),
        ("moves_per_second", f"{recent / 10.0:.1f}"),
        ("commit_ms_p50", _percentile_ms(commits, 0.50)),
        ("commit_ms_p99", _percentile_ms(commits, 0.99)),
    ]
    return "".join(f"{name} {value}\n" for name, value in lines)


def text_response(connection: ServerConnection, status: HTTPStatus, text: str) -> Response:
    response = connection.respond(status, text)
    response.headers["Content-Type"] = "text/plain; charset=utf-8"
    response.headers["Cache-Control"] = "no-store"
    return response


def _percentile_ms(ordered: list[float], fraction: float) -> str:
    if not ordered:
        return "-"
    return f"{ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] * 1000:.2f}"
