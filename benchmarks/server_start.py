"""What a start of ``mahjong-battle serve`` costs, by process count, as a Markdown table.

    python benchmarks/server_start.py                          this tree, --processes 1, 2 and 4
    python benchmarks/server_start.py --against 389b11e        that revision first, then this tree

Each run is ``serve`` on 127.0.0.1 with a fresh database and no solver (``--solver-workers 0``, a
friends' server, as most test servers are) until it has printed its lines (the last one: how many
game processes it runs); then the CPU time of every process of its tree (user and system, from
``/proc``), their proportional memory (PSS: a page shared by N processes counts 1/N in each) and
the wall time to that line are read, and the server is stopped with SIGTERM. The rows show the
median of ``--runs`` runs (5). The trees run in turn within each round, so a load that comes and
goes falls on both alike.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))  # other_tree

from other_tree import checked_out, short_name  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LINE_SECONDS = 120.0
"""The longest a start may take to print its lines (a bound against a hang, not a figure)."""


def one_start(tree: Path, processes: int) -> tuple[float, float, float]:
    """Seconds to the server's last line, CPU seconds of its tree by then, and its tree's PSS in MiB."""
    with tempfile.TemporaryDirectory(prefix="server-start-") as folder:
        begun = time.perf_counter()
        server = subprocess.Popen(
            [sys.executable, "-m", "battle", "serve", "--port", "0", "--db", f"{folder}/games.sqlite3"]
            + ["--solver-workers", "0", "--processes", str(processes)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=tree,
            env={**os.environ, "PYTHONPATH": str(tree)},
        )
        try:
            assert server.stdout is not None
            lines = 2 if processes == 1 else 3
            for _ in range(lines):
                if not server.stdout.readline():
                    raise SystemExit(f"the server of {tree} ended before its lines")
                if time.perf_counter() - begun > LINE_SECONDS:
                    raise SystemExit(f"the server of {tree} took over {LINE_SECONDS:g} s to start")
            ready = time.perf_counter() - begun
            cpu = pss = 0.0
            top = psutil.Process(server.pid)
            for process in [top, *top.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):
                    times = process.cpu_times()
                    cpu += times.user + times.system
                    pss += process.memory_full_info().pss / 2**20
            return ready, cpu, pss
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", default="1,2,4", help="process counts, comma-separated (default 1,2,4)")
    parser.add_argument("--runs", type=int, default=5, help="starts per row (default 5)")
    parser.add_argument("--against", metavar="REV", help="a revision to measure first, beside this tree")
    args = parser.parse_args()
    counts = [int(count) for count in args.processes.split(",")]
    with contextlib.ExitStack() as stack:
        trees = [("this tree", ROOT)]
        if args.against:
            trees.insert(0, (short_name(args.against), stack.enter_context(checked_out(args.against))))
        figures: dict[tuple[str, int], list[tuple[float, float, float]]] = {}
        for _round in range(args.runs):
            for count in counts:
                for name, tree in trees:
                    figures.setdefault((name, count), []).append(one_start(tree, count))
    print(f"{args.runs} starts a row, medians; {os.cpu_count()} cores")
    print()
    print("| tree | --processes | to its last line | CPU of its processes | their PSS |")
    print("|---|---:|---:|---:|---:|")
    for count in counts:
        for name, _tree in trees:
            rows = figures[(name, count)]
            ready, cpu, pss = (statistics.median(row[column] for row in rows) for column in range(3))
            print(f"| {name} | {count} | {ready * 1000:.0f} ms | {cpu:.2f} s | {pss:.0f} MiB |")


if __name__ == "__main__":
    main()
