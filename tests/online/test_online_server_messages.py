"""The server's messages both ways: every typed message the server writes reads back as itself on
the client's side, and any frame at all reads into a message or a ``ProtocolError``, never
another exception."""

from __future__ import annotations

import json
import typing
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battle.online.protocol.messages import ErrorCode, ProtocolError
from battle.online.protocol.server_messages import (
    END_REASONS,
    PRESENCES,
    STATUSES,
    Ack,
    Created,
    Elsewhere,
    Error,
    ErrorRef,
    GameResult,
    Joined,
    Moved,
    Offers,
    PlayerInfo,
    Pong,
    Record,
    RematchLink,
    RematchStarted,
    ServerMessage,
    State,
    Welcome,
)
from battle.online.protocol.server_reader import SERVER_READERS, parse_server_message
from battle.online.protocol.writer import server_frame, server_json
from tests.online.test_online_protocol import SETTINGS

texts = st.text(max_size=20)
seats = st.sampled_from([1, 2])
maybe_seats = st.one_of(st.none(), seats)
counts = st.integers(0, 10_000)
times = st.one_of(st.none(), st.floats(0, 2e9, allow_nan=False), st.integers(0, 2**40))
scores = st.tuples(counts, counts)
moves = st.sampled_from(["a1-a9", "c1-l9", "b2-b3"])
results = st.one_of(st.none(), st.builds(GameResult, maybe_seats, st.sampled_from(END_REASONS), scores))
params = st.dictionaries(
    st.sampled_from(["move", "seat", "reason", "ply", "seconds", "action", "expected"]),
    st.one_of(
        st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.floats(allow_nan=False, allow_infinity=False), texts
    ),
    max_size=4,
)

server_messages = st.one_of(
    st.builds(Welcome, st.one_of(st.none(), st.just("https://play.example.org")), st.just(1), st.just(4096)),
    st.builds(Created, texts, texts, texts, texts, seats, texts, texts),
    st.builds(Joined, texts, texts, seats),
    st.builds(
        State,
        game=texts,
        you=st.one_of(seats, st.just("spectator")),
        status=st.sampled_from(STATUSES),
        start=texts,
        deal=st.one_of(st.none(), st.integers(0, 2**63 - 1)),
        moves=st.lists(moves, max_size=5).map(tuple),
        to_move=maybe_seats,
        scores=scores,
        players=st.lists(
            st.builds(PlayerInfo, seats, st.one_of(st.none(), texts), st.sampled_from(PRESENCES), st.booleans()),
            max_size=2,
        ).map(tuple),
        result=results,
        move_seconds=st.one_of(st.none(), st.integers(5, 86_400)),
        lose_on_time=st.booleans(),
        deadline=times,
        seconds_left=times,
        overdue=st.booleans(),
        offers=st.builds(Offers, maybe_seats, maybe_seats),
        rematch=st.one_of(st.none(), st.builds(RematchLink, texts, texts)),
        invite=st.one_of(st.none(), texts),
        watch=st.one_of(st.none(), texts),
        invite_secret=st.one_of(st.none(), texts),
        watch_secret=st.one_of(st.none(), texts),
    ),
    st.builds(Ack, texts, counts, moves, st.booleans()),
    st.builds(
        Moved,
        game=texts,
        ply=counts,
        seat=seats,
        move=moves,
        points=counts,
        scores=scores,
        to_move=maybe_seats,
        status=st.sampled_from(STATUSES),
        result=results,
        deadline=times,
    ),
    st.builds(
        Error,
        st.sampled_from(list(ErrorCode)),
        st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FFF), max_size=40),
        params,
        st.one_of(st.none(), st.builds(ErrorRef, st.sampled_from(["move", "join"]), st.one_of(st.none(), texts))),
    ),
    st.builds(
        Pong, st.one_of(st.none(), st.integers(-(2**53), 2**53), st.floats(allow_nan=False, allow_infinity=False))
    ),
    st.builds(Record, texts, texts),
    st.builds(RematchStarted, texts, texts, st.one_of(seats, st.just("spectator")), texts),
    st.builds(Elsewhere, texts, texts),
)


@SETTINGS
@given(server_messages)
def test_every_message_the_server_writes_reads_back_as_itself(message: ServerMessage) -> None:
    frame = server_frame(message)
    assert parse_server_message(frame) == message
    assert parse_server_message(frame.encode()) == message


def test_the_reader_and_the_tests_know_every_server_message() -> None:
    classes = set(typing.get_args(ServerMessage))
    assert {cls.TYPE for cls in classes} == set(SERVER_READERS)


def test_a_newer_servers_extra_field_is_read_past() -> None:
    frame = json.loads(server_frame(Ack("m1", 3, "c1-c9")))
    assert parse_server_message(json.dumps({**frame, "later": [1, 2]})) == Ack("m1", 3, "c1-c9")


def check_outcome(data: str | bytes) -> None:
    try:
        message = parse_server_message(data)
    except ProtocolError as error:
        assert error.reason and "\n" not in error.reason
    else:
        assert isinstance(message, typing.get_args(ServerMessage))


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=10,
)


@SETTINGS
@given(st.one_of(st.binary(max_size=200), st.text(max_size=200)))
def test_any_frame_gives_a_message_or_a_protocol_error(data: str | bytes) -> None:
    check_outcome(data)


@SETTINGS
@given(server_messages, st.data())
def test_a_message_with_a_field_spoilt_gives_a_message_or_a_protocol_error(message: ServerMessage, data: Any) -> None:
    frame = server_json(message)
    name = data.draw(st.sampled_from(sorted(frame)))
    frame[name] = data.draw(json_values)
    check_outcome(json.dumps(frame))


@pytest.mark.parametrize(
    ("frame", "fragment"),
    [
        ('{"type": "ack", "id": "m1", "ply": "3", "move": "c1-c9"}', '"ply" is not a whole number'),
        ('{"type": "moved", "seat": 3}', '"game" is not a string'),
        ('{"type": "error", "code": "no_such_code", "reason": "x"}', '"code" is not an error code'),
        ('{"type": "tea"}', "unknown type"),
        ("[1, 2]", "not a JSON object"),
        ("{", "not JSON"),
    ],
)
def test_a_malformed_frame_is_refused_naming_the_field(frame: str, fragment: str) -> None:
    with pytest.raises(ProtocolError, match=fragment):
        parse_server_message(frame)


def test_a_state_lists_every_field_it_has() -> None:
    written = server_json(
        State(game="g", you=1, status="waiting", start="", deal=None, moves=(), to_move=None, scores=(0, 0), players=())
    )
    named = {item.name for item in fields(State)} | {"type", "ply"}
    assert set(written) == named
