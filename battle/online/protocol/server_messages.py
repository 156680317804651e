"""The messages a server sends, as typed values: what ``writer.server_frame`` writes and
``reader.parse_server_message`` reads back (a property test holds the two together).

The server builds every message it sends as one of these dataclasses, and the Python clients
(the window, the terminal, ``battle.online.client``) read every frame into one, so neither
side looks fields up by name. Each class's docstring says who receives it; examples of each
are in ``docs/protocol.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from battle.online.protocol.messages import MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ErrorCode, ParamValue, ProtocolError
from battle.rules.errors import one_line

Presence = Literal["connected", "away", "open"]
"""A seat's presence: its player has a connection, has none, or nobody holds the seat yet."""
PRESENCES: tuple[Presence, ...] = ("connected", "away", "open")
Viewer = int | Literal["spectator"]
"""Whom a ``state`` is for: a seat (1 or 2) or a spectator."""
GameStatus = Literal["waiting", "playing", "finished"]
STATUSES: tuple[GameStatus, ...] = ("waiting", "playing", "finished")
EndReasonName = Literal["no_pair", "resign", "time", "aborted", "expired", "abandoned"]
"""Why a game ended: no pair of free twins left, a resignation, the clock, called off before
move 2 (by a player, or by the server when nobody moved in time), nobody joined in time, or the
player to move was gone for the server's limit (the other wins)."""
END_REASONS: tuple[EndReasonName, ...] = ("no_pair", "resign", "time", "aborted", "expired", "abandoned")


@dataclass(frozen=True)
class Welcome:
    """The answer to ``hello``; ``share_url`` is the address to put in links for friends, when the
    one the client used is not it (``share_address``)."""

    TYPE: ClassVar[str] = "welcome"
    share_url: str | None = None
    version: int = PROTOCOL_VERSION
    max_message_bytes: int = MAX_MESSAGE_BYTES


@dataclass(frozen=True)
class Created:
    """To the creator only: the codes to share (and the secrets of their links) and the secret
    token of the creator's seat."""

    TYPE: ClassVar[str] = "created"
    game: str
    invite: str
    watch: str
    token: str
    seat: int
    invite_secret: str
    watch_secret: str


@dataclass(frozen=True)
class Joined:
    """To the joiner only: the secret token of the seat the invite code gave."""

    TYPE: ClassVar[str] = "joined"
    game: str
    token: str
    seat: int


@dataclass(frozen=True)
class PlayerInfo:
    """One seat as ``state`` lists it: an open seat has no name (None); a player who gave none
    has "" and each client shows "Player 2" in its reader's language."""

    seat: int
    name: str | None
    presence: Presence
    creator: bool


@dataclass(frozen=True)
class GameResult:
    """A finished game's outcome; a null winner is a draw (and no winner at all for ``aborted``
    and ``expired``). A resignation's, a loss on time's or an abandoned game's winner may have
    fewer points."""

    winner: int | None
    reason: EndReasonName
    scores: tuple[int, int]

    @property
    def unplayed(self) -> bool:
        """Whether the game hardly began (aborted or expired): it counts for nothing."""
        return self.reason in ("aborted", "expired")


@dataclass(frozen=True)
class Offers:
    """The open questions: the seat offering a rematch, the seat asking for a takeback."""

    rematch: int | None = None
    takeback: int | None = None


@dataclass(frozen=True)
class RematchLink:
    """The game a finished game's rematch is, and its watch code."""

    game: str
    watch: str


@dataclass(frozen=True)
class State:
    """Everything a client shows, from scratch: sent on resume, watch, and after every change but a move."""

    TYPE: ClassVar[str] = "state"
    game: str
    you: Viewer
    status: GameStatus
    start: str
    """The start position in ``.mbp`` text."""
    deal: int | None
    moves: tuple[str, ...]
    to_move: int | None
    scores: tuple[int, int]
    players: tuple[PlayerInfo, ...]
    result: GameResult | None = None
    move_seconds: int | None = None
    lose_on_time: bool = False
    deadline: float | None = None
    seconds_left: float | None = None
    overdue: bool = False
    offers: Offers = field(default_factory=Offers)
    rematch: RematchLink | None = None
    invite: str | None = None
    watch: str | None = None
    invite_secret: str | None = None
    watch_secret: str | None = None

    @property
    def ply(self) -> int:
        """Moves played and not taken back."""
        return len(self.moves)

    def player(self, seat: object) -> PlayerInfo | None:
        return next((info for info in self.players if info.seat == seat), None)

    def presence(self, seat: object) -> Presence:
        info = self.player(seat)
        return "open" if info is None else info.presence


@dataclass(frozen=True)
class Ack:
    """To the mover: the move with this id is move number ``ply`` (also for a resend of it)."""

    TYPE: ClassVar[str] = "ack"
    id: str
    ply: int
    move: str
    taken_back: bool = False


@dataclass(frozen=True)
class Moved:
    """To every connection of the game: a move was played (``ply`` is its number, from 1)."""

    TYPE: ClassVar[str] = "moved"
    game: str
    ply: int
    seat: int
    move: str
    points: int
    scores: tuple[int, int]
    to_move: int | None
    status: GameStatus
    result: GameResult | None = None
    deadline: float | None = None


@dataclass(frozen=True)
class ErrorRef:
    """Which client message an ``error`` refuses: its type, and a move's id."""

    type: str
    id: str | None = None


@dataclass(frozen=True)
class Error:
    """A refused message: the ``code`` and ``params`` each client words in its reader's language,
    ``reason`` in fixed English for logs and old clients, and which message it was (None when
    unreadable)."""

    TYPE: ClassVar[str] = "error"
    code: ErrorCode
    reason: str
    params: dict[str, ParamValue] = field(default_factory=dict)
    ref: ErrorRef | None = None


@dataclass(frozen=True)
class Pong:
    """The answer to ``ping``, echoing its ``t``."""

    TYPE: ClassVar[str] = "pong"
    t: int | float | None = None


@dataclass(frozen=True)
class Record:
    """The game as a ``.mbg`` record (the result line once it is over)."""

    TYPE: ClassVar[str] = "record"
    game: str
    mbg: str


@dataclass(frozen=True)
class RematchStarted:
    """To every connection of a finished game whose rematch began; a ``state`` of the new game follows."""

    TYPE: ClassVar[str] = "rematch"
    from_game: str
    game: str
    you: Viewer
    watch: str


@dataclass(frozen=True)
class Elsewhere:
    """The answer to a ``join``, ``watch`` or ``resume`` of a game (or a lobby request) held at another
    place, a server group or a process of one (``server_groups``): connect again with ``?at=`` set to
    ``group`` and send ``request`` (the type of the message answered) again. Nothing changed here."""

    TYPE: ClassVar[str] = "elsewhere"
    group: str
    request: str


ServerMessage = Welcome | Created | Joined | State | Ack | Moved | Error | Pong | Record | RematchStarted | Elsewhere


def error_for(problem: ProtocolError) -> Error:
    """The ``error`` message for a ``ProtocolError`` (or a refusal of the game's rules)."""
    ref = problem.ref
    named = None
    if ref is not None:
        move_id = ref.get("id")
        named = ErrorRef(str(ref.get("type")), move_id if isinstance(move_id, str) else None)
    return Error(problem.code, one_line(problem.reason), dict(problem.params), named)
