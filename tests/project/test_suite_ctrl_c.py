"""The suite's Ctrl-C tests hold however the run was started: a run started with SIGINT ignored (a
background job of a non-interactive shell, ``nohup``) still hands each test, and each program a
test starts, a Ctrl-C that interrupts. Checked by a real pytest with a worker of its own, started
with SIGINT ignored as ``cmd &`` in a script starts it."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CONFTEST = """
from tests.conftest import *  # noqa: F403 - the suite's own fixtures and hooks
"""

INNER_TEST = """
import signal
import subprocess
import sys

SAYS_HANDLED = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"


def test_ctrl_c_interrupts_here_and_in_a_program_started_here():
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    child = subprocess.run([sys.executable, "-c", SAYS_HANDLED], capture_output=True, text=True, timeout=60)
    assert child.stdout.strip() == "True"
"""


def test_a_run_started_with_ctrl_c_ignored_gives_its_tests_ctrl_c(tmp_path: Path) -> None:
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_inner.py").write_text(INNER_TEST, encoding="utf-8")
    pytest_line = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "1", "-q", str(tmp_path)]
    done = subprocess.run(
        ["sh", "-c", f'trap "" INT; exec {shlex.join(pytest_line)}'],  # SIGINT ignored, as `cmd &` leaves it
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "1 passed" in done.stdout
