"""The browser client's weight and speed on loopback, as a Markdown table.

    python benchmarks/web_page.py [--runs 10] [--chromium /usr/bin/chromium] [--against COMMIT]

Starts the real server (``mahjong-battle serve``) on a free port of 127.0.0.1 with a fresh
database. With ``--against COMMIT`` a second server serves that commit's tree (``git archive``
into a temporary folder) and the runs alternate between the two, so both rows are measured under
the same load; a row for each. Each run hosts a game over a raw WebSocket (deal 1), then a headless Chromium in a
fresh context (an empty cache) opens the invite link ``/join/CODE`` and waits for the first
render of a board that can be played (``data-playable`` on the page's body). The browser keeps
a name already (a friend who joined once): the link goes straight to the game.

Measured:

- files and bytes: every response the page loads from the server, as the page reads it and as
  the server sent it (its text gzipped for a browser that takes gzip), and the tile sheet's share;
- time to a playable board: from the start of ``page.goto`` to the board, on this process's
  clock (the browser's start-up is not in it: the browser runs already), and the page's own
  figure (navigation start to its ``playable`` performance mark);
- the same after a reload, with every file in the cache (each one revalidated: ``no-cache``
  with an ETag gives a 304 without a body);
- a browser's first link, with no storage at all: the time to the first screen of the game (the
  board, or a page that asks the name before it: its question), and to a playable board (such a
  page's question answered at once, no name typed).

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
            if message["type"] == "error":
                raise RuntimeError(f"the server refused the game: {message}")
    raise RuntimeError("the server sent no created message")


def first_link(browser: object, base: str, url: str) -> tuple[float, float]:
    """A browser with no storage: ms to the first thing it shows of the game (the name question
    before the board where the page asks it first, else the board), and to a playable board."""
    context = browser.new_context()  # type: ignore[attr-defined]
    page = context.new_page()
    page.set_default_timeout(30_000)
    link = f"{base}/join/{hosted_invite(url)}"
    started = time.perf_counter()
    page.goto(link)
    page.wait_for_selector("#join-ask:not([hidden]), body[data-playable]")
    asked = time.perf_counter()
    if page.is_visible("#join-ask"):  # a page that asks the name before the board
        page.click("#join-ask-button")
    page.wait_for_selector("body[data-playable]")
    answered = time.perf_counter()
    context.close()
    return (asked - started) * 1000, (answered - started) * 1000


def measure(browser: object, base: str, url: str) -> dict[str, float]:
    context = browser.new_context()  # type: ignore[attr-defined]
    context.add_init_script("localStorage.setItem('mahjong-battle.name', 'Bob')")  # joined once before
    page = context.new_page()
    page.set_default_timeout(30_000)
    loaded: dict[str, int] = {}
    sent: dict[str, int] = {}

    def count(response: object) -> None:
        if response.url.startswith(base) and response.status == 200:  # type: ignore[attr-defined]
            loaded[response.url] = len(response.body())  # type: ignore[attr-defined]
            sent[response.url] = int(response.headers.get("content-length", loaded[response.url]))  # type: ignore[attr-defined]

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
        "sent": sum(sent.values()),
        "tiles": tiles,
        "cold_ms": cold * 1000,
        "cold_page_ms": cold_page,
        "warm_ms": warm * 1000,
        "warm_page_ms": warm_page,
        "question_ms": to_question,
        "answered_ms": to_board,
    }


@contextlib.contextmanager
def served(root: Path = ROOT, solver_workers: int = 0) -> Iterator[str]:
    """``mahjong-battle serve`` of the tree at ``root`` on a free port of 127.0.0.1 with a fresh
    database (and ``solver_workers`` solver processes): the page's address."""
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-c", "from battle.cli import entry_point; entry_point()", "serve"]
        # a server older than the solver pool knows no --solver-workers, and runs no solver
        solver = ["--solver-workers", str(solver_workers)] if _knows(root, "--solver-workers") else []
        # every run hosts a game from 127.0.0.1 and leaves it waiting: the per-address caps, where the
        # tree has them, would refuse the sixth
        lifted = [
            flag_value
            for flag, value in (
                ("--max-waiting-per-address", "1000"),
                ("--max-games-per-address", "1000"),
                ("--creates-per-hour", "100000"),
            )
            if _knows(root, flag)
            for flag_value in (flag, value)
        ]
        server = subprocess.Popen(
            [*command, "--port", str(port), "--db", str(Path(folder) / "games.sqlite3"), *solver, *lifted],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "PYTHONPATH": str(root)},
            cwd=root,
        )
        try:
            assert server.stdout is not None
            if not server.stdout.readline():  # the address line: it listens
                raise SystemExit(f"the server of {root} did not start")
            yield f"http://127.0.0.1:{port}"
        finally:
            server.terminate()
            server.wait(10)


def _knows(root: Path, flag: str) -> bool:
    """Whether the ``serve`` of the tree at ``root`` takes ``flag``."""
    commands = root / "battle" / "cli" / "online_commands.py"
    return commands.is_file() and f'"{flag}"' in commands.read_text(encoding="utf-8")


@contextlib.contextmanager
def headless_browser(chromium: str | None) -> Iterator[Any]:
    """A headless Chromium (``chromium``, else the first on the PATH)."""
    from playwright.sync_api import sync_playwright

    executable = chromium or next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None)
    if executable is None:
        raise SystemExit("no Chromium found: apt-get install chromium, or give --chromium")
    sandbox = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=sandbox)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def served_browser(chromium: str | None, solver_workers: int = 0) -> Iterator[tuple[str, Any]]:
    """This tree's server (``served``) and a headless Chromium: the page's address and the browser."""
    with served(ROOT, solver_workers) as base, headless_browser(chromium) as browser:
        yield base, browser


@contextlib.contextmanager
def commit_tree(commit: str) -> Iterator[Path]:
    """``commit``'s files in a temporary folder (``git archive``), for a server of that version."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(["git", "archive", commit], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        yield Path(folder)


def table_row(runs: list[dict[str, float]]) -> str:
    def spread(key: str) -> str:
        values = [run[key] for run in runs]
        return f"{statistics.median(values):.0f} ({max(values):.0f})"

    first = runs[0]
    return (
        f"| {first['files']:.0f} | {first['bytes']:,.0f} | {first['sent']:,.0f} | {first['tiles']:,.0f} "
        f"| {spread('cold_ms')} | {spread('cold_page_ms')} | {spread('warm_ms')} | {spread('warm_page_ms')} "
        f"| {spread('question_ms')} | {spread('answered_ms')} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="links opened (default 10)")
    parser.add_argument("--chromium", help="the browser to drive (default: the first Chromium on the PATH)")
    parser.add_argument("--against", metavar="COMMIT", help="measure this commit's page too, runs alternating")
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        bases = {"this tree": stack.enter_context(served(ROOT))}
        if args.against:
            bases[args.against] = stack.enter_context(served(stack.enter_context(commit_tree(args.against))))
        browser = stack.enter_context(headless_browser(args.chromium))
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in bases}
        for _ in range(args.runs):
            for name, base in bases.items():
                runs[name].append(measure(browser, base, base.replace("http://", "ws://")))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.runs} runs on 127.0.0.1 (load {load:.1f} at the end); times are the median (the slowest) in ms\n")
    against = "| page " if args.against else ""
    print(
        f"{against}| files | bytes | bytes sent | of them tiles.png | link to playable board | page's own figure "
        "| reload, cached | page's own figure | first link: to its first screen | to a playable board |"
    )
    print(("|---" if args.against else "") + "|---|---|---|---|---|---|---|---|---|---|")
    for name, measured in runs.items():
        print((f"| {name} " if args.against else "") + table_row(measured))
    return 0


if __name__ == "__main__":
    sys.exit(main())
