"""Whether the solver pool's Dask scheduler answers, and when the pool tries it again: the pure core
of ``battle.players.pool.dask_cluster``'s reconnection, and of ``battle.players.pool.client``'s to a
shared pool's service.

A scheduler that goes away (restarted, its machine rebooted, the network cut) is tried again after
1 s, then 2, 4, 8 and 16 s, then every 30 s for as long as it takes, each try counted from the end of
the one before: a scheduler back in seconds is found in seconds, and one away for hours costs a
connection attempt every 30 s. The core reads no clock (every method takes ``now``, in monotonic
seconds) and runs nothing; the pool does the trying and says each change in one line.
"""

from __future__ import annotations

from dataclasses import dataclass

FIRST_DELAY = 1.0
"""Seconds from noticing the loss to the first try."""
LONGEST_DELAY = 30.0
"""The back-off doubles up to this many seconds between tries."""
ANSWER_SECONDS = 1.0
"""What a refusal adds to the wait for the next try: a scheduler that is back answers a try within a
second, so work asked again then finds the cluster connected."""


@dataclass(frozen=True)
class ClusterState:
    """The cluster as ``/stats`` shows it: ``connected`` (with ``workers``, its worker threads, when
    known), or the seconds until the next try."""

    connected: bool
    next_try_in: float = 0.0
    workers: int | None = None

    def text(self) -> str:
        """One word, or the word and what is missing: ``connected``, ``connected no_workers`` (its
        scheduler answers, and no worker is there to search), ``reconnecting next_try_in=4``."""
        if self.connected:
            return "connected no_workers" if self.workers == 0 else "connected"
        return f"reconnecting next_try_in={self.next_try_in:.0f}"


@dataclass
class ClusterLink:
    """The pool's link to its scheduler: connected, or lost since ``since`` and tried again at ``next_try``.

    Invariant: while lost, ``FIRST_DELAY <= delay <= LONGEST_DELAY`` and ``next_try`` is at most
    ``delay`` after the last loss or failed try."""

    connected: bool = True
    since: float = 0.0
    """When the link last changed (connected, or lost)."""
    next_try: float = 0.0
    """When to try the scheduler next (meaningless while connected)."""
    delay: float = FIRST_DELAY
    """The wait after the next failed try."""
    tries: int = 0
    """Tries that failed since the loss."""

    def lose(self, now: float) -> bool:
        """The scheduler stopped answering: the first try is ``FIRST_DELAY`` from now. True when this is
        news (the link was connected), False when it was already lost."""
        if not self.connected:
            return False
        self.connected = False
        self.since = now
        self.next_try = now + FIRST_DELAY
        self.delay = min(2 * FIRST_DELAY, LONGEST_DELAY)
        self.tries = 0
        return True

    def due(self, now: float) -> bool:
        """True when the lost link is to be tried now."""
        return not self.connected and now >= self.next_try

    def failed(self, now: float) -> None:
        """A try ended without an answer: the next one after ``delay``, which doubles up to ``LONGEST_DELAY``."""
        self.tries += 1
        self.next_try = now + self.delay
        self.delay = min(2 * self.delay, LONGEST_DELAY)

    def regain(self, now: float) -> float:
        """A try answered: connected again. Returns how long the link was lost, in seconds."""
        lost_for = now - self.since
        self.connected = True
        self.since = now
        self.delay = FIRST_DELAY
        return lost_for

    def wait(self, now: float) -> float:
        """Seconds until the next try (0 when due, or while one runs)."""
        return 0.0 if self.connected else max(0.0, self.next_try - now)

    def retry_after(self, now: float) -> float:
        """Seconds after which work refused now would find the cluster back, if it is back by the next try."""
        return self.wait(now) + ANSWER_SECONDS

    def state(self, now: float, workers: int | None = None) -> ClusterState:
        return ClusterState(self.connected, self.wait(now), workers if self.connected else None)
