"""CPU time of a window that waits for the player, printed as a Markdown table.

    python benchmarks/idle_cpu.py                 SDL's dummy video driver (no screen needed)
    DISPLAY=:99 python benchmarks/idle_cpu.py --driver x11     a real X server (Xvfb will do)

Each row starts the real window (``App.run``, the loop ``mahjong-battle`` runs)
in a child process on one screen, lets it settle (``--settle`` seconds: first
frames, the last animation, the result card's fade), then reads the child's CPU
time (user + system, all threads, from ``/proc``) over ``--seconds`` seconds
while nothing happens, and counts the frames it drew meanwhile. A loop that
redraws at 60 fps whatever happens costs about half a core here; a window that
sleeps until something changes costs next to nothing.

Screens: the title, a game with nothing selected, a game with a tile selected
(its twins' outlines pulse), and a finished game under its result card.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
screen, settle, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
import pygame
from battle.rules.board import biggest_pair
from battle.rules.game import Game
from battle.ui.app import App, demo_match
from battle.ui.match import Match

app = App((1200, 800), autosave=False)
if screen != "title":
    match, selected = demo_match()
    if screen == "end card":
        game = Game.new(1, "Alice", "Bob")
        while True:
            position = game.position
            last = biggest_pair(position)
            probe = position.copy()
            probe.push(last)
            if probe.is_over():
                break  # the last move is played in the window, which then shows its card
            game.play(last)
        match = Match(game)
    scene = app.start_match(match)
    if screen == "game, a tile selected" and selected is not None:
        scene.select(selected)
    if screen == "end card":
        scene.play(last)
draws = []
draw = app.draw


def counted() -> None:
    draws.append(time.monotonic())
    draw()


app.draw = counted
pygame.time.set_timer(pygame.QUIT, round((settle + seconds + 0.5) * 1000), loops=1)
print(json.dumps({"ready": time.monotonic()}), flush=True)
app.run()
print(json.dumps({"draws": draws, "screen": type(app.stack.top).__name__}), flush=True)
"""

SCREENS = ("title", "game, nothing selected", "game, a tile selected", "end card")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a running process (all its threads), or None where /proc is missing."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # after the command name: state is field 3 of stat(5), utime 14 and stime 15
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(screen: str, settle: float, seconds: float, env: dict[str, str]) -> tuple[float | None, float, str]:
    """CPU percent of one core and frames per second while idle on ``screen``, and the top scene's name."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, screen, str(settle), str(seconds)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    ready = json.loads(child.stdout.readline())["ready"]
    start = ready + settle
    time.sleep(max(0.0, start - time.monotonic()))
    before = cpu_seconds(child.pid)
    time.sleep(seconds)
    after = cpu_seconds(child.pid)
    report = json.loads(child.stdout.readline())
    child.wait(timeout=30)
    draws = [t for t in report["draws"] if start <= t < start + seconds]
    percent = None if before is None or after is None else 100 * (after - before) / seconds
    return percent, len(draws) / seconds, report["screen"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="how long to measure each screen (default 5)")
    parser.add_argument("--settle", type=float, default=3.0, help="wait this long before measuring (default 3)")
    parser.add_argument("--driver", default="dummy", help="SDL video driver: dummy (default) or x11 (needs DISPLAY)")
    args = parser.parse_args()
    commit = (
        subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
        or "unknown"
    )
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "battle"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    print("## CPU of an idle window\n")
    print(f"Command: `{shlex.join([sys.executable, *sys.argv])}`  ")
    print(
        f"Commit {commit}{' (battle/ has uncommitted changes)' if dirty else ''}, {os.cpu_count()} CPUs, "
        f"{time.strftime('%Y-%m-%d %H:%M')}, SDL video driver {args.driver}, 1200x800\n"
    )
    print("| screen | top scene | CPU % of a core | frames drawn per s |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as home:
        env = dict(
            os.environ,
            SDL_VIDEODRIVER=args.driver,
            SDL_AUDIODRIVER="dummy",
            PYGAME_HIDE_SUPPORT_PROMPT="1",
            XDG_CONFIG_HOME=os.path.join(home, "config"),
            XDG_DATA_HOME=os.path.join(home, "data"),
        )
        env.pop("MAHJONG_BATTLE_DEMO", None)
        for screen in SCREENS:
            percent, fps, top = measure(screen, args.settle, args.seconds, env)
            cpu = "n/a (no /proc)" if percent is None else f"{percent:.1f}"
            print(f"| {screen} | {top} | {cpu} | {fps:.1f} |", flush=True)


if __name__ == "__main__":
    main()
