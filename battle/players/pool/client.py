"""A solver pool another process of this machine owns, used as if it were this process's own: a
``PoolClient`` is a ``PoolFront`` (``battle.players.pool.front``) over the Unix socket of that process's
``serve_pool`` (``battle.players.pool.sharing``, which describes the frames).

Nothing a game process's event loop calls waits for the service. ``submit`` sends the job and returns
its ticket at once: the service's answer, about a tenth of a millisecond later on a well machine
(``benchmarks/pool_load.py --service``), resolves the ticket's ``admitted`` (None, or the
``Refusal``), and a refused ticket's future fails with ``PoolRefused``. A ticket's ``standing`` is the
one the service sent with its admission, brought up to date by each ``standings`` (which the server
asks off its loop once a second). ``standings``, ``stats``, ``cluster`` and ``budget_left`` are round
trips, for callers off the loop. The results come back on the client's reading thread, which
resolves the tickets' futures and calls their progress callbacks, never under the client's lock.

A service that is there but silent (its process stopped, its loop stuck): once a submission or a
round trip has waited ``ANSWER_SECONDS`` for its answer, the client is silent too: the submissions
still unanswered fail with ``PoolUnavailable``, and until the service's next frame work is refused
as ``"unavailable"`` at once and the round trips answer nothing, rather than wait.

The service going away (restarted, its process ended): every ticket waiting for it fails with
``PoolUnavailable`` (a ``PoolError`` that says so, with the seconds to the next try), work submitted
meanwhile is refused as ``"unavailable"`` with the same seconds, and the client connects again after
1, 2, 4, 8, 16 s and then every 30 s (``battle.players.pool.reconnection``'s back-off, as for a Dask
scheduler); ``cluster`` says which, for ``/stats``.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import socket
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, InvalidStateError
from concurrent.futures import TimeoutError as FutureTimeout
from functools import partial
from pathlib import Path
from typing import Any

from battle.players.pool.front import ClosesOnExit, PoolFront, Progress, TicketState
from battle.players.pool.jobs import AnalysisResult, Job, Result
from battle.players.pool.queue import PoolError, PoolRefused, PoolUnavailable, SolverPool
from battle.players.pool.reconnection import ClusterLink, ClusterState
from battle.players.pool.schedule import Budget, Refusal, Standing
from battle.players.pool.wire import (
    WireError,
    decode,
    decode_optional,
    decode_result,
    encode_tagged,
    frame,
    read_frame,
)

__all__ = ["ClientTicket", "PoolClient"]

log = logging.getLogger("mahjong-battle.solver-pool")

ANSWER_SECONDS = 5.0
"""The longest a submission or a round trip waits for the service's answer before the client gives up
on the service: a well one answers in a tenth of a millisecond, so five seconds is a process that is
stuck, not busy."""


class _Lost(Exception):
    """The service did not answer: not connected, or the connection ended while waiting."""


class ClientTicket(TicketState):
    """One job submitted through the service (``battle.players.pool.queue.Ticket``'s interface): its CPU
    seconds are the service's count when it ended, and its admission is ``"unavailable"`` when the
    service went away or fell silent first."""

    def __init__(self, client: PoolClient, number: int, job: Job, seat: str, address: str, progress: Progress | None):
        super().__init__(job, seat, address)
        self.number = number
        self.sent_at = 0.0
        """When the submission was sent (the client's clock)."""
        self._standing: Standing | None = None
        self._client = client
        self._progress = progress

    def admission(self, timeout: float | None = None) -> Refusal | None:
        """Wait for the service's answer to the submission (for callers off an event loop): None when
        it took the work, else why not."""
        return self.admitted.result(timeout)

    def cancel(self) -> None:
        self._client.cancel(self)

    def place(self) -> int | None:
        standing = self.standing()
        return None if standing is None else standing.place

    def standing(self) -> Standing | None:
        return self._client.standing(self)


class PoolClient(ClosesOnExit):
    """The pool a ``serve_pool`` serves at ``path``; an ``OSError`` when nothing answers there."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.Lock()
        self._tickets: dict[int, ClientTicket] = {}
        self._replies: dict[int, Future[Any]] = {}
        self._numbers = itertools.count(1)
        self._sending = threading.Lock()
        self._link = ClusterLink()
        self._socket: socket.socket | None = None
        self._budget: Budget | None = None
        self._closed = False
        self._redial: threading.Thread | None = None
        self._wake = threading.Event()
        self._silent = False
        """A call went unanswered, and the service has sent nothing since: calls do not wait for it."""
        self._unanswered: dict[int, ClientTicket] = {}
        """Submissions sent whose admission has not come yet, oldest first."""
        self._connect()

    # -- the server's side -----------------------------------------------------------------------

    def submit(
        self, job: Job, *, seat: str, address: str, on_progress: Progress | None = None
    ) -> ClientTicket | Refusal:
        """``SolverPool.submit`` through the service, without waiting for its answer: the ticket's
        ``admitted`` gets it, and a refusal fails the ticket's future with ``PoolRefused``. Refused at
        once as ``"unavailable"`` while the service is away or silent."""
        self._overdue()
        number = next(self._numbers)
        ticket = ClientTicket(self, number, job, seat, address, on_progress)
        with self._lock:
            if self._closed:
                return Refusal("closed", 0.0)
            if self._silent or self._socket is None:
                return self._unavailable_locked()
            ticket.sent_at = self._clock()
            self._tickets[number] = ticket
            self._unanswered[number] = ticket
        message = {
            "op": "submit",
            "req": number,
            "id": number,
            "job": encode_tagged(job),
            "seat": seat,
            "address": address,
            "progress": on_progress is not None,
        }
        try:
            self._send(message)
        except _Lost:
            with self._lock:
                self._tickets.pop(number, None)
                self._unanswered.pop(number, None)
                return self._unavailable_locked()
        ticket.future.add_done_callback(partial(self._caller_cancelled, ticket))
        return ticket

    def cancel(self, ticket: ClientTicket) -> None:
        """End ``ticket``'s work (nothing once it has ended)."""
        if ticket.number in self._tickets:
            self._tell({"op": "cancel", "id": ticket.number})

    def cancel_seat(self, seat: str) -> None:
        self._tell({"op": "cancel_seat", "seat": seat})

    def standing(self, ticket: ClientTicket) -> Standing | None:
        """``ticket``'s standing as the service last said it (with its admission, or in the last
        ``standings``): no round trip, so the event loop may ask it. None once it has ended."""
        if ticket.future.done():
            return None
        with self._lock:
            return ticket._standing

    def place(self, ticket: ClientTicket) -> int | None:
        return ticket.place()

    def standings(self) -> Mapping[ClientTicket, Standing]:
        """Every waiting or running ticket of this client's; none while the service does not answer."""
        try:
            found = dict(decode(tuple[tuple[int, Standing], ...], self._ask({"op": "standings"})))
        except (_Lost, WireError):
            return {}
        with self._lock:
            for number, ticket in self._tickets.items():
                if number not in self._unanswered:  # the answer was sent after its admission
                    ticket._standing = found.get(number)
            return {self._tickets[number]: standing for number, standing in found.items() if number in self._tickets}

    def stats(self) -> dict[str, int]:
        """The pool's counts, as its owner sees them (every client's units); none while it does not answer."""
        try:
            stats = self._ask({"op": "stats"})["stats"]
        except (_Lost, TypeError, KeyError):
            return {}
        return {str(key): int(value) for key, value in stats.items()}

    def cluster(self) -> ClusterState | None:
        """Whether the service answers (and then, its pool's Dask cluster if it has one): ``/stats``'
        ``solver_cluster``."""
        with self._lock:
            state = self._link.state(self._clock())
        if not state.connected:
            return state
        if self._silent:
            return ClusterState(False, ANSWER_SECONDS)
        try:
            return decode_optional(ClusterState, self._ask({"op": "stats"})["cluster"])
        except (_Lost, WireError, TypeError, KeyError):
            return ClusterState(False, self._link.wait(self._clock()))

    @property
    def budget(self) -> Budget | None:
        """The service's pool's budget, as it said when this client last connected."""
        return self._budget

    def budget_left(self, address: str) -> float | None:
        try:
            left = self._ask({"op": "budget_left", "address": address})
        except _Lost:
            return None
        return None if left is None else float(left)

    def close(self) -> None:
        """Cancel every ticket and close the connection (the service cancels the work); a later
        ``submit`` is refused as ``closed``."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            connection, self._socket = self._socket, None
            tickets = list(self._tickets.values())
            self._tickets.clear()
            self._unanswered.clear()
            replies = list(self._replies.values())
            self._replies.clear()
            redial = self._redial
        self._wake.set()
        if connection is not None:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
            connection.close()
        for ticket in tickets:
            _admit(ticket, Refusal("closed", 0.0))
            ticket.future.cancel()
        for reply in replies:  # a round trip in flight ends now, not ``ANSWER_SECONDS`` later as silence
            reply.set_exception(_Lost())
        if redial is not None:
            redial.join()

    # -- the connection ---------------------------------------------------------------------------

    def _connect(self) -> None:
        """Connect and read the service's ``hello``; an ``OSError`` (or ``WireError``) when it does not."""
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.settimeout(ANSWER_SECONDS)
            connection.connect(str(self.path))
            hello = read_frame(connection)
            if hello is None or hello.get("op") != "hello":
                raise WireError(f"the solver pool service at {self.path} did not say hello: {str(hello)[:60]}")
            budget = decode_optional(Budget, hello.get("budget"))
            connection.settimeout(None)
        except (OSError, WireError):
            connection.close()
            raise
        with self._lock:
            if self._closed:
                connection.close()
                return
            self._socket = connection
            self._budget = budget
            if not self._link.connected:
                log.info("solver pool service at %s: connected again", self.path)
            self._link.regain(self._clock())
        threading.Thread(target=self._read, args=(connection,), name="solver-pool-client", daemon=True).start()

    def _read(self, connection: socket.socket) -> None:
        reason = "closed the connection"
        try:
            while (message := read_frame(connection)) is not None:
                self._handle(message)
        except (WireError, TypeError) as error:  # TypeError: a number that is a list, say
            reason = f"sent a bad frame: {error}"
        except OSError as error:
            reason = f"failed: {error}"
        self._lose(connection, reason)

    def _handle(self, message: dict[str, Any]) -> None:
        op = message["op"]
        if self._silent:
            self._silent = False
            log.warning("solver pool service at %s answers again", self.path)
        if op == "answer":
            with self._lock:
                reply = self._replies.pop(message.get("req", -1), None)
            if reply is not None:
                reply.set_result(message.get("value"))
        elif op == "submitted":
            self._admitted(message)
        elif op == "progress":
            ticket = self._tickets.get(message.get("id", -1))
            result = decode_result(message.get("result"))
            if ticket is not None and ticket._progress is not None and isinstance(result, AnalysisResult):
                ticket._progress(result)
        elif op == "done":
            self._done(message)
        elif op == "error":
            log.warning("solver pool service at %s refused a frame: %s", self.path, message.get("message"))
        else:
            raise WireError(f"unknown op {str(op)[:40]!r}")

    def _admitted(self, message: dict[str, Any]) -> None:
        """The service's answer to a submission (its ``req`` is the ticket's number)."""
        number = message.get("req", -1)
        refusal = decode_optional(Refusal, message.get("refusal"))
        standing = decode_optional(Standing, message.get("standing"))
        with self._lock:
            ticket = self._unanswered.pop(number, None)
            if ticket is not None:
                ticket._standing = standing
                if refusal is not None:
                    self._tickets.pop(number, None)
        if ticket is None:
            if refusal is None and isinstance(number, int):
                self._tell({"op": "cancel", "id": number})  # given up on while the service was silent
            return
        _admit(ticket, refusal)
        if refusal is not None:
            _fail(ticket, PoolRefused(refusal))

    def _done(self, message: dict[str, Any]) -> None:
        with self._lock:
            ticket = self._tickets.pop(message.get("id", -1), None)
        if ticket is None:
            return
        cpu = message.get("cpu", 0.0)
        ticket.cpu_seconds = float(cpu) if isinstance(cpu, (int, float)) else 0.0
        ticket.refusal = decode_optional(Refusal, message.get("refusal"))
        if message.get("cancelled"):
            ticket.future.cancel()
        elif "error" in message:
            _fail(ticket, PoolError(str(message["error"])))
        else:
            _resolve(ticket, decode_result(message.get("result")))

    def _lose(self, connection: socket.socket, reason: str) -> None:
        """The connection ended: fail what waits on it and try the service again with back-off."""
        with self._lock:
            if self._socket is connection:
                self._socket = None
                self._silent = False  # the back-off of a lost service says when to try
            connection.close()
            if self._closed:
                return
            self._link.lose(self._clock())
            tickets = list(self._tickets.values())
            self._tickets.clear()
            self._unanswered.clear()
            replies = list(self._replies.values())
            self._replies.clear()
            wait = self._link.wait(self._clock())
            retry_after = self._link.retry_after(self._clock())
            # started under the lock: ``close`` either comes first (no thread) or joins a started one
            self._redial = threading.Thread(target=self._dial_again, name="solver-pool-client-redial", daemon=True)
            self._redial.start()
        log.warning("solver pool service at %s %s; trying again in %.0f s", self.path, reason, wait)
        failure = PoolUnavailable(f"the solver pool is unavailable: its service at {self.path} {reason}", retry_after)
        for ticket in tickets:
            _admit(ticket, Refusal("unavailable", retry_after))
            _fail(ticket, failure)
        for reply in replies:
            reply.set_exception(_Lost())

    def _dial_again(self) -> None:
        while True:
            with self._lock:
                if self._closed:
                    return
                wait = self._link.wait(self._clock())
            if wait > 0:
                self._wake.wait(wait)
                continue
            try:
                self._connect()
                return
            except (OSError, WireError):
                with self._lock:
                    self._link.failed(self._clock())

    def _unavailable_locked(self) -> Refusal:
        if self._silent:
            return Refusal("unavailable", ANSWER_SECONDS)
        return Refusal("unavailable", self._link.retry_after(self._clock()))

    def _overdue(self) -> None:
        """Fall silent when the oldest submission has waited ``ANSWER_SECONDS`` for its admission."""
        with self._lock:
            oldest = next(iter(self._unanswered.values()), None)
            if oldest is None or self._clock() - oldest.sent_at < ANSWER_SECONDS:
                return
        self._fall_silent()

    def _fall_silent(self) -> None:
        """The service did not answer in ``ANSWER_SECONDS``: its submissions still unanswered fail, and
        until its next frame nothing waits for it."""
        with self._lock:
            told = self._silent
            self._silent = True
            unanswered = list(self._unanswered.values())
            self._unanswered.clear()
            for ticket in unanswered:
                self._tickets.pop(ticket.number, None)
        if not told:
            log.warning(
                "solver pool service at %s did not answer in %g s: its work is refused until it does",
                self.path,
                ANSWER_SECONDS,
            )
        failure = PoolUnavailable(
            f"the solver pool is unavailable: its service at {self.path} did not answer in {ANSWER_SECONDS:g} s",
            ANSWER_SECONDS,
        )
        for ticket in unanswered:
            _admit(ticket, Refusal("unavailable", ANSWER_SECONDS))
            _fail(ticket, failure)

    # -- frames ------------------------------------------------------------------------------------

    def _ask(self, message: dict[str, Any]) -> Any:
        """Send ``message`` with a request number and wait for its answer (``_Lost`` when none comes, and
        at once while the service is silent)."""
        if self._silent:
            raise _Lost()
        reply: Future[Any] = Future()
        with self._lock:
            number = next(self._numbers)
            self._replies[number] = reply
        try:
            self._send({**message, "req": number})
            return reply.result(ANSWER_SECONDS)
        except FutureTimeout:
            self._fall_silent()
            raise _Lost() from None
        finally:
            with self._lock:
                self._replies.pop(number, None)

    def _tell(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(_Lost):
            self._send(message)

    def _send(self, message: dict[str, Any]) -> None:
        data = frame(message)
        with self._lock:
            connection = self._socket
        if connection is None:
            raise _Lost()
        try:
            with self._sending:
                connection.sendall(data)
        except OSError:
            raise _Lost() from None

    def _caller_cancelled(self, ticket: ClientTicket, future: Future[Result]) -> None:
        if future.cancelled():
            self.cancel(ticket)


def _resolve(ticket: ClientTicket, result: Result) -> None:
    with contextlib.suppress(InvalidStateError):  # cancelled meanwhile by its caller
        ticket.future.set_result(result)


def _admit(ticket: ClientTicket, refusal: Refusal | None) -> None:
    with contextlib.suppress(InvalidStateError):  # answered already
        ticket.admitted.set_result(refusal)


def _fail(ticket: ClientTicket, error: BaseException) -> None:
    with contextlib.suppress(InvalidStateError):
        ticket.future.set_exception(error)


def _fronts(pool: SolverPool, client: PoolClient) -> tuple[PoolFront, PoolFront]:
    """Where mypy checks that both a pool and a client are a ``PoolFront``."""
    return pool, client
