"""``serve --processes N``: N game processes behind one port, each started again when it dies.

The supervisor holds the listening socket and does one thing per connection: it accepts it, looks
at its request's head without reading it (``MSG_PEEK``; a client sends its head at once, and nginx
and Caddy buffer it whole before they connect) and passes it, unread, to the process the head's
``?at=`` names (``server_groups.process_at``: a game held there, whose address the client was sent
``elsewhere`` to), else to the home of its client's network (``shards.home_of``; behind a trusted
proxy the network its ``X-Forwarded-For`` names), or to the next one up while that one is starting.
That process reads the request and serves it; a request for a game another process holds is
answered ``elsewhere`` with that process's place, and the client connects again there. So the
supervisor's cost is an ``accept``, a peek and a ``sendmsg`` a connection. A connection whose head
does not come (or one past ``PEEKS_PER_NETWORK`` of its network waiting at once, or past
``PEEKING`` in all) goes to its network's home as it is: a stranger's silent connections never
hold up another's.

A game process that exits (a crash, ``kill -9``) is started again at once with the same index:
it loads its shard's unfinished games from the database (every acknowledged move is there)
and its clients, who lost their connection, reconnect and resume, resending the moves they
had no ``ack`` for (a move id the game has is acknowledged again, not played twice); the process in
its place lets go of the connections it had counted (``guard_counts``). A process that exits within
``START_SECONDS`` of its start three times in a row stops the whole server.

Each game process runs this program's ``serve`` again, with the same flags and ``--process-of I/N``,
forked from a process that has the server imported (``fork_server``), so it opens the database, and
the solver pool in process 0, as one server does (process 0 serves the pool to the others:
``game_server.POOL_SOCKET``); it says ``ready`` on its standard output once it takes connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from websockets.datastructures import Headers

from battle.i18n import N_
from battle.online.protocol.server_groups import group_of_url, process_at
from battle.online.server.limits.address_guard import network_of
from battle.online.server.peers.connections import forwarded_address
from battle.online.server.processes import handoff
from battle.online.server.processes.fork_server import ForkedProcess, ForkFailed, ForkServer, ForkServerGone, die_with
from battle.online.server.processes.handoff import Fresh
from battle.online.server.rooms.shards import POOL_PROCESS, home_of

READY = "ready"
"""What a game process prints once it takes connections."""
START_SECONDS = 30.0
"""A process that dies sooner than this after its start counts as failing to start."""
FAILED_STARTS = 3
"""Starts in a row that fail before the server gives up."""
PASS_WAIT = 2.0
"""Seconds the supervisor tries to pass one connection (every process full or starting) before it drops it."""
ASKED_WAIT = 15.0
"""Seconds a connection whose ``?at=`` names a process being started again waits for it (a killed
process loads its games and listens in under a second with a few; each game more is one more read):
then it goes to the next one, which answers in words. One that misses its beats is not waited for."""
BEAT = "beat"
"""What a game process prints every ``BEAT_SECONDS`` from its event loop, once ready: it is alive."""
BEAT_SECONDS = 1.0
LATE_SECONDS = 3.0
"""A process silent this long gets no new connections (they go to the next process) until it beats."""
HEAD_BYTES = 16_384
"""The most of a request's head looked at for its ``at`` and its forwarded address: nginx's default
header buffers hold 8 KiB, so a head from a proxy fits; a longer one goes to its peer's home."""
HEAD_SECONDS = 5.0
"""How long a connection may take to show its head before it goes to its peer's network's home
(a browser and a proxy send it at once; websockets gives a handshake 10 s)."""
HEAD_PAUSE = 0.02
"""Seconds between two looks at a head that came in parts (a head not begun is waited for by the
loop's readiness, at no cost)."""
PEEKING = 1024
"""Connections at once whose heads the supervisor waits for; the next ones go to their home unpeeked."""
PEEKS_PER_NETWORK = 16
"""Connections of one client network (not behind a trusted proxy, whose peers are all the proxy) whose
heads are waited for at once: a household's tabs; its next ones go to its home unpeeked."""
STUCK_SECONDS = 20.0
"""A process silent this long (stopped, its loop blocked) is killed and started again like a dead one:
long enough that a loaded machine's late loop (seconds at load 30) is not taken for a stuck one."""

NOT_FORKED = N_("process {index} of the server could not be started {count} times (last: {problem})")
EXITED_AT_START = N_("process {index} of the server exited {count} times at its start (last: {how})")
FORK_SERVER_ENDED = N_("the server's fork server ended {count} times at its start")
EXIT_CODE = N_("exit code {code}")
KILLED_BY = N_("killed by signal {name}")
"""Why the server stopped on its own, said as ``serve``'s one-line error."""


@dataclass(frozen=True)
class Sentence:
    """Words for the user, kept untranslated until they are shown: a catalogue entry (marked with
    ``N_``) and its fields, a field itself a ``Sentence`` where it is words too. The supervisor runs
    under ``serve``, whose one-line error is said in the user's language."""

    text: str
    fields: Mapping[str, object] = field(default_factory=dict)

    def said(self, translate: Callable[[str], str]) -> str:
        values = {
            name: value.said(translate) if isinstance(value, Sentence) else value for name, value in self.fields.items()
        }
        return translate(self.text).format(**values)


def how_it_exited(code: int) -> Sentence:
    """A process's return code as words: ``-9`` is ``killed by signal SIGKILL``, not a code."""
    if code < 0:
        with contextlib.suppress(ValueError):
            return Sentence(KILLED_BY, {"name": signal.Signals(-code).name})
    return Sentence(EXIT_CODE, {"code": code})


log = logging.getLogger("mahjong-battle.server")


class Supervisor:
    """The listening socket and ``count`` game processes, each forked by ``fork_server`` to run
    ``serve``'s ``arguments`` with its index."""

    def __init__(
        self,
        listener: socket.socket,
        count: int,
        arguments: Sequence[str],
        fork_server: ForkServer,
        folder: Path,
        *,
        trust_proxy: bool = False,
        ipv6_prefix: int = 64,
        group: str | None = None,
    ) -> None:
        self.listener = listener
        self.group = group
        """This server's group (``--group``): ``at`` names its processes as ``GROUP.I``; None: as ``I``."""
        self.count = count
        self.arguments = list(arguments)
        self.fork_server = fork_server
        """What forks the game processes; replaced by a fresh one if it dies."""
        self._fork_servers_failed = 0
        """Fork servers in a row that died soon after their start."""
        self.folder = folder
        self.trust_proxy = trust_proxy
        self.ipv6_prefix = ipv6_prefix
        self.ready = [False] * count
        """Which processes take connections now."""
        self.late = [False] * count
        """Which processes run but miss their beats (a stopped or stuck one): not waited for."""
        self.processes: list[ForkedProcess | None] = [None] * count
        self.failure: Sentence | None = None
        """Why the server stopped on its own (a process that would not start), else None."""
        self._stopping = asyncio.Event()
        self._all_ready = asyncio.Event()
        self._outbox = handoff.Outbox()
        self._peeks: dict[str, int] = {}
        """Connections whose heads are waited for now, by their peer's network."""
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
            # the pool's process serves the solver to the others: stopped first, it would have each of
            # them log that the pool went away and is being dialled again, in the last lines of a stop
            await self._terminate([process for index, process in enumerate(self.processes) if index != POOL_PROCESS])
            await self._terminate([self.processes[POOL_PROCESS]])
            await asyncio.gather(*keepers, return_exceptions=True)
            self.fork_server.close()
            self._outbox.close()

    @staticmethod
    async def _terminate(processes: Sequence[ForkedProcess | None]) -> None:
        """Ask each running one of ``processes`` to stop (each keeps its games) and wait until all have."""
        running = [process for process in processes if process is not None and process.returncode is None]
        for process in running:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
        await asyncio.gather(*(process.wait() for process in running))

    def stop(self, reason: Sentence | None = None) -> None:
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
            forking = self.fork_server
            try:
                process = await forking.start([*self.arguments, f"--process-of={index}/{self.count}"], index)
            except ForkFailed as problem:
                failed += 1
                if failed >= FAILED_STARTS:
                    self.stop(Sentence(NOT_FORKED, {"index": index, "count": failed, "problem": problem}))
                    return
                log.error("process %d of the server could not be started (%s); trying again", index, problem)
                await asyncio.sleep(1.0)
                continue
            except ForkServerGone:
                if forking is self.fork_server and not self._replace_fork_server(forking):
                    return  # else another keeper has replaced it already
                continue
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
            if self._stopping.is_set():
                return
            failed = failed + 1 if loop.time() - begun < START_SECONDS else 0
            if failed >= FAILED_STARTS:
                self.stop(Sentence(EXITED_AT_START, {"index": index, "count": failed, "how": how_it_exited(code)}))
                return
            log.error("process %d of the server exited (%s); starting it again", index, code)

    def _replace_fork_server(self, gone: ForkServer) -> bool:
        """Start a fork server in place of ``gone``; False (and the server stops) when fork servers
        have died within ``START_SECONDS`` of their start ``FAILED_STARTS`` times in a row."""
        early = time.monotonic() - gone.started_at < START_SECONDS
        self._fork_servers_failed = self._fork_servers_failed + 1 if early else 0
        if self._fork_servers_failed >= FAILED_STARTS:
            self.stop(Sentence(FORK_SERVER_ENDED, {"count": self._fork_servers_failed}))
            return False
        log.error("the server's fork server ended; starting it again")
        self.fork_server = gone.replacement()
        return True

    async def _follow_beats(self, index: int, process: ForkedProcess) -> None:
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
                        self.late[index] = True
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
                    self.late[index] = False
                    late.unlink(missing_ok=True)
                heard = loop.time()
        finally:
            self.late[index] = False
            late.unlink(missing_ok=True)

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
            network = network_of(address, self.ipv6_prefix)
            waiting = self._peeks.get(network, 0)
            if len(self._passing) >= PEEKING or (not self.trust_proxy and waiting >= PEEKS_PER_NETWORK):
                with connection:
                    await self._pass(connection, address, address, None)
                continue
            self._peeks[network] = waiting + 1
            task = asyncio.create_task(self._pass_by_head(connection, address, network))
            self._passing.add(task)
            task.add_done_callback(self._passing.discard)

    async def _pass_by_head(self, connection: socket.socket, peer: str, network: str) -> None:
        """Pass a connection to the process its head's ``at`` names, else to the home of its client's
        network (behind a trusted proxy, the one its head forwards)."""
        try:
            with connection:
                head = await peek_head(connection)
                forwarded = forwarded_by(head) if self.trust_proxy else None
                asked = process_at(place_asked(head), self.group, self.count)
                await self._pass(connection, forwarded or peer, peer, asked)
        finally:
            left = self._peeks[network] - 1
            if left:
                self._peeks[network] = left
            else:
                del self._peeks[network]

    async def _pass(self, connection: socket.socket, address: str, peer: str, asked: int | None) -> None:
        """Pass ``connection`` to process ``asked`` (None: the home of ``address``'s network), or while
        that one is down the next one that takes it."""
        first = home_of(network_of(address, self.ipv6_prefix), self.count) if asked is None else asked
        loop = asyncio.get_running_loop()
        if asked is not None:  # a process being started again holds the game asked for: it is waited for
            starting = loop.time() + ASKED_WAIT
            while not self.ready[asked] and not self.late[asked] and loop.time() < starting:
                if self._stopping.is_set():
                    return
                await asyncio.sleep(0.02)
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
    its blank line, ``HEAD_BYTES``, its close or ``HEAD_SECONDS``, whichever comes first. Until its
    first byte the loop wakes this only when one comes; a head begun is looked at every
    ``HEAD_PAUSE`` (a peeked byte keeps the socket readable)."""
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
        left = given_up - loop.time()
        if left <= 0:
            return seen
        if seen:
            await asyncio.sleep(min(HEAD_PAUSE, left))
            continue
        readable: asyncio.Future[None] = loop.create_future()
        loop.add_reader(connection.fileno(), _wake, readable)
        try:
            await asyncio.wait_for(readable, left)
        except TimeoutError:
            return seen
        finally:
            loop.remove_reader(connection.fileno())


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def place_asked(head: bytes) -> str | None:
    """The ``at`` of the address in ``head``'s request line (``GET /?at=1 HTTP/1.1``), or None."""
    parts = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ")
    return group_of_url(parts[1]) if len(parts) == 3 else None


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
    """End this game process when the process that started it ends (the fork server, which ends with
    the supervisor: a ``kill -9`` of the supervisor leaves no game process behind holding the
    database), and now when it already has: one whose supervisor was killed while it still imported
    its modules (3 s after its start, at load 35) was left re-parented, serving on. Its parent names
    itself in ``SUPERVISOR_VARIABLE``; without it only the parent-death signal is asked for."""
    parent = os.environ.get(SUPERVISOR_VARIABLE, "")
    die_with(int(parent) if parent.isdigit() else None, signal.SIGTERM)


async def beat_forever() -> None:
    """A game process's beats to its supervisor, from its event loop (a loop blocked is a stuck process)."""
    while True:
        await asyncio.sleep(BEAT_SECONDS)
        with contextlib.suppress(OSError):  # the supervisor is gone: the parent-death signal ends this process
            sys.stdout.write(BEAT + "\n")
            sys.stdout.flush()
