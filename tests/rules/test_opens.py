"""What a move opens (``battle.rules.opens``): the freed tiles and the opponent's new pairs.

A composed position checks the text against the example of the issue; random
positions of seeded games check the definition against a brute-force reading of
it (free after minus free before; the opponent's pairs that were not there).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from battle.rules.board import Position, move_name, parse_cell, parse_move
from battle.rules.errors import IllegalMoveError
from battle.rules.opens import describe_opening, what_opens
from battle.rules.tiles import EMPTY, parse_kind
from tests.game_cases import random_positions

ROOT = Path(__file__).resolve().parents[2]


def composed(tiles: dict[str, str], to_move: int = 1) -> Position:
    """A position from ``{"c1": "5m", ...}``; every other cell empty."""
    cells = [EMPTY] * 108
    for cell, kind in tiles.items():
        cells[parse_cell(cell)] = parse_kind(kind)
    return Position(cells, to_move)


def column_c_study() -> Position:
    """Column c full, 5m at both ends; 7p and 3s behind them; a lone 7p on a1."""
    middle = ["1s", "2s", "4s", "6s", "8s"]
    tiles = {
        "c1": "5m",
        "c2": "7p",
        **{f"c{row}": kind for row, kind in zip(range(3, 8), middle, strict=True)},
        "c8": "3s",
        "c9": "5m",
        "a1": "7p",
    }
    return composed(tiles)


def test_the_issue_example_reads_as_written() -> None:
    position = column_c_study()
    opening = what_opens(position, parse_move("c1-c9"))
    assert opening.freed == (parse_cell("c2"), parse_cell("c8"))
    assert opening.new_pairs == (parse_move("a1-c2"),)
    assert opening.points == 5 and opening.points_offered == 7 and not opening.game_ends
    assert describe_opening(opening) == "c1-c9 frees c2 (7p), c8 (3s): opponent gets a pair of 7-circles (7)"


def test_the_position_is_left_as_it_was() -> None:
    position = column_c_study()
    before = position.key()
    what_opens(position, parse_move("c9-c1"))
    assert position.key() == before and position.move_stack == []


def test_an_illegal_move_is_refused_with_the_reason() -> None:
    position = column_c_study()
    with pytest.raises(IllegalMoveError, match="not free"):
        what_opens(position, parse_move("c2-a1"))
    assert position.key() == column_c_study().key()


def test_nothing_freed_no_gift_and_game_end_are_said_plainly() -> None:
    lone = composed({"a1": "9s", "b1": "9s", "c1": "4m", "d1": "4m"})
    assert (
        describe_opening(what_opens(lone, parse_move("a1-b1"))) == "a1-b1 frees nothing: no new pair for the opponent"
    )
    last = composed({"a1": "9s", "b1": "9s", "c1": "4m"})
    assert describe_opening(what_opens(last, parse_move("a1-b1"))) == "a1-b1 frees nothing: no pair left, the game ends"
    blocked = composed({"a1": "9s", "a2": "2p", "a3": "6m", "b1": "9s", "c1": "2m", "d1": "4m", "e1": "4m"})
    text = describe_opening(what_opens(blocked, parse_move("a1-b1")))
    assert text == "a1-b1 frees a2 (2p): no new pair for the opponent"


def test_several_ways_to_take_a_freed_kind_are_counted() -> None:
    # taking 5m frees a 3p that pairs with either of two free 3p
    position = composed({"a1": "5m", "a2": "3p", "a3": "1s", "b1": "5m", "c1": "3p", "d1": "3p"})
    opening = what_opens(position, parse_move("a1-b1"))
    assert opening.new_pairs == (parse_move("a2-c1"), parse_move("a2-d1"))
    assert opening.new_pair_kinds() == [(parse_kind("3p"), 2)]
    assert describe_opening(opening).endswith("opponent gets a pair of 3-circles (3, 2 ways)")


@pytest.mark.parametrize("position", random_positions(12, 2024, most_moves=44), ids=lambda p: f"{p.tiles_left()}tiles")
def test_the_definition_holds_for_every_move_of_random_positions(position: Position) -> None:
    free_before = set(position.free_cells())
    moves_before = set(position.legal_moves())
    for move in position.legal_moves():
        opening = what_opens(position, move)
        after = position.copy()
        after.push(move)
        free_after = set(after.free_cells())
        assert set(opening.freed) == free_after - free_before
        assert list(opening.freed) == sorted(opening.freed)
        assert all(after.cells[cell] == kind for cell, kind in zip(opening.freed, opening.freed_kinds, strict=True))
        replies = set(after.legal_moves())
        assert opening.opponent_moves == len(replies)
        # every pair the opponent did not have before (or lost to this move) uses a freed tile
        assert set(opening.new_pairs) == {pair for pair in replies if set(pair) & set(opening.freed)}
        assert replies - set(opening.new_pairs) <= moves_before
        assert describe_opening(opening).startswith(f"{move_name(move)} frees ")


def test_the_module_needs_no_pygame_or_solver() -> None:
    code = "import sys, battle.rules.opens; print(sorted(m for m in ('pygame', 'solver', 'numba') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
