"""The browser client's weight and speed on loopback, as a Markdown table.

    python benchmarks/web_page.py [--runs 10] [--chromium /usr/bin/chromium]

Starts the real server (``mahjong-battle serve``) on a free port of 127.0.0.1 with a fresh
database. Each run hosts a game over a raw WebSocket (deal 1), then a headless Chromium in a
fresh context (an empty cache) opens the invite link ``/join/CODE`` and waits for the first
render of a board that can be played (``data-playable`` on the page's body). The browser keeps
a name already (a friend who joined once): the link goes straight to the game.

Measured:

- files and bytes: every response the page loads from the server (the server sends no
  compression), and the tile sheet's share;
- time to a playable board: from the start of ``page.goto`` to the board, on this process's
  clock (the browser's start-up is not in it: the browser runs already), and the page's own
  figure (navigation start to its ``playable`` performance mark);
- the same after a reload, with every file in the cache (each one revalidated: ``no-cache``
  with an ETag gives a 304 without a body);
- a browser's first link, with no storage at all: the time to the name question it asks, and
  from the answer (Join, no name typed) to the playable board.

Needs Playwright (``pip install '.[browser]'``) and a Chromium (Debian's ``chromium``).
Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def hosted_invite(url: str) -> str:
    """A new game's invite code (the host leaves; the game waits for its second player)."""
    from websockets.sync.client import connect

    with connect(url, open_timeout=10) as socket_:
        socket_.send(json.dumps({"type": "hello", "version": 1}))
        socket_.send(json.dumps({"type": "create", "deal": {"number": 1}, "first": "creator"}))
        for _ in range(10):
            message = json.loads(socket_.recv(timeout=10))
            if message["type"] == "created":
                return str(message["invite"])
    raise RuntimeError("the server sent no created message")


def first_link(browser: object, base: str, url: str) -> tuple[float, float]:
    """A browser with no storage: ms to the name question, and from the answer to the board."""
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(30_000)
    started = time.perf_counter()
    page.goto(f"{base}/join/{hosted_invite(url)}")
    page.wait_for_selector("#join-ask:not([hidden]), body[data-playable]")
    asked = time.perf_counter()
    if page.is_visible("#join-ask"):
        page.click("#join-ask-button")
    page.wait_for_selector("body[data-playable]")
    answered = time.perf_counter()
    context.close()
    return (asked - started) * 1000, (answered - asked) * 1000


def measure(browser: object, base: str, url: str) -> dict[str, float]:
    context = browser.new_context()  # type: ignore[attr-defined]
    context.add_init_script("localStorage.setItem('mahjong-battle.name', 'Bob')")  # joined once before
    page = context.new_page()
    page.set_default_timeout(30_000)
    loaded: dict[str, int] = {}

    def count(response: object) -> None:
        if response.url.startswith(base) and response.status == 200:  # type: ignore[attr-defined]
            loaded[response.url] = len(response.body())  # type: ignore[attr-defined]

    page.on("response", count)
    link = f"{base}/join/{hosted_invite(url)}"
    started = time.perf_counter()
    page.goto(link)
    page.wait_for_selector("body[data-playable]")
    cold = time.perf_counter() - started
    cold_page = page.evaluate("() => performance.getEntriesByName('playable')[0].startTime")
    files, size = len(loaded), sum(loaded.values())
    tiles = sum(length for address, length in loaded.items() if address.endswith("/tiles.png"))
    started = time.perf_counter()
    page.reload()
    page.wait_for_selector("body[data-playable]")
    warm = time.perf_counter() - started
    warm_page = page.evaluate("() => performance.getEntriesByName('playable')[0].startTime")
    context.close()
    to_question, to_board = first_link(browser, base, url)
    return {
        "files": files,
        "bytes": size,
        "tiles": tiles,
        "cold_ms": cold * 1000,
        "cold_page_ms": cold_page,
        "warm_ms": warm * 1000,
        "warm_page_ms": warm_page,
        "question_ms": to_question,
        "answered_ms": to_board,
    }


@contextlib.contextmanager
def served_browser(chromium: str | None, solver_workers: int = 0) -> Iterator[tuple[str, Any]]:
    """``mahjong-battle serve`` on a free port of 127.0.0.1 with a fresh database (and ``solver_workers``
    solver processes), and a headless Chromium (``chromium``, else the first on the PATH): the page's
    address and the browser."""
    from playwright.sync_api import sync_playwright

    executable = chromium or next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None)
    if executable is None:
        raise SystemExit("no Chromium found: apt-get install chromium, or give --chromium")
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-c", "from battle.cli import entry_point; entry_point()", "serve"]
        server = subprocess.Popen(
            [
                *command,
                "--port",
                str(port),
                "--db",
                str(Path(folder) / "games.sqlite3"),
                "--solver-workers",
                str(solver_workers),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        try:
            assert server.stdout is not None
            server.stdout.readline()  # the address line: it listens
            sandbox = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=executable, args=sandbox)
                try:
                    yield f"http://127.0.0.1:{port}", browser
                finally:
                    browser.close()
        finally:
            server.terminate()
            server.wait(10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="links opened (default 10)")
    parser.add_argument("--chromium", help="the browser to drive (default: the first Chromium on the PATH)")
    args = parser.parse_args(argv)
    with served_browser(args.chromium) as (base, browser):
        url = base.replace("http://", "ws://")
        runs = [measure(browser, base, url) for _ in range(args.runs)]

    def spread(key: str) -> str:
        values = [run[key] for run in runs]
        return f"{statistics.median(values):.0f} ({max(values):.0f})"

    first = runs[0]
    print(f"{args.runs} runs on 127.0.0.1; times are the median (the slowest) in ms\n")
    print(
        "| files | bytes | of them tiles.png | link to playable board | page's own figure "
        "| reload, cached | page's own figure | first link: to the name question | answer to board |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    print(
        f"| {first['files']:.0f} | {first['bytes']:,.0f} | {first['tiles']:,.0f} | {spread('cold_ms')} "
        f"| {spread('cold_page_ms')} | {spread('warm_ms')} | {spread('warm_page_ms')} "
        f"| {spread('question_ms')} | {spread('answered_ms')} |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
