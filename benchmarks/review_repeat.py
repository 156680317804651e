"""The same review twice, the second on a loaded machine: its times, and whether the grades agree.

    python benchmarks/review_repeat.py                  deal 5, --time 1, one burner per core
    python benchmarks/review_repeat.py --deal 7 --time 2 --burners 4

A whole game of the deal (moves picked by a fixed rule, so some are poor) is written to a
record, then ``python -m battle review --time S --json --quiet`` runs on it twice as a user's
shell would: once on the machine as it is, once beside ``--burners`` processes that each spin
a core. A review's budget is counted in nodes on one thread, so the second run takes longer
and must grade every move the same. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from battle.rules.game import Game  # noqa: E402 - after the checkout is on the path


def played_game(deal_number: int) -> Game:
    """A whole game of the deal, each move the (7 x turn)-th of the sorted legal moves."""
    game = Game.new(deal_number, "Alice", "Bob")
    turn = 0
    while not game.position.is_over():
        moves = sorted(game.position.legal_moves())
        game.play(moves[(turn * 7) % len(moves)])
        turn += 1
    return game


def review(record: Path, seconds: float) -> tuple[float, dict]:
    """Wall seconds of one review process and its JSON."""
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "battle", "review", "--time", f"{seconds:g}", "--json", "--quiet", str(record)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    return time.monotonic() - started, json.loads(done.stdout)


def grades(data: dict) -> list[tuple]:
    return [
        (move["move"], move["value"], move["bound"], move["loss"], move["class"], move["exact"], move["depth"])
        for move in data["moves"]
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=5)
    parser.add_argument("--time", type=float, default=1.0, help="review --time S (S million nodes a move)")
    parser.add_argument("--burners", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "game.mbg"
        record.write_text(played_game(args.deal).to_text())
        print("warming the kernels' cache...", file=sys.stderr)
        subprocess.run(
            [sys.executable, "-m", "battle", "solve", "--depth", "2", "--quiet", str(record)],
            capture_output=True,
            cwd=ROOT,
            check=True,
        )
        as_is, first = review(record, args.time)
        burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.burners)]
        try:
            loaded, second = review(record, args.time)
        finally:
            for burner in burners:
                burner.kill()
                burner.wait()
    moves = len(first["moves"])
    estimates = sum(not move["exact"] for move in first["moves"])
    print(
        f"deal {args.deal}, {moves} moves, review --time {args.time:g} ({first['nodes_per_move']:,} nodes a move), "
        f"{estimates} moves graded as estimates, {os.cpu_count()} cores\n"
    )
    print("| run | seconds | accuracy (players 1, 2) |")
    print("|---|---:|---|")
    runs = (("as the machine is", as_is, first), (f"beside {args.burners} burners", loaded, second))
    for name, seconds, data in runs:
        accuracy = ", ".join(f"{player['accuracy']:g}%" for player in data["summary"])
        print(f"| {name} | {seconds:.1f} | {accuracy} |")
    same = grades(first) == grades(second)
    print(f"\nevery move graded the same: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
