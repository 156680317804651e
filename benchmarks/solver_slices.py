"""What a pool's slices cost a search: one search against the same budget in slices, on one engine.

    python benchmarks/solver_slices.py                       deal 7 at 108, 88, 76 and 64 tiles
    python benchmarks/solver_slices.py --nodes 40000000 --slice 250000 --deal 9

A pool worker runs a long unit in slices of ``SLICE_NODES`` (``battle.players.pool.jobs``): each
slice searches the position again, on the table the last one left. For each position of a game of
the deal (a fixed rule picks the moves), this searches every move's value once within ``--nodes``,
then in slices of ``--slice`` nodes on a fresh engine of the same size, as a worker does, with a
slice of another deal's search between two of them on a second engine (a worker's other table).
Prints a Markdown table: the depth each reached, whether it proved the value, the CPU seconds
(``time.process_time``) and their ratio, measured in one run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from battle.players import prepare_kernels  # noqa: E402 - after the checkout is on the path
from battle.players.pool.jobs import SLICE_NODES  # noqa: E402
from battle.rules.board import Position  # noqa: E402
from battle.rules.deal import deal  # noqa: E402
from solver.engine import Engine  # noqa: E402
from solver.limits import Limits  # noqa: E402
from solver.results import Analysis  # noqa: E402

TABLE_BITS = 22
"""64 MiB, a pool worker's table."""


def after(number: int, plies: int) -> Position:
    """Deal ``number`` after ``plies`` moves, each the (5 x ply)-th of the sorted legal moves."""
    position = deal(number)
    for ply in range(plies):
        moves = sorted(position.legal_moves())
        if not moves:
            break
        position.push(moves[(ply * 5) % len(moves)])
    return position


def in_slices(position: Position, nodes: int, slice_nodes: int, other: Position) -> tuple[Analysis, int, float]:
    """Every move's value within ``nodes`` in slices, another deal's slice between two of them: the
    deepest answer, the slices, and their CPU seconds (the other deal's not counted)."""
    engine, beside = Engine(TABLE_BITS), Engine(TABLE_BITS)
    spent, runs, best, cpu = 0, 0, None, 0.0
    while spent < nodes:
        given = min(slice_nodes, nodes - spent)
        started = time.process_time()
        found = engine.search(position.copy(), Limits(nodes=given), all_exact=True)
        cpu += time.process_time() - started
        spent, runs = spent + given, runs + 1
        if best is None or found.depth >= best.depth:
            best = found
        if best.exact:
            break
        beside.search(other.copy(), Limits(nodes=slice_nodes), all_exact=True)
    assert best is not None
    return best, runs, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=7)
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 10, 16, 22])
    parser.add_argument("--nodes", type=int, default=20_000_000, help="each search's budget")
    parser.add_argument("--slice", type=int, default=SLICE_NODES, help="nodes a slice")
    arguments = parser.parse_args()
    prepare_kernels()
    other = deal(arguments.deal + 1)
    print(f"deal {arguments.deal}, {arguments.nodes:,} nodes a search, slices of {arguments.slice:,}\n")
    print("| tiles | one search: depth, exact, CPU s | in slices: runs, depth, exact, CPU s | CPU ratio |")
    print("|---:|---|---|---:|")
    for plies in arguments.plies:
        position = after(arguments.deal, plies)
        started = time.process_time()
        whole = Engine(TABLE_BITS).search(position.copy(), Limits(nodes=arguments.nodes), all_exact=True)
        whole_cpu = time.process_time() - started
        sliced, runs, sliced_cpu = in_slices(position, arguments.nodes, arguments.slice, other)
        print(
            f"| {position.tiles_left()} | {whole.depth}, {whole.exact}, {whole_cpu:.2f} "
            f"| {runs}, {sliced.depth}, {sliced.exact}, {sliced_cpu:.2f} | {sliced_cpu / whole_cpu:.2f} |"
        )


if __name__ == "__main__":
    main()
