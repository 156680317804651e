"""``serve --processes N``: N game processes behind one port, each started again when it dies.

The supervisor holds the listening socket and does one thing per connection: it accepts it and
passes it, unread, to the game process that is the home of its client's network
(``shards.home_of``), or to the next one while that one is starting. Behind a trusted proxy,
where every peer is the proxy, the client's network is in the request's head: the supervisor
looks at it without reading it (``MSG_PEEK``; a proxy sends a head whole, nginx and Caddy buffer
it before they connect), so a connection is counted under its network's caps in the process
that answers its handshake. That process reads the request and serves it, and passes the
connection on when its client picks a game another process holds (``process_link``). So the
supervisor's cost is an ``accept`` and a ``sendmsg`` a connection, and a peek behind a proxy.

A game process that exits (a crash, ``kill -9``) is started again at once with the same index:
it loads its shard's unfinished games from the database (every acknowledged move is there)
and its clients, who lost their connection, reconnect and resume, resending the moves they
had no ``ack`` for (a move id the game has is acknowledged again, not played twice). The others
are told (``Restarted``), so the connections they counted for it are let go. A process that
exits within ``START_SECONDS`` of its start three times in a row stops the whole server.

Each game process is this program again (``serve`` with the same flags and ``--process-of I/N``),
so it opens the database, and the solver pool in process 0, as one server does (process 0 serves
the pool to the others: ``game_server.POOL_SOCKET``); it says
``ready`` on its standard output once it takes connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

from websockets.datastructures import Headers

from battle.online.server import handoff
from battle.online.server.address_guard import network_of
from battle.online.server.connections import forwarded_address
from battle.online.server.handoff import Fresh, Restarted
from battle.online.server.shards import home_of

READY = "ready"
"""What a game process prints once it takes connections."""
START_SECONDS = 30.0
"""A process that dies sooner than this after its start counts as failing to start."""
FAILED_STARTS = 3
"""Starts in a row that fail before the server gives up."""
PASS_WAIT = 2.0
"""Seconds the supervisor tries to pass one connection (every process full or starting) before it drops it."""
BEAT = "beat"
"""What a game process prints every ``BEAT_SECONDS`` from its event loop, once ready: it is alive."""
BEAT_SECONDS = 1.0
LATE_SECONDS = 3.0
"""A process silent this long gets no new connections (they go to the next process) until it beats."""
HEAD_BYTES = 16_384
"""The most of a request's head looked at for its forwarded address: nginx's default header buffers
hold 8 KiB, so a head from a proxy fits; a longer one is the proxy's own network's."""
HEAD_SECONDS = 5.0
"""How long a connection behind a proxy may take to show its head before it goes to the proxy's own
network's home (a proxy sends it at once; websockets gives a handshake 10 s)."""
HEAD_PAUSE = 0.01
"""Seconds between two looks at a head that came in parts."""
PEEKING = 256
"""Connections at once whose heads the supervisor waits for; the next ones wait in the listen queue."""
STUCK_SECONDS = 20.0
"""A process silent this long (stopped, its loop blocked) is killed and started again like a dead one:
long enough that a loaded machine's late loop (seconds at load 30) is not taken for a stuck one."""

log = logging.getLogger("mahjong-battle.server")


class Supervisor:
    """The listening socket and ``count`` game processes, each run by ``command`` with its index."""

    def __init__(
        self,
        listener: socket.socket,
        count: int,
        command: Sequence[str],
        folder: Path,
        *,
        trust_proxy: bool = False,
        ipv6_prefix: int = 64,
    ) -> None:
        self.listener = listener
        self.count = count
        self.command = list(command)
        self.folder = folder
        self.trust_proxy = trust_proxy
        self.ipv6_prefix = ipv6_prefix
        self.ready = [False] * count
        """Which processes take connections now."""
        self.processes: list[asyncio.subprocess.Process | None] = [None] * count
        self.failure: str | None = None
        """Why the server stopped on its own (a process that would not start), else None."""
        self._stopping = asyncio.Event()
        self._all_ready = asyncio.Event()
        self._outbox = handoff.Outbox()
        self._peeking = asyncio.Semaphore(PEEKING)
        self._passing: set[asyncio.Task[None]] = set()

    def pids(self) -> list[int]:
        return [process.pid for process in self.processes if process is not None]

    async def run(self, started: asyncio.Future[None]) -> None:
        """Start every process (``started`` resolves once all are ready), pass connections, restart
        the processes that die, until ``stop``."""
        keepers = [asyncio.create_task(self._keep(index)) for index in range(self.count)]
        accepting = None
        stopping = asyncio.create_task(self._stopping.wait())
        try:
            all_ready = asyncio.create_task(self._all_ready.wait())
            await asyncio.wait([all_ready, stopping], return_when=asyncio.FIRST_COMPLETED)
            all_ready.cancel()
            if not self._stopping.is_set():
                started.set_result(None)
                accepting = asyncio.create_task(self._accept_forever())
                await stopping
        finally:
            stopping.cancel()
            if accepting is not None:
                accepting.cancel()
            for process in self.processes:
                if process is not None and process.returncode is None:
                    with contextlib.suppress(ProcessLookupError):
                        process.terminate()
            await asyncio.gather(*keepers, return_exceptions=True)
            self._outbox.close()

    def stop(self, reason: str | None = None) -> None:
        if reason is not None and self.failure is None:
            self.failure = reason
        self._stopping.set()

    # -- the processes -------------------------------------------------------------------

    async def _keep(self, index: int) -> None:
        """Run process ``index`` until the server stops, starting it again whenever it exits."""
        failed = 0
        loop = asyncio.get_running_loop()
        while not self._stopping.is_set():
            begun = loop.time()
            process = await asyncio.create_subprocess_exec(
                *self.command,
                f"--process-of={index}/{self.count}",
                stdout=asyncio.subprocess.PIPE,
                env={**os.environ, SUPERVISOR_VARIABLE: str(os.getpid())},
            )
            self.processes[index] = process
            assert process.stdout is not None
            line = await process.stdout.readline()
            if line.decode(errors="replace").strip() == READY:
                self.ready[index] = True
                if all(self.ready):
                    self._all_ready.set()
                await self._follow_beats(index, process)
            code = await process.wait()
            self.ready[index] = False
            self._tell_all(Restarted(index))
            if self._stopping.is_set():
                return
            failed = failed + 1 if loop.time() - begun < START_SECONDS else 0
            if failed >= FAILED_STARTS:
                self.stop(f"process {index} of the server exited {failed} times at its start (last: {code})")
                return
            log.error("process %d of the server exited (%s); starting it again", index, code)

    async def _follow_beats(self, index: int, process: asyncio.subprocess.Process) -> None:
        """Read process ``index``'s beats until it exits: silent ``LATE_SECONDS``, it gets no new
        connections until it beats again (and its ``late_marker`` tells the other processes to keep
        what they would pass it); silent ``STUCK_SECONDS``, it is killed (and started again)."""
        assert process.stdout is not None
        loop = asyncio.get_running_loop()
        late = handoff.late_marker(self.folder, index)
        heard = loop.time()
        try:
            while True:
                silent = loop.time() - heard
                try:
                    line = await asyncio.wait_for(
                        process.stdout.readline(), (LATE_SECONDS if silent < LATE_SECONDS else STUCK_SECONDS) - silent
                    )
                except TimeoutError:
                    if loop.time() - heard < STUCK_SECONDS:
                        self.ready[index] = False
                        with contextlib.suppress(OSError):  # a full disk: the others wait on it as before
                            late.touch()
                        log.warning(
                            "process %d of the server has not answered for %g s: new connections go elsewhere",
                            index,
                            LATE_SECONDS,
                        )
                        continue
                    log.error("process %d of the server has not answered for %g s: replacing it", index, STUCK_SECONDS)
                    with contextlib.suppress(ProcessLookupError):
                        process.kill()
                    return
                if not line:
                    return  # it exited
                if not self.ready[index]:
                    log.warning("process %d of the server answers again", index)
                    self.ready[index] = True
                    late.unlink(missing_ok=True)
                heard = loop.time()
        finally:
            late.unlink(missing_ok=True)

    def _tell_all(self, note: Restarted) -> None:
        for other in range(self.count):
            if other != note.index and self.ready[other]:
                with contextlib.suppress(OSError):
                    self._outbox.send(handoff.process_socket(self.folder, other), note)

    # -- the connections -----------------------------------------------------------------

    async def _accept_forever(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                connection, peer = await loop.sock_accept(self.listener)
            except OSError as problem:  # out of file descriptors: the processes hold the connections
                log.error("could not accept a connection: %s", problem)
                await asyncio.sleep(0.1)
                continue
            address = str(peer[0]) if peer else "unknown"
            if not self.trust_proxy:
                with connection:
                    await self._pass(connection, address, address)
                continue
            await self._peeking.acquire()
            task = asyncio.create_task(self._pass_by_head(connection, address))
            self._passing.add(task)
            task.add_done_callback(self._passing.discard)

    async def _pass_by_head(self, connection: socket.socket, proxy: str) -> None:
        """Pass a connection from a trusted proxy to the home of the network its head forwards."""
        try:
            with connection:
                head = await peek_head(connection)
                await self._pass(connection, forwarded_by(head) or proxy, proxy)
        finally:
            self._peeking.release()

    async def _pass(self, connection: socket.socket, address: str, peer: str) -> None:
        """Pass ``connection`` to the home of ``address``'s network, or the next one that takes it."""
        first = home_of(network_of(address, self.ipv6_prefix), self.count)
        loop = asyncio.get_running_loop()
        given_up = loop.time() + PASS_WAIT
        while loop.time() < given_up:
            for offset in range(self.count):  # its home, or while that one is down the next one up
                index = (first + offset) % self.count
                if not self.ready[index]:
                    continue
                try:
                    self._outbox.send(handoff.process_socket(self.folder, index), Fresh(), connection.fileno())
                    return
                except BlockingIOError:
                    break  # its home is busy: the connection waits for it, and is counted there
                except OSError:  # it died (refused, or its socket is gone); its keeper starts it again
                    self.ready[index] = False
            await asyncio.sleep(0.005)
        log.error("dropped a connection from %s: no process of the server took it", peer)


async def peek_head(connection: socket.socket) -> bytes:
    """What ``connection`` sent of its request's head, left unread for the process it goes to: up to
    its blank line, ``HEAD_BYTES``, its close or ``HEAD_SECONDS``, whichever comes first."""
    loop = asyncio.get_running_loop()
    given_up = loop.time() + HEAD_SECONDS
    seen = b""
    while True:
        try:
            seen = connection.recv(HEAD_BYTES, socket.MSG_PEEK)
        except BlockingIOError:
            pass
        except OSError:
            return seen
        else:
            if not seen or b"\r\n\r\n" in seen or len(seen) >= HEAD_BYTES:
                return seen
        if loop.time() >= given_up:
            return seen
        await asyncio.sleep(HEAD_PAUSE)


def forwarded_by(head: bytes) -> str | None:
    """The client address a proxy's request head forwards (``connections.forwarded_address``), or None."""
    end = head.find(b"\r\n\r\n")
    lines = head[: end if end >= 0 else len(head)].decode("latin-1").split("\r\n")[1:]
    headers = Headers()
    for line in lines:
        name, colon, value = line.partition(":")
        if colon and name and name == name.strip():
            headers[name] = value.strip()
    return forwarded_address(headers)


def listening_socket(host: str, port: int) -> socket.socket:
    """The server's TCP socket on ``host:port`` (port 0: any free one), non-blocking."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _name, address = infos[0]
    listener = socket.socket(family, kind, proto)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind(address)
        listener.listen(4096)
    except OSError:
        listener.close()
        raise
    listener.setblocking(False)
    return listener


SUPERVISOR_VARIABLE = "MAHJONG_BATTLE_SUPERVISOR"
"""The environment variable that gives a game process its supervisor's process id."""


def die_with_parent() -> None:
    """Ask Linux to end this process when the supervisor that started it ends (a ``kill -9`` of the
    supervisor leaves no game process behind holding the database), and end it now when the
    supervisor already has: one killed while this process still imported its modules (3 s after its
    start, at load 35) left it re-parented, serving on; the supervisor names itself in
    ``SUPERVISOR_VARIABLE``, and a parent other than it after the request means it is gone."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    supervisor = os.environ.get(SUPERVISOR_VARIABLE, "")
    if supervisor.isdigit() and os.getppid() != int(supervisor):
        os._exit(0)  # nobody reads this process's exit any more, nor its output


async def beat_forever() -> None:
    """A game process's beats to its supervisor, from its event loop (a loop blocked is a stuck process)."""
    while True:
        await asyncio.sleep(BEAT_SECONDS)
        with contextlib.suppress(OSError):  # the supervisor is gone: the parent-death signal ends this process
            sys.stdout.write(BEAT + "\n")
            sys.stdout.flush()
