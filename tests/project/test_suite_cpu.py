"""``tools/suite_cpu.py``: a test's CPU (pytest's own and its children's) summed by folder and by file,
and a folder with no lines refused in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "suite_cpu.py"


def test_the_tables_add_each_tests_own_and_childrens_cpu_by_folder_and_file(tmp_path: Path) -> None:
    (tmp_path / "cpu-gw0.tsv").write_text(
        "tests/online/test_a.py::test_one\t0.50\t2.00\t3.00\ntests/online/test_a.py::test_two\t0.25\t0.25\t1.00\n"
    )
    (tmp_path / "cpu-gw1.tsv").write_text("tests/web/test_b.py::test_page[en]\t1.00\t0.00\t4.00\n")
    printed = subprocess.run(
        [sys.executable, str(TOOL), "--report", str(tmp_path)], capture_output=True, text=True, check=True
    ).stdout
    assert printed.startswith("3 tests: CPU 4 s (2 in pytest, 2 in its children), 8 worker-seconds of wall time")
    assert "| tests/online | 3.0 | 75% |" in printed and "| tests/web | 1.0 | 25% |" in printed
    assert "| tests/online/test_a.py | 2 | 3.0 | 4.0 |" in printed


def test_a_folder_without_lines_is_refused_in_one_line(tmp_path: Path) -> None:
    refused = subprocess.run([sys.executable, str(TOOL), "--report", str(tmp_path)], capture_output=True, text=True)
    assert refused.returncode == 2
    assert refused.stderr.splitlines()[-1].endswith(f"--report: no cpu-*.tsv lines in {tmp_path}")
