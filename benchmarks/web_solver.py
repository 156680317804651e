"""The solver on the web under load: clients speaking the page's protocol over real websockets to a
real ``mahjong-battle serve`` with its solver pool, as Markdown tables.

    python benchmarks/web_solver.py                     club 50, expert 10, perfect 2 games at once, each
                                                        level alone and beside an analysis flood; then
                                                        100 analysed positions against analyse --json
    python benchmarks/web_solver.py --levels club:10 --positions 10 --no-flood

Each client is what the page does (``battle/web/socket.js``), written out as its JSON messages, not
the project's Python client: ``hello``, ``solver_game`` (a numbered deal drawn from ``--seed``, the
client first), then each of its moves as ``move`` with a fresh id, after a think pause of 0.5x to
1.5x ``--think`` seconds, taking the biggest pair or, one time in three, a random legal pair. Each
client connects from an address of its own (127.0.x.y: every address has its own budget of solver
time, as every player's has). Measured per level:

- reply: from sending the player's move to the solver's ``moved`` (what the player waits): p50,
  p99 and the largest;
- CPU a game: the solver CPU seconds the server's ``/stats`` counts for moves, over the games;
- refused: ``solver_refused`` for a move (each client has its own address: none expected).

With the flood (``--no-flood`` leaves it out), each level runs a second time beside one more
address that keeps ``--flood-seats`` analysis boards busy (every move's value, deepening, on
positions of 90 tiles), asking again as each ends or as soon as a refusal says it may. The server
runs with ``--solver-budget`` 30 s an address (``--budget``), so the flood spends its whole
budget within the phase and is refused from then on, as a greedy address is.

``--positions N``: N endgames (deals 1..N played greedily to 8 to 11 pairs) analysed on the
server's analysis board until final, against ``mahjong-battle analyse --json`` on the same
position: how many agree on every move's value and bound.

Goals (issue 55): club replies p99 <= 0.5 s at 50 games; expert within its level's time + 1 s at
10 games; beside the flood, the others' p99 at most doubled.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from pool_load import human_move, percentile  # noqa: E402 - the pool benchmark's player and arithmetic
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

from battle.players import get_level  # noqa: E402
from battle.rules.board import biggest_pair, move_name, parse_move  # noqa: E402
from battle.rules.deal import deal  # noqa: E402
from battle.rules.notation import format_position, parse_position  # noqa: E402

GOALS = {"club": (50, 0.5), "expert": (10, get_level("expert").time_limit + 1.0)}
WAIT = 600.0


@dataclass
class Phase:
    level: str
    games: int
    flood: bool
    replies: list[float] = field(default_factory=list)
    refused: int = 0
    failed: int = 0
    cpu: float = 0.0
    finished: int = 0
    flood_analyses: int = 0
    flood_refusals: int = 0


class Line:
    """One websocket speaking the page's protocol, from its own loopback address."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket

    @classmethod
    async def open(cls, url: str, address: str) -> Line:
        socket = await connect(url, local_addr=(address, 0), open_timeout=60, max_size=2**22)
        line = cls(socket)
        await line.send({"type": "hello", "version": 1})
        await line.expect("welcome")
        return line

    async def send(self, message: dict[str, Any]) -> None:
        await self.socket.send(json.dumps(message))

    async def read(self) -> dict[str, Any]:
        return dict(json.loads(await asyncio.wait_for(self.socket.recv(), WAIT)))

    async def expect(self, kind: str) -> dict[str, Any]:
        while True:
            message = await self.read()
            if message["type"] == kind:
                return message


def stats(base: str) -> dict[str, str]:
    with urllib.request.urlopen(base + "/stats", timeout=60) as answer:
        return dict(line.split(" ", 1) for line in answer.read().decode().splitlines())


async def play_game(url: str, phase: Phase, number: int, args: argparse.Namespace, tag: int) -> None:
    rng = random.Random(args.seed * 100_003 + number * 7 + tag)
    line = await Line.open(url, f"127.{tag + 1}.{number // 250}.{number % 250 + 1}")
    await asyncio.sleep(rng.uniform(0, args.think))
    await line.send({"type": "solver_game", "level": phase.level, "deal": {"number": rng.randrange(1, 10**6)},
                     "first": "creator"})  # fmt: skip
    state = await line.expect("state")
    position = parse_position(state["start"])
    sent, ply = 0, 0
    try:
        while position.has_moves():
            await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)
            move = human_move(position, rng)
            position.push(move)
            sent, ply = sent + 1, ply + 1
            await line.send({"type": "move", "move": move_name(move), "id": f"b{sent}"})
            asked = time.monotonic()
            if not position.has_moves():
                break
            while True:
                message = await line.read()
                if message["type"] == "solver_refused" and message["what"] == "move":
                    phase.refused += 1
                if message["type"] == "moved" and message["ply"] == ply + 1:
                    break
            phase.replies.append(time.monotonic() - asked)
            position.push(parse_move(message["move"]))
            ply += 1
        phase.finished += 1
    except (TimeoutError, OSError):
        phase.failed += 1
    finally:
        await line.socket.close()


async def flood(url: str, phase: Phase, seat: int, stop: asyncio.Event) -> None:
    line = await Line.open(url, "127.99.0.1")  # one address for every board of the flood
    rng = random.Random(seat)
    count = 0
    try:
        while not stop.is_set():
            count += 1
            position = endgame(rng.randrange(1, 10**6), left=45)
            await line.send({"type": "analyse", "id": f"f{seat}-{count}", "position": position})
            while not stop.is_set():
                try:
                    message = await asyncio.wait_for(line.read(), 1.0)
                except TimeoutError:
                    continue
                if message["type"] == "analysis_result" and message["final"]:
                    phase.flood_analyses += 1
                    break
                if message["type"] == "solver_refused":
                    phase.flood_refusals += 1
                    await asyncio.sleep(min(30.0, message["retry_after"] or 1.0))
                    break
    finally:
        await line.socket.close()


def endgame(number: int, left: int) -> str:
    position = deal(number)
    while position.has_moves() and sum(kind >= 0 for kind in position.cells) > 2 * left:
        position.push(biggest_pair(position))
    return format_position(position)


async def run_phase(url: str, base: str, phase: Phase, args: argparse.Namespace, tag: int) -> None:
    before = float(stats(base).get("solver_cpu_seconds_move", "0"))
    stop = asyncio.Event()
    floods = [
        asyncio.create_task(flood(url, phase, seat, stop)) for seat in range(args.flood_seats if phase.flood else 0)
    ]
    await asyncio.gather(*(play_game(url, phase, number, args, tag) for number in range(phase.games)))
    stop.set()
    await asyncio.gather(*floods, return_exceptions=True)
    phase.cpu = float(stats(base).get("solver_cpu_seconds_move", "0")) - before


async def compare_analyses(url: str, count: int) -> tuple[int, int, list[str]]:
    """How many of ``count`` endgames the server's analysis board values exactly as ``analyse --json``."""
    line = await Line.open(url, "127.200.0.1")
    agree, exact, differ = 0, 0, []
    with tempfile.TemporaryDirectory() as folder:
        for number in range(1, count + 1):
            text = endgame(number, left=8 + number % 4)
            await line.send({"type": "analyse", "id": f"c{number}", "position": text})
            while True:
                message = await line.read()
                if message["type"] == "analysis_result" and message["id"] == f"c{number}" and message["final"]:
                    break
            page = {entry["move"]: (entry["value"], entry["bound"]) for entry in message["evaluation"]["moves"]}
            file = Path(folder) / "position.mbp"
            file.write_text(text, encoding="utf-8")
            done = subprocess.run(
                [sys.executable, "-m", "battle", "analyse", "--json", "--quiet", "--threads", "1", str(file)],
                capture_output=True, text=True, timeout=WAIT, cwd=ROOT,
            )  # fmt: skip
            cli = {entry["move"]: (entry["value"], entry["bound"]) for entry in json.loads(done.stdout)["moves"]}
            exact += message["evaluation"]["exact"]
            if page == cli:
                agree += 1
            else:
                differ.append(f"deal {number}")
    await line.socket.close()
    return agree, exact, differ


def level_table(phases: list[Phase]) -> str:
    rows = [
        "| level | games | flood | replies | reply p50 s | reply p99 s | largest s | CPU s a game | refused | failed |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for phase in phases:
        games = max(1, phase.finished)
        rows.append(
            f"| {phase.level} | {phase.games} | {'yes' if phase.flood else 'no'} | {len(phase.replies)} "
            f"| {percentile(phase.replies, 0.5):.2f} | {percentile(phase.replies, 0.99):.2f} "
            f"| {max(phase.replies, default=0):.2f} | {phase.cpu / games:.1f} | {phase.refused} | {phase.failed} |"
        )
    return "\n".join(rows)


def goal_lines(phases: list[Phase]) -> str:
    lines = []
    for phase in phases:
        goal = GOALS.get(phase.level)
        if goal and not phase.flood:
            p99 = percentile(phase.replies, 0.99)
            met = "met" if phase.games >= goal[0] and p99 <= goal[1] else "NOT met"
            lines.append(f"- {phase.level}: p99 {p99:.2f} s at {phase.games} games, goal <= {goal[1]:.1f} s: {met}")
    by_level: dict[str, list[Phase]] = {}
    for phase in phases:
        by_level.setdefault(phase.level, []).append(phase)
    for level, pair in by_level.items():
        if len(pair) == 2:
            alone, flooded = (percentile(phase.replies, 0.99) for phase in pair)
            ratio = flooded / alone if alone else float("inf")
            met = "met" if ratio <= 2 else "NOT met"
            lines.append(
                f"- {level} beside the flood: p99 {flooded:.2f} s against {alone:.2f} s alone, x{ratio:.2f} "
                f"(goal at most x2: {met}); the flood finished {pair[1].flood_analyses} analyses, "
                f"refused {pair[1].flood_refusals} times"
            )
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "battle", "serve", "--port", "0", "--db", str(Path(folder) / "games.sqlite3")]
        command += ["--solver-workers", str(args.workers), "--max-connections-per-address", "1000"]
        command += ["--solver-budget", str(args.budget)]
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
        try:
            assert server.stdout is not None
            first = server.stdout.readline()
            port = int(first.split("ws://127.0.0.1:")[1].split()[0])
            url, base = f"ws://127.0.0.1:{port}", f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + WAIT  # the workers' kernels loaded: no first search pays for them
            while stats(base).get("solver_workers_ready") != str(args.workers) and time.monotonic() < deadline:
                await asyncio.sleep(0.5)
            print(
                f"# The solver on the web: {args.workers} solver workers, {os.cpu_count()} cores, load "
                f"{os.getloadavg()[0]:.1f} at the start, think {args.think} s, budget {args.budget:g} s\n"
            )
            phases = []
            for tag, (level, games) in enumerate(args.levels):
                for flooded in (False, True) if args.flood else (False,):
                    phase = Phase(level, games, flooded)
                    await run_phase(url, base, phase, args, tag * 2 + flooded)
                    phases.append(phase)
                    print(f"<!-- {level} x{games}{' + flood' if flooded else ''} done, "
                          f"load {os.getloadavg()[0]:.1f} -->", flush=True)  # fmt: skip
            print(level_table(phases))
            print()
            print(goal_lines(phases))
            if args.positions:
                agree, exact, differ = await compare_analyses(url, args.positions)
                print(f"\nAnalysis board against analyse --json: {agree} of {args.positions} positions agree on "
                      f"every move's value and bound ({exact} exact on the board)"
                      + (f"; differ: {', '.join(differ)}" if differ else ""))  # fmt: skip
            print(f"\nLoad at the end: {os.getloadavg()[0]:.1f}")
        finally:
            server.terminate()
            server.wait(30)


def parse_levels(text: str) -> list[tuple[str, int]]:
    levels = []
    for part in text.split(","):
        name, _, count = part.partition(":")
        get_level(name)
        levels.append((name, int(count or 1)))
    return levels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=parse_levels, default=parse_levels("club:50,expert:10,perfect:2"))
    parser.add_argument("--think", type=float, default=2.0, help="the players' think pause, seconds (default 2)")
    parser.add_argument("--workers", type=int, default=2, help="solver workers of the server (default 2)")
    parser.add_argument("--seed", type=int, default=55)
    parser.add_argument("--no-flood", dest="flood", action="store_false")
    parser.add_argument("--flood-seats", type=int, default=8)
    parser.add_argument(
        "--budget",
        type=float,
        default=30.0,
        help="each address's solver seconds at once (default 30: the flood spends it)",
    )
    parser.add_argument("--positions", type=int, default=100)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
