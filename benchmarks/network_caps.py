"""What one network gets of each cap of ``serve``, with one process and with several: the two
columns must be equal where the cap counts a network; and what two other networks feel meanwhile.

    python benchmarks/online_attack.py --caps                    --processes 1,2 (the default)
    python benchmarks/network_caps.py --processes 1,2,4          the same, on its own
    python benchmarks/network_caps.py --alone                    the caps only (no solver, no neighbours)

Each row runs on a fresh ``mahjong-battle serve --processes N --solver-workers 1`` of this tree on
127.0.0.1 (``--alone``: no solver). The network is 127.0.0.3 (with two processes its home is process
1); it holds two connections, one of them in process 0 (its address's ``?at=0``, as a client sent
``elsewhere`` there connects; with one process the same one), and its requests alternate between
them, each answered before the next (``at once``: all sent before any answer is read); the
connections and open puzzles rows open connections of their own beside the two, in turn in process 0
and at home, each kept open. The rows count what was let through before the first refusal, and name
that refusal's ``why`` (for a connection, its handshake's HTTP status).

The second table is what the neighbours (``neighbours.py``) felt during each row's attack: the 99th
percentile of their pings from process 0's home and process 1's, and the seconds from each move of a
player at process 1's home to the solver's answer (level club, its pool in process 0). Its last row
stops process 0 for 10 s under them (SIGSTOP, under the 20 s after which the supervisor replaces
it); 4 s into the stop a newcomer of process 0's home makes a game, which the other process serves.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree's tests package (its server and client) and battle

import psutil  # noqa: E402
from neighbours import Felt, Neighbours, address_at_home  # noqa: E402
from websockets.exceptions import InvalidStatus  # noqa: E402

from battle.online.protocol.codes import new_watch_code  # noqa: E402
from battle.online.protocol.server_groups import url_at  # noqa: E402
from tests.online_server import Client, ServerProcess  # noqa: E402

NETWORK = "127.0.0.3"
WAIT = 30.0
STOP_SECONDS = 10.0
"""How long the stopped row stops process 0: under the supervisor's 20 s before it replaces it."""
LATE_WAIT = 4.0
"""Seconds into the stop before the newcomer connects: the supervisor calls a process late after 3 s."""
TRIES = 60
"""The most requests a row sends: three times the largest cap it meets (20 starts)."""


@dataclass
class Pair:
    """The network's two connections to the server at ``url``."""

    url: str
    clients: list[Client]

    def __getitem__(self, index: int) -> Client:
        return self.clients[index]

    def __iter__(self) -> Iterator[Client]:
        return iter(self.clients)

    def follow(self, index: int, place: str) -> None:
        """Connection ``index`` was answered ``elsewhere``: it connects again at ``place``, as a page does."""
        self.clients[index].close()
        self.clients[index] = Client(url_at(self.url, place), source=NETWORK)


def two_connections(server: ServerProcess) -> Pair:
    """The network's connection in process 0 (``?at=0``), and one at its home."""
    return Pair(server.url, [Client(server.url + "/?at=0", source=NETWORK), Client(server.url, source=NETWORK)])


def refusal(client: Client) -> dict[str, Any] | None:
    """The next answer: None for a game made (``created``), else the error (or ``elsewhere``)."""
    while True:
        message = client.read(WAIT)
        if message["type"] == "created":
            return None
        if message["type"] in ("error", "elsewhere"):
            return message


def why(error: dict[str, Any] | None) -> str:
    if error is None:
        return f"none in {TRIES}"
    return str(error.get("params", {}).get("why") or error["code"])


def until_refused(pair: Pair, message: dict[str, Any], then: Callable[[Client], None] | None = None) -> tuple[int, str]:
    """``message`` sent on the two connections in turn, each answered (and ``then`` done with its
    connection) before the next, until one is refused. One answered ``elsewhere`` (the lobby's
    requests away from its process) follows it and asks again there."""
    for count in range(TRIES):
        client = pair[count % 2]
        client.send(message)
        refused = refusal(client)
        if refused is not None and refused["type"] == "elsewhere":
            pair.follow(count % 2, refused["group"])
            client = pair[count % 2]
            client.send(message)
            refused = refusal(client)
        if refused is not None:
            return count, why(refused)
        if then is not None:
            then(client)
    return TRIES, why(None)


CREATE = {"type": "create", "deal": {"number": 5}, "first": "creator"}


def call_off(client: Client) -> None:
    """The game just made is called off (``abort``): the caps on waiting games hold no try."""
    client.expect("state", WAIT)
    client.send({"type": "abort"})
    client.expect("state", WAIT)


def starts(pair: Pair) -> tuple[int, str]:
    """Games made and called off one after another: the network's starts."""
    return until_refused(pair, CREATE, call_off)


def waiting_games(pair: Pair) -> tuple[int, str]:
    """Games made and left waiting for a second player, one after another."""
    return until_refused(pair, CREATE)


def games_at_once(pair: Pair) -> tuple[int, str]:
    """Ten creates sent on each connection before any answer is read."""
    for client in pair:
        for _ in range(10):
            client.send(CREATE)
    answers = [refusal(client) for client in pair for _ in range(10)]
    made = sum(answer is None for answer in answers)
    return made, why(next((answer for answer in answers if answer is not None), None))


def wrong_codes(pair: Pair) -> tuple[int, str]:
    """Typed watch codes that name no game, looked up until one is refused."""
    for count in range(TRIES):
        client = pair[count % 2]
        client.send({"type": "watch", "code": new_watch_code()})
        error = client.expect("error", WAIT)
        if error["code"] != "not_found":
            return count, why(error)
    return TRIES, why(None)


def challenges(pair: Pair) -> tuple[int, str]:
    """Challenges opened in the lobby, one after another."""
    return until_refused(pair, {"type": "challenge", "deal": {"number": 3}, "first": "creator", "name": "Ann"})


def more_connections(pair: Pair) -> tuple[int, str]:
    """Connections opened beside the two, in turn in process 0 and at the network's home, all kept open."""
    opened: list[Client] = []
    try:
        for count in range(TRIES * 2):
            try:
                opened.append(Client(pair.url + ("/?at=0" if count % 2 == 0 else ""), source=NETWORK))
            except InvalidStatus as refused:
                return count, f"{refused.response.status_code}"
        return TRIES * 2, why(None)
    finally:
        for client in opened:
            client.close()


def open_puzzles(pair: Pair) -> tuple[int, str]:
    """Puzzles opened on connections of their own beside the two, in turn in process 0 and at home."""
    opened: list[Client] = []
    try:
        for count in range(TRIES):
            client = Client(pair.url + ("/?at=0" if count % 2 == 0 else ""), source=NETWORK)
            opened.append(client)
            client.send({"type": "puzzle_open", "device": "0123456789abcdef0123456789abcdef"})
            while (answer := client.read(WAIT))["type"] not in ("puzzle_shown", "error"):
                pass
            if answer["type"] == "error":
                return count, why(answer)
        return TRIES, why(None)
    finally:
        for client in opened:
            client.close()


def new_ratings(pair: Pair) -> tuple[int, str]:
    """Puzzles opened under device keys the server has no rating of, on the two connections in turn."""
    for count in range(TRIES):
        client = pair[count % 2]
        client.send({"type": "puzzle_open", "device": f"{count:032x}"})
        while (answer := client.read(WAIT))["type"] not in ("puzzle_shown", "error"):
            pass
        if answer["type"] == "error":
            return count, why(answer)
    return TRIES, why(None)


ROWS: dict[str, tuple[str, Callable[[Pair], tuple[int, str]]]] = {
    "starts": ("20 at once, then 60 an hour", starts),
    "games waiting": ("5", waiting_games),
    "games at once": ("5 waiting", games_at_once),
    "wrong codes": ("5 free, then one more looked up", wrong_codes),
    "challenges": ("2", challenges),
    "connections": ("64, the two above among them", more_connections),
    "open puzzles": ("8", open_puzzles),
    "new puzzle ratings": ("30 an hour", new_ratings),
}


def measure(processes: int, row: str, beside: bool) -> tuple[int, str, Felt | None]:
    """The row's count and refusal on a fresh server, and what the neighbours felt meanwhile
    (``beside``: the server runs a solver worker for their games)."""
    flags = ("--processes", str(processes), *(("--solver-workers", "1") if beside else ()))
    with tempfile.TemporaryDirectory() as folder, ServerProcess(Path(folder), *flags) as server:
        if beside:
            solver_ready(server)
        pair = two_connections(server)
        try:
            with Neighbours(server, {NETWORK}) if beside else contextlib.nullcontext() as neighbours:
                if neighbours is not None:
                    neighbours.wait_for_a_reply()
                count, refused = ROWS[row][1](pair)
            return count, refused, neighbours.felt if neighbours is not None else None
        finally:
            for client in pair:
                client.close()


def solver_ready(server: ServerProcess) -> None:
    """Back once the server's solver worker has loaded its kernels (``/stats``), so no row's first
    solver reply is a worker's start."""
    deadline = time.monotonic() + 120
    while server.stats().get("solver_workers_ready") != "1":
        assert time.monotonic() < deadline, "the solver worker never came up"
        time.sleep(0.2)


def stopped(processes: int) -> str:
    """Process 0 (the solver pool's) stopped ``STOP_SECONDS`` under the neighbours: what they felt,
    and how a new connection of a network at process 0's home was served meanwhile."""
    if processes < 2:
        return "n/a: process 0 is the server"
    flags = ("--processes", str(processes), "--solver-workers", "1")
    with tempfile.TemporaryDirectory() as folder, ServerProcess(Path(folder), *flags) as server:
        solver_ready(server)
        with Neighbours(server, {NETWORK}) as neighbours:
            neighbours.wait_for_a_reply()
            process_0 = game_process(server, 0, processes)
            process_0.send_signal(signal.SIGSTOP)
            try:
                time.sleep(LATE_WAIT)  # the supervisor has missed its beats: new connections go elsewhere
                began = time.perf_counter()
                newcomer = Client(server.url, source=address_at_home(0, {NETWORK}))
                newcomer.send(CREATE)
                newcomer.expect("created", WAIT)
                served = time.perf_counter() - began
                newcomer.close()
                time.sleep(STOP_SECONDS - LATE_WAIT)
            finally:
                process_0.send_signal(signal.SIGCONT)
            neighbours.wait_for_a_reply()
        return f"{neighbours.felt.cell()}; a newcomer of home 0 made a game in {served * 1000:.0f} ms"


def game_process(server: ServerProcess, index: int, count: int) -> psutil.Process:
    """Game process ``index`` of the server's ``count``."""
    found = server.game_process(index)
    if found is None:
        raise AssertionError(f"the server has no game process {index} of {count}")
    return found


def table(counts: list[int], beside: bool) -> str:
    lines = [
        "| cap of one network | one process allows | " + " | ".join(f"--processes {n}" for n in counts) + " |",
        "|---|---|" + "---:|" * len(counts),
    ]
    felt: dict[str, list[str]] = {}
    for row, (allowed, _measure) in ROWS.items():
        cells = []
        for processes in counts:
            count, refused, neighbours = measure(processes, row, beside)
            cells.append(f"{count} ({refused})")
            felt.setdefault(row, []).append(neighbours.cell() if neighbours is not None else "")
        lines.append(f"| {row} | {allowed} | " + " | ".join(cells) + " |")
    if not beside:
        return "\n".join(lines)
    lines += [
        "",
        "| the neighbours beside | " + " | ".join(f"--processes {n}" for n in counts) + " |",
        "|---|" + "---|" * len(counts),
    ]
    lines += [f"| {row} | " + " | ".join(cells) + " |" for row, cells in felt.items()]
    lines.append(f"| process 0 stopped {STOP_SECONDS:.0f} s | " + " | ".join(stopped(n) for n in counts) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", default="1,2", help="the process counts, one column each (default 1,2)")
    parser.add_argument(
        "--alone", action="store_true", help="the caps only: no neighbours, no solver worker, no stopped row"
    )
    args = parser.parse_args(argv)
    try:
        counts = [int(part) for part in args.processes.split(",")]
    except ValueError:
        parser.error(f"--processes takes counts separated by commas, not {args.processes!r}")
    if any(count < 1 for count in counts):
        parser.error(f"--processes takes counts of 1 or more, not {args.processes!r}")
    began = time.monotonic()
    print(table(counts, beside=not args.alone))
    print(
        f"\n(network {NETWORK}; each cell: let through before the first refusal, and its why; "
        f"{time.monotonic() - began:.0f} s)"
    )


if __name__ == "__main__":
    main()
