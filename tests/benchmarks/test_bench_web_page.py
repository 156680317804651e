"""benchmarks/web_page.py must keep measuring the page it loads: one run prints its row (the
page's files, their bytes as read and as sent, the times). Needs a Chromium, as the browser tests do."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.benchmark_scripts import BENCHMARKS
from tests.web.conftest import find_chromium


@pytest.mark.slow
def test_one_run_prints_the_pages_files_bytes_and_times() -> None:
    pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install '.[browser]')")
    chromium = find_chromium()
    if chromium is None:
        pytest.skip("no Chromium found: apt-get install chromium, or set MAHJONG_BATTLE_CHROMIUM")
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "web_page.py"), "--runs", "1", "--chromium", chromium],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("| ") and line[2].isdigit())
    cells = [cell.strip().replace(",", "") for cell in row.split("|")[1:-1]]
    (files, size, sent, tiles), times = (int(cell) for cell in cells[:4]), cells[4:]
    assert files >= 9 and size > tiles > 100_000
    assert tiles < sent < size * 0.7, done.stdout  # the text gzipped: Chromium takes gzip
    assert len(times) == 6, done.stdout  # link, reload and a first link (to the name question, then the board)
