"""The online protocol, version 1: client messages read into typed values, server messages built.

Every message is one JSON object in one WebSocket text frame, with a ``"type"``; the full
contract, with an example of each message, is ``docs/protocol.md``. This module is that
contract in code:

- ``parse_client_message`` turns any frame a client sends into one of the frozen
  dataclasses below or raises ``ProtocolError(code, reason)``, and nothing else, whatever
  the input (bytes that are not UTF-8, 4,000 nested lists, numbers of 4,000 digits, NaN).
  It is strict: an unknown field is an error, so a misspelt ``"lose_ontime"`` is reported
  instead of silently playing without the option the player asked for.
- The builders (``welcome``, ``created``, ``state``, ``ack``, ...) return the dicts the
  server sends; ``encode`` turns one into the frame's text.

A connection acts on one game at a time: ``create``, ``join``, ``resume`` and ``watch``
choose it, and every later message (``move``, ``resign``, ...) is about that game, so those
carry no game id.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Literal

from battle.online.codes import normalise_code
from battle.rules.board import move_name, parse_move
from battle.rules.errors import BattleError, one_line
from battle.rules.game import clean_name
from battle.rules.notation import format_position, parse_position

PROTOCOL_VERSION = 1
"""The major version: a server refuses a ``hello`` of any other version (error ``version``)."""
MAX_MESSAGE_BYTES = 4096
"""The largest client frame, in UTF-8 bytes. The biggest real message, a ``create`` with a full
position, is about 400 bytes; the cap also bounds the JSON nesting and the digits of a number."""
MIN_MOVE_SECONDS = 5
"""The shortest per-move time limit: under 5 s a round trip and a click do not fit reliably."""
MAX_MOVE_SECONDS = 86_400
"""The longest per-move time limit, a day: longer is correspondence play, which has no limit."""
MAX_MOVE_ID_LENGTH = 64
MAX_TOKEN_LENGTH = 128
MAX_PING_NUMBER = 2**53
"""``ping``'s ``t`` is echoed; beyond 2^53 a JavaScript client could not read it back exactly."""

FIRST_CHOICES = ("creator", "joiner", "random")
_TOKEN_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

First = Literal["creator", "joiner", "random"]
JsonObject = dict[str, Any]


class ErrorCode(str, Enum):
    """Why a server refuses a message; the ``code`` of an ``error`` message (see docs/protocol.md)."""

    BAD_JSON = "bad_json"
    TOO_BIG = "too_big"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    VERSION = "version"
    HELLO_FIRST = "hello_first"
    RATE_LIMITED = "rate_limited"
    BUSY = "busy"
    NOT_FOUND = "not_found"
    BAD_TOKEN = "bad_token"
    FULL = "full"
    NO_GAME = "no_game"
    NOT_A_PLAYER = "not_a_player"
    NOT_STARTED = "not_started"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_MOVE = "illegal_move"
    ID_REUSED = "id_reused"
    OUT_OF_TIME = "out_of_time"
    GAME_OVER = "game_over"
    NOT_ALLOWED = "not_allowed"
    NO_OFFER = "no_offer"
    INTERNAL = "internal"


class ProtocolError(Exception):
    """A message the server refuses: a code for programs, a one-line reason for people.

    ``ref`` names the refused message (``{"type": "move", "id": "m7"}``) as far as it could be
    read, so a client can tell which of its messages failed.
    """

    def __init__(self, code: ErrorCode, reason: str, ref: JsonObject | None = None) -> None:
        super().__init__(f"{code.value}: {reason}")
        self.code: ErrorCode = code
        self.reason: str = one_line(reason)
        self.ref: JsonObject | None = ref


# -- client messages ---------------------------------------------------------------------


@dataclass(frozen=True)
class NumberedDeal:
    """Start from deal ``number`` (the rules model's numbered deals, 0 to 2^63 - 1)."""

    number: int


@dataclass(frozen=True)
class RandomDeal:
    """Start from a numbered deal the server picks."""


@dataclass(frozen=True)
class GivenPosition:
    """Start from a composed position; ``text`` is already checked and in canonical ``.mbp`` form."""

    text: str


DealChoice = NumberedDeal | RandomDeal | GivenPosition


@dataclass(frozen=True)
class Hello:
    """The first message: the protocol version the client speaks, and a default name."""

    TYPE: ClassVar[str] = "hello"
    version: int
    name: str | None = None


@dataclass(frozen=True)
class Create:
    """Start a new game and take one of its seats."""

    TYPE: ClassVar[str] = "create"
    deal: DealChoice
    first: First
    move_seconds: int | None = None
    lose_on_time: bool = False
    name: str | None = None


@dataclass(frozen=True)
class Join:
    """Take the open seat of the game an invite code names."""

    TYPE: ClassVar[str] = "join"
    code: str
    """Canonical: 8 characters of the code alphabet."""
    name: str | None = None


@dataclass(frozen=True)
class Resume:
    """Come back to a seat with its token."""

    TYPE: ClassVar[str] = "resume"
    token: str


@dataclass(frozen=True)
class Watch:
    """Follow the game a watch code names, without a seat."""

    TYPE: ClassVar[str] = "watch"
    code: str


@dataclass(frozen=True)
class PlayMove:
    """Play a move; ``id`` makes a resend harmless."""

    TYPE: ClassVar[str] = "move"
    move: str
    """In canonical notation (``c1-c9``: board order, a hyphen), whatever order the client sent."""
    id: str


@dataclass(frozen=True)
class Resign:
    """Give up the game."""

    TYPE: ClassVar[str] = "resign"


@dataclass(frozen=True)
class OfferRematch:
    """Offer a rematch of a finished game."""

    TYPE: ClassVar[str] = "rematch_offer"


@dataclass(frozen=True)
class AcceptRematch:
    """Accept the opponent's rematch offer."""

    TYPE: ClassVar[str] = "rematch_accept"


@dataclass(frozen=True)
class DeclineRematch:
    """Turn down the opponent's rematch offer (the offerer is told; either may offer again)."""

    TYPE: ClassVar[str] = "rematch_decline"


@dataclass(frozen=True)
class RequestTakeback:
    """Ask to take back one's own last move."""

    TYPE: ClassVar[str] = "takeback_request"


@dataclass(frozen=True)
class AnswerTakeback:
    """Answer the opponent's takeback request."""

    TYPE: ClassVar[str] = "takeback_answer"
    accept: bool


@dataclass(frozen=True)
class Ping:
    """Ask for a ``pong`` echoing ``t``."""

    TYPE: ClassVar[str] = "ping"
    t: int | float | None = None


@dataclass(frozen=True)
class GetRecord:
    """Ask for the game as a ``.mbg`` record."""

    TYPE: ClassVar[str] = "record"


ClientMessage = (
    Hello | Create | Join | Resume | Watch | PlayMove | Resign | OfferRematch | AcceptRematch | DeclineRematch
    | RequestTakeback | AnswerTakeback | Ping | GetRecord
)
GAME_MESSAGES = (PlayMove, Resign, OfferRematch, AcceptRematch, DeclineRematch, RequestTakeback, AnswerTakeback,
                 GetRecord)
"""The messages about the connection's current game: refused with ``no_game`` before it has one."""


def ref_of(message: ClientMessage) -> JsonObject:
    """What an ``error`` about ``message`` names it by: its type, and a move's id."""
    if isinstance(message, PlayMove):
        return {"type": message.TYPE, "id": message.id}
    return {"type": message.TYPE}


# -- reading -----------------------------------------------------------------------------


class _Unreadable(ValueError):
    """JSON that ``json`` accepts but the protocol does not: NaN, Infinity, a repeated key."""


def parse_client_message(data: str | bytes) -> ClientMessage:
    """Read one client frame; raises ``ProtocolError`` (and nothing else) if it is not a valid message."""
    text = _decode(data)
    try:
        value = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_object_without_repeats)
    except _Unreadable as error:
        raise ProtocolError(ErrorCode.BAD_JSON, str(error)) from None
    except RecursionError:
        raise ProtocolError(ErrorCode.BAD_JSON, "not JSON: nested too deeply") from None
    except ValueError as error:  # json.JSONDecodeError, and int() of too many digits
        raise ProtocolError(ErrorCode.BAD_JSON, f"not JSON: {error}") from None
    if not isinstance(value, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"expected a JSON object with a \"type\", got {_describe(value)}")
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
    result: JsonObject = {}
    for key, value in pairs:
        if key in result:
            raise _Unreadable(f"not JSON the protocol accepts: the key {_describe(key)} appears twice in an object")
        result[key] = value
    return result


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

    def name(self) -> str | None:
        value = self.get("name", False)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self.fail("name", "a player's name as a string", value)
        return clean_name(value, "") or None

    def code(self) -> str:
        value = self.get("code", True)
        if not isinstance(value, str):
            raise self.fail("code", 'a code as a string like "ABCD-EFGH"', value)
        try:
            return normalise_code(value)
        except ValueError as error:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f'"code": {error}') from None


def is_move_id(value: object) -> bool:
    """Whether ``value`` can be a move id: 1 to 64 printable ASCII characters, no space."""
    return (
        isinstance(value, str)
        and 1 <= len(value) <= MAX_MOVE_ID_LENGTH
        and all("!" <= ch <= "~" for ch in value)
    )


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
    return Hello(version=version, name=fields.name())


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
        try:
            position = parse_position(detail)
        except BattleError as error:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f'"deal.position": {error}') from None
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


def _read_move(fields: _Fields) -> PlayMove:
    move_id = fields.get("id", True)
    if not is_move_id(move_id):
        raise fields.fail("id", f"a move id of 1 to {MAX_MOVE_ID_LENGTH} printable ASCII characters", move_id)
    text = fields.get("move", True)
    if not isinstance(text, str):
        raise fields.fail("move", 'a string like "c1-c9"', text)
    try:
        move = parse_move(text)
    except BattleError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f'"move": {error}') from None
    return PlayMove(move=move_name(move), id=move_id)


def _read_answer(fields: _Fields) -> AnswerTakeback:
    return AnswerTakeback(accept=fields.boolean("accept", required=True))


def _read_ping(fields: _Fields) -> Ping:
    value = fields.get("t", False)
    if value is None:
        return Ping()
    if _is_whole_number(value) and abs(value) <= MAX_PING_NUMBER:
        return Ping(t=value)
    if isinstance(value, float) and math.isfinite(value):
        return Ping(t=value)
    raise fields.fail("t", "a number (at most 2^53 in size) to echo", value)


_READERS: dict[str, Callable[[_Fields], ClientMessage]] = {
    Hello.TYPE: _read_hello,
    Create.TYPE: _read_create,
    Join.TYPE: _read_join,
    Resume.TYPE: _read_resume,
    Watch.TYPE: _read_watch,
    PlayMove.TYPE: _read_move,
    Resign.TYPE: lambda fields: Resign(),
    OfferRematch.TYPE: lambda fields: OfferRematch(),
    AcceptRematch.TYPE: lambda fields: AcceptRematch(),
    DeclineRematch.TYPE: lambda fields: DeclineRematch(),
    RequestTakeback.TYPE: lambda fields: RequestTakeback(),
    AnswerTakeback.TYPE: _read_answer,
    Ping.TYPE: _read_ping,
    GetRecord.TYPE: lambda fields: GetRecord(),
}


# -- server messages ---------------------------------------------------------------------

Presence = Literal["connected", "away", "open"]
"""A seat's presence: its player has a connection, has none, or nobody holds the seat yet."""
Viewer = int | Literal["spectator"]


def encode(message: Mapping[str, Any]) -> str:
    """The text of one frame: compact JSON, UTF-8 characters as they are, never NaN."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def welcome() -> JsonObject:
    """The answer to ``hello``."""
    return {"type": "welcome", "version": PROTOCOL_VERSION, "max_message_bytes": MAX_MESSAGE_BYTES}


def created(game: str, invite: str, watch: str, token: str, seat: int) -> JsonObject:
    """To the creator only: the codes to share and the secret token of the creator's seat."""
    return {"type": "created", "game": game, "invite": invite, "watch": watch, "token": token, "seat": seat}


def joined(game: str, token: str, seat: int) -> JsonObject:
    """To the joiner only: the secret token of the seat the invite code gave."""
    return {"type": "joined", "game": game, "token": token, "seat": seat}


def player(seat: int, name: str | None, presence: Presence, creator: bool) -> JsonObject:
    """One seat as ``state`` lists it (an open seat has no name yet)."""
    return {"seat": seat, "name": name, "presence": presence, "creator": creator}


def result(winner: int | None, reason: str, scores: tuple[int, int]) -> JsonObject:
    """A finished game's outcome: ``reason`` is ``no_pair``, ``resign`` or ``time``; a null winner is a draw."""
    return {"winner": winner, "reason": reason, "scores": [scores[0], scores[1]]}


def state(
    *,
    game: str,
    you: Viewer,
    status: str,
    start: str,
    deal: int | None,
    moves: list[str],
    to_move: int | None,
    scores: tuple[int, int],
    players: list[JsonObject],
    result: JsonObject | None,
    move_seconds: int | None,
    lose_on_time: bool,
    deadline: float | None,
    seconds_left: float | None,
    overdue: bool,
    rematch_offer: int | None,
    takeback_request: int | None,
    rematch: JsonObject | None,
    invite: str | None,
    watch: str | None,
) -> JsonObject:
    """Everything a client shows, from scratch: sent on resume, watch, and after every change but a move."""
    return {
        "type": "state",
        "game": game,
        "you": you,
        "status": status,
        "start": start,
        "deal": deal,
        "moves": moves,
        "ply": len(moves),
        "to_move": to_move,
        "scores": [scores[0], scores[1]],
        "players": players,
        "result": result,
        "move_seconds": move_seconds,
        "lose_on_time": lose_on_time,
        "deadline": deadline,
        "seconds_left": seconds_left,
        "overdue": overdue,
        "offers": {"rematch": rematch_offer, "takeback": takeback_request},
        "rematch": rematch,
        "invite": invite,
        "watch": watch,
    }


def ack(move_id: str, ply: int, move: str, taken_back: bool = False) -> JsonObject:
    """To the mover: the move with this id is move number ``ply`` (also for a resend of it)."""
    return {"type": "ack", "id": move_id, "ply": ply, "move": move, "taken_back": taken_back}


def moved(
    *,
    game: str,
    ply: int,
    seat: int,
    move: str,
    points: int,
    scores: tuple[int, int],
    to_move: int | None,
    status: str,
    result: JsonObject | None,
    deadline: float | None,
) -> JsonObject:
    """To every connection of the game: a move was played (``ply`` is its number, from 1)."""
    return {
        "type": "moved",
        "game": game,
        "ply": ply,
        "seat": seat,
        "move": move,
        "points": points,
        "scores": [scores[0], scores[1]],
        "to_move": to_move,
        "status": status,
        "result": result,
        "deadline": deadline,
    }


def error(code: ErrorCode, reason: str, ref: JsonObject | None = None) -> JsonObject:
    """A refused message: the code, a one-line reason, and which message it was (null when unreadable)."""
    return {"type": "error", "code": code.value, "reason": one_line(reason), "ref": ref}


def error_for(problem: ProtocolError) -> JsonObject:
    """The ``error`` message for a ``ProtocolError`` (or a refusal of the game's rules)."""
    return error(problem.code, problem.reason, problem.ref)


def pong(t: int | float | None) -> JsonObject:
    """The answer to ``ping``, echoing its ``t``."""
    return {"type": "pong", "t": t}


def record(game: str, mbg: str) -> JsonObject:
    """The game as a ``.mbg`` record (the result line once it is over)."""
    return {"type": "record", "game": game, "mbg": mbg}


def rematch_started(old_game: str, new_game: str, seat: Viewer, watch: str) -> JsonObject:
    """To every connection of a finished game whose rematch began; a ``state`` of the new game follows."""
    return {"type": "rematch", "from": old_game, "game": new_game, "you": seat, "watch": watch}
