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
from contextlib import nullcontext
from dataclasses import dataclass, field

from battle.online.server.limits.guard_counts import Counts, CountsNow, MemoryCounts, Misses
from battle.online.server.limits.server import ServerLimits
from battle.online.server.limits.token_bucket import TokenBucket

CONNECTIONS = "connections"
"""What ``take_hold`` counts a network's open connections as."""


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
class AddressGuard:
    """Connections, wrong codes and waiting games per client network, under ``ServerLimits``.

    Every method takes a client's address as the server saw it and counts it under its network."""

    limits: ServerLimits
    connections: dict[str, int] = field(default_factory=dict)
    """Open connections of this process per network (only networks with one or more): ``/stats``."""
    total: int = 0
    """Open connections of this process in all: its file descriptors bound this, so it is its own."""
    refusing: int = 0
    """Connections over a cap kept open only to be told so (``refuse``)."""
    counts: Counts = field(default_factory=MemoryCounts)
    """Where the wrong codes, the starts and what each network holds open are counted: this process's
    (``MemoryCounts``), or the file every process of the server shares (``SharedCounts``), so that a
    network's connections count once wherever they are served."""
    _waiting: dict[str, set[str]] = field(default_factory=dict)

    def network(self, address: str) -> str:
        """The network ``address`` is counted under."""
        return network_of(address, self.limits.ipv6_prefix)

    # -- what a network holds open -------------------------------------------------------

    def take_hold(self, kind: str, address: str, most: int | None, now: float) -> bool:
        """Count one more of ``kind`` held open by ``address``'s network, unless it holds ``most``
        already (None: count it whatever it holds, as for a trusted proxy's connection, whose client's
        cap ``reassign`` checks); False, counting nothing, when it does."""
        network = self.network(address)
        with self.counts.held(now) as counts:
            if most is not None and counts.holding(kind, network) >= most:
                return False
            counts.hold(kind, network, 1)
        return True

    def let_go(self, kind: str, address: str, now: float) -> None:
        """One of ``kind`` that ``take_hold`` counted for ``address`` is closed."""
        with self.counts.held(now) as counts:
            counts.hold(kind, self.network(address), -1)

    # -- connections ---------------------------------------------------------------------

    def admit(self, address: str, now: float, *, per_address: bool = True) -> str | None:
        """Count a new connection from ``address``, or say in one line why it is refused (and count
        nothing). ``per_address=False`` counts it under its network without checking that network's
        cap (a trusted proxy's own address: the client's is known only once its request is read, and
        ``reassign`` moves it there)."""
        if self.total >= self.limits.connections:
            return "the server has as many connections as it can hold; try again later"
        most = self.limits.connections_per_address if per_address else None
        if not self.take_hold(CONNECTIONS, address, most, now):
            return f"{self.limits.connections_per_address} connections from your network are open already"
        self._count(self.network(address), 1)
        self.total += 1
        return None

    def reassign(self, counted: str, address: str, now: float) -> str | None:
        """Count a connection ``admit`` counted under ``counted`` under ``address`` instead, within
        ``address``'s cap (the same address: just checked against its cap); or say in one line why
        not, and change nothing."""
        network, before = self.network(address), self.network(counted)
        with self.counts.held(now) as counts:
            others = counts.holding(CONNECTIONS, network) - (1 if network == before else 0)
            if others >= self.limits.connections_per_address:
                return f"{self.limits.connections_per_address} connections from your network are open already"
            if network != before:
                counts.hold(CONNECTIONS, before, -1)
                counts.hold(CONNECTIONS, network, 1)
        if network != before:
            self._count(before, -1)
            self._count(network, 1)
        return None

    def release(self, address: str, now: float) -> None:
        """A connection ``admit`` (or ``reassign``) counted under ``address`` has closed."""
        self.let_go(CONNECTIONS, address, now)
        self._count(self.network(address), -1)
        self.total = max(0, self.total - 1)

    def _count(self, network: str, change: int) -> None:
        held = self.connections.get(network, 0) + change
        if held > 0:
            self.connections[network] = held
        else:
            self.connections.pop(network, None)

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

    def code_refusal(self, address: str, now: float, *, look_up: bool = True) -> str | None:
        """Why a code from ``address`` is not looked up now, or None when it may be.

        A network that got ``free_failed_codes`` codes wrong waits before its next try, twice as
        long after each further miss (up to ``failed_code_wait_max``); and the whole server looks
        up no code while its budget of wrong ones is spent. A refused try counts as a miss of its
        network's (never of the server's budget): trying on while told to wait only waits longer.

        A code let through is counted wrong at once, against both (``look_up``; False only asks),
        in the same block as the decision, so two processes' look-ups never both take the last
        try; ``code_found`` gives it back."""
        network = self.network(address)
        with self.counts.held(now) as counts:
            record = self._forget_old(counts, network, now)
            if record is not None and now < record.blocked_until:
                longer = self._miss(counts, network, now)  # trying on while told to wait waits longer
                return f"too many wrong codes from your network; try again in {_seconds(longer.blocked_until - now)}"
            bucket = self._code_bucket(counts)
            level = bucket.level(now)
            if level < 1.0:
                self._miss(counts, network, now)
                wait = (1.0 - level) / bucket.rate
                return f"the server takes no codes for a moment (too many wrong ones); try again in {_seconds(wait)}"
            if look_up:
                self._miss(counts, network, now)
                bucket.spend(now)
                counts.put_bucket(CODES_KEY, bucket)
        return None

    def code_found(self, address: str, now: float) -> None:
        """The code ``code_refusal`` let through named a game: its miss and the server's token are
        given back."""
        network = self.network(address)
        with self.counts.held(now) as counts:
            record = counts.misses(network)
            if record is not None:
                record.failures -= 1
                record.blocked_until = 0.0  # it was let through: no wait of its own stood
                counts.put_misses(network, record if record.failures > 0 else None)
            bucket = self._code_bucket(counts)
            bucket.tokens = min(bucket.burst, bucket.level(now) + 1.0)
            counts.put_bucket(CODES_KEY, bucket)

    def link_failed(self, address: str, now: float) -> None:
        """``address`` sent a link's secret that the server never made: a miss of its network's,
        though nothing was looked up (so the server's budget is not spent)."""
        network = self.network(address)
        with self.counts.held(now) as counts:
            self._miss(counts, network, now)

    def _code_bucket(self, counts: CountsNow) -> TokenBucket:
        return counts.bucket(CODES_KEY, self.limits.failed_codes_per_second, self.limits.failed_codes_burst)

    def _miss(self, counts: CountsNow, network: str, now: float) -> Misses:
        record = self._forget_old(counts, network, now) or Misses()
        record.failures += 1
        record.last_failure = now
        beyond = record.failures - self.limits.free_failed_codes
        if beyond > 0:
            record.blocked_until = now + min(self.limits.failed_code_wait_max, 2.0 ** min(beyond - 1, 30))
        counts.put_misses(network, record)
        return record

    def _forget_old(self, counts: CountsNow, network: str, now: float) -> Misses | None:
        record = counts.misses(network)
        if record is not None and now - record.last_failure > self.limits.failed_code_memory:
            counts.put_misses(network, None)
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

    def made(self, game: str, now: float) -> None:
        """``game``, marked as being made by ``network_caps.refuse_start``, was stored or failed: its
        network's count takes it from the store now, or not at all."""
        with self.counts.held(now) as counts:
            for solver in (False, True):
                counts.drop_mark(making_kind(solver), game)

    def start_wait(self, address: str, now: float, *, within: CountsNow | None = None) -> float | None:
        """The seconds until ``address``'s network may start a game (``creates_per_hour``), or None
        when it may now; nothing is counted (``take_start`` counts). ``within``: in a block of the
        counts the caller holds."""
        return self._start(address, now, False, within)

    def take_start(self, address: str, now: float, *, within: CountsNow | None = None) -> float | None:
        """Count a game ``address``'s network starts (``creates_per_hour``), or the seconds until it
        may start one, counting nothing: the decision and the count are one block, so two processes
        never both start the network's last game."""
        return self._start(address, now, True, within)

    def take_par(self, address: str, now: float) -> float | None:
        """Count a par ``address``'s network has the solver work out (``pars_per_hour``), or the seconds
        until it may have one, counting nothing: one block of the counts every process shares, so a
        network meets the one bound whichever process serves it."""
        per_hour = self.limits.pars_per_hour
        return self._take(PAR_KEY + self.network(address), per_hour / 3600, per_hour, now, True, None)

    def _start(self, address: str, now: float, take: bool, within: CountsNow | None) -> float | None:
        rate, burst = self.limits.creates_per_hour / 3600, self.limits.create_burst
        return self._take(START_KEY + self.network(address), rate, burst, now, take, within)

    def _take(
        self, key: str, rate: float, burst: float, now: float, take: bool, within: CountsNow | None
    ) -> float | None:
        with nullcontext(within) if within is not None else self.counts.held(now) as counts:
            bucket = counts.bucket(key, rate, burst)
            level = bucket.level(now)
            if level < 1.0:
                return (1.0 - level) / bucket.rate
            if take:
                bucket.spend(now)
                counts.put_bucket(key, bucket)
        return None


CODES_KEY = "codes"
"""The server's budget of wrong codes, in ``counts``."""
START_KEY = "starts "
"""Before a network: its starts' bucket, in ``counts``."""
PAR_KEY = "pars "
"""Before a network: the bucket of the pars it has the solver work out, in ``counts``."""


def _seconds(value: float) -> str:
    whole = max(1, round(value))
    return f"{whole} s" if whole < 120 else f"{round(whole / 60)} min"


def making_kind(solver: bool) -> str:
    """The kind of the counts' marks of the games a network's seat is being made in (``made``)."""
    return "making_solver" if solver else "making"
