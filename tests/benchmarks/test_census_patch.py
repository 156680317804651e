"""benchmarks/node_census.patch must keep applying to the kernel it instruments.

The census counters live in a patch, not in the shipped kernel (they would slow every
search a little), so nothing else would notice when a change to ``solver/_search.py``
leaves the patch behind. When this fails, re-make the patch: apply the old one by hand,
then ``git diff solver/ > benchmarks/node_census.patch``.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PATCH = ROOT / "benchmarks" / "node_census.patch"


def test_census_patch_applies_to_the_kernel() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout")
    result = subprocess.run(
        ["git", "apply", "--check", str(PATCH)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, f"benchmarks/node_census.patch no longer applies:\n{result.stderr}"
