"""Reading client frames: ``parse_client_message`` turns any frame a client sends into one of
``protocol``'s message dataclasses or raises ``ProtocolError(code, reason)``, and nothing else,
whatever the input (bytes that are not UTF-8, 4,000 nested lists, numbers of 4,000 digits,
NaN). It is strict: an unknown field is an error, so a misspelt ``"lose_ontime"`` is reported
instead of silently playing without the option the player asked for.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, TypeVar

from battle.online.protocol.codes import normalise_code
from battle.online.protocol.device_messages import DeviceRequest, device_readers
from battle.online.protocol.lobby_messages import LobbyRequest, lobby_readers
from battle.online.protocol.messages import (
    FIRST_CHOICES,
    MAX_MESSAGE_BYTES,
    MAX_MOVE_ID_LENGTH,
    MAX_MOVE_SECONDS,
    MAX_PING_NUMBER,
    MAX_TOKEN_LENGTH,
    MIN_MOVE_SECONDS,
    PROTOCOL_VERSION,
    Abort,
    AcceptRematch,
    AnswerTakeback,
    ClientMessage,
    Create,
    DealChoice,
    DeclineRematch,
    ErrorCode,
    GetRecord,
    GivenPosition,
    Hello,
    Join,
    JsonObject,
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
    in_english,
    is_move_id,
)
from battle.online.protocol.puzzle_messages import PuzzleRequest, puzzle_readers
from battle.online.protocol.solver_messages import SolverRequest
from battle.online.protocol.solver_reader import solver_readers
from battle.rules.board import move_name, parse_move
from battle.rules.errors import BattleError
from battle.rules.game import clean_name
from battle.rules.notation import format_position, parse_position
from battle.rules.wording import reads_as_solver

T = TypeVar("T")
"""What a notation parser makes of a field: a Position or a Move."""

_TOKEN_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class _Unreadable(ValueError):
    """JSON that ``json`` accepts but the protocol does not: NaN, Infinity, a repeated key."""


def parse_client_message(
    data: str | bytes,
) -> ClientMessage | SolverRequest | LobbyRequest | DeviceRequest | PuzzleRequest:
    """Read one client frame; raises ``ProtocolError`` (and nothing else) if it is not a valid message."""
    value = read_json(_decode(data))
    if not isinstance(value, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f'expected a JSON object with a "type", got {_describe(value)}')
    kind = value.get("type")
    if kind is None:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, 'missing "type"')
    if not isinstance(kind, str):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f'"type": expected a string, got {_describe(kind)}')
    reader = _READERS.get(kind)
    if reader is None:
        known = ", ".join(_READERS)
        raise ProtocolError(ErrorCode.UNKNOWN_TYPE, f'"type": unknown message type {_describe(kind)} (known: {known})')
    fields = _Fields(kind, value)
    try:
        message = reader(fields)
        fields.refuse_unknown()
    except ProtocolError as error:
        error.ref = fields.ref()
        raise
    return message


def read_json(text: str) -> object:
    """``text``'s JSON value as the protocol reads a stranger's: no NaN or Infinity, no key twice in an
    object, no nesting deeper than Python's parser follows; ``ProtocolError`` (``bad_json``) says in one
    line what is wrong. Also what the server reads of what another group wrote to the shared database."""
    try:
        return _DECODER.decode(text)
    except _Unreadable as error:
        raise ProtocolError(ErrorCode.BAD_JSON, str(error)) from None
    except RecursionError:
        raise ProtocolError(ErrorCode.BAD_JSON, "not JSON: nested too deeply") from None
    except ValueError as error:  # json.JSONDecodeError, and int() of too many digits
        raise ProtocolError(ErrorCode.BAD_JSON, f"not JSON: {error}") from None


def _decode(data: str | bytes) -> str:
    if isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
        if len(raw) > MAX_MESSAGE_BYTES:
            raise ProtocolError(ErrorCode.TOO_BIG, f"a message is at most {MAX_MESSAGE_BYTES} bytes, got {len(raw)}")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ProtocolError(ErrorCode.BAD_JSON, f"not UTF-8 text (byte {error.start})") from None
    if not isinstance(data, str):
        raise ProtocolError(ErrorCode.BAD_JSON, f"expected text, got {type(data).__name__}")
    # a character is 1 to 4 bytes: the cheap bound first, so a huge text is never encoded
    size = len(data) if len(data) > MAX_MESSAGE_BYTES else len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(ErrorCode.TOO_BIG, f"a message is at most {MAX_MESSAGE_BYTES} bytes, got {size}")
    return data


def _refuse_constant(name: str) -> object:
    raise _Unreadable(f"not JSON: {name} is not a JSON number")


def _object_without_repeats(pairs: list[tuple[str, Any]]) -> JsonObject:
    result = dict(pairs)
    if len(result) < len(pairs):  # a repeated key: name the first
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise _Unreadable(f"not JSON the protocol accepts: the key {_describe(key)} appears twice in an object")
            seen.add(key)
    return result


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, object_pairs_hook=_object_without_repeats)
"""Built once: ``json.loads`` with hooks builds a decoder a call, a fifth of a ``move`` frame's reading."""


def _describe(value: object) -> str:
    """A value as an error message shows it: short, on one line."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        digits = len(str(abs(value)))
        return str(value) if digits <= 20 else f"a number of {digits} digits"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        shown = json.dumps(value[:40])
        return shown[:-1] + '..."' if len(value) > 40 else shown
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


class _Fields:
    """The fields of one message, read one by one; every reason names the field."""

    def __init__(self, kind: str, value: JsonObject) -> None:
        self.kind = kind
        self.value = value
        self.allowed: set[str] = {"type"}

    def ref(self) -> JsonObject:
        ref: JsonObject = {"type": self.kind}
        move_id = self.value.get("id")
        if self.kind == PlayMove.TYPE and is_move_id(move_id):
            ref["id"] = move_id
        return ref

    def get(self, name: str, required: bool) -> Any:
        self.allowed.add(name)
        if name not in self.value:
            if required:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, f'missing "{name}" in a "{self.kind}" message')
            return None
        return self.value[name]

    def refuse_unknown(self) -> None:
        unknown = sorted(set(self.value) - self.allowed)
        if unknown:
            allowed = ", ".join(sorted(self.allowed - {"type"})) or "none"
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f'unknown field {_describe(unknown[0])} in a "{self.kind}" message (its fields: {allowed})',
            )

    def fail(self, name: str, expected: str, value: object) -> ProtocolError:
        return ProtocolError(ErrorCode.BAD_MESSAGE, f'"{name}": expected {expected}, got {_describe(value)}')

    def boolean(self, name: str, required: bool = False, default: bool = False) -> bool:
        value = self.get(name, required)
        if value is None and not required:
            return default
        if not isinstance(value, bool):
            raise self.fail(name, "true or false", value)
        return value

    def name(self, *, greeting: bool = False) -> str | None:
        """The ``name`` field as a player's name; one that reads as the solver's is refused (in a
        ``hello``, whose name is only a default for later seats, it is dropped instead, so a name kept
        by a page never stops its line)."""
        value = self.get("name", False)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail("name", "a player's name as a string", value)
        name = clean_name(value, "") or None
        if name is not None and reads_as_solver(name):
            if greeting:
                return None
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f'"name": {name!r} reads as the solver\'s name, which no person may take; choose another',
                params={"why": "solver_name"},
            )
        return name

    def code(self) -> str:
        value = self.get("code", True)
        if not isinstance(value, str):
            raise self.fail("code", 'a code as a string like "ABCD-EFGH"', value)
        try:
            return normalise_code(value)
        except ValueError as error:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f'"code": {error}') from None


def _is_whole_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _read_hello(fields: _Fields) -> Hello:
    version = fields.get("version", True)
    if not _is_whole_number(version):
        raise fields.fail("version", f"the protocol version as a whole number ({PROTOCOL_VERSION})", version)
    if version != PROTOCOL_VERSION:
        raise ProtocolError(
            ErrorCode.VERSION,
            f"this server speaks protocol version {PROTOCOL_VERSION}, not {_describe(version)}",
        )
    return Hello(version=version, name=fields.name(greeting=True))


def _read_deal(fields: _Fields) -> DealChoice:
    value = fields.get("deal", True)
    expected = '{"number": N}, {"random": true} or {"position": ".mbp text"}'
    if not isinstance(value, dict) or len(value) != 1:
        raise fields.fail("deal", f"one of {expected}", value)
    ((kind, detail),) = value.items()
    if kind == "number":
        if not _is_whole_number(detail) or not 0 <= detail <= 2**63 - 1:
            raise fields.fail("deal.number", f"a deal number, a whole number from 0 to {2**63 - 1}", detail)
        return NumberedDeal(detail)
    if kind == "random":
        if detail is not True:
            raise fields.fail("deal.random", "true", detail)
        return RandomDeal()
    if kind == "position":
        if not isinstance(detail, str):
            raise fields.fail("deal.position", "the text of a .mbp position", detail)
        position = _parsed("deal.position", parse_position, detail)
        if position.is_over():
            raise ProtocolError(ErrorCode.BAD_MESSAGE, '"deal.position": no pair of free twins is left to play')
        return GivenPosition(format_position(position))
    raise fields.fail("deal", f"one of {expected}", value)


def _read_create(fields: _Fields) -> Create:
    deal = _read_deal(fields)
    first = fields.get("first", True)
    if first not in FIRST_CHOICES:
        raise fields.fail("first", '"creator", "joiner" or "random"', first)
    seconds = fields.get("move_seconds", False)
    in_range = _is_whole_number(seconds) and MIN_MOVE_SECONDS <= seconds <= MAX_MOVE_SECONDS
    if seconds is not None and not in_range:
        expected = f"null or whole seconds from {MIN_MOVE_SECONDS} to {MAX_MOVE_SECONDS}"
        raise fields.fail("move_seconds", expected, seconds)
    lose_on_time = fields.boolean("lose_on_time")
    if lose_on_time and seconds is None:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, '"lose_on_time": true needs a "move_seconds" limit')
    return Create(deal=deal, first=first, move_seconds=seconds, lose_on_time=lose_on_time, name=fields.name())


def _read_join(fields: _Fields) -> Join:
    return Join(code=fields.code(), name=fields.name())


def _read_resume(fields: _Fields) -> Resume:
    token = fields.get("token", True)
    if not isinstance(token, str):
        raise fields.fail("token", "the seat token as a string", token)
    if not 1 <= len(token) <= MAX_TOKEN_LENGTH or not _TOKEN_CHARACTERS.issuperset(token):
        raise ProtocolError(ErrorCode.BAD_TOKEN, '"token": not a seat token (up to 128 letters, digits, - and _)')
    return Resume(token=token)


def _read_watch(fields: _Fields) -> Watch:
    return Watch(code=fields.code())


def _parsed(field: str, parse: Callable[[str], T], text: str) -> T:
    """``text`` read by the notation's own ``parse``, whose one-line message names what is wrong,
    prefixed with the field it came in."""
    try:
        return parse(text)
    except BattleError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f'"{field}": {in_english(error)}') from None


def _read_move(fields: _Fields) -> PlayMove:
    move_id = fields.get("id", True)
    if not is_move_id(move_id):
        raise fields.fail("id", f"a move id of 1 to {MAX_MOVE_ID_LENGTH} printable ASCII characters", move_id)
    text = fields.get("move", True)
    if not isinstance(text, str):
        raise fields.fail("move", 'a string like "c1-c9"', text)
    move = _parsed("move", parse_move, text)
    return PlayMove(move=move_name(move), id=move_id)


def _read_answer(fields: _Fields) -> AnswerTakeback:
    return AnswerTakeback(accept=fields.boolean("accept", required=True))


def _read_name(fields: _Fields) -> NameSeat:
    fields.get("name", True)
    name = fields.name()
    if name is None:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, '"name": a name needs a visible character')
    return NameSeat(name=name)


def _read_ping(fields: _Fields) -> Ping:
    value = fields.get("t", False)
    if value is None:
        return Ping()
    if _is_whole_number(value) and abs(value) <= MAX_PING_NUMBER:
        return Ping(t=value)
    if isinstance(value, float) and math.isfinite(value):
        return Ping(t=value)
    raise fields.fail("t", "a number (at most 2^53 in size) to echo", value)


_READERS: dict[
    str, Callable[[_Fields], ClientMessage | SolverRequest | LobbyRequest | DeviceRequest | PuzzleRequest]
] = {
    Hello.TYPE: _read_hello,
    Create.TYPE: _read_create,
    Join.TYPE: _read_join,
    Resume.TYPE: _read_resume,
    Watch.TYPE: _read_watch,
    PlayMove.TYPE: _read_move,
    Resign.TYPE: lambda fields: Resign(),
    Abort.TYPE: lambda fields: Abort(),
    OfferRematch.TYPE: lambda fields: OfferRematch(),
    AcceptRematch.TYPE: lambda fields: AcceptRematch(),
    DeclineRematch.TYPE: lambda fields: DeclineRematch(),
    RequestTakeback.TYPE: lambda fields: RequestTakeback(),
    AnswerTakeback.TYPE: _read_answer,
    NameSeat.TYPE: _read_name,
    Ping.TYPE: _read_ping,
    GetRecord.TYPE: lambda fields: GetRecord(),
    **solver_readers(_read_deal),
    **lobby_readers(_read_create),
    **device_readers(),
    **puzzle_readers(),
}
