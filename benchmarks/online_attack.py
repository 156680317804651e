"""Memory a stranger can make the server hold (watchers that never read, resumes in a loop), and the
solver a stranger can take from everyone else (``--solver``), as tables.

    python benchmarks/online_attack.py                          this tree, from one address and from two
    python benchmarks/online_attack.py --against 3dde8aa        that revision's server first, then this tree's
    python benchmarks/online_attack.py --solver                 the solver attack's rows (below)
    python benchmarks/online_attack.py --solver --against DIR   a checkout's server first (a revision or a folder)
    python benchmarks/online_attack.py --caps --processes 1,2   each cap of one network, and beside it (network_caps.py)
    python benchmarks/online_attack.py --shared                 what strangers share (shared_tables.py)
    python benchmarks/online_attack.py --starved-review         a short game's review on a starved machine

From each attacking address (127.0.0.1, and 127.0.0.2 for the second: loopback takes any
127.x as a source): host a game and join it, open ``--watchers`` connections (40) that
``watch`` it with a 4 KiB receive buffer and never read, and from ``--resumers`` more (10)
send ``resume`` with the game's two tokens ``--rate`` times a second each (20, the server's
message rate), for ``--attack-seconds`` (15); then the attackers send nothing for
``--after-seconds`` (15) but keep their sockets open; then they close. Every connection is
a plain socket written by hand (``tests.online.strangers``), as a stranger's would be; the
server is ``mahjong-battle serve`` with its defaults on 127.0.0.1.

Meanwhile another game (two websockets clients from 127.0.0.1) plays a move every 0.25 s;
its latency runs from the mover's send to the opponent's receipt of ``moved``. The server's
RSS (``/proc/PID/status``) is read every 0.25 s. The table gives, per tree and number of
addresses: the RSS when idle (everyone connected, nothing sent yet), at the attack's end,
its peak, at the end of the quiet phase with the sockets still open, and after they closed;
the other game's move latency during the attack and after it; and the handshakes the server
refused (a watcher over the cap of spectators is refused later, in words it never reads).

``--solver``: a server with ``--solver-workers 2`` (its other settings the defaults: an address's
budget 120 s, refilled at a sixth of a second a second), a fresh one for each row, its workers'
kernels loaded first. A victim plays games against the solver at each of ``--victim-levels`` (club)
from 127.0.9.9, with ``--busy`` processes spinning on the CPU meanwhile (0), for
``--solver-seconds`` (30), alone, and then beside each load of ``solver_attackers`` (the rows
say which), started ``--ramp-seconds`` (5) before it in a process of their own (so that their
clients never hold up the victim's event loop); then everyone closes and the seconds until
``/stats`` shows no unit waiting or running are measured. The table gives the victim's replies
(from its move to the solver's), p99 against its p99 alone, where the slowest one waited (its
move told stored, the solver's move asked: the rest is the pool, the worker and the second
commit), the server's commits (``/stats``), how late the victim's own process woke from 10 ms
sleeps (the machine's share, not the server's), the CPU seconds of the server, its workers, the
attackers' process and the victim's while the victim played, its refused moves, the attackers'
units asked, answered and refused (by code), and the queue just before the close.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree's tests package (the raw client) and battle
sys.path.insert(0, str(Path(__file__).resolve().parent))  # other_tree

import network_caps  # noqa: E402
import shared_tables  # noqa: E402
import starved_review  # noqa: E402
from busy_loops import spinning  # noqa: E402
from solver_attackers import ROWS, Tally, attack_of, victim  # noqa: E402
from solver_attackers import WAIT as SOLVER_WAIT  # noqa: E402

from tests.online.strangers import head_and_body, http, masked_frame, raw_websocket, request, resident_mib  # noqa: E402

SAMPLE_SECONDS = 0.25
MOVE_PAUSE = 0.25
STARTUP_SECONDS = 60.0
WAIT = 30.0


# -- the server ----------------------------------------------------------------------------


class Server:
    """``mahjong-battle serve`` of ``tree`` on 127.0.0.1, its database in ``folder``, with
    ``solver_workers`` solver workers (none by default; None: the server's own default) and ``flags``."""

    def __init__(self, tree: Path, folder: Path, solver_workers: int | None = 0, flags: tuple[str, ...] = ()) -> None:
        self.tree, self.folder, self.solver_workers, self.flags = tree, folder, solver_workers, flags
        self.process: subprocess.Popen[str] | None = None
        self.port = 0

    def __enter__(self) -> Server:
        command = [sys.executable, "-c", "from battle.cli import entry_point; entry_point()", "serve"]
        command += ["--host", "127.0.0.1", "--port", "0", "--db", str(self.folder / "games.sqlite3")]
        if self.solver_workers is not None:
            command += ["--solver-workers", str(self.solver_workers)]
        if '"--processes"' in (self.tree / "battle" / "cli" / "online_commands.py").read_text(encoding="utf-8"):
            command += ["--processes", "1"]  # one process: its pid's memory and CPU are the server's
        command += self.flags
        self.errors = (self.folder / "server.err").open("w")
        self.process = subprocess.Popen(
            command,
            cwd=self.tree,
            env={**os.environ, "PYTHONPATH": str(self.tree)},
            stdout=subprocess.PIPE,
            stderr=self.errors,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if "ws://127.0.0.1:" not in line:
            self.__exit__()
            raise SystemExit(f"the server of {self.tree} did not start: {line!r}")
        self.port = int(line.split("ws://127.0.0.1:", 1)[1].split()[0])
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def __exit__(self, *exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.errors.close()


# -- what one run measures -------------------------------------------------------------------


@dataclass
class Phase:
    """Latencies of the other game's moves in one phase, and the server's RSS samples."""

    latencies_ms: list[float] = field(default_factory=list)
    rss_mib: list[float] = field(default_factory=list)

    def spread(self) -> str:
        if not self.latencies_ms:
            return "-"
        ordered = sorted(self.latencies_ms)
        p50 = ordered[len(ordered) // 2]
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        return f"{p50:.1f} / {p99:.1f} / {ordered[-1]:.1f} ({len(ordered)})"


@dataclass
class Run:
    tree: str
    addresses: int
    idle_mib: float = 0.0
    attack_end_mib: float = 0.0
    peak_mib: float = 0.0
    quiet_end_mib: float = 0.0
    closed_mib: float = 0.0
    attack: Phase = field(default_factory=Phase)
    quiet: Phase = field(default_factory=Phase)
    resumes_sent: int = 0
    handshakes_refused: int = 0

    def row(self) -> str:
        return (
            f"| {self.tree} | {self.addresses} | {self.resumes_sent:,} | {self.idle_mib:.1f} | "
            f"{self.attack_end_mib:.1f} | {self.peak_mib:.1f} | {self.quiet_end_mib:.1f} | {self.closed_mib:.1f} | "
            f"{self.attack.spread()} | {self.quiet.spread()} | {self.handshakes_refused} |"
        )


TABLE_HEADER = (
    "| tree | addresses | resumes sent | RSS idle MiB | end of attack | peak | after the quiet phase (open) "
    "| after closing | other game's move ms during the attack: p50 / p99 / max (moves) | after it "
    "| handshakes refused |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|---|---|---:|"
)


# -- the attack ------------------------------------------------------------------------------


def attacker_game(port: int, source: str) -> dict[str, Any]:
    """A game the attacker hosts and joins itself (from ``source``): its ``created`` message and the guest's token."""
    host = bound_client(port, source)
    host_send(host, {"type": "hello", "version": 1}, {"type": "create", "deal": {"number": 5}, "first": "creator"})
    created = read_until(host, "created")
    guest = bound_client(port, source)
    host_send(guest, {"type": "hello", "version": 1}, {"type": "join", "code": created["invite"]})
    joined = read_until(guest, "joined")
    return {**created, "tokens": [created["token"], joined["token"]], "sockets": [host, guest]}


def bound_client(port: int, source: str) -> Any:
    from websockets.sync.client import connect

    raw = socket.socket()
    raw.bind((source, 0))
    raw.connect(("127.0.0.1", port))
    return connect(
        f"ws://127.0.0.1:{port}", sock=raw, open_timeout=WAIT, max_size=2**20, ping_interval=None
    ).__enter__()


def host_send(client: Any, *messages: dict[str, Any]) -> None:
    for message in messages:
        client.send(json.dumps(message))


def read_until(client: Any, kind: str) -> dict[str, Any]:
    for _ in range(20):
        message = json.loads(client.recv(WAIT))
        if message.get("type") == kind:
            return message
    raise SystemExit(f"no {kind} from the server")


async def resume_in_a_loop(
    connection: socket.socket, tokens: list[str], rate: int, seconds: float, sent: list[int]
) -> None:
    """``resume`` ``rate`` times a second with the game's tokens in turn, for ``seconds``; what comes
    back is read and dropped."""
    loop = asyncio.get_running_loop()
    connection.setblocking(False)

    async def drain() -> None:
        with contextlib.suppress(OSError):
            while await loop.sock_recv(connection, 1 << 16):
                pass

    reading = asyncio.create_task(drain())
    frames = [masked_frame(json.dumps({"type": "resume", "token": token})) for token in tokens]
    end = time.monotonic() + seconds
    number = 0
    try:
        while time.monotonic() < end:
            began = time.monotonic()
            with contextlib.suppress(OSError):
                await loop.sock_sendall(connection, b"".join(frames[(number + i) % len(frames)] for i in range(rate)))
            number += rate
            sent[0] += rate
            await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - began)))
    finally:
        reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reading


# -- the other game ----------------------------------------------------------------------------


async def other_games(url: str, phases: dict[str, Phase], current: list[str], stop: asyncio.Event) -> None:
    """Games of two websockets clients, a move every ``MOVE_PAUSE`` s, one after the other until ``stop``."""
    from websockets.asyncio.client import connect

    from battle.rules.board import move_name
    from battle.rules.notation import parse_position

    async def expect(client: Any, kind: str) -> dict[str, Any]:
        while True:
            message = json.loads(await asyncio.wait_for(client.recv(), WAIT))
            if message.get("type") == kind:
                return message
            if message.get("type") == "error":
                raise RuntimeError(f"the other game was refused: {message.get('reason')}")

    deal = 11
    while not stop.is_set():
        # max_queue=None: what a player does not wait for piles up here, not in the server's buffers
        async with (
            connect(url, max_size=2**20, max_queue=None) as host,
            connect(url, max_size=2**20, max_queue=None) as guest,
        ):
            await host.send(json.dumps({"type": "hello", "version": 1}))
            await host.send(json.dumps({"type": "create", "deal": {"number": deal}, "first": "creator"}))
            created = await expect(host, "created")
            state = await expect(host, "state")
            await guest.send(json.dumps({"type": "hello", "version": 1}))
            await guest.send(json.dumps({"type": "join", "code": created["invite"]}))
            await expect(guest, "joined")
            position = parse_position(state["start"])
            seats = {created["seat"]: host, 3 - created["seat"]: guest}
            ply = 0
            while not stop.is_set() and position.legal_moves():
                await asyncio.sleep(MOVE_PAUSE)
                ply += 1
                move = position.legal_moves()[0]
                mover = position.to_move
                sent = time.monotonic()
                await seats[mover].send(json.dumps({"type": "move", "move": move_name(move), "id": f"m{ply}"}))
                await expect(seats[3 - mover], "moved")
                phase = phases.get(current[0])
                if phase is not None:
                    phase.latencies_ms.append(1000 * (time.monotonic() - sent))
                position.push(move)
        deal += 1


# -- one run -----------------------------------------------------------------------------------


async def run_attack(server: Server, run: Run, args: argparse.Namespace) -> None:
    sources = ["127.0.0.1", "127.0.0.2"][: run.addresses]
    games = [attacker_game(server.port, source) for source in sources]
    watchers: list[socket.socket] = []
    resumers: list[socket.socket] = []
    hello = {"type": "hello", "version": 1}
    for game, source in zip(games, sources, strict=True):
        for _ in range(args.watchers):
            try:
                watchers.append(
                    raw_websocket(
                        server.port, hello, {"type": "watch", "code": game["watch"]}, receive_buffer=4096, source=source
                    )
                )
            except (OSError, AssertionError):
                run.handshakes_refused += 1
        resumers += [raw_websocket(server.port, hello, source=source) for _ in range(args.resumers)]
    phases = {"attack": run.attack, "quiet": run.quiet}
    current = ["idle"]
    stop = asyncio.Event()
    prober = asyncio.create_task(other_games(f"ws://127.0.0.1:{server.port}", phases, current, stop))
    await asyncio.sleep(3.0)
    run.idle_mib = resident_mib(server.pid)

    async def sample() -> None:
        while True:
            rss = resident_mib(server.pid)
            run.peak_mib = max(run.peak_mib, rss)
            if current[0] in phases:
                phases[current[0]].rss_mib.append(rss)
            await asyncio.sleep(SAMPLE_SECONDS)

    sampler = asyncio.create_task(sample())
    current[0] = "attack"
    sent = [0]
    await asyncio.gather(
        *(
            resume_in_a_loop(resumer, games[index // args.resumers]["tokens"], args.rate, args.attack_seconds, sent)
            for index, resumer in enumerate(resumers)
        )
    )
    run.resumes_sent = sent[0]
    run.attack_end_mib = resident_mib(server.pid)
    current[0] = "quiet"
    await asyncio.sleep(args.after_seconds)
    run.quiet_end_mib = resident_mib(server.pid)
    current[0] = "done"
    stop.set()
    try:
        await asyncio.wait_for(prober, WAIT)
    except Exception as problem:  # reported, and the run's figures kept
        print(f"the other game stopped: {type(problem).__name__}: {problem}", file=sys.stderr, flush=True)
    for connection in watchers + resumers:
        connection.close()
    for game in games:
        for client in game["sockets"]:
            with contextlib.suppress(Exception):
                client.close()
    await asyncio.sleep(3.0)
    run.closed_mib = resident_mib(server.pid)
    sampler.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await sampler


def one_run(tree: Path, label: str, addresses: int, args: argparse.Namespace) -> Run:
    run = Run(label, addresses)
    with tempfile.TemporaryDirectory(prefix="online-attack-") as folder, Server(tree, Path(folder)) as server:
        print(f"{label}, {addresses} address(es): attacking the server (pid {server.pid})", file=sys.stderr, flush=True)
        asyncio.run(run_attack(server, run, args))
    return run


# -- the solver attack --------------------------------------------------------------------------


@dataclass
class SolverRow:
    tree: str
    name: str
    load_words: str
    load: float = 0.0
    victim: Tally = field(default_factory=Tally)
    attackers: Tally = field(default_factory=Tally)
    before_close: dict[str, int] = field(default_factory=dict)
    freed_seconds: float | None = None
    commit_ms: str = "-"
    """The server's database commits, submitted to on disk, p50 / p99 ms (``/stats``: the row's, on a fresh server)."""
    cpu: dict[str, float] = field(default_factory=dict)
    """CPU seconds of each part while the victim played (``cpu_by_part``)."""
    level: str = "club"
    """The victim's level."""

    def spread(self) -> tuple[float, float, float]:
        return spread(self.victim.replies)

    def on_time_p99(self) -> tuple[float, int]:
        """The p99 of the replies during which the victim's process woke at most ``ON_TIME`` late, and their count."""
        kept = self.victim.on_time(ON_TIME)
        return spread(kept)[1], len(kept)

    def line(self, alone: tuple[float, float] | None) -> str:
        p50, p99, largest = self.spread()
        on_time, kept = self.on_time_p99()
        ratio = "-" if alone is None or self.name == "alone" else f"{p99 / alone[0]:.2f}"
        on_time_ratio = "-" if alone is None or self.name == "alone" else f"{on_time / alone[1]:.2f}"
        refusals = ", ".join(f"{code} {count}" for code, count in sorted(self.attackers.refusals.items())) or "0"
        queue = self.before_close
        waiting = (
            f"{queue.get('solver_waiting_move', 0)} / {queue.get('solver_waiting_analysis', 0)} / "
            f"{queue.get('solver_waiting_review', 0)}, {queue.get('solver_running', 0)} running"
        )
        freed = f"> {FREED_WAIT:.0f}" if self.freed_seconds is None else f"{self.freed_seconds:.2f}"
        slowest = max(self.victim.splits, key=lambda split: split[2], default=(math.nan,) * 3)
        lags = sorted(lag for _, lag in self.victim.lags) or [math.nan]
        cpu = " / ".join(f"{self.cpu.get(part, 0.0):.1f}" for part in ("server", "workers", "attackers", "victim"))
        return (
            f"| {self.tree} | {self.load_words} | {self.load:.1f} | {len(self.victim.replies)} | {p50:.3f} | "
            f"{p99:.3f} | {largest:.3f} | {ratio} | {on_time:.3f} ({kept}) | {on_time_ratio} | "
            f"{slowest[0]:.3f} / {slowest[1]:.3f} | "
            f"{self.commit_ms} | {1000 * lags[int(0.99 * (len(lags) - 1))]:.0f} / {1000 * lags[-1]:.0f} | {cpu} | "
            f"{self.victim.queued_moves} / {self.victim.refused_moves} | {self.attackers.asked} / "
            f"{self.attackers.answered} / {refusals} | {waiting} | {freed} |"
        )


SOLVER_HEADER = (
    "| tree | beside | load | victim's replies | p50 s | p99 s | max s | p99 / alone "
    "| p99 while the victim's process ran on time, s (replies) | that / alone "
    "| slowest reply: stored / asked, s | commits p50 / p99 ms | victim's loop late p99 / max ms "
    "| CPU s meanwhile: server / workers / attackers / victim | victim's moves queued / refused "
    "| attackers' units asked / answered / refused | before the close: waiting move / analysis / review "
    "| queue and workers free after the close, s |\n"
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|---|---:|---|---|---:|"
)
ON_TIME = 0.02
"""A reply counts as measured on time when the victim's process never woke more than this late while it
was pending: a later wake-up is the machine's (its other work), which no server decides."""
FREED_WAIT = 120.0
"""The longest the pool is watched for emptying after the close."""


def server_stats(server: Server) -> dict[str, str]:
    _, _, body = head_and_body(http(server.port, request("GET", "/stats")))
    return dict(line.split(" ", 1) for line in body.decode().splitlines())


def solver_counts(server: Server) -> dict[str, int]:
    shown = server_stats(server).items()
    return {name: int(value) for name, value in shown if name.startswith("solver_") and value.isdigit()}


def spread(replies: list[float]) -> tuple[float, float, float]:
    """p50, p99 and max of ``replies`` (nan for none)."""
    ordered = sorted(replies) or [math.nan]
    return ordered[len(ordered) // 2], ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], ordered[-1]


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a server's solver workers and its resource tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def cpu_by_part(server: Server, attackers: int | None) -> dict[str, float]:
    """CPU seconds so far of the server's process, its workers, the attackers' process and this one (the victim)."""
    return {
        "server": cpu_seconds(server.pid),
        "workers": sum(cpu_seconds(child) for child in children_of(server.pid)),
        "attackers": 0.0 if attackers is None else cpu_seconds(attackers),
        "victim": cpu_seconds(os.getpid()),
    }


async def solver_row(server: Server, row: SolverRow, args: argparse.Namespace) -> None:
    attackers = None
    if attack_of(row.name)[1] is not None:
        attackers = await asyncio.create_subprocess_exec(
            sys.executable,
            str(Path(__file__).resolve().parent / "solver_attackers.py"),
            row.name,
            str(server.port),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])},
        )
        await asyncio.sleep(args.ramp_seconds)
    row.load = os.getloadavg()[0]
    began = cpu_by_part(server, attackers and attackers.pid)
    victim_stop = asyncio.Event()
    playing = asyncio.ensure_future(victim(server.port, row.victim, victim_stop, row.level))
    await asyncio.sleep(args.solver_seconds)
    victim_stop.set()
    try:
        await asyncio.wait_for(playing, SOLVER_WAIT)
    except Exception as problem:  # reported, and the row's figures kept
        print(f"the victim stopped: {type(problem).__name__}: {problem}", file=sys.stderr, flush=True)
    ended = cpu_by_part(server, attackers and attackers.pid)
    row.cpu = {part: ended[part] - began[part] for part in began}
    shown = await asyncio.to_thread(server_stats, server)
    row.commit_ms = f"{shown['commit_ms_p50']} / {shown['commit_ms_p99']}"
    row.before_close = await asyncio.to_thread(solver_counts, server)
    closed = time.monotonic()
    if attackers is not None:
        told, _ = await attackers.communicate(b"close\n")
        tally = json.loads(told.decode().strip().splitlines()[-1])
        row.attackers.asked, row.attackers.answered = tally["asked"], tally["answered"]
        row.attackers.refusals = tally["refusals"]
    while time.monotonic() - closed < FREED_WAIT:
        counts = await asyncio.to_thread(solver_counts, server)
        if counts["solver_running"] == 0 and all(counts[name] == 0 for name in counts if "waiting" in name):
            row.freed_seconds = time.monotonic() - closed
            break
        await asyncio.sleep(0.05)


def wait_for_kernels(server: Server) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS * 2
    while solver_counts(server).get("solver_workers_ready", 0) < 2:
        if time.monotonic() > deadline:
            raise SystemExit("the server's solver workers did not load their kernels")
        time.sleep(0.2)


def solver_main(args: argparse.Namespace) -> None:
    names = [name.strip() for name in args.rows.split(",") if name.strip()]
    for name in names:
        attack_of(name)  # an unknown row fails before anything runs
    print("## The solver attack\n")
    print(f"Command: `{shlex.join([sys.executable, *sys.argv])}`  ")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, load average {load} at the start\n", flush=True)
    print(SOLVER_HEADER, flush=True)
    levels = [level.strip() for level in args.victim_levels.split(",") if level.strip()]
    busy = f"; beside {args.busy} busy loops" if args.busy else ""
    with contextlib.ExitStack() as stack:
        for tree, label in trees_of(args, stack):
            for level in levels:
                alone: tuple[float, float] | None = None
                for name in names:
                    row = SolverRow(label, name, f"{level} victim: {attack_of(name)[0]}{busy}", level=level)
                    with (
                        tempfile.TemporaryDirectory(prefix="solver-attack-") as folder,
                        Server(tree, Path(folder), solver_workers=2) as server,
                        spinning(args.busy),
                    ):
                        wait_for_kernels(server)
                        print(f"{label}: {row.load_words} (pid {server.pid})", file=sys.stderr, flush=True)
                        asyncio.run(solver_row(server, row, args))
                    if name == "alone":
                        alone = (row.spread()[1], row.on_time_p99()[0])
                    print(row.line(alone), flush=True)


def trees_of(args: argparse.Namespace, stack: contextlib.ExitStack) -> list[tuple[Path, str]]:
    """The trees whose servers run: ``--against``'s first (a revision checked out, or a folder that
    holds one), then this one."""
    trees: list[tuple[Path, str]] = []
    if args.against:
        if Path(args.against).is_dir():
            trees.append((Path(args.against).resolve(), Path(args.against).name))
        else:
            from other_tree import checked_out, short_name

            trees.append((stack.enter_context(checked_out(args.against)), short_name(args.against)))
    trees.append((ROOT, "this tree"))
    return trees


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--against", metavar="REV", help="also attack REV's server (checked out in a temporary worktree), first"
    )
    parser.add_argument("--addresses", default="1,2", help="attacking addresses, one run each: 1, 2 or 1,2 (default)")
    parser.add_argument("--watchers", type=int, default=40, help="watchers that never read, per address (default 40)")
    parser.add_argument("--resumers", type=int, default=10, help="connections sending resume, per address (default 10)")
    parser.add_argument("--rate", type=int, default=20, help="resumes a second per connection (default 20)")
    parser.add_argument("--attack-seconds", type=float, default=15.0, help="how long the resumes go on (default 15)")
    parser.add_argument("--after-seconds", type=float, default=15.0, help="the quiet phase, sockets open (default 15)")
    parser.add_argument("--solver", action="store_true", help="the solver attack's rows instead of the memory attack")
    parser.add_argument(
        "--rows", default=",".join(ROWS), help=f"--solver: the rows, of {', '.join(ROWS)} (default all, in that order)"
    )
    parser.add_argument("--solver-seconds", type=float, default=30.0, help="--solver: the victim's play a row (30)")
    parser.add_argument(
        "--victim-levels",
        default="club",
        help="--solver: the victim's levels, each with every row (club; or expert,master,perfect)",
    )
    parser.add_argument(
        "--busy", type=int, default=0, help="--solver: processes spinning on the CPU during every row (0)"
    )
    parser.add_argument("--ramp-seconds", type=float, default=5.0, help="--solver: the attack before the victim (5)")
    parser.add_argument(
        "--caps", action="store_true", help="what one network gets of each cap, per process count (network_caps.py)"
    )
    parser.add_argument("--processes", default="1,2", help="--caps: the process counts, a column each (default 1,2)")
    parser.add_argument(
        "--shared", action="store_true", help="what strangers share under attack, a row each (shared_tables.py)"
    )
    parser.add_argument(
        "--starved-review",
        action="store_true",
        help="a 2-move game's review quiet, beside busy loops, with starved workers (starved_review.py)",
    )
    args = parser.parse_args()
    if args.starved_review:
        starved_review.main([])
        return
    if args.shared:
        shared_tables.main([])
        return
    if args.solver:
        solver_main(args)
        return
    if args.caps:
        network_caps.main(["--processes", args.processes])
        return
    try:
        counts = [int(part) for part in args.addresses.split(",")]
    except ValueError:
        parser.error(f"--addresses: {args.addresses!r} is not a list like 1,2")
    if not counts or not set(counts) <= {1, 2}:
        parser.error("--addresses: each count is 1 or 2")
    print("## The memory attack\n")
    print(f"Command: `{shlex.join([sys.executable, *sys.argv])}`  ")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, load average {load} at the start\n", flush=True)
    print(TABLE_HEADER, flush=True)
    with contextlib.ExitStack() as stack:
        trees = trees_of(args, stack)
        for addresses in counts:
            for tree, label in trees:
                print(one_run(tree, label, addresses, args).row(), flush=True)


if __name__ == "__main__":
    main()
