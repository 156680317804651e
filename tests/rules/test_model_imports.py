"""The rules model imports neither the UI (pygame), nor numba, nor the solver.

Checked in a fresh interpreter: in this one, other tests may already have imported them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import sys
import battle, battle.rules, battle.storage, battle.cli, battle.cli.command_line, battle.cli.inputs, battle.cli.terminal
import battle.cli.textboard
for module in ("tiles", "board", "deal", "game", "notation", "opens", "errors", "wording"):
    __import__("battle.rules." + module)
for module in ("paths", "textfile", "saved_games"):
    __import__("battle.storage." + module)
heavy = sorted(
    name for name in sys.modules
    if name.split(".")[0] in ("pygame", "numba", "solver") or name.startswith("battle.ui")
)
print(",".join(heavy))
"""


def test_the_model_imports_no_ui_numba_or_solver() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_the_check_would_notice_an_import() -> None:
    """Guard against a check that cannot fail: importing numba shows up."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    code = CHECK.replace("import sys\n", "import sys\nimport numba\n", 1)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "numba" in done.stdout.split(",")
