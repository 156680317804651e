"""The solver's first reply after an install, on a loaded machine: a Markdown table.

    python benchmarks/first_reply.py                  both ways at club and expert, 2 busy processes
    python benchmarks/first_reply.py --busy 0 --wait 10

Each row is a new process with the window on SDL's dummy driver, an empty ``NUMBA_CACHE_DIR``
(cold: the kernels compile in ``solver.compile_ahead``'s children) and ``--busy`` processes
looping beside it (one per core: the machine "loaded"). A game against the level opens at
once; the player's first move comes ``--wait`` seconds after the start, and the row gives the
seconds from that move to the solver's reply on the board. Two ways, in the same run:

- "as shipped": the shallow levels' first moves come from plain Python
  (``solver.plain_search``), and a deeper level's wait raises the compile children to the
  window's niceness;
- "before": the reply waits for the kernels (plain Python off), whose children stay at
  ``WINDOW_NICENESS`` (5) all along.
"""

from __future__ import annotations

import argparse
import json
import os
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


def run(level: str, way: str, wait: float) -> dict:
    cache = Path(tempfile.mkdtemp(prefix="cold-cache-"))
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(cache),
        "PYTHONPATH": str(ROOT),
        "XDG_DATA_HOME": str(cache / "data"),
        "XDG_CONFIG_HOME": str(cache / "config"),
    }
    done = subprocess.run(
        [sys.executable, "-c", RUN, level, way, str(wait)],
        capture_output=True,
        text=True,
        env=env,
        timeout=1200,
        cwd=ROOT,
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--busy", type=int, default=2, help="busy-looping processes beside it (default 2)")
    parser.add_argument("--wait", type=float, default=10.0, help="seconds before the player's move (default 10)")
    parser.add_argument("--levels", default="club,expert", help="comma-separated levels (default club,expert)")
    args = parser.parse_args()
    load = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        print(f"cold cache, {args.busy} busy processes beside, the player's move after {args.wait:g} s\n")
        print("| level | way | reply after the move s | kernels ready by then |")
        print("|---|---|---:|---|")
        for level in args.levels.split(","):
            for way in ("as shipped", "before"):
                result = run(level, way, args.wait)
                reply = "-" if result["replied"] is None else f"{result['replied'] - result['moved']:.1f}"
                print(f"| {level} | {way} | {reply} | {'yes' if result['ready'] else 'no'} |", flush=True)
    finally:
        for process in load:
            process.kill()
            process.wait()


if __name__ == "__main__":
    main()
