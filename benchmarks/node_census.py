"""Where a search's nodes go: a census by node type, by points, by predicted type and by margin.

Runs only with ``benchmarks/node_census.patch`` applied (it adds the counters to the
kernel; they are not in the shipped kernel, which they would slow down a little):

    git apply benchmarks/node_census.patch
    NUMBA_CACHE_DIR=/tmp/census-cache python benchmarks/node_census.py --deal 888598
    git apply -R benchmarks/node_census.patch

One thread, so the counts are deterministic. The standing census of deal 888598 is in
benchmarks/README.md, what it led to in docs/solver-notes.md ("Where the nodes go").
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent.parent), str(Path(__file__).resolve().parent)]

from bench_solver import warm_engine  # noqa: E402

from battle.rules.deal import deal  # noqa: E402
from solver import _search as k  # noqa: E402

COUNTS = {
    6: "entered, cut by the children's entries (ETC)",
    30: "  of which a lower bound reached beta",
    31: "    the table move's child alone proves it",
    32: "    a killer's child alone proves it",
    33: "    either of those",
    7: "entered, answered by its own entry",
    8: "expanded (moves searched)",
    9: "  with a table move",
    10: "  failed low (all-nodes)",
    11: "    their children (searched or answered)",
    12: "  cut by the first move searched",
    13: "    that move the table's",
    14: "  cut by a later move",
    15: "    moves searched before those cuts",
}


def _row(label: str, counts: np.ndarray) -> str:
    """One line of a table: the label in 19 columns, then each count right-aligned in 9."""
    return f"{label:19s}: " + " ".join(f"{int(x):>9,}" for x in counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=888598, help="complete deal to solve from its first move")
    parser.add_argument("--table-bits", type=int, default=27, help="log2 of the table's entries")
    args = parser.parse_args()
    if k.COUNTERS < 128:
        parser.error("the census counters are missing: git apply benchmarks/node_census.patch first")
    engine = warm_engine(args.table_bits, 1)
    started = time.perf_counter()
    analysis = engine.search(deal(args.deal))
    seconds = time.perf_counter() - started
    c = engine.counters
    print(f"deal {args.deal}: value {analysis.value:+d}, {analysis.nodes:,} nodes entered, {seconds:.1f} s")
    for index, name in COUNTS.items():
        print(f"{name:48s} {int(c[index]):>14,}")
    buckets = [f"{20 * i}-{20 * i + 19}" for i in range(13)] + ["260+"]
    print("points on the board:", " ".join(f"{b:>9s}" for b in buckets))
    print(_row("expanded", c[16:30]))
    print(_row("failed low", c[48:62]))
    margins = " ".join(f"{m:>9d}" for m in range(15)) + "      15+"
    print("nodes of 40-119 points, by how far their result fell outside the window (fail-soft):")
    print("margin             :", margins)
    print(_row("failed low (a - r)", c[64:80]))
    print(_row("cut (r - b)", c[80:96]))
    print(
        f"expanded again (an entry that did not answer the window): {int(c[99]):,}; its bounds:"
        f" both {int(c[100]):,}, upper only {int(c[101]):,}, lower only {int(c[102]):,}"
    )
    print("how far the entry's bound was from the window, in fours (0-3 ... 12+):")
    print(_row("upper only, u - a", c[104:108]))
    print(_row("lower only, b - l", c[108:112]))
    print("predicted type     :        PV       ALL       CUT")
    print(_row("expanded", c[40:43]))
    print(_row("failed low", c[44:47]))


if __name__ == "__main__":
    main()
