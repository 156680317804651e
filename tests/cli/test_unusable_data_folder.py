"""A data folder that cannot be used (a file stands where it should be), met through the real
program: a finished game still offers ``save FILE`` and the commands that read the catalogue
work from the shipped one, each saying what is wrong in one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from battle.rules.board import move_name
from battle.rules.game import Game

WAIT = 300.0


def blocked_env(home: Path) -> dict[str, str]:
    """XDG_DATA_HOME under a regular file: no folder can be made there."""
    (home / "a-file").write_text("not a folder\n")
    return dict(
        os.environ, XDG_DATA_HOME=str(home / "a-file" / "data"), XDG_CONFIG_HOME=str(home / "config"), NO_COLOR="1"
    )


def test_a_whole_deal_played_to_the_end_still_offers_save(tmp_path) -> None:
    game = Game.new(5)
    moves = []
    while not game.is_over():
        move = game.position.legal_moves()[0]
        moves.append(move_name(move))
        game.play(move)
    script = "\n".join(moves) + "\nsave kept-here\n\n"
    played = subprocess.run(
        [sys.executable, "-m", "battle", "play", "--deal", "5"],
        input=script,
        text=True,
        capture_output=True,
        env=blocked_env(tmp_path),
        cwd=tmp_path,
        timeout=WAIT,
    )
    assert played.returncode == 0, played.stderr[-2000:]
    assert "Traceback" not in played.stderr
    assert "Game over" in played.stdout and "save FILE, review, or Enter to leave>" in played.stdout
    assert "Saved to kept-here.mbg." in played.stdout
    assert Game.from_text((tmp_path / "kept-here.mbg").read_text()).moves == game.moves
    assert "cannot be used: Not a directory" in played.stdout


@pytest.mark.parametrize(
    "command", [["deal", "--daily"], ["deal", "--fair"], ["show", "deal5.mbp"], ["survey", "--report"]]
)
def test_the_catalogue_commands_say_what_is_wrong_in_one_line(tmp_path, command) -> None:
    (tmp_path / "deal5.mbp").write_text(
        subprocess.run([sys.executable, "-m", "battle", "deal", "5"], capture_output=True, text=True, check=True).stdout
    )
    done = subprocess.run(
        [sys.executable, "-m", "battle", *command],
        capture_output=True,
        text=True,
        env=blocked_env(tmp_path),
        cwd=tmp_path,
        timeout=WAIT,
    )
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    if command[0] == "survey":  # the shipped deals are reported; the user's own survey cannot be read
        assert "62 deals: 62 from the catalogue the game ships" in done.stdout
        assert "left out" in done.stderr
    assert len(done.stderr.strip().splitlines()) <= 1
    assert "cannot be used" in done.stderr or command[0] == "show"
