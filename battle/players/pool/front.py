"""What a game server uses of a solver pool, as two protocols: the pool in its own process
(``battle.players.pool.queue.SolverPool``) and a pool another process owns, reached over a Unix socket
(``battle.players.pool.client.PoolClient``), both satisfy them, so a server takes either.

Beside them, what the two share as code: a ticket's state (``TicketState``), and the ``with`` block
that closes a pool, a client or a pool's service at its end (``ClosesOnExit``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from battle.players.pool.jobs import AnalysisResult, Job, Result
    from battle.players.pool.reconnection import ClusterState
    from battle.players.pool.schedule import Budget, Refusal, Standing

__all__ = ["ClosesOnExit", "PoolFront", "PoolTicket", "Progress", "TicketState"]

Progress = Callable[["AnalysisResult"], None]
"""What gets each step of a deepening analysis but the last (on a thread of the pool's)."""


class PoolTicket(Protocol):
    """One submitted job: its result to await, its place to show, its cancellation."""

    @property
    def future(self) -> Future[Result]:
        """Resolves to the job's result, fails with ``PoolError``, or is cancelled (cancelling it
        cancels the work)."""

    @property
    def refusal(self) -> Refusal | None:
        """Why a deepening analysis ended before its last depth (its budget), else None."""

    @property
    def admitted(self) -> Future[Refusal | None]:
        """The pool's answer to the submission: None when it took the work, else its ``Refusal``.
        This process's pool answers before ``submit`` returns; another process's a moment later."""

    @property
    def cpu_seconds(self) -> float:
        """Solver CPU seconds its units spent; final once ``future`` is done."""

    def result(self, timeout: float | None = None) -> Result: ...

    def cancel(self) -> None: ...

    def place(self) -> int | None: ...

    def standing(self) -> Standing | None: ...


class PoolFront(Protocol):
    """The queue a server submits its solver work to (``battle.players.pool.queue.SolverPool`` describes each
    call)."""

    def submit(
        self, job: Job, *, seat: str, address: str, on_progress: Progress | None = None
    ) -> PoolTicket | Refusal: ...

    def cancel_seat(self, seat: str) -> None: ...

    def standings(self) -> Mapping[Any, Standing]:
        """Every waiting or running ticket's standing, keyed by the tickets ``submit`` returned (``Any``:
        each pool's own ticket class, which a mapping's invariant key type cannot widen)."""

    def stats(self) -> dict[str, int]: ...

    def cluster(self) -> ClusterState | None: ...

    @property
    def budget(self) -> Budget | None: ...

    def budget_left(self, address: str) -> float | None: ...

    def close(self) -> None: ...


class TicketState:
    """What every pool's ticket holds (``PoolTicket``): the job, its seat and address, its result to
    await, the CPU seconds its units spent, a deepening analysis's early end and the pool's answer to
    the submission. The pool sets them; ``result`` blocks until the first."""

    def __init__(self, job: Job, seat: str, address: str) -> None:
        self.job = job
        self.seat = seat
        self.address = address
        self.future: Future[Result] = Future()
        self.cpu_seconds = 0.0
        """Solver CPU seconds its units spent, a stopped or retried one's included; final once ``future``
        is done."""
        self.refusal: Refusal | None = None
        """Why a deepening analysis ended before its last depth (its budget), else None."""
        self.admitted: Future[Refusal | None] = Future()
        """The pool's answer to the submission: None when it took the work, else its ``Refusal``."""

    def result(self, timeout: float | None = None) -> Result:
        """Block until the result (scripts and tests; a server awaits ``future``)."""
        return self.future.result(timeout)


_Closing = TypeVar("_Closing", bound="ClosesOnExit")


class ClosesOnExit:
    """Closed at the end of a ``with`` block: ``with open_pool() as pool:``."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self: _Closing) -> _Closing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
