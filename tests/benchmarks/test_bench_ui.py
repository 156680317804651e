"""benchmarks/bench_ui.py must keep measuring the window as it runs: a short run each way prints the
frames' table, and paced like ``App.run`` it draws fewer frames than at every frame while the solver
thinks (30 a second at most, whatever the load: a load only makes fewer)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.benchmark_scripts import BENCHMARKS

SECONDS = 3


def frames_row(*flags: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_ui.py"), "--seconds", str(SECONDS), "--runs", "1", *flags],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    header = next(line for line in done.stdout.splitlines() if line.startswith("| frames"))
    assert header.split("|")[-2].strip() == "work ms a second", header
    row = next(line for line in done.stdout.splitlines() if line.startswith("| ") and line[2].isdigit())
    return [cell.strip() for cell in row.split("|")[1:-1]]


@pytest.mark.slow
def test_thinking_frames_come_at_30_a_second_and_every_frame_at_60() -> None:
    paced, every = frames_row(), frames_row("--every-frame")
    assert len(paced) == len(every) == 7
    assert int(paced[0]) <= 31 * SECONDS, paced  # after the deal's first frames, a frame each 1/30 s at most
    assert int(paced[0]) < int(every[0]), (paced, every)
