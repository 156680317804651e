"""benchmarks/online_load.py must keep running against the server it loads.

The benchmark starts the real server process, plays games over real sockets from a client
process and wraps two of the server's methods with timers, so a change to the protocol,
the command line or those methods could break it without anything else noticing. Four
games of six moves with 10 ms pauses, on each commit path, take about 6 s.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.benchmark_scripts import BENCHMARKS, load_script


@pytest.mark.slow
def test_a_tiny_load_run_prints_its_rows_with_no_errors() -> None:
    command = [
        sys.executable,
        str(BENCHMARKS / "online_load.py"),
        "--games",
        "4",
        "--think",
        "0.01",
        "--moves-per-game",
        "6",
        "--timeout",
        "10",
        "--duration",
        "30",
        "--commit",
        "each,group",
        "--slow-sync-ms",
        "1",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr
    rows = [
        [cell.strip() for cell in line.split("|")[1:-1]]
        for line in done.stdout.splitlines()
        if line.startswith("| 4 |")
    ]
    assert [row[1:3] for row in rows] == [["each", "1"], ["group", "1"]] * 2, done.stdout  # load rows, timers' rows
    for load in rows[:2]:
        assert load[4] == "24" and load[-1] == "0", done.stdout  # 4 games x 6 moves acknowledged, no errors
        assert float(load[7]) < 10_000 and load[10] != "0.0 / 0.0"  # a p99 and the server's RSS were read
        total, loop, writer = re.fullmatch(r"(\S+) \((\S+) \+ (\S+)\)", load[14]).groups()  # type: ignore[union-attr]
        assert float(loop) > 0 and float(total) == pytest.approx(float(loop) + float(writer), abs=0.011), done.stdout
    assert rows[0][16].startswith("1 / 1 / 1"), done.stdout  # each: one write a commit
    assert rows[1][16] != "-", done.stdout  # group: the writer's batch sizes were read
    for timers in rows[2:]:
        assert timers[3] == "24", done.stdout  # the server's timers saw every move


@pytest.mark.slow
def test_each_event_loop_and_writer_wait_is_a_run_of_its_own() -> None:
    command = [
        sys.executable,
        str(BENCHMARKS / "online_load.py"),
        *("--games", "2", "--think", "0.01", "--moves-per-game", "4", "--timeout", "10", "--duration", "30"),
        *("--event-loop", "asyncio,auto", "--gather-ms", "0,1"),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loads = [line.split("|")[1:-1] for line in done.stdout.splitlines() if line.startswith("| 2 |")][:4]
    assert [(cells[1].strip(), cells[4].strip(), cells[-1].strip()) for cells in loads] == [
        ("group, loop asyncio, gather 0 ms", "8", "0"),
        ("group, loop asyncio, gather 1 ms", "8", "0"),
        ("group, loop auto, gather 0 ms", "8", "0"),
        ("group, loop auto, gather 1 ms", "8", "0"),
    ], done.stdout


def test_percentile_is_the_nearest_rank() -> None:
    percentile = load_script("online_load").percentile
    values = [float(value) for value in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile(list(reversed(values)), 1.0) == 100.0
    assert percentile([7.0], 0.99) == 7.0
