"""The window's first frame comes before its heavy imports: the real program in a child process."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pygame

from battle.ui import first_frame

HEAVY = ("pygame_gui", "numpy", "numba", "solver", "battle.players", "battle.ui.app")
"""What takes the seconds before the title can draw (pygame_gui and numpy 0.5 s, the door more)."""


def test_the_first_frame_is_drawn_before_the_heavy_modules_are_imported(tmp_path: Path) -> None:
    env = dict(
        os.environ,
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        MAHJONG_BATTLE_SIZE="800x600",
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
    )
    env[first_frame.LOG_VARIABLE] = "1"
    window = subprocess.Popen([sys.executable, "-m", "battle"], env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert window.stderr is not None
        line = window.stderr.readline()  # blocks until the first flip: an event, not a clock
        loaded = set(json.loads(line)["modules"])
        assert "pygame" in loaded
        assert [name for name in HEAVY if name in loaded] == []
        window.send_signal(signal.SIGTERM)  # SDL turns it into the window's QUIT
        assert window.wait(timeout=600) == 0
    finally:
        if window.poll() is None:
            window.kill()
            window.wait()


def test_the_first_frame_shows_the_title_and_loading() -> None:
    surface = pygame.Surface((800, 600))
    first_frame.draw_loading(surface)
    # felt, not black: the centre is the felt's green and the title's gold is somewhere on it
    centre = surface.get_at((400, 400))
    assert centre.g > centre.r and centre.g > 60
    pixels = {tuple(surface.get_at((x, y)))[:3] for x in range(0, 800, 2) for y in range(200, 300, 2)}
    assert any(r > 180 and g > 140 and b < 120 for r, g, b in pixels)


def _first_flip(env: dict[str, str]) -> dict:
    """The first frame's log line of a real window started with ``env``, then the window closed."""
    env = dict(env, **{first_frame.LOG_VARIABLE: "1"})
    window = subprocess.Popen([sys.executable, "-m", "battle"], env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert window.stderr is not None
        logged = json.loads(window.stderr.readline())
        window.send_signal(signal.SIGTERM)
        assert window.wait(timeout=600) == 0
        return logged
    finally:
        if window.poll() is None:
            window.kill()
            window.wait()


def german_window_on_an_english_system(home: Path) -> dict[str, str]:
    """The environment of a window whose settings (under ``home``) keep German, on an English system."""
    env = dict(
        os.environ,
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        MAHJONG_BATTLE_SIZE="800x600",
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CACHE_HOME=str(home / "cache"),
        LANGUAGE="en",
        LANG="en_US.UTF-8",
    )
    for variable in ("LC_ALL", "LC_MESSAGES"):
        env.pop(variable, None)
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from battle.ui.files.settings import Settings, save_settings; save_settings(Settings(language='de'))",
        ],
        env=env,
        check=True,
    )
    return env


def test_the_first_frame_speaks_the_windows_language_from_the_compiled_catalogue_without_babel(tmp_path: Path) -> None:
    """The window's remembered language (German) on an English system: the terminal's words never
    needed its catalogue, so the first frame reads it only if an earlier start compiled it."""
    env = german_window_on_an_english_system(tmp_path)
    before = _first_flip(env)  # no start has compiled the German catalogue yet: English, no Babel
    assert before["loading"] == "loading..." and "babel" not in before["modules"]
    # a start compiles it into the cache folder; the next first frame reads it with the stdlib alone
    subprocess.run([sys.executable, "-c", "from battle import i18n; i18n.catalogue('de')"], env=env, check=True)
    after = _first_flip(env)
    assert after["loading"] == "wird geladen..."
    assert [name for name in (*HEAVY, "babel") if name in after["modules"]] == []


def _stderr_lines(process: subprocess.Popen[str]) -> tuple[queue.Queue[str], threading.Thread]:
    """The lines of ``process``'s stderr as they come, read by a thread (a test waits on them with a timeout)."""
    lines: queue.Queue[str] = queue.Queue()
    stream = process.stderr
    assert stream is not None
    reader = threading.Thread(target=lambda: [lines.put(line) for line in stream], daemon=True)
    reader.start()
    return lines, reader


def test_the_german_window_starts_over_a_fifo_or_a_damaged_catalogue_in_the_cache(tmp_path: Path) -> None:
    """The window's remembered language (German) and, at the compiled catalogue's name, a FIFO (read,
    it would hold the first frame for ever), then a catalogue whose charset reads utf-9 (a traceback
    before the first frame): the first frame comes (in English: nothing compiled to read), the
    catalogue is compiled again with one line, and the window closes cleanly."""
    from tests.i18n.test_catalogue_cache import cached_catalogue, fifo, flipped_charset

    env = dict(german_window_on_an_english_system(tmp_path), **{first_frame.LOG_VARIABLE: "1"})
    cached = cached_catalogue(tmp_path / "cache")
    cached.parent.mkdir(parents=True)
    for damage in (fifo, flipped_charset):
        cached.unlink(missing_ok=True)
        damage(cached)
        window = subprocess.Popen([sys.executable, "-m", "battle"], env=env, stderr=subprocess.PIPE, text=True)
        lines, reader = _stderr_lines(window)
        try:
            logged = json.loads(lines.get(timeout=120))
            assert logged["loading"] == "loading..."
            said = lines.get(timeout=120)  # the title's words need the catalogue: compiled again
            assert said.startswith(f"mahjong-battle: {cached}") and said.rstrip().endswith(" kompiliert"), said
            window.send_signal(signal.SIGTERM)
            assert window.wait(timeout=120) == 0
        finally:
            if window.poll() is None:
                window.kill()
                window.wait()
        reader.join(timeout=60)
        assert "Traceback" not in "".join(lines.queue)
        assert cached.read_bytes()[:4] == b"\xde\x12\x04\x95"
