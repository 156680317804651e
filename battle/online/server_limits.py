"""Where a server listens by default and what it allows (no networking here: the command line's
help reads these without loading the server)."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_HOST = "127.0.0.1"
"""Loopback only: a plain start never opens a port to the network by surprise."""
DEFAULT_PORT = 8765


@dataclass(frozen=True)
class ServerLimits:
    """What one server allows; the defaults suit a server for friends on a small machine."""

    rate: float = 20.0
    """Messages a second a connection may send on average."""
    burst: int = 40
    """Messages a connection may send at once before the rate applies."""
    flood_close: int = 200
    """Messages refused for their rate, over the connection's life, after which it is closed (code 1008):
a client that keeps sending after its first ``rate_limited`` is not one that reads its answers."""
    games_per_connection: int = 20
    """Games one connection may create (a client that creates in a loop is cut off)."""
    open_games: int = 20_000
    """Unfinished games the server keeps; a create beyond it is answered ``busy``."""
    ping_interval: float = 20.0
    """Seconds between keepalive pings; a peer that does not answer within ``ping_timeout`` is dropped."""
    ping_timeout: float = 20.0
    clock_tick: float = 1.0
    """Seconds between checks of the per-move time limits."""
