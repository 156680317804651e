"""Files that are not files, met through the real program: a FIFO named like a game, a FIFO or
an endless device given as a file to read. Each is refused at once in one line; nothing hangs
or reads without end."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from battle.rules.board import move_name
from battle.rules.game import Game
from tests.cli.terminal_process import home_env, run

QUICK = 120.0
"""A refusal takes one start of the program; a hang runs into this instead of the suite's timeout."""
MEMORY = 2 << 30
"""A reading of /dev/zero without end stops at this address-space cap instead of eating the machine."""

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")


def run_capped(args: list[str], home: Path, script: str = "") -> subprocess.CompletedProcess[str]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))

    return subprocess.run(
        [sys.executable, "-m", "battle", *args],
        input=script,
        capture_output=True,
        text=True,
        env=home_env(home),
        cwd=home,
        timeout=QUICK,
        preexec_fn=cap,
    )


def unfinished_folder(home: Path) -> Path:
    folder = home / "data" / "mahjong-battle" / "unfinished"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_a_fifo_named_like_a_game_does_not_hang_resume(tmp_path) -> None:
    game = Game.new(5)
    made = run(["play", "--deal", "5"], tmp_path, f"{move_name(game.position.legal_moves()[0])}\nquit\n")
    assert made.returncode == 0, made.stderr
    folder = unfinished_folder(tmp_path)
    [record] = folder.glob("*.mbg")
    os.mkfifo(folder / "20200101-000000-abcdef.mbg")
    sidecar = record.with_suffix(".json")
    sidecar.unlink()
    os.mkfifo(sidecar)  # the real game's sidecar, a FIFO too
    resumed = run_capped(["play", "--resume"], tmp_path, "quit\n")
    assert resumed.returncode == 0, resumed.stderr
    assert "not a regular file" in resumed.stderr
    assert "The game is kept" in resumed.stdout


@pytest.mark.parametrize("name", ["/dev/zero", "fifo"])
def test_puzzles_play_refuses_a_device_or_a_fifo_in_one_line(tmp_path, name) -> None:
    if name == "fifo":
        os.mkfifo(tmp_path / "fifo")
    played = run_capped(["puzzles", "play", "--file", name], tmp_path)
    assert played.returncode == 2
    assert len(played.stderr.strip().splitlines()) == 1 and "not a regular file" in played.stderr, played.stderr


@pytest.mark.parametrize("command", [["show"], ["solve", "--time", "1"], ["play", "--load"]])
def test_a_fifo_given_as_a_game_file_is_refused_in_one_line(tmp_path, command) -> None:
    os.mkfifo(tmp_path / "game.mbg")
    done = run_capped([*command, "game.mbg"], tmp_path, "quit\n")
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "not a regular file" in done.stderr, done.stderr


def test_the_window_starts_past_a_fifo_game_and_a_fifo_settings_file(tmp_path) -> None:
    """The window as a real process, quit at its first title frame: it shows the title at all."""
    os.mkfifo(unfinished_folder(tmp_path) / "20200101-000000-abcdef.mbg")
    (tmp_path / "config" / "mahjong-battle").mkdir(parents=True)
    os.mkfifo(tmp_path / "config" / "mahjong-battle" / "settings.json")
    script = (
        "import sys; from tests import ui_harness; from battle.ui.app import App\n"
        "app = App((900, 640)); app.step(dt=0)\n"
        "print(type(app.stack.top).__name__, flush=True)\n"
        "app.stop_background(10)\n"
    )
    env = dict(home_env(tmp_path), PYTHONPATH=str(Path(__file__).parents[2]))
    shown = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=QUICK
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip().endswith("TitleScene"), shown.stdout
