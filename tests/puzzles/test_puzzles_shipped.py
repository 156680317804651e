"""The shipped puzzle set keeps the puzzle definition, checked by exact solves: a sample on every
run, every puzzle with ``pytest -m slow``."""

from __future__ import annotations

import re

import pytest

from battle.puzzles.criteria import MIN_LOSS, changes_result
from battle.puzzles.difficulty import difficulty
from battle.puzzles.puzzle import Puzzle, puzzle_id
from battle.puzzles.puzzle_file import load_puzzles, shipped_puzzles_path
from battle.puzzles.themes import themes_of
from battle.ratings.level_ratings import LEVEL_NAMES

SAMPLE = 30


def check_puzzle(puzzle: Puzzle, engine: object) -> None:
    """Every step by an exact solve of every move: the answer alone keeps the value, each alternative
    loses exactly the stated points (at least ``MIN_LOSS`` unless it changes the result), the answer
    is not the biggest pair, each reply keeps the value, and the whole line is perfect play."""
    from battle.players import Engine, Limits

    assert isinstance(engine, Engine)
    start = puzzle.start()
    assert puzzle.id == puzzle_id(puzzle.position_text)
    position = start.copy()
    first_value = None
    for index, played in enumerate(puzzle.line):
        analysis = engine.search(position, Limits(), all_exact=True)
        assert analysis.exact
        values = {value.move: value.value for value in analysis.move_values}
        if index % 2 == 0:
            first_value = analysis.value if first_value is None else first_value
            assert analysis.best_moves == [played], f"{puzzle.id} step {index // 2 + 1}: {analysis.best_moves}"
            biggest = max(position.move_points(other) for other in values)
            assert position.move_points(played) < biggest, f"{puzzle.id}: the answer is the biggest pair"
            losses = puzzle.losses[index // 2]
            assert set(losses) == set(values) - {played}
            for other, loss in losses.items():
                assert analysis.value - values[other] == loss, f"{puzzle.id}: {other} loses {loss}?"
                assert loss >= MIN_LOSS or changes_result(position, analysis.value, values[other])
        else:
            assert played in analysis.best_moves, f"{puzzle.id}: the reply {played} is not a best move"
        position.push(played)
    assert first_value == puzzle.value
    for move in puzzle.then:
        position.push(move)
    assert position.is_over()
    mover, opponent = start.to_move - 1, 2 - start.to_move
    gained = (position.scores[mover] - start.scores[mover]) - (position.scores[opponent] - start.scores[opponent])
    assert gained == puzzle.value, f"{puzzle.id}: line and then make {gained}, not the value {puzzle.value}"
    assert puzzle.themes == themes_of(start, [*puzzle.line, *puzzle.then])
    assert set(puzzle.find_rates) == set(LEVEL_NAMES) and puzzle.find_rates["perfect"] == 1.0
    assert puzzle.difficulty == difficulty(puzzle.find_rates)


@pytest.fixture(scope="module")
def shipped() -> list[Puzzle]:
    return load_puzzles()


def test_the_set_is_big_enough_and_says_how_it_was_made(shipped: list[Puzzle]) -> None:
    assert len(shipped) >= 500
    readme = (shipped_puzzles_path().parent / "README.md").read_text(encoding="utf-8")
    assert f"`puzzles.jsonl`: {len(shipped)} puzzles" in readme
    command = re.search(r"mahjong-battle puzzles make --count (\d+) ", readme)
    assert command is not None and int(command.group(1)) == len(shipped)
    assert {puzzle.length for puzzle in shipped} >= {1, 2}
    for theme in ("tempo", "blockade", "sacrifice"):
        assert any(theme in puzzle.themes for puzzle in shipped), theme


def test_a_sample_of_the_shipped_puzzles_holds(shipped: list[Puzzle]) -> None:
    from battle.players import Engine

    engine = Engine(21)
    longest = [puzzle for puzzle in shipped if puzzle.length > 1][:5]
    for puzzle in [*shipped[:: len(shipped) // SAMPLE], *longest]:
        check_puzzle(puzzle, engine)


@pytest.mark.slow
def test_every_shipped_puzzle_holds(shipped: list[Puzzle]) -> None:
    from battle.players import Engine

    engine = Engine(21)
    for puzzle in shipped:
        check_puzzle(puzzle, engine)
