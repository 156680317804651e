"""benchmarks/window_par.py must keep running against the window and its par finder: a small run prints
a row without the par and one with it, the par found and equal to the solver's exact value."""

from __future__ import annotations

import subprocess
import sys

import pytest

from battle.atlas.solve_deal import start_position
from battle.players import Advisor
from tests.benchmark_scripts import BENCHMARKS


@pytest.mark.slow
def test_a_small_run_prints_both_ways_and_finds_the_par() -> None:
    command = [sys.executable, str(BENCHMARKS / "window_par.py"), "--levels", "club", "--tiles", "20"]
    command += ["--think", "0", "--cap", "240", "--moves", "3"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [[cell.strip() for cell in line.split("|")[1:-1]] for line in done.stdout.splitlines()]
    rows = [row for row in rows if row and row[0] == "club"]
    assert [row[1] for row in rows] == ["no", "yes"], done.stdout
    without, with_par = rows
    assert int(without[2]) == int(with_par[2]) == 3  # the replies timed both ways
    assert (without[6], without[7]) == ("-", "-")
    expected = Advisor(megabytes=32).search(start_position(3, 20))
    assert expected.exact and int(with_par[7]) == expected.value, done.stdout
