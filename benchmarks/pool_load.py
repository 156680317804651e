"""The solver pool under load: simulated games asking a ``LocalPool`` for the solver's moves as a
server would, driven directly (no server, no sockets), as Markdown tables.

    python benchmarks/pool_load.py                         club 50, expert 10 and perfect 2 games at once,
                                                           each level alone and beside an analysis flood
    python benchmarks/pool_load.py --levels club:50 --think 2 --no-flood
    python benchmarks/pool_load.py --cancel                a running search stopped, against its worker
                                                           killed and started again
    python benchmarks/pool_load.py --service               moves through the pool service against direct

A game: a numbered deal (drawn from ``--seed``); the simulated player moves first, after a think
pause of 0.5x to 1.5x ``--think`` seconds, taking the biggest pair or, one time in three, a random
legal pair; then the pool's move at the level, submitted as a server would (the game's seat, the
player's own address, a seed), and so on to the end of the game (or ``--moves-per-game`` solver
moves). Games start spread over one think pause. Measured per level, on the pool's default budgets:

- reply: from the submission to the move (what the player waits): p50, p99 and the largest;
  and the queue's share (from the submission until a worker took it), its p99;
- CPU a game: the solver CPU seconds of all of a game's moves, as the workers measure them;
- refused: moves the budget refused (each player has an address of its own: none expected).

With the flood (the default; ``--no-flood`` leaves it out), each level runs a second time beside
one more address that asks for analyses (every move's value within ``--flood-seconds`` on
positions of ``--flood-tiles`` tiles) from ``--flood-seats`` seats at once, as fast as its budget
lets it: on a refusal it waits the seconds the refusal names and asks again. Its budget starts
full, so it spends all of it. The second table puts each level's p99 alone and beside the flood
side by side (the same run) and says what the flood got.

The goals for a server's solver replies, which this measures without the server: club replies
p99 at most 0.5 s at 50 games; expert within its level's time + 1 s (4 s) at 10 games; beside
the flood, the others' p99 at most doubled.

``--cancel``: on one worker, a club move answered right after a running 300 s analysis was
stopped (the solver's stop), against one answered right after the worker running it was killed
(a new worker must start: import numba, load the kernels, touch its table); and the club move
alone. What each way of ending a search costs is its row less the last.

``--service``: one pool for several processes (``battle.players.pool.sharing``): on one worker, the
same beginner moves (``--moves`` of them, positions of 60 tiles) and calls that answer at once
(``budget_left``) asked of the pool directly and through a ``PoolClient`` in a process of its own
over the pool's Unix socket, in ``--runs`` alternating rounds; the overhead is the difference of the
medians, in milliseconds. After each round a client process is killed while its 300 s analysis runs:
the time until the pool has stopped it on the worker.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shlex
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import CancelledError
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree's battle package, also in the spawned workers

from battle.players import get_level  # noqa: E402
from battle.players.pool.client import PoolClient  # noqa: E402
from battle.players.pool.jobs import AnalysisJob, MoveJob, MoveResult, position_data  # noqa: E402
from battle.players.pool.local_workers import LocalPool  # noqa: E402
from battle.players.pool.schedule import Budget, Refusal  # noqa: E402
from battle.players.pool.sharing import serve_pool  # noqa: E402
from battle.rules.board import Position, biggest_pair, parse_move  # noqa: E402
from battle.rules.deal import deal  # noqa: E402
from benchmarks.percentiles import percentile  # noqa: E402

GOALS = {"club": (50, 0.5), "expert": (10, get_level("expert").time_limit + 1.0)}
"""The goals: at this many games, the reply p99 at most these seconds."""
FLOOD_NETWORK = "203.0.113."
ANSWER_WAIT = 600.0
"""Seconds a game waits for one move at most before the run is called failed."""


@dataclass
class Phase:
    """What one level's games (and the flood beside them, if any) measured."""

    level: str
    games: int
    flood: bool
    replies: list[float] = field(default_factory=list)
    queued: list[float] = field(default_factory=list)
    cpu_per_game: list[float] = field(default_factory=list)
    refused: int = 0
    failed: int = 0
    flood_analyses: int = 0
    flood_refusals: int = 0
    flood_cpu: float = 0.0
    seconds: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


def human_move(position: Position, rng: random.Random) -> tuple[int, int]:
    return rng.choice(position.legal_moves()) if rng.random() < 1 / 3 else biggest_pair(position)


def play_game(pool: LocalPool, phase: Phase, number: int, args: argparse.Namespace, tag: int) -> None:
    rng = random.Random(args.seed * 100_003 + number * 7 + tag)
    position = deal(rng.randrange(1, 1_000_000))
    seat, address = f"phase {tag} game {number}", f"10.{tag}.{number // 256}.{number % 256}"
    cpu, moves = 0.0, 0
    time.sleep(rng.uniform(0, args.think))
    while position.has_moves() and moves < args.moves_per_game:
        time.sleep(rng.uniform(0.5, 1.5) * args.think)
        position.push(human_move(position, rng))
        if not position.has_moves():
            break
        job = MoveJob(position_data(position), phase.level, rng.randrange(1 << 30))
        submitted = time.monotonic()
        ticket = pool.submit(job, seat=seat, address=address)
        while isinstance(ticket, Refusal):
            with phase.lock:
                phase.refused += 1
            time.sleep(ticket.retry_after)
            submitted = time.monotonic()
            ticket = pool.submit(job, seat=seat, address=address)
        try:
            result = ticket.result(ANSWER_WAIT)
        except Exception:  # noqa: BLE001 - counted, and the game ends: the table says so
            with phase.lock:
                phase.failed += 1
            return
        answered = time.monotonic()
        assert isinstance(result, MoveResult)
        position.push(parse_move(result.move))
        moves += 1
        cpu += ticket.cpu_seconds
        with phase.lock:
            phase.replies.append(answered - submitted)
            phase.queued.append((ticket.started_at or answered) - submitted)
    with phase.lock:
        phase.cpu_per_game.append(cpu)


def flood(pool: LocalPool, phase: Phase, seat: int, args: argparse.Namespace, stop: threading.Event, tag: int) -> None:
    """One seat of the address that spends its whole analysis budget (one address a phase, its budget full)."""
    rng = random.Random(args.seed * 31 + seat)
    while not stop.is_set():
        position = deal(rng.randrange(1, 1_000_000))
        while position.tiles_left() > args.flood_tiles and position.has_moves():
            position.push(human_move(position, rng))
        job = AnalysisJob(position_data(position), every_move=True, seconds=args.flood_seconds)
        ticket = pool.submit(job, seat=f"flood {phase.level} {seat}", address=f"{FLOOD_NETWORK}{tag}")
        if isinstance(ticket, Refusal):
            with phase.lock:
                phase.flood_refusals += 1
            stop.wait(ticket.retry_after)
            continue
        with contextlib.suppress(CancelledError):  # cancelled at the end of the phase
            ticket.result(ANSWER_WAIT)
        with phase.lock:
            phase.flood_analyses += 1
            phase.flood_cpu += ticket.cpu_seconds


def run_phase(
    pool: LocalPool, level: str, games: int, args: argparse.Namespace, *, with_flood: bool, tag: int
) -> Phase:
    phase = Phase(level, games, with_flood)
    print(f"{level}: {games} games{' beside the flood' if with_flood else ''}...", file=sys.stderr, flush=True)
    started = time.monotonic()
    stop = threading.Event()
    flooders = [
        threading.Thread(target=flood, args=(pool, phase, seat, args, stop, tag), daemon=True)
        for seat in range(args.flood_seats if with_flood else 0)
    ]
    players = [
        threading.Thread(target=play_game, args=(pool, phase, number, args, tag), daemon=True)
        for number in range(games)
    ]
    for thread in flooders + players:
        thread.start()
    for thread in players:
        thread.join()
    stop.set()
    for seat in range(len(flooders)):
        pool.cancel_seat(f"flood {level} {seat}")
    for thread in flooders:
        thread.join()
    phase.seconds = time.monotonic() - started
    return phase


def level_table(phases: list[Phase]) -> str:
    lines = [
        "| level | games | flood | replies | p50 s | p99 s | max s | queue p99 s | CPU s a game | refused | failed "
        "| goal |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for phase in phases:
        goal = GOALS.get(phase.level)
        p99 = percentile(phase.replies, 0.99)
        verdict = "-"
        if goal is not None and not phase.flood:
            games, seconds = goal
            verdict = f"p99 <= {seconds:g} s at {games}: {'met' if p99 <= seconds else 'missed'}"
            if phase.games != games:
                verdict += f" (at {phase.games})"
        cpu = statistics.mean(phase.cpu_per_game) if phase.cpu_per_game else 0.0
        lines.append(
            f"| {phase.level} | {phase.games} | {'yes' if phase.flood else 'no'} | {len(phase.replies)} | "
            f"{percentile(phase.replies, 0.5):.3f} | {p99:.3f} | {max(phase.replies, default=0):.3f} | "
            f"{percentile(phase.queued, 0.99):.3f} | {cpu:.2f} | {phase.refused} | {phase.failed} | {verdict} |"
        )
    return "\n".join(lines)


def flood_table(phases: list[Phase]) -> str:
    lines = [
        "| level | games | p99 alone s | p99 beside the flood s | ratio | goal: at most 2 | "
        "flood analyses | flood refusals | flood CPU s | phase s |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    alone = {(phase.level, phase.games): phase for phase in phases if not phase.flood}
    for phase in phases:
        if not phase.flood or (phase.level, phase.games) not in alone:
            continue
        before, after = percentile(alone[(phase.level, phase.games)].replies, 0.99), percentile(phase.replies, 0.99)
        ratio = after / before if before else float("inf")
        lines.append(
            f"| {phase.level} | {phase.games} | {before:.3f} | {after:.3f} | {ratio:.2f} | "
            f"{'met' if ratio <= 2 else 'missed'} | {phase.flood_analyses} | {phase.flood_refusals} | "
            f"{phase.flood_cpu:.1f} | {phase.seconds:.0f} |"
        )
    return "\n".join(lines)


def cancel_table(args: argparse.Namespace) -> str:
    """A club move right after a stop, right after a kill, and alone, on one worker."""
    ways: dict[str, list[float]] = {"after a stop": [], "after a kill and a new worker": [], "alone": []}
    with LocalPool(1, budget=None) as pool:
        if not pool.wait_ready(ANSWER_WAIT):
            raise SystemExit("the worker did not load its kernels")
        for run in range(args.runs):
            print(f"run {run + 1} of {args.runs}...", file=sys.stderr, flush=True)
            for way in ways:
                move = MoveJob(position_data(deal(1000 + run)), "club", run)
                long = None
                if way != "alone":
                    job = AnalysisJob(position_data(deal(2000 + run)), seconds=300)
                    long = pool.submit(job, seat="long", address="10.0.0.1")
                    assert not isinstance(long, Refusal) and long.started.wait(ANSWER_WAIT)
                    time.sleep(1.0)  # searching
                began = time.monotonic()
                if long is not None:
                    pid = pool.worker_pids()[0]
                    long.cancel()
                    if way.startswith("after a kill") and pid is not None:
                        os.kill(pid, signal.SIGKILL)
                ticket = pool.submit(move, seat="move", address="10.0.0.2")
                assert not isinstance(ticket, Refusal)
                ticket.result(ANSWER_WAIT)
                ways[way].append(time.monotonic() - began)
                if way.startswith("after a kill"):
                    pool.wait_ready(ANSWER_WAIT)
    lines = ["| a club move on one worker | median s | min s | max s | runs |", "|---|---:|---:|---:|---:|"]
    for way, seconds in ways.items():
        lines.append(
            f"| {way} | {statistics.median(seconds):.3f} | {min(seconds):.3f} | {max(seconds):.3f} | {len(seconds)} |"
        )
    return "\n".join(lines)


SERVICE_CALLS = 200
"""``budget_left`` calls a round, each way."""


def service_jobs(moves: int) -> list[MoveJob]:
    """Beginner moves on 60-tile positions: quick searches, so the way to the pool weighs."""
    jobs = []
    for number in range(moves):
        position = deal(3000 + number)
        while position.tiles_left() > 60 and position.has_moves():
            position.push(biggest_pair(position))
        jobs.append(MoveJob(position_data(position), "beginner", number))
    return jobs


def timed_round(pool: LocalPool | PoolClient, jobs: list[MoveJob]) -> tuple[list[float], list[float]]:
    """Each move's seconds from submission to answer, and each ``budget_left`` call's."""
    moves, calls = [], []
    for number, job in enumerate(jobs):
        began = time.perf_counter()
        ticket = pool.submit(job, seat=f"move {number}", address=f"10.1.0.{number % 250}")
        assert not isinstance(ticket, Refusal), ticket
        ticket.result(ANSWER_WAIT)
        moves.append(time.perf_counter() - began)
    for number in range(SERVICE_CALLS):
        began = time.perf_counter()
        pool.budget_left(f"10.1.0.{number % 250}")
        calls.append(time.perf_counter() - began)
    return moves, calls


def service_client(path: str, moves: int) -> None:
    """``--service-client``: one round through a ``PoolClient``, its seconds as JSON on stdout; with
    ``--moves 0``, a 300 s analysis submitted, then nothing until the process is killed."""
    with PoolClient(path) as client:
        if moves == 0:
            job = AnalysisJob(position_data(deal(4000)), seconds=300)
            assert not isinstance(client.submit(job, seat="held", address="10.2.0.1"), Refusal)
            print("held", flush=True)
            sys.stdin.read()
            return
        timed_moves, calls = timed_round(client, service_jobs(moves))
    print(json.dumps({"moves": timed_moves, "calls": calls}))


def killed_client(pool: LocalPool, path: Path) -> float:
    """Seconds from a client's kill, its analysis running, until the pool runs and queues nothing."""
    command = [sys.executable, __file__, "--service-client", str(path), "--moves", "0"]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as client:
        assert client.stdout is not None and client.stdout.readline() == "held\n"
        while pool.stats()["running"] == 0:
            time.sleep(0.001)
        time.sleep(0.5)  # searching
        began = time.perf_counter()
        client.kill()
        while pool.stats()["running"] or pool.stats()["waiting_analysis"]:
            time.sleep(0.001)
        return time.perf_counter() - began


def service_table(args: argparse.Namespace) -> str:
    """The same moves and calls directly and through the service, in alternating rounds."""
    found: dict[str, dict[str, list[float]]] = {way: {"moves": [], "calls": []} for way in ("direct", "service")}
    jobs = service_jobs(args.moves)
    kills: list[float] = []
    with tempfile.TemporaryDirectory() as folder, LocalPool(1, budget=None) as pool:  # each kill's 300 s
        if not pool.wait_ready(ANSWER_WAIT):
            raise SystemExit("the worker did not load its kernels")
        path = Path(folder) / "pool.sock"
        with serve_pool(pool, path):
            timed_round(pool, jobs)  # the worker's table touched, its searches warm
            for run in range(args.runs):
                print(f"round {run + 1} of {args.runs}...", file=sys.stderr, flush=True)
                moves, calls = timed_round(pool, jobs)
                found["direct"]["moves"] += moves
                found["direct"]["calls"] += calls
                command = [sys.executable, __file__, "--service-client", str(path), "--moves", str(args.moves)]
                client = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
                found["service"]["moves"] += client["moves"]
                found["service"]["calls"] += client["calls"]
                kills.append(killed_client(pool, path))
    lines = [
        "| on one worker | direct median ms | service median ms | overhead ms | service p90 ms | count each |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for key, name in (("moves", "a beginner move, submitted to answered"), ("calls", "`budget_left`, a round trip")):
        direct, service = found["direct"][key], found["service"][key]
        lines.append(
            f"| {name} | {1000 * statistics.median(direct):.2f} | {1000 * statistics.median(service):.2f} | "
            f"{1000 * (statistics.median(service) - statistics.median(direct)):.2f} | "
            f"{1000 * percentile(service, 0.9):.2f} | {len(direct)} |"
        )
    lines += [
        "",
        "| a client killed, its analysis running | median ms | max ms | runs |",
        "|---|---:|---:|---:|",
        f"| until the pool runs and queues nothing | {1000 * statistics.median(kills):.1f} | "
        f"{1000 * max(kills):.1f} | {len(kills)} |",
    ]
    return "\n".join(lines)


def header(args: argparse.Namespace) -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT)
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "battle", "solver"], capture_output=True, text=True, cwd=ROOT
    )
    load = " ".join(f"{value:.1f}" for value in os.getloadavg())
    return (
        f"`{shlex.join(['python', 'benchmarks/pool_load.py', *sys.argv[1:]])}`: commit "
        f"{commit.stdout.strip() or '?'}{' (uncommitted changes)' if dirty.stdout.strip() else ''}, "
        f"{os.cpu_count()} CPUs, {1 if args.cancel or args.service else args.workers or os.cpu_count()} workers, "
        f"load {load} at the start, "
        f"{time.strftime('%Y-%m-%d %H:%M')}"
    )


def parse_levels(text: str) -> list[tuple[str, int]]:
    levels = []
    for part in text.split(","):
        name, _colon, games = part.partition(":")
        get_level(name)
        if not games.isdigit() or int(games) < 1:
            raise argparse.ArgumentTypeError(f"{part!r}: give LEVEL:GAMES, like club:50")
        levels.append((name.strip(), int(games)))
    return levels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=parse_levels, default=parse_levels("club:50,expert:10,perfect:2"))
    parser.add_argument("--think", type=float, default=3.0, help="the player's mean pause before a move, seconds")
    parser.add_argument("--moves-per-game", type=int, default=60, help="solver moves a game at most")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: one per core)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-flood", action="store_true", help="each level alone only")
    parser.add_argument(
        "--flood-seats", type=int, default=32, help="seats asking at once: more than its budget pays for"
    )
    parser.add_argument("--flood-seconds", type=float, default=5.0)
    parser.add_argument("--flood-tiles", type=int, default=90)
    parser.add_argument("--cancel", action="store_true", help="a stop against a kill, and nothing else")
    parser.add_argument("--runs", type=int, default=5, help="--cancel's runs, --service's rounds")
    parser.add_argument("--service", action="store_true", help="moves through the pool service against direct")
    parser.add_argument("--moves", type=int, default=40, help="--service's moves a round")
    parser.add_argument("--service-client", metavar="SOCKET", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.service_client:
        service_client(args.service_client, args.moves)
        return
    print(header(args) + "\n")
    if args.cancel:
        print(cancel_table(args))
        return
    if args.service:
        print(service_table(args))
        return
    phases = []
    with LocalPool(args.workers, budget=Budget()) as pool:
        if not pool.wait_ready(ANSWER_WAIT):
            raise SystemExit("the workers did not load their kernels")
        for tag, (level, games) in enumerate(args.levels):
            phases.append(run_phase(pool, level, games, args, with_flood=False, tag=2 * tag))
            if not args.no_flood:
                phases.append(run_phase(pool, level, games, args, with_flood=True, tag=2 * tag + 1))
    print(level_table(phases))
    if not args.no_flood:
        print()
        print(flood_table(phases))


if __name__ == "__main__":
    main()
