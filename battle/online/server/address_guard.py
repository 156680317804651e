"""What one client network may do, counted across its connections: how many it holds open, how
often it may get a code wrong, how many games it keeps waiting, and how fast it starts games.

Limits per connection alone do not hold against a stranger on the internet, who simply opens
more connections; limits per address do (lichess counts per address too). And an address is
not a person either: one home router hands out a whole IPv6 /64, so an IPv6 address counts as
its network (``ServerLimits.ipv6_prefix`` bits, 64 by default) while an IPv4 address counts
alone (``network_of``). The address is the peer's IP, or behind a reverse proxy the one the
proxy forwards (``--trust-proxy``).

Pure bookkeeping: no sockets, no clock of its own (every method that depends on time takes
``now`` in monotonic seconds), so the tests drive it exactly and the server stays a thin shell.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, field

from battle.online.server.server_limits import ServerLimits
from battle.online.server.token_bucket import TokenBucket


def network_of(address: str, ipv6_prefix: int = 64) -> str:
    """The network ``address`` counts as: an IPv4 address itself, an IPv6 address its network of
    ``ipv6_prefix`` bits (``2001:db8:1:2::/64``); an IPv4 address written as IPv6
    (``::ffff:192.0.2.7``) is the IPv4 one, and text that is no address stays as it is."""
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])  # a scope (fe80::1%eth0) is no part of it
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, ipv6_prefix), strict=False))
    return str(parsed)


@dataclass
class _Lookups:
    """One network's wrong codes: how many in a row, and until when it must wait."""

    failures: int = 0
    last_failure: float = 0.0
    blocked_until: float = 0.0


@dataclass
class AddressGuard:
    """Connections, wrong codes and waiting games per client network, under ``ServerLimits``.

    Every method takes a client's address as the server saw it and counts it under its network."""

    limits: ServerLimits
    connections: dict[str, int] = field(default_factory=dict)
    """Open connections per network (only networks with one or more)."""
    total: int = 0
    """Open connections in all."""
    refusing: int = 0
    """Connections over a cap kept open only to be told so (``refuse``)."""
    _lookups: dict[str, _Lookups] = field(default_factory=dict)
    _bucket: TokenBucket = field(init=False)
    _waiting: dict[str, set[str]] = field(default_factory=dict)
    _creates: dict[str, TokenBucket] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._bucket = TokenBucket(self.limits.failed_codes_per_second, self.limits.failed_codes_burst)

    def network(self, address: str) -> str:
        """The network ``address`` is counted under."""
        return network_of(address, self.limits.ipv6_prefix)

    # -- connections ---------------------------------------------------------------------

    def admit(self, address: str, *, per_address: bool = True) -> str | None:
        """Count a new connection from ``address``, or say in one line why it is refused (and count
        nothing). ``per_address=False`` checks only the total (a trusted proxy's own address: the
        client's is known only once its request is read, and ``reassign`` counts it there)."""
        if self.total >= self.limits.connections:
            return "the server has as many connections as it can hold; try again later"
        network = self.network(address)
        if per_address and self.connections.get(network, 0) >= self.limits.connections_per_address:
            return f"{self.limits.connections_per_address} connections from your network are open already"
        self.connections[network] = self.connections.get(network, 0) + 1
        self.total += 1
        return None

    def reassign(self, counted: str, address: str) -> str | None:
        """Count a connection ``admit`` counted under ``counted`` under ``address`` instead, within
        ``address``'s cap (the same address: just checked against its cap); or say in one line why
        not, and change nothing."""
        network, before = self.network(address), self.network(counted)
        others = self.connections.get(network, 0) - (1 if network == before else 0)
        if others >= self.limits.connections_per_address:
            return f"{self.limits.connections_per_address} connections from your network are open already"
        if network != before:
            self._forget_connection(before)
            self.connections[network] = self.connections.get(network, 0) + 1
        return None

    def release(self, address: str) -> None:
        """A connection ``admit`` (or ``reassign``) counted under ``address`` has closed."""
        self._forget_connection(self.network(address))
        self.total = max(0, self.total - 1)

    def _forget_connection(self, network: str) -> None:
        held = self.connections.get(network, 0)
        if held <= 1:
            self.connections.pop(network, None)
        else:
            self.connections[network] = held - 1

    def refuse(self) -> bool:
        """Whether one more connection over a cap may stay open for the moment its refusal takes to
        say (at most ``refusal_slots`` at once; ``refused`` when it closes); else it is closed unanswered."""
        if self.refusing >= self.limits.refusal_slots:
            return False
        self.refusing += 1
        return True

    def refused(self) -> None:
        """A connection ``refuse`` kept open has closed."""
        self.refusing = max(0, self.refusing - 1)

    # -- invite and watch codes ----------------------------------------------------------

    def code_refusal(self, address: str, now: float) -> str | None:
        """Why a code from ``address`` is not looked up now, or None when it may be.

        A network that got ``free_failed_codes`` codes wrong waits before its next try, twice as
        long after each further miss (up to ``failed_code_wait_max``); and the whole server looks
        up no code while its budget of wrong ones is spent. A refused try counts as a miss of its
        network's (never of the server's budget): trying on while told to wait only waits longer."""
        network = self.network(address)
        record = self._forget_old(network, now)
        if record is not None and now < record.blocked_until:
            self._miss(network, now)
            return f"too many wrong codes from your network; try again in {_seconds(record.blocked_until - now)}"
        level = self._bucket.level(now)
        if level < 1.0:
            self._miss(network, now)
            wait = (1.0 - level) / self._bucket.rate
            return f"the server takes no codes for a moment (too many wrong ones); try again in {_seconds(wait)}"
        return None

    def code_failed(self, address: str, now: float) -> None:
        """``address`` sent a code that was looked up and names no game."""
        self._miss(self.network(address), now)
        self._bucket.spend(now)

    def link_failed(self, address: str, now: float) -> None:
        """``address`` sent a link's secret that the server never made: a miss of its network's,
        though nothing was looked up (so the server's budget is not spent)."""
        self._miss(self.network(address), now)

    def _miss(self, network: str, now: float) -> None:
        record = self._forget_old(network, now) or self._lookups.setdefault(network, _Lookups())
        record.failures += 1
        record.last_failure = now
        beyond = record.failures - self.limits.free_failed_codes
        if beyond > 0:
            record.blocked_until = now + min(self.limits.failed_code_wait_max, 2.0 ** min(beyond - 1, 30))

    def _forget_old(self, network: str, now: float) -> _Lookups | None:
        record = self._lookups.get(network)
        if record is not None and now - record.last_failure > self.limits.failed_code_memory:
            del self._lookups[network]
            return None
        return record

    # -- games waiting for a second player -----------------------------------------------

    def hosting(self, address: str, game_id: str) -> None:
        """``address`` created ``game_id``, which waits for its second player."""
        self._waiting.setdefault(self.network(address), set()).add(game_id)

    def not_hosting(self, address: str, game_id: str) -> None:
        """``game_id`` was never made after all (its write failed)."""
        self._waiting.get(self.network(address), set()).discard(game_id)

    def waiting_from(self, address: str, is_waiting: Callable[[str], bool]) -> int:
        """How many games ``address``'s network created that still wait (the others are forgotten here)."""
        network = self.network(address)
        games = self._waiting.get(network)
        if not games:
            return 0
        games.difference_update([game for game in games if not is_waiting(game)])
        if not games:
            del self._waiting[network]
        return len(games)

    # -- starting games ------------------------------------------------------------------

    def start_wait(self, address: str, now: float) -> float | None:
        """The seconds until ``address``'s network may start a game (``creates_per_hour``), or None
        when it may now; nothing is spent (``started`` spends)."""
        bucket = self._creates.get(self.network(address))
        if bucket is None:
            return None
        level = bucket.level(now)
        return None if level >= 1.0 else (1.0 - level) / bucket.rate

    def started(self, address: str, now: float) -> None:
        """``address``'s network started a game. Forgetting a network whose budget is full again loses
        nothing, so the buckets are pruned to those that are not once there are many."""
        network = self.network(address)
        bucket = self._creates.get(network)
        if bucket is None:
            if len(self._creates) >= CREATE_BUCKETS_PRUNED_AT:
                self._creates = {key: old for key, old in self._creates.items() if old.level(now) < old.burst}
            bucket = self._creates[network] = TokenBucket(self.limits.creates_per_hour / 3600, self.limits.create_burst)
        bucket.spend(now)


CREATE_BUCKETS_PRUNED_AT = 10_000
"""Networks whose starts are counted before the full buckets are let go (a few hundred KB)."""


def _seconds(value: float) -> str:
    whole = max(1, round(value))
    return f"{whole} s" if whole < 120 else f"{round(whole / 60)} min"
