"""Responsiveness of the window, printed as Markdown tables.

    python benchmarks/bench_ui.py            frame times while the solver thinks, and start-up

* Frame times: a game against the ``perfect`` level with the solver to move
  on a full deal (it thinks for its whole time budget). The loop is the real
  one's turns (``App.next_frame``: every frame at 60 fps when the window asks
  for one at once, else a wait of ``next_frame_in``), and each frame's own work
  (events, update, draw) is timed: 60 fps needs every frame's work under
  16.7 ms, and their sum a second is the share of a core the window takes from
  the search.
  ``--every-frame`` paces every frame at 60 fps, as the window did while the
  solver thought before it asked for 30, for a comparison in one run.
* Start-up: wall time from starting ``python`` to the first frame drawn, with a
  warm numba cache and with an empty one. The window draws its first frame
  before the solver is ever loaded, so the two should be close.

Runs headless (SDL's dummy video driver); a real display adds its own costs.
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FIRST_FRAME_SCRIPT = """
import time, os, sys
started = float(sys.argv[1])
from battle.ui.app import App
app = App((1200, 800), autosave=False)
app.step([], 1 / 60)
print(f"{time.time() - started:.3f}")
app.close()
"""


def frame_times(seconds: float, level: str, deal_number: int, every_frame: bool = False) -> list[float]:
    import pygame

    from battle.ui.app import FPS, App
    from battle.ui.match import new_match

    with tempfile.TemporaryDirectory() as home:
        os.environ["XDG_CONFIG_HOME"] = os.path.join(home, "config")
        os.environ["XDG_DATA_HOME"] = os.path.join(home, "data")
        app = App((1200, 800), autosave=False)
        app.start_match(new_match(deal_number, "solver", ("Bench", "Bench"), level, human_first=False))
        clock = pygame.time.Clock()
        durations: list[float] = []
        step = app.step

        def timed_step(*args: Any, **kwargs: Any) -> bool:
            began = time.perf_counter()
            try:
                return step(*args, **kwargs)
            finally:
                durations.append(time.perf_counter() - began)

        app.step = timed_step  # type: ignore[method-assign]
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            if every_frame:
                app.step(dt=clock.tick(FPS) / 1000)
            else:
                app.next_frame(clock)  # the window's own loop, waits and all
        app.close()
    return durations


def first_frame(cache_dir: str | None) -> float:
    env = dict(os.environ)
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = cache_dir
    with tempfile.TemporaryDirectory() as home:
        env["XDG_CONFIG_HOME"] = os.path.join(home, "config")
        env["XDG_DATA_HOME"] = os.path.join(home, "data")
        output = subprocess.run(
            [sys.executable, "-c", FIRST_FRAME_SCRIPT, repr(time.time())],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    return float(output.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=8.0, help="how long to measure frames (default 8)")
    parser.add_argument("--level", default="perfect", help="the thinking level (default perfect)")
    parser.add_argument("--deal", type=int, default=1, help="deal number (default 1)")
    parser.add_argument("--runs", type=int, default=3, help="start-up runs of each kind (default 3)")
    parser.add_argument(
        "--every-frame", action="store_true", help="draw every frame at 60 fps while the solver thinks, for comparison"
    )
    args = parser.parse_args()
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

    print("## Window responsiveness\n")
    print(f"Command: `{shlex.join([sys.executable, *sys.argv])}`  ")
    print(f"{os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d %H:%M')}, SDL dummy video driver\n")

    durations = frame_times(args.seconds, args.level, args.deal, args.every_frame)
    # The first frame renders every tile face at the window's size (cached
    # after that); it is start-up, reported on its own below.
    first_ms = durations[0] * 1000
    ms = sorted(d * 1000 for d in durations[1:])
    over = sum(1 for d in ms if d > 1000 / 60)
    print(f"Frames while the `{args.level}` solver thinks on deal {args.deal} ({args.seconds:.0f} s):\n")
    print("| frames | fps | median work ms | 99th pct ms | worst ms | frames over 16.7 ms | work ms a second |")
    print("|---|---|---|---|---|---|---|")
    fps = len(ms) / args.seconds
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    share = sum(ms) / args.seconds
    print(
        f"| {len(ms)} | {fps:.1f} | {statistics.median(ms):.2f} | {p99:.2f} | {ms[-1]:.2f} | {over} | {share:.0f} |\n"
    )
    print(f"The first frame of the game screen (renders and caches the tile faces) took {first_ms:.0f} ms.\n")

    warm = [first_frame(None) for _ in range(args.runs)]
    cold = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as cache:
            cold.append(first_frame(cache))
    print("Start-up to the first frame drawn (median of runs):\n")
    print("| cache | median s | runs |")
    print("|---|---|---|")
    print(f"| warm numba cache | {statistics.median(warm):.2f} | {', '.join(f'{t:.2f}' for t in warm)} |")
    print(f"| empty numba cache | {statistics.median(cold):.2f} | {', '.join(f'{t:.2f}' for t in cold)} |")


if __name__ == "__main__":
    main()
