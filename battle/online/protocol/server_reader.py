"""Reading server frames on the client's side: ``parse_server_message`` turns any frame a server
sends into one of ``server_messages``' dataclasses or raises ``ProtocolError`` (code
``bad_json`` or ``bad_message``), and nothing else, whatever the input.

It is strict about the fields a client uses (a seat is 1 or 2, scores are two whole numbers,
a move reads in the notation) and lenient about fields it does not know: a newer server may
add one without breaking an older client. ``SERVER_READERS`` maps each ``type`` to its
reader; a new message type registers its reader there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from battle.online.protocol.messages import ErrorCode, JsonObject, ParamValue, ProtocolError
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
    Viewer,
    Welcome,
)

C = TypeVar("C", bound=str)


def parse_server_message(data: str | bytes) -> ServerMessage:
    """Read one server frame; raises ``ProtocolError`` (and nothing else) if it is not a valid message."""
    try:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
        value = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError, TypeError):
        raise ProtocolError(ErrorCode.BAD_JSON, "a server frame that is not JSON text") from None
    if not isinstance(value, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "a server frame that is not a JSON object")
    kind = value.get("type")
    reader = SERVER_READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f"a server message of unknown type {str(kind)[:40]!r}")
    return reader(_Object(value, str(kind)))


class _Object:
    """The fields of one JSON object; every failure names the message and the field."""

    def __init__(self, value: JsonObject, where: str) -> None:
        self.value = value
        self.where = where

    def fail(self, name: str, expected: str) -> ProtocolError:
        return ProtocolError(ErrorCode.BAD_MESSAGE, f'"{self.where}" message: "{name}" is not {expected}')

    def raw(self, name: str) -> Any:
        return self.value.get(name)

    def text(self, name: str) -> str:
        value = self.value.get(name)
        if not isinstance(value, str):
            raise self.fail(name, "a string")
        return value

    def optional_text(self, name: str) -> str | None:
        return None if self.value.get(name) is None else self.text(name)

    def whole(self, name: str) -> int:
        value = self.value.get(name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(name, "a whole number")
        return value

    def optional_whole(self, name: str) -> int | None:
        return None if self.value.get(name) is None else self.whole(name)

    def number(self, name: str) -> float | None:
        value = self.value.get(name)
        if value is None:
            return None
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise self.fail(name, "a number")
        return value

    def flag(self, name: str) -> bool:
        value = self.value.get(name, False)
        if not isinstance(value, bool):
            raise self.fail(name, "true or false")
        return value

    def seat(self, name: str) -> int:
        value = self.value.get(name)
        if value not in (1, 2) or isinstance(value, bool):
            raise self.fail(name, "a seat, 1 or 2")
        return int(value)

    def optional_seat(self, name: str) -> int | None:
        return None if self.value.get(name) is None else self.seat(name)

    def viewer(self, name: str) -> Viewer:
        return "spectator" if self.value.get(name) == "spectator" else self.seat(name)

    def choice(self, name: str, allowed: Sequence[C]) -> C:
        value = self.value.get(name)
        for option in allowed:
            if value == option:
                return option
        raise self.fail(name, "one of " + ", ".join(allowed))

    def scores(self, name: str) -> tuple[int, int]:
        value = self.value.get(name)
        if (
            not isinstance(value, list)
            or len(value) != 2
            or any(not isinstance(score, int) or isinstance(score, bool) for score in value)
        ):
            raise self.fail(name, "two whole numbers")
        return (value[0], value[1])

    def inner(self, name: str) -> _Object | None:
        value = self.value.get(name)
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self.fail(name, "an object")
        return _Object(value, f"{self.where}.{name}")

    def items(self, name: str) -> list[_Object]:
        value = self.value.get(name)
        if not isinstance(value, list) or any(not isinstance(item, dict) for item in value):
            raise self.fail(name, "a list of objects")
        return [_Object(item, f"{self.where}.{name}") for item in value]


def _result(fields: _Object | None) -> GameResult | None:
    if fields is None:
        return None
    return GameResult(fields.optional_seat("winner"), fields.choice("reason", END_REASONS), fields.scores("scores"))


def _read_welcome(fields: _Object) -> Welcome:
    return Welcome(fields.optional_text("share_url"), fields.whole("version"), fields.whole("max_message_bytes"))


def _read_created(fields: _Object) -> Created:
    return Created(
        game=fields.text("game"),
        invite=fields.text("invite"),
        watch=fields.text("watch"),
        token=fields.text("token"),
        seat=fields.seat("seat"),
        invite_secret=fields.text("invite_secret"),
        watch_secret=fields.text("watch_secret"),
    )


def _read_joined(fields: _Object) -> Joined:
    return Joined(fields.text("game"), fields.text("token"), fields.seat("seat"))


def _read_player(fields: _Object) -> PlayerInfo:
    return PlayerInfo(
        fields.seat("seat"), fields.optional_text("name"), fields.choice("presence", PRESENCES), fields.flag("creator")
    )


def _read_state(fields: _Object) -> State:
    moves = fields.raw("moves")
    if not isinstance(moves, list) or any(not isinstance(move, str) for move in moves):
        raise fields.fail("moves", "a list of moves")
    offers = fields.inner("offers")
    rematch = fields.inner("rematch")
    return State(
        game=fields.text("game"),
        you=fields.viewer("you"),
        status=fields.choice("status", STATUSES),
        start=fields.text("start"),
        deal=fields.optional_whole("deal"),
        moves=tuple(moves),
        to_move=fields.optional_seat("to_move"),
        scores=fields.scores("scores"),
        players=tuple(_read_player(item) for item in fields.items("players")),
        result=_result(fields.inner("result")),
        move_seconds=fields.optional_whole("move_seconds"),
        lose_on_time=fields.flag("lose_on_time"),
        deadline=fields.number("deadline"),
        seconds_left=fields.number("seconds_left"),
        overdue=fields.flag("overdue"),
        offers=_offers(offers),
        rematch=None if rematch is None else RematchLink(rematch.text("game"), rematch.text("watch")),
        invite=fields.optional_text("invite"),
        watch=fields.optional_text("watch"),
        invite_secret=fields.optional_text("invite_secret"),
        watch_secret=fields.optional_text("watch_secret"),
    )


def _offers(fields: _Object | None) -> Offers:
    if fields is None:
        return Offers()
    return Offers(fields.optional_seat("rematch"), fields.optional_seat("takeback"))


def _read_ack(fields: _Object) -> Ack:
    return Ack(fields.text("id"), fields.whole("ply"), fields.text("move"), fields.flag("taken_back"))


def _read_moved(fields: _Object) -> Moved:
    return Moved(
        game=fields.text("game"),
        ply=fields.whole("ply"),
        seat=fields.seat("seat"),
        move=fields.text("move"),
        points=fields.whole("points"),
        scores=fields.scores("scores"),
        to_move=fields.optional_seat("to_move"),
        status=fields.choice("status", STATUSES),
        result=_result(fields.inner("result")),
        deadline=fields.number("deadline"),
    )


def _read_error(fields: _Object) -> Error:
    code = fields.text("code")
    try:
        known = ErrorCode(code)
    except ValueError:
        raise fields.fail("code", "an error code of protocol version 1") from None
    params: dict[str, ParamValue] = {}
    given = fields.raw("params")
    if given is not None:
        if not isinstance(given, dict):
            raise fields.fail("params", "an object")
        for key, value in given.items():
            if value is not None and not isinstance(value, (str, int, float, bool)):
                raise fields.fail(f"params.{key}", "a string, a number, true, false or null")
            params[key] = value
    ref = fields.inner("ref")
    return Error(
        known,
        fields.text("reason"),
        params,
        None if ref is None else ErrorRef(ref.text("type"), ref.optional_text("id")),
    )


def _read_pong(fields: _Object) -> Pong:
    return Pong(fields.number("t"))


def _read_record(fields: _Object) -> Record:
    return Record(fields.text("game"), fields.text("mbg"))


def _read_rematch(fields: _Object) -> RematchStarted:
    return RematchStarted(fields.text("from"), fields.text("game"), fields.viewer("you"), fields.text("watch"))


def _read_elsewhere(fields: _Object) -> Elsewhere:
    return Elsewhere(fields.text("group"), fields.text("request"))


SERVER_READERS: dict[str, Callable[[_Object], ServerMessage]] = {
    Welcome.TYPE: _read_welcome,
    Created.TYPE: _read_created,
    Joined.TYPE: _read_joined,
    State.TYPE: _read_state,
    Ack.TYPE: _read_ack,
    Moved.TYPE: _read_moved,
    Error.TYPE: _read_error,
    Pong.TYPE: _read_pong,
    Record.TYPE: _read_record,
    RematchStarted.TYPE: _read_rematch,
    Elsewhere.TYPE: _read_elsewhere,
}
"""Each server message type's reader."""
