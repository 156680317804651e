"""benchmarks/solver_slices.py must keep running against the engine and the pool's slice it uses."""

from __future__ import annotations

import subprocess
import sys

from tests.benchmark_scripts import BENCHMARKS


def test_a_small_run_prints_a_row_a_position_with_its_slices() -> None:
    command = [sys.executable, str(BENCHMARKS / "solver_slices.py"), "--plies", "30", "40"]
    command += ["--nodes", "400000", "--slice", "20000"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert len(rows) == 2, done.stdout
    for row in rows:
        cells = [cell.strip() for cell in row.split("|")[1:-1]]
        runs = int(cells[2].split(",")[0])
        assert 1 <= runs <= 20 and float(cells[3]) > 0, row  # at most the budget's slices
