"""The online protocol, version 1: its limits, its error codes and the client messages as
typed values.

Every message is one JSON object in one WebSocket text frame, with a ``"type"``; the full
contract, with an example of each message, is ``docs/protocol.md``. This module and its
neighbours are that contract in code:

- here, the frozen dataclasses a client's frames are read into (a ``create``'s deal and
  ``first`` are ``battle.online.game_terms``, which the server's room reads too),
  ``ProtocolError(code, reason, params=...)`` for a frame the server refuses, ``message_json``,
  which writes a message's JSON object field by field, and ``encode``, which makes the text of a
  frame;
- ``server_messages``: the dataclasses of what the server sends (``Welcome``, ``State``,
  ``Moved``, ``Ack``, ``Error``, ...);
- ``writer``: ``client_frame`` and ``server_frame``, a frame of each side's messages;
- ``reader.parse_client_message`` and ``server_reader.parse_server_message``: any frame into
  one of those dataclasses or a ``ProtocolError``, and nothing else.

A connection acts on one game at a time: ``create``, ``join``, ``resume`` and ``watch``
choose it, and every later message (``move``, ``resign``, ...) is about that game, so those
carry no game id.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, ClassVar, Protocol, TypeVar

# the game's terms, which the room reads too, are the protocol's names as well: a message module imports them here
from battle.online.game_terms import ABORT_BEFORE_PLY as ABORT_BEFORE_PLY
from battle.online.game_terms import FIRST_CHOICES as FIRST_CHOICES
from battle.online.game_terms import MAX_MOVE_ID_LENGTH as MAX_MOVE_ID_LENGTH
from battle.online.game_terms import DealChoice as DealChoice
from battle.online.game_terms import First as First
from battle.online.game_terms import GivenPosition as GivenPosition
from battle.online.game_terms import NumberedDeal as NumberedDeal
from battle.online.game_terms import RandomDeal as RandomDeal
from battle.online.game_terms import in_english as in_english
from battle.online.game_terms import is_move_id as is_move_id
from battle.rules.errors import BattleError, one_line

PROTOCOL_VERSION = 1
"""The major version: a server refuses a ``hello`` of any other version (error ``version``)."""
MAX_MESSAGE_BYTES = 4096
"""The largest client frame, in UTF-8 bytes. The biggest real message, a ``create`` with a full
position, is about 400 bytes; the cap also bounds the JSON nesting and the digits of a number."""
MIN_MOVE_SECONDS = 5
"""The shortest per-move time limit: under 5 s a round trip and a click do not fit reliably."""
MAX_MOVE_SECONDS = 86_400
"""The longest per-move time limit, a day: longer is correspondence play, which has no limit."""
MAX_TOKEN_LENGTH = 128
MAX_PING_NUMBER = 2**53
"""``ping``'s ``t`` is echoed; beyond 2^53 a JavaScript client could not read it back exactly."""

JsonObject = dict[str, Any]
ParamValue = str | int | float | bool | None
"""A value an ``error``'s ``params`` carry: what a client words the refusal with."""


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
    EXPIRED = "expired"
    DAMAGED = "damaged"
    INTERNAL = "internal"


class ProtocolError(Exception):
    """A message the server refuses: a code and its ``params`` for the clients to word, and a
    one-line reason in fixed English for logs and old clients.

    ``ref`` names the refused message (``{"type": "move", "id": "m7"}``) as far as it could be
    read, so a client can tell which of its messages failed.
    """

    def __init__(
        self,
        code: ErrorCode,
        reason: str,
        ref: JsonObject | None = None,
        params: Mapping[str, ParamValue] | None = None,
    ) -> None:
        super().__init__(f"{code.value}: {reason}")
        self.code: ErrorCode = code
        self.reason: str = one_line(reason)
        self.ref: JsonObject | None = ref
        self.params: dict[str, ParamValue] = dict(params or {})


# -- client messages ---------------------------------------------------------------------


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
class Abort:
    """Call off a game before its second move (its host: also while nobody has joined)."""

    TYPE: ClassVar[str] = "abort"


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
class NameSeat:
    """Give one's seat the name a player chose after taking it: a friend's link opens the game at
    once and asks the name beside the board. A seat named once keeps its name."""

    TYPE: ClassVar[str] = "name"
    name: str
    """Cleaned as every name is, with a visible character."""


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
    Hello
    | Create
    | Join
    | Resume
    | Watch
    | PlayMove
    | Resign
    | Abort
    | OfferRematch
    | AcceptRematch
    | DeclineRematch
    | RequestTakeback
    | AnswerTakeback
    | NameSeat
    | Ping
    | GetRecord
)
GAME_MESSAGES = (
    PlayMove,
    Resign,
    Abort,
    OfferRematch,
    AcceptRematch,
    DeclineRematch,
    RequestTakeback,
    AnswerTakeback,
    NameSeat,
    GetRecord,
)
"""The messages about the connection's current game: refused with ``no_game`` before it has one."""


def ref_of(message: ClientMessage) -> JsonObject:
    """What an ``error`` about ``message`` names it by: its type, and a move's id."""
    if isinstance(message, PlayMove):
        return {"type": message.TYPE, "id": message.id}
    return {"type": message.TYPE}


class RequestFields(Protocol):
    """One client frame's fields as ``reader`` reads them (``reader._Fields``): strict, every reason
    naming the field. The readers of the other modules' requests take them as this."""

    def get(self, name: str, required: bool) -> Any: ...

    def fail(self, name: str, expected: str, value: object) -> ProtocolError: ...


T = TypeVar("T")
"""What a notation parser makes of a field: a Position or a Move."""


def notation_field(fields: RequestFields, name: str, expected: str, parse: Callable[[str], T]) -> T:
    """The required field ``name``, a string (``expected`` says what else it should be), read by the
    notation's own ``parse``, whose one-line message names what is wrong after the field's name, in
    English whatever the server's locale (a reason is for logs; each client words the code)."""
    text = fields.get(name, True)
    if not isinstance(text, str):
        raise fields.fail(name, expected, text)
    try:
        return parse(text)
    except BattleError as error:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f'"{name}": {in_english(error)}') from None


class Fielded(Protocol):
    """A value a frame carries: a dataclass, its fields the frame's."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


class Typed(Fielded, Protocol):
    """A message: a dataclass with its ``type``."""

    TYPE: ClassVar[str]


def fields_json(value: Fielded, **written: object) -> JsonObject:
    """``value``'s JSON object: each field under its own name, in the order its dataclass declares
    them, as it is or as ``written`` gives it (a tuple as a list, a value inside as its own object).
    The order is the frame's, so a frame's bytes follow from the declaration alone."""
    names = _FIELD_NAMES.get(type(value))
    if names is None:
        names = _FIELD_NAMES[type(value)] = tuple(item.name for item in fields(value))
    return {name: written[name] if name in written else getattr(value, name) for name in names}


def message_json(message: Typed, **written: object) -> JsonObject:
    """A message's JSON object: its ``type``, then its fields as ``fields_json`` writes them."""
    return {"type": message.TYPE, **fields_json(message, **written)}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
"""Each class's field names, read once: ``dataclasses.fields`` is a third of writing an ``ack``."""


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
"""Built once: ``json.dumps`` with these options builds an encoder a call, a third of a small message's cost."""


def encode(message: Mapping[str, Any]) -> str:
    """The text of one frame: compact JSON, UTF-8 characters as they are, never NaN."""
    return _ENCODER.encode(message)


def news_object(value: object) -> dict[str, Any]:
    """A server message as a client reads it: ``value`` itself when it is a decoded JSON object, else the
    frame's text decoded; ``ProtocolError`` names what is wrong with anything else."""
    if isinstance(value, (str, bytes)):
        try:
            value = json.loads(value)
        except ValueError as error:  # json.JSONDecodeError, a bad UTF-8 byte, too many digits
            raise ProtocolError(ErrorCode.BAD_JSON, f"not JSON: {error}") from None
        except RecursionError:
            raise ProtocolError(ErrorCode.BAD_JSON, "not JSON: nested too deeply") from None
    if not isinstance(value, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "expected a JSON object with a type")
    return value
