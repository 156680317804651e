"""A headless Chromium for the browser tests (Playwright from PyPI driving Debian's ``chromium``),
and a real ``mahjong-battle serve`` process on 127.0.0.1 for it to load the page from
(``tests.online_server.ServerProcess``).

The browser tests skip, saying why, only when no Chromium is installed (``.ci/run`` installs
one) or Playwright is missing; Playwright's own browser downloads are never used.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.online_server import ServerProcess

HEADLESS_SHELL = "chromium-headless-shell"
"""Debian's build of Chromium for headless use only (the engine of ``chromium``, without the browser's
windows and their services), which Playwright also runs for headless tests by default: opening a page
of the game costs it 0.27 CPU s against 1.13 s for ``chromium`` (home, Chromium 156), and the web
tests took 234 CPU s against 276 s, 218 s against 245 s of wall time (``tools/suite_cpu.py``)."""
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
"""The browsers with windows, for what the headless shell lacks (desktop notifications)."""
LAN_DOMAIN = "test"
"""Names under ``.test`` reach 127.0.0.1 in the tests' browser: ``http://mahjong.test:PORT`` is how a
page opened by a LAN name looks (no secure context, so no clipboard API), without leaving loopback."""
WAIT_MS = 20_000
"""The longest a browser test waits for one thing on the page (a selector, a message)."""
HINT_WAIT_MS = 120_000
"""The longest a browser test waits for a hint: a node budget, not a time (a depth-10 search of up to
a million nodes, then an exact one of up to three million, ``HintJob``), 2-4 s of the server's one
solver worker on a quiet machine; beside two busy loops, with the worker's share of a core, one took
longer than ``WAIT_MS``."""


def find_chromium(*, windows: bool = False) -> str | None:
    """``MAHJONG_BATTLE_CHROMIUM``, else the headless shell, else the first Chromium on the PATH.
    ``windows``: a Chromium with the browser's own services (desktop notifications), so never the
    shell, even where the variable names it."""
    chosen = os.environ.get("MAHJONG_BATTLE_CHROMIUM")
    if chosen and not (windows and HEADLESS_SHELL in Path(chosen).name):
        return chosen if Path(chosen).exists() else None
    names = CHROMIUM_NAMES if windows else (HEADLESS_SHELL, *CHROMIUM_NAMES)
    return next((found for name in names if (found := shutil.which(name))), None)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright's driver for a worker's session: one drives both browsers (a second sync driver
    cannot start while one runs)."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed (pip install '.[browser]')"
    )
    with sync_api.sync_playwright() as driver:
        yield driver


def _launch(playwright: Any, executable: str | None, install: str) -> Iterator[Any]:
    """A headless ``executable`` for a worker's session; at its end it must hold no context of a
    test. Skips, saying what to install, when there is none."""
    if executable is None:
        pytest.skip(f"no Chromium found: apt-get install {install}, or set MAHJONG_BATTLE_CHROMIUM")
    arguments = ["--no-sandbox"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    arguments.append(f"--host-resolver-rules=MAP *.{LAN_DOMAIN} 127.0.0.1")
    launched = launch_without_popups(playwright, executable, arguments)
    try:
        yield launched
        left = len(launched.contexts)
        assert left == 0, f"the browser still holds {left} context(s) of finished tests"
    finally:
        launched.close()


@pytest.fixture(scope="session")
def chromium(playwright: Any) -> Iterator[Any]:
    """One Chromium for a test worker's whole session (``find_chromium``): a launch costs about a
    second. Tests reach it through ``browser``, which closes what each test opened."""
    yield from _launch(playwright, find_chromium(), "chromium-headless-shell")


@pytest.fixture(scope="session")
def full_chromium(playwright: Any) -> Iterator[Any]:
    """A Chromium with windows (``find_chromium(windows=True)``), launched by the first test of a worker
    that needs one; tests reach it through ``full_browser``."""
    yield from _launch(playwright, find_chromium(windows=True), "chromium")


HIDDEN_POPUPS = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
"""Chromium 150 and later start the address bar's suggestion popups as WebUI renderers in every new
window, headless too: per context one renderer that no test looks at, which took 83 s of CPU in a
run of the web tests (their pages' renderers: 106 s)."""


def launch_without_popups(playwright: Any, executable: str, arguments: list[str]) -> Any:
    """Chromium with ``HIDDEN_POPUPS`` off on top of the features Playwright turns off itself.

    Chromium keeps the last ``--disable-features`` it is given, so a second one would drop Playwright's
    list (HTTPS upgrades among them): the list is read from the launched browser's command line and
    given again with these added, in place of Playwright's own."""
    launched = playwright.chromium.launch(executable_path=executable, args=arguments, headless=True)
    if HEADLESS_SHELL in Path(executable).name:
        return launched  # no address bar, so no popups
    defaults = _disabled_features(launched)
    if defaults is None:
        return launched
    launched.close()
    return playwright.chromium.launch(
        executable_path=executable,
        args=[*arguments, "--disable-features=" + ",".join(filter(None, [defaults, *HIDDEN_POPUPS]))],
        ignore_default_args=[f"--disable-features={defaults}"],
        headless=True,
    )


def _disabled_features(launched: Any) -> str | None:
    """The ``--disable-features`` value the browser process of ``launched`` was started with (None
    when it cannot be read: the popups then stay, which costs time, not correctness)."""
    import psutil

    session = launched.new_browser_cdp_session()
    try:
        processes = session.send("SystemInfo.getProcessInfo")["processInfo"]
    except Exception:  # a build without the call: Playwright's error type is its own
        return None
    finally:
        session.detach()
    browser = next((process["id"] for process in processes if process["type"] == "browser"), None)
    if browser is None:
        return None
    with contextlib.suppress(psutil.Error):
        for argument in psutil.Process(browser).cmdline():
            if argument.startswith("--disable-features="):
                return argument.removeprefix("--disable-features=")
    return None


class TestBrowser:
    """The session's Chromium as one test sees it: every context (and so every page) the test opens
    through it is closed when the test ends, passed or failed. A page left open keeps its timers
    running (reconnects, heartbeats against a server that is gone) until the browser closes: 180
    renderer processes and a load of 22 by the end of the web tests alone, where 62 tests each
    left their pages."""

    __test__ = False  # a helper, not a test class

    def __init__(self, launched: Any) -> None:
        self.launched = launched
        self.opened: list[Any] = []

    def new_context(self, **options: Any) -> Any:
        context = self.launched.new_context(**options)
        self.opened.append(context)
        return context

    def new_page(self, **options: Any) -> Any:
        return self.new_context(**options).new_page()

    def close_all(self) -> None:
        for context in self.opened:
            context.close()  # a second close of a context is a no-op in Playwright
        self.opened.clear()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.launched, name)


@pytest.fixture
def browser(chromium: Any) -> Iterator[TestBrowser]:
    """The browser for one test; when the test ends, its contexts are closed and none may be left."""
    yield from _one_test(chromium)


@pytest.fixture
def full_browser(full_chromium: Any) -> Iterator[TestBrowser]:
    """``browser`` on a Chromium with windows, for a test of what the headless shell lacks."""
    yield from _one_test(full_chromium)


def _one_test(launched: Any) -> Iterator[TestBrowser]:
    seen = TestBrowser(launched)
    try:
        yield seen
    finally:
        seen.close_all()
    left = len(launched.contexts)
    assert left == 0, f"the browser still holds {left} context(s) this test did not open through `browser`"


Served = ServerProcess
"""The web tests' name for the server process (``tests.online_server.ServerProcess``)."""


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path) as server:
        yield server
