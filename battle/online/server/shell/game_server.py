"""The game server: one asyncio process, the ``websockets`` library, every game in SQLite.

``running_server`` puts the parts together, each in a file of its own:

- ``http_front``: plain HTTP on the same port (``/healthz``, ``/stats``, the browser client's
  files) and the checks on a WebSocket handshake (its page's origin, a proxy's address);
- ``connections``: who may connect and for how long (counts per network from the first byte,
  the deadlines for ``hello`` and for picking a game, the message rate) and how much the
  server holds for each (``Peer``: the per-connection bound);
- ``dispatch``: what each message does (``GameServer.handle`` runs once per connection);
- ``fan_out``: who hears what (each game's connections, ``state`` and ``moved`` to all of them,
  nothing to a connection whose buffer is full, presence at most once a second);
- ``live_games``: the games in memory and their writes to disk, in groups on a writer thread
  (``group_commit``): at 1,000 games with a sync 5 ms slower than the disk's, 970 moves a
  second with a p99 of 48 ms, where one commit a move on the loop tops out at 150
  (``benchmarks/online_load.py``, the quiet 2-core machine);
- ``old_games``: finished games deleted after ``--keep-days``, in the background;
- below them the pure parts: ``room`` (one game's rules and offers), ``game_ends`` (when the
  clock ends a game), ``store`` (SQLite), ``seat_networks`` and ``network_caps`` (what one network
  holds and may start), ``link_secrets``, ``address_guard``, ``token_bucket`` and ``limits.server``.

With ``serve --processes N`` a ``supervisor`` holds the port and N processes each run this server
over their ``shards`` of the games, taking the connections it passes them (``processes.link``, over
``handoff``'s Unix sockets) and answering a request for another process's game ``elsewhere`` with
its place (``?at=``); with one process none of that exists.

Settings of the whole process (the switch interval, the collector) are no part of it: the
``serve`` command, which owns its process, turns them on (``processes.tuning``).

On start the server loads every unfinished game from the store, so a restart (or a crash)
loses nothing; clients reconnect with their seat tokens. A game a stop left past its limit ends
then, before anyone connects (``game_ends``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from websockets.asyncio.server import Server, serve

from battle.online.protocol import messages
from battle.online.server.days.shared import SharedDays
from battle.online.server.limits.address_guard import AddressGuard
from battle.online.server.limits.guard_counts import Counts, MemoryCounts, SharedCounts
from battle.online.server.limits.server import DEFAULT_HOST, DEFAULT_PORT, ServerLimits
from battle.online.server.lobby.shared import SharedLobby
from battle.online.server.peers.connections import fitted_to_open_files, peer_class, quiet_resource_errors
from battle.online.server.processes import handoff
from battle.online.server.processes.group_desk import GroupDesk
from battle.online.server.processes.link import ProcessLink
from battle.online.server.processes.shared_directory import SharedDirectory
from battle.online.server.rooms.group_commit import GATHER_SECONDS, Committer, EachCommit, GroupCommit
from battle.online.server.rooms.live_games import LiveGames
from battle.online.server.rooms.old_games import OldGames
from battle.online.server.rooms.room import Status
from battle.online.server.rooms.shards import ONE_PROCESS, Shard
from battle.online.server.rooms.share_address import ShareAddress
from battle.online.server.rooms.store import GameStore
from battle.online.server.shell.dispatch import LOBBY_PROCESS, GameServer, Places
from battle.online.server.shell.http_front import HttpFront, stats_text
from battle.online.server.solving.games import DealBook
from battle.online.server.solving.outcomes import SolverSetup
from battle.online.server.solving.shared_pars import SharedPars

if TYPE_CHECKING:
    from battle.online.server.solving.work import SolverWork

CLOSE_TIMEOUT = 2.0
"""Seconds a closing peer gets to answer the close frame before its connection is dropped."""

CommitMode = Literal["group", "each"]
"""``group``: the writer thread (the server's way); ``each``: a transaction a write, on the loop (the benchmark's)."""


@contextlib.asynccontextmanager
async def running_server(
    store: GameStore,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    limits: ServerLimits = ServerLimits(),
    clock: Callable[[], float] = time.time,
    commit: CommitMode = "group",
    solver: SolverSetup | None = None,
    deals: DealBook | None = None,
    gather_seconds: float = GATHER_SECONDS,
    shard: Shard = ONE_PROCESS,
    run_folder: Path | None = None,
    solver_process: int | None = None,
    directory: SharedDirectory | None = None,
) -> AsyncIterator[tuple[Server, GameServer]]:
    """The server listening on ``host:port`` (port 0: any free one; ``bound_port`` says which), with the
    solver pool ``solver`` asks for (None: a server for friends' games only, refusing solver work)
    and the catalogued ``deals`` games against the solver start from.

    One process of several (``shard`` of more than one, ``serve --processes``): it holds its shard's
    games and takes its connections from ``run_folder``, where the supervisor listening on
    ``host:port`` passes them (``processes.link``); a request for another process's game, or for the
    lobby (process 0's), is answered ``elsewhere``; ``solver_process`` is the one whose pool serves
    the solver's requests when it is another one.

    One group of several machines (``directory``, ``serve --group --shared``): the games of other
    groups are found in the shared directory and their requests answered ``elsewhere`` (``group_desk``);
    the lobby lists every group's challenges (``lobby.shared``) and the day's table ranks every group's
    results (``days.shared``).

    On the way out its connections are closed first, then the solver's work is stopped, then the
    writer commits what is queued and stops."""
    committer: Committer = GroupCommit(store, gather_seconds) if commit == "group" else EachCommit(store)
    held = _Held(committer, quiet_resource_errors(asyncio.get_running_loop()))
    try:
        shared_pool = None if shard.alone or run_folder is None or solver_process is None else run_folder / POOL_SOCKET
        await _open_solver_work(held, solver, shared_pool, limits.hello_seconds * 6)
        limits = fitted_to_open_files(limits)
        guard = AddressGuard(limits, counts=_network_counts(held, limits, shard, run_folder))
        games = LiveGames(store, committer, limits, shard)
        await games.end_overdue(clock())  # before the solver's seats are read and anyone connects
        server = GameServer(games, limits, guard, clock, held.work, deals)
        old = OldGames(games, limits.keep_seconds, clock)
        group = None if directory is None else _GroupSide.join(directory, server, store, guard, clock, shard)
        connection_options = _connection_options(limits, guard)
        link = None if shard.alone or run_folder is None else ProcessLink(run_folder, shard, connection_options)

        def own_stats() -> str:
            return _stats(guard, games, server, old)

        front = HttpFront(guard, limits, own_stats if link is None else link.all_stats, host)
        where: dict[str, Any] = {"host": host, "port": port}
        if link is not None:
            where = _behind_supervisor(server, link, own_stats, directory)
            server.solver_process = None if held.work is not None else solver_process
        async with _serving(server, limits, front, connection_options, where) as listening:
            addresses = [(host, port)] if link is not None else [sock.getsockname()[:2] for sock in listening.sockets]
            server.share = ShareAddress.of_server(limits.public_url, addresses)
            if link is not None:
                link.start(listening)
            watching = _start_watching(server, old, held.work, shard)
            if group is not None:
                watching += group.watch(games, store, deals, shard)
            server.solver_games.start()
            try:
                yield listening, server
            finally:
                await _stop_serving(server, watching, link, group)
    finally:
        await held.close()


class _Closing(Protocol):
    """A service closed from a thread: ``PoolService``, of ``battle.players``, which only ``solving.work`` imports."""

    def close(self) -> None: ...


@dataclass
class _Held:
    """What ``running_server`` closes on its way out, however far its start got: each part is set here
    as soon as it is open, so a start that fails part way still closes what it opened."""

    committer: Committer
    restore: Callable[[], None]
    """Puts back the loop's own handler of errors (``quiet_resource_errors``)."""
    counts: Counts = field(default_factory=MemoryCounts)
    """Each network's counts: this process's own, or the ones every process shares (``_network_counts``)."""
    work: SolverWork | None = None
    pool_sharing: _Closing | None = None
    """This process's pool as the other processes reach it (``serve_to``)."""

    async def close(self) -> None:
        """The other processes' way to the pool closes before the pool itself, the pool before the writer,
        which commits what is queued and stops, and the counts and the loop's handler last; the closes
        that block run off the loop."""
        if self.pool_sharing is not None:
            await asyncio.to_thread(self.pool_sharing.close)
        if self.work is not None:
            await asyncio.to_thread(self.work.close)
        await asyncio.to_thread(self.committer.close)
        self.counts.close()
        self.restore()


async def _open_solver_work(held: _Held, solver: SolverSetup | None, shared_pool: Path | None, patience: float) -> None:
    """The solver's pool for ``held``: this process's own when ``solver`` asks for one (served at
    ``shared_pool`` to the other processes when there are any), else the one another process serves
    there, waiting ``patience`` seconds for it to start, else none. The pool's module loads numba with
    it, so it is imported only when a pool is asked for."""
    if solver is not None:
        from battle.online.server.solving.work import SolverWork

        held.work = await asyncio.to_thread(SolverWork.open, solver)
        if shared_pool is not None:
            held.pool_sharing = await asyncio.to_thread(held.work.serve_to, shared_pool)
    elif shared_pool is not None:
        from battle.online.server.solving.work import SolverWork

        held.work = await asyncio.to_thread(SolverWork.shared, shared_pool, patience)


def _network_counts(held: _Held, limits: ServerLimits, shard: Shard, run_folder: Path | None) -> Counts:
    """The counts the address guard keeps of each network: one count for every process of ``serve
    --processes`` (a network's caps hold across them), in the run folder; this process's own otherwise."""
    if not shard.alone and run_folder is not None:
        held.counts = SharedCounts(run_folder / GUARD_COUNTS, limits.failed_code_memory, shard.index)
    return held.counts


@dataclass
class _GroupSide:
    """This process's part in a group of machines (``serve --group --shared``): the directory the groups
    share, where the games of other groups are found; the day's table of every group's results; and, in
    the lobby's process, the lobby that lists every group's challenges."""

    directory: SharedDirectory
    desk: GroupDesk
    days: SharedDays
    lobby: SharedLobby | None

    @classmethod
    def join(
        cls,
        directory: SharedDirectory,
        server: GameServer,
        store: GameStore,
        guard: AddressGuard,
        clock: Callable[[], float],
        shard: Shard,
    ) -> _GroupSide:
        """The group's parts, handed to the desks of ``server`` that answer with them."""
        desk = server.groups = server.solver_games.groups = GroupDesk(directory, store, guard)
        days = server.devices.shared = SharedDays(directory, clock)
        server.pars.shared = SharedPars(directory)
        lobby = None
        if shard.index == LOBBY_PROCESS:  # the lobby's process lists every group's challenges
            lobby = SharedLobby(directory.url, directory.group, server.lobby, clock)
        return cls(directory, desk, days, lobby)

    def watch(
        self, games: LiveGames, store: GameStore, deals: DealBook | None, shard: Shard
    ) -> list[asyncio.Task[None]]:
        """The group's tasks: each process sweeps its own shard's counts from the directory, and process 0
        the codes and tokens of the games gone from the database and the day's results of all."""

        def unfinished(game_id: str) -> bool:
            return not shard.holds(game_id) or games.is_unfinished(game_id)

        kept = (self.desk.kept_games, self.desk.kept_tokens) if shard.index == 0 else None
        watching = [asyncio.create_task(self.directory.sweep_forever(unfinished, kept))]
        if shard.index == 0 and deals is not None:
            watching.append(asyncio.create_task(self.days.publish_forever(store, deals)))
        if self.lobby is not None:
            watching.append(asyncio.create_task(self.lobby.run()))
        return watching

    async def close(self) -> None:
        """The shared lobby stops first, then the directory (both reach the database at ``directory.url``)."""
        if self.lobby is not None:
            await self.lobby.close()
        await self.directory.close()


def _connection_options(limits: ServerLimits, guard: AddressGuard) -> dict[str, Any]:
    """What ``serve`` makes each connection with, and what a connection the supervisor passes on
    (``ProcessLink``) is made with too, so both hold to the same limits."""
    return {
        "ping_interval": limits.ping_interval,
        "ping_timeout": limits.ping_timeout,
        "close_timeout": CLOSE_TIMEOUT,
        "write_limit": limits.peer_buffer,
        "create_connection": peer_class(guard, limits),
    }


def _behind_supervisor(
    server: GameServer, link: ProcessLink, own_stats: Callable[[], str], directory: SharedDirectory | None
) -> dict[str, Any]:
    """Where one process of several listens: the supervisor holds ``host:port`` and passes this
    process its connections on a Unix socket in the run folder; ``/stats`` adds every process's
    lines to this one's, and a request for another process's game is answered with its place."""
    folder = link.folder
    where = {"unix": True, "path": str(folder / f"process-{link.shard.index}.ws")}
    link.own_stats = own_stats
    server.places = Places(
        directory.group if directory is not None else None,
        lambda index: handoff.late_marker(folder, index).exists(),
    )
    return where


def _serving(
    server: GameServer,
    limits: ServerLimits,
    front: HttpFront,
    connection_options: dict[str, Any],
    where: dict[str, Any],
) -> Server:
    """The websockets server running ``server.handle`` for each connection at ``where``: a frame no
    longer than the protocol's longest message, the handshake within ``hello``'s deadline, and plain
    HTTP answered by ``front``."""
    return serve(
        server.handle,
        max_size=messages.MAX_MESSAGE_BYTES,
        open_timeout=limits.hello_seconds,
        compression=None,
        process_request=front.answer,
        **connection_options,
        **where,
    )


def _start_watching(
    server: GameServer, old: OldGames, work: SolverWork | None, shard: Shard
) -> list[asyncio.Task[None]]:
    """The tasks that run while the server listens: the games' clocks, the old games' deletion (in one
    process for all) and the places of the solver's work."""
    watching = [asyncio.create_task(server.watch_clocks())]
    if shard.index == 0:  # one process deletes the old games of all
        watching.append(asyncio.create_task(old.run()))
    if work is not None:
        watching.append(asyncio.create_task(work.watch_places()))
    return watching


async def _stop_serving(
    server: GameServer, watching: list[asyncio.Task[None]], link: ProcessLink | None, group: _GroupSide | None
) -> None:
    """While the connections are still open: the watching tasks end, then the solver's games, the
    reviews and the pars stop their work, then the link to the supervisor and the group's parts close."""
    for task in watching:
        task.cancel()
    await asyncio.gather(*watching, return_exceptions=True)
    await server.solver_games.close()
    await server.reviews.close()
    await server.pars.close()
    if link is not None:
        link.close()
    if group is not None:
        await group.close()


POOL_SOCKET = "solver.sock"
"""With ``--processes``: the Unix socket in the run folder where the process that owns the solver pool
serves it to the others (``battle.players.pool.sharing``), so every process answers its own games'
solver work and one schedule keeps every network's budget and turn across them."""
GUARD_COUNTS = "guard.sqlite3"
"""With ``--processes``: the file in the run folder where every process counts the networks' wrong
codes, starts, games being made, connections and open puzzles (``guard_counts.SharedCounts``)."""


def _stats(guard: AddressGuard, games: LiveGames, server: GameServer, old: OldGames) -> str:
    """``/stats``: a game against the solver counts apart from the games between people; the old
    finished games deleted since the start (``--keep-days``) and the lobby's followers and open challenges
    come before the solver's lines; the connections are the ones this process serves."""
    solver_games = server.solver_games.playing()
    more = [("old_games_deleted", str(old.deleted)), ("solver_games_playing", str(solver_games))]
    lobby = server.lobby
    more += [("lobby_followers", str(len(lobby.followers))), ("lobby_challenges", str(lobby.own_challenges))]
    if server.solver_games.work is not None:
        more += server.solver_games.work.stats()
    return stats_text(
        guard.total,
        len(guard.connections),
        games.count(Status.WAITING),
        games.count(Status.PLAYING) - solver_games,
        server.moves_told,
        games.commit_seconds,
        more,
    )


def bound_port(server: Server) -> int:
    """The port the server listens on (what port 0 became)."""
    return int(next(iter(server.sockets)).getsockname()[1])
