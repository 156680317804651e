"""The lobby under load: F pages following it while challenges are opened and taken, as a Markdown table.

    python benchmarks/lobby_load.py                           1,000 followers, 100 challenges a minute, 60 s
    python benchmarks/lobby_load.py --followers 100,1000      one run per count, each with a fresh server
    python benchmarks/lobby_load.py --per-minute 100 --seconds 60

Each run starts the real server (``mahjong-battle serve``) as a child process on 127.0.0.1 with a
fresh temporary database and the per-address caps on connections and starts lifted. Then F websocket
connections, each from a loopback address of its own (127.3.x.y: one network follows on 8 at most),
say ``hello`` and ``lobby_follow`` and read every ``lobby_news``; when all have their list, a
challenger opens ``--per-minute`` challenges a minute for ``--seconds`` (each from a loopback
address of its own, 127.1.x.y: one network may hold 2 open), and a taker joins each
``--take-after`` seconds later and resigns, so each challenge makes
three pieces of news: added, taken (removed and on show), over (off show).

Measured:

- delay: from the challenger's send of ``challenge`` to a follower's receipt of the news that adds
  it (the game's write to the database included), over every (follower, challenge) pair; p50, p99
  and max in ms, and the p99 of each challenge's first follower. Both times are read on this
  process's monotonic clock, so this process's own lag is in them: it reads the F copies of a piece
  of news one after another, and the spread from the first page to the last is mostly that.
  Its CPU is shown.
- server CPU: % of one core over the window from the first challenge to the last news read, and its
  CPU milliseconds per challenge (``/proc/PID/stat``): two connections, a game created, joined,
  resigned and stored, and its three pieces of news written to every follower.
- follower CPU: this process's % of one core over the same window (it parses every frame of every
  follower).
- errors: ``error`` messages, connections refused or dropped, news missing after ``--timeout``.

Every connection is bounded: F at most 5,000, each wait by ``--timeout`` and the run by ``--seconds``
plus the timeout. Only 127.0.0.0/8 is ever contacted. The open-files limit is raised to its hard limit
here and in the server: a follower holds one socket on each side.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import socket
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))  # online_attack

import online_attack  # noqa: E402

MOST_FOLLOWERS = 5_000
TICKS = os.sysconf("SC_CLK_TCK")


# -- the server --------------------------------------------------------------------------------


class Server(online_attack.Server):
    """The attack benchmark's ``serve`` of this tree, with the caps a one-address load needs lifted."""

    def __init__(self, folder: Path, followers: int) -> None:
        many = str(followers + 1_000)
        lifted = ("--max-connections", many, "--max-connections-per-address", many, "--creates-per-hour", "100000")
        lifted += ("--max-waiting-per-address", "1000", "--max-games-per-address", "1000")
        super().__init__(ROOT, folder, solver_workers=0, flags=lifted)

    def cpu_seconds(self) -> float:
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS


# -- one run -----------------------------------------------------------------------------------


@dataclass
class Tally:
    sent: dict[str, float] = field(default_factory=dict)
    """When each challenge (by its challenger's name) was sent."""
    delays_ms: list[float] = field(default_factory=list)
    first_ms: dict[str, float] = field(default_factory=dict)
    """Each challenge's delay to the first follower that read it."""
    news: int = 0
    errors: list[str] = field(default_factory=list)
    last_news: float = 0.0


async def open_socket(url: str, source: str | None = None) -> ClientConnection:
    if source is None:
        return await connect(url, open_timeout=30, max_size=2**20, ping_interval=None)
    port = int(url.rsplit(":", 1)[1].rstrip("/"))
    raw = socket.socket()
    raw.setblocking(False)
    raw.bind((source, 0))
    await asyncio.get_running_loop().sock_connect(raw, ("127.0.0.1", port))
    return await connect(url, sock=raw, open_timeout=30, max_size=2**20, ping_interval=None)


async def greet(connection: ClientConnection) -> None:
    await connection.send(json.dumps({"type": "hello", "version": 1}))
    while json.loads(await connection.recv())["type"] != "welcome":
        pass


async def follow(url: str, tally: Tally, ready: asyncio.Event, count: list[int], total: int, index: int) -> None:
    try:  # a network of its own each: the server lets one network follow on 8 connections
        connection = await open_socket(url, f"127.3.{index // 250}.{index % 250 + 1}")
    except OSError as error:
        tally.errors.append(f"follower refused: {error}")
        count[0] += 1
        if count[0] == total:
            ready.set()
        return
    async with connection:
        await greet(connection)
        await connection.send(json.dumps({"type": "lobby_follow"}))
        first = True
        async for frame in connection:
            now = time.monotonic()
            message = json.loads(frame)
            kind = message["type"]
            if kind == "lobby" and first:
                first = False
                count[0] += 1
                if count[0] == total:
                    ready.set()
            elif kind == "lobby_news":
                tally.news += 1
                tally.last_news = now
                for entry in message["added"]:
                    sent = tally.sent.get(entry["name"])
                    if sent is not None:
                        delay = (now - sent) * 1000
                        tally.delays_ms.append(delay)
                        tally.first_ms[entry["name"]] = min(delay, tally.first_ms.get(entry["name"], delay))
            elif kind == "error":
                tally.errors.append(message["code"])


async def challenge_and_take(url: str, index: int, take_after: float, tally: Tally) -> None:
    source = f"127.1.{index // 250}.{index % 250 + 1}"
    name = f"c{index}"
    challenger = await open_socket(url, source)
    taker = await open_socket(url, f"127.2.{index // 250}.{index % 250 + 1}")
    try:
        await greet(challenger)
        await greet(taker)
        tally.sent[name] = time.monotonic()
        await challenger.send(
            json.dumps({"type": "challenge", "deal": {"random": True}, "first": "creator", "name": name})
        )
        created = await _expect(challenger, "created", tally)
        if created is None:
            return
        await asyncio.sleep(take_after)
        await taker.send(json.dumps({"type": "join", "code": created["invite"], "name": "t"}))
        if await _expect(taker, "joined", tally) is None:
            return
        await taker.send(json.dumps({"type": "resign"}))
        await _expect(taker, "state", tally, lambda message: message.get("status") == "finished")
    finally:
        await challenger.close()
        await taker.close()


async def _expect(connection: ClientConnection, kind: str, tally: Tally, test: Any = None) -> dict[str, Any] | None:
    while True:
        message = json.loads(await connection.recv())
        if message["type"] == "error":
            tally.errors.append(f"{message['code']}: {message.get('reason')}")
            return None
        if message["type"] == kind and (test is None or test(message)):
            return message


async def run(followers: int, per_minute: float, seconds: float, take_after: float, timeout: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder, Server(Path(folder), followers) as server:
        url = f"ws://127.0.0.1:{server.port}/"
        tally = Tally()
        ready = asyncio.Event()
        count = [0]
        readers = [
            asyncio.create_task(follow(url, tally, ready, count, followers, index)) for index in range(followers)
        ]
        await asyncio.wait_for(ready.wait(), timeout)
        cpu_start, server_start, wall_start = time.process_time(), server.cpu_seconds(), time.monotonic()
        challenges = int(per_minute * seconds / 60)
        gap = 60.0 / per_minute
        makers: list[asyncio.Task[None]] = []
        for index in range(challenges):
            await asyncio.sleep(max(0.0, wall_start + index * gap - time.monotonic()))
            makers.append(asyncio.create_task(challenge_and_take(url, index, take_after, tally)))
        await asyncio.wait_for(asyncio.gather(*makers, return_exceptions=True), timeout + take_after)
        expected = challenges * followers
        deadline = time.monotonic() + timeout
        while len(tally.delays_ms) < expected and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)  # the last pieces of news (over, off show) reach the followers
        wall = time.monotonic() - wall_start
        server_cpu = server.cpu_seconds() - server_start
        own_cpu = time.process_time() - cpu_start
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    delays = sorted(tally.delays_ms)
    firsts = sorted(tally.first_ms.values())
    missing = expected - len(delays)
    news_told = tally.news / max(1, followers)
    return {
        "followers": followers,
        "challenges": challenges,
        "news": round(news_told),
        "first_p99": _quantile(firsts, 0.99),
        "p50": _quantile(delays, 0.5),
        "p99": _quantile(delays, 0.99),
        "max": delays[-1] if delays else float("nan"),
        "server_cpu": 100 * server_cpu / wall,
        "ms_per_challenge": 1000 * server_cpu / max(1, challenges),
        "own_cpu": 100 * own_cpu / wall,
        "errors": len(tally.errors) + missing,
        "first_errors": tally.errors[:3] + ([f"{missing} news missing"] if missing else []),
    }


def _quantile(ordered: list[float], q: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--followers", default="1000", help="pages following the lobby, comma-separated runs")
    parser.add_argument("--per-minute", type=float, default=100.0, help="challenges opened a minute")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long challenges are opened")
    parser.add_argument("--take-after", type=float, default=2.0, help="seconds before each challenge is taken")
    parser.add_argument("--timeout", type=float, default=60.0, help="the longest wait for anything")
    args = parser.parse_args()
    counts = [int(part) for part in args.followers.split(",")]
    if any(not 1 <= count <= MOST_FOLLOWERS for count in counts):
        parser.error(f"--followers: each count from 1 to {MOST_FOLLOWERS}")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"challenges: {args.per_minute:g} a minute for {args.seconds:g} s, each taken {args.take_after:g} s later")
    print()
    print(
        "| followers | challenges | news told | first page p99 ms | every page p50 ms | p99 ms | max ms "
        "| server CPU % | server CPU ms a challenge | this process CPU % | errors |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for count in counts:
        row = asyncio.run(run(count, args.per_minute, args.seconds, args.take_after, args.timeout))
        print(
            f"| {row['followers']} | {row['challenges']} | {row['news']} | {row['first_p99']:.1f} | "
            f"{row['p50']:.1f} | {row['p99']:.1f} | "
            f"{row['max']:.1f} | {row['server_cpu']:.1f} | {row['ms_per_challenge']:.1f} | {row['own_cpu']:.1f} | "
            f"{row['errors']} |",
            flush=True,
        )
        if row["first_errors"]:
            print(f"  first errors: {row['first_errors']}", file=sys.stderr)


if __name__ == "__main__":
    main()
