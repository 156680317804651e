"""What may stop a search before it proves the value: seconds, nodes, depth, a clock reading."""

from __future__ import annotations

from dataclasses import dataclass

FULL_DEPTH = 127
"""The depth of a proof (the kernels store it with an exact entry, ``solver._search.FULL_DEPTH``): deeper
than any game (54 moves), so a depth limit up to it is one a search can be given."""

ITERATION_DEPTHS = (1, 2, 3, 4, 6, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48)
"""The depths a limited search completes in turn (the kernel's and plain Python's)."""


def depth_schedule(max_depth: int, *, limited: bool) -> list[int]:
    """Iterative deepening steps.

    Under a time or node budget, deepen step by step so that a stop always
    finds a completed iteration to answer with. Without one, go straight to
    the full depth: shallow iterations would only add nodes, since the exact
    search orders its moves well from the table as it goes.
    """
    if not limited:
        return [max_depth]
    return [d for d in ITERATION_DEPTHS if d < max_depth] + [max_depth]


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
    deadline: float | None = None
    """A ``time.monotonic()`` reading to stop at, for a caller whose clock started earlier (the
    command line counts from the start of its process). It includes loading the cached
    kernels but not their one-time compile after an install, which moves it back by as long
    as the compile took."""
    stop_after: float | None = None
    """Seconds after which the search stops without being limited by them: it runs as an
    unlimited one does (on a complete deal, a short preview, then straight to the full depth)
    and, stopped, answers from the preview. ``time`` instead deepens step by step so that it
    always has a recent answer, which costs a whole deal about 2.7x the nodes
    (docs/solver-notes.md); a caller that wants the exact value and only guards against a
    runaway search (the survey, the benchmarks) sets this."""
    stop_after_nodes: int | None = None
    """Nodes after which the search stops without being limited by them, as ``stop_after`` does for
    seconds: a caller that searches for the exact value in slices, each starting again from the
    table the ones before filled (the server pool's pars), sets this instead of ``nodes``."""

    @property
    def limited(self) -> bool:
        """Whether the search deepens step by step: a time, deadline, node or depth limit."""
        return bool(self.time is not None or self.deadline is not None or self.nodes or self.depth)
