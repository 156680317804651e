"""A deal's par on a server's pool: a ``ParJob`` on one local worker, in slices, as a server runs it.

    python benchmarks/pool_par.py                      deals 5 and 7 (catalogued: the value is checked)
    python benchmarks/pool_par.py --deals 5 --tiles 88 deal 5 after its biggest pairs down to 88 tiles
    python benchmarks/pool_par.py --compare --deals 2,4,7,8 --tiles 88
                                                       the two ways of slicing a search, in one run

Each deal's par goes to a ``LocalPool`` of one worker without budgets, alone, as the server's lowest
kind of work with nothing else waiting; the wall seconds from the submission to the answer, when the
page could first say the least the par can be (``Standing.at_least``, looked at every half second,
and its value), whether it is proved, and the value against the catalogue's par. A par that is not
proved within ``PAR_NODES`` is one the server says it could not prove.

``--compare`` searches each position on one thread with a par's table, slice after slice of
``PAR_SLICE_NODES`` until it is proved, both ways: each slice deepening step by step under a node
limit (``Limits.nodes``), and each going straight to the exact search, stopped after its nodes
(``Limits.stop_after_nodes``, how a par's slices run). Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from battle.atlas.catalogue import Catalogue  # noqa: E402 - after the checkout is on the path
from battle.atlas.solve_deal import start_position  # noqa: E402
from battle.players import Limits, Opponent  # noqa: E402
from battle.players.pool.jobs import (  # noqa: E402
    PAR_MEGABYTES,
    PAR_NODES,
    PAR_SLICE_NODES,
    AnalysisResult,
    ParJob,
    position_data,
)
from battle.players.pool.local_workers import LocalPool  # noqa: E402
from battle.players.pool.schedule import Refusal  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="5,7", help="deal numbers, comma separated (default 5,7)")
    parser.add_argument("--tiles", type=int, default=108, help="take the biggest pair until this many are left")
    parser.add_argument("--compare", action="store_true", help="the two ways of slicing, on one thread, no pool")
    arguments = parser.parse_args()
    numbers = [int(text) for text in arguments.deals.split(",")]
    if arguments.compare:
        return compare(numbers, arguments.tiles)
    catalogue = Catalogue.load()
    print(f"par on a pool of one worker, at most {PAR_NODES:,} nodes each, slices of {PAR_SLICE_NODES:,}\n")
    print("| deal | tiles | seconds | at least first said | proved | value | catalogue |")
    print("|---:|---:|---:|---|---|---:|---:|")
    with LocalPool(1, budget=None) as pool:
        if not pool.wait_ready(600):
            print("the worker's kernels did not load", file=sys.stderr)
            return 1
        for number in numbers:
            position = start_position(number, arguments.tiles)
            started = time.monotonic()
            ticket = pool.submit(ParJob(position_data(position)), seat=f"par:{number}", address="127.0.0.1")
            if isinstance(ticket, Refusal):
                print(f"deal {number}: refused ({ticket.reason})", file=sys.stderr)
                return 1
            first_said = ""
            while not ticket.future.done():
                standing = ticket.standing()
                if not first_said and standing is not None and standing.at_least is not None:
                    first_said = f"{time.monotonic() - started:.1f} s: {standing.at_least:+d}"
                time.sleep(0.5)
            result = ticket.result(PAR_NODES / 100_000)
            seconds = time.monotonic() - started
            assert isinstance(result, AnalysisResult)
            par = catalogue.par(number) if arguments.tiles >= 108 else None
            known = "" if par is None else f"{par.value:+d}"
            print(
                f"| {number} | {position.tiles_left()} | {seconds:.1f} | {first_said or 'never'} "
                f"| {'yes' if result.exact else 'no'} | {result.value:+d} | {known} |",
                flush=True,
            )
    return 0


def compare(numbers: list[int], tiles: int) -> int:
    """Each position solved slice by slice both ways, on a fresh table each time: the nodes and seconds."""
    print(f"slices of {PAR_SLICE_NODES:,} nodes, one thread, {PAR_MEGABYTES} MiB\n")
    print("| deal | tiles | slices deepening | nodes | seconds | slices straight | nodes | seconds | value |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for number in numbers:
        position = start_position(number, tiles)
        row = [str(number), str(position.tiles_left())]
        values = []
        for limits in (Limits(nodes=PAR_SLICE_NODES), Limits(stop_after_nodes=PAR_SLICE_NODES)):
            searcher = Opponent(megabytes=PAR_MEGABYTES, threads=1).open()
            started, nodes, slices = time.perf_counter(), 0, 0
            analysis = None
            while (analysis is None or not analysis.exact) and nodes < PAR_NODES:
                analysis = searcher.search(position, limits)
                nodes += analysis.nodes
                slices += 1
            assert analysis is not None
            values.append(f"{analysis.value:+d}" if analysis.exact else "unproved")
            row += [str(slices), f"{nodes / 1e6:.1f} M", f"{time.perf_counter() - started:.1f}"]
        print(f"| {' | '.join(row)} | {' = '.join(values)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
