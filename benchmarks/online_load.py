"""Load on the online game server: N games of bot players at once over loopback, as a Markdown table.

    python benchmarks/online_load.py --games 100,1000     one run per N, each with a fresh server
    python benchmarks/online_load.py --max                N = 1000, 2000, 4000, ... until a run fails
    python benchmarks/online_load.py --store-probe        the store's add_move alone, fsync on and off
    python benchmarks/online_load.py --games 1000 --profile    the server under cProfile: where its time goes
    python benchmarks/online_load.py --games 1000,2000 --commit each,group --slow-sync-ms 0,5
                                                          both commit paths, on this disk and on one 5 ms slower
    python benchmarks/online_load.py --games 1000,2000 --processes 1,2
                                                          one server process and two, run by run
    python benchmarks/online_load.py --games 1000 --against 3dde8aa
                                                          that revision's server and this tree's, run by run
    python benchmarks/online_load.py --games 1000 --event-loop asyncio,auto --gather-ms 0,2
                                                          this tree's server on each loop, its writer waiting 0 or 2 ms

Each run starts the real server (``mahjong-battle serve``) as a child process on 127.0.0.1
with a fresh temporary database, ``--max-games`` above N and the per-address caps lifted (the
bots connect from ``--addresses`` loopback addresses, 64 networks), with ``--processes`` (one run
each: ``1,2`` puts one process and two side by side; with several the server's CPU, RSS and
scheduling are the sums over the supervisor and its game processes, and the server's own timers
are not taken), and with the ``--commit`` path
and ``--slow-sync-ms`` of the run (one run per combination of the lists given): ``group``
is the server's writer thread, committing the moves that arrived together in one
transaction; ``each`` is one transaction a move on the event loop. ``--slow-sync-ms 5``
sleeps 5 ms after every commit's sync, on the thread that committed (the writer thread, or
the loop for ``each``): a disk whose sync takes 5 ms longer, as this machine's did under load.
Then ``--clients`` processes play their share of the N games: per game two connections (``create``, ``join``;
a join answered ``elsewhere`` by a server of several processes connects again at its ``?at=``) take turns
playing a random legal move with a new move id after a think pause of 0.5x to 1.5x
``--think`` seconds, until the rules end the game (about 53 moves) or ``--moves-per-game``.
Game starts are spread over ``--ramp`` seconds (default N/250: 500 new connections a
second), so the games run side by side out of step rather than in lock step. With
``--against REV`` each run is made twice, first with the server of REV (checked out in a
temporary worktree), then with this tree's, under the same load: the commit cell of its rows
says ``@REV``. ``--event-loop asyncio,auto`` runs this tree's server once on each loop
(``auto``: uvloop when the server's Python has it, the ``fast`` extra), and ``--gather-ms 0,2``
once with each wait of its writer thread for more writes to commit with the first; the cell
names them.
The server's ``PYTHONPATH`` is its tree's folder, then the caller's ``PYTHONPATH``.

Measured:

- moves/s: moves the server acknowledged while all N games were under way (from the last
  join to the first game's end); over the whole run when that window is under a second.
- latency: from the mover's send to the opponent's receipt of ``moved``, both read on one
  client process's monotonic clock, so a busy client adds its own delay: its CPU is shown.
  Its p99 over the moves sent once every game had joined leaves out the start, when the
  server's one event loop also opens 500 connections a second.
- server RSS (``/proc/PID/status``): VmRSS idle before the games, VmHWM after them (the
  peak); a game's and a connection's share is the difference over N and 2N.
- server CPU: % of one core over the run, and its CPU milliseconds per acknowledged move
  (1 ms a move caps one core at 1,000 moves a second), split into the event loop's thread
  and the writer thread (``/proc/PID/task``): the writer holds the interpreter's lock for
  at most its own share, and lets go of it while SQLite steps and syncs.
- errors: ``error`` messages, connections refused or dropped, an answer missing after
  ``--timeout`` seconds, a client or the server exiting early.
- commit batches: writes per commit (p50 / p99 / max over the commits), from the server's
  committer when it stops; always 1 for ``each``.

The issue's goal is p99 at most 50 ms at 1,000 concurrent games and 100 ms at 2,000, with the
slow sync too. ``--max`` doubles N from ``--max-start`` while runs hold ``--p99-goal`` (50 ms;
``--p99-goal 100`` finds the saturation point) with no errors and the server under ``--max-rss-mib``;
when the first run fails it halves N instead. Every run is bounded by ``--duration`` and each
wait by ``--timeout``; ``--max`` stops before a run that would pass ``--max-seconds`` in all.
Only 127.0.0.1 is ever contacted. The open-files limit is raised to its hard limit here and
in every child: a game holds two sockets on each side.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import math
import multiprocessing
import os
import platform
import pstats
import queue
import random
import resource
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Coroutine
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree's battle package, also in spawned client processes

from benchmarks.percentiles import percentile  # noqa: E402 - after the checkout is on the path

HOST = "127.0.0.1"
P99_GOAL_MS = 50.0
"""The issue's goal: p99 latency under 50 ms with 1,000 concurrent games."""
RAMP_GAMES_PER_SECOND = 250
"""Games started a second by default: 500 connections a second, a join storm the server absorbs in passing."""
MOVES_CAP = 200
"""No game of 108 tiles has more than 54 moves; this bounds a game's loop whatever ``--moves-per-game`` says."""
SKIPPED_LIMIT = 50
"""Messages of other kinds read while waiting for one kind before giving up (a game sends a few ``state``s)."""
STARTUP_SECONDS = 30.0
"""How long the server and the client processes get to start."""
SAMPLE_SECONDS = 0.5
"""How often the server's RSS is read during a run."""

SERVER = r"""
import gc, json, resource, sys, time
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else max(soft, 65536),) * 2)
from battle.cli import main
import importlib
from battle.online.protocol.messages import PlayMove

def found(name, *modules):
    # name from the first of modules this tree has: a run --against an older tree finds the server's
    # parts where that tree keeps them (in packages, flat in battle/online/server, or, before the
    # handlers' file, in the one file of the whole server)
    for module in modules:
        try:
            return getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            continue
    raise ImportError(f"no {name} in {', '.join(modules)}")

GameServer = found(
    "GameServer",
    "battle.online.server.shell.dispatch",
    "battle.online.server.dispatch",
    "battle.online.server.game_server",
)
GameStore = found("GameStore", "battle.online.server.rooms.store", "battle.online.server.store")

timings_path, profile_path, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
timings = {"move": [], "commit": [], "gc": [], "gc2": []}
commit, commit_group, act, init = GameStore.commit, GameStore.commit_group, GameServer._act, GameServer.__init__
servers = []


def timed_commit(self, write, connection=None):
    began = time.perf_counter()
    try:
        return commit(self, write, connection)
    finally:
        if connection is None:  # the each path's own transaction, not the group's fallback
            timings["commit"].append(time.perf_counter() - began)


def timed_commit_group(self, writes, connection, failed_games):
    began = time.perf_counter()
    try:
        return commit_group(self, writes, connection, failed_games)
    finally:
        timings["commit"].append(time.perf_counter() - began)


def recorded_init(self, *args, **options):
    init(self, *args, **options)
    servers.append(self)


async def timed_act(self, client, message):
    began = time.perf_counter()
    try:
        return await act(self, client, message)
    finally:
        if isinstance(message, PlayMove):
            timings["move"].append(time.perf_counter() - began)


collecting = [0.0]


def time_gc(phase, info):
    if phase == "start":
        collecting[0] = time.perf_counter()
    else:
        timings["gc2" if info["generation"] == 2 else "gc"].append(time.perf_counter() - collecting[0])


GameStore.commit, GameStore.commit_group, GameServer._act = timed_commit, timed_commit_group, timed_act
GameServer.__init__ = recorded_init
try:  # every bot creates from 127.0.0.1: a client process that fell behind its ramp creates more than 20 at once
    import dataclasses
    AddressGuard = found(
        "AddressGuard",
        "battle.online.server.limits.address_guard",
        "battle.online.server.shell.address_guard",
        "battle.online.server.address_guard",
    )
    guard_post_init = AddressGuard.__post_init__

    def unlimited_bursts(self):
        object.__setattr__(self, "limits", dataclasses.replace(self.limits, create_burst=10**9))
        guard_post_init(self)

    AddressGuard.__post_init__ = unlimited_bursts
except (ImportError, AttributeError, TypeError):  # a tree with no burst of creates
    pass
gc.callbacks.append(time_gc)
if profile_path:
    import cProfile
    profiler = cProfile.Profile()
    code = profiler.runcall(main, argv)
    profiler.dump_stats(profile_path)
else:
    code = main(argv)
committer = getattr(servers[0], "live", servers[0]).committer if servers else None
sizes = committer.batch_sizes if committer is not None else {}
timings["batch_sizes"] = {str(size): count for size, count in sizes.items()}
with open(timings_path, "w") as out:
    json.dump(timings, out)
sys.exit(code)
"""
"""The server's process: the open-files limit raised, then the command line's ``serve`` (optionally under
cProfile) with three timers around it: each move's handling (``GameServer._act`` for a ``move``: the rules,
the wait for its commit, the sends), each commit (``GameStore.commit`` on the loop for ``each``,
``GameStore.commit_group`` on the writer thread for ``group``: one transaction, fsynced) and each garbage
collection (the oldest generation's apart: it walks every object, every game's included); and the
committer's count of writes per commit; and no cap on the creates one address makes at once (every bot is
127.0.0.1, and a client process behind its ramp starts many games at once). A timer costs about a
microsecond; the figures go to a JSON file when the server stops."""


# -- the machine --------------------------------------------------------------------------


def raise_open_files() -> int:
    """Raise this process's open-files limit to its hard limit (children inherit it); the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def proc_status(pid: int) -> dict[str, int]:
    """The ``kB`` fields of ``/proc/PID/status`` (VmRSS, VmHWM, ...), in KiB; empty if the process is gone."""
    fields = {}
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    for line in text.splitlines():
        name, _, value = line.partition(":")
        parts = value.split()
        if len(parts) == 2 and parts[1] == "kB":
            fields[name] = int(parts[0])
    return fields


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a running process (all its threads), or None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # after the command name: utime and stime are fields 14 and 15 of stat(5)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def loop_cpu_seconds(pid: int) -> float:
    """User + system CPU time of the process's main thread alone (the server's event loop; its
    writer thread is the rest of ``cpu_seconds``), from ``/proc/PID/task/PID/stat``; NaN if gone."""
    try:
        fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return math.nan
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def schedule_seconds(pid: int) -> tuple[float, float]:
    """Seconds the process's main thread (the server's event loop) ran on a core and waited for one, from
    ``/proc/PID/schedstat``; the rest of the wall time it was blocked: in fsync, or idle in epoll."""
    try:
        running, waiting = Path(f"/proc/{pid}/schedstat").read_text().split()[:2]
    except (OSError, ValueError):
        return math.nan, math.nan
    return int(running) / 1e9, int(waiting) / 1e9


def open_files_limit(pid: int) -> int | None:
    """The soft open-files limit of a running process, from ``/proc/PID/limits``."""
    try:
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                return int(line.split()[3])
    except (OSError, ValueError, IndexError):
        return None
    return None


# -- the server process -------------------------------------------------------------------


class ServerProcess:
    """``with ServerProcess(folder, max_games) as server:`` the real server listening on 127.0.0.1."""

    def __init__(
        self,
        folder: Path,
        max_games: int,
        profile: Path | None = None,
        commit: str = "group",
        slow_sync_ms: float = 0.0,
        tree: Path = ROOT,
        event_loop: str = "",
        gather_ms: float | None = None,
        processes: int = 1,
    ) -> None:
        self.folder = folder
        self.processes = processes
        """``serve --processes``: the game processes under the supervisor (1: the server is one process)."""
        self.tree = tree
        """The checkout whose server runs (this one, or another revision's)."""
        self.commit = commit
        self.slow_sync_ms = slow_sync_ms
        self.event_loop = event_loop
        """``serve --event-loop``'s choice; "" for the tree's default (a tree older than the option)."""
        self.gather_ms = gather_ms
        """``serve --gather-ms``; None for the tree's default."""
        self.database = folder / "games.sqlite3"
        self.max_games = max_games
        self.profile = profile
        self.timings = folder / "timings.json"
        self.url = ""
        self._log = folder / "server.log"
        self._errors = folder / "server.err"
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self._process is not None
        return self._process.pid

    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def pids(self) -> list[int]:
        """The server's processes: the one started, and its game processes when it supervises some."""
        try:
            children = Path(f"/proc/{self.pid}/task/{self.pid}/children").read_text().split()
        except OSError:
            children = []
        return [self.pid, *(int(child) for child in children)]

    def _processes_flag(self) -> list[str]:
        """``--processes N`` for a tree that has it (its default is one per core; the benchmark's, 1)."""
        commands = (self.tree / "battle" / "cli" / "online_commands.py").read_text(encoding="utf-8")
        if '"--processes"' not in commands:
            if self.processes != 1:
                raise SystemExit(f"the server of {self.tree} has no --processes")
            return []
        return ["--processes", str(self.processes)]

    def _network_caps(self) -> list[str]:
        """The caps on the games one network holds and starts, lifted too, for a tree that has them."""
        commands = (self.tree / "battle" / "cli" / "online_commands.py").read_text(encoding="utf-8")
        if "--max-games-per-address" not in commands:
            return []
        # a game a second for each game at once, within the flag's bound (3,600,000 an hour)
        creates = min(3600 * self.max_games, 3_600_000)
        return ["--max-games-per-address", str(self.max_games), "--creates-per-hour", str(creates)]

    def __enter__(self) -> ServerProcess:
        command = [
            sys.executable,
            "-c",
            SERVER,
            str(self.timings),
            str(self.profile or ""),
            "serve",
            "--solver-workers",
            "0",
            "--host",
            HOST,
            "--port",
            "0",
            "--db",
            str(self.database),
            "--max-games",
            str(self.max_games),
            # the bots come from a few loopback addresses: the per-address caps would stop the load
            "--max-connections-per-address",
            str(4 * self.max_games),
            "--max-waiting-per-address",
            str(self.max_games),
            *self._network_caps(),
            *self._processes_flag(),
            "--commit",
            self.commit,
            "--slow-sync-ms",
            f"{self.slow_sync_ms:g}",
            *(["--event-loop", self.event_loop] if self.event_loop else []),
            *(["--gather-ms", f"{self.gather_ms:g}"] if self.gather_ms is not None else []),
        ]
        # the tree's battle package first; the caller's path after it (packages installed beside the venv)
        path = os.pathsep.join(part for part in (str(self.tree), os.environ.get("PYTHONPATH", "")) if part)
        with open(self._log, "wb") as log, open(self._errors, "wb") as errors:
            self._process = subprocess.Popen(
                command, cwd=self.tree, env={**os.environ, "PYTHONPATH": path}, stdout=log, stderr=errors
            )
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline and self.alive():
            text = self._log.read_text(errors="replace")
            if "ws://" in text:
                self.url = "ws://" + text.split("ws://", 1)[1].split()[0]
                return self
            time.sleep(0.05)
        self.stop()
        raise SystemExit(f"the server did not start: {self.stderr()[:500]}")

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        """SIGTERM (the server closes its connections and its database), then SIGKILL after 20 s."""
        if self._process is None or self._process.poll() is not None:
            return
        self._process.send_signal(signal.SIGTERM)
        try:
            self._process.wait(20)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait(10)

    def stderr(self) -> str:
        try:
            return self._errors.read_text(errors="replace").strip()
        except OSError:
            return ""


# -- the players (in the client processes) ------------------------------------------------


@dataclass
class Settings:
    """What every client process is told."""

    url: str
    think: float
    moves_per_game: int
    timeout: float
    duration: float


@dataclass
class GameSpec:
    """One game a client plays: when it starts (seconds after the common start), its deal and its moves' seed."""

    delay: float
    deal: int
    seed: int
    host_from: str = HOST
    guest_from: str = HOST
    """The loopback addresses its two players connect from (``--addresses``)."""


@dataclass
class Tally:
    """What one client process saw."""

    latencies_ms: list[float] = field(default_factory=list)
    sent: list[float] = field(default_factory=list)
    """The monotonic time each move of ``latencies_ms`` was sent."""
    acks: list[float] = field(default_factory=list)
    """The monotonic time each ``ack`` was read (the clock is shared by every process of the machine)."""
    joined: list[float] = field(default_factory=list)
    ended: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    finished: int = 0
    capped: int = 0
    stopped: int = 0
    cpu_seconds: float = 0.0
    gc_pauses: list[float] = field(default_factory=list)
    """The client's own garbage collections of its oldest generation, in seconds: they delay its reading too."""


class _Failure(Exception):
    """A game that cannot go on; its text is the error's kind."""


async def _expect(socket: Any, kind: str, timeout: float) -> dict[str, Any]:
    """The next message of this kind on ``socket``; an ``error``, a silence of ``timeout`` s or a close fails."""
    return (await _expect_each(socket, (kind,), timeout))[kind]


async def _expect_each(
    socket: Any, kinds: tuple[str, ...], timeout: float, also: str | None = None
) -> dict[str, dict[str, Any]]:
    """The next message of each kind, in whatever order they come (the mover's ``ack`` and ``moved``);
    or a message of the kind ``also`` alone, as soon as it comes."""
    from websockets.exceptions import ConnectionClosed

    deadline = time.monotonic() + timeout
    found: dict[str, dict[str, Any]] = {}
    for _ in range(SKIPPED_LIMIT):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            async with asyncio.timeout(left):  # not wait_for: that wraps each recv in a task of its own
                message = json.loads(await socket.recv())
        except TimeoutError:
            break
        except ConnectionClosed as closed:
            raise _Failure(f"connection closed ({closed.rcvd.code if closed.rcvd else 'no close frame'})") from None
        if message.get("type") in kinds:
            found.setdefault(message["type"], message)
            if len(found) == len(kinds):
                return found
        if also is not None and message.get("type") == also:
            return {also: message}
        if message.get("type") == "error":
            raise _Failure(f"error {message.get('code')}: {message.get('reason')}"[:120])
    missing = " and ".join(kind for kind in kinds if kind not in found)
    raise _Failure(f"no {missing} within {timeout:g} s")


async def _open(url: str, name: str, timeout: float, sockets: list[Any], source: str = HOST) -> Any:
    """A connection from ``source`` that said ``hello`` and got ``welcome``; it joins ``sockets`` (to be
    closed) once open."""
    from websockets.asyncio.client import connect

    try:
        socket = await connect(
            url,
            open_timeout=timeout,
            close_timeout=2,
            ping_interval=None,
            compression=None,
            proxy=None,
            local_addr=(source, 0),
        )
    except Exception as problem:  # OSError, TimeoutError, websockets' InvalidHandshake and kin
        raise _Failure(f"connect: {type(problem).__name__}") from None
    sockets.append(socket)
    await socket.send(json.dumps({"type": "hello", "version": 1, "name": name}))
    await _expect(socket, "welcome", timeout)
    return socket


async def _join(settings: Settings, source: str, invite: str, sockets: list[Any]) -> tuple[Any, dict[str, Any]]:
    """The guest's connection and its ``joined``: a server of several processes may answer ``elsewhere``
    (the game is another process's), and the guest connects again at its ``?at=``, as the page does."""
    from battle.online.protocol.server_groups import FOLLOWS_IN_A_ROW, url_at

    url = settings.url
    for _follow in range(FOLLOWS_IN_A_ROW + 1):
        guest = await _open(url, "Guest", settings.timeout, sockets, source)
        await guest.send(json.dumps({"type": "join", "code": invite}))
        answer = await _expect_each(guest, ("joined",), settings.timeout, also="elsewhere")
        if "joined" in answer:
            return guest, answer["joined"]
        await guest.close()
        url = url_at(settings.url, str(answer["elsewhere"]["group"]))
    raise _Failure(f"sent elsewhere {FOLLOWS_IN_A_ROW + 1} times")


async def play_game(spec: GameSpec, settings: Settings, start: float, tally: Tally) -> None:
    """Create, join, then both players move in turn until the game ends, the cap, or the run's end."""
    from battle.rules.board import move_name
    from battle.rules.notation import parse_position

    await asyncio.sleep(max(0.0, start + spec.delay - time.monotonic()))
    rng = random.Random(spec.seed)
    stop_at = start + settings.duration
    sockets: list[Any] = []
    try:
        host = await _open(settings.url, "Host", settings.timeout, sockets, spec.host_from)
        await host.send(json.dumps({"type": "create", "deal": {"number": spec.deal}, "first": "random"}))
        created = await _expect(host, "created", settings.timeout)
        state = await _expect(host, "state", settings.timeout)
        guest, joined = await _join(settings, spec.guest_from, str(created["invite"]), sockets)
        await _expect(guest, "state", settings.timeout)
        await _expect(host, "state", settings.timeout)
        tally.joined.append(time.monotonic())
        seat_socket = {created["seat"]: host, joined["seat"]: guest}
        position = parse_position(state["start"])
        for ply in range(1, min(settings.moves_per_game, MOVES_CAP) + 1):
            await asyncio.sleep(rng.uniform(0.5 * settings.think, 1.5 * settings.think))
            if time.monotonic() >= stop_at:
                tally.stopped += 1
                return
            mover = position.to_move
            move = rng.choice(position.legal_moves())
            text = move_name(move)
            sent = time.monotonic()
            await seat_socket[mover].send(json.dumps({"type": "move", "move": text, "id": f"m{ply}"}))
            moved = await _expect(seat_socket[3 - mover], "moved", settings.timeout)
            tally.latencies_ms.append(1000 * (time.monotonic() - sent))
            tally.sent.append(sent)
            await _expect_each(seat_socket[mover], ("ack", "moved"), settings.timeout)
            tally.acks.append(time.monotonic())
            if moved["ply"] != ply or moved["move"] != text:
                raise _Failure("moved names another move")
            position.push(move)
            if moved["status"] == "finished":
                tally.finished += 1
                return
            if position.is_over():
                raise _Failure("the rules ended the game and the server did not")
        tally.capped += 1
    except _Failure as failure:
        tally.errors[str(failure)] += 1
    except Exception as problem:  # reported in the table rather than ending the benchmark
        tally.errors[f"client crash: {type(problem).__name__}: {problem}"[:120]] += 1
    finally:
        tally.ended.append(time.monotonic())
        for socket in sockets:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(socket.close(), 5)


async def play_games(specs: list[GameSpec], settings: Settings, start: float) -> Tally:
    tally = Tally()
    await asyncio.gather(*(play_game(spec, settings, start, tally) for spec in specs))
    return tally


def client_process(specs: list[GameSpec], settings: Settings, results: Any, go: Any, start_value: Any) -> None:
    """One client process: its games on one event loop, from the start time the parent sets."""
    raise_open_files()
    # imported before the common start, so that no game waits for an import
    import websockets.asyncio.client  # noqa: F401

    import battle.rules.notation  # noqa: F401

    results.put(("ready", os.getpid()))
    if not go.wait(STARTUP_SECONDS * 2):
        return
    start = start_value.value
    cpu = time.process_time()
    pauses: list[float] = []
    collecting = [0.0]

    def time_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting[0] = time.perf_counter()
        elif info["generation"] == 2:
            pauses.append(time.perf_counter() - collecting[0])

    gc.callbacks.append(time_gc)
    tally = asyncio.run(_frozen_each_second(play_games(specs, settings, start)))
    tally.gc_pauses = pauses
    tally.cpu_seconds = time.process_time() - cpu
    results.put(("done", {**asdict(tally), "errors": dict(tally.errors)}))  # asdict would count a Counter's items


async def _frozen_each_second(games: Coroutine[Any, Any, Tally]) -> Tally:
    """Run ``games`` while what has lived a second goes to the collector's permanent generation,
    as the server does: 2,000 bot connections in one process otherwise stop it for full
    collections of up to 114 ms (5 a run at 1,000 games), which the latency of every move
    in flight then shows although the server answered in time."""

    async def freeze() -> None:
        while True:
            await asyncio.sleep(1.0)
            gc.freeze()

    freezer = asyncio.create_task(freeze())
    try:
        return await games
    finally:
        freezer.cancel()


# -- one run ------------------------------------------------------------------------------


@dataclass
class RunResult:
    """One run's figures: a row of the table, the server's timers and the notes under it."""

    games: int
    clients: int
    commit: str = "group"
    slow_sync_ms: float = 0.0
    processes: int = 1
    """``serve --processes``."""
    tree: str = ""
    """The other revision whose server ran (``--against``), or "" for this tree's."""
    event_loop: str = ""
    """``serve --event-loop``'s choice (``--event-loop``), or "" for the server's default."""
    gather_ms: float | None = None
    """``serve --gather-ms`` (``--gather-ms``), or None for the server's default."""
    load: str = ""
    """The machine's 1-minute load average at the run's start and end."""
    moves: int = 0
    moves_per_second: float = 0.0
    p50_ms: float = math.nan
    p99_ms: float = math.nan
    max_ms: float = math.nan
    p99_joined_ms: float = math.nan
    """The p99 of the moves sent once every game had joined: without the start's 500 new
    connections a second, which the server's one event loop handles between moves."""
    rss_idle_kib: int = 0
    rss_peak_kib: int = 0
    server_cpu_percent: float = math.nan
    server_cpu_ms_per_move: float = math.nan
    loop_cpu_ms_per_move: float = math.nan
    """The event loop's thread's share of ``server_cpu_ms_per_move``; the rest is the writer thread's."""
    clients_cpu_percent: float = math.nan
    clients_gc_pauses: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    finished: int = 0
    capped: int = 0
    stopped: int = 0
    seconds: float = 0.0
    server_stderr: str = ""
    profile: Path | None = None
    """The server's cProfile dump, with ``--profile``."""
    timings: dict[str, Any] = field(default_factory=dict)
    """The server's own timers, in seconds: ``move``, ``commit``, ``gc`` and ``gc2``, and ``batch_sizes``
    (``{writes: commits}``; see ``SERVER``)."""
    on_core: float = math.nan
    """Seconds the server's event loop ran on a core during the run ..."""
    waiting_for_core: float = math.nan
    """... and seconds it was ready to run but the cores were taken (by the clients or anything else)."""
    over_goal: int = 0
    """Moves whose latency passed the p99 goal."""
    cpu_by_process: list[float] = field(default_factory=list)
    """With several processes: the CPU seconds of the supervisor, then of each game process."""

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def label(self) -> str:
        sync = f", sync +{self.slow_sync_ms:g} ms" if self.slow_sync_ms else ""
        return f"{self.games:,} games, {self.commit_cell()}{sync}"

    def commit_cell(self) -> str:
        cell = f"{self.commit} @{self.tree}" if self.tree else self.commit
        if self.event_loop:
            cell += f", loop {self.event_loop}"
        if self.gather_ms is not None:
            cell += f", gather {self.gather_ms:g} ms"
        return cell if self.processes == 1 else f"{cell}, {self.processes} processes"

    def batch_spread(self) -> str:
        """Writes per commit: p50 / p99 / max over the commits, and how many commits."""
        counts = {int(size): count for size, count in self.timings.get("batch_sizes", {}).items()}
        total = sum(counts.values())
        if not total:
            return "-"

        def rank(fraction: float) -> int:
            seen, target = 0, max(1, math.ceil(fraction * total))
            for size in sorted(counts):
                seen += counts[size]
                if seen >= target:
                    return size
            return max(counts)

        return f"{rank(0.5)} / {rank(0.99)} / {max(counts)} ({total:,})"

    def row(self) -> str:
        grown = max(0, self.rss_peak_kib - self.rss_idle_kib)
        return (
            f"| {self.games:,} | {self.commit_cell()} | {self.slow_sync_ms:g} | {self.clients} | {self.moves:,} | "
            f"{self.moves_per_second:,.0f} | "
            f"{self.p50_ms:.1f} | {self.p99_ms:.1f} | {self.max_ms:.1f} | {self.p99_joined_ms:.1f} | "
            f"{self.rss_idle_kib / 1024:.1f} / {self.rss_peak_kib / 1024:.1f} | {grown / self.games:.1f} | "
            f"{grown / (2 * self.games):.1f} | {self.server_cpu_percent:.0f} | {self.server_cpu_ms_per_move:.2f} "
            f"({self.loop_cpu_ms_per_move:.2f} + {self.server_cpu_ms_per_move - self.loop_cpu_ms_per_move:.2f}) | "
            f"{self.clients_cpu_percent:.0f} | {self.batch_spread()} | {self.load} | {self.error_count} |"
        )


TABLE_HEADER = (
    "| games | commit | slow sync ms | client processes | moves | moves/s | p50 ms | p99 ms | max ms "
    "| p99 ms, all joined | server RSS idle / peak MiB | KiB a game | KiB a connection | server CPU % "
    "| server CPU ms a move (loop + writer) | clients CPU % | writes a commit p50 / p99 / max (commits) "
    "| load at start / end | errors |\n"
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---:|"
)


def default_clients(games: int) -> int:
    """One client process per 1,000 games, at most one per core: past that they only take turns on the cores."""
    return max(1, min(os.cpu_count() or 1, math.ceil(games / 1000)))


def game_specs(games: int, ramp: float, seed: int, addresses: int = 1) -> list[GameSpec]:
    """``games`` games started over ``ramp`` seconds, their players from ``addresses`` loopback addresses
    (127.0.0.1 onwards): as many client networks, each with its home among the server's processes."""
    rng = random.Random(seed)

    def address() -> str:
        number = rng.randrange(addresses)
        return f"127.0.{number // 250}.{number % 250 + 1}"

    return [
        GameSpec(
            delay=ramp * index / games,
            deal=rng.randrange(1, 1_000_000),
            seed=rng.randrange(2**32),
            host_from=address(),
            guest_from=address(),
        )
        for index in range(games)
    ]


def run_once(
    games: int,
    args: argparse.Namespace,
    work: Path,
    limit: int,
    commit: str = "group",
    slow_sync_ms: float = 0.0,
    tree: tuple[Path, str] = (ROOT, ""),
    event_loop: str = "",
    gather_ms: float | None = None,
    processes: int = 1,
) -> RunResult:
    """One server (of ``tree``: a checkout and its name, "" for this one; of ``processes`` game
    processes), ``games`` games from ``--clients`` processes; the server is stopped before returning.
    With several processes the server's CPU, RSS and scheduling are the sums over all of them."""
    clients = args.clients or default_clients(games)
    ramp = args.ramp if args.ramp is not None else games / RAMP_GAMES_PER_SECOND
    result = RunResult(games, clients, commit, slow_sync_ms, processes, tree[1], event_loop, gather_ms)
    load_before = os.getloadavg()[0]
    if 2 * games + 64 > limit:
        result.errors[f"open-files limit {limit} is below 2 sockets a game"] += 1
        return result
    folder = Path(tempfile.mkdtemp(prefix=f"load{games}-", dir=work))
    profile = folder / "server.prof" if args.profile else None
    context = multiprocessing.get_context("spawn")
    print(f"{result.label()}: starting the server and {clients} client process(es)", file=sys.stderr, flush=True)
    with ServerProcess(
        folder, games + 100, profile, commit, slow_sync_ms, tree[0], event_loop, gather_ms, processes
    ) as server:
        server_limit = open_files_limit(server.pid)
        if server_limit is not None and 2 * games + 64 > server_limit:
            result.errors[f"the server's open-files limit {server_limit} is below 2 sockets a game"] += 1
            return result
        settings = Settings(server.url, args.think, args.moves_per_game, args.timeout, args.duration)
        results = context.Queue()
        go = context.Event()
        start_value = context.Value("d", 0.0)
        specs = game_specs(games, ramp, args.seed + games, args.addresses)
        processes = [
            context.Process(
                target=client_process, args=(specs[index::clients], settings, results, go, start_value), daemon=True
            )
            for index in range(clients)
        ]
        for process in processes:
            process.start()
        ready = 0
        with contextlib.suppress(queue.Empty):
            while ready < clients:
                results.get(timeout=STARTUP_SECONDS * 2)
                ready += 1
        time.sleep(1.0)  # the server idle, its start-up done
        pids = server.pids()
        result.rss_idle_kib = sum(proc_status(pid).get("VmRSS", 0) for pid in pids)
        cpu_before = [cpu_seconds(pid) or 0.0 for pid in pids]
        server_cpu = sum(cpu_before)
        loop_cpu = sum(loop_cpu_seconds(pid) for pid in pids)
        scheduled = _summed([schedule_seconds(pid) for pid in pids])
        start = time.monotonic() + 0.2
        start_value.value = start
        go.set()
        tallies: list[dict[str, Any]] = []
        deadline = start + ramp + args.duration + 4 * args.timeout + 30
        while len(tallies) < ready and time.monotonic() < deadline and server.alive():
            with contextlib.suppress(queue.Empty):
                kind, payload = results.get(timeout=SAMPLE_SECONDS)
                if kind == "done":
                    tallies.append(payload)
            result.rss_peak_kib = max(result.rss_peak_kib, sum(proc_status(pid).get("VmRSS", 0) for pid in pids))
        end = time.monotonic()
        result.load = f"{load_before:.1f} / {os.getloadavg()[0]:.1f}"
        cpu_after = [cpu_seconds(pid) or before for pid, before in zip(pids, cpu_before, strict=True)]
        server_cpu = sum(cpu_after) - server_cpu
        if len(pids) > 1:
            result.cpu_by_process = [after - before for after, before in zip(cpu_after, cpu_before, strict=True)]
        loop_cpu = sum(loop_cpu_seconds(pid) for pid in pids) - loop_cpu
        result.on_core, result.waiting_for_core = (
            after - before
            for after, before in zip(_summed([schedule_seconds(pid) for pid in pids]), scheduled, strict=True)
        )
        if len(pids) == 1:
            result.rss_peak_kib = max(result.rss_peak_kib, proc_status(server.pid).get("VmHWM", 0))
        if not server.alive():
            result.errors["the server exited during the run"] += 1
        if ready < clients or len(tallies) < ready:
            result.errors[f"{clients - len(tallies)} client process(es) did not report"] += clients - len(tallies)
        for process in processes:
            process.join(5)
            if process.is_alive():
                process.terminate()
                process.join(5)
    result.server_stderr = server.stderr()
    with contextlib.suppress(OSError, ValueError):
        result.timings = json.loads(server.timings.read_text())
    summarise(result, tallies, server_cpu, end - start)
    if result.moves:
        result.loop_cpu_ms_per_move = 1000 * loop_cpu / result.moves
    result.profile = profile if profile is not None and profile.exists() else None
    return result


def _summed(pairs: list[tuple[float, float]]) -> tuple[float, float]:
    return sum(pair[0] for pair in pairs), sum(pair[1] for pair in pairs)


def summarise(result: RunResult, tallies: list[dict[str, Any]], server_cpu: float, seconds: float) -> None:
    latencies = [value for tally in tallies for value in tally["latencies_ms"]]
    acks = sorted(value for tally in tallies for value in tally["acks"])
    joined = [value for tally in tallies for value in tally["joined"]]
    ended = [value for tally in tallies for value in tally["ended"]]
    for tally in tallies:
        result.errors.update(tally["errors"])
        result.finished += tally["finished"]
        result.capped += tally["capped"]
        result.stopped += tally["stopped"]
        result.clients_gc_pauses += tally["gc_pauses"]
    result.moves = len(acks)
    result.seconds = seconds
    if latencies:
        result.p50_ms, result.p99_ms, result.max_ms = (
            percentile(latencies, 0.5),
            percentile(latencies, 0.99),
            max(latencies),
        )
        result.over_goal = sum(1 for value in latencies if value > P99_GOAL_MS)
        sent = [value for tally in tallies for value in tally["sent"]]
        steady = [latency for latency, stamp in zip(latencies, sent, strict=True) if joined and stamp >= max(joined)]
        if steady:
            result.p99_joined_ms = percentile(steady, 0.99)
    if joined and ended and min(ended) - max(joined) >= 1.0:
        low, high = max(joined), min(ended)
        result.moves_per_second = sum(1 for stamp in acks if low <= stamp <= high) / (high - low)
    elif len(acks) > 1 and acks[-1] > acks[0]:
        result.moves_per_second = (len(acks) - 1) / (acks[-1] - acks[0])
    if seconds > 0:
        result.server_cpu_percent = 100 * server_cpu / seconds
        result.clients_cpu_percent = 100 * sum(tally["cpu_seconds"] for tally in tallies) / seconds
    if acks:
        result.server_cpu_ms_per_move = 1000 * server_cpu / len(acks)


def notes(result: RunResult) -> str:
    """What a row cannot hold: how the games ended, which errors, what the server wrote to stderr."""
    said = [
        f"{result.finished:,} games ended by the rules, {result.capped:,} at the move cap, "
        f"{result.stopped:,} at --duration; {result.seconds:.0f} s; "
        f"{result.over_goal:,} moves over {P99_GOAL_MS:g} ms; the clients' oldest-generation GC: "
        f"{len(result.clients_gc_pauses)} pauses, max {1000 * max(result.clients_gc_pauses, default=0):.0f} ms"
    ]
    if result.cpu_by_process:
        spent = ", ".join(
            f"process {index}: {seconds:.1f} s" for index, seconds in enumerate(result.cpu_by_process[1:])
        )
        waited = 100 * result.waiting_for_core / result.seconds if result.seconds else math.nan
        said.append(
            f"server CPU: the supervisor {result.cpu_by_process[0]:.1f} s, {spent}; the event loops waited "
            f"for a core {waited:.0f}% of the run (summed)"
        )
    said += [f"{count} x {kind}" for kind, count in result.errors.most_common(5)]
    if result.server_stderr:
        said.append(f"server stderr: {result.server_stderr.splitlines()[0][:160]}")
    return f"{result.label()}: " + "; ".join(said)


SERVER_TABLE_HEADER = (
    "| games | commit | slow sync ms | moves timed | a move's handling, with its commit, p50 / p99 / max ms "
    "| a commit p50 / p99 / max ms | share of the run in move handling / in commits "
    "| GC pauses, young: count, total s, max ms "
    "| oldest generation: count, total s, max ms | event loop on a core / waiting for one |\n"
    "|---:|---|---:|---:|---|---|---|---|---|---|"
)


def server_row(result: RunResult) -> str:
    """The server's own timers: each move's handling (for ``group`` it includes the wait for its commit,
    which the loop spends on other moves) and each commit (on the loop for ``each``, the writer's for ``group``)."""
    moves, writes, young, old = (result.timings.get(name, []) for name in ("move", "commit", "gc", "gc2"))

    def spread(values: list[float]) -> str:
        if not values:
            return "-"
        return " / ".join(
            f"{1000 * value:.2f}" for value in (percentile(values, 0.5), percentile(values, 0.99), max(values))
        )

    seconds = result.seconds or math.nan
    return (
        f"| {result.games:,} | {result.commit_cell()} | {result.slow_sync_ms:g} | {len(moves):,} | {spread(moves)} | "
        f"{spread(writes)} | "
        f"{100 * sum(moves) / seconds:.0f}% / {100 * sum(writes) / seconds:.0f}% | "
        f"{len(young):,}, {sum(young):.2f}, {1000 * max(young, default=0.0):.1f} | "
        f"{len(old):,}, {sum(old):.2f}, {1000 * max(old, default=0.0):.1f} | "
        f"{100 * result.on_core / seconds:.0f}% / {100 * result.waiting_for_core / seconds:.0f}% |"
    )


def print_profile(path: Path) -> None:
    """The server's own time by function (cProfile makes it 1.5-2x slower: read the shares, not the seconds)."""
    stats = pstats.Stats(str(path))
    rows = stats.stats
    total = sum(values[2] for values in rows.values()) or 1.0
    print("\nThe server under cProfile, functions by own time:\n")
    print("| function | own s | share | calls |")
    print("|---|---:|---:|---:|")
    top = sorted(rows.items(), key=lambda item: item[1][2], reverse=True)[:15]
    for (filename, line, name), values in top:
        where = filename.split("site-packages/")[-1].split(f"{ROOT}/")[-1]
        print(f"| `{where}:{line} {name}` | {values[2]:.2f} | {100 * values[2] / total:.1f}% | {values[1]:,} |")
    print("\nThe server's own code, by time including what it calls (coroutines count each resume):\n")
    print("| function | cumulative s | share |")
    print("|---|---:|---:|")
    ours = [item for item in rows.items() if "/battle/online/" in item[0][0]]
    for (filename, line, name), values in sorted(ours, key=lambda item: item[1][3], reverse=True)[:12]:
        print(f"| `{Path(filename).name}:{line} {name}` | {values[3]:.2f} | {100 * values[3] / total:.1f}% |")
    print(flush=True)


# -- the store alone ----------------------------------------------------------------------


def store_probe(work: Path, games: int = 20, moves: int = 40) -> None:
    """Seconds a move spends in ``GameStore.add_move`` on this disk, with the store's ``synchronous = FULL``
    and, for comparison, ``NORMAL`` (WAL fsynced at checkpoints only); and in ``Room.play`` (the rules)."""
    from battle.online.protocol.codes import hash_token, new_game_id, new_token
    from battle.online.protocol.messages import NumberedDeal
    from battle.online.server.rooms.room import Options, Room, plan_start
    from battle.online.server.rooms.store import GameStore
    from battle.rules.board import move_name

    print("\nThe store alone: one transaction a move, on the benchmark's temporary folder's disk\n")
    print("| synchronous | moves | add_move p50 ms | p99 ms | max ms | mean ms | Room.play mean ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for mode in ("FULL", "NORMAL"):
        folder = Path(tempfile.mkdtemp(prefix="store-", dir=work))
        with GameStore(folder / "games.sqlite3") as store:
            store._connection.execute(f"PRAGMA synchronous = {mode}")  # the probe's own setting
            writes: list[float] = []
            plays: list[float] = []
            for number in range(1, games + 1):
                invite, watch = store.fresh_codes()
                room = Room.create(
                    game_id=new_game_id(),
                    invite=invite,
                    watch=watch,
                    plan=plan_start(NumberedDeal(number), "creator"),
                    options=Options(None, False, "creator"),
                    creator_name="Host",
                    creator_token_hash=hash_token(new_token()),
                    now=time.time(),
                )
                store.create(room)
                store.join(room, room.join("Guest", hash_token(new_token()), time.time()))
                for ply in range(1, moves + 1):
                    legal = room.game.position.legal_moves()
                    if not legal:
                        break
                    began = time.perf_counter()
                    outcome = room.play(room.game.position.to_move, move_name(legal[0]), f"m{ply}", time.time())
                    played = time.perf_counter()
                    store.add_move(room, outcome.receipt)
                    writes.append(time.perf_counter() - played)
                    plays.append(played - began)
        print(
            f"| {mode}{' (the server)' if mode == 'FULL' else ''} | {len(writes)} | "
            f"{1000 * percentile(writes, 0.5):.3f} | {1000 * percentile(writes, 0.99):.3f} | "
            f"{1000 * max(writes):.3f} | {1000 * statistics.fmean(writes):.3f} | "
            f"{1000 * statistics.fmean(plays):.3f} |",
            flush=True,
        )


# -- the command line ---------------------------------------------------------------------


def header(args: argparse.Namespace, limit: int) -> None:
    try:
        commit = (
            subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
            ).stdout.strip()
            or "unknown"
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "battle"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit, dirty = "unknown", ""
    import websockets

    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print("## Online server load\n")
    print(f"Command: `{shlex.join([sys.executable, *sys.argv])}`  ")
    print(
        f"Commit {commit}{' (battle/ has uncommitted changes)' if dirty else ''}, "
        f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs (load average {load} at the start), "
        f"Python {platform.python_version()}, websockets {websockets.__version__}, open files {limit}  "
    )
    print(
        f"Think 0.5x-1.5x {args.think:g} s a move, moves a game: "
        f"{'whole games' if args.moves_per_game >= MOVES_CAP else f'at most {args.moves_per_game}'}, "
        f"--duration {args.duration:g} s, --timeout {args.timeout:g} s\n",
        flush=True,
    )


def commit_paths(text: str) -> list[str]:
    paths = [part.strip() for part in text.split(",") if part.strip()]
    if not paths or not set(paths) <= {"each", "group"}:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a list of commit paths like each,group")
    return paths


def event_loops(text: str) -> list[str]:
    loops = [part.strip() for part in text.split(",") if part.strip()]
    if not loops or not set(loops) <= {"auto", "asyncio"}:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a list of event loops like asyncio,auto")
    return loops


def gather_waits(text: str) -> list[float | None]:
    try:
        waits: list[float | None] = [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a list of milliseconds like 0,2") from None
    if not waits or min(wait for wait in waits if wait is not None) < 0:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: each wait must be at least 0 ms")
    return waits


def sync_delays(text: str) -> list[float]:
    try:
        delays = [float(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a list of milliseconds like 0,5") from None
    if not delays or min(delays) < 0:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: each delay must be at least 0 ms")
    return delays


def game_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not a list of game counts like 100,1000") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"{text[:40]!r}: each game count must be at least 1")
    return counts


def holds(result: RunResult, args: argparse.Namespace) -> str | None:
    """Why a run fails the goal, or None when it holds."""
    if result.error_count:
        return f"{result.error_count} errors"
    if not result.p99_ms <= args.p99_goal:
        return f"p99 {result.p99_ms:.1f} ms over {args.p99_goal:g} ms"
    if result.rss_peak_kib > args.max_rss_mib * 1024:
        return f"server RSS {result.rss_peak_kib / 1024:.0f} MiB over {args.max_rss_mib} MiB"
    return None


def search_max(
    args: argparse.Namespace, work: Path, limit: int, commit: str = "group", slow_sync_ms: float = 0.0
) -> list[RunResult]:
    """Double N while runs hold, halve it while the first ones fail; at most 8 runs and ``--max-seconds``."""
    games, held, failed, shrinking = args.max_start, None, None, False
    began = time.monotonic()
    results = []
    for _ in range(8):
        think_seconds = min(args.duration, min(args.moves_per_game, 54) * args.think * 1.1)
        estimate = games / RAMP_GAMES_PER_SECOND + think_seconds + 20
        if time.monotonic() - began + estimate > args.max_seconds:
            print(
                f"stopping before {games:,} games: the run would pass --max-seconds {args.max_seconds:g}",
                file=sys.stderr,
            )
            failed = failed or (games, "--max-seconds")
            break
        if 2 * games + 64 > limit:
            failed = failed or (games, f"open-files limit {limit}")
            break
        result = run_once(games, args, work, limit, commit, slow_sync_ms)
        results.append(result)
        print(result.row(), flush=True)
        print(notes(result), file=sys.stderr, flush=True)
        reason = holds(result, args)
        if reason is None:
            held = games
            if shrinking:
                break
            games *= 2
        else:
            failed = (games, reason)
            if held is not None or games <= 50:
                break
            shrinking = True
            games //= 2
    verdict = f"Largest N that held (p99 <= {args.p99_goal:g} ms, no errors): {held:,}" if held else "No N held"
    if failed:
        verdict += f"; {failed[0]:,} failed ({failed[1]})"
    rates = {result.games: result.moves_per_second for result in results}
    if held in rates and failed and failed[0] in rates:
        verdict += f"; saturation between {rates[held]:,.0f} and {rates[failed[0]]:,.0f} moves/s"
    print(f"\n{commit}, slow sync {slow_sync_ms:g} ms: {verdict}.", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--games",
        type=game_counts,
        help="game counts, one run each (default 100,1000 unless --max or --store-probe is given)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean think time a move in seconds; each pause is 0.5x to 1.5x of it (default 1)",
    )
    parser.add_argument(
        "--moves-per-game",
        type=int,
        default=MOVES_CAP,
        help="stop a game after this many moves (default: play it to its end, about 53)",
    )
    parser.add_argument("--duration", type=float, default=180.0, help="a run's cap in seconds (default 180)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for any answer (default 10)")
    parser.add_argument("--ramp", type=float, help="seconds over which the games start (default N/250)")
    parser.add_argument(
        "--clients", type=int, default=0, help="client processes (default one per 1,000 games, at most one per core)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and moves (default 1)")
    parser.add_argument("--max", action="store_true", help="find the largest N that holds the p99 goal")
    parser.add_argument("--max-start", type=int, default=1000, help="--max's first N (default 1000)")
    parser.add_argument("--max-seconds", type=float, default=600.0, help="--max's total time cap (default 600)")
    parser.add_argument("--max-rss-mib", type=int, default=2048, help="--max's cap on server RSS (default 2048)")
    parser.add_argument("--p99-goal", type=float, default=P99_GOAL_MS, help="--max's p99 goal in ms (default 50)")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="run the server under cProfile and print where its time goes (slows it 1.5-2x)",
    )
    parser.add_argument("--store-probe", action="store_true", help="time GameStore.add_move alone on this disk")
    parser.add_argument(
        "--commit",
        type=commit_paths,
        default=["group"],
        help="the server's commit paths, one run each: group (the writer thread's groups, the "
        "default), each (one transaction a move on the loop), or each,group",
    )
    parser.add_argument(
        "--against",
        metavar="REV",
        help="run each combination with REV's server too (in a temporary worktree), just before this tree's",
    )
    parser.add_argument(
        "--event-loop",
        type=event_loops,
        default=[""],
        help="this tree's server's event loops, one run each: asyncio, auto (uvloop when installed), or "
        "asyncio,auto (default: the server's own choice, auto)",
    )
    parser.add_argument(
        "--gather-ms",
        type=gather_waits,
        default=[None],
        help="this tree's writer's waits for more writes to commit with the first, one run each (default: "
        "the server's own, 2 ms)",
    )
    parser.add_argument(
        "--slow-sync-ms",
        type=sync_delays,
        default=[0.0],
        help="milliseconds added to every commit's sync, one run each (default 0; 0,5 for both)",
    )
    parser.add_argument(
        "--processes",
        type=game_counts,
        default=[1],
        help="serve --processes, one run each (default 1; 1,2 for both in one run: a same-run ratio)",
    )
    parser.add_argument(
        "--addresses",
        type=int,
        default=64,
        help="loopback addresses the players connect from, each its own network (default 64; 1: all from 127.0.0.1)",
    )
    args = parser.parse_args()
    if args.think <= 0 or args.moves_per_game < 1 or args.duration <= 0 or args.timeout <= 0 or args.clients < 0:
        parser.error("--think, --moves-per-game, --duration and --timeout must be positive, --clients at least 0")
    if args.games is None and not args.max and not args.store_probe:
        args.games = [100, 1000]
    limit = raise_open_files()
    header(args, limit)
    with tempfile.TemporaryDirectory(prefix="online-load-") as temporary, contextlib.ExitStack() as stack:
        work = Path(temporary)
        trees: list[tuple[Path, str]] = [(ROOT, "")]
        if args.against:
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            from other_tree import checked_out, short_name

            trees.insert(0, (stack.enter_context(checked_out(args.against)), short_name(args.against)))
        if args.games or args.max:
            print(TABLE_HEADER, flush=True)
        results = []
        for slow_sync_ms in args.slow_sync_ms:
            for commit in args.commit:
                for games in args.games or []:
                    for processes in args.processes:
                        for tree in trees:
                            ours = tree[0] == ROOT
                            for event_loop, gather in itertools.product(
                                args.event_loop if ours else [""], args.gather_ms if ours else [None]
                            ):
                                result = run_once(
                                    games, args, work, limit, commit, slow_sync_ms, tree, event_loop, gather, processes
                                )
                                results.append(result)
                                print(result.row(), flush=True)
                                print(notes(result), file=sys.stderr, flush=True)
                if args.max:
                    results += search_max(args, work, limit, commit, slow_sync_ms)
        if results:
            print()
            for result in results:
                print(f"- {notes(result)}")
            print(
                "\nThe server's own timers (each: a move's handling, its commit included, blocks the one event "
                "loop; group: the commit is the writer thread's, and the loop serves others while a move waits):\n"
            )
            print(SERVER_TABLE_HEADER)
            for result in results:
                print(server_row(result))
        for result in results:
            if result.profile is not None:
                print(f"\n### {result.label()}", end="")
                print_profile(result.profile)
        if args.store_probe:
            store_probe(work)


if __name__ == "__main__":
    main()
