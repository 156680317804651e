"""Where a server listens by default and what it allows (no networking here: the command line's
help reads these without loading the server)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

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
    games_per_network: int = 5
    """Unfinished games between people (waiting or being played) in which one client network may hold
    a seat, created or joined, and still create another (``--max-games-per-address``): one network
    creating and joining its own games in a loop filled 295 of 300 in 31 s, for good."""
    solver_games_per_network: int = 3
    """Unfinished games against the solver one client network may hold and still start another
    (``--max-solver-games-per-address``): each takes solver time at every move of its player's."""
    creates_per_hour: float = 60.0
    """Games (between people, against the solver, rematches) one client network may start an hour
    on average (``--creates-per-hour``): what bounds the finished games, and so the bytes, a
    network leaves in the database a day (docs/online.md) ..."""
    create_burst: int = 20
    """... and at once, before that rate applies."""
    pars_per_hour: float = 4.0
    """Pars of deals no catalogue knows that one client network may have the solver work out an hour,
    at most this many at once: each may take one of the pool's workers for up to about 25 minutes at the
    lowest priority, and a network that plays a few new deals an hour finds every one's par."""
    device_keys_per_hour: int = 20
    """Browsers' device keys one client network may file games under for the first time in an hour
    (``--device-keys-per-hour``; ``device_games``): a household or a class files a few, a script
    that makes a key a game fills no disk."""
    games_per_device: int = 2000
    """Games one device key holds (its statistics read that many); the next is played but not filed."""
    puzzle_ratings_per_hour: int = 30
    """Puzzle ratings (device keys without one yet) one client network may start in an hour
    (``--puzzle-ratings-per-hour``): a family or a school starts a few, while a script that makes a
    key a request fills no disk (30 rows of about 100 bytes)."""
    puzzle_attempts_per_hour: int = 600
    """Rated puzzle attempts one client network may make in an hour (``--puzzle-attempts-per-hour``;
    10 a minute, a puzzle every 6 s for a whole household): a script that opens and gives up puzzles
    in a loop adds at most 600 rows of about 275 bytes an hour, 4 MB a day, each deleted after
    ``--keep-days`` (``old_games``)."""
    puzzles_open_per_network: int = 8
    """Connections of one client network that may hold a puzzle open at once, in every process together
    (``--max-puzzles-open-per-address``): a household's or a class's tabs. An open puzzle stops its
    connection's idle clock as a game does, so without this bound 157 networks of 64 connections each
    held every one of 10,000 connection slots with puzzles nobody played."""
    lobby_followers_per_network: int = 8
    """Connections of one client network that may follow the lobby at once
    (``--max-lobby-followers-per-address``): a follower has no idle clock, as an open puzzle has none."""
    abandon_seconds: float = 3 * 24 * 3600.0
    """How long the player to move of a game without a clock that loses may take before the game
    ends (abandoned, or aborted before move 2: ``game_ends``; ``--abandon-hours``)."""
    abandon_one_network_seconds: float = 6 * 3600.0
    """The same for a game whose two seats came from one network, or against the solver
    (``--abandon-hours-one-network``): nobody else waits for it, and it holds one of that network's
    few seats."""
    keep_seconds: float = 30 * 24 * 3600.0
    """How long a finished game (and its review) stays in the database after it ended, or after its
    review was made if later (``--keep-days``; ``old_games``)."""
    connections: int = 10_000
    """Open connections in all; ``running_server`` lowers it to fit the open-files limit."""
    connections_per_address: int = 64
    """Open connections from one client network (a household or a school behind one NAT shares one)."""
    ipv6_prefix: int = 64
    """Bits of an IPv6 address that name its network, counted as one client (``--ipv6-prefix``): a
    home router hands out a /64. An IPv4 address counts alone."""
    refusal_slots: int = 16
    """Connections over a cap kept open at once for the moment it takes to answer them 503 (server
    full) or 429 (the network's cap) with a line of text; beyond them one is closed as it is accepted."""
    hello_seconds: float = 5.0
    """A connection that has not said ``hello`` this long after it opened is closed."""
    pick_seconds: float = 60.0
    """A connection that has said ``hello`` and has been in no game and without work in the solver
    pool this long (from its ``hello``, or from the end of its last work) is closed (``--idle-seconds``):
    a connection holds a file descriptor, and one that only talks serves nobody."""
    spectators_per_game: int = 50
    """Connections watching one game at once; the next ``watch`` is refused ``full``."""
    presence_seconds: float = 1.0
    """At most one ``state`` a game tells of a seat connecting or leaving this often: a client that
    resumes in a loop cannot make the game's every connection read its state in that loop."""
    peer_buffer: int = 64 * 1024
    """Bytes the server queues for one connection that it has not taken off its hands yet; past it
    the connection is sent nothing more until it drains (then a fresh ``state``), and one whose
    queue stays full for ``ping_timeout`` is dropped."""
    allowed_origins: tuple[str, ...] = ()
    """Web pages besides the server's own whose scripts may open a connection (``--allow-origin``),
    as ``scheme://host[:port]``; a handshake with any other ``Origin`` is refused (403)."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names besides its own address, localhost, this machine's name and ``--public-url``'s that
    a request's ``Host`` may give (``--allow-host``); any other gets 421 (``served_hosts``)."""
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
    """Seconds a peer has to answer a ping, or to take what is queued for it off a full buffer."""
    clock_tick: float = 1.0
    """Seconds between checks of the per-move time limits."""


DEFAULT_PORTS = {"http": 80, "https": 443}


def web_origin(text: str) -> str:
    """A web page's origin as a browser sends it in ``Origin``, in canonical form: ``scheme://host``
    with the port only when it is not the scheme's default (``HTTPS://Games.example.org:443/`` gives
    ``https://games.example.org``). Raises ``ValueError`` naming what is wrong."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError as error:
        raise ValueError(f"{text!r} is not an origin like https://games.example.org: {error}") from None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/") or parts.query:
        raise ValueError(f"{text!r} is not an origin like https://games.example.org (scheme, host and port only)")
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{scheme}://{host}" + ("" if port in (None, DEFAULT_PORTS[scheme]) else f":{port}")
