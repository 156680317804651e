"""The game server's own memory with its solver pool and without, as a Markdown table.

    python benchmarks/server_memory.py                      this tree: no workers, and the default (one per core)
    python benchmarks/server_memory.py --against 6c809a7    that revision's server first, then this tree's

Each row is ``mahjong-battle serve`` on 127.0.0.1 with a fresh database and ``--solver-workers N``
(``--workers``: 0 and ``default``, the flag left out). Once its workers have their kernels loaded
(``/stats``: ``solver_workers_ready``) and ``--settle`` seconds (5) have passed with nothing to do,
the server process's resident memory (``VmRSS`` from ``/proc``) is read: idle; then a game against
the solver at club whose first move is the solver's, and it is read again once that move has come
(the pool has been used). Beside them: whether the server process has numba, llvmlite or numpy
mapped (``/proc/PID/maps``), and the resident memory of its children (the workers and
``multiprocessing``'s resource tracker), which run beside it and hold the searches.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shlex
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the working tree's tests package (the client) and battle
sys.path.insert(0, str(Path(__file__).resolve().parent))  # other_tree

import online_attack  # noqa: E402

from tests.online.strangers import resident_mib  # noqa: E402
from tests.online_server import Client  # noqa: E402

READY_SECONDS = 300.0
"""The longest the workers get to load their kernels (a first compile on a loaded machine takes minutes)."""
WAIT = 60.0
SEARCH_LIBRARIES = re.compile(r"/(numba|llvmlite|numpy)(\.libs)?/")
TABLE_HEADER = (
    "| tree | --solver-workers | server RSS idle MiB | after a solver move MiB | numba in the server | "
    "children's RSS MiB |\n|---|---|---:|---:|---|---:|"
)


class Server(online_attack.Server):
    """The attack benchmark's ``serve`` of ``tree``, read through ``/stats`` until its workers are ready."""

    def stats(self) -> dict[str, str]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/stats", timeout=WAIT) as answer:
            lines = answer.read().decode().splitlines()
        return dict(line.split(" ", 1) for line in lines if " " in line)

    def wait_ready(self) -> None:
        """Back once every worker has its kernels loaded (at once without workers)."""
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            stats = self.stats()
            if stats.get("solver_workers_ready", "0") == stats.get("solver_workers", "0"):
                return
            time.sleep(0.5)
        raise SystemExit(f"the workers of {self.tree} did not load their kernels in {READY_SECONDS:.0f} s")


def search_mapped(pid: int) -> bool:
    """Whether process ``pid`` has a file of numba, llvmlite or numpy mapped."""
    maps = Path(f"/proc/{pid}/maps").read_text()
    return any(SEARCH_LIBRARIES.search(line) for line in maps.splitlines())


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def one_solver_move(server: Server) -> None:
    """A game against club whose first move is the solver's, until that move has come."""
    client = Client(f"ws://127.0.0.1:{server.port}")
    try:
        client.send({"type": "solver_game", "level": "club", "deal": {"number": 3}, "first": "joiner"})
        client.expect("solver_created", WAIT)
        client.expect("moved", WAIT)
    finally:
        client.close()


def row(tree: Path, label: str, workers: str, settle: float) -> str:
    count = None if workers == "default" else int(workers)
    with tempfile.TemporaryDirectory(prefix="server-memory-") as folder, Server(tree, Path(folder), count) as server:
        print(f"{label}, --solver-workers {workers}: pid {server.pid}", file=sys.stderr, flush=True)
        server.wait_ready()
        time.sleep(settle)
        idle = resident_mib(server.pid)
        after = "-"
        if workers != "0":
            one_solver_move(server)
            after = f"{resident_mib(server.pid):.1f}"
        mapped = "yes" if search_mapped(server.pid) else "no"
        others = sum(resident_mib(child) for child in children(server.pid))
    return f"| {label} | {workers} | {idle:.1f} | {after} | {mapped} | {others:.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", metavar="REV", help="also measure REV's server (a temporary worktree), first")
    parser.add_argument("--workers", default="0,default", help="--solver-workers of each row: 0,default (default)")
    parser.add_argument("--settle", type=float, default=5.0, help="idle seconds before the reading (default 5)")
    args = parser.parse_args()
    counts = args.workers.split(",")
    if not all(count == "default" or count.isdigit() for count in counts):
        parser.error(f"--workers: {args.workers!r} is not a list like 0,1,default")
    print(f"Command: `{shlex.join([sys.executable, *sys.argv])}`  ")
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, load average {load} at the start\n", flush=True)
    print(TABLE_HEADER, flush=True)
    with contextlib.ExitStack() as stack:
        trees: list[tuple[Path, str]] = []
        if args.against:
            from other_tree import checked_out, short_name

            trees.append((stack.enter_context(checked_out(args.against)), short_name(args.against)))
        trees.append((ROOT, "this tree"))
        for tree, label in trees:
            for workers in counts:
                print(row(tree, label, workers, args.settle), flush=True)


if __name__ == "__main__":
    main()
