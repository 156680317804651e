"""Properties of the rules model over random deals and random games.

Every check here recomputes what it needs straight from the raw ``cells`` list
(column-major, ``col * 9 + row``) instead of asking ``Position`` for it, so a
bug in the bookkeeping of ``board.py`` cannot hide behind itself.
"""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from battle.rules.board import COLS, ROWS, Position
from battle.rules.deal import deal
from battle.rules.game import Game
from battle.rules.notation import Record, format_record, parse_record
from battle.rules.tiles import EMPTY, TOTAL_POINTS, kind_value

SETTINGS = settings(max_examples=100, deadline=None, derandomize=True, database=None)
deal_numbers = st.integers(0, 2**63 - 1)


# -- independent reference computations on the raw grid ----------------------------------


def column_rows(cells: list[int], col: int) -> list[int]:
    """Rows (0-8) of the tiles in a column, top first."""
    return [row for row in range(ROWS) if cells[col * ROWS + row] != EMPTY]


def reference_free_cells(cells: list[int]) -> set[int]:
    """The top-most and bottom-most tile of every non-empty column."""
    free = set()
    for col in range(COLS):
        rows = column_rows(cells, col)
        if rows:
            free.add(col * ROWS + rows[0])
            free.add(col * ROWS + rows[-1])
    return free


def board_order(cell: int) -> tuple[int, int]:
    """Sort key of the notation's board order: column first, then row."""
    return (cell // ROWS, cell % ROWS)


def reference_legal_moves(cells: list[int]) -> list[tuple[int, int]]:
    """Every pair of free cells holding the same kind, in board order."""
    free = sorted(reference_free_cells(cells), key=board_order)
    pairs = [(a, b) for a, b in combinations(free, 2) if cells[a] == cells[b]]
    return sorted(pairs, key=lambda pair: (board_order(pair[0]), board_order(pair[1])))


def reference_points(cells: list[int]) -> int:
    return sum(kind_value(kind) for kind in cells if kind != EMPTY) // 2


def check_invariants(position: Position) -> None:
    cells = list(position.cells)
    for col in range(COLS):
        rows = column_rows(cells, col)
        top, bottom = position.column_run(col)
        if rows:
            assert rows == list(range(rows[0], rows[-1] + 1)), f"column {col} is not one run: rows {rows}"
            assert (top, bottom) == (rows[0], rows[-1])
        else:
            assert top > bottom
    free = position.free_cells()
    expected_free = reference_free_cells(cells)
    assert set(free) == expected_free
    assert len(free) == len(set(free))
    assert free == sorted(free, key=board_order)
    for cell in range(COLS * ROWS):
        assert position.is_free(cell) == (cell in expected_free)
    moves = position.legal_moves()
    assert moves == reference_legal_moves(cells)
    assert len(moves) == len(set(moves))
    assert all(a < b for a, b in moves)
    assert position.is_over() == (not moves)
    assert position.has_moves() == bool(moves)
    assert position.points_on_board() == reference_points(cells)
    assert position.tiles_left() == sum(1 for kind in cells if kind != EMPTY)


def play_random_moves(data: st.DataObject, position: Position, limit: int | None = None) -> list[tuple[int, int]]:
    """Push random legal moves (checking the invariants after each) until over or ``limit``."""
    played = []
    while limit is None or len(played) < limit:
        moves = position.legal_moves()
        if not moves:
            break
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move index")]
        mover, scores, points = position.to_move, list(position.scores), kind_value(position.cells[move[0]])
        assert position.push(move) == points
        assert position.to_move == 3 - mover
        scores[mover - 1] += points
        assert position.scores == scores
        assert position.cells[move[0]] == position.cells[move[1]] == EMPTY
        check_invariants(position)
        played.append(move)
    return played


@st.composite
def composed_positions(draw: st.DrawFn) -> Position:
    """Any subset of a deal that keeps every column one run; any side to move and score."""
    tiles = deal(draw(deal_numbers)).cells
    cells = [EMPTY] * (COLS * ROWS)
    for col in range(COLS):
        top = draw(st.integers(0, ROWS))
        bottom = draw(st.integers(top - 1, ROWS - 1)) if top < ROWS else top - 1
        for row in range(top, bottom + 1):
            cells[col * ROWS + row] = tiles[col * ROWS + row]
    scores = (draw(st.integers(0, 999)), draw(st.integers(0, 999)))
    return Position(cells, draw(st.sampled_from([1, 2])), scores)


# -- properties -------------------------------------------------------------------------


@SETTINGS
@given(deal_numbers, st.data())
def test_invariants_after_every_move_of_a_deal(number: int, data: st.DataObject) -> None:
    position = deal(number)
    assert position.tiles_left() == 108
    check_invariants(position)
    assert position.scores[0] + position.scores[1] + position.points_on_board() == TOTAL_POINTS == 270
    while position.legal_moves():
        play_random_moves(data, position, limit=1)
        assert position.scores[0] + position.scores[1] + position.points_on_board() == 270
    assert position.is_over()


@SETTINGS
@given(composed_positions(), st.data())
def test_invariants_after_every_move_of_a_composed_position(position: Position, data: st.DataObject) -> None:
    check_invariants(position)
    total = position.scores[0] + position.scores[1] + position.points_on_board()
    play_random_moves(data, position)
    assert position.scores[0] + position.scores[1] + position.points_on_board() == total
    assert position.is_over()


@SETTINGS
@given(deal_numbers, st.data())
def test_push_then_pop_restores_the_position(number: int, data: st.DataObject) -> None:
    position = deal(number)
    start_key = position.key()
    played = play_random_moves(data, position, limit=data.draw(st.integers(0, 54), label="prefix"))
    assert position.move_stack == played
    for move in position.legal_moves():
        key, cells, runs = position.key(), list(position.cells), [position.column_run(c) for c in range(COLS)]
        position.push(move)
        assert position.key() != key
        assert position.pop() == move
        assert position.key() == key
        assert position.cells == cells
        assert [position.column_run(c) for c in range(COLS)] == runs
        check_invariants(position)
    for move in reversed(played):
        assert position.pop() == move
    assert position.key() == start_key
    assert position == deal(number)
    assert position.move_stack == []


@SETTINGS
@given(deal_numbers, st.data())
def test_undo_and_redo_restore(number: int, data: st.DataObject) -> None:
    game = Game.new(number)
    position = game.position
    for _ in range(data.draw(st.integers(0, 54), label="moves")):
        moves = position.legal_moves()
        if not moves:
            break
        game.play(moves[data.draw(st.integers(0, len(moves) - 1), label="move index")])
    keys = [game.position_at(ply).key() for ply in range(game.ply + 1)]
    played = list(game.moves)
    back = data.draw(st.integers(0, game.ply), label="undos")
    for step in range(1, back + 1):
        assert game.undo() == played[-step]
        assert game.position.key() == keys[-1 - step]
        check_invariants(game.position)
    assert game.can_redo() == (back > 0)
    assert game.can_undo() == (game.ply > 0)
    for step in range(back):
        game.redo()
        assert game.position.key() == keys[len(keys) - back + step]
    assert not game.can_redo()
    assert game.moves == played
    assert game.position.key() == keys[-1]


@SETTINGS
@given(deal_numbers, st.data())
def test_a_new_move_after_undo_keeps_redo_only_if_it_is_the_undone_move(number: int, data: st.DataObject) -> None:
    game = Game.new(number)
    played = play_random_moves(data, game.position, limit=2)
    if len(played) < 2:  # a deal that ends at once: nothing to test
        return
    first, second = played
    game.undo()
    game.undo()
    assert game.play(first) == kind_value(deal(number).cells[first[0]])
    assert game.can_redo()  # replaying the undone move keeps the rest of the redo list
    assert game.redo() == second
    assert game.moves == [first, second]
    game.undo()
    others = [move for move in game.position.legal_moves() if move != second]
    if others:
        game.play(others[data.draw(st.integers(0, len(others) - 1), label="other move")])
        assert not game.can_redo()  # a different move drops the old future
        assert game.moves == [first, game.moves[1]] and game.moves[1] != second


@SETTINGS
@given(deal_numbers, st.data())
def test_record_text_replays_to_the_same_game(number: int, data: st.DataObject) -> None:
    game = Game.new(number, "Alice", "Bob")
    played = play_random_moves(data, game.position, limit=data.draw(st.integers(0, 54), label="moves"))
    text = game.to_text()
    loaded = Game.from_text(text)
    assert loaded.position.key() == game.position.key()
    assert loaded.moves == played
    assert loaded.start.key() == deal(number).key()
    assert (loaded.player1, loaded.player2, loaded.deal_number) == ("Alice", "Bob", number)
    assert loaded.to_text() == text
    assert loaded.is_over() == game.is_over()


@SETTINGS
@given(composed_positions(), st.data())
def test_record_from_a_composed_start_replays(start: Position, data: st.DataObject) -> None:
    position = start.copy()
    played = play_random_moves(data, position)
    record = parse_record(format_record(Record("A", "B", None, start.copy(), played)))
    assert record.deal is None
    assert record.start.key() == start.key()
    assert record.moves == played
    assert record.final_position().key() == position.key()


@SETTINGS
@given(deal_numbers, st.data())
def test_a_game_played_to_the_end(number: int, data: st.DataObject) -> None:
    game = Game.new(number)
    while not game.is_over():
        assert game.result() is None
        moves = game.position.legal_moves()
        game.play(moves[data.draw(st.integers(0, len(moves) - 1), label="move index")])
    result = game.result()
    assert result is not None
    first, second = game.position.scores
    assert result.scores == (first, second)
    assert result.margin == abs(first - second)
    assert result.winner == (None if first == second else 1 if first > second else 2)
    assert first + second + game.position.points_on_board() == 270
    assert game.position.legal_moves() == []
    assert len(game.moves) == game.ply <= 54
    assert Record(deal=number, start=deal(number), moves=game.moves).result() == (first, second)
    assert game.to_text().rstrip().endswith(f"result: {first}-{second}")
