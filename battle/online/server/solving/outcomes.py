"""What the server's solver work can come to besides its answer, and how ``serve`` asks for a solver,
without the solver: the parts of the server that ask for work (``games``, ``analysis_boards``,
``reviews``) and the command line read these, while only ``work`` loads the pool (and numba
with it), and only when a server runs a solver."""

from __future__ import annotations

from dataclasses import dataclass

from battle.online.protocol.solver_messages import RefusalCode
from battle.online.server.solving.solver_time import DEFAULT_BURST, DEFAULT_RATE


@dataclass(frozen=True)
class SolverSetup:
    """How ``serve`` runs the solver: ``workers`` processes on this machine (None: one per core), or the
    Dask cluster at ``scheduler``; each address gets ``rate`` solver seconds a second, at most
    ``burst`` saved up."""

    workers: int | None = None
    scheduler: str | None = None
    burst: float = DEFAULT_BURST
    rate: float = DEFAULT_RATE


@dataclass(frozen=True)
class SolverRefusal:
    """Work the pool did not take: ``reason`` ``budget`` (the address's solver time is spent), ``busy``
    (the queue of its kind is full), ``queued`` (the address has as much of its kind waiting as it
    may), ``closed`` or ``unavailable`` (its cluster does not answer), and the seconds until the same
    work would be taken."""

    reason: str
    retry_after: float

    @property
    def code(self) -> RefusalCode:
        """The refusal's code on the wire, which the pages word."""
        codes: dict[str, RefusalCode] = {
            "budget": "budget",
            "queued": "queued",
            "closed": "closed",
            "unavailable": "unavailable",
        }
        return codes.get(self.reason, "busy")


@dataclass(frozen=True)
class Waiting:
    """Where submitted work stands: ``place`` 0 while the solver runs it, 1 when it starts next...;
    ``wait`` the seconds until its address's solver time pays for it (the solver's move in a game
    whose player's address has spent its time), 0 once paid for."""

    place: int
    wait: float = 0.0
    ahead: float = 0.0
    """Roughly the seconds of solver work ahead of it (``battle.players.pool.schedule.Standing.ahead``)."""
    at_least: int | None = None
    """The least the searched position's value can be, proved so far (``Standing.at_least``: a par's)."""


class WorkFailed(Exception):
    """Work the pool could not answer (its worker died too often, or the search failed: ``code``
    ``failed``), or whose pool went away meanwhile (``unavailable``, tried again after ``retry_after``
    seconds); the message is one line."""

    def __init__(self, message: str, code: RefusalCode = "failed", retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code: RefusalCode = code
        self.retry_after = retry_after


class WorkRefused(WorkFailed):
    """Work that a pool in another process refused after it was handed over (the server does not wait
    for that process's answer): as a ``SolverRefusal`` would have said, ``refused`` says why and when."""

    def __init__(self, refused: SolverRefusal) -> None:
        super().__init__(f"the solver pool refused it ({refused.reason})", refused.code, refused.retry_after)
        self.refused = refused
