"""The end of a terminal game, through the real program: where the record is, a copy, a review."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from battle.rules.game import Game

POSITION = Path(__file__).parents[1] / "data" / "positions" / "same-column-pairs.mbp"


def test_the_end_of_a_game_offers_save_and_review_and_says_where_the_record_is(tmp_path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"),
               NO_COLOR="1")
    script = "a1-a9\nb2 b1\nreview\nsave copy\nnonsense\n\n"
    result = subprocess.run([sys.executable, "-m", "battle", "play", "--load", str(POSITION)], input=script.encode(),
                            capture_output=True, env=env, cwd=tmp_path, timeout=300)
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
    stats = subprocess.run([sys.executable, "-m", "battle", "stats"], capture_output=True, env=env, cwd=tmp_path,
                           timeout=120)
    assert stats.returncode == 0 and "Games: 1 stored" in stats.stdout.decode(), stats.stdout.decode()
