"""Faults a player's machine throws at the game: kill -9, a full disk, two copies at once, hostile files.

Each test runs the real program (the terminal game, or the window's App in a
process of its own) and counts the moves lost: a move the screen showed as
taken that is not in the saved game afterwards. The count must be 0. The runs
are bounded; the default suite makes a few of each, ``-m slow`` makes 20.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from battle.rules.board import move_name
from battle.rules.game import Game
from battle.storage.saved_games import SavedGame, Shelf
from tests.game_cases import opening_moves

ROOT = Path(__file__).resolve().parents[2]
QUICK_RUNS, FULL_RUNS = 3, 20


def environment(home: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("XDG_")}
    env.update(
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYTHONPATH=str(ROOT),
        NO_COLOR="1",
    )
    return env


class Output:
    """A child's standard output, read on a thread so the test can wait for a line without blocking."""

    def __init__(self, stream) -> None:  # noqa: ANN001
        self.text = ""
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:  # noqa: ANN001
        for chunk in iter(lambda: stream.read1(4096), b""):
            with self._lock:
                self.text += chunk.decode("utf-8", "replace")

    def wait_for(self, needle: str, timeout: float = 20.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if needle in self.text:
                    return True
            time.sleep(0.002)
        return False

    def finish(self) -> str:
        self._thread.join(5)
        return self.text


def saved_moves(home: Path) -> list[str]:
    """The moves of the one game the run kept (unfinished or finished), or none."""
    shelf = Shelf(home / "data" / "mahjong-battle")
    games, problems = shelf.unfinished()
    assert not problems, problems
    finished = shelf.newest_finished()
    kept = games + ([finished] if finished is not None else [])
    assert len(kept) <= 1, [saved.describe() for saved in kept]
    return [move_name(move) for move in kept[0].game.moves] if kept else []


def moves_lost(shown: list[str], saved: list[str]) -> int:
    """Moves shown as taken that the saved game does not hold (the saved game may be a move ahead)."""
    assert saved[: len(shown)] == shown[: len(saved)], (shown, saved)  # the same game, never a different one
    return max(0, len(shown) - len(saved))


def kill_terminal_game(home: Path, rng: random.Random) -> tuple[list[str], list[str]]:
    """Play a terminal game move by move and kill -9 it 0-5 ms after an Enter."""
    moves = opening_moves(3, 12)
    kill_at = rng.randrange(len(moves))
    delay = rng.uniform(0.0, 0.005)
    process = subprocess.Popen(
        [sys.executable, "-m", "battle", "play", "--deal", "3"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=environment(home),
        cwd=home,
    )
    output = Output(process.stdout)
    try:
        for index, move in enumerate(moves):
            process.stdin.write(f"{move}\n".encode())
            process.stdin.flush()
            if index == kill_at:
                time.sleep(delay)
                break
            assert output.wait_for(f"plays {move}:"), output.text[-500:]
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    text = output.finish()
    shown = [move for move in moves if f"plays {move}:" in text]
    return shown, saved_moves(home)


WINDOW_SCRIPT = """
import sys
from tests import ui_harness as ui
from battle.rules.board import move_name
from battle.ui.app import App
from battle.ui.match import new_match

app = App((1000, 700))
app.step(dt=0)
scene = app.start_match(new_match(3, "hotseat", ("Ann", "Ben")))
for _ in range(12):
    move = scene.position.legal_moves()[-1]
    ui.play_move(app, move)
    sys.stdout.write(f"shown {move_name(move)}\\n")  # one write: a kill never splits the line
    sys.stdout.flush()
    for _ in range(3):
        app.step([], ui.DT)
"""


def kill_window_game(home: Path, rng: random.Random) -> tuple[list[str], list[str]]:
    """Play in the real window (App over the dummy video driver) and kill -9 it at a random moment."""
    process = subprocess.Popen(
        [sys.executable, "-c", WINDOW_SCRIPT],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=environment(home),
        cwd=home,
    )
    output = Output(process.stdout)
    try:
        assert output.wait_for("shown", timeout=60), "the window did not start"
        target = rng.randrange(1, 11)
        deadline = time.monotonic() + 30
        while output.text.count("shown") < target and time.monotonic() < deadline:
            time.sleep(0.002)
        time.sleep(rng.uniform(0.0, 0.05))  # somewhere inside the next move's frames
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(10)
    text = output.finish()
    whole_lines = text[: text.rfind("\n") + 1].splitlines()  # a line cut by the kill was not shown whole
    shown = [line.split()[1] for line in whole_lines if line.startswith("shown ")]
    return shown, saved_moves(home)


def run_kills(kill, runs: int, tmp_path: Path, seed: int) -> None:  # noqa: ANN001
    rng = random.Random(seed)
    lost = 0
    for run in range(runs):
        home = tmp_path / f"run{run}"
        home.mkdir()
        shown, saved = kill(home, rng)
        lost += moves_lost(shown, saved)
    print(f"{kill.__name__}: {runs} runs, {lost} moves lost")
    assert lost == 0


def test_kill_9_during_terminal_play_loses_no_move(tmp_path) -> None:
    run_kills(kill_terminal_game, QUICK_RUNS, tmp_path, seed=1)


def test_kill_9_during_window_play_loses_no_move(tmp_path) -> None:
    run_kills(kill_window_game, QUICK_RUNS, tmp_path, seed=2)


@pytest.mark.slow
def test_kill_9_twenty_times_each(tmp_path) -> None:
    for name, kill, seed in (("terminal", kill_terminal_game, 11), ("window", kill_window_game, 12)):
        (tmp_path / name).mkdir()
        run_kills(kill, FULL_RUNS, tmp_path / name, seed)


# -- full and read-only disks -------------------------------------------------------------


@contextlib.contextmanager
def tiny_disk(size: str = "48k") -> Iterator[Path]:
    """A tmpfs of a few kilobytes: a real full disk (needs root and mount, as on CI)."""
    folder = Path(tempfile.mkdtemp(prefix="mahjong-full-"))
    mounted = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True
        ).returncode
        == 0
    )
    if not mounted:
        folder.rmdir()
        pytest.skip("cannot mount a tmpfs here (not root); test_ui_dialogs patches the write instead")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)
        with contextlib.suppress(OSError):
            folder.rmdir()


def test_a_full_disk_loses_no_move_the_terminal_showed(tmp_path) -> None:
    moves = opening_moves(3, 10)
    with tiny_disk() as disk:
        (disk / "filler").write_bytes(b"\0" * 40_000)  # leaves room for the folders and a save or two
        env = environment(disk)
        script = "\n".join(moves[:6]) + f"\nsave {tmp_path / 'rescued.mbg'}\n" + "\n".join(moves[6:]) + "\nquit\n"
        result = subprocess.run(
            [sys.executable, "-m", "battle", "play", "--deal", "3"],
            input=script.encode(),
            capture_output=True,
            env=env,
            cwd=tmp_path,
            timeout=60,
        )
        out = result.stdout.decode()
        assert result.returncode == 0, result.stderr.decode()
        assert "could not be saved: No space left on device" in out
        # the player was told, and the copy saved elsewhere holds every move shown
        rescued = Game.from_text((tmp_path / "rescued.mbg").read_text())
        assert [move_name(move) for move in rescued.moves] == moves[:6]
        assert not list(disk.rglob("*.tmp")), "a failed write left a temporary file behind"
        for record in disk.rglob("*.mbg"):
            Game.from_text(record.read_text())  # whatever is on disk is a whole record


def without_root_override() -> list[str]:
    """A command prefix under which permission bits hold even for root (CI runs as root)."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("root without setpriv cannot be kept out of a protected folder")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]


def test_a_read_only_data_folder_is_reported_and_play_goes_on(tmp_path) -> None:
    data = tmp_path / "data" / "mahjong-battle"
    data.mkdir(parents=True)
    data.chmod(0o500)
    moves = opening_moves(3, 2)
    try:
        result = subprocess.run(
            [*without_root_override(), sys.executable, "-m", "battle", "play", "--deal", "3"],
            input=("\n".join(moves) + f"\nsave {tmp_path / 'elsewhere.mbg'}\nquit\n").encode(),
            capture_output=True,
            env=environment(tmp_path),
            timeout=60,
        )
    finally:
        data.chmod(0o700)
    out = result.stdout.decode()
    assert result.returncode == 0, result.stderr.decode()
    # said once, at the start (no claim can be made there), not again at every move
    assert out.count("Not saved:") == 1 and "permission denied" in out.lower(), out
    assert [move_name(move) for move in Game.from_text((tmp_path / "elsewhere.mbg").read_text()).moves] == moves


# -- two copies at once ---------------------------------------------------------------------


SAVER_SCRIPT = """
import sys
from battle.rules.game import Game
from battle.storage.saved_games import SavedGame, Shelf
from battle.ui.files.settings import Settings, save_settings

name = sys.argv[1]
shelf = Shelf()
game = Game.new(int(sys.argv[2]), name, "B")
saved = SavedGame(sys.argv[3], game, front_end="terminal")
for turn in range(int(sys.argv[4])):
    moves = game.position.legal_moves()
    if not moves:
        break
    game.play(moves[-1])
    shelf.save(saved)
    save_settings(Settings(player1=f"{name}-{turn}"))
print(game.ply)
"""


def test_two_copies_saving_at_once_never_corrupt_each_other(tmp_path) -> None:
    env = environment(tmp_path)
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", SAVER_SCRIPT, name, str(number), game_id, "40"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        for name, number, game_id in (("Ann", 5, "20261126-000000-aaaaaa"), ("Ben", 6, "20261126-000000-bbbbbb"))
    ]
    plies = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err.decode()
        plies.append(int(out))
    shelf = Shelf(tmp_path / "data" / "mahjong-battle")
    games, problems = shelf.unfinished()
    assert not problems
    by_player = {saved.game.player1: saved.game for saved in games}
    assert by_player["Ann"].ply == plies[0] and by_player["Ben"].ply == plies[1]
    settings = json.loads((tmp_path / "config" / "mahjong-battle" / "settings.json").read_text())
    assert settings["player1"] in (f"Ann-{plies[0] - 1}", f"Ben-{plies[1] - 1}")
    assert not list(tmp_path.rglob("*.tmp"))


def test_stray_temporary_files_are_cleaned_up_and_only_ours(tmp_path) -> None:
    shelf = Shelf(tmp_path)
    old = shelf.unfinished_dir / ".mahjong-battle-123-abcd1234.tmp"
    fresh = shelf.unfinished_dir / ".mahjong-battle-456-ef012345.tmp"
    users = shelf.unfinished_dir / "notes.tmp"  # the user's own: never the program's to delete
    for path, text in ((old, "half a rec"), (fresh, "being written by another copy"), (users, "mine")):
        path.write_text(text)
    for path in (old, users):
        os.utime(path, (time.time() - 3600, time.time() - 3600))
    shelf.unfinished()
    assert not old.exists() and fresh.exists() and users.read_text() == "mine"


def test_a_write_follows_a_link_and_refuses_a_fifo_and_a_folder(tmp_path) -> None:
    """(A device is refused by the same check; no test writes at one, which as root could replace it.)"""
    from battle.storage.paths import NotAFileToWrite, write_atomically

    real = tmp_path / "kept" / "record.mbg"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / "link.mbg"
    link.symlink_to(real)
    write_atomically(link, "new")
    assert link.is_symlink() and real.read_text() == "new"  # the link still names the file, now new
    fifo = tmp_path / "pipe.mbg"
    os.mkfifo(fifo)
    for target in (fifo, tmp_path / "kept"):
        with pytest.raises(NotAFileToWrite, match="nothing is written there"):
            write_atomically(target, "text")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and (tmp_path / "kept").is_dir()
    assert not list(tmp_path.rglob("*.tmp"))


# -- hostile settings and saved games ------------------------------------------------------


HOSTILE_SETTINGS = {
    "deeply-nested": "[" * 5000,
    "nul-in-a-name": json.dumps({"player1": "An\u0000na", "last_dir": "/tmp/\u0000x"}),
    "wrong-types": json.dumps(
        {"player1": ["x"], "window_size": {"w": 5}, "review_seconds": "fast", "human_first": "yes", "mode": 3}
    ),
    "huge": json.dumps({"player1": "x" * 300_000}),
    "not-utf8": b"\xff\xfe{}",
}

START_SCRIPT = """
from battle.ui.app import App
app = App((800, 600))
app.step(dt=0)
top = app.stack.top
print(type(top).__name__)
print(top.status.text)
"""


def start_window(home: Path) -> tuple[str, str]:
    result = subprocess.run(
        [sys.executable, "-c", START_SCRIPT], capture_output=True, env=environment(home), timeout=120
    )
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    scene, status = (result.stdout.decode().splitlines() + ["", ""])[:2]
    return scene, status


@pytest.mark.parametrize("case", sorted(HOSTILE_SETTINGS))
def test_hostile_settings_never_stop_the_window(tmp_path, case) -> None:
    folder = tmp_path / "config" / "mahjong-battle"
    folder.mkdir(parents=True)
    content = HOSTILE_SETTINGS[case]
    path = folder / "settings.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    scene, status = start_window(tmp_path)
    assert scene == "TitleScene"
    assert "Settings file" in status and "settings.json.corrupt" in status, status
    assert (folder / "settings.json.corrupt").read_bytes() == path.with_name("settings.json.corrupt").read_bytes()
    scene, status = start_window(tmp_path)  # said once: the next start is quiet
    assert "Settings" not in status


@pytest.mark.parametrize("where", ["config", "data"])
def test_a_file_where_a_folder_should_be_is_set_aside(tmp_path, where) -> None:
    (tmp_path / where).mkdir()
    squatter = tmp_path / where / "mahjong-battle"
    squatter.write_text("not a folder")
    scene, _ = start_window(tmp_path)
    assert scene == "TitleScene"
    assert squatter.is_dir() and squatter.with_name("mahjong-battle.corrupt").read_text() == "not a folder"


def test_a_folder_where_the_settings_file_should_be(tmp_path) -> None:
    (tmp_path / "config" / "mahjong-battle" / "settings.json").mkdir(parents=True)
    scene, status = start_window(tmp_path)
    assert scene == "TitleScene" and "settings.json.corrupt" in status


def test_a_folder_no_one_may_enter_is_reported(tmp_path) -> None:
    """Mode 000 stops everyone but root; as root the window runs without the capability to override it."""
    for where in ("config", "data"):
        (tmp_path / where / "mahjong-battle").mkdir(parents=True)
        os.chmod(tmp_path / where / "mahjong-battle", 0o000)
    prefix = without_root_override()
    try:
        result = subprocess.run(
            [*prefix, sys.executable, "-c", START_SCRIPT], capture_output=True, env=environment(tmp_path), timeout=120
        )
    finally:
        for where in ("config", "data"):
            os.chmod(tmp_path / where / "mahjong-battle", 0o700)
    assert result.returncode == 0, result.stderr.decode()[-2000:]
    scene, status = result.stdout.decode().splitlines()[:2]
    assert scene == "TitleScene"
    assert "permission denied" in status.lower(), status


def test_a_hostile_saved_game_sidecar_never_stops_the_window(tmp_path) -> None:
    shelf = Shelf(tmp_path / "data" / "mahjong-battle")
    game = Game.new(4, "Ann", "Ben")
    game.play(game.position.legal_moves()[0])
    shelf.save(SavedGame("20261126-000000-cccccc", game))
    (shelf.unfinished_dir / "20261126-000000-cccccc.json").write_text("[" * 5000)
    scene, status = start_window(tmp_path)
    assert scene == "TitleScene" and "nested too deeply" in status
    games, problems = shelf.unfinished()
    assert [saved.game.moves for saved in games] == [game.moves] and not problems
