"""The one percentile the benchmarks print: nearest rank, so a p99 is a value that was measured."""

from __future__ import annotations

import math


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of ``values`` (sorted or not): at least ``fraction`` of them are at
    or below it; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]
