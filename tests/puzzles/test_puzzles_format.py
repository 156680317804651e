"""Puzzle files: what is written reads back the same, and every way a line can be wrong is one line naming it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from battle.puzzles.puzzle import Puzzle, PuzzleFormatError, PuzzleSource, position_text, puzzle_id
from battle.puzzles.puzzle_file import format_puzzles, load_puzzles, parse_puzzles, save_puzzles
from battle.puzzles.session import PuzzleSession
from battle.rules.board import Move, Position, parse_move
from battle.rules.errors import IllegalMoveError
from tests.puzzles.test_puzzles_themes import BLOCKADE, BLOCKADE_LINE, SACRIFICE, SACRIFICE_LINE


def make_puzzle(position: Position, perfect: list[Move], losses: dict[str, int], value: int, theme: str) -> Puzzle:
    text = position_text(position)
    return Puzzle(
        puzzle_id(text),
        text,
        position.to_move,
        (perfect[0],),
        ({parse_move(move): loss for move, loss in losses.items()},),
        tuple(perfect[1:]),
        value,
        (theme,),
        3,
        1800.0,
        {"beginner": 0.0, "club": 0.8},
        PuzzleSource(5, 40, ("club", "expert")),
    )


BLOCKADE_PUZZLE = make_puzzle(BLOCKADE, BLOCKADE_LINE, {"a1-a4": 10}, -1, "blockade")
SACRIFICE_PUZZLE = make_puzzle(SACRIFICE, SACRIFICE_LINE, {"c2-d3": 4}, -4, "sacrifice")


def test_a_puzzle_file_reads_back_the_same(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    save_puzzles(path, [BLOCKADE_PUZZLE, SACRIFICE_PUZZLE])
    again = load_puzzles(path)
    assert again == [BLOCKADE_PUZZLE, SACRIFICE_PUZZLE]
    assert format_puzzles(again) == path.read_text(encoding="utf-8")
    assert path.read_text(encoding="utf-8").count("\n") == 2
    assert again[0].start() == BLOCKADE and again[0].length == 1 and again[0].answer == BLOCKADE_LINE[0]


def broken(change: dict) -> str:
    data = {**BLOCKADE_PUZZLE.to_json(), **change}
    return "\n" + json.dumps({key: value for key, value in data.items() if value is not ...}) + "\n"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"line": ["c1-c3", "a1-a4"]}, "line: expected an odd number of moves"),
        ({"line": ["a1-c1"]}, "line: move 1, a1-c1: a1 is 3p and c1 is 1m, not a pair"),
        ({"line": ["c1-x9"]}, "line: move 1: 'x9' is not a cell"),
        ({"losses": [{}]}, "losses: step 1: a1-a4 is missing"),
        ({"losses": [{"a1-a4": 10, "c1-c3": 2}]}, "losses: step 1: c1-c3 is not another legal move"),
        ({"losses": [{"a1-a4": 0}]}, "losses: step 1: a1-a4 loses 0"),
        ({"losses": ...}, "missing losses"),
        ({"to_move": 2}, "to_move is 2, the position says 1"),
        ({"position": "to-move: 1\nscore: 0 0\n"}, "position: line 2: expected 9 grid rows, got 0"),
        ({"themes": ["zugzwang"]}, "themes: unknown 'zugzwang'"),
        ({"difficulty": 7}, "difficulty: 7 is not 1 to 6"),
        ({"find_rates": {"club": 2}}, "find_rates: club: 2 is not a rate from 0 to 1"),
        ({"then": ["a1-a4", "a1-a4"]}, "then: move 2, a1-a4: a1 is empty"),
    ],
)
def test_a_broken_puzzle_is_one_line_naming_the_line_and_the_field(change: dict, message: str) -> None:
    with pytest.raises(PuzzleFormatError) as caught:
        parse_puzzles(broken(change), "set.jsonl")
    text = str(caught.value)
    assert text.startswith("set.jsonl, line 2: "), text
    assert message in text
    assert "\n" not in text


def test_other_damage_is_named_too(tmp_path: Path) -> None:
    with pytest.raises(PuzzleFormatError, match=r"^set, line 1: not JSON"):
        parse_puzzles("{not json", "set")
    with pytest.raises(PuzzleFormatError, match="line 4: id .* is also on line 2"):
        parse_puzzles(broken({}) * 2, "set")  # lines 2 and 4
    with pytest.raises(PuzzleFormatError, match="cannot read"):
        load_puzzles(tmp_path / "missing.jsonl")
    (tmp_path / "latin1.jsonl").write_bytes(b"\xff\n")
    with pytest.raises(PuzzleFormatError, match="not UTF-8"):
        load_puzzles(tmp_path / "latin1.jsonl")


# -- a go at a puzzle -------------------------------------------------------------------


def test_a_wrong_move_is_judged_not_played_then_the_right_one_finishes() -> None:
    refuted = []

    def refute(position: Position) -> Move | None:
        refuted.append(position.copy())
        return parse_move("a2-b1")

    session = PuzzleSession(BLOCKADE_PUZZLE, refute)
    wrong = session.try_move(parse_move("a4-a1"))
    assert not wrong.correct and wrong.loss == 10 and wrong.points == 3
    assert wrong.refutation == parse_move("a2-b1")
    assert (wrong.result_before, wrong.result_after) == (-1, -1)
    assert refuted[0].tiles_left() == 6 and session.position == BLOCKADE  # judged on a copy
    with pytest.raises(IllegalMoveError, match="a2 is not free"):
        session.try_move(parse_move("a2-b1"))
    right = session.try_move(parse_move("c1-c3"))
    assert right.correct and right.finished and right.reply is None
    assert session.finished and not session.solved and session.mistakes == 1


def test_a_clean_solve_counts_and_a_shown_solution_does_not() -> None:
    session = PuzzleSession(SACRIFICE_PUZZLE)
    assert not session.tried
    assert session.try_move(parse_move("a3-d1")).correct
    assert session.solved
    shown = PuzzleSession(SACRIFICE_PUZZLE)
    assert shown.reveal() == [SACRIFICE_LINE[0]]
    assert shown.finished and not shown.solved and shown.tried
    with pytest.raises(ValueError, match="finished"):
        shown.try_move(parse_move("a3-d1"))


def test_a_wrong_move_that_changes_the_result_says_so() -> None:
    # the sacrifice position with P1 4 points ahead: the answer draws, c2-d3 loses by 4
    ahead = Position(SACRIFICE.cells, 1, (4, 0))
    puzzle = make_puzzle(ahead, SACRIFICE_LINE, {"c2-d3": 4}, -4, "sacrifice")
    attempt = PuzzleSession(puzzle).try_move(parse_move("c2-d3"))
    assert (attempt.result_before, attempt.result_after) == (0, -1)


def test_the_pure_modules_load_no_solver_numba_or_pygame() -> None:
    import subprocess
    import sys

    code = (
        "import sys, battle.puzzles, battle.puzzles.selection, battle.history, battle.history.stats_report, "
        "battle.cli.puzzle_commands, battle.cli.stats_command; "
        "print(sorted(m for m in ('numba', 'numpy', 'solver', 'pygame', 'battle.players', "
        "'battle.puzzles.miner') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
