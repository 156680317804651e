"""``mahjong-battle review`` gives the same grades twice, whatever else the machine is doing.

The review's budget is counted in nodes on one search thread, so a second run of the same
game, with other processes taking the cores, reaches the same depths and grades every move
the same, estimates included.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.benchmark_scripts import load_script

BUDGET = "0.05"
"""Seconds a move at a million nodes a second: far from proving a full board's values, so most
of the opening's grades are estimates, which a budget in seconds changed with the load."""


def _review(record: Path, tmp_path: Path) -> dict:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"))
    done = subprocess.run(
        [sys.executable, "-m", "battle", "review", "--time", BUDGET, "--json", "--quiet", str(record)],
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def _grades(review: dict) -> list[tuple]:
    return [
        (
            move["move"],
            move["value"],
            move["bound"],
            move["best_value"],
            move["best_moves"],
            move["loss"],
            move["class"],
            move["exact"],
            move["depth"],
        )
        for move in review["moves"]
    ]


@pytest.mark.slow
def test_the_same_review_on_a_loaded_machine_gives_the_same_grades(tmp_path: Path) -> None:
    record = tmp_path / "game.mbg"
    record.write_text(load_script("review_repeat").played_game(5).to_text())  # the benchmark's game
    first = _review(record, tmp_path)
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 2)]
    try:
        second = _review(record, tmp_path)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    assert any(not move["exact"] for move in first["moves"]), "the budget proves everything: nothing is tested"
    assert _grades(second) == _grades(first)
    assert [player["accuracy"] for player in second["summary"]] == [player["accuracy"] for player in first["summary"]]
    assert second["nodes_per_move"] == first["nodes_per_move"] == 50_000
