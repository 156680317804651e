"""The token bucket both rate limits share: full at the start, refilled with time, never over its burst."""

from __future__ import annotations

from battle.online.server.limits.token_bucket import TokenBucket


def test_a_bucket_starts_full_refills_with_time_and_counts_refusals() -> None:
    bucket = TokenBucket(rate=2.0, burst=3)
    assert [bucket.take(10.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.refused == 1
    assert bucket.take(10.5) and not bucket.take(10.5)  # half a second: one token back
    assert bucket.level(100.0) == 3.0  # never more than the burst
    for _ in range(5):
        bucket.spend(100.0)
    assert bucket.level(100.0) == 0.0 and bucket.refused == 2  # spending never goes below empty
