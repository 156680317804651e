"""A deal's par worked out on the window's background thread beside a game against the solver: a
Markdown table of the solver's replies without and with it, and the seconds from the game's start to
the par.

    python benchmarks/window_par.py                          expert and master, deal 3's whole start
    python benchmarks/window_par.py --tiles 72 --runs 2      the par of a smaller start: minutes, not tens

Each row is a new process with the window on SDL's dummy driver, a warm numba cache, a home of its own
(no survey database: the deal's par is unknown) and no catalogue. A game against the level opens on
``--deal``; the player moves ``--think`` seconds after each reply (the greedy player's biggest pair),
and each reply is timed from the player's move to the solver's move on the board. With the par, the
window's ``ParFinder`` works on the deal's start (``--tiles`` of it: ``start_position``) on its thread
at niceness 19, paused while the solver works, as the window runs it; after the game the window
stays open on its result card until the par comes or ``--cap`` seconds have passed since the start.
The goal: the replies' median and 90th percentile with the par within 10% of those without.
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
sys.path.insert(0, str(ROOT))

from benchmarks.percentiles import percentile  # noqa: E402 - after the checkout is on the path

RUN = r"""
import functools, json, os, sys, time
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
level, with_par = sys.argv[1], sys.argv[2] == "1"
deal, tiles, think, cap = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
moves = int(sys.argv[7])
from battle.atlas.catalogue import Catalogue
from battle.atlas.par_finder import ParFinder
from battle.atlas.solve_deal import start_position
from battle.rules.board import biggest_pair
import battle.ui.app as app_module
from battle.ui.match import new_match
app_module.ParFinder = functools.partial(ParFinder, start_of=lambda number: start_position(number, tiles))
app = app_module.App((1200, 800), autosave=False, catalogue=Catalogue({}))
app.settings.background_par = with_par
while not app.solver.ready:  # the kernels loaded from the warm cache: no compile in the replies
    app.step(dt=1 / 60)
    time.sleep(1 / 60)
scene = app.start_match(new_match(deal, "solver", ("You", "Solver"), level, human_first=True))
game = scene.game
started = time.monotonic()
replies, par_at, next_move, moved = [], None, started + think, None
while time.monotonic() - started < cap:
    tick = time.monotonic()
    app.step(dt=1 / 60)
    now = time.monotonic()
    if moved is not None and (game.ply % 2 == 0 or game.is_over()) and game.ply > moved[1]:
        replies.append(now - moved[0])
        moved, next_move = None, now + think
    ended = game.is_over() or (len(replies) >= moves and moved is None)
    if moved is None and not ended and game.ply % 2 == 0 and now >= next_move:
        scene.mode.play(biggest_pair(scene.position))
        moved = (now, game.ply)
    finder = app._par_finder
    if par_at is None and finder is not None and finder.found(deal) is not None:
        par_at = now - started
    if ended and (not with_par or par_at is not None):
        break
    time.sleep(max(0.0, 1 / 60 - (time.monotonic() - tick)))
finder = app._par_finder
par = None if finder is None else finder.found(deal)
value = None if par is None else par.value
print(json.dumps({"replies": replies, "par_at": par_at, "par": value, "over": game.is_over()}))
app.stop_background(5)
"""


def environment(home: Path) -> dict[str, str]:
    """This process's environment with the user's folders in ``home`` (numba's cache stays the user's)."""
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "XDG_DATA_HOME": str(home / "data"),
        "XDG_CONFIG_HOME": str(home / "config"),
    }


def run(level: str, with_par: bool, args: argparse.Namespace) -> dict:
    home = Path(tempfile.mkdtemp(prefix="window-par-"))
    try:
        done = subprocess.run(
            [sys.executable, "-c", RUN, level, "1" if with_par else "0", str(args.deal), str(args.tiles)]
            + [str(args.think), str(args.cap), str(args.moves)],
            capture_output=True,
            text=True,
            env=environment(home),
            timeout=args.cap + 600,
            cwd=ROOT,
        )
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--levels", default="expert,master", help="comma-separated levels (default expert,master)")
    parser.add_argument("--deal", type=int, default=3, help="the deal (default 3: not in the shipped catalogue)")
    parser.add_argument("--tiles", type=int, default=108, help="tiles of the start whose par is worked out (108)")
    parser.add_argument("--think", type=float, default=2.0, help="the player's seconds before each move (2)")
    parser.add_argument("--cap", type=float, default=3600.0, help="seconds from the start a row waits for its par")
    parser.add_argument("--runs", type=int, default=1, help="games of each level and way (default 1)")
    parser.add_argument("--moves", type=int, default=1000, help="the player's moves a game at most (default: all)")
    args = parser.parse_args()
    if not 2 <= args.tiles <= 108 or args.tiles % 2:
        parser.error(f"--tiles takes an even count of 2 to 108, not {args.tiles}")
    subprocess.run([sys.executable, "-c", "from solver.engine import prepare_kernels; prepare_kernels()"], check=True)
    print(
        f"deal {args.deal}, the par of its {args.tiles}-tile start, "
        f"the player's move {args.think:g} s after each reply\n"
    )
    print("| level | par in the background | replies | p50 s | p90 s | slowest s | start to par s | par |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for level in args.levels.split(","):
        for _ in range(args.runs):
            for with_par in (False, True):
                result = run(level, with_par, args)
                replies = sorted(result["replies"])
                cells = [f"{percentile(replies, q):.3f}" for q in (0.5, 0.9)] + [f"{replies[-1]:.3f}"]
                par_at = "-" if result["par_at"] is None else f"{result['par_at']:.0f}"
                par = "-" if result["par"] is None else f"{result['par']:+d}"
                way = "yes" if with_par else "no"
                print(f"| {level} | {way} | {len(replies)} | {' | '.join(cells)} | {par_at} | {par} |", flush=True)


if __name__ == "__main__":
    main()
