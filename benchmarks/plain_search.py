"""Milliseconds a shallow level's move takes: plain Python against the kernel, a Markdown table.

    python benchmarks/plain_search.py                 8 deals, at 0, 10, 20 and 30 moves in
    python benchmarks/plain_search.py --deals 20
    python benchmarks/plain_search.py --deals 2 --levels expert,master

For each level that plain Python plays while the kernels compile (``PLAIN_LEVELS``, or those
named), its search at the level's depth on the same positions: numbered deals played by seeded
random moves to each stage; every move's value where the level chooses by the values (a
temperature), else the best moves. The kernel's figure is a fresh ``Engine`` per position (an
empty table, as a first move's), after the kernels are loaded; the column "same answers" counts
the positions where both gave every move the same value (or the same best moves and value).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from battle.players import LEVELS, PLAIN_LEVELS
from battle.rules.board import Position
from battle.rules.deal import deal
from solver.engine import Engine, prepare_kernels
from solver.limits import Limits
from solver.plain_search import plain_analysis

STAGES = (0, 10, 20, 30)


def positions(deals: int) -> list[Position]:
    rng = random.Random(13)
    found = []
    for number in range(1, deals + 1):
        for stage in STAGES:
            position = deal(number)
            for _ in range(stage):
                if position.is_over():
                    break
                position.push(rng.choice(position.legal_moves()))
            if not position.is_over():
                found.append(position.copy())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=8, help="numbered deals (default 8)")
    parser.add_argument(
        "--levels", default=",".join(PLAIN_LEVELS), help="comma-separated levels (default PLAIN_LEVELS)"
    )
    args = parser.parse_args()
    prepare_kernels()
    cases = positions(args.deals)
    print(f"{len(cases)} positions ({args.deals} deals at {', '.join(map(str, STAGES))} moves in)\n")
    print("| level | depth | plain median ms | plain max ms | kernel median ms | kernel max ms | same answers |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in args.levels.split(","):
        depth = LEVELS[name].depth
        every = LEVELS[name].temperature > 0
        assert depth is not None
        plain_ms, kernel_ms, same = [], [], 0
        for position in cases:
            began = time.perf_counter()
            plain = plain_analysis(position, depth, all_exact=every)
            plain_ms.append(1000 * (time.perf_counter() - began))
            engine = Engine(table_bits=16, threads=1)
            began = time.perf_counter()
            kernel = engine.search(position.copy(), Limits(depth=depth), all_exact=every)
            kernel_ms.append(1000 * (time.perf_counter() - began))
            if every:
                same += [(m.move, m.value) for m in plain.move_values] == [
                    (m.move, m.value) for m in kernel.move_values
                ]
            else:
                same += (plain.value, plain.best_moves) == (kernel.value, kernel.best_moves)
        print(
            f"| {name} | {depth} | {statistics.median(plain_ms):.1f} | {max(plain_ms):.1f} | "
            f"{statistics.median(kernel_ms):.1f} | {max(kernel_ms):.1f} | {same}/{len(cases)} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
