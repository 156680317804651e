"""Numbered deals are a contract: the same number gives the same layout forever.

The layouts below were generated once and are pinned here literally; if one of
these tests fails, saved games and shared deal numbers would change meaning, so
fix the code, never the expected text.
"""

from __future__ import annotations

from collections import Counter
from textwrap import dedent

import pytest

from battle.rules.board import COLS, ROWS
from battle.rules.deal import MAX_DEAL, SplitMix64, check_deal_number, deal, deal_tiles, parse_deal_number
from battle.rules.errors import NotationError
from battle.rules.notation import format_grid, format_position, parse_position
from battle.rules.tiles import COPIES, KIND_COUNT, KIND_NAMES

PINNED = {
    0: """
        3m 5s 9m 5p 4m 1s 9p 4m 9p 1m 7p 3m
        7m 9m 7s 6m 4s 8m 8s 5m 4m 7p 4p 2m
        5p 1p 5p 3p 3p 1m 8p 8p 4s 1p 1s 9s
        3s 4s 5s 5s 5m 6s 6p 9p 6m 3m 2s 6s
        8m 2m 4p 3s 2p 8p 1m 7p 7m 2s 7s 1s
        4s 9s 5m 6p 1m 3m 3p 9m 2p 6m 8p 6p
        5m 3p 1p 8m 6s 8s 4p 1p 6p 6m 8s 7s
        4p 5p 5s 6s 9s 4m 2p 8s 3s 7p 2s 7m
        9p 1s 8m 7s 3s 9s 7m 2p 2m 2s 9m 2m
        """,
    1: """
        9m 4m 7m 1s 2m 9p 3p 2s 6m 1m 5p 6m
        4p 2p 8s 4p 6s 9m 3p 2m 8p 7m 5p 4s
        8m 2s 4m 6p 1p 4m 9s 7s 1p 5s 4m 7p
        2p 3m 6s 7m 4s 1s 5m 2m 5p 7m 5m 1p
        8p 5p 6m 8m 7s 8s 3m 3s 1m 3m 8m 8s
        6p 9p 3s 1m 7s 7p 1m 8p 5m 4p 1p 8m
        8p 2p 6p 4p 5m 7s 2s 9p 3p 6s 1s 7p
        5s 9p 9s 2s 3s 1s 2p 9s 3m 4s 8s 9m
        5s 4s 3p 6m 3s 6s 5s 6p 9m 9s 7p 2m
        """,
    2: """
        4p 4s 9p 1s 9m 1s 6m 9p 9s 4s 4m 9s
        7m 4s 7s 8m 2p 7m 8p 4s 3m 5m 8s 2p
        2p 6p 1s 6m 3m 9p 6s 5p 9s 4m 6m 3p
        3p 4m 3p 3s 4p 8s 7s 5s 4p 6m 8m 2s
        2p 8m 5p 7p 4p 1m 4m 5s 7s 1p 1p 5s
        6p 7s 9m 5m 3s 3s 2s 3m 2m 9s 3p 7p
        8p 2s 3m 9m 6s 7m 9m 2s 1m 1s 2m 2m
        5s 5p 1m 6p 5p 9p 3s 5m 8m 8p 1m 8p
        6s 2m 7m 1p 8s 6s 7p 5m 1p 7p 8s 6p
        """,
    123456789: """
        7m 4s 7m 7p 3s 8p 3p 2p 8m 9s 8m 4m
        3p 9p 5p 2p 5p 5m 6s 1p 2m 8s 9m 7p
        6p 8s 3s 2s 7s 6m 8s 2m 6s 4s 9p 4p
        3m 2p 6s 5m 2s 4m 9p 2s 1s 3p 8p 5s
        7p 7s 1s 1s 6m 1m 9m 4p 7s 3m 5s 9s
        3p 4s 1p 1s 3s 8p 9m 3s 5p 6m 4p 9s
        7s 5p 4s 2m 9s 1m 5s 8s 1p 1p 9p 6m
        5m 6p 8m 2s 6p 4m 4p 7p 4m 8p 1m 7m
        2m 2p 8m 3m 6p 7m 3m 1m 6s 9m 5s 5m
        """,
}


@pytest.mark.parametrize("number", sorted(PINNED))
def test_pinned_layouts_never_change(number: int) -> None:
    expected = dedent(PINNED[number]).strip()
    assert len(expected.splitlines()) == ROWS
    assert format_grid(deal(number)) == expected
    position = deal(number)
    assert (position.to_move, position.scores) == (1, [0, 0])
    assert parse_position(f"to-move: 1\nscore: 0 0\n{expected}\n") == position


def test_the_generator_is_splitmix64() -> None:
    """Published SplitMix64 reference outputs (seed 0, and Vigna's seed 1234567)."""
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_deal_tiles_fill_the_grid_in_reading_order() -> None:
    tiles = deal_tiles(123456789)
    rows = [row.split() for row in dedent(PINNED[123456789]).strip().splitlines()]
    assert [KIND_NAMES[kind] for kind in tiles] == [token for row in rows for token in row]


@pytest.mark.parametrize("number", [0, 1, 2, 3, 99, 123456789, 2**32, MAX_DEAL])
def test_every_deal_has_four_copies_of_each_kind(number: int) -> None:
    position = deal(number)
    counts = Counter(position.cells)
    assert len(position.cells) == COLS * ROWS == 108
    assert counts == {kind: COPIES for kind in range(KIND_COUNT)}
    assert len(position.free_cells()) == 2 * COLS
    assert position.points_on_board() == 270


def test_different_numbers_give_different_layouts() -> None:
    numbers = [*range(200), 123456789, 2**32, 2**62, MAX_DEAL - 1, MAX_DEAL]
    layouts = {tuple(deal(number).cells) for number in numbers}
    assert len(layouts) == len(numbers)


def test_a_deal_is_the_same_every_time() -> None:
    assert deal(42) == deal(42)
    assert deal(42) is not deal(42)
    first = deal(42)
    first.push(first.legal_moves()[0])
    assert deal(42).tiles_left() == 108  # no shared state between calls


@pytest.mark.parametrize(
    "text", ["-1", "abc", "1.5", str(2**63), "", " ", "+5", "1e3", "0x10", "5 6", "\u0663", "²", "9" * 5000]
)
def test_invalid_deal_numbers_in_text_are_rejected(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_deal_number(text)
    assert type(caught.value) is NotationError
    assert "is not a deal number (expected a whole number from 0 to 9223372036854775807)" in str(caught.value)


@pytest.mark.parametrize("value", [-1, 2**63, "abc", "1.5", 1.5, None, True])
def test_invalid_deal_numbers_are_rejected_by_deal(value: object) -> None:
    with pytest.raises(NotationError) as caught:
        deal(value)  # type: ignore[arg-type]
    assert type(caught.value) is NotationError
    assert str(caught.value) == f"{value!r} is not a deal number (expected a whole number from 0 to {MAX_DEAL})"
    with pytest.raises(NotationError):
        check_deal_number(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "number"), [("0", 0), ("  17 ", 17), ("007", 7), ("0" * 5000 + "3", 3), (str(MAX_DEAL), MAX_DEAL)]
)
def test_valid_deal_numbers_in_text(text: str, number: int) -> None:
    assert parse_deal_number(text) == number


def test_deal_command_output_is_a_position_file() -> None:
    text = format_position(deal(1), "deal 1")
    assert text.startswith("# deal 1\nto-move: 1\nscore: 0 0\n")
    assert parse_position(text) == deal(1)
