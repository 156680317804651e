"""One game process's side of ``serve --processes N``: the connections the supervisor sends it, and
``/stats`` for every process.

- A ``Fresh`` connection (its network's home is this process, or its ``?at=`` names it) starts as
  if this process had accepted it: the handshake, the caps, everything. It is made with the public
  constructors ``serve`` uses (``ServerProtocol``, the server's connection class) and adopted with
  asyncio's ``connect_accepted_socket``.
- A request for a game another process holds is answered ``elsewhere`` (``dispatch``), so a
  connection never moves between processes; a network's connections count once in the counts
  every process shares (``guard_counts``), wherever they land.
- ``/stats`` adds up every process's counts: each writes its own to the run's folder once a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection
from websockets.server import ServerProtocol

from battle.online.protocol import messages
from battle.online.server.processes import handoff
from battle.online.server.rooms.shards import Shard

STATS_SECONDS = 1.0
"""How often a process writes its counts for the others' ``/stats``."""
SUMMED_MAX = ("commit_ms_p50", "commit_ms_p99")
"""The ``/stats`` lines that are the worst process's, not the sum of all."""

log = logging.getLogger("mahjong-battle.server")


class ProcessLink:
    """This process's Unix socket in the run's ``folder``, where the supervisor sends it connections."""

    def __init__(self, folder: Path, shard: Shard, connection_options: dict[str, Any]) -> None:
        self.folder = folder
        self.shard = shard
        options = dict(connection_options)
        self._make_connection: Callable[..., ServerConnection] = options.pop("create_connection")
        self._options = options
        """What ``serve`` makes its connections with (``running_server``): an adopted one gets the same."""
        self.server: Server | None = None
        """The WebSocket server the connections join (set once it listens)."""
        self._listener = handoff.listen(handoff.process_socket(folder, shard.index))
        self._links: list[socket.socket] = []
        """The supervisor's links to this process."""
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
        handoff.process_socket(self.folder, self.shard.index).unlink(missing_ok=True)

    # -- what arrives --------------------------------------------------------------------

    def _accept(self) -> None:
        while True:
            try:
                link, _address = self._listener.accept()
            except BlockingIOError:
                return
            except OSError as problem:  # out of file descriptors: the link is tried again
                log.error("could not take a link from the supervisor: %s", problem)
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
                log.error("a note from the supervisor did not read: %s", problem)
                continue
            if received is None:
                return
            _note, carried = received
            if carried is not None:
                self._keep(asyncio.get_running_loop().create_task(self._take(carried)))

    async def _take(self, carried: socket.socket) -> None:
        carried.setblocking(False)
        try:
            await asyncio.get_running_loop().connect_accepted_socket(self._connection, carried)
        except OSError as problem:
            log.info("a connection passed here closed first: %s", problem)
            carried.close()

    def _connection(self) -> ServerConnection:
        """A connection as ``serve`` makes one: its handshake and handler start as it is made."""
        assert self.server is not None
        return self._make_connection(ServerProtocol(max_size=messages.MAX_MESSAGE_BYTES), self.server, **self._options)

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
