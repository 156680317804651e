"""What may stop a search before it proves the value: seconds, nodes, depth."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """A search's budget; ``Limits()`` has none, and the search runs until the value is proved.

    The first limit reached stops the search, which then answers from its deepest
    completed iteration (``Analysis.exact`` false). A limit too large to wait for
    is no limit.
    """

    time: float | None = None
    """Seconds, counted from the start of the search proper (once the kernels are loaded)."""
    nodes: int | None = None
    """Nodes searched, over all threads; 0 or None: no limit."""
    depth: int | None = None
    """Moves deep; the search deepens to it and stops there (below 1 counts as 1)."""

