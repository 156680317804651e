"""The suite closes what it opens: a test that leaves a process running, or a browser context open,
fails, and what it left is ended. Each case runs a small test file in a real pytest process with
this suite's own fixtures (``tests/conftest.py``, ``tests/web/conftest.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]

CONFTEST = """
from tests.conftest import *  # noqa: F403 - the suite's own fixtures and hooks
import tests.leftover_processes

tests.leftover_processes.GRACE_SECONDS = 0.5
"""

SLEEPER = '[sys.executable, "-c", "import time; time.sleep(300)"]'


def run_pytest(folder: Path, tests: str, conftest: str = CONFTEST) -> subprocess.CompletedProcess[str]:
    (folder / "conftest.py").write_text(conftest, encoding="utf-8")
    (folder / "test_inner.py").write_text(tests, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", "-rA", str(folder)],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PID_FOLDER": str(folder)},
    )


def still_running(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_a_process_a_test_leaves_running_fails_it_and_is_killed(tmp_path: Path) -> None:
    tests = f"""
import os, subprocess, sys
from pathlib import Path

import pytest


def started(name):
    process = subprocess.Popen({SLEEPER})
    Path(os.environ["PID_FOLDER"], name).write_text(str(process.pid))
    return process


def test_leaves_one_running():
    started("left")


def test_fails_with_one_running():
    started("failed")
    assert False, "the test's own failure"


def test_ends_its_own():
    process = started("ended")
    process.kill()
    process.wait()


@pytest.fixture(scope="module")
def module_server():
    yield started("fixture")


def test_uses_a_module_fixture_that_leaves_its_process(module_server):
    pass
"""
    result = run_pytest(tmp_path, tests)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "ERROR test_inner.py::test_leaves_one_running" in output
    assert "PASSED test_inner.py::test_ends_its_own" in output
    assert "FAILED test_inner.py::test_fails_with_one_running" in output
    assert "processes started by this test outlived it" in output
    assert "processes of the fixture 'module_server' outlived it" in output
    for name in ("left", "failed", "ended", "fixture"):
        pid = int((tmp_path / name).read_text())
        assert not still_running(pid), f"the {name} process {pid} still runs"


def test_a_browser_context_is_closed_with_its_test_and_one_left_open_fails_the_run(tmp_path: Path) -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install '.[browser]')")
    from tests.web.conftest import find_chromium

    if find_chromium() is None:
        pytest.skip("no Chromium found: apt-get install chromium, or set MAHJONG_BATTLE_CHROMIUM")
    conftest = CONFTEST + "from tests.web.conftest import *  # noqa: F403\n"
    tests = """
def test_opens_pages_and_leaves_them(browser):
    browser.new_page().goto("about:blank")
    browser.new_context().new_page().goto("about:blank")


def test_the_pages_of_the_test_before_are_closed(chromium):
    assert chromium.contexts == []


def test_opens_one_past_the_fixture(chromium):
    chromium.new_context()
"""
    result = run_pytest(tmp_path, tests, conftest)
    output = result.stdout + result.stderr
    assert "PASSED test_inner.py::test_the_pages_of_the_test_before_are_closed" in output, output
    assert "the browser still holds 1 context(s) of finished tests" in output, output
    assert result.returncode == 1, output
