"""benchmarks/move_codec.py must keep timing the server's own reading and writing of a move."""

from __future__ import annotations

import subprocess
import sys

from tests.benchmark_scripts import BENCHMARKS


def test_a_short_run_prints_the_servers_row() -> None:
    command = [sys.executable, str(BENCHMARKS / "move_codec.py"), "--moves", "200", "--repeats", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    rows = [line.split("|")[1:-1] for line in done.stdout.splitlines() if line.startswith("| json")]
    assert len(rows) == 1 and float(rows[0][1]) > 0, done.stdout
