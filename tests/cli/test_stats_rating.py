"""Only games from a numbered or random deal move the rating against the solver: a game against a
level from a composed position (the window's editor, a loaded position) is kept, tallied and said
to be unrated, in ``stats`` through the real program."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from battle.history.store import GameEntry, History
from battle.rules.game import Game

POSITION = Path(__file__).parents[1] / "data" / "positions" / "same-column-pairs.mbp"


def _run(arguments: list[str], env: dict[str, str], tmp_path: Path, typed: str = "") -> str:
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
    return done.stdout


def test_a_game_from_a_composed_position_does_not_move_the_rating(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CONFIG_HOME=str(tmp_path / "config"), NO_COLOR="1")
    # one game lost to the club level from deal 12's start, as a window would have stored it
    rng = random.Random(4)
    dealt = Game.new(12, "You", "Solver (club)")
    while not dealt.is_over():
        dealt.play(rng.choice(dealt.position.legal_moves()))
    history = tmp_path / "data" / "mahjong-battle" / "history.sqlite3"
    history.parent.mkdir(parents=True)
    with History(history) as stored:
        stored.add_game(GameEntry.from_game(dealt, front_end="window", levels=(None, "club"), you=1, finished_at=1.7e9))
    before = _run(["stats"], env, tmp_path)
    rating_line = next(line for line in before.splitlines() if line.startswith("Rating against the solver:"))
    assert "after 1 game:" in rating_line, before
    # then a win against the beginner level from a composed position, played in the terminal
    played = _run(["play", "--vs", "beginner", "--first", "--load", str(POSITION)], env, tmp_path, "a1-a9\n\n")
    assert "Game over" in played
    after = _run(["stats"], env, tmp_path)
    assert "Games: 2 stored, 2 yours" in after
    assert rating_line in after.splitlines(), after  # the same rating, still after 1 game
    assert (
        "  (1 game against a level from a composed position, not rated: only numbered or random deals count)"
        in after.splitlines()
    ), after
