"""benchmarks/survey_overhead.py must keep running against the survey it measures.

It starts its own local clusters through ``survey_run.local_cluster`` and drives
``run_survey`` against them, so a change to either could break it unnoticed. One 30-tile
deal on one cluster of one worker takes about 10 s, most of it the worker loading its
kernels.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.benchmark_scripts import BENCHMARKS

pytest.importorskip("distributed")


@pytest.mark.slow
def test_a_one_deal_run_prints_its_table() -> None:
    command = [
        sys.executable,
        str(BENCHMARKS / "survey_overhead.py"),
        "--deals",
        "1",
        "--tiles",
        "30",
        "--only-tables",
        "--memory",
        "1",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [
        [cell.strip() for cell in line.split("|")[1:-1]]
        for line in done.stdout.splitlines()
        if line.startswith("| survey")
    ]
    assert len(rows) == 1, done.stdout
    how, seconds, per_hour, against, start_up = rows[0]
    assert how == "survey, 1 worker x 2 threads, 1 GB (a 32 MiB table)", done.stdout  # 30 tiles want no more
    assert float(seconds) >= 0 and float(per_hour.replace(",", "")) > 0, done.stdout  # the solve takes ms
    assert float(start_up) > 0 and against == "+0.0%", done.stdout
