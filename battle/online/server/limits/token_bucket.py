"""A token bucket: ``rate`` tokens a second, at most ``burst`` saved up, full at the start.

Pure: the caller passes the time (monotonic seconds), so the tests drive it exactly. The
server holds one per connection (its messages) and one in all (wrong invite codes).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class TokenBucket:
    rate: float
    burst: float
    tokens: float | None = None
    """None until the first look: the bucket starts full."""
    stamp: float = 0.0
    refused: int = 0
    """How many ``take`` calls found it empty, over its life."""

    def level(self, now: float) -> float:
        """The tokens at ``now``, refilled since the last look."""
        if self.tokens is None:
            self.tokens = float(self.burst)
        else:
            self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def take(self, now: float) -> bool:
        """Spend a token if there is one; False (and one more refusal counted) when empty."""
        level = self.level(now)
        if level >= 1.0:
            self.tokens = level - 1.0
            return True
        self.refused += 1
        return False

    def spend(self, now: float) -> None:
        """Spend a token whether or not there is one left (the bucket never goes below empty)."""
        self.tokens = max(0.0, self.level(now) - 1.0)
