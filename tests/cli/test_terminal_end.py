"""The end of a terminal game, through the real program: where the record is, a copy, a review."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from battle.rules.game import Game

POSITION = Path(__file__).parents[1] / "data" / "positions" / "same-column-pairs.mbp"


def test_the_end_of_a_game_offers_save_and_review_and_says_where_the_record_is(tmp_path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"), NO_COLOR="1")
    script = "a1-a9\nb2 b1\nreview\nsave copy\nnonsense\n\n"
    result = subprocess.run(
        [sys.executable, "-m", "battle", "play", "--load", str(POSITION)],
        input=script.encode(),
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    out = result.stdout.decode()
    assert result.returncode == 0, result.stderr.decode()
    assert "Game over: Player 2 wins 56-64 (by 8)." in out
    kept = Path(out.split("The record is kept in ")[1].split("\n")[0].rstrip("."))
    assert kept.parent == tmp_path / "data" / "mahjong-battle" / "finished"
    assert Game.from_text(kept.read_text()).is_over()
    assert out.count("save FILE, review, or Enter to leave>") == 4  # after the end, review, save, nonsense
    assert "Accuracy" in out or "accuracy" in out  # the review's text
    assert "Saved to copy.mbg." in out
    assert Game.from_text((tmp_path / "copy.mbg").read_text()).moves == Game.from_text(kept.read_text()).moves
    assert "Type 'save FILE' to write the record" in out
    # the finished game is in the history that `stats` reads, once
    stats = subprocess.run(
        [sys.executable, "-m", "battle", "stats"], capture_output=True, env=env, cwd=tmp_path, timeout=120
    )
    assert stats.returncode == 0 and "Games: 1 stored" in stats.stdout.decode(), stats.stdout.decode()


def test_a_game_against_the_solver_from_a_composed_position_is_kept_but_not_rated(tmp_path) -> None:
    """A position from the editor (or any file) may hand one side the game: it counts among the
    games, not toward the rating against the levels, which numbered deals alone feed."""
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"), NO_COLOR="1")
    played = subprocess.run(
        [sys.executable, "-m", "battle", "play", "--vs", "beginner", "--first", "--load", str(POSITION)],
        input=b"a1-a9\n\n",
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert played.returncode == 0, played.stderr.decode()
    assert "Game over" in played.stdout.decode()
    stats = subprocess.run(
        [sys.executable, "-m", "battle", "stats"], capture_output=True, env=env, cwd=tmp_path, timeout=120
    )
    text = stats.stdout.decode()
    assert stats.returncode == 0 and "Games: 1 stored" in text, text
    assert "Rating against the solver: no rated game against a level yet" in text, text
