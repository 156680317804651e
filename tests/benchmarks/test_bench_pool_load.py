"""benchmarks/pool_load.py must keep running against the pool it loads.

It drives a ``LocalPool`` through its whole API (submissions, refusals, tickets, places, seats
cancelled), so a change to the pool could break it unnoticed. Two club games of three solver
moves, beside a flood of one seat, and the ``--cancel`` table's one run, take about 30 s.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.benchmark_scripts import BENCHMARKS


def rows(output: str, first: str) -> list[list[str]]:
    return [[cell.strip() for cell in line.split("|")[1:-1]] for line in output.splitlines() if line.startswith(first)]


@pytest.mark.slow
def test_a_tiny_run_prints_both_tables() -> None:
    command = [
        sys.executable,
        str(BENCHMARKS / "pool_load.py"),
        "--levels",
        "club:2",
        "--think",
        "0.05",
        "--moves-per-game",
        "3",
        "--flood-seats",
        "1",
        "--flood-seconds",
        "0.5",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    club = rows(done.stdout, "| club | 2 | ")
    levels = [row for row in club if row[2] in ("no", "yes")]
    flood = [row for row in club if row[2] not in ("no", "yes")]
    assert [row[2] for row in levels] == ["no", "yes"], done.stdout
    for row in levels:
        assert row[3] == "6" and row[9:11] == ["0", "0"], done.stdout  # 2 games x 3 moves, none refused or failed
    assert len(flood) == 1 and flood[0][5] in ("met", "missed") and int(flood[0][6]) >= 1, done.stdout


@pytest.mark.slow
def test_the_cancel_table_has_its_three_rows() -> None:
    command = [sys.executable, str(BENCHMARKS / "pool_load.py"), "--cancel", "--runs", "1"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    found = [row[0] for row in rows(done.stdout, "| ") if row and row[-1] == "1"]
    assert found == ["after a stop", "after a kill and a new worker", "alone"], done.stdout
