"""One game process's side of ``serve --processes N``: the connections it is sent, the ones it passes on.

- A ``Fresh`` connection (from the supervisor, its network's home is this process) starts as if
  this process had accepted it: the handshake, the caps, everything.
- A client that picks a game of another process (``GameServer`` raises ``HandOver``) is passed
  there whole (``hand_over``): reading stops, what this process wrote is waited out, and the
  socket goes with the picking frame and the unread bytes after it (``handoff.Picked``). The
  client sees one connection: it is answered by the game's process from then on.
- The connection stays counted at its network's home (``lent``) until the process that holds it
  says it closed (``Released``), or was started again (``Restarted``): a network's caps hold
  wherever its connections are.
- ``/stats`` adds up every process's counts: each writes its own to the run's folder once a second.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import logging
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import Server, ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request
from websockets.protocol import State
from websockets.server import ServerProtocol

from battle.online.protocol import messages
from battle.online.server import handoff
from battle.online.server.address_guard import AddressGuard
from battle.online.server.handoff import Fresh, Picked, Released, Restarted
from battle.online.server.shards import Shard

if TYPE_CHECKING:
    from battle.online.server.connections import Client, Peer

HANDOVER_WAIT = 15.0
"""Seconds a connection waits for its game's process to take it: a process killed and started
again loads its games and listens in under a second with a few games
(``tests/online/test_online_processes.py``); each game more is one more read of the database."""
FLUSH_WAIT = 2.0
"""Seconds the frames this process wrote get to leave before the socket is passed on."""
STATS_SECONDS = 1.0
"""How often a process writes its counts for the others' ``/stats``."""
SUMMED_MAX = ("commit_ms_p50", "commit_ms_p99")
"""The ``/stats`` lines that are the worst process's, not the sum of all."""

log = logging.getLogger("mahjong-battle.server")


class ProcessLink:
    """This process's datagram socket in the run's ``folder``, and what it does with what arrives."""

    def __init__(self, folder: Path, shard: Shard, guard: AddressGuard, connection_options: dict[str, Any]) -> None:
        self.folder = folder
        self.shard = shard
        self.guard = guard
        self.connection_options = connection_options
        """What ``serve`` makes its connections with (``running_server``): a handed one gets the same."""
        self.server: Server | None = None
        """The WebSocket server the connections join (set once it listens)."""
        self.lent: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        """Connections counted here that another process holds, by that process and address."""
        self._listener = handoff.listen(handoff.process_socket(folder, shard.index))
        self._outbox = handoff.Outbox()
        self._links: list[socket.socket] = []
        """The others' links to this process."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.own_stats: Callable[[], str] | None = None
        """This process's own ``/stats`` lines (set by ``running_server``)."""

    def start(self, server: Server) -> None:
        self.server = server
        loop = asyncio.get_running_loop()
        loop.add_reader(self._listener.fileno(), self._accept)
        self._keep(loop.create_task(self._write_stats_forever()))

    def close(self) -> None:
        for link in [self._listener, *self._links]:
            with contextlib.suppress(ValueError, RuntimeError):
                asyncio.get_running_loop().remove_reader(link.fileno())
            link.close()
        for task in self._tasks:
            task.cancel()
        self._outbox.close()
        handoff.process_socket(self.folder, self.shard.index).unlink(missing_ok=True)

    # -- what arrives --------------------------------------------------------------------

    def _accept(self) -> None:
        while True:
            try:
                link, _address = self._listener.accept()
            except BlockingIOError:
                return
            except OSError as problem:  # out of file descriptors: the link is tried again
                log.error("could not take a link from another process: %s", problem)
                return
            link.setblocking(False)
            self._links.append(link)
            asyncio.get_running_loop().add_reader(link.fileno(), self._read, link)

    def _read(self, link: socket.socket) -> None:
        while True:
            try:
                received = handoff.receive(link)
            except (EOFError, ConnectionError):
                asyncio.get_running_loop().remove_reader(link.fileno())
                self._links.remove(link)
                link.close()
                return
            except (ValueError, TypeError, KeyError, OSError) as problem:
                log.error("a note between the server's processes did not read: %s", problem)
                continue
            if received is None:
                return
            note, carried = received
            if isinstance(note, Released):
                self._released(note.by, note.address)
            elif isinstance(note, Restarted):
                for address, count in self.lent.pop(note.index, collections.Counter()).items():
                    for _ in range(count):
                        self.guard.release(address)
            elif carried is not None:
                self._keep(asyncio.get_running_loop().create_task(self._take(note, carried)))

    async def _take(self, note: Fresh | Picked, carried: socket.socket) -> None:
        assert self.server is not None
        carried.setblocking(False)
        fresh: Callable[[], Any] = self.server.server._protocol_factory  # type: ignore[attr-defined]  # serve()'s own
        factory = (lambda: self._handed(note)) if isinstance(note, Picked) else fresh
        try:
            await asyncio.get_running_loop().connect_accepted_socket(factory, carried)
        except OSError as problem:
            log.info("a connection passed here closed first: %s", problem)
            carried.close()

    def _handed(self, note: Picked) -> ServerConnection:
        """The connection ``note`` brings, open already: its handshake's request is checked again by
        ``http_front`` (nothing is sent for it) and its handler starts with the picking frame."""
        assert self.server is not None
        protocol = ServerProtocol(max_size=messages.MAX_MESSAGE_BYTES, state=State.OPEN)
        make = self.connection_options["create_connection"]
        options = {key: value for key, value in self.connection_options.items() if key != "create_connection"}
        peer: Peer = make(protocol, self.server, **options)
        peer.handed = note
        peer.request = Request(note.path, Headers(note.headers))
        peer.request_rcvd.set_result(None)
        peer.on_closed = lambda: self._tell_released(note.home, note.address)
        return peer

    @property
    def lent_out(self) -> int:
        """Connections counted here, at their network's home, that other processes hold now."""
        return sum(sum(lent.values()) for lent in self.lent.values())

    def _released(self, by: int, address: str) -> None:
        lent = self.lent.get(by)
        if lent is not None and lent[address] > 0:
            lent[address] -= 1
            self.guard.release(address)

    def _tell_released(self, home: int, address: str) -> None:
        if home == self.shard.index:
            self._released(home, address)
            return
        with contextlib.suppress(OSError):  # home restarting: it counts nothing of ours any more
            self._outbox.send(handoff.process_socket(self.folder, home), Released(address, self.shard.index))

    # -- passing a connection on -----------------------------------------------------------

    async def hand_over(self, client: Client, frame: str, process: int) -> bool:
        """Pass ``client``'s connection to ``process`` with ``frame``, the message that picked a game
        there; False (and the connection goes on here) when it cannot be passed now, or ``process``
        misses its beats."""
        peer = client.socket
        tail, transport = peer.tail, peer.transport
        if tail is None or not tail.whole or peer.request is None:
            return False
        if handoff.late_marker(self.folder, process).exists():  # stopped or stuck: it would not answer
            return False
        transport.pause_reading()
        loop = asyncio.get_running_loop()
        flushed = loop.time() + FLUSH_WAIT
        while transport.get_write_buffer_size() > 0 and loop.time() < flushed:
            await asyncio.sleep(0.005)  # the frames this process wrote leave before the next one writes
        handed = peer.handed
        home = handed.home if handed is not None else self.shard.index
        note = Picked(
            home=home,
            address=client.address,
            path=peer.request.path,
            headers=list(peer.request.headers.raw_items()),
            name=client.name,
            frame=frame,
            created=client.created,
            hosted=sorted(client.hosted),
        )
        if transport.get_write_buffer_size() > 0:
            transport.resume_reading()
            return False
        target = handoff.process_socket(self.folder, process)
        descriptor = transport.get_extra_info("socket").fileno()
        given_up = loop.time() + HANDOVER_WAIT
        sent = False
        while not sent and not transport.is_closing() and loop.time() < given_up:
            if transport.get_write_buffer_size() > 0:  # a game this connection leaves told it something
                await asyncio.sleep(0.005)
                continue
            try:
                transport.pause_reading()  # websockets resumes it when its queue drains: paused again
                self._outbox.send(target, dataclasses.replace(note, rest=handoff.rest_of(tail)), descriptor)
                sent = True  # nothing is read between the unread bytes taken and the socket gone
            except (BlockingIOError, ConnectionError, FileNotFoundError):
                if loop.time() >= given_up:
                    break
                await asyncio.sleep(0.05)  # its queue is full, or it is starting again
            except (OSError, ValueError) as problem:
                log.error("could not pass a connection to process %d: %s", process, problem)
                break
        if not sent:
            transport.resume_reading()
            return False
        if home == self.shard.index and peer.counted is not None:
            self.lent[process][peer.counted] += 1
            peer.counted = None  # counted here until ``process`` says it closed
        peer.on_closed = None  # the home hears of the close from ``process``
        transport.abort()  # this process's copy of the socket only: the connection lives on in ``process``
        return True

    # -- /stats --------------------------------------------------------------------------

    def all_stats(self) -> str:
        """This process's counts added to every other process's last ones."""
        texts = [self.own_stats() if self.own_stats is not None else ""]
        for index in range(self.shard.count):
            if index != self.shard.index:
                with contextlib.suppress(OSError):
                    texts.append((self.folder / f"stats-{index}.txt").read_text(encoding="utf-8"))
        return merged_stats(texts, self.shard.count)

    async def _write_stats_forever(self) -> None:
        """Write this process's counts once a second for the others' ``/stats``; a write that fails (a
        full disk under the run's folder) is said once, in one line, and tried again each second, so
        the counts come back with the room."""
        path = self.folder / f"stats-{self.shard.index}.txt"
        failing = False
        while True:
            if self.own_stats is not None:
                written = path.with_suffix(".tmp")
                try:
                    written.write_text(self.own_stats(), encoding="utf-8")
                    os.replace(written, path)
                except OSError as error:
                    if not failing:
                        log.warning("process %d cannot write its counts for /stats: %s", self.shard.index, error)
                    failing = True
                else:
                    if failing:
                        log.warning("process %d writes its counts for /stats again", self.shard.index)
                    failing = False
            await asyncio.sleep(STATS_SECONDS)

    def _keep(self, task: asyncio.Task[Any]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def merged_stats(texts: list[str], processes: int) -> str:
    """The ``name value`` lines of several processes as one: numbers added (the commit times: the
    largest), a ``-`` or a word as the first process has it; ``processes`` first."""
    order: list[str] = []
    values: dict[str, str] = {}
    for text in texts:
        for line in text.splitlines():
            name, _, value = line.partition(" ")
            if name not in values:
                order.append(name)
                values[name] = value
                continue
            values[name] = _combined(name, values[name], value)
    return f"processes {processes}\n" + "".join(f"{name} {values[name]}\n" for name in order)


def _one_pool(name: str) -> bool:
    """A figure of the solver pool as a whole, which every process reads from the one pool they share
    (``game_server.POOL_SOCKET``): its queue, workers and budget, not a process's own solver seconds
    or games."""
    return name.startswith("solver_") and not name.startswith(("solver_cpu_seconds_", "solver_games_"))


def _combined(name: str, first: str, other: str) -> str:
    if _one_pool(name):
        return first
    try:
        a, b = float(first), float(other)
    except ValueError:
        return other if first == "-" else first
    if name in SUMMED_MAX:
        return f"{max(a, b):.2f}"
    total = a + b
    return str(int(total)) if "." not in first and "." not in other else f"{total:.1f}"
