"""What strangers share, under the attacks that once took it: the day's table after a self-play fill,
a neighbour's ping beside ``my_stats`` on a full key, connections held by open puzzles, and the lobby
under a follower flood and a challenge churn.

    python benchmarks/online_attack.py --shared            every row (about a minute)
    python benchmarks/shared_tables.py --games 760          the same, on its own, with the key's games

Each row runs on a fresh ``mahjong-battle serve --processes 1`` of this tree on 127.0.0.1 (no solver;
the deal of the day from the catalogue, as ``tests/online/test_online_groups_shared.py`` starts one),
its clients written by hand (``tests.online_server.Client``) from their own 127.x addresses:

- **day's table**: 7 addresses play 3 friends' games each against themselves on the deal of the day,
  21 seats named "Maria" and 21 "Maria 2"; then Maria (127.0.6.1) plays Ben (127.0.6.2). The row
  counts the table's rows, the self-played ones among them, and whether Maria and Ben are listed.
- **my_stats**: ``--games`` (760) games filed under one key from 20 addresses, each resigned at once;
  a neighbour on another address pings every 60 ms for ``--seconds`` (10) alone, then beside 30
  connections of one address sending as fast as the message rate lets each (one every 60 ms),
  first pings, then ``my_stats`` for that key. The row gives the neighbour's p50 and p99 each time
  and the ratio of its p99 beside ``my_stats`` to its p99 beside pings (goal: a ``my_stats`` costs
  what a ping does, at most 2x).
- **open puzzles**: 20 networks open 16 puzzles each, a connection each: how many are held (8 a network).
- **lobby**: 80 networks follow the lobby on 10 connections each, then a visitor on its own address
  follows (listed or refused); a real challenge opens, 50 networks replace their two challenges
  every ``--churn`` seconds (1) for ``--seconds``, and a follower checks each second that the real
  one is listed; then a stranger takes it.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree's tests package (its server and client) and battle

from benchmarks.percentiles import percentile  # noqa: E402
from tests.online.test_online_groups_shared import DAILY  # noqa: E402
from tests.online_server import Client, ServerProcess, create, play_to_the_end  # noqa: E402

WAIT = 30.0
DEVICE = "0123456789abcdef0123456789abcdef"
LIFTED = (
    "--creates-per-hour",
    "3600000",
    "--max-games-per-address",
    "100",
    "--max-connections-per-address",
    "64",
)
"""What the rows lift: their networks start as many games as they need (the caps are another table's)."""


@contextlib.contextmanager
def served(*flags: str) -> Iterator[ServerProcess]:
    """A server of one process, as the header says: the tests' servers run two unless told, and the
    lobby's rows then met a looker homed in the process without the lobby (``elsewhere``)."""
    one = ("--processes", "1")
    with (
        tempfile.TemporaryDirectory() as folder,
        ServerProcess(Path(folder), *LIFTED, *one, *flags, prelude=DAILY) as server,
    ):
        yield server


def friends_game(
    server: ServerProcess, deal: int, sources: tuple[str, str], names: tuple[str, str], device: str | None = None
) -> None:
    """A friends' game on ``deal`` between ``sources`` played to the end, the host's seat filed under ``device``."""
    host = Client(server.url, name=names[0], source=sources[0])
    created = create(host, deal)
    guest = Client(server.url, name=names[1], source=sources[1])
    guest.send({"type": "join", "code": created["invite"]})
    guest.expect("joined", WAIT)
    state = guest.expect("state", WAIT)
    host.expect("state", WAIT)
    if device is not None:
        host.send({"type": "device", "device": device})
    play_to_the_end({created["seat"]: host, 3 - created["seat"]: guest}, state)
    host.close()
    guest.close()


def daily(server: ServerProcess, device: str | None = None) -> dict[str, Any]:
    asker = Client(server.url, source="127.0.8.1")
    asker.send({"type": "daily", "device": device} if device else {"type": "daily"})
    table = asker.expect("daily_table", WAIT)
    asker.close()
    return table


def day_table_row() -> str:
    with served() as server:
        number = daily(server)["deal"]
        for crowd in range(7):
            address = f"127.0.7.{crowd + 1}"
            for _ in range(3):
                friends_game(server, number, (address, address), ("Maria", "Maria 2"))
        friends_game(server, number, ("127.0.6.1", "127.0.6.2"), ("Maria", "Ben"), DEVICE)
        rows: list[dict[str, Any]] = []
        for _ in range(10):  # the table reads on, 500 seats an ask: one ask reads these
            rows = daily(server, DEVICE)["rows"]
            if any(row["name"] == "Ben" for row in rows):
                break
        maria = [row for row in rows if row["yours"]]  # the real Maria's row, marked on her device
        ben = [row for row in rows if row["name"] == "Ben"]
        fakes = len(rows) - len(maria) - len(ben)
        where = f"place {maria[0]['place']}" if maria else "missing"
        return (
            f"| day's table after 21 self-played games | {len(rows)} rows | {fakes} self-played rows | "
            f"the real Maria {where}, Ben {'listed' if ben else 'missing'} |"
        )


def filed_games(server: ServerProcess, count: int) -> None:
    """``count`` games filed under ``DEVICE``, resigned at once, from 20 addresses in turn."""
    for number in range(count):
        address = f"127.0.5.{number % 20 + 1}"
        host = Client(server.url, name="Self", source=address)
        created = create(host)
        guest = Client(server.url, name="Self", source=address)
        guest.send({"type": "join", "code": created["invite"]})
        guest.expect("joined", WAIT)
        guest.expect("state", WAIT)
        host.send({"type": "device", "device": DEVICE})
        host.send({"type": "resign"})
        _until_over(host)
        host.close()
        guest.close()


def _until_over(client: Client) -> None:
    while True:
        message = client.read(WAIT)
        if message["type"] == "state" and message.get("status") == "finished":
            return


def pings(server: ServerProcess, seconds: float) -> list[float]:
    """A neighbour's ping round trips (ms), one every 60 ms (under the 20 messages a second a
    connection may send) for ``seconds``."""
    client = Client(server.url, source="127.0.9.9")
    times: list[float] = []
    ends = time.monotonic() + seconds
    number = 0
    while time.monotonic() < ends:
        number += 1
        sent = time.perf_counter()
        client.send({"type": "ping", "t": number})
        client.expect("pong", WAIT)
        times.append((time.perf_counter() - sent) * 1000)
        time.sleep(0.06)
    client.close()
    return times


def beside(server: ServerProcess, seconds: float, ask: dict[str, Any], answer: str) -> tuple[list[float], float]:
    """The neighbour's pings beside 30 connections of one address sending ``ask`` as fast as the
    message rate lets each (one every 60 ms), and their answers a second."""
    stop = threading.Event()
    answers = [0]

    def asker() -> None:
        client = Client(server.url, source="127.0.4.4")
        while not stop.is_set():
            client.send(ask)
            client.expect(answer, WAIT)
            answers[0] += 1
            time.sleep(0.06)
        client.close()

    askers = [threading.Thread(target=asker) for _ in range(30)]
    for thread in askers:
        thread.start()
    time.sleep(1.0)
    started, counted = time.monotonic(), answers[0]
    times = pings(server, seconds)
    rate = (answers[0] - counted) / (time.monotonic() - started)
    stop.set()
    for thread in askers:
        thread.join()
    return times, rate


def my_stats_row(games: int, seconds: float) -> str:
    with served() as server:
        filed_games(server, games)
        alone = pings(server, seconds)
        pinged, ping_rate = beside(server, seconds, {"type": "ping", "t": 1}, "pong")
        asked, stats_rate = beside(server, seconds, {"type": "my_stats", "device": DEVICE}, "my_stats_result")

        def spread(times: list[float]) -> str:
            return f"p50 {statistics.median(times):.1f} ms, p99 {percentile(times, 0.99):.1f} ms"

        ratio = percentile(asked, 0.99) / percentile(pinged, 0.99)
        return (
            f"| ping beside my_stats on a key of {games} games | alone {spread(alone)}; beside 30 pinging "
            f"({ping_rate:.0f}/s) {spread(pinged)} | beside 30 asking my_stats ({stats_rate:.0f}/s) {spread(asked)} "
            f"| {ratio:.2f}x the pinging's p99 |"
        )


def puzzles_row() -> str:
    with served() as server:
        held = refused = 0
        clients = []
        for network in range(20):
            for _ in range(16):
                client = Client(server.url, source=f"127.0.3.{network + 1}")
                client.send({"type": "puzzle_open", "device": DEVICE})
                answer = client.read(WAIT)
                while answer["type"] not in ("puzzle_shown", "error"):
                    answer = client.read(WAIT)
                held += answer["type"] == "puzzle_shown"
                refused += answer["type"] == "error"
                clients.append(client)
        for client in clients:
            client.close()
        return f"| open puzzles, 20 networks x 16 | {held} held | {refused} refused (puzzles_open) | 8 a network |"


def lobby_rows(seconds: float, churn: float) -> list[str]:
    with served() as server:
        followers = []
        held = 0
        for network in range(80):
            for _ in range(10):
                client = Client(server.url, source=f"127.0.2.{network + 1}")
                client.send({"type": "lobby_follow"})
                answer = client.read(WAIT)
                held += answer["type"] == "lobby"
                followers.append(client)
        visitor = Client(server.url, source="127.0.9.7")
        visitor.send({"type": "lobby_follow"})
        let_in = visitor.read(WAIT)["type"] == "lobby"
        first = (
            f"| lobby, 80 networks x 10 followers | {held} follow | visitor "
            f"{'let in' if let_in else 'refused'} | 8 a network |"
        )
        for client in followers:
            client.close()
        visitor.close()
        real = Client(server.url, name="Real", source="127.0.6.9")
        real.send({"type": "challenge", "deal": {"number": 5}, "first": "creator", "name": "Real"})
        code = real.expect("created", WAIT)["invite"]
        stop = threading.Event()

        def churner(network: int) -> None:
            while not stop.is_set():
                pair = []
                for _ in range(2):
                    client = Client(server.url, name="Crowd", source=f"127.0.1.{network + 1}")
                    for _ in range(100):  # until the server has seen the last withdrawal
                        client.send({"type": "challenge", "deal": {"random": True}, "first": "creator"})
                        if client.read(WAIT)["type"] == "created":
                            break
                        time.sleep(0.02)
                    pair.append(client)
                stop.wait(churn)
                for client in pair:
                    client.send({"type": "abort"})
                    client.close()

        crowd = [threading.Thread(target=churner, args=(network,)) for network in range(50)]
        for thread in crowd:
            thread.start()
        listed = looks = 0
        ends = time.monotonic() + seconds
        while time.monotonic() < ends:
            looker = Client(server.url, source="127.0.9.8")
            looker.send({"type": "lobby_follow"})
            listing = looker.expect("lobby", WAIT)
            looker.close()
            looks += 1
            listed += any(entry["code"] == code for entry in listing["challenges"])
            time.sleep(1.0)
        stop.set()
        for thread in crowd:
            thread.join()
        taker = Client(server.url, name="Taker", source="127.0.9.6")
        taker.send({"type": "join", "code": code})
        taken = taker.read(WAIT)["type"] == "joined"
        taker.close()
        real.close()
        second = (
            f"| lobby, 50 networks replacing 2 challenges every {churn:g} s | real one listed {listed} of {looks} "
            f"looks | {'taken' if taken else 'not taken'} at the end | |"
        )
        return [first, second]


ROWS = ("day", "puzzles", "lobby", "stats")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", default=",".join(ROWS), help=f"of {', '.join(ROWS)} (default all, in that order)")
    parser.add_argument("--games", type=int, default=760, help="games filed under the full key (760)")
    parser.add_argument("--seconds", type=float, default=10.0, help="the pings of each phase, the churn (10)")
    parser.add_argument("--churn", type=float, default=1.0, help="seconds between a crowd's replacements (1)")
    args = parser.parse_args(argv)
    rows = args.rows.split(",")
    if not rows or not set(rows) <= set(ROWS):
        parser.error(f"--rows: {args.rows!r} is not a list of {', '.join(ROWS)}")
    print("## What strangers share\n")
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, this tree, `serve --processes 1` on 127.0.0.1\n")
    print("| row | | | |\n|---|---|---|---|", flush=True)
    made = {
        "day": lambda: [day_table_row()],
        "puzzles": lambda: [puzzles_row()],
        "lobby": lambda: lobby_rows(args.seconds, args.churn),
        "stats": lambda: [my_stats_row(args.games, args.seconds)],
    }
    for row in rows:
        for line in made[row]():
            print(line, flush=True)


if __name__ == "__main__":
    main()
