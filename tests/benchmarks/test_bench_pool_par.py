"""benchmarks/pool_par.py must keep running against the pool and the engine: a small par on a pool of
one worker prints its row, proved, with the solver's value; ``--compare`` proves a small position
both ways of slicing with one value."""

from __future__ import annotations

import subprocess
import sys

import pytest

from battle.players import Advisor
from tests.benchmark_scripts import BENCHMARKS
from tests.players.conftest import greedy_down


def run(*args: str) -> list[list[str]]:
    command = [sys.executable, str(BENCHMARKS / "pool_par.py"), *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [[cell.strip() for cell in line.split("|")[1:-1]] for line in done.stdout.splitlines()]
    return [row for row in rows if row and row[0].isdigit()]


@pytest.mark.slow
def test_a_small_par_on_the_pool_and_both_ways_of_slicing_print_the_solvers_value() -> None:
    value = Advisor(megabytes=32).search(greedy_down(4, 40)).value
    ((number, tiles, _seconds, _said, proved, found, _catalogue),) = run("--deals", "4", "--tiles", "40")
    assert (number, tiles, proved, int(found)) == ("4", "40", "yes", value)
    ((number, tiles, *counts, values),) = run("--compare", "--deals", "4", "--tiles", "40")
    assert (number, tiles, counts[0], counts[3]) == ("4", "40", "1", "1")  # one slice each way
    assert values == f"{value:+d} = {value:+d}"
