"""A review of a finished game from the history keeps its accuracy there, for ``stats`` to show,
in the terminal as in the window: through the real program, one process per command."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

POSITION = Path(__file__).parents[1] / "data" / "positions" / "same-column-pairs.mbp"


def _run(arguments: list[str], tmp_path: Path, typed: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"), NO_COLOR="1")
    done = subprocess.run(
        [sys.executable, "-m", "battle", *arguments],
        input=typed,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, (arguments, done.stdout, done.stderr)
    return done


def test_review_of_a_stored_game_puts_its_accuracy_in_stats(tmp_path: Path) -> None:
    _run(["play", "--vs", "beginner", "--first", "--load", str(POSITION)], tmp_path, "a1-a9\n\n")
    assert "Accuracy over time" not in _run(["stats"], tmp_path).stdout
    record = _run(["stats", "--record", "1"], tmp_path).stdout
    reviewed = _run(["review", "-"], tmp_path, record)
    assert "kept with game #1 of the history" in reviewed.stderr
    stats = _run(["stats"], tmp_path).stdout
    assert "Accuracy over time (1 reviewed game)" in stats and "latest 100.0%, average 100.0%" in stats, stats


def test_the_review_at_the_end_of_a_terminal_game_puts_its_accuracy_in_stats(tmp_path: Path) -> None:
    played = _run(["play", "--vs", "beginner", "--first", "--load", str(POSITION)], tmp_path, "a1-a9\nreview\n\n")
    assert "accuracy" in played.stdout.lower()
    stats = _run(["stats"], tmp_path).stdout
    assert "Accuracy over time (1 reviewed game)" in stats, stats


def test_review_of_a_game_the_history_does_not_hold_changes_nothing(tmp_path: Path) -> None:
    _run(["play", "--vs", "beginner", "--first", "--load", str(POSITION)], tmp_path, "a1-a9\n\n")
    stored = _run(["stats", "--record", "1"], tmp_path).stdout
    record = "".join(
        "player1: Someone else\n" if line.startswith("player1:") else line for line in stored.splitlines(keepends=True)
    )
    assert record != stored
    reviewed = _run(["review", "-"], tmp_path, record)
    assert "history" not in reviewed.stderr
    assert "Accuracy over time" not in _run(["stats"], tmp_path).stdout
