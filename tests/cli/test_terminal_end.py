"""The end of a terminal game, through the real program: where the record is, a copy, a review."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from battle.rules.game import Game
from tests.cli.terminal_process import home_env

POSITION = Path(__file__).parents[1] / "data" / "positions" / "same-column-pairs.mbp"


def mahjong_battle(home: Path, *args: str, typed: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``mahjong-battle ARGS`` in a private home, ``typed`` on its standard input."""
    return subprocess.run(
        [sys.executable, "-m", "battle", *args],
        input=typed,
        capture_output=True,
        text=True,
        env=home_env(home),
        cwd=home,
        timeout=timeout,
    )


def test_the_end_of_a_game_offers_save_and_review_and_says_where_the_record_is(tmp_path) -> None:
    result = mahjong_battle(
        tmp_path, "play", "--load", str(POSITION), typed="a1-a9\nb2 b1\nreview\nsave copy\nnonsense\n\n"
    )
    out = result.stdout
    assert result.returncode == 0, result.stderr
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
    stats = mahjong_battle(tmp_path, "stats", timeout=120)
    assert stats.returncode == 0 and "Games: 1 stored" in stats.stdout, stats.stdout


def test_a_game_against_the_solver_from_a_composed_position_is_kept_but_not_rated(tmp_path) -> None:
    """A position from the editor (or any file) may hand one side the game: it counts among the
    games, not toward the rating against the levels, which numbered deals alone feed."""
    played = mahjong_battle(tmp_path, "play", "--vs", "beginner", "--first", "--load", str(POSITION), typed="a1-a9\n\n")
    assert played.returncode == 0, played.stderr
    assert "Game over" in played.stdout
    stats = mahjong_battle(tmp_path, "stats", timeout=120)
    text = stats.stdout
    assert stats.returncode == 0 and "Games: 1 stored" in text, text
    assert "Rating against the solver: no rated game against a level yet" in text, text


def greedy_moves(number: int) -> list[str]:
    """A whole game of deal ``number``: each side takes the biggest pair."""
    from battle.rules.board import biggest_pair, move_name
    from battle.rules.deal import deal

    position, moves = deal(number), []
    while position.has_moves():
        move = biggest_pair(position)
        moves.append(move_name(move))
        position.push(move)
    return moves


def test_the_end_says_the_par_or_that_it_is_being_worked_out(tmp_path) -> None:
    """Deal 1 is catalogued (par +4 for the first player); deal 3 is not, so its par is worked out in
    the background while the game is played (minutes: the game here ends first)."""
    for number, said in (
        (1, "Par: +4 for Ann under perfect play.\n  Ann: "),
        (3, "Par: being worked out in the background; type 'par' to wait for it.\n"),
    ):
        script = "\n".join([*greedy_moves(number), "", ""])
        names = ("--player1", "Ann", "--player2", "Bob")
        played = mahjong_battle(tmp_path, "play", "--deal", str(number), *names, typed=script)
        out = played.stdout
        assert played.returncode == 0, played.stderr
        assert said in out.split("Game over: ")[1], out[-1500:]
