"""The protocol reads every valid client message into its dataclass and refuses everything else with a
``ProtocolError`` naming what is wrong, never another exception, whatever bytes arrive."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battle.online.protocol import messages
from battle.online.protocol.lobby_messages import PageLobby
from battle.online.protocol.messages import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Abort,
    AcceptRematch,
    AnswerTakeback,
    ClientMessage,
    Create,
    DeclineRematch,
    ErrorCode,
    GetRecord,
    GivenPosition,
    Hello,
    Join,
    NameSeat,
    NumberedDeal,
    OfferRematch,
    Ping,
    PlayMove,
    ProtocolError,
    RandomDeal,
    RequestTakeback,
    Resign,
    Resume,
    Watch,
)
from battle.online.protocol.reader import parse_client_message
from battle.online.protocol.server_messages import (
    Ack,
    Created,
    Error,
    ErrorRef,
    Joined,
    Pong,
    Record,
    RematchStarted,
    Welcome,
    error_for,
)
from battle.online.protocol.writer import client_frame, server_frame, server_json
from battle.rules import deal, format_position, parse_position
from battle.rules.wording import reads_as_solver

ROOT = Path(__file__).resolve().parents[2]
PROTOCOL_DOC = ROOT / "docs" / "protocol.md"
SETTINGS = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MESSAGE_CLASSES = (
    Hello,
    Create,
    Join,
    Resume,
    Watch,
    PlayMove,
    Resign,
    Abort,
    OfferRematch,
    AcceptRematch,
    DeclineRematch,
    RequestTakeback,
    AnswerTakeback,
    NameSeat,
    Ping,
    GetRecord,
)
TOKEN = "kM3v9Q0b1yJ2sX4nP6rT8uW0zA5cE7gH"


def _endgame_text() -> str:
    position = deal(3)
    while position.tiles_left() > 30:
        position.push(position.legal_moves()[-1])
    return format_position(position)


def parse(value: Any) -> ClientMessage:
    return parse_client_message(json.dumps(value))


def refusal(data: str | bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(data)
    return caught.value


# -- valid messages --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ({"type": "hello", "version": 1}, Hello(1)),
        ({"type": "hello", "version": 1, "name": "  Al\x00ice #1 "}, Hello(1, "Alice 1")),
        ({"type": "hello", "version": 1, "name": "\n#\t"}, Hello(1, None)),
        (
            {"type": "create", "deal": {"number": 12345}, "first": "creator"},
            Create(NumberedDeal(12345), "creator"),
        ),
        (
            {
                "type": "create",
                "deal": {"random": True},
                "first": "random",
                "move_seconds": 60,
                "lose_on_time": True,
                "name": "Ann",
            },
            Create(RandomDeal(), "random", 60, True, "Ann"),
        ),
        (
            {"type": "create", "deal": {"number": 0}, "first": "joiner", "move_seconds": None, "lose_on_time": False},
            Create(NumberedDeal(0), "joiner"),
        ),
        (
            {"type": "create", "deal": {"number": 2**63 - 1}, "first": "joiner", "move_seconds": 5},
            Create(NumberedDeal(2**63 - 1), "joiner", 5),
        ),
        (
            {"type": "create", "deal": {"number": 1}, "first": "joiner", "move_seconds": 86400},
            Create(NumberedDeal(1), "joiner", 86400),
        ),
        ({"type": "join", "code": "4kq7-m2xd", "name": "Bob"}, Join("4KQ7M2XD", "Bob")),
        ({"type": "join", "code": "4KQ7M2XD"}, Join("4KQ7M2XD")),
        ({"type": "resume", "token": TOKEN}, Resume(TOKEN)),
        ({"type": "watch", "code": "9t3p wq0r"}, Watch("9T3PWQ0R")),
        ({"type": "watch", "code": "9T3P-WQOR"}, Watch("9T3PWQ0R")),
        ({"type": "move", "move": "c1-c9", "id": "m17"}, PlayMove("c1-c9", "m17")),
        ({"type": "move", "move": "c9 c1", "id": "~!x"}, PlayMove("c1-c9", "~!x")),
        ({"type": "resign"}, Resign()),
        ({"type": "rematch_offer"}, OfferRematch()),
        ({"type": "rematch_accept"}, AcceptRematch()),
        ({"type": "takeback_request"}, RequestTakeback()),
        ({"type": "takeback_answer", "accept": False}, AnswerTakeback(False)),
        ({"type": "name", "name": "  Bob\u0007 "}, NameSeat("Bob")),
        ({"type": "ping"}, Ping()),
        ({"type": "ping", "t": 1732630000.5}, Ping(1732630000.5)),
        ({"type": "ping", "t": -(2**53)}, Ping(-(2**53))),
        ({"type": "record"}, GetRecord()),
    ],
)
def test_each_message_reads_into_its_dataclass(message: dict[str, Any], expected: ClientMessage) -> None:
    assert parse(message) == expected
    assert parse_client_message(json.dumps(message).encode()) == expected


def test_a_given_position_is_checked_and_kept_in_canonical_form() -> None:
    text = _endgame_text()
    untidy = "# a study\n" + text.replace(" ", "   ")
    message = parse({"type": "create", "deal": {"position": untidy}, "first": "creator"})
    assert isinstance(message, Create)
    assert message.deal == GivenPosition(text)
    assert parse_position(text) == parse_position(untidy)


def test_every_message_type_has_a_reader_and_the_documented_type() -> None:
    types = {cls.TYPE for cls in MESSAGE_CLASSES}
    assert len(types) == len(MESSAGE_CLASSES)
    for cls in MESSAGE_CLASSES:
        error_or_message: object
        try:
            error_or_message = parse({"type": cls.TYPE})
        except ProtocolError as error:
            error_or_message = error
            assert error.code == ErrorCode.BAD_MESSAGE, (cls.TYPE, error.reason)
        if not isinstance(error_or_message, ProtocolError):
            assert isinstance(error_or_message, cls)


def test_the_ref_names_a_move_by_its_id() -> None:
    message = parse({"type": "move", "move": "a1-b1", "id": "m3"})
    assert messages.ref_of(message) == {"type": "move", "id": "m3"}
    assert messages.ref_of(Resign()) == {"type": "resign"}


# -- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "code", "fragment"),
    [
        (
            {"type": "move", "move": 5, "id": "m1"},
            ErrorCode.BAD_MESSAGE,
            '"move": expected a string like "c1-c9", got 5',
        ),
        ({"type": "move", "move": "zz", "id": "m1"}, ErrorCode.BAD_MESSAGE, "\"move\": 'zz' is not a move"),
        ({"type": "move", "move": "c1-c1", "id": "m1"}, ErrorCode.BAD_MESSAGE, "the two cells must differ"),
        ({"type": "move", "move": "c1-c9"}, ErrorCode.BAD_MESSAGE, 'missing "id" in a "move" message'),
        ({"type": "move", "move": "c1-c9", "id": ""}, ErrorCode.BAD_MESSAGE, '"id": expected a move id'),
        ({"type": "move", "move": "c1-c9", "id": "x" * 65}, ErrorCode.BAD_MESSAGE, '"id": expected a move id'),
        ({"type": "move", "move": "c1-c9", "id": "a b"}, ErrorCode.BAD_MESSAGE, 'got "a b"'),
        (
            {"type": "move", "move": "c1-c9", "id": "m1", "game": "g"},
            ErrorCode.BAD_MESSAGE,
            'unknown field "game" in a "move" message (its fields: id, move)',
        ),
        ({"type": "resign", "now": True}, ErrorCode.BAD_MESSAGE, 'unknown field "now" in a "resign" message'),
        ({"type": "fly"}, ErrorCode.UNKNOWN_TYPE, 'unknown message type "fly"'),
        ({"type": 3}, ErrorCode.BAD_MESSAGE, '"type": expected a string, got 3'),
        ({"name": "x"}, ErrorCode.BAD_MESSAGE, 'missing "type"'),
        ([1, 2], ErrorCode.BAD_MESSAGE, 'expected a JSON object with a "type", got a list'),
        ("hello", ErrorCode.BAD_MESSAGE, 'got "hello"'),
        ({"type": "hello", "version": 2}, ErrorCode.VERSION, "speaks protocol version 1, not 2"),
        ({"type": "hello", "version": "1"}, ErrorCode.BAD_MESSAGE, '"version": expected the protocol version'),
        ({"type": "hello", "version": True}, ErrorCode.BAD_MESSAGE, "got true"),
        ({"type": "hello", "version": 1.0}, ErrorCode.BAD_MESSAGE, "got 1.0"),
        ({"type": "hello", "version": 1, "name": ["A"]}, ErrorCode.BAD_MESSAGE, '"name": expected'),
        ({"type": "create", "deal": {"number": -1}, "first": "creator"}, ErrorCode.BAD_MESSAGE, '"deal.number"'),
        (
            {"type": "create", "deal": {"number": 2**63}, "first": "creator"},
            ErrorCode.BAD_MESSAGE,
            "got 9223372036854775808",
        ),
        ({"type": "create", "deal": {"number": 1e3}, "first": "creator"}, ErrorCode.BAD_MESSAGE, "got 1000.0"),
        ({"type": "create", "deal": {"number": "7"}, "first": "creator"}, ErrorCode.BAD_MESSAGE, 'got "7"'),
        ({"type": "create", "deal": {"random": False}, "first": "creator"}, ErrorCode.BAD_MESSAGE, '"deal.random"'),
        (
            {"type": "create", "deal": {"number": 1, "random": True}, "first": "creator"},
            ErrorCode.BAD_MESSAGE,
            '"deal": expected one of',
        ),
        ({"type": "create", "deal": {}, "first": "creator"}, ErrorCode.BAD_MESSAGE, '"deal": expected one of'),
        ({"type": "create", "deal": {"seed": 1}, "first": "creator"}, ErrorCode.BAD_MESSAGE, '"deal": expected'),
        (
            {"type": "create", "deal": {"position": "to-move: 1\n"}, "first": "creator"},
            ErrorCode.BAD_MESSAGE,
            "\"deal.position\": missing 'score:' line",
        ),
        (
            {"type": "create", "deal": {"position": 5}, "first": "creator"},
            ErrorCode.BAD_MESSAGE,
            '"deal.position": expected the text of a .mbp position',
        ),
        ({"type": "create", "deal": {"number": 1}}, ErrorCode.BAD_MESSAGE, 'missing "first"'),
        ({"type": "create", "first": "creator"}, ErrorCode.BAD_MESSAGE, 'missing "deal"'),
        (
            {"type": "create", "deal": {"number": 1}, "first": "me"},
            ErrorCode.BAD_MESSAGE,
            '"first": expected "creator", "joiner" or "random", got "me"',
        ),
        (
            {"type": "create", "deal": {"number": 1}, "first": "creator", "move_seconds": 4},
            ErrorCode.BAD_MESSAGE,
            '"move_seconds": expected null or whole seconds from 5 to 86400, got 4',
        ),
        (
            {"type": "create", "deal": {"number": 1}, "first": "creator", "move_seconds": 86401},
            ErrorCode.BAD_MESSAGE,
            "got 86401",
        ),
        (
            {"type": "create", "deal": {"number": 1}, "first": "creator", "move_seconds": 30.5},
            ErrorCode.BAD_MESSAGE,
            "got 30.5",
        ),
        (
            {"type": "create", "deal": {"number": 1}, "first": "creator", "lose_on_time": True},
            ErrorCode.BAD_MESSAGE,
            '"lose_on_time": true needs a "move_seconds" limit',
        ),
        (
            {"type": "create", "deal": {"number": 1}, "first": "creator", "lose_on_time": 1},
            ErrorCode.BAD_MESSAGE,
            '"lose_on_time": expected true or false, got 1',
        ),
        (
            {"type": "create", "deal": {"number": 1}, "first": "creator", "lose_ontime": True},
            ErrorCode.BAD_MESSAGE,
            'unknown field "lose_ontime"',
        ),
        ({"type": "join", "code": "ABC"}, ErrorCode.BAD_MESSAGE, "\"code\": 'ABC' is not a code: expected 8"),
        ({"type": "join", "code": 12345678}, ErrorCode.BAD_MESSAGE, '"code": expected a code as a string'),
        ({"type": "join"}, ErrorCode.BAD_MESSAGE, 'missing "code"'),
        ({"type": "watch", "code": "ABCDEFGU"}, ErrorCode.BAD_MESSAGE, "'U' is not one of"),
        ({"type": "resume", "token": "a b"}, ErrorCode.BAD_TOKEN, "not a seat token"),
        ({"type": "resume", "token": ""}, ErrorCode.BAD_TOKEN, "not a seat token"),
        ({"type": "resume", "token": "x" * 129}, ErrorCode.BAD_TOKEN, "not a seat token"),
        ({"type": "resume", "token": None}, ErrorCode.BAD_MESSAGE, '"token": expected the seat token'),
        ({"type": "takeback_answer"}, ErrorCode.BAD_MESSAGE, 'missing "accept"'),
        ({"type": "takeback_answer", "accept": "yes"}, ErrorCode.BAD_MESSAGE, '"accept": expected true or false'),
        ({"type": "takeback_answer", "accept": None}, ErrorCode.BAD_MESSAGE, "got null"),
        ({"type": "ping", "t": 2**53 + 1}, ErrorCode.BAD_MESSAGE, '"t": expected a number'),
        ({"type": "ping", "t": "now"}, ErrorCode.BAD_MESSAGE, '"t": expected a number'),
    ],
)
def test_a_bad_message_is_refused_with_a_reason_naming_what_is_wrong(
    message: Any, code: ErrorCode, fragment: str
) -> None:
    error = refusal(json.dumps(message))
    assert error.code == code
    assert fragment in error.reason, error.reason
    assert "\n" not in error.reason


def test_a_position_with_no_pair_left_cannot_start_a_game() -> None:
    position = deal(4)
    while position.legal_moves():
        position.push(position.legal_moves()[0])
    error = refusal(json.dumps({"type": "create", "deal": {"position": format_position(position)}, "first": "joiner"}))
    assert error.code == ErrorCode.BAD_MESSAGE and "no pair of free twins is left" in error.reason


def test_an_invalid_position_is_refused_with_the_line_and_reason() -> None:
    text = _endgame_text().replace("to-move: ", "to-move: 3\n# ", 1)
    error = refusal(json.dumps({"type": "create", "deal": {"position": text}, "first": "creator"}))
    assert error.reason.startswith('"deal.position": line 1: to-move must be 1 or 2')


@pytest.mark.parametrize(
    ("data", "code", "fragment"),
    [
        ("", ErrorCode.BAD_JSON, "not JSON"),
        ("{", ErrorCode.BAD_JSON, "not JSON"),
        (b"\xff\xfe{}", ErrorCode.BAD_JSON, "not UTF-8 text (byte 0)"),
        (b'{"type": "ping", "t": "\xc3"}', ErrorCode.BAD_JSON, "not UTF-8"),
        ('{"type": "ping", "t": NaN}', ErrorCode.BAD_JSON, "NaN is not a JSON number"),
        ('{"type": "ping", "t": -Infinity}', ErrorCode.BAD_JSON, "-Infinity is not a JSON number"),
        ('{"type": "ping", "t": 1e999}', ErrorCode.BAD_MESSAGE, '"t": expected a number'),
        ('{"type": "ping", "type": "ping"}', ErrorCode.BAD_JSON, 'the key "type" appears twice'),
        ('{"type": "ping", "t": {"a": 1, "a": 2}}', ErrorCode.BAD_JSON, 'the key "a" appears twice'),
        ("[" * 5000 + "]" * 5000, ErrorCode.TOO_BIG, "at most 4096 bytes, got 10000"),
        ("[" * 2000 + "]" * 2000, ErrorCode.BAD_JSON, "nested too deeply"),
        ('{"type": "ping", "t": ' + "[" * 1500 + "]" * 1500 + "}", ErrorCode.BAD_JSON, "nested too deeply"),
        ('{"type": "ping", "t": ' + "9" * 4000 + "}", ErrorCode.BAD_MESSAGE, "got a number of 4000 digits"),
        (
            '{"type": "create", "deal": {"number": ' + "9" * 4000 + '}, "first": "creator"}',
            ErrorCode.BAD_MESSAGE,
            "a number of 4000 digits",
        ),
        ('{"type": "ping", "t": 1' + "0" * 4090 + "}", ErrorCode.TOO_BIG, "got 4114"),
        ("é" * 2100, ErrorCode.TOO_BIG, "got 4200"),
        (b" " * (MAX_MESSAGE_BYTES + 1), ErrorCode.TOO_BIG, "got 4097"),
        (" " * 10_000_000, ErrorCode.TOO_BIG, "got 10000000"),
    ],
)
def test_unreadable_frames_are_refused(data: str | bytes, code: ErrorCode, fragment: str) -> None:
    error = refusal(data)
    assert error.code == code
    assert fragment in error.reason, error.reason
    assert (error.ref is None) == (code in (ErrorCode.BAD_JSON, ErrorCode.TOO_BIG))
    assert "\n" not in error.reason and len(error.reason) <= 400


def test_a_frame_of_exactly_the_limit_is_read() -> None:
    head = '{"type": "ping", "t": 1}'
    frame = head + " " * (MAX_MESSAGE_BYTES - len(head))
    assert parse_client_message(frame) == Ping(1)
    assert parse_client_message(frame.encode()) == Ping(1)


def test_the_ref_of_a_refused_message_names_it_as_far_as_it_reads() -> None:
    assert refusal(json.dumps({"type": "move", "move": 5, "id": "m9"})).ref == {"type": "move", "id": "m9"}
    assert refusal(json.dumps({"type": "move", "move": "c1-c9", "id": 9})).ref == {"type": "move"}
    assert refusal(json.dumps({"type": "takeback_answer"})).ref == {"type": "takeback_answer"}
    assert refusal(json.dumps({"type": "nope"})).ref is None


# -- fuzzing: ProtocolError or a message, nothing else -------------------------------------------

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=20),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
FIELD_NAMES = (
    "type",
    "version",
    "name",
    "deal",
    "first",
    "move_seconds",
    "lose_on_time",
    "code",
    "token",
    "move",
    "id",
    "accept",
    "t",
    "number",
    "random",
    "position",
    "extra",
)
near_values = st.one_of(
    json_values,
    st.sampled_from(["c1-c9", "a9 f1", "a1", "creator", "joiner", "random", "4KQ7-M2XD", TOKEN, "", "m1", True]),
    st.dictionaries(st.sampled_from(["number", "random", "position"]), json_values, max_size=2),
    st.integers(-10, 100_000),
)
near_messages = st.fixed_dictionaries(
    {"type": st.sampled_from([cls.TYPE for cls in MESSAGE_CLASSES])},
    optional={name: near_values for name in FIELD_NAMES if name != "type"},
)


def check_outcome(data: str | bytes) -> None:
    try:
        message = parse_client_message(data)
    except ProtocolError as error:
        assert isinstance(error.code, ErrorCode)
        assert error.reason and "\n" not in error.reason and len(error.reason) <= 400
        json.loads(server_frame(error_for(error)))
    else:
        assert isinstance(message, MESSAGE_CLASSES)


@SETTINGS
@given(st.binary(max_size=300))
def test_any_bytes_give_a_message_or_a_protocol_error(data: bytes) -> None:
    check_outcome(data)


@SETTINGS
@given(st.text(max_size=300))
def test_any_text_gives_a_message_or_a_protocol_error(data: str) -> None:
    check_outcome(data)


@SETTINGS
@given(json_values)
def test_any_json_value_gives_a_message_or_a_protocol_error(value: Any) -> None:
    check_outcome(json.dumps(value))


@SETTINGS
@given(near_messages)
def test_messages_close_to_valid_ones_give_a_message_or_a_protocol_error(value: dict[str, Any]) -> None:
    check_outcome(json.dumps(value))
    check_outcome(json.dumps(value, ensure_ascii=False).encode("utf-8"))


@SETTINGS
@given(st.integers(min_value=1, max_value=3000), st.sampled_from(["[", '{"a":', '{"type": "ping", "t": [']))
def test_deep_nesting_gives_a_protocol_error(depth: int, opener: str) -> None:
    closer = {"[": "]", '{"a":': "}", '{"type": "ping", "t": [': "]"}[opener]
    check_outcome(opener * depth + "1" + closer * depth)


# -- server messages ------------------------------------------------------------------------------


def test_server_messages_encode_as_compact_json_that_reads_back() -> None:
    sent = [
        Welcome(),
        Created("g1", "4KQ7M2XD", "9T3PWQ0R", TOKEN, 2, "4KQ7M2XD" + "Q" * 24, "9T3PWQ0R" + "R" * 24),
        Joined("g1", TOKEN, 1),
        Ack("m1", 3, "c1-c9"),
        Error(ErrorCode.ILLEGAL_MOVE, "c1-c9: c1 is empty\nsecond line", {"move": "c1-c9"}, ErrorRef("move", "m1")),
        Pong(1.5),
        Record("g1", "player1: Ann\n"),
        RematchStarted("g1", "g2", 2, "M0RX4T2Q"),
    ]
    for message in sent:
        text = server_frame(message)
        assert json.loads(text) == server_json(message)
        assert len(text) < len(json.dumps(server_json(message)))  # compact: no spaces after separators
        assert len(text.encode()) < MAX_MESSAGE_BYTES
    assert server_json(Welcome()) == {"type": "welcome", "version": 1, "max_message_bytes": 4096, "share_url": None}
    assert server_json(error_for(ProtocolError(ErrorCode.BAD_JSON, "a\nb")))["reason"] == "a\\nb"
    assert messages.encode({"name": "Zoë"}) == '{"name":"Zoë"}'


def test_encode_refuses_nan_rather_than_send_what_json_cannot_read() -> None:
    with pytest.raises(ValueError):
        server_frame(Pong(float("nan")))


def test_every_error_code_and_message_type_is_documented() -> None:
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    error_table = text[text.index("| code | meaning |") :].split("\n\n")[0]
    table = set(re.findall(r"^\| `([a-z_]+)` \|", error_table, re.MULTILINE))
    assert table == {code.value for code in ErrorCode}
    for cls in MESSAGE_CLASSES:
        assert f'"type": "{cls.TYPE}"' in text, cls.TYPE
    for builder in ("welcome", "created", "joined", "state", "ack", "moved", "rematch", "record", "pong", "error"):
        assert f'{{"type": "{builder}"' in text, builder
    assert f"version {messages.PROTOCOL_VERSION}" in text.splitlines()[0]
    assert f"{MAX_MESSAGE_BYTES} bytes" in text


# -- the clients' side: typed messages written as the server reads them --------------------------

_names = st.one_of(
    st.none(),
    st.text(alphabet="AnnBob Zoë-'", min_size=1, max_size=12)
    .map(str.strip)
    .filter(lambda name: name != "" and "  " not in name),
)
_codes = st.text(alphabet="0123456789ABCDEFGHJKMNPQRSTVWXYZ", min_size=8, max_size=8)
_deals = st.one_of(
    st.integers(0, 2**63 - 1).map(NumberedDeal), st.just(RandomDeal()), st.just(GivenPosition(_endgame_text()))
)
typed_messages = st.one_of(
    st.builds(Hello, version=st.just(1), name=_names),
    st.builds(
        Create,
        deal=_deals,
        first=st.sampled_from(["creator", "joiner", "random"]),
        move_seconds=st.one_of(st.none(), st.integers(5, 86_400)),
        lose_on_time=st.just(False),
        name=_names,
    ),
    st.builds(
        Create, deal=_deals, first=st.just("creator"), move_seconds=st.integers(5, 86_400), lose_on_time=st.just(True)
    ),
    st.builds(Join, code=_codes, name=_names),
    st.builds(Resume, token=st.just(TOKEN)),
    st.builds(Watch, code=_codes),
    st.builds(
        PlayMove,
        move=st.sampled_from(["a1-a9", "c1-l9", "b2-b3"]),
        id=st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=64),
    ),
    st.builds(AnswerTakeback, accept=st.booleans()),
    st.builds(NameSeat, name=st.sampled_from(["Bob", "Ann Lee", "W" * 40])),
    st.builds(Ping, t=st.one_of(st.none(), st.integers(-(2**53), 2**53))),
    st.sampled_from(
        [Resign(), Abort(), OfferRematch(), AcceptRematch(), DeclineRematch(), RequestTakeback(), GetRecord()]
    ),
)


@SETTINGS
@given(typed_messages)
def test_every_typed_message_a_client_writes_reads_back_as_itself(message: ClientMessage) -> None:
    frame = client_frame(message)
    assert parse_client_message(frame) == message
    assert len(frame.encode()) <= MAX_MESSAGE_BYTES


def test_the_writer_and_the_tests_know_every_client_message() -> None:
    assert set(typing.get_args(ClientMessage)) == set(MESSAGE_CLASSES)


@pytest.mark.parametrize(
    "name",
    [
        "Solver (perfect)",
        "solver",
        "SOLVER (club)",
        "S0lver (expert)",
        "\u0405olver",
        "S o l v e r",
        "Ｓｏｌｖｅｒ",
        "SoIver",
    ],
)
def test_a_name_that_reads_as_the_solvers_is_refused_for_a_seat_and_dropped_from_a_hello(name: str) -> None:
    assert reads_as_solver(name)
    for message in (
        {"type": "create", "deal": {"random": True}, "first": "creator", "name": name},
        {"type": "join", "code": "ABCD-EFGH", "name": name},
        {"type": "name", "name": name},
        {"type": "solver_game", "level": "club", "deal": {"random": True}, "first": "creator", "name": name},
        {"type": "challenge", "deal": {"random": True}, "first": "creator", "name": name},
    ):
        with pytest.raises(ProtocolError) as refused:
            parse_client_message(json.dumps(message))
        assert refused.value.code == ErrorCode.BAD_MESSAGE and refused.value.params == {"why": "solver_name"}
        assert "reads as the solver's name" in str(refused.value)
    hello = parse_client_message(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "name": name}))
    assert isinstance(hello, Hello) and hello.name is None


@pytest.mark.parametrize("name", ["Solveig", "Sol", "Oliver", "Ann", "Resolver", "Sölver"])
def test_names_near_the_solvers_are_a_persons(name: str) -> None:
    assert not reads_as_solver(name)
    hello = parse_client_message(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "name": name}))
    assert isinstance(hello, Hello) and hello.name == name


def test_a_lobby_page_names_where_it_starts() -> None:
    page = parse_client_message(json.dumps({"type": "lobby_page", "start": 50}))
    assert page == PageLobby(50)
    for start in (-1, 100_001, "50", 1.5, True, None):
        with pytest.raises(ProtocolError) as refused:
            parse_client_message(json.dumps({"type": "lobby_page", "start": start}))
        assert refused.value.code == ErrorCode.BAD_MESSAGE and '"start"' in str(refused.value)
