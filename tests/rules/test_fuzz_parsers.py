"""Fuzzing the parsers: any text gives a valid object or a ``BattleError``, never anything else.

Two sources of input: arbitrary text (with the characters the formats care about
mixed in), and valid files with a few random edits, which get much deeper into
the parsers than random text does.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battle.rules.board import COLS, ROWS, Position, cell_name, find_layout_problem, move_name, parse_cell, parse_move
from battle.rules.deal import MAX_DEAL, deal, parse_deal_number
from battle.rules.errors import BattleError
from battle.rules.game import Game
from battle.rules.notation import Record, format_position, format_record, parse_any, parse_position, parse_record
from battle.rules.tiles import EMPTY

SETTINGS = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

SPECIAL = "0123456789mps.:#-() \t\n\r\x0b\x0c\x85\u2028\ufeffabcdefghijklxyzMPS"
characters = st.one_of(st.characters(), st.sampled_from(SPECIAL))
random_text = st.text(characters, max_size=300)


def _game_text(number: int, finished: bool) -> str:
    game = Game.new(number, "Alice", "Bob")
    while not game.is_over() and (finished or game.ply < 20):
        moves = game.position.legal_moves()
        game.play(moves[game.ply % len(moves)])
    return game.to_text()


def _layout_text() -> str:
    start = deal(7)
    for _ in range(30):
        start.push(start.legal_moves()[0])
    start = Position(start.cells, 2, (40, 35))
    position = start.copy()
    moves = []
    for _ in range(5):
        moves.append(position.legal_moves()[-1])
        position.push(moves[-1])
    return format_record(Record("A", "B", None, start, moves))


def _mid_game_text() -> str:
    position = deal(11)
    for _ in range(25):
        position.push(position.legal_moves()[-1])
    return format_position(position, "mid-game")


POSITION_FILES = [format_position(deal(0), "deal 0"), format_position(deal(MAX_DEAL)), _mid_game_text()]
RECORD_FILES = [_game_text(5, finished=True), _game_text(6, finished=False), _layout_text()]


@st.composite
def mutated(draw: st.DrawFn, bases: list[str]) -> str:
    """A valid file with 1-3 random edits: characters, lines and tokens."""
    text = draw(st.sampled_from(bases))
    for _ in range(draw(st.integers(1, 3))):
        operation = draw(
            st.sampled_from(
                ["delete", "insert", "replace", "swap lines", "duplicate line", "delete line", "swap tokens"]
            )
        )
        if operation in ("delete", "insert", "replace"):
            at = draw(st.integers(0, max(0, len(text) - 1)))
            size = draw(st.integers(1, 4))
            new = draw(st.text(characters, min_size=1, max_size=4)) if operation != "delete" else ""
            cut = size if operation != "insert" else 0
            text = text[:at] + new + text[at + cut :]
        elif operation in ("swap lines", "duplicate line", "delete line"):
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if operation == "swap lines":
                lines[i], lines[j] = lines[j], lines[i]
            elif operation == "duplicate line":
                lines.insert(j, lines[i])
            else:
                del lines[i]
            text = "\n".join(lines)
        else:
            tokens = text.split(" ")
            i = draw(st.integers(0, len(tokens) - 1))
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
            text = " ".join(tokens)
    return text


any_file = mutated(POSITION_FILES + RECORD_FILES)


def outcome(parser: Callable[[str], object], text: str) -> object | None:
    """The parsed object, or None after a ``BattleError``; anything else fails the test."""
    try:
        return parser(text)
    except BattleError as error:
        message = str(error)
        assert message, "an error without a message"
        assert "\n" not in message, f"a multi-line message: {message!r}"
        return None


def check_position(position: object) -> None:
    assert isinstance(position, Position)
    assert find_layout_problem(position.cells) is None
    assert position.to_move in (1, 2)
    assert parse_position(format_position(position)) == position


def check_record(record: object) -> None:
    assert isinstance(record, Record)
    assert record.deal is None or 0 <= record.deal <= MAX_DEAL
    final = record.final_position()  # every move replays
    assert find_layout_problem(final.cells) is None
    assert parse_record(format_record(record)).moves == record.moves


# -- random text ------------------------------------------------------------------------


@SETTINGS
@given(random_text)
def test_parse_position_on_random_text(text: str) -> None:
    position = outcome(parse_position, text)
    if position is not None:
        check_position(position)


@SETTINGS
@given(random_text)
def test_parse_record_on_random_text(text: str) -> None:
    record = outcome(parse_record, text)
    if record is not None:
        check_record(record)


@SETTINGS
@given(random_text)
def test_parse_any_on_random_text(text: str) -> None:
    position = outcome(parse_any, text)
    if position is not None:
        check_position(position)


@SETTINGS
@given(st.one_of(random_text, st.text(st.sampled_from("abcdefghijklmnz0123456789 -\t"), max_size=12)))
def test_parse_move_on_random_text(text: str) -> None:
    move = outcome(parse_move, text)
    if move is not None:
        a, b = move
        assert 0 <= a < b < COLS * ROWS
        assert parse_move(move_name(move)) == move


@SETTINGS
@given(st.one_of(random_text, st.text(st.sampled_from("abklmz0189١ "), max_size=3)))
def test_parse_cell_on_random_text(text: str) -> None:
    cell = outcome(parse_cell, text)
    if cell is not None:
        assert 0 <= cell < COLS * ROWS
        assert cell_name(cell) == text


@SETTINGS
@given(st.one_of(random_text, st.text(st.sampled_from("0123456789 +-_.e\u0663\u00b2"), max_size=30)))
def test_parse_deal_number_on_random_text(text: str) -> None:
    number = outcome(parse_deal_number, text)
    if number is not None:
        assert 0 <= number <= MAX_DEAL
        assert number == int(text.strip())


def test_huge_numbers_are_notation_errors() -> None:
    """int() refuses more than 4300 digits with a plain ValueError; the parsers must not."""
    digits = "7" * 5000
    for parser, text in [
        (parse_deal_number, digits),
        (parse_record, f"deal: {digits}\n"),
        (parse_record, f"deal: 1\n{digits}. a1-b1\n"),
        (parse_record, f"deal: 1\na1-b1 ({digits})\n"),
        (parse_position, f"to-move: 1\nscore: {digits} 0\n"),
        (parse_any, f"deal: 1\nresult: {digits}-0\n"),
        (parse_cell, "a" + digits),
        (parse_move, f"a{digits}-b1"),
    ]:
        assert outcome(parser, text) is None


# -- mutated valid files ----------------------------------------------------------------


def test_the_unmutated_files_are_valid() -> None:
    """Otherwise the mutation tests below would only ever see broken files."""
    for text in POSITION_FILES:
        check_position(parse_position(text))
    for text in RECORD_FILES:
        check_record(parse_record(text))
        check_position(parse_any(text))
    assert any(parse_record(text).result() is not None for text in RECORD_FILES)
    assert any(parse_record(text).result() is None for text in RECORD_FILES)
    assert any(parse_record(text).deal is None for text in RECORD_FILES)


@SETTINGS
@given(mutated(POSITION_FILES))
def test_parse_position_on_mutated_positions(text: str) -> None:
    position = outcome(parse_position, text)
    if position is not None:
        check_position(position)


@SETTINGS
@given(mutated(RECORD_FILES))
def test_parse_record_on_mutated_records(text: str) -> None:
    record = outcome(parse_record, text)
    if record is not None:
        check_record(record)


@SETTINGS
@given(any_file)
def test_parse_any_on_mutated_files(text: str) -> None:
    position = outcome(parse_any, text)
    if position is not None:
        check_position(position)


@SETTINGS
@given(any_file)
def test_parse_position_and_record_on_any_mutated_file(text: str) -> None:
    for parser, check in ((parse_position, check_position), (parse_record, check_record)):
        result = outcome(parser, text)
        if result is not None:
            check(result)


@SETTINGS
@given(
    st.lists(st.sampled_from([move_name((a, a + 9)) for a in range(0, 99, 7)] + ["a1", "(3)", "1.", "x"]), max_size=8)
)
def test_parse_record_on_random_move_lists(tokens: list[str]) -> None:
    text = "deal: 3\n" + " ".join(tokens) + "\n"
    record = outcome(parse_record, text)
    if record is not None:
        check_record(record)
        assert record.start == deal(3)


def test_empty_cell_constant_is_what_files_write() -> None:
    """The fuzz inputs rely on '..' being the empty cell."""
    assert format_position(Position([EMPTY] * (COLS * ROWS))).splitlines()[2] == " ".join([".."] * COLS)
