"""``play`` ends after ``quit`` however soon it comes, and so does the window: the solver's warm-up
thread has ended before the interpreter's exit tears the kernels down (see ``battle.cli.warm_up``),
looked at from inside a real process at the last of its ``atexit`` calls. ``benchmarks/play_exit.py``
measures the hang itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.cli.terminal_process import WAIT, home_env

REPORT = """
import atexit, os, sys, threading

def report():  # registered first, so called last: after every other atexit call, just before the exit's clean-up
    common = sys.modules.get("llvmlite.binding.common")
    flag = getattr(common, "_shutting_down", [None])[0] if common is not None else "not imported"
    alive = sorted(thread.name for thread in threading.enumerate() if thread is not threading.main_thread())
    print(f"threads at exit: {alive}; llvmlite shutting down: {flag}", file=sys.stderr, flush=True)

atexit.register(report)
"""
PLAY = """
sys.argv = ["mahjong-battle", *sys.argv[1:]]
from battle.cli.main import entry_point
entry_point()
"""
WINDOW = """
os.environ["SDL_VIDEODRIVER"] = os.environ["SDL_AUDIODRIVER"] = "dummy"
import pygame
from battle.ui import app as window

opened = window.App.run

def closed_at_once(self):  # the user closes the window before its first frame is drawn
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    return opened(self)

window.App.run = closed_at_once
raise SystemExit(window.main())
"""


def at_exit(script: str, args: list[str], home: Path) -> str:
    """The threads still running at the process's exit, and what llvmlite knows of it."""
    done = subprocess.run(
        [sys.executable, "-c", REPORT + script, *args],
        input="quit\n",
        capture_output=True,
        text=True,
        env=home_env(home),
        cwd=home,
        timeout=WAIT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    [line] = [line for line in done.stderr.splitlines() if line.startswith("threads at exit")]
    return line


def test_quit_at_the_first_prompt_leaves_no_warm_up_thread_to_the_exit(tmp_path) -> None:
    for args in (["play", "--deal", "3"], ["play", "--vs", "club", "--first"]):
        line = at_exit(PLAY, args, tmp_path)
        assert "solver-warm-up" not in line, line
        # llvmlite was imported before the exit began, so its own atexit call told it the process ends
        assert line.endswith("llvmlite shutting down: True"), line


def test_a_window_closed_at_once_leaves_no_solver_thread_to_the_exit(tmp_path) -> None:
    line = at_exit(WINDOW, [], tmp_path)
    assert "'solver'" not in line, line
    assert line.endswith("llvmlite shutting down: True"), line
