"""The solver's warm-up in the window, measured from a fresh start: a Markdown table.

    python benchmarks/warm_up.py                  cold (an empty NUMBA_CACHE_DIR) and warm runs
    python benchmarks/warm_up.py --waits 5,10     the player's first move after 5 s and 10 s
    python benchmarks/warm_up.py --waits 10 --runs 5   five cold starts of each kind, and their median
    python benchmarks/warm_up.py --kernels        what each kernel's first compile costs, in one process

Each run is a new process with the window on SDL's dummy driver and its own
``NUMBA_CACHE_DIR``: empty for "cold" (as after an install: the kernels compile), filled by
an earlier run for "warm". It measures

- the time from the window's start to "solver ready" (``app.solver.ready``: the engine built
  and the kernels loaded on the solver's thread);
- the frames drawn meanwhile at 60 fps: the first (the screen's first layout and fonts) and,
  of the others, the median, the 99th percentile and the longest (the drawing thread must
  not stall while the kernels compile in their child processes and load on the solver's thread);
- with ``--waits``: a game against the club level, the player's first move made W seconds
  after the window opened, and the time from that move to the solver's reply on the board
  (the reply's own search is part of it: about 0.5 s at the club level's first move).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN = """
import json, os, sys, time
started = time.monotonic()
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
from battle.ui.app import App
from battle.ui.match import new_match
wait = float(sys.argv[1])
app = App((1200, 800), autosave=False)
frames, ready_at, moved_at, replied_at = [], None, None, None
scene = None
if wait >= 0:
    scene = app.start_match(new_match(3, "solver", ("You", "Solver"), "club", human_first=True))
while time.monotonic() - started < 180:
    tick = time.monotonic()
    app.step(dt=1 / 60)
    frames.append(time.monotonic() - tick)
    now = time.monotonic() - started
    if ready_at is None and app.solver.ready:
        ready_at = now
    if scene is not None and moved_at is None and now >= wait:
        scene.mode.play(scene.position.legal_moves()[0])
        moved_at = now
    if scene is not None and moved_at is not None and scene.game.ply >= 2:
        replied_at = now
        break
    if scene is None and ready_at is not None:
        break
    time.sleep(max(0.0, 1 / 60 - (time.monotonic() - tick)))
print(json.dumps({"ready": ready_at, "moved": moved_at, "replied": replied_at, "frames": frames}))
"""


def run(cache: Path, wait: float) -> dict:
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(cache),
        "PYTHONPATH": str(ROOT),
        "XDG_DATA_HOME": str(cache / "data"),
        "XDG_CONFIG_HOME": str(cache / "config"),
    }
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(wait)], capture_output=True, text=True, env=env, timeout=600, cwd=ROOT
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def row(name: str, result: dict) -> str:
    """A table row; the first frame (the screen's first layout and fonts) has a column of its own."""
    first, rest = result["frames"][0], sorted(result["frames"][1:])
    p99 = rest[min(len(rest) - 1, int(0.99 * len(rest)))] * 1000
    reply = "" if result["replied"] is None else f"{result['replied'] - result['moved']:.2f}"
    return (
        f"| {name} | {result['ready']:.1f} | {len(rest) + 1} | {first * 1000:.0f} | "
        f"{statistics.median(rest) * 1000:.1f} | {p99:.1f} | {rest[-1] * 1000:.1f} | {reply} |"
    )


def cold_runs(name: str, wait: float, runs: int) -> None:
    """``runs`` cold starts (each with a new empty cache), a row each and one of their medians."""
    results = [run(Path(tempfile.mkdtemp(prefix="cold-cache-")), wait) for _ in range(runs)]
    for number, result in enumerate(results, 1):
        print(row(f"{name}, run {number}", result), flush=True)
    if runs > 1:
        ready = statistics.median(result["ready"] for result in results)
        replies = [result["replied"] - result["moved"] for result in results if result["replied"] is not None]
        reply = f"{statistics.median(replies):.2f} (worst {max(replies):.2f})" if replies else ""
        print(
            f"| {name}, median of {runs} | {ready:.1f} (worst {max(r['ready'] for r in results):.1f}) "
            f"| | | | | | {reply} |",
            flush=True,
        )


KERNELS = """
import collections, json, sys, time
from numba.core import event
own, count, stack = collections.Counter(), collections.Counter(), []


class Timer(event.Listener):
    def on_start(self, ev):
        stack.append([time.perf_counter(), 0.0])

    def on_end(self, ev):
        began, inner = stack.pop()
        spent = time.perf_counter() - began
        if stack:
            stack[-1][1] += spent
        name = getattr(getattr((ev.data or {}).get("dispatcher"), "py_func", None), "__name__", "?")
        own[name] += spent - inner
        count[name] += 1


event.register("numba:compile", Timer())
began = time.perf_counter()
from solver.engine import prepare_kernels
prepare_kernels()
print(json.dumps({"total": time.perf_counter() - began, "own": own, "count": count}))
"""


def kernel_table() -> None:
    """``prepare_kernels`` in a new process on an empty cache: each kernel's compile time (its own,
    without the kernels it calls) and how many signatures it was compiled for."""
    cache = Path(tempfile.mkdtemp(prefix="cold-cache-"))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", KERNELS], capture_output=True, text=True, env=env, timeout=600, cwd=ROOT
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    result = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"prepare_kernels on an empty cache: {result['total']:.1f} s, {sum(result['count'].values())} compiles\n")
    print("| kernel | own compile s | signatures |")
    print("|---|---:|---:|")
    for name, seconds in sorted(result["own"].items(), key=lambda item: -item[1]):
        print(f"| {name} | {seconds:.2f} | {result['count'][name]} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--waits", default="", help="comma-separated seconds before the player's first move")
    parser.add_argument("--runs", type=int, default=1, help="cold starts of each kind (default 1), and their median")
    parser.add_argument("--kernels", action="store_true", help="each kernel's compile time instead")
    args = parser.parse_args()
    if args.kernels:
        kernel_table()
        return
    waits = [float(w) for w in args.waits.split(",") if w.strip()]
    print(
        "| run | solver ready s | frames | first frame ms | frame median ms | frame p99 ms | "
        "longest later frame ms | reply after the move s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    warm_cache = Path(tempfile.mkdtemp(prefix="warm-cache-"))
    cold_runs("cold cache, title only", -1, args.runs)
    run(warm_cache, -1)  # fills the cache
    print(row("warm cache, title only", run(warm_cache, -1)), flush=True)
    for wait in waits:
        cold_runs(f"cold cache, first move after {wait:g} s", wait, args.runs)
        print(row(f"warm cache, first move after {wait:g} s", run(warm_cache, wait)), flush=True)


if __name__ == "__main__":
    main()
