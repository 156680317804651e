"""A first start where the window cannot be seen or heard, as the real program in a child process:
no display at all (a login over SSH, a server), a ``DISPLAY`` nobody answers at, the dummy driver
chosen by hand (the tests' and the screenshot tool's way), and a machine without a sound card."""

from __future__ import annotations

import ctypes
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from battle.ui import first_frame

ROOT = Path(__file__).resolve().parents[2]
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY and ALSA are Linux's")
WAIT = 120
"""Seconds a child may take to start on a loaded machine before the test gives up on it."""


def without_display(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The test's environment with no display variable and no SDL driver chosen, in a private home."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "SDL_AUDIODRIVER")
    }
    env.update(
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_RUNTIME_DIR=str(tmp_path),
        PYTHONPATH=str(ROOT),
        **extra,
    )
    return env


def start_window(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``mahjong-battle`` with no arguments; a window that runs instead of exiting is ended and fails the test."""
    try:
        return subprocess.run(
            [sys.executable, "-m", "battle"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=WAIT
        )
    except subprocess.TimeoutExpired as expired:
        raise AssertionError(f"the window ran on where nobody sees it: {expired.stderr!r}") from None


@LINUX
def test_no_display_says_so_in_one_line_and_names_the_terminal_commands(tmp_path: Path) -> None:
    done = start_window(without_display(tmp_path))
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr  # no XDG warning, no ALSA lines: ours only
    line = done.stderr.strip()
    assert line.startswith("mahjong-battle: no display found, so the window cannot open"), line
    assert "'mahjong-battle play'" in line and "'mahjong-battle serve'" in line
    assert done.stdout == ""


@LINUX
def test_a_display_nobody_answers_at_is_told_the_same_way(tmp_path: Path) -> None:
    """SDL tries X11, finds no server, and would settle on its offscreen driver."""
    unused = next(number for number in range(90, 200) if not Path(f"/tmp/.X11-unix/X{number}").exists())
    done = start_window(without_display(tmp_path, DISPLAY=f":{unused}"))
    assert done.returncode == 2, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(f"mahjong-battle: no display answers at DISPLAY=':{unused}', so the window cannot open"), (
        done.stderr
    )
    assert "'mahjong-battle play'" in last and "'mahjong-battle serve'" in last


def test_the_dummy_driver_chosen_by_hand_still_opens_the_window(tmp_path: Path) -> None:
    env = without_display(tmp_path, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", MAHJONG_BATTLE_SIZE="800x600")
    env[first_frame.LOG_VARIABLE] = "1"
    window = subprocess.Popen([sys.executable, "-m", "battle"], env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        assert window.stderr is not None
        line = window.stderr.readline()  # the first frame's log line: the window is up
        assert "first_frame" in json.loads(line), line
        window.send_signal(signal.SIGTERM)  # SDL turns it into the window's QUIT
        assert window.wait(timeout=WAIT) == 0
    finally:
        if window.poll() is None:
            window.kill()
            window.wait()


SOUND_SCRIPT = """
import json
from tests import ui_harness as ui
import os
os.environ["SDL_AUDIODRIVER"] = "alsa"  # read when the mixer opens, after the harness chose dummy
from battle.ui.app import App

app = App((800, 600), autosave=False)
app.step(dt=0)
app.sounds.wait_ready(60)
for _ in range(5):
    app.step([], ui.DT)
print(json.dumps({"state": app.sounds.state, "status": app.stack.top.status.text}))
app.stop_background(5)
"""


def no_sound_card() -> str | None:
    """Why this test cannot show ALSA's lines (a card that opens, no ALSA to load), or None."""
    cards = Path("/proc/asound/cards")
    if cards.exists() and "no soundcards" not in cards.read_text(errors="replace"):
        return "this machine has a sound card: ALSA opens it and has nothing to say"
    try:
        ctypes.CDLL("libasound.so.2")
    except OSError:
        return "no ALSA library here (libasound.so.2): SDL cannot try ALSA at all"
    return None


@LINUX
def test_without_a_sound_card_the_window_says_no_sound_and_alsa_says_nothing(tmp_path: Path) -> None:
    """Three windows side by side: a handler that needed Python's lock froze about one start in
    two (SDL's ALSA thread reports while the mixer's opener holds the lock), so one start could
    pass by luck."""
    reason = no_sound_card()
    if reason is not None:
        pytest.skip(reason)
    children = [
        subprocess.Popen(
            [sys.executable, "-c", SOUND_SCRIPT],
            env=without_display(tmp_path / str(number)),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for number in range(3)
    ]
    try:
        for child in children:
            try:
                out, err = child.communicate(timeout=WAIT)
            except subprocess.TimeoutExpired:
                raise AssertionError("the window froze while opening the mixer") from None
            assert child.returncode == 0, err
            seen = json.loads(out.strip().splitlines()[-1])
            assert seen["state"] == "failed" and "No sound (" in seen["status"], seen
            assert "ALSA lib" not in err, err
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
