"""A pool on a machine whose numba cache is empty: the levels up to expert answer from plain Python
while one worker compiles the kernels, a deeper level waits for them. A pool of its own in a child
process with an empty ``NUMBA_CACHE_DIR``, so the compile is real (a minute of CPU on a busy
machine): slow."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from battle.players import Opponent
from battle.rules.board import parse_move
from battle.rules.deal import deal

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json
from dataclasses import asdict
from battle.players.pool.local_workers import LocalPool
from battle.players.pool.jobs import MoveJob, position_data
from battle.rules.deal import deal

with LocalPool(2, budget=None) as pool:
    position = position_data(deal(4))
    club = pool.submit(MoveJob(position, "club", 7), seat="club", address="10.0.0.1")
    master = pool.submit(MoveJob(position, "master", 7), seat="master", address="10.0.0.1")
    club_move = club.result(900)
    ready_then = pool.stats()["workers_ready"]
    master_move = master.result(900)
    print(json.dumps({"club": asdict(club_move), "ready_then": ready_then, "master": asdict(master_move)}))
"""


@pytest.mark.slow
def test_shallow_moves_come_from_plain_python_while_one_worker_compiles_the_kernels(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    answers = json.loads(done.stdout.splitlines()[-1])
    assert answers["club"]["plain"] and answers["ready_then"] == 0
    assert not answers["master"]["plain"]
    for level in ("club", "master"):  # the same move as the window's opponent with the same random numbers
        expected = Opponent(megabytes=64).move(deal(4), level=level, rng=random.Random(7))
        assert parse_move(answers[level]["move"]) == expected, level
    assert any((tmp_path / "numba").rglob("*.nbi"))  # compiled into the empty cache
