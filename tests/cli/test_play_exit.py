"""``play`` ends after ``quit`` however soon it comes, and so does the window. The installed command
waits for no warm-up: it leaves the thread wherever it stands and ends the process (see
``battle.cli.warm_up``), checked here with a warm-up that never ends; the window's warm-up thread has
ended before the interpreter's exit tears the kernels down, looked at from inside a real process at
the last of its ``atexit`` calls. ``benchmarks/play_exit.py`` measures the time to the exit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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
STUCK_WARM_UP = """
import sys, threading, types

def prepare_kernels(closing=None, **options):  # a warm-up that never ends, whatever it is told
    threading.Event().wait()

sys.modules["battle.players"] = types.SimpleNamespace(prepare_kernels=prepare_kernels)
sys.argv = ["mahjong-battle", *sys.argv[1:]]
from battle.cli import entry_point
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


def test_quit_ends_play_whatever_the_warm_up_does(tmp_path) -> None:
    """The warm-up is stuck (numba's import on a busy machine, an LLVM lock): ``quit`` ends ``play``
    all the same, with the game's last line said and code 0."""
    for script, args in ((STUCK_WARM_UP, ["play", "--deal", "3"]), (None, ["play", "--vs", "club", "--first"])):
        command = [sys.executable, "-c", script] if script else [sys.executable, "-m", "battle"]
        try:
            done = subprocess.run(
                [*command, *args],
                input="quit\n",
                capture_output=True,
                text=True,
                env=home_env(tmp_path),
                cwd=tmp_path,
                timeout=60,  # a minute is a hang: the stuck warm-up would hold it for ever
            )
        except subprocess.TimeoutExpired as expired:
            raise AssertionError(f"play did not end after quit: {expired.stdout!r}") from None
        assert (done.returncode, done.stderr) == (0, ""), done.stderr[-2000:]
        assert done.stdout.endswith("No move was played, so there is nothing to keep.\n"), done.stdout[-300:]


def test_a_window_closed_at_once_leaves_no_solver_thread_to_the_exit(tmp_path) -> None:
    line = at_exit(WINDOW, [], tmp_path)
    assert "'solver'" not in line, line
    assert line.endswith("llvmlite shutting down: True"), line


LOAD_NEVER_ENDS = """
import sys, threading
import battle.players

def prepare_kernels(closing=None, **options):  # the kernels' compile or load never ends
    threading.Event().wait()

battle.players.prepare_kernels = prepare_kernels
sys.argv = ["mahjong-battle", *sys.argv[1:]]
from battle.cli import entry_point
entry_point()
"""


@pytest.mark.parametrize("level", ["club", "expert", "master"])
def test_a_level_with_a_depth_moves_while_the_kernels_still_load(level, tmp_path) -> None:  # noqa: ANN001
    """The levels up to master play their moves from plain Python while the warm-up runs (a first
    run's compile: 10-20 s, a minute on a busy machine; master's within its 5 s); here it never ends,
    and the solver's first move comes all the same."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", LOAD_NEVER_ENDS, "play", "--vs", level, "--deal", "3"],
            input="quit\n",
            capture_output=True,
            text=True,
            env=home_env(tmp_path),
            cwd=tmp_path,
            timeout=60,  # the warm-up never ends: a move that waited for it would never come
        )
    except subprocess.TimeoutExpired as expired:
        raise AssertionError(f"no move from {level} while the kernels load: {expired.stdout!r}") from None
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"Solver ({level}) plays " in done.stdout and done.stdout.endswith(
        "The game is kept in the list of unfinished games; continue with 'mahjong-battle play --resume'.\n"
    ), done.stdout[-600:]
