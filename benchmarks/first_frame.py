"""Time from the window's process start to its first drawn frame, printed as a Markdown table.

    python benchmarks/first_frame.py                 quiet machine, 3 runs of each way
    python benchmarks/first_frame.py --busy 2        with 2 busy-looping processes beside it

Each run starts ``python -m battle`` (the real entry point, the same imports) under SDL's
dummy video driver in a private home, with a hook on ``pygame.display.flip`` that notes the
time of the first flip and of the first flip drawn by the ``App`` (the title), then closes
the window. Two ways, alternating so the machine's load falls on both alike:

- "early frame": as shipped, ``battle.ui.first_frame`` draws before the heavy imports;
- "title only": the early frame is skipped, so the first frame is the title's, after
  pygame_gui, numpy and the door to the solver are imported (the window is black until then).

The solver's kernels come from numba's cache as the user's would (run the game once first,
so the cache is warm: a cold cache compiles in child processes and does not delay the frame).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
import pygame
import battle.ui.first_frame as first_frame

if sys.argv[1] == "title only":
    from battle.ui.files.settings import load_settings
    first_frame.show_first_frame = lambda requested: first_frame.FirstFrame(*load_settings())
real_flip = pygame.display.flip
flips = {}

def flip():
    real_flip()
    now = time.time()
    flips.setdefault("first", now)
    if "battle.ui.app" in sys.modules and "title" not in flips:
        flips["title"] = now
        print(json.dumps(flips), file=sys.stderr, flush=True)
        pygame.event.post(pygame.event.Event(pygame.QUIT))

pygame.display.flip = flip
from battle.cli import entry_point
sys.argv = ["mahjong-battle"]
entry_point()
"""

WAYS = ("early frame", "title only")


def run_once(way: str, home: Path) -> tuple[float, float]:
    """Seconds from the process start to its first frame and to the title's."""
    env = dict(
        os.environ,
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        MAHJONG_BATTLE_SIZE="1200x800",
    )
    started = time.time()
    done = subprocess.run(
        [sys.executable, "-c", CHILD, way], env=env, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True
    )
    flips = json.loads(done.stderr.strip().splitlines()[-1])
    return flips["first"] - started, flips["title"] - started


def busy_processes(count: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each way (default 3); the median is shown")
    parser.add_argument("--busy", type=int, default=0, help="busy-looping processes beside it (default 0)")
    args = parser.parse_args()
    load = busy_processes(args.busy)
    try:
        times: dict[str, list[tuple[float, float]]] = {way: [] for way in WAYS}
        with tempfile.TemporaryDirectory() as home:
            for _ in range(args.runs):
                for way in WAYS:
                    times[way].append(run_once(way, Path(home)))
    finally:
        for process in load:
            process.kill()
            process.wait()
    print(f"{args.runs} runs each, {args.busy} busy processes beside, medians (s from process start)\n")
    print("| way | first frame | title drawn |")
    print("|---|---:|---:|")
    for way in WAYS:
        first = statistics.median(t[0] for t in times[way])
        title = statistics.median(t[1] for t in times[way])
        print(f"| {way} | {first:.2f} | {title:.2f} |")


if __name__ == "__main__":
    main()
