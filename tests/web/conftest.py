"""A headless Chromium for the browser tests (Playwright from PyPI driving Debian's ``chromium``),
and a real ``mahjong-battle serve`` process on 127.0.0.1 for it to load the page from.

The browser tests skip, saying why, only when no Chromium is installed (``.ci/run`` installs
one) or Playwright is missing; Playwright's own browser downloads are never used.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WAIT_MS = 20_000
"""The longest a browser test waits for one thing on the page (a selector, a message)."""


def find_chromium() -> str | None:
    """``MAHJONG_BATTLE_CHROMIUM``, else the first Chromium on the PATH."""
    chosen = os.environ.get("MAHJONG_BATTLE_CHROMIUM")
    if chosen:
        return chosen if Path(chosen).exists() else None
    return next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install '.[test]')")
    executable = find_chromium()
    if executable is None:
        pytest.skip("no Chromium found: apt-get install chromium, or set MAHJONG_BATTLE_CHROMIUM")
    arguments = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=arguments, headless=True)
        try:
            yield launched
        finally:
            launched.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Served:
    """``mahjong-battle serve`` as a process; ``restart`` starts it again on the same port and database."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[str] | None = None
        self.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = (self.folder / "server.log").open("a", encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from battle.cli import entry_point; entry_point()", "serve", "--port",
             str(self.port), "--db", str(self.folder / "games.sqlite3")],
            stdout=subprocess.PIPE, stderr=log, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        log.close()
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert f"127.0.0.1:{self.port}" in line, line + (self.folder / "server.log").read_text()
        assert self.process.stdout.readline().startswith(f"Play in a browser: {self.base}/ ")

    def kill(self) -> None:
        """kill -9: no chance to close anything."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path)
    try:
        yield server
    finally:
        server.stop()
