"""The solver's warm-up in the window, measured from a fresh start: a Markdown table.

    python benchmarks/warm_up.py                  cold (an empty NUMBA_CACHE_DIR) and warm runs
    python benchmarks/warm_up.py --waits 5,10     the player's first move after 5 s and 10 s

Each run is a new process with the window on SDL's dummy driver and its own
``NUMBA_CACHE_DIR``: empty for "cold" (as after an install: the kernels compile), filled by
an earlier run for "warm". It measures

- the time from the window's start to "solver ready" (``app.solver.ready``: the engine built
  and the kernels loaded on the solver's thread);
- the frames drawn meanwhile at 60 fps: the longest and the 99th percentile (the drawing
  thread must not stall while the kernels compile on the other thread);
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
from battle.ui.play.match import new_match
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
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT),
           "XDG_DATA_HOME": str(cache / "data"), "XDG_CONFIG_HOME": str(cache / "config")}
    done = subprocess.run([sys.executable, "-c", RUN, str(wait)], capture_output=True, text=True, env=env,
                          timeout=600, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def row(name: str, result: dict) -> str:
    frames = sorted(result["frames"])
    p99 = frames[min(len(frames) - 1, int(0.99 * len(frames)))] * 1000
    reply = "" if result["replied"] is None else f"{result['replied'] - result['moved']:.2f}"
    return (f"| {name} | {result['ready']:.1f} | {len(frames)} | {statistics.median(frames) * 1000:.1f} | "
            f"{p99:.1f} | {frames[-1] * 1000:.1f} | {reply} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--waits", default="", help="comma-separated seconds before the player's first move")
    args = parser.parse_args()
    waits = [float(w) for w in args.waits.split(",") if w.strip()]
    print("| run | solver ready s | frames | frame median ms | frame p99 ms | longest frame ms | "
          "reply after the move s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    warm_cache = Path(tempfile.mkdtemp(prefix="warm-cache-"))
    print(row("cold cache, title only", run(Path(tempfile.mkdtemp(prefix="cold-cache-")), -1)), flush=True)
    run(warm_cache, -1)  # fills the cache
    print(row("warm cache, title only", run(warm_cache, -1)), flush=True)
    for wait in waits:
        print(row(f"cold cache, first move after {wait:g} s", run(Path(tempfile.mkdtemp(prefix="cold-cache-")),
                                                                    wait)), flush=True)
        print(row(f"warm cache, first move after {wait:g} s", run(warm_cache, wait)), flush=True)


if __name__ == "__main__":
    main()
