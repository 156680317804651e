"""``puzzles play`` and ``puzzles make`` as the user runs them: real processes, moves typed on standard input."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from battle.history.store import History
from battle.puzzles.puzzle_file import load_puzzles, save_puzzles
from tests.history.test_history_stats import known_command
from tests.puzzles.test_puzzles_format import BLOCKADE_PUZZLE, SACRIFICE_PUZZLE

ROOT = Path(__file__).resolve().parents[2]


def puzzles(*argv: str, home: Path, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    module = "battle" if known_command("puzzles") else "battle.cli.puzzle_commands"
    return subprocess.run(
        [sys.executable, "-m", module, "puzzles", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(home), "NO_COLOR": "1"},
    )


def two_puzzles(tmp_path: Path) -> Path:
    path = tmp_path / "two.jsonl"
    save_puzzles(path, [BLOCKADE_PUZZLE, SACRIFICE_PUZZLE])
    return path


def attempts(home: Path) -> list[tuple[str, bool]]:
    with History(home / "mahjong-battle" / "history.sqlite3") as history:
        return [(attempt.puzzle_id, attempt.solved) for attempt in history.attempts()]


def test_a_wrong_move_shows_its_loss_and_refutation_then_the_right_one_finishes(tmp_path: Path) -> None:
    # the first puzzle near 1500 is drawn from both (seeded); the blockade one is answered
    # wrongly, then rightly; the sacrifice one at once
    typed = "a1-a4\nc1-c3\na3-d1\n"
    done = puzzles("play", "--file", str(two_puzzles(tmp_path)), "--seed", "1", home=tmp_path, stdin=typed)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Find the best move for Player 1." in out
    if out.index(f"Puzzle {BLOCKADE_PUZZLE.id}") > out.index(f"Puzzle {SACRIFICE_PUZZLE.id}"):
        raise AssertionError("expected the blockade puzzle first with seed 1")
    assert "a1-a4 (3) loses 10 points." in out
    assert "Refutation: Player 2 replies a2-b1 (8)." in out
    assert "Try again (type a move), or type 'solution' to see it." in out
    assert "Right: c1-c3 (1)." in out and "Not solved at the first try. Themes: blockade." in out
    assert "Your puzzle rating: 1500 → " in out and "Streak: 0." in out
    assert "Right: a3-d1 (2)." in out and "Solved! Themes: sacrifice." in out and "Streak: 1." in out
    assert out.rstrip().endswith("Bye.")
    assert attempts(tmp_path) == [(BLOCKADE_PUZZLE.id, False), (SACRIFICE_PUZZLE.id, True)]
    assert done.stderr == ""


def test_asking_for_the_solution_counts_as_missed_and_quitting_untouched_does_not_count(tmp_path: Path) -> None:
    file = str(two_puzzles(tmp_path))
    done = puzzles(
        "play", "--file", file, "--seed", "1", "--count", "1", home=tmp_path, stdin="help\nboard\nnonsense\nsolution\n"
    )
    assert done.returncode == 0, done.stderr
    assert "type a move (c1-c9), 'solution'" in done.stdout
    assert "'nonsense' is not a move" in done.stdout
    assert "Solution: Player 1 c1-c3 (1)." in done.stdout
    assert done.stdout.count("Find the best move") == 2  # the board was shown again
    assert attempts(tmp_path) == [(BLOCKADE_PUZZLE.id, False)]
    quitting = puzzles("play", "--file", file, home=tmp_path, stdin="quit\n")
    assert quitting.returncode == 0 and attempts(tmp_path) == [(BLOCKADE_PUZZLE.id, False)]


def test_the_shipped_set_plays_and_filters(tmp_path: Path) -> None:
    shipped = load_puzzles()
    done = puzzles("play", "--length", "2", "--seed", "4", "--count", "1", home=tmp_path, stdin="solution\n")
    assert done.returncode == 0, done.stderr
    assert "2 moves to find" in done.stdout and "Solution: Player " in done.stdout
    [(identity, solved)] = attempts(tmp_path)
    assert not solved and next(puzzle for puzzle in shipped if puzzle.id == identity).length == 2
    themed = puzzles("play", "--theme", "tempo", "--count", "1", home=tmp_path, stdin="solution\n")
    assert themed.returncode == 0 and "tempo" in themed.stdout


def test_mistakes_get_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text('\n{"id": 1}\n')
    for argv, message in [
        (["play", "--theme", "nope"], "--theme: 'nope' is not a theme (choose one of: tempo, blockade, sacrifice)"),
        (["play", "--file", str(broken)], "line 2: missing position, to_move, line, losses"),
        (["play", "--file", str(tmp_path / "none.jsonl")], "cannot read"),
        (["play", "--length", "9"], "No puzzle has 9 moves to find (600 puzzles in the set)."),
    ]:
        done = puzzles(*argv, home=tmp_path)
        assert done.returncode == 2 and done.stdout == "", done.stderr
        assert done.stderr.startswith("mahjong-battle: ") and done.stderr.count("\n") == 1, done.stderr
        assert message in done.stderr


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("1e308", "rating: 1e+308 is not a rating from -1000 to 5000"),
        ("-20000", "rating: -20000 is not a rating from -1000 to 5000"),
        ("1" * 400, "rating: 1111111111"),
        ("1" * 5000, "not a puzzle (a number too long to read)"),
    ],
    ids=["1e308", "-20000", "400 digits", "5000 digits"],
)
def test_a_puzzle_rating_the_arithmetic_cannot_take_is_one_line_naming_file_line_and_field(
    tmp_path: Path, value: str, said: str
) -> None:
    """Glicko-2 overflows at 1e308 and divides by zero 20,000 points apart: the file is refused as it loads."""
    path = two_puzzles(tmp_path)
    lines = path.read_text(encoding="utf-8").splitlines()
    data = json.loads(lines[1])
    lines[1] = json.dumps({**data, "rating": 0}).replace('"rating": 0', f'"rating": {value}')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = puzzles("play", "--file", str(path), "--seed", "1", home=tmp_path, stdin="solution\nsolution\n")
    assert done.returncode == 2 and done.stdout == "", done.stderr[-2000:]
    [line] = done.stderr.splitlines()
    assert line.startswith(f"mahjong-battle: {path}, line 2: {said}"), line


def test_make_writes_a_set_that_loads(tmp_path: Path) -> None:
    out = tmp_path / "made.jsonl"
    done = puzzles("make", "--count", "3", "--seed", "3", "--tiles", "30-50", "--out", str(out), home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"wrote 3 puzzles to {out} from ")
    made = load_puzzles(out)
    assert len(made) == 3 and all(30 <= puzzle.start().tiles_left() <= 50 for puzzle in made)
    bad = puzzles("make", "--tiles", "60-20", home=tmp_path)
    assert bad.returncode == 2 and "expected 4 <= A <= B <= 70" in bad.stderr
    again = puzzles("make", "--count", "1", "--seed", "4", "--tiles", "30-50", "--out", str(out), home=tmp_path)
    assert again.returncode == 2 and "exists already; --force replaces it" in again.stderr
    assert len(load_puzzles(out)) == 3  # untouched
    forced = puzzles(
        "make", "--count", "1", "--seed", "4", "--tiles", "30-50", "--out", str(out), "--force", home=tmp_path
    )
    assert forced.returncode == 0 and len(load_puzzles(out)) == 1


def test_make_refuses_a_fifo_a_folder_and_a_name_too_long_before_it_mines(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for target, words in (
        (fifo, "not a regular file"),
        (tmp_path, "is a folder"),
        (tmp_path / ("x" * 300 + ".jsonl"), "File name too long"),
    ):
        done = puzzles("make", "--count", "1", "--out", str(target), "--force", home=tmp_path)
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
