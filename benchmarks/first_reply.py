"""The solver's first reply after an install, on a loaded machine: a Markdown table.

    python benchmarks/first_reply.py                  every way at the four levels from club, 2 busy processes
    python benchmarks/first_reply.py --busy 0 --wait 10 --levels expert,master

Each row is a new process with the window on SDL's dummy driver, an empty ``NUMBA_CACHE_DIR``
(cold: the kernels compile in ``solver.compile_ahead``'s children) and ``--busy`` processes
looping beside it (one per core: the machine "loaded"). A game against the level opens at
once; the player's first move comes ``--wait`` seconds after the start, and the row gives the
seconds from that move to the solver's reply on the board. Three ways, in the same run:

- "as shipped": the first moves of the levels up to expert come from plain Python
  (``solver.plain_search``), master's from plain Python within its 5 s, and a game at master or
  perfect raises the compile children to the window's niceness;
- "warm": as shipped, on a cache the kernels were compiled into first (they load, no compile):
  what the level's first reply takes on every later run, perfect's 10 s search included;
- "before": the reply waits for the kernels (plain Python off), whose children stay at
  ``WINDOW_NICENESS`` (5) all along.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

RUN = r"""
import json, os, sys, time
started = time.monotonic()
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
level, way, wait = sys.argv[1], sys.argv[2], float(sys.argv[3])
if way == "before":
    import battle.ui.play.game_mode as game_mode
    import solver.compile_ahead as compile_ahead
    game_mode.plays_without_kernels = lambda level: False
    compile_ahead._raise_to_own = lambda children: None
from battle.ui.app import App
from battle.ui.match import new_match
app = App((1200, 800), autosave=False)
scene = app.start_match(new_match(3, "solver", ("You", "Solver"), level, human_first=True))
moved_at = replied_at = None
while time.monotonic() - started < 900:
    tick = time.monotonic()
    app.step(dt=1 / 60)
    now = time.monotonic() - started
    if moved_at is None and now >= wait:
        scene.mode.play(scene.position.legal_moves()[0])
        moved_at = now
    if moved_at is not None and scene.game.ply >= 2:
        replied_at = now
        break
    time.sleep(max(0.0, 1 / 60 - (time.monotonic() - tick)))
print(json.dumps({"moved": moved_at, "replied": replied_at, "ready": app.solver.ready}))
app.stop_background(5)
"""


def environment(cache: Path) -> dict[str, str]:
    """This process's environment with ``cache`` as numba's cache and the user's folders in it."""
    return {
        **os.environ,
        "NUMBA_CACHE_DIR": str(cache),
        "PYTHONPATH": str(ROOT),
        "XDG_DATA_HOME": str(cache / "data"),
        "XDG_CONFIG_HOME": str(cache / "config"),
    }


def compiled_cache() -> Path:
    """A new numba cache with the kernels compiled into it."""
    cache = Path(tempfile.mkdtemp(prefix="warm-cache-"))
    code = "from solver.engine import prepare_kernels; prepare_kernels()"
    subprocess.run([sys.executable, "-c", code], check=True, env=environment(cache), timeout=1200, cwd=ROOT)
    return cache


def run(level: str, way: str, wait: float) -> dict:
    cache = compiled_cache() if way == "warm" else Path(tempfile.mkdtemp(prefix="cold-cache-"))
    try:
        done = subprocess.run(
            [sys.executable, "-c", RUN, level, "as shipped" if way == "warm" else way, str(wait)],
            capture_output=True,
            text=True,
            env=environment(cache),
            timeout=1200,
            cwd=ROOT,
        )
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--busy", type=int, default=2, help="busy-looping processes beside it (default 2)")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds before the player's move (default 10)")
    parser.add_argument(
        "--levels", default="club,expert,master,perfect", help="comma-separated levels (default club to perfect)"
    )
    args = parser.parse_args()
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        beside = f"{args.busy} busy processes beside, the player's move after {args.wait:g} s"
        print(f"a cold cache (the warm rows: the kernels compiled into it first), {beside}\n")
        print("| level | way | reply after the move s | kernels ready by then |")
        print("|---|---|---:|---|")
        for level in args.levels.split(","):
            for way in ("as shipped", "warm", "before"):
                result = run(level, way, args.wait)
                reply = "-" if result["replied"] is None else f"{result['replied'] - result['moved']:.1f}"
                print(f"| {level} | {way} | {reply} | {'yes' if result['ready'] else 'no'} |", flush=True)
    finally:
        for process in load:
            process.kill()
            process.wait()


if __name__ == "__main__":
    main()
