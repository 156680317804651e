"""One solver pool for several processes of a machine: the pool's owner serves it on a Unix socket
(``serve_pool``), and each other process uses it through a ``PoolClient``
(``battle.players.pool.client``) as it would use the pool itself.

There is one ``Schedule`` behind every client, so the order by kind, the turns of the addresses,
one search per seat and each address's budget hold across the processes: work an address submits
through one process is paid from the same bucket as its work through another. A seat is a client's
own (the service names it ``client 3/`` + the seat), since two processes number their connections
alike; an address is everybody's.

Each client connection has a thread that reads its frames and one that writes them, through an
outbox of at most ``MAX_OUTBOX_BYTES``: a client that stops reading is dropped rather than held in
memory, and no pool thread ever waits on a socket. A connection that closes, however it closes (the
client's ``close``, its process killed, a frame the wire refuses), cancels every ticket it held:
a waiting unit leaves the queue and a running one is stopped on its worker, as for a closed
websocket. The socket file is the owner's alone (mode 0600).

The frames (``battle.players.pool.wire``), the client's first:

* ``submit`` (``req``, ``id``, ``job``, ``seat``, ``address``, ``progress``) -> ``submitted``
  (``req``, ``refusal`` or null, and the ticket's ``standing`` when it was taken); then
  ``progress`` (``id``, ``result``) for each step of a deepening analysis, when asked, and ``done``
  (``id``, ``cpu``, ``refusal``, and ``result``, ``error`` or ``cancelled``).
* ``cancel`` (``id``), ``cancel_seat`` (``seat``): no answer.
* ``standings`` (``req``), ``stats`` (``req``), ``budget_left``
  (``req``, ``address``) -> ``answer`` (``req``, ``value``).
* The service's first frame is ``hello`` (``budget``); a frame it refuses gets ``error`` (``message``)
  before the connection closes.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import socket
import stat
import threading
from collections import deque
from pathlib import Path
from typing import Any

from battle.players.pool.front import ClosesOnExit
from battle.players.pool.jobs import AnalysisResult, Result
from battle.players.pool.queue import SolverPool, Ticket
from battle.players.pool.schedule import Refusal, Standing
from battle.players.pool.wire import WireError, decode_job, encode, encode_tagged, frame, read_frame

__all__ = ["MAX_CLIENTS", "MAX_OUTBOX_BYTES", "PoolService", "serve_pool"]

log = logging.getLogger("mahjong-battle.solver-pool")

MAX_CLIENTS = 64
"""Connections served at once: a machine runs one server process per core or two."""
MAX_OUTBOX_BYTES = 16 * 1024 * 1024
"""Bytes waiting to be written to one client: four of the longest frames; a client further behind
has stopped reading."""
FLUSH_SECONDS = 5.0
"""How long the last frame to a client whose frame was refused may take to write."""
MAX_ID = 2**53
"""The largest ticket or request number a client may use (what a JSON number holds exactly)."""


def serve_pool(pool: SolverPool, path: str | Path) -> PoolService:
    """Serve ``pool`` on a Unix socket at ``path`` until ``close`` (the pool stays open: it is the
    caller's). A socket file left by a service that died is replaced; an ``OSError`` when another
    service answers there, or the path is not a socket."""
    service = PoolService(pool, Path(path))
    service.start()
    return service


class PoolService(ClosesOnExit):
    """A pool served on a Unix socket: a thread that accepts, two threads per client."""

    def __init__(self, pool: SolverPool, path: Path) -> None:
        self.pool = pool
        self.path = path
        self._listener: socket.socket | None = None
        self._clients: set[_Client] = set()
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)
        self._closed = False
        self._accepting: threading.Thread | None = None

    def start(self) -> None:
        _clear_stale_socket(self.path)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old_umask = os.umask(0o177)
        try:
            listener.bind(str(self.path))
        except OSError:
            listener.close()
            raise
        finally:
            os.umask(old_umask)
        listener.listen(MAX_CLIENTS)
        self._listener = listener
        self._accepting = threading.Thread(target=self._accept, name="solver-pool-service", daemon=True)
        self._accepting.start()

    def clients(self) -> int:
        """Client connections open now."""
        with self._lock:
            return len(self._clients)

    def close(self) -> None:
        """Stop accepting, close every client's connection (its tickets are cancelled) and remove the
        socket file."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            clients = list(self._clients)
        if self._listener is not None:
            with contextlib.suppress(OSError):
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
        if self._accepting is not None:
            self._accepting.join()
        for client in clients:
            client.close()
            client.join()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def _accept(self) -> None:
        assert self._listener is not None
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:  # the listener was shut down by ``close``
                return
            with self._lock:
                if self._closed:
                    connection.close()
                    return
                if len(self._clients) >= MAX_CLIENTS:
                    log.warning("solver pool service: refused a client: %d are connected already", MAX_CLIENTS)
                    connection.close()
                    continue
                client = _Client(self, connection, next(self._numbers))
                self._clients.add(client)
            client.start()

    def _gone(self, client: _Client) -> None:
        with self._lock:
            self._clients.discard(client)


class _Client:
    """One client's connection: its tickets by the client's numbers, its outbox and its two threads."""

    def __init__(self, service: PoolService, connection: socket.socket, number: int) -> None:
        self.service = service
        self.pool = service.pool
        self.connection = connection
        self.number = number
        self.tickets: dict[int, Ticket] = {}
        self.ids: dict[Ticket, int] = {}
        self.lock = threading.Condition()
        self.outbox: deque[bytes] = deque()
        self.outbox_bytes = 0
        self.closed = False
        self.reader = threading.Thread(target=self._read, name=f"solver-pool-client-{number}", daemon=True)
        self.writer = threading.Thread(target=self._write, name=f"solver-pool-client-{number}-out", daemon=True)

    def start(self) -> None:
        self.send({"op": "hello", "budget": encode(self.pool.budget)})
        self.reader.start()
        self.writer.start()

    def join(self) -> None:
        for thread in (self.reader, self.writer):
            if thread.ident is not None and thread is not threading.current_thread():
                thread.join()

    # -- reading ------------------------------------------------------------------------------------

    def _read(self) -> None:
        try:
            while True:
                message = read_frame(self.connection)
                if message is None:
                    break
                self._handle(message)
        except WireError as error:
            log.warning("solver pool service: client %d sent a bad frame: %s", self.number, error)
            self.send({"op": "error", "message": str(error)})
            self.close(flush=True)
            return
        except OSError:
            pass  # the connection was closed: by the client, or by ``close``
        self.close()

    def _handle(self, message: dict[str, Any]) -> None:
        op = message["op"]
        if op == "submit":
            self._submit(message)
        elif op == "cancel":
            ticket = self.tickets.get(_number(message, "id"))
            if ticket is not None:
                ticket.cancel()
        elif op == "cancel_seat":
            self.pool.cancel_seat(self._seat(_text(message, "seat")))
        elif op == "standings":
            found = self.pool.standings()
            with self.lock:
                mine = [
                    [self.ids[ticket], encode(standing)] for ticket, standing in found.items() if ticket in self.ids
                ]
            self._answer(message, mine)
        elif op == "stats":
            cluster = self.pool.cluster()
            self._answer(message, {"stats": self.pool.stats(), "cluster": encode(cluster)})
        elif op == "budget_left":
            self._answer(message, self.pool.budget_left(_text(message, "address")))
        else:
            raise WireError(f"unknown op {op[:40]!r}")

    def _submit(self, message: dict[str, Any]) -> None:
        number = _number(message, "id")
        job = decode_job(message.get("job"))
        seat, address = _text(message, "seat"), _text(message, "address")
        progress = message.get("progress", False)
        if not isinstance(progress, bool):
            raise WireError(f"submit: 'progress' is true or false, not {str(progress)[:40]!r}")
        if number in self.tickets:
            raise WireError(f"submit: ticket {number} is still open")
        on_progress = (lambda result: self._progress(number, result)) if progress else None
        ticket = self.pool.submit(job, seat=self._seat(seat), address=address, on_progress=on_progress)
        if not isinstance(ticket, Ticket):
            self._submitted(message, ticket, None)
            return
        with self.lock:
            if self.closed:  # closed meanwhile: nobody waits for it
                ticket.cancel()
                return
            self.tickets[number] = ticket
            self.ids[ticket] = number
        self._submitted(message, None, ticket.standing())
        ticket.future.add_done_callback(lambda _done: self._done(number, ticket))

    def _seat(self, seat: str) -> str:
        return f"client {self.number}/{seat}"

    def _answer(self, message: dict[str, Any], value: Any) -> None:
        self.send({"op": "answer", "req": _number(message, "req"), "value": value})

    def _submitted(self, message: dict[str, Any], refusal: Refusal | None, standing: Standing | None) -> None:
        """The answer to a ``submit``: why it was refused, or where the ticket it made stands."""
        self.send(
            {
                "op": "submitted",
                "req": _number(message, "req"),
                "refusal": encode(refusal),
                "standing": encode(standing),
            }
        )

    # -- the pool's news ---------------------------------------------------------------------------

    def _progress(self, number: int, result: AnalysisResult) -> None:
        self.send({"op": "progress", "id": number, "result": encode_tagged(result)})

    def _done(self, number: int, ticket: Ticket) -> None:
        with self.lock:
            self.tickets.pop(number, None)
            self.ids.pop(ticket, None)
        news: dict[str, Any] = {"op": "done", "id": number, "cpu": ticket.cpu_seconds}
        news["refusal"] = encode(ticket.refusal)
        future = ticket.future
        if future.cancelled():
            news["cancelled"] = True
        elif (error := future.exception()) is not None:
            news["error"] = str(error).splitlines()[0] if str(error) else type(error).__name__
        else:
            result: Result = future.result()
            news["result"] = encode_tagged(result)
        self.send(news)

    # -- writing -----------------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for the client; a client whose outbox is full is dropped."""
        data = frame(message)
        with self.lock:
            if self.closed:
                return
            if self.outbox_bytes + len(data) > MAX_OUTBOX_BYTES:
                overflow = True
            else:
                overflow = False
                self.outbox.append(data)
                self.outbox_bytes += len(data)
                self.lock.notify()
        if overflow:
            log.warning(
                "solver pool service: dropped client %d: it read none of %d bytes", self.number, MAX_OUTBOX_BYTES
            )
            self.close()

    def _write(self) -> None:
        while True:
            with self.lock:
                while not self.outbox and not self.closed:
                    self.lock.wait()
                if not self.outbox:
                    return
                data = self.outbox.popleft()
                self.outbox_bytes -= len(data)
            try:
                self.connection.sendall(data)
            except OSError:
                self.close()
                return

    # -- the end -----------------------------------------------------------------------------------

    def close(self, *, flush: bool = False) -> None:
        """End the connection and cancel every ticket it held (from any thread; once). ``flush``: from
        the reader, after a refused frame: the writer still sends the ``error`` (within
        ``FLUSH_SECONDS``) before the socket closes."""
        with self.lock:
            if self.closed:
                return
            self.closed = True
            tickets = list(self.tickets.values())
            self.lock.notify_all()
        with contextlib.suppress(OSError):
            if flush:
                self.connection.settimeout(FLUSH_SECONDS)
                self.connection.shutdown(socket.SHUT_RD)
            else:
                self.connection.shutdown(socket.SHUT_RDWR)
        for ticket in tickets:
            ticket.cancel()
        self.service._gone(self)
        self._close_when_written()

    def _close_when_written(self) -> None:
        """The writer sends what the outbox holds (a refusal's ``error``) only while the socket is
        open: close the file once both threads are done with it."""

        def closer() -> None:
            self.join()
            self.connection.close()

        threading.Thread(target=closer, name=f"solver-pool-client-{self.number}-end", daemon=True).start()


def _number(message: dict[str, Any], key: str) -> int:
    value = message.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_ID:
        raise WireError(f"{message['op']}: {key!r} is a number from 0 to {MAX_ID}, not {str(value)[:40]!r}")
    return value


def _text(message: dict[str, Any], key: str) -> str:
    value = message.get(key)
    if not isinstance(value, str) or len(value) > 200:
        raise WireError(f"{message['op']}: {key!r} is a text of at most 200 characters, not {str(value)[:40]!r}")
    return value


def _clear_stale_socket(path: Path) -> None:
    """Remove a socket file no service answers on (its service died); refuse to replace anything else."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise OSError(f"{path} exists and is not a socket: the solver pool service will not replace it")
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except ConnectionRefusedError:
        path.unlink()
        return
    finally:
        probe.close()
    raise OSError(f"a solver pool service answers at {path} already")
