"""What one client address may do, counted across its connections: how many it holds open,
how often it may get a code wrong, and how many games it keeps waiting.

Limits per connection alone do not hold against a stranger on the internet, who simply opens
more connections; limits per address do (lichess counts per address too). The address is the
peer's IP, or behind a reverse proxy the one the proxy forwards (``--trust-proxy``).

Pure bookkeeping: no sockets, no clock of its own (every method that depends on time takes
``now`` in monotonic seconds), so the tests drive it exactly and the server stays a thin shell.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from battle.online.server.server_limits import ServerLimits
from battle.online.server.token_bucket import TokenBucket


@dataclass
class _Lookups:
    """One address's wrong codes: how many in a row, and until when it must wait."""

    failures: int = 0
    last_failure: float = 0.0
    blocked_until: float = 0.0


@dataclass
class AddressGuard:
    """Connections, wrong codes and waiting games per client address, under ``ServerLimits``."""

    limits: ServerLimits
    connections: dict[str, int] = field(default_factory=dict)
    """Open connections per address (only addresses with one or more)."""
    total: int = 0
    """Open connections in all."""
    _lookups: dict[str, _Lookups] = field(default_factory=dict)
    _bucket: TokenBucket = field(init=False)
    _waiting: dict[str, set[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._bucket = TokenBucket(self.limits.failed_codes_per_second, self.limits.failed_codes_burst)

    # -- connections ---------------------------------------------------------------------

    def admit(self, address: str, *, per_address: bool = True) -> str | None:
        """Count a new connection from ``address``, or say in one line why it is refused (and count
        nothing). ``per_address=False`` checks only the total (the proxy's own address)."""
        if self.total >= self.limits.connections:
            return "the server has as many connections as it can hold; try again later"
        if per_address and self.connections.get(address, 0) >= self.limits.connections_per_address:
            return f"{self.limits.connections_per_address} connections from your address are open already"
        self.connections[address] = self.connections.get(address, 0) + 1
        self.total += 1
        return None

    def release(self, address: str) -> None:
        """A connection ``admit`` counted has closed."""
        held = self.connections.get(address, 0)
        if held <= 1:
            self.connections.pop(address, None)
        else:
            self.connections[address] = held - 1
        self.total = max(0, self.total - 1)

    # -- invite and watch codes ----------------------------------------------------------

    def code_refusal(self, address: str, now: float) -> str | None:
        """Why a code from ``address`` is not looked up now, or None when it may be.

        An address that got ``free_failed_codes`` codes wrong waits before its next try, twice
        as long after each further miss (up to ``failed_code_wait_max``); and the whole server
        looks up no code while its budget of wrong ones is spent."""
        record = self._forget_old(address, now)
        if record is not None and now < record.blocked_until:
            return f"too many wrong codes from your address; try again in {_seconds(record.blocked_until - now)}"
        level = self._bucket.level(now)
        if level < 1.0:
            wait = (1.0 - level) / self._bucket.rate
            return f"the server takes no codes for a moment (too many wrong ones); try again in {_seconds(wait)}"
        return None

    def code_failed(self, address: str, now: float) -> None:
        """``address`` sent a code that names no game."""
        record = self._forget_old(address, now) or self._lookups.setdefault(address, _Lookups())
        record.failures += 1
        record.last_failure = now
        beyond = record.failures - self.limits.free_failed_codes
        if beyond > 0:
            record.blocked_until = now + min(self.limits.failed_code_wait_max, 2.0 ** (beyond - 1))
        self._bucket.spend(now)

    def _forget_old(self, address: str, now: float) -> _Lookups | None:
        record = self._lookups.get(address)
        if record is not None and now - record.last_failure > self.limits.failed_code_memory:
            del self._lookups[address]
            return None
        return record

    # -- games waiting for a second player -----------------------------------------------

    def hosting(self, address: str, game_id: str) -> None:
        """``address`` created ``game_id``, which waits for its second player."""
        self._waiting.setdefault(address, set()).add(game_id)

    def waiting_from(self, address: str, is_waiting: Callable[[str], bool]) -> int:
        """How many games ``address`` created that still wait (the others are forgotten here)."""
        games = self._waiting.get(address)
        if not games:
            return 0
        games.difference_update([game for game in games if not is_waiting(game)])
        if not games:
            del self._waiting[address]
        return len(games)


def _seconds(value: float) -> str:
    whole = max(1, round(value))
    return f"{whole} s" if whole < 120 else f"{round(whole / 60)} min"
