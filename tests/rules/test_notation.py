"""The text formats of ``shared/spec/notation.md``: round trips, leniency, and error messages.

The formats are a contract: whatever ``format_*`` writes must read back to the same
thing, and every malformed file must be rejected with a narrow exception class and a
message that names the line and the offending token, so a user can fix it by hand.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battle.rules.board import COLS, ROWS, Position, cell_name, move_name, parse_cell, parse_move
from battle.rules.deal import deal
from battle.rules.errors import BattleError, IllegalMoveError, NotationError, PositionError, RecordError
from battle.rules.game import Game
from battle.rules.notation import Record, format_position, format_record, parse_any, parse_position, parse_record
from battle.rules.tiles import EMPTY, KIND_NAMES, kind_value, parse_kind

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None)
deal_numbers = st.integers(0, 2**63 - 1)
EMPTY_ROW = " ".join([".."] * COLS)


def grid(*rows: str) -> str:
    """Nine grid rows: the given ones on top, empty rows below."""
    lines = list(rows) + [EMPTY_ROW] * (ROWS - len(rows))
    assert len(lines) == ROWS
    return "\n".join(lines)


def position_text(*rows: str, to_move: int = 1, score: str = "0 0") -> str:
    return f"to-move: {to_move}\nscore: {score}\n{grid(*rows)}\n"


def play_random(data: st.DataObject, position: Position, limit: int | None = None) -> list[tuple[int, int]]:
    played = []
    while limit is None or len(played) < limit:
        moves = position.legal_moves()
        if not moves:
            break
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move index")]
        position.push(move)
        played.append(move)
    return played


def finished_game(number: int) -> Game:
    """A deterministic game played to the end: always the last legal move."""
    game = Game.new(number, "Alice", "Bob")
    while not game.is_over():
        game.play(game.position.legal_moves()[-1])
    return game


@st.composite
def composed_positions(draw: st.DrawFn) -> Position:
    """A subset of a deal with every column one run, either side to move, any scores."""
    tiles = deal(draw(deal_numbers)).cells
    cells = [EMPTY] * (COLS * ROWS)
    for col in range(COLS):
        top = draw(st.integers(0, ROWS))
        bottom = draw(st.integers(top - 1, ROWS - 1)) if top < ROWS else top - 1
        for row in range(top, bottom + 1):
            cells[col * ROWS + row] = tiles[col * ROWS + row]
    return Position(cells, draw(st.sampled_from([1, 2])), (draw(st.integers(0, 99999)), draw(st.integers(0, 99999))))


# -- positions ----------------------------------------------------------------------------


def test_a_deal_is_written_as_the_spec_shows() -> None:
    text = format_position(deal(0), "deal 0")
    lines = text.splitlines()
    assert lines[:3] == ["# deal 0", "to-move: 1", "score: 0 0"]
    assert len(lines) == 3 + ROWS
    assert all(len(line.split(" ")) == COLS for line in lines[3:])
    assert text.endswith("\n")


@SETTINGS
@given(deal_numbers)
def test_position_round_trip_of_deals(number: int) -> None:
    position = deal(number)
    text = format_position(position)
    assert parse_position(text) == position
    assert parse_any(text) == position
    assert format_position(parse_position(text)) == text


@SETTINGS
@given(deal_numbers, st.data())
def test_position_round_trip_mid_game(number: int, data: st.DataObject) -> None:
    position = deal(number)
    play_random(data, position, limit=data.draw(st.integers(0, 54), label="moves"))
    text = format_position(position, comment="mid-game\nsecond comment line")
    parsed = parse_position(text)
    assert parsed.key() == position.key()
    assert parsed.legal_moves() == position.legal_moves()
    assert format_position(parsed, comment="mid-game\nsecond comment line") == text


@SETTINGS
@given(composed_positions())
def test_position_round_trip_composed(position: Position) -> None:
    text = format_position(position)
    assert f"to-move: {position.to_move}\nscore: {position.scores[0]} {position.scores[1]}\n" in text
    assert parse_position(text).key() == position.key()
    assert format_position(parse_position(text)) == text


def test_empty_board_round_trip() -> None:
    position = Position([EMPTY] * (COLS * ROWS), 2, (130, 140))
    text = format_position(position)
    assert text == "to-move: 2\nscore: 130 140\n" + "\n".join([EMPTY_ROW] * ROWS) + "\n"
    assert parse_position(text) == position
    assert parse_position(text).is_over()


def test_comments_blank_lines_and_repeated_spaces_are_accepted_anywhere() -> None:
    rows = format_position(deal(3)).splitlines()[2:]
    messy = [
        "# a study",
        "",
        "   # an indented comment",
        "score:   12    7   # points so far",
        "",
        "to-move :  2",
        "\t",
    ]
    for index, row in enumerate(rows):
        messy.append("   " + "    ".join(row.split()) + f"   # row {index + 1}")
        if index % 3 == 0:
            messy.extend(["", "#"])
    messy.append("# the end, without a final newline")
    parsed = parse_position("\r\n".join(messy))
    assert parsed.key() == Position(deal(3).cells, 2, (12, 7)).key()


def test_a_comment_sign_inside_a_row_ends_the_row() -> None:
    row = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p"
    position = parse_position(position_text(row + "# 4p 5p"))
    assert [kind for kind in position.rows()[0]] == [parse_kind(token) for token in row.split()]


@pytest.mark.parametrize("separator", ["\u2028", "\x0c", "\x85"])
def test_a_comment_runs_to_the_end_of_its_line(separator: str) -> None:
    """Only a newline ends a comment (and counts as a line for error messages)."""
    text = format_position(deal(0)).replace("to-move: 1\n", f"# note{separator}to-move: 2\nto-move: 1\n")
    assert parse_position(text).to_move == 1


# -- cells and moves ---------------------------------------------------------------------


def test_every_cell_name_round_trips_in_board_order() -> None:
    names = [cell_name(cell) for cell in range(COLS * ROWS)]
    assert len(set(names)) == COLS * ROWS == 108
    assert names[0] == "a1" and names[8] == "a9" and names[9] == "b1" and names[-1] == "l9"
    assert names == [f"{col}{row}" for col in "abcdefghijkl" for row in range(1, 10)]
    for cell, name in enumerate(names):
        assert parse_cell(name) == cell


@pytest.mark.parametrize("text", ["", "a", "a0", "m1", "A1", "a10", "1a", "a1 ", " a1", "a-1", "aa", "a\u0661", "l9x"])
def test_bad_cells_are_rejected(text: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_cell(text)
    assert type(error.value) is NotationError
    assert str(error.value) == f"{text!r} is not a cell (expected a column a-l and a row 1-9, e.g. c7)"


def test_every_move_round_trips_in_both_orders_and_separators() -> None:
    for a, b in combinations(range(COLS * ROWS), 2):
        name = move_name((a, b))
        assert name == f"{cell_name(a)}-{cell_name(b)}"
        first, second = name.split("-")
        assert parse_move(name) == (a, b)
        assert parse_move(f"{second}-{first}") == (a, b)
        assert parse_move(f"{first} {second}") == (a, b)
        assert parse_move(f"{second} {first}") == (a, b)


@pytest.mark.parametrize("text", ["c1 c9", "c9-c1", "c1-c9", "  c1   c9 ", "c9 - c1", "c1\tc9"])
def test_moves_may_be_written_with_a_space_or_a_hyphen(text: str) -> None:
    assert parse_move(text) == (parse_cell("c1"), parse_cell("c9"))
    assert move_name(parse_move(text)) == "c1-c9"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("c1", "'c1' is not a move (expected two cells, e.g. c1-c9)"),
        ("c1-c9-d4", "'c1-c9-d4' is not a move (expected two cells, e.g. c1-c9)"),
        ("", "'' is not a move (expected two cells, e.g. c1-c9)"),
        ("c1-c1", "'c1-c1' is not a move: the two cells must differ"),
        ("c1-m9", "'m9' is not a cell (expected a column a-l and a row 1-9, e.g. c7)"),
        ("c0 c9", "'c0' is not a cell (expected a column a-l and a row 1-9, e.g. c7)"),
    ],
)
def test_bad_moves_are_rejected(text: str, message: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_move(text)
    assert type(error.value) is NotationError
    assert str(error.value) == message


# -- game records -------------------------------------------------------------------------


def test_a_finished_game_record_round_trips() -> None:
    game = finished_game(5)
    text = game.to_text()
    lines = text.splitlines()
    assert lines[:3] == ["player1: Alice", "player2: Bob", "deal: 5"]
    assert lines[3].startswith("1. ") and "  2. " in lines[3]
    result = game.result()
    assert result is not None
    assert lines[-1] == f"result: {result.scores[0]}-{result.scores[1]}"
    record = parse_record(text)
    assert (record.player1, record.player2, record.deal) == ("Alice", "Bob", 5)
    assert record.start == deal(5)
    assert record.moves == game.moves
    assert record.result() == result.scores
    assert format_record(record) == text
    assert parse_any(text) == game.position


@SETTINGS
@given(deal_numbers, st.data())
def test_record_round_trip_finished_and_unfinished(number: int, data: st.DataObject) -> None:
    start = deal(number)
    position = start.copy()
    moves = play_random(data, position, limit=data.draw(st.none() | st.integers(0, 54), label="limit"))
    record = Record("Alice", "Solver (perfect)", number, start.copy(), moves)
    text = format_record(record)
    assert ("result: " in text) == position.is_over()
    parsed = parse_record(text)
    assert (parsed.player1, parsed.player2, parsed.deal) == ("Alice", "Solver (perfect)", number)
    assert parsed.start == start
    assert parsed.moves == moves
    assert parsed.final_position().key() == position.key()
    assert parsed.result() == ((position.scores[0], position.scores[1]) if position.is_over() else None)
    assert format_record(parsed) == text


@SETTINGS
@given(composed_positions(), st.data())
def test_record_round_trip_from_a_layout(start: Position, data: st.DataObject) -> None:
    position = start.copy()
    moves = play_random(data, position, limit=data.draw(st.none() | st.integers(0, 54), label="limit"))
    text = format_record(Record("A", "B", None, start.copy(), moves))
    assert "layout:" in text and "deal:" not in text
    parsed = parse_record(text)
    assert parsed.deal is None
    assert parsed.start.key() == start.key()
    assert parsed.moves == moves
    assert parsed.final_position().key() == position.key()
    assert format_record(parsed) == text


def test_a_layout_record_with_player_2_to_move_and_a_score() -> None:
    rows = ("1m 1m .. .. .. .. .. .. .. .. .. 9s", ".. .. .. .. .. .. .. .. .. .. .. 8s")
    start = parse_position(position_text(*rows, to_move=2, score="100 95"))
    text = format_record(Record("Ann", "Ben", None, start, [(0, 9)]))
    assert text == (
        "player1: Ann\nplayer2: Ben\nto-move: 2\nscore: 100 95\nlayout:\n"
        + grid(*rows)
        + "\n1. a1-b1 (1)\nresult: 100-96\n"
    )
    record = parse_record(text)
    assert record.deal is None
    assert record.start.to_move == 2 and record.start.scores == [100, 95]
    assert record.moves == [(0, 9)]
    game = Game.from_record(record)
    result = game.result()
    assert result is not None and result.scores == (100, 96) and result.winner == 1 and result.margin == 4
    assert game.mover_of(0) == 2
    assert game.position.tiles_left() == 2  # over with tiles left: 9s and 8s are no pair
    assert Game.from_text(game.to_text()).position.key() == game.position.key()


def test_record_leniency_comments_blank_lines_spaces_and_move_forms() -> None:
    position = deal(1)
    moves = []
    for _ in range(3):
        moves.append(position.legal_moves()[0])
        position.push(moves[-1])
    a, b, c = (move_name(move).split("-") for move in moves)
    points = [kind_value(deal(1).cells[move[0]]) for move in moves]
    text = (
        "# a game\n\n"
        "player1:   Alice   # first\n"
        "  player2 : Bob\n"
        "\n"
        "deal:  1   # the deal\n"
        "# the moves\n"
        f"1.{a[0]} {a[1]}   ({points[0]})    # comment between moves\n"
        "\n"
        f"  2.   {b[1]}-{b[0]}\n"
        f"3. {c[1]} - {c[0]}( {points[2]} )\n"
    )
    record = parse_record(text)
    assert (record.player1, record.player2, record.deal) == ("Alice", "Bob", 1)
    assert record.moves == moves
    assert parse_record(text.replace("\n", "\r\n")).moves == moves
    # move numbers and points are optional
    assert parse_record(f"deal: 1\n{a[0]}-{a[1]} {b[1]} {b[0]}").moves == moves[:2]


# -- error messages -----------------------------------------------------------------------

FULL = format_position(deal(0)).splitlines()  # to-move, score, then the 9 rows of deal 0
DEAL0_ROWS = FULL[2:]


def replace_row(index: int, row: str) -> list[str]:
    rows = list(DEAL0_ROWS)
    rows[index] = row
    return rows


def game_text(moves: str, number: int = 5, extra: str = "") -> str:
    return f"player1: Alice\nplayer2: Bob\ndeal: {number}\n{moves}\n{extra}"


def deal5_moves(count: int) -> list[tuple[int, int]]:
    game = finished_game(5)
    return game.moves[:count]


def numbered(moves: list[tuple[int, int]]) -> str:
    """Deal 5 moves as a record writes them: ``1. c1-c9 (7)  2. ...``."""
    position = deal(5)
    parts = []
    for index, move in enumerate(moves, start=1):
        points = position.push(move)
        parts.append(f"{index}. {move_name(move)} ({points})")
    return "  ".join(parts)


def expect(parser: Callable[[str], object], text: str, error_class: type[BattleError], message: str) -> None:
    """The parser raises exactly ``error_class`` with exactly ``message``."""
    with pytest.raises(BattleError) as caught:
        parser(text)
    assert type(caught.value) is error_class, f"{type(caught.value).__name__}: {caught.value}"
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == message


def test_error_gap_in_a_column() -> None:
    rows = [
        "1m 2m 3m .. .. .. .. .. .. .. .. ..",
        EMPTY_ROW,
        EMPTY_ROW,
        EMPTY_ROW,
        "4m .. .. .. .. .. .. .. .. .. .. ..",
    ]
    # the gap shows on the line of the tile after it: rows start on line 3, so row 5 is line 7
    expect(parse_position, position_text(*rows), PositionError, "line 7: column a has a gap between a1 and a5")
    rows = [".. .. 5p", ".. .. 5p", ".. .. ..", ".. .. ..", ".. .. ..", ".. .. 5p"]
    rows = [row + " .." * 9 for row in rows]
    expect(parse_position, position_text(*rows), PositionError, "line 8: column c has a gap between c2 and c6")


def test_error_fifth_copy_of_a_kind() -> None:
    row = "7p 7p 7p 7p 7p .. .. .. .. .. .. .."
    expect(parse_position, position_text(row), PositionError, "line 3: a fifth 7p at e1 (only 4 of each kind exist)")


def test_error_fifth_copy_in_a_full_deal_names_the_line_where_it_shows() -> None:
    # deal 0 has 1m at j1, f3, g5, e6; a 1m on a1 makes the one at e6 (row 6, line 8) the fifth
    text = "\n".join(FULL[:2] + replace_row(0, "1m" + DEAL0_ROWS[0][2:]))
    expect(parse_position, text, PositionError, "line 8: a fifth 1m at e6 (only 4 of each kind exist)")


def test_error_eleven_cells_in_a_row() -> None:
    short = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p"
    expect(
        parse_position,
        position_text(EMPTY_ROW, short),
        NotationError,
        f"line 4: expected 12 cells in a grid row, got 11: {short!r}",
    )


def test_error_thirteen_cells_in_a_row() -> None:
    long = EMPTY_ROW + " .."
    expect(
        parse_position, position_text(long), NotationError, f"line 3: expected 12 cells in a grid row, got 13: {long!r}"
    )


def test_error_bad_tile_token() -> None:
    text = "\n".join(FULL[:2] + replace_row(1, "xx" + DEAL0_ROWS[1][2:]))
    expect(
        parse_position,
        text,
        NotationError,
        "line 4: 'xx' is not a tile (expected a value 1-9 and m, p or s, e.g. 5p, or ..)",
    )
    expect(
        parse_position,
        position_text(".. 0m" + " .." * 10),
        NotationError,
        "line 3: '0m' is not a tile (expected a value 1-9 and m, p or s, e.g. 5p, or ..)",
    )


def test_error_eight_grid_rows_is_a_format_error() -> None:
    text = "\n".join(FULL[:-1])
    expect(parse_position, text, NotationError, "line 10: expected 9 grid rows, got 8")


def test_error_eight_grid_rows_names_the_count() -> None:
    text = "\n".join(FULL[:-1]) + "\n# comment lines do not count\n"
    with pytest.raises(NotationError, match=r"^line 10: expected 9 grid rows, got 8$"):
        parse_position(text)


def test_error_ten_grid_rows() -> None:
    text = "\n".join([*FULL, DEAL0_ROWS[0]])
    expect(parse_position, text, NotationError, f"line 12: more than 9 grid rows: {DEAL0_ROWS[0]!r}")


def test_error_missing_to_move() -> None:
    expect(parse_position, "\n".join(FULL[1:]), NotationError, "missing 'to-move:' line (1 or 2)")
    expect(parse_position, "", NotationError, "missing 'to-move:' line (1 or 2)")


def test_error_missing_score() -> None:
    text = "\n".join(FULL[:1] + FULL[2:])
    expect(parse_position, text, NotationError, "missing 'score:' line (points of player 1 and player 2)")


@pytest.mark.parametrize("value", ["3", "0", "x", "", "1 2", "١"])
def test_error_bad_to_move(value: str) -> None:
    text = "\n".join([f"to-move: {value}"] + FULL[1:])
    expect(parse_position, text, NotationError, f"line 1: to-move must be 1 or 2, not {value!r}")


@pytest.mark.parametrize("value", ["0 x", "5", "1 2 3", "-1 4", "1.5 2", "", "7 ٣"])
def test_error_bad_score(value: str) -> None:
    text = "\n".join(FULL[:1] + [f"score: {value}"] + FULL[2:])
    expect(
        parse_position,
        text,
        NotationError,
        f"line 2: score must be two whole numbers >= 0 (player 1, player 2), not {value!r}",
    )


def test_error_score_too_large() -> None:
    text = "\n".join(FULL[:1] + ["score: 1234567 0"] + FULL[2:])
    expect(parse_position, text, NotationError, "line 2: score '1234567 0' is too large (at most 999999)")
    near = "\n".join(FULL[:1] + ["score: 999999 0"] + FULL[2:])
    expect(
        parse_position,
        near,
        NotationError,
        "line 2: score 999999 0 is too large: with the 270 points on the board it could reach 1000269, "
        "more than 999999",
    )


def test_every_position_a_readable_start_reaches_is_readable() -> None:
    """The result line and final position a game writes are ones the program reads back."""
    start = "\n".join(FULL[:1] + [f"score: {999_999 - 270} 0"] + FULL[2:])
    game = Game(parse_position(start), "A", "B")
    while not game.is_over():
        game.play(game.position.legal_moves()[0])
    assert parse_record(game.to_text()).moves == game.moves
    assert parse_position(format_position(game.position)) == game.position


def test_error_unknown_field_and_repeated_fields() -> None:
    text = "\n".join(FULL[:2] + ["# comment", "Player1: Alice"] + FULL[2:])
    expect(
        parse_position, text, NotationError, "line 4: unknown field 'player1' in a position (expected to-move or score)"
    )
    text = "\n".join(FULL[:2] + ["to-move: 2"] + FULL[2:])
    expect(parse_position, text, NotationError, "line 3: to-move is given twice")
    text = "\n".join(FULL + ["score: 1 1"])
    expect(parse_position, text, NotationError, "line 12: score is given twice")


def test_error_record_with_a_move_of_a_blocked_tile() -> None:
    moves = deal5_moves(1)
    # e5 is in the middle of a full column: never free at the start
    bad = numbered(moves) + "  2. e5-k9"
    expect(
        parse_record,
        game_text(bad),
        RecordError,
        "line 4: move 2: e5-k9: e5 is not free (only the top-most and bottom-most tile of a column are)",
    )


def test_error_record_with_a_move_that_is_not_a_pair() -> None:
    position = deal(5)
    a, b = position.free_cells()[:2]
    assert position.cells[a] != position.cells[b]
    names = (cell_name(a), cell_name(b))
    kinds = (KIND_NAMES[position.cells[a]], KIND_NAMES[position.cells[b]])
    expect(
        parse_record,
        game_text(f"1. {names[0]}-{names[1]}"),
        RecordError,
        f"line 4: move 1: {names[0]}-{names[1]}: {names[0]} is {kinds[0]} and {names[1]} is {kinds[1]}, not a pair",
    )


def test_error_record_with_a_move_of_an_empty_cell() -> None:
    first = deal5_moves(1)[0]
    again = move_name(first)
    text = game_text(f"1. {again}\n2. {again}")
    expect(parse_record, text, RecordError, f"line 5: move 2: {again}: {again[:2]} is empty")


def test_error_record_with_wrong_points() -> None:
    move = deal5_moves(1)[0]
    points = kind_value(deal(5).cells[move[0]])
    wrong = points % 9 + 1
    kind = KIND_NAMES[deal(5).cells[move[0]]]
    expect(
        parse_record,
        game_text(f"1. {move_name(move)} ({wrong})"),
        RecordError,
        f"line 4: move 1: {move_name(move)} takes a pair of {kind} worth {points}, not ({wrong})",
    )


def test_error_record_with_a_result_that_does_not_match() -> None:
    game = finished_game(5)
    first, second = game.position.scores
    text = game.to_text().replace(f"result: {first}-{second}", f"result: {second + 1}-{first}")
    line = len(text.splitlines())
    expect(
        parse_record,
        text,
        RecordError,
        f"line {line}: result {second + 1}-{first} does not match the replayed score {first}-{second}",
    )


def test_error_record_with_a_result_before_the_game_is_over() -> None:
    expect(
        parse_record,
        game_text(numbered(deal5_moves(3)), extra="result: 10-10\n"),
        RecordError,
        "line 5: result given, but the game is not over after move 3",
    )


def test_error_record_with_a_wrong_move_number() -> None:
    moves = deal5_moves(3)
    text = numbered(moves).replace("3. ", "4. ")
    expect(parse_record, game_text(text), RecordError, "line 4: move 3 is numbered 4")


def test_error_record_with_deal_and_layout() -> None:
    text = "deal: 5\nlayout:\n" + "\n".join(DEAL0_ROWS) + "\n"
    expect(parse_record, text, NotationError, "line 2: a record has either deal: or layout:, not both")


def test_error_record_with_moves_after_the_result() -> None:
    text = finished_game(5).to_text() + "\n# more\n55. a1-a2\n"
    line = len(text.splitlines())
    expect(parse_record, text, NotationError, f"line {line}: moves after the result line")


def test_error_record_with_a_move_when_the_game_is_over() -> None:
    game = finished_game(5)
    lines = game.to_text().splitlines()[:-1]  # without the result line
    lines.append(f"{game.ply + 1}. a1-l9")
    expect(
        parse_record,
        "\n".join(lines),
        RecordError,
        f"line {len(lines)}: move {game.ply + 1}: a1-l9: the game is already over",
    )


def test_error_record_without_a_start() -> None:
    expect(
        parse_record,
        "player1: Alice\n1. a1-b1\n",
        NotationError,
        "missing 'deal:' or 'layout:' line: the record must say where the game started",
    )


@pytest.mark.parametrize("value", ["-1", "abc", "1.5", "9223372036854775808", "5 6", "9" * 5000])
def test_error_record_with_a_bad_deal_number(value: str) -> None:
    shown = value if len(value) <= 30 else value[:27] + "..."
    quoted = repr(shown) if value != "9223372036854775808" else value
    expect(
        parse_record,
        f"# header\ndeal: {value}\n",
        NotationError,
        f"line 2: {quoted} is not a deal number (expected a whole number from 0 to 9223372036854775807)",
    )


def test_error_record_fields() -> None:
    expect(parse_record, "deal: 5\nwinner: Bob\n", NotationError, "line 2: unknown field 'winner' in a game record")
    expect(parse_record, "deal: 5\ndeal: 6\n", NotationError, "line 2: deal is given twice")
    expect(
        parse_record,
        "deal: 5\nto-move: 2\n",
        NotationError,
        "line 2: to-move: and score: belong to a layout:, a numbered deal starts 0-0 with player 1",
    )
    first = move_name(deal5_moves(1)[0])
    expect(
        parse_record,
        f"deal: 5\n1. {first}\nplayer2: Bob\n",
        NotationError,
        "line 3: player2: must come before the moves",
    )
    expect(
        parse_record,
        "layout: 5\n",
        NotationError,
        "line 1: layout: takes the 9 grid rows on the following lines, not '5'",
    )


def test_error_record_move_text() -> None:
    first = move_name(deal5_moves(1)[0])
    expect(
        parse_record,
        game_text(f"1. {first} (3x)"),
        NotationError,
        "line 4: points must be a number from 1 to 9, not (3x)",
    )
    expect(parse_record, game_text("(3) 1. a1-b1"), NotationError, "line 4: points (3) must follow a move")
    expect(
        parse_record,
        game_text(f"1. {first} 2."),
        NotationError,
        "line 4: move number 2. has no move after it",
    )
    expect(
        parse_record,
        game_text(f"1. 2. {first}"),
        NotationError,
        "line 4: move number 1. is followed by another number, not a move",
    )
    expect(
        parse_record,
        game_text(f"1. {first} 2. Q9-a1"),
        NotationError,
        "line 4: 'Q9-a1' is not a move (expected e.g. 1. c1-c9 (7))",
    )
    expect(
        parse_record,
        game_text(f"1. {first[:2]}-{first[:2]}"),
        RecordError,
        f"line 4: move 1: '{first[:2]}-{first[:2]}': the two cells must differ",
    )
    expect(
        parse_record,
        game_text("1. a1-a10"),
        RecordError,
        "line 4: move 1: 'a10' is not a cell (expected a column a-l and a row 1-9, e.g. c7)",
    )


def test_error_layout_record_with_a_short_layout() -> None:
    with pytest.raises(NotationError, match=r"^line 6: expected 9 grid rows, got 4$"):
        parse_record("player1: A\nlayout:\n" + "\n".join(DEAL0_ROWS[:4]) + "\n")
    with pytest.raises(NotationError, match=r"^line 1: expected 9 grid rows, got 0$"):
        parse_record("layout:\n")
    rows = replace_row(8, "1m" + DEAL0_ROWS[8][2:])
    expect(
        parse_record,
        "layout:\n" + "\n".join(rows),
        PositionError,
        "line 10: a fifth 1m at a9 (only 4 of each kind exist)",
    )


def test_error_illegal_moves_on_a_position_and_in_a_game() -> None:
    position = deal(0)
    with pytest.raises(IllegalMoveError) as caught:
        position.push(parse_move("a5-b5"))
    assert type(caught.value) is IllegalMoveError
    assert str(caught.value) == "a5-b5: a5 is not free (only the top-most and bottom-most tile of a column are)"
    assert position == deal(0)  # a rejected move changes nothing
    game = finished_game(5)
    before = game.position.key()
    with pytest.raises(IllegalMoveError) as caught:
        game.play(parse_move("a1-a2"))
    assert type(caught.value) is IllegalMoveError
    assert str(caught.value) == "a1-a2: a1 is empty"
    assert game.position.key() == before


def test_error_classes_form_the_documented_hierarchy() -> None:
    """The error classes form the documented hierarchy."""
    assert issubclass(PositionError, NotationError) and issubclass(RecordError, NotationError)
    assert issubclass(NotationError, BattleError) and issubclass(IllegalMoveError, BattleError)
    assert issubclass(BattleError, ValueError)
    assert not issubclass(IllegalMoveError, NotationError)
