"""The solver time each client address gets by default: the defaults of ``serve``'s
``--solver-budget`` and ``--solver-refill``, here apart from ``outcomes`` so that the command line's
help reads them without the server's message types (40-50 ms of imports a command)."""

from __future__ import annotations

DEFAULT_BURST = 120.0
DEFAULT_RATE = 1 / 6
"""An address's solver time: two minutes saved up at most, a sixth of a core for ever (the pool's
``Budget``; ``docs/solver-pool.md`` says what they hold)."""
