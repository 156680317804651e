"""Sentences a player reads: "You win", not "You wins"; "1 pair"; tiles named in words.

The helpers are checked over names, then the real outputs: the terminal game in a
real process fed through a pipe, and the window playing a short game against the
solver as "You".
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battle.rules.board import move_name
from battle.rules.game import Game, result_of
from battle.rules.notation import parse_position
from battle.rules.tiles import KIND_COUNT, KIND_NAMES, parse_kind
from battle.rules.wording import (
    about,
    is_you,
    pair_words,
    plural,
    shown_name,
    solver_level,
    solver_name,
    tile_words,
)
from battle.ui.match import Match
from battle.ui.play.result_scene import ResultScene
from tests import ui_harness as ui

ROOT = Path(__file__).resolve().parents[2]

YOU = ["You", "you", "YOU", " you "]
OTHERS = ["Alice", "Solver (club)", "Player 1", "Yours", "Young", "Ann Youssef", "Tess"]
NOT_YOU = st.text(min_size=1, max_size=40).filter(lambda name: name.strip().casefold() != "you")

# A tile symbol in a sentence: "1s" reads as one second. Cells (a1) and moves (a1-b2) do not match.
SYMBOL_IN_PROSE = re.compile(r"(?<![\w(\[-])[1-9][mps](?![\w)\]])")


# -- the helpers ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", YOU)
def test_you_is_told_by_any_case_and_spacing(name: str) -> None:
    assert is_you(name)


@pytest.mark.parametrize("name", OTHERS)
def test_other_names_are_not_you(name: str) -> None:
    assert not is_you(name)


@given(NOT_YOU)
def test_a_sentence_about_a_player_is_one_of_two_whole_sentences(name: str) -> None:
    you, other = "You win {score}.", "{name} wins {score}."
    assert about(name, you, other, score="1-0") == f"{shown_name(name)} wins 1-0."
    for typed in YOU:
        assert about(typed, you, other, score="1-0") == "You win 1-0."


def test_the_solver_is_named_and_read_back_in_one_place() -> None:
    assert solver_name("club") == "Solver (club)"
    assert solver_level("Solver (club)") == "club" and solver_level(solver_name("master")) == "master"
    for name in ("Solver ()", "Solver club", "Alice", "Solver (club"):
        assert solver_level(name) is None, name
    assert shown_name("Solver (club)") == "Solver (club)" and shown_name("Solver (godlike)") == "Solver (godlike)"


@pytest.mark.parametrize(
    ("count", "noun", "expected"),
    [
        (1, "pair", "1 pair"),
        (2, "pair", "2 pairs"),
        (0, "pair", "0 pairs"),
        (-1, "point", "-1 point"),
        (-3, "point", "-3 points"),
        (1, "day", "1 day"),
        (2, "day", "2 days"),
    ],
)
def test_plural(count: int, noun: str, expected: str) -> None:
    assert plural(count, noun) == expected


@given(st.integers(-1000, 1000))
def test_only_one_is_singular(count: int) -> None:
    assert plural(count, "tile") == (f"{count} tile" if abs(count) == 1 else f"{count} tiles")


def test_tiles_in_words_name_the_value_and_the_suit() -> None:
    assert tile_words(parse_kind("1s")) == "1-bamboo"
    assert tile_words(parse_kind("5p")) == "5-circles"
    assert tile_words(parse_kind("9m")) == "9-characters"
    assert pair_words(parse_kind("1s")) == "a pair of 1-bamboo"
    words = {tile_words(kind) for kind in range(KIND_COUNT)}
    assert len(words) == KIND_COUNT  # one name per kind
    assert not any(SYMBOL_IN_PROSE.search(word) for word in words)
    assert all(SYMBOL_IN_PROSE.search(f"took {name} a1-b2") for name in KIND_NAMES)  # the pattern can fail


def test_the_result_agrees_with_the_winner() -> None:
    assert result_of((140, 130)).describe(("You", "Alice")) == "You win 140-130 (by 10)"
    assert result_of((140, 130)).describe(("you", "Alice"), start=False) == "you win 140-130 (by 10)"
    assert result_of((130, 140)).describe(("You", "Alice")) == "Alice wins 130-140 (by 10)"
    assert result_of((130, 140)).describe(("Alice", "You")) == "You win 140-130 (by 10)"  # your side first
    assert result_of((135, 135)).describe(("You", "Alice")) == "Draw, 135-135"
    assert result_of((135, 135)).describe(("You", "Alice"), start=False) == "draw, 135-135"


# -- the terminal game, in a real process -------------------------------------------------


def test_the_terminal_game_speaks_to_you_and_names_tiles_in_words(tmp_path: Path) -> None:
    # the cheapest pair each time, so 1-point pairs are taken and "1 point" shows up
    game = Game.new(3)
    moves = []
    for _ in range(8):
        move = min(game.position.legal_moves(), key=game.position.move_points)
        moves.append(move)
        game.play(move)
    lines = [move_name(move) for move in moves] + ["moves", "quit"]
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "NO_COLOR": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "battle", "play", "--deal", "3", "--player1", "You", "--player2", "Alice"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout
    for wrong in ("You wins", "You takes", "You plays", "You has", "You is", " 1 pairs", " 1 points", " 1 tiles"):
        assert wrong not in text
    replay = Game.new(3)
    for index, move in enumerate(moves):
        who = "You play" if index % 2 == 0 else "Alice plays"
        words = pair_words(replay.position.cells[move[0]])
        points = plural(replay.play(move), "point")
        assert f"{who} {move_name(move)}: {words}, {points}." in text
    assert " 1 point." in text
    assert "You to move" in text and "Alice to move" in text
    # prose names tiles in words; the 'moves' command keeps the notation "a1-b2 (5)"
    prose = [line for line in text.splitlines() if " play" in line or "pair of" in line]
    assert prose and not any(SYMBOL_IN_PROSE.search(line) for line in prose)
    listed = "  ".join(f"{move_name(m)} ({game.position.move_points(m)})" for m in game.position.legal_moves())
    assert listed in text
    assert (tmp_path / "data").exists()  # the autosave went to the private home


# -- the review text and the window: a three-pair game that you win 10-5 --------------------

SHORT = """\
to-move: 1
score: 0 0
9m 1s 5p .. .. .. .. .. .. .. .. ..
9m 1s 5p .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
"""
"""Three pairs: you take the 9s, the solver the 5s, you the last pair of 1-bamboo; you win 10-5."""


def test_the_review_text_speaks_to_you() -> None:
    from battle.cli.review_text import format_review
    from battle.players.review import review_game
    from solver.engine import Engine

    game = Game(parse_position(SHORT), "You", "Alice")
    for cell in (0, 18, 9):  # the 9s, the 5s, the 1s: columns a, c, b
        game.play((cell, cell + 1))
    text = format_review(review_game(game, time_per_move=None, engine=Engine(table_bits=10)), game.names)
    assert "3 moves" in text
    assert "Odd-numbered moves: You; even-numbered moves: Alice." in text
    assert "Projected margin for you at the start: " in text
    assert "Result: You win 10-5 (by 5)" in text
    assert "You plays" not in text and "You wins" not in text


def test_the_window_speaks_to_you_and_names_tiles_in_words(tmp_path, monkeypatch) -> None:
    start = parse_position(SHORT)
    nines, ones, fives = ((cell, cell + 1) for cell in (0, 9, 18))  # columns a, b, c: rows 1 and 2
    assert [start.cells[move[0]] for move in (nines, ones, fives)] == [parse_kind(k) for k in ("9m", "1s", "5p")]
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(Match(Game(start, "You", "Solver (master)"), solver_side=2, level="master"))
        game = scene.match.game
        assert scene.turn_status().text == "You to move: 3 pairs to choose from."
        ui.click_cell(app, nines[0])
        assert scene.status.text == "9-characters on a1: now its twin on a2."
        ui.click_cell(app, nines[1])
        assert scene.status.text == (
            "You took a pair of 9-characters, a1-a2, for 9 points. Solver (master) is thinking..."
        )
        ui.run_until(app, lambda: game.ply == 2, timeout=120)
        assert game.moves[-1] == fives
        assert scene.status.text == (
            "Solver (master) took a pair of 5-circles, c1-c2, for 5 points. You to move: 1 pair to choose from."
        )
        ui.play_move(app, ones)
        assert scene.status.text == ("You took a pair of 1-bamboo, b1-b2, for 1 point. Game over: You win 10-5 (by 5).")
        ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=10)
        assert app.stack.top.card_text() == ("You win!", "Won by 5 points.")
