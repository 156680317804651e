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
    wait_seconds: float = 24 * 3600.0
    """How long a game waits for its second player before it expires (``--wait-hours``)."""
    waiting_per_address: int = 5
    """Games one client address may keep waiting for a second player at once."""
    connections: int = 10_000
    """Open connections in all; ``running_server`` lowers it to fit the open-files limit."""
    connections_per_address: int = 64
    """Open connections from one client address (a household or a school behind one NAT shares one)."""
    hello_seconds: float = 5.0
    """A connection that has not said ``hello`` this long after it opened is closed."""
    free_failed_codes: int = 5
    """Wrong invite or watch codes an address may send before it must wait between tries."""
    failed_code_wait_max: float = 300.0
    """The longest wait after a wrong code: the wait doubles from 1 s with each further miss up to this."""
    failed_code_memory: float = 3600.0
    """Seconds after its last wrong code that an address starts afresh."""
    failed_codes_per_second: float = 5.0
    """Wrong codes the whole server takes a second, from every address together ..."""
    failed_codes_burst: int = 100
    """... and at once: past it no code is looked up until the budget refills."""
    trust_proxy: bool = False
    """Take the client's address from the ``X-Forwarded-For`` header a reverse proxy adds (only
    behind one: otherwise any client could name any address)."""
    public_url: str | None = None
    """``serve --public-url``: the address friends reach the server at (behind a proxy), the base of
    every link the clients hand out (``share_address``)."""
    ping_interval: float = 20.0
    """Seconds between keepalive pings; a peer that does not answer within ``ping_timeout`` is dropped."""
    ping_timeout: float = 20.0
    clock_tick: float = 1.0
    """Seconds between checks of the per-move time limits."""
