"""A deal's par on a server's pool: a ``ParJob`` on one local worker, in slices, as a server runs it.

    python benchmarks/pool_par.py                      deals 5 and 7 (catalogued: the value is checked)
    python benchmarks/pool_par.py --deals 5 --tiles 88 deal 5 after its biggest pairs down to 88 tiles

Each deal's par goes to a ``LocalPool`` of one worker without budgets, alone, as the server's lowest
kind of work with nothing else waiting; the wall seconds from the submission to the answer, the
nodes of the last slice's search, whether it is proved, and the value against the catalogue's par.
A par that is not proved within ``PAR_NODES`` is one the server says it could not prove.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from battle.atlas.catalogue import Catalogue  # noqa: E402 - after the checkout is on the path
from battle.players.local_pool import LocalPool  # noqa: E402
from battle.players.pool_jobs import PAR_NODES, PAR_SLICE_NODES, AnalysisResult, ParJob, position_data  # noqa: E402
from battle.players.pool_schedule import Refusal  # noqa: E402
from battle.rules.board import biggest_pair  # noqa: E402
from battle.rules.deal import deal  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="5,7", help="deal numbers, comma separated (default 5,7)")
    parser.add_argument("--tiles", type=int, default=108, help="take the biggest pair until this many are left")
    arguments = parser.parse_args()
    catalogue = Catalogue.load()
    print(f"par on a pool of one worker, at most {PAR_NODES:,} nodes each, slices of {PAR_SLICE_NODES:,}\n")
    print("| deal | tiles | seconds | proved | value | catalogue |")
    print("|---:|---:|---:|---|---:|---:|")
    with LocalPool(1, budget=None) as pool:
        if not pool.wait_ready(600):
            print("the worker's kernels did not load", file=sys.stderr)
            return 1
        for number in (int(text) for text in arguments.deals.split(",")):
            position = deal(number)
            while position.tiles_left() > arguments.tiles and position.has_moves():
                position.push(biggest_pair(position))
            started = time.monotonic()
            ticket = pool.submit(ParJob(position_data(position)), seat=f"par:{number}", address="127.0.0.1")
            if isinstance(ticket, Refusal):
                print(f"deal {number}: refused ({ticket.reason})", file=sys.stderr)
                return 1
            result = ticket.result(PAR_NODES / 100_000)
            seconds = time.monotonic() - started
            assert isinstance(result, AnalysisResult)
            par = catalogue.par(number) if arguments.tiles >= 108 else None
            known = "" if par is None else f"{par.value:+d}"
            print(
                f"| {number} | {position.tiles_left()} | {seconds:.1f} | {'yes' if result.exact else 'no'} "
                f"| {result.value:+d} | {known} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
