"""What finished games and their reviews cost the server's database, and what deleting old ones costs.

    python benchmarks/online_storage.py                         20 games of each kind, 5 reviewed (about 2 min)
    python benchmarks/online_storage.py --games 50 --reviews 10

The real server (``mahjong-battle serve`` with one solver worker, the caps on one network's games
lifted: every client connects from 127.0.0.1) on 127.0.0.1 with a fresh database; two websockets
clients play each game. The file's size is what SQLite counts (``page_count * page_size`` through a
reader's connection, so the WAL's committed pages are in it), read before and after each kind's
games and divided by their number: what one game adds to the file, its indexes included.

- ``aborted``: created, joined, called off before any move;
- ``resigned``: two moves, then a resignation;
- ``full``: played to the end by the first legal move each turn (deal 198: 54 moves, the most a
  game has);
- ``reviewed``: a full game, then its review, waited for; its solver CPU is ``/stats``'s.

Then the deletion ``serve --keep-days`` makes (``old_games``): ``--batch`` (200) full games stored
directly with the server's store, deleted in one write with the store's full sync, ``--repeat``
times; the median. The last lines combine the figures with the caps of one network
(``ServerLimits``, the solver's budget) into the worst case a day.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree's battle and tests packages

from battle.online.protocol.codes import hash_token, new_token  # noqa: E402
from battle.online.protocol.messages import NumberedDeal  # noqa: E402
from battle.online.server.limits.server import ServerLimits  # noqa: E402
from battle.online.server.rooms.old_games import plan_delete  # noqa: E402
from battle.online.server.rooms.room import Options, Room, plan_start  # noqa: E402
from battle.online.server.rooms.store import GameStore  # noqa: E402
from battle.online.server.solving.solver_time import DEFAULT_BURST, DEFAULT_RATE  # noqa: E402
from battle.rules import deal, move_name, parse_move  # noqa: E402
from tests.online_server import Client, ServerProcess  # noqa: E402

FULL_DEAL = 198
"""A deal the first legal move each turn plays to 54 moves."""
WAIT = 120.0
"""The longest one answer is waited for (a review of 54 moves on a loaded machine)."""


def file_bytes(database: Path) -> int:
    with sqlite3.connect(database) as connection:
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        size = connection.execute("PRAGMA page_size").fetchone()[0]
    return int(pages) * int(size)


def table_bytes(database: Path, sql: str) -> int:
    with sqlite3.connect(database) as connection:
        return int(connection.execute(sql).fetchone()[0] or 0)


def started(url: str, number: int) -> tuple[Client, Client, dict[str, Any]]:
    host = Client(url, "Ann")
    host.send({"type": "create", "deal": {"number": number}, "first": "creator", "name": "Ann"})
    host.expect("created", WAIT)
    host.expect("state", WAIT)
    guest = Client(url, "Bob")
    guest.send({"type": "join", "code": host.seen[-2]["invite"], "name": "Bob"})
    guest.expect("joined", WAIT)
    guest.expect("state", WAIT)
    state = host.expect("state", WAIT)
    return host, guest, state


def play(host: Client, guest: Client, state: dict[str, Any], moves: int) -> int:
    """Up to ``moves`` moves, the first legal one each turn; the moves played."""
    position = deal(state["deal"])
    players = {state["you"]: host, 3 - state["you"]: guest}
    played = 0
    while played < moves and not position.is_over():
        mover = players[position.to_move]
        move = move_name(position.legal_moves()[0])
        mover.send({"type": "move", "move": move, "id": f"m{played}"})
        mover.expect("ack", WAIT)
        players[3 - position.to_move].expect("moved", WAIT)
        position.push(parse_move(move))
        played += 1
    return played


def finished(client: Client) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT
    while True:
        state = client.expect("state", max(0.01, deadline - time.monotonic()))
        if state["status"] == "finished":
            return state


def review_cpu(port: int) -> float:
    from tests.online.strangers import head_and_body, http, request

    _, _, body = head_and_body(http(port, request("GET", "/stats")))
    found = re.search(r"^solver_cpu_seconds_review (\S+)$", body.decode(), re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def measure_served(folder: Path, games: int, reviews: int) -> dict[str, float]:
    """Bytes a game of each kind adds to the file, a review's report, and a review's solver CPU."""
    flags = ("--solver-workers", "1", "--solver-budget", "86400", "--max-games-per-address", "100000")
    flags += ("--creates-per-hour", "1000000")
    database = folder / "games.sqlite3"
    figures: dict[str, float] = {}
    with ServerProcess(folder, *flags) as server:
        kinds = {"aborted": 0, "resigned": 2, "full": 54}
        for kind, moves in kinds.items():
            before = file_bytes(database)
            for _ in range(games):
                host, guest, state = started(server.url, FULL_DEAL)
                if moves == 0:
                    host.send({"type": "abort"})
                elif play(host, guest, state, moves) == moves and moves < 54:
                    guest.send({"type": "resign"})
                finished(host)
                host.close()
                guest.close()
            figures[kind] = (file_bytes(database) - before) / games
        before, cpu_before = file_bytes(database), review_cpu(server.port)
        for _ in range(reviews):
            host, guest, state = started(server.url, FULL_DEAL)
            play(host, guest, state, 54)
            finished(host)
            host.send({"type": "review"})
            while host.expect("review_result", WAIT)["status"] == "queued":
                pass
            host.close()
            guest.close()
        figures["reviewed"] = (file_bytes(database) - before) / reviews
        figures["review_cpu"] = (review_cpu(server.port) - cpu_before) / reviews
        figures["report"] = table_bytes(database, "SELECT avg(length(report)) FROM reviews WHERE status = 'done'")
    return figures


def measure_deletion(folder: Path, batch: int, repeat: int) -> float:
    """The median milliseconds one write deleting ``batch`` full games takes (its sync included)."""
    times = []
    for round_number in range(repeat):
        with GameStore(folder / f"delete-{round_number}.sqlite3") as store:
            ids = []
            for number in range(batch):
                invite, watch = store.fresh_codes()
                room = Room.create(
                    game_id=f"g{number}",
                    invite=invite,
                    watch=watch,
                    plan=plan_start(NumberedDeal(FULL_DEAL), "creator"),
                    options=Options(),
                    creator_name="Ann",
                    creator_token_hash=hash_token(new_token()),
                    now=1.0,
                )
                room.join("Bob", hash_token(new_token()), 2.0)
                while room.status.value == "playing":
                    seat = room.to_move
                    assert seat is not None
                    room.play(seat, move_name(room.game.position.legal_moves()[0]), f"m{room.ply}", 3.0)
                store.create(room)
                ids.append(room.game_id)
            began = time.perf_counter()
            store.commit(plan_delete(ids))
            times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games of each kind (default 20)")
    parser.add_argument("--reviews", type=int, default=5, help="reviewed full games (default 5)")
    parser.add_argument("--batch", type=int, default=200, help="games one deletion write takes (default 200)")
    parser.add_argument("--repeat", type=int, default=3, help="deletions timed (default 3)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="online-storage-") as folder:
        served = measure_served(Path(folder), args.games, args.reviews)
        deletion = measure_deletion(Path(folder), args.batch, args.repeat)
    print(f"{args.games} games of each kind, {args.reviews} reviewed, on 127.0.0.1\n")
    print("| what | bytes of the file each |")
    print("|---|---:|")
    for kind in ("aborted", "resigned", "full", "reviewed"):
        print(f"| {kind} game | {served[kind]:,.0f} |")
    print(f"| a review's report alone | {served['report']:,.0f} |")
    print(f"\na review of 54 moves: {served['review_cpu']:.2f} s of solver CPU")
    print(f"deleting {args.batch} full games in one write: {deletion:.1f} ms (median of {args.repeat})")
    limits = ServerLimits()
    starts = limits.create_burst + limits.creates_per_hour * 24
    budget = DEFAULT_BURST + DEFAULT_RATE * 86400
    reviewed = min(starts, budget / served["review_cpu"]) if served["review_cpu"] > 0 else starts
    worst = starts * served["full"] + reviewed * (served["reviewed"] - served["full"])
    print(
        f"\nworst case a day for one network: {starts:,.0f} games started ({limits.create_burst} at once, "
        f"{limits.creates_per_hour:g} an hour), each a full game: {starts * served['full'] / 1e6:.1f} MB; "
        f"{reviewed:,.0f} of them reviewed (the solver budget's {budget:,.0f} s a day): "
        f"{worst / 1e6:.1f} MB in all, {worst * limits.keep_seconds / 86400 / 1e9:.2f} GB kept over "
        f"{limits.keep_seconds / 86400:g} days"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
