"""The puzzle definition and the themes on small hand-made positions.

Each position's perfect line is written out (the comments show why it is perfect); a test
also checks with the solver that each answer really is the position's one good move."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from battle.puzzles.criteria import MIN_LOSS, changes_result, puzzle_step
from battle.puzzles.themes import is_blockade, is_sacrifice, is_tempo, opened_pairs, themes_of
from battle.rules.board import Move, Position, cell_index, parse_move
from battle.rules.tiles import EMPTY, parse_kind


def build(columns: Sequence[Sequence[str]], to_move: int = 1, scores: tuple[int, int] = (0, 0)) -> Position:
    """A position from columns a, b, c... each listed top to bottom."""
    cells = [EMPTY] * 108
    for col, tiles in enumerate(columns):
        for row, tile in enumerate(tiles):
            cells[cell_index(col, row)] = parse_kind(tile)
    return Position(cells, to_move, scores)


def line(*moves: str) -> list[Move]:
    return [parse_move(move) for move in moves]


# 3p is the biggest pair, but taking it uncovers 8s (a twin of b1) for the opponent: -11.
# 1m uncovers only 7m, whose twin stays buried under a2: the opponent must take 3p, P1 the 8s: -1.
BLOCKADE = build([["3p", "8s", "7m", "3p"], ["8s"], ["1m", "7m", "1m"]])
BLOCKADE_LINE = line("c1-c3", "a1-a4", "a2-b1", "a3-c2")

# 3p is the biggest pair; 2s gives the opponent the 8s pair at once (a2 meets a1) but opens
# 5p for P1, and 3p last: -4 against -8.
SACRIFICE = build([["8s", "8s", "2s"], [], ["5p", "3p"], ["2s", "5p", "3p"]])
SACRIFICE_LINE = line("a3-d1", "a1-a2", "c1-d2", "c2-d3")

# 5p is the biggest pair, and taking it leaves the 9m for the opponent; 3p first, and after the
# opponent's 1m P1 takes the 5p, P2 the 9m, P1 the 2s: a draw, where 5p first loses.
TEMPO = build([["3p"], ["5p", "9m", "2s"], ["1m", "1m"], ["5p", "9m", "2s", "3p"]])
TEMPO_LINE = line("a1-d4", "c1-c2", "b1-d1", "b2-d2", "b3-d3")


def test_opened_pairs_are_the_pairs_holding_an_uncovered_tile() -> None:
    assert opened_pairs(BLOCKADE, parse_move("a1-a4")) == [parse_move("a2-b1")]
    assert opened_pairs(BLOCKADE, parse_move("c1-c3")) == []
    assert sorted(opened_pairs(SACRIFICE, parse_move("a3-d1"))) == line("a1-a2", "c1-d2")
    assert BLOCKADE.tiles_left() == 8 and not BLOCKADE.move_stack  # left as it was


def test_blockade() -> None:
    assert is_blockade(BLOCKADE, BLOCKADE_LINE[0])
    assert themes_of(BLOCKADE, BLOCKADE_LINE) == ("blockade",)
    assert not is_blockade(SACRIFICE, SACRIFICE_LINE[0])  # the answer opens pairs
    assert not is_blockade(TEMPO, TEMPO_LINE[0])


def test_sacrifice() -> None:
    assert is_sacrifice(SACRIFICE, SACRIFICE_LINE)
    assert themes_of(SACRIFICE, SACRIFICE_LINE) == ("sacrifice",)
    # the same answer with the opponent declining the gift is no sacrifice
    assert not is_sacrifice(SACRIFICE, line("a3-d1", "c2-d3"))
    assert not is_sacrifice(BLOCKADE, BLOCKADE_LINE)


def test_tempo() -> None:
    assert is_tempo(TEMPO, TEMPO_LINE)
    assert themes_of(TEMPO, TEMPO_LINE) == ("tempo",)
    assert not is_tempo(TEMPO, TEMPO_LINE[:2])
    assert not is_tempo(BLOCKADE, BLOCKADE_LINE)  # P1's 8s was not free before the answer


@pytest.mark.parametrize(
    ("position", "perfect"),
    [(BLOCKADE, BLOCKADE_LINE), (SACRIFICE, SACRIFICE_LINE), (TEMPO, TEMPO_LINE)],
    ids=["blockade", "sacrifice", "tempo"],
)
def test_each_answer_is_the_positions_one_good_move(position: Position, perfect: list[Move]) -> None:
    from solver import Engine, Limits

    analysis = Engine(21).search(position, Limits(), all_exact=True)
    step = puzzle_step(position, {value.move: value.value for value in analysis.move_values})
    assert step is not None and step.answer == perfect[0]
    played = position.copy()
    for move in perfect:
        played.push(move)
    assert played.is_over()
    mover, other = position.to_move - 1, 2 - position.to_move
    assert (played.scores[mover] - played.scores[other]) == analysis.value  # the line is perfect play


def test_the_puzzle_definition() -> None:
    position = build([["9m", "1s"], ["9m"], ["2s"], ["2s"], ["5p"], ["5p"], ["1s"]])
    moves = {parse_move("a1-b1"): 3, parse_move("c1-d1"): 9, parse_move("e1-f1"): 5, parse_move("a2-g1"): 0}
    step = puzzle_step(position, moves)
    assert step is not None and step.answer == parse_move("c1-d1") and step.value == 9
    assert step.losses == {parse_move("a1-b1"): 6, parse_move("e1-f1"): 4, parse_move("a2-g1"): 9}
    # a second move of the best value: no puzzle
    assert puzzle_step(position, {**moves, parse_move("e1-f1"): 9}) is None
    # an alternative losing only 3, without changing the result: no puzzle
    assert puzzle_step(position, {**moves, parse_move("e1-f1"): 9 - MIN_LOSS + 1}) is None
    # the biggest pair as the answer: no puzzle
    assert puzzle_step(position, {**moves, parse_move("a1-b1"): 20}) is None
    # every move's value is needed
    with pytest.raises(KeyError):
        puzzle_step(position, {parse_move("a1-b1"): 3})


def test_a_small_loss_that_changes_the_result_counts() -> None:
    # P1 leads 10-0: a value of -10 draws, -9 wins, -11 loses
    position = build([["9m"], ["9m"], ["2s"], ["2s"]], scores=(10, 0))
    assert changes_result(position, -9, -10)
    assert not changes_result(position, -5, -9)
    step = puzzle_step(position, {parse_move("a1-b1"): -10, parse_move("c1-d1"): -9})
    assert step is not None and step.answer == parse_move("c1-d1") and step.losses == {parse_move("a1-b1"): 1}
