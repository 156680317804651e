"""What one network gets of each cap of ``serve``, with one process and with several: the two
columns must be equal where the cap counts a network.

    python benchmarks/online_attack.py --caps                    --processes 1,2 (the default)
    python benchmarks/network_caps.py --processes 1,2,4          the same, on its own

Each row runs on a fresh ``mahjong-battle serve --processes N`` of this tree on 127.0.0.1 (no solver).
The network is 127.0.0.3 (with two processes its home is process 1); it holds two connections, one
of them moved to the lobby's process first (``lobby_follow``, ``lobby_leave``: with several
processes, process 0), and its requests alternate between them, each answered before the next
(``at once``: all sent before any answer is read). The rows count what was let through before
the first refusal, and name that refusal's ``why``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree's tests package (its server and client) and battle

from battle.online.protocol.codes import new_watch_code  # noqa: E402
from tests.online_server import Client, ServerProcess  # noqa: E402

NETWORK = "127.0.0.3"
WAIT = 30.0
TRIES = 60
"""The most requests a row sends: three times the largest cap it meets (20 starts)."""

Pair = tuple[Client, Client]


def two_connections(server: ServerProcess) -> Pair:
    """The network's connection moved to the lobby's process, and one left at its home."""
    moved, home = Client(server.url, source=NETWORK), Client(server.url, source=NETWORK)
    moved.send({"type": "lobby_follow"})
    moved.expect("lobby", WAIT)
    moved.send({"type": "lobby_leave"})
    return moved, home


def refusal(client: Client) -> dict[str, Any] | None:
    """The next answer: None for a game made (``created``), else the error."""
    while True:
        message = client.read(WAIT)
        if message["type"] == "created":
            return None
        if message["type"] == "error":
            return message


def why(error: dict[str, Any] | None) -> str:
    if error is None:
        return f"none in {TRIES}"
    return str(error.get("params", {}).get("why") or error["code"])


def until_refused(pair: Pair, message: dict[str, Any], then: Callable[[Client], None] | None = None) -> tuple[int, str]:
    """``message`` sent on the two connections in turn, each answered (and ``then`` done with its
    connection) before the next, until one is refused."""
    for count in range(TRIES):
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


ROWS: dict[str, tuple[str, Callable[[Pair], tuple[int, str]]]] = {
    "starts": ("20 at once, then 60 an hour", starts),
    "games waiting": ("5", waiting_games),
    "games at once": ("5 waiting", games_at_once),
    "wrong codes": ("5 free, then one more looked up", wrong_codes),
    "challenges": ("2", challenges),
}


def measure(processes: int, row: str) -> tuple[int, str]:
    with tempfile.TemporaryDirectory() as folder, ServerProcess(Path(folder), "--processes", str(processes)) as server:
        pair = two_connections(server)
        try:
            return ROWS[row][1](pair)
        finally:
            for client in pair:
                client.close()


def table(counts: list[int]) -> str:
    lines = [
        "| cap of one network | one process allows | " + " | ".join(f"--processes {n}" for n in counts) + " |",
        "|---|---|" + "---:|" * len(counts),
    ]
    for row, (allowed, _measure) in ROWS.items():
        cells = []
        for processes in counts:
            count, refused = measure(processes, row)
            cells.append(f"{count} ({refused})")
        lines.append(f"| {row} | {allowed} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", default="1,2", help="the process counts, one column each (default 1,2)")
    args = parser.parse_args(argv)
    counts = [int(part) for part in args.processes.split(",")]
    began = time.monotonic()
    print(table(counts))
    print(
        f"\n(network {NETWORK}; each cell: let through before the first refusal, and its why; "
        f"{time.monotonic() - began:.0f} s)"
    )


if __name__ == "__main__":
    main()
