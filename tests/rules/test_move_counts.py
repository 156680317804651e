"""Known positions with known numbers of legal moves, like python-chess's perft files.

Every ``tests/data/positions/*.mbp`` starts with ``# legal-moves: N``; N was
counted by hand (composed positions) or by a counter independent of the model
when the file was made, and is explained in the comments below that line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from battle.rules.board import move_name
from battle.rules.notation import format_position, parse_position

POSITIONS = Path(__file__).parents[1] / "data" / "positions"
FILES = sorted(POSITIONS.glob("*.mbp"))


def expected_moves(text: str) -> int:
    match = re.match(r"# legal-moves: (\d+)\n", text)
    assert match, "the first line must be '# legal-moves: N'"
    return int(match.group(1))


def test_the_suite_has_its_positions() -> None:
    names = {path.name for path in FILES}
    assert len(FILES) >= 12
    assert {"deal-0.mbp", "empty-board.mbp", "three-free-copies.mbp", "four-free-copies.mbp"} <= names
    counts = [expected_moves(path.read_text(encoding="utf-8")) for path in FILES]
    assert counts.count(0) >= 3 and max(counts) >= 8


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_legal_move_count(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    position = parse_position(text)
    moves = position.legal_moves()
    assert len(moves) == expected_moves(text)
    assert len(set(moves)) == len(moves)
    assert position.is_over() == (not moves)
    assert position.has_moves() == bool(moves)
    for move in moves:  # every listed move can be played and taken back
        key = position.key()
        position.push(move)
        position.pop()
        assert position.key() == key


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_data_files_are_in_canonical_form(path: Path) -> None:
    """Writing the parsed position again gives the file back (below its comments)."""
    text = path.read_text(encoding="utf-8")
    body = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("#"))
    assert format_position(parse_position(text)) == body


def test_specific_moves_of_the_composed_positions() -> None:
    """The moves themselves, not only their number, for the hand-made positions."""
    names = {
        "three-free-copies.mbp": ["a1-c1", "a1-e3", "c1-e3"],
        "four-free-copies.mbp": ["b1-b4", "b1-g9", "b1-l5", "b4-g9", "b4-l5", "g9-l5"],
        "lone-tiles.mbp": ["a1-b9", "a1-l3", "b9-l3", "e2-i5"],
        "same-column-pairs.mbp": ["a1-a9", "b1-b2"],
    }
    for name, expected in names.items():
        position = parse_position((POSITIONS / name).read_text(encoding="utf-8"))
        assert [move_name(move) for move in position.legal_moves()] == expected
