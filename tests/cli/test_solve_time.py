"""``solve --time T`` answers at its deadline whatever the kernels' load from numba's cache does:
plain Python searches beside the load (``battle.cli.solver_commands._plain_while_loading``). The
load is made endless here (a busy machine makes it 8-18 s; ``benchmarks/bench_cli_time.py --busy 2``
measures the real thing); the test waits for the answer, it times nothing."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from battle.rules.deal import deal
from battle.rules.notation import format_position
from tests.cli.terminal_process import home_env

ENDLESS_LOAD = """
import sys, threading
import solver.engine

def load_for_ever(self, *arguments):  # the kernels' load from the cache never ends
    threading.Event().wait()

solver.engine.Engine._load_kernels = load_for_ever
sys.argv = ["mahjong-battle", *sys.argv[1:]]
from battle.cli import entry_point
entry_point()
"""


def test_a_time_limited_solve_answers_while_the_kernels_still_load(tmp_path: Path) -> None:
    (tmp_path / "deal-5.mbp").write_text(format_position(deal(5)))
    try:
        done = subprocess.run(
            [sys.executable, "-c", ENDLESS_LOAD, "solve", "deal-5.mbp", "--time", "1"],
            capture_output=True,
            text=True,
            env=home_env(tmp_path),
            cwd=tmp_path,
            timeout=120,  # the load never ends: without an answer at the deadline this is a hang
        )
    except subprocess.TimeoutExpired as expired:
        raise AssertionError(f"no answer while the kernels load: {expired.stderr!r}") from None
    assert done.returncode == 0, done.stderr[-2000:]
    # depth 4 when the start-up leaves time for it; a start-up longer than the second leaves depth 2
    assert re.search(r"not exact \(depth [2-4]; a limit stopped the search\)", done.stdout), done.stdout
    loading = "  loading the solver's kernels from the cache; plain Python searches meanwhile"
    assert loading in done.stderr.splitlines(), done.stderr
    assert "compiling" not in done.stderr and "Traceback" not in done.stderr
