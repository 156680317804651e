"""The seam between the server's facts and the wire: every message the server sends, but ``error``,
is built here or in the ``wire`` module of another package from the facts of the module that
serves it. Here: the answers to a connection (``welcome``, ``pong``, ``created``, ``joined``) and
the messages that carry a room's facts (its state, a move, a result, a record). ``solving.wire``
builds the solver's news (a game against it, its seat, a hint, an analysis, a review, a place in
the queue, a refusal), ``lobby.wire`` the lobby's messages, ``puzzles.wire`` the puzzles' and
``days.wire`` a device's answers (``daily_table``, ``my_stats_result``). A room's refusal
(``refusals.Refused``) becomes a ``ProtocolError`` here too (``refusal_error``: each kind is the
error code of its name). Every other ``error`` is built where the fault is met: a serving module
raises ``ProtocolError`` with its code, which ``dispatch`` sends (``error_for``), and the server's
own faults (a frame over the rate, a change not saved, a game out of reach) are sent as ``Error``
where they occur. ``tests/online/test_online_wire.py`` fails when another server module builds a
message.

A ``Room`` is a pure state machine that knows no message: it holds the game and returns facts (a
``MoveReceipt``, a ``PlayOutcome``) or raises one (a ``refusals.Refused``). The functions here
word them as the messages of ``battle.online.protocol``, by attribute: a field renamed on either
side is a type error here (``mypy``), never a ``KeyError`` in a running server.
"""

from __future__ import annotations

from collections.abc import Mapping

from battle.online.protocol.messages import ErrorCode, ProtocolError
from battle.online.protocol.server_messages import (
    Ack,
    Created,
    Elsewhere,
    EndReasonName,
    GameResult,
    GameStatus,
    Joined,
    Moved,
    Offers,
    PlayerInfo,
    Pong,
    Presence,
    Record,
    RematchLink,
    RematchStarted,
    State,
    Viewer,
    Welcome,
)
from battle.online.server.rooms import refusals
from battle.online.server.rooms.refusals import RefusalKind
from battle.online.server.rooms.room import SEATS, EndReason, MoveReceipt, Room, Status
from battle.rules.notation import format_position

_STATUSES: dict[Status, GameStatus] = {
    Status.WAITING: "waiting",
    Status.PLAYING: "playing",
    Status.FINISHED: "finished",
}
_END_REASONS: dict[EndReason, EndReasonName] = {
    EndReason.NO_PAIR: "no_pair",
    EndReason.RESIGN: "resign",
    EndReason.TIME: "time",
    EndReason.ABORTED: "aborted",
    EndReason.EXPIRED: "expired",
    EndReason.ABANDONED: "abandoned",
}
_ERROR_CODES: dict[RefusalKind, ErrorCode] = {
    RefusalKind.FULL: ErrorCode.FULL,
    RefusalKind.NOT_A_PLAYER: ErrorCode.NOT_A_PLAYER,
    RefusalKind.NOT_STARTED: ErrorCode.NOT_STARTED,
    RefusalKind.NOT_YOUR_TURN: ErrorCode.NOT_YOUR_TURN,
    RefusalKind.ILLEGAL_MOVE: ErrorCode.ILLEGAL_MOVE,
    RefusalKind.BAD_MESSAGE: ErrorCode.BAD_MESSAGE,
    RefusalKind.ID_REUSED: ErrorCode.ID_REUSED,
    RefusalKind.OUT_OF_TIME: ErrorCode.OUT_OF_TIME,
    RefusalKind.GAME_OVER: ErrorCode.GAME_OVER,
    RefusalKind.NOT_ALLOWED: ErrorCode.NOT_ALLOWED,
    RefusalKind.NO_OFFER: ErrorCode.NO_OFFER,
    RefusalKind.EXPIRED: ErrorCode.EXPIRED,
}


# -- a connection's answers -----------------------------------------------------------------------


def welcome(share_url: str | None) -> Welcome:
    """The answer to ``hello``: the address for friends' links when it is not the one the client used."""
    return Welcome(share_url)


def pong(t: int | float | None) -> Pong:
    """The answer to ``ping``, echoing its ``t``."""
    return Pong(t)


def created(room: Room, invite: str, watch: str, token: str, invite_secret: str, watch_secret: str) -> Created:
    """To the creator of ``room`` only: the codes to share, their links' secrets and the seat's token."""
    return Created(room.game_id, invite, watch, token, room.creator_seat, invite_secret, watch_secret)


def elsewhere(group: str, request: str) -> Elsewhere:
    """The answer to a ``request`` whose game (``join``, ``watch``, ``resume``), or the lobby, is held at
    the place ``group`` names (a server group, or a process: ``server_groups.place_at``): the client
    connects there and asks again."""
    return Elsewhere(group, request)


def joined(room: Room, token: str, seat: int) -> Joined:
    """To the joiner of ``room`` only: the token of the ``seat`` its invite code gave."""
    return Joined(room.game_id, token, seat)


# -- a game's facts ----------------------------------------------------------------------------


def refusal_error(refused: refusals.Refused) -> ProtocolError:
    """A room's refusal as the protocol's: the error code of its kind, its English reason, its
    details as the ``error``'s ``params``; ``dispatch`` names the refused message and sends it."""
    return ProtocolError(_ERROR_CODES[refused.kind], refused.reason, params=refused.details)


def game_status(status: Status) -> GameStatus:
    """A room's status as the protocol's ``status`` field has it."""
    return _STATUSES[status]


def end_reason(reason: EndReason) -> EndReasonName:
    """Why a game ended, as the protocol's ``result.reason`` field has it."""
    return _END_REASONS[reason]


def result(room: Room) -> GameResult | None:
    """The result of ``room``'s game once it is over, else None."""
    if room.status != Status.FINISHED or room.reason is None:
        return None
    return GameResult(room.winner, end_reason(room.reason), room.scores)


def state(room: Room, viewer: int | None, presence: Mapping[int, bool], now: float) -> State:
    """The full ``state`` of ``room``'s game for a seat (1 or 2) or a spectator (None).

    ``presence`` says which seats have a connection now; only a seat's holder sees the invite
    code, and only while the seat it gives is open.
    """
    you: Viewer = viewer if viewer in room.seats and viewer is not None else "spectator"
    players = []
    for seat in SEATS:
        if seat in room.seats:
            mark: Presence = "connected" if presence.get(seat) else "away"
            name = room.seats[seat].name  # "" for a player who gave none: each client words the default
            players.append(PlayerInfo(seat, name, mark, seat == room.creator_seat))
        else:
            players.append(PlayerInfo(seat, None, "open", False))
    deadline = room.deadline()
    rematch = RematchLink(room.rematch_game, room.rematch_watch or "") if room.rematch_game else None
    return State(
        game=room.game_id,
        you=you,
        status=game_status(room.status),
        start=format_position(room.game.start),
        deal=room.game.deal_number,
        moves=tuple(receipt.move for receipt in room.live_receipts),
        to_move=room.to_move,
        scores=room.scores,
        players=tuple(players),
        result=result(room),
        move_seconds=room.options.move_seconds,
        lose_on_time=room.options.lose_on_time,
        deadline=deadline,
        seconds_left=None if deadline is None else max(0.0, deadline - now),
        overdue=room.is_overdue(now),
        offers=Offers(room.rematch_offer, room.takeback_request),
        rematch=rematch,
        invite=room.invite if you != "spectator" and room.open_seat is not None else None,
        watch=room.watch,
    )


def moved(room: Room, receipt: MoveReceipt) -> Moved:
    """The ``moved`` every connection of the game gets once ``receipt``'s move, ``room``'s last, is stored."""
    return Moved(
        game=room.game_id,
        ply=receipt.ply,
        seat=receipt.seat,
        move=receipt.move,
        points=receipt.points,
        scores=room.scores,
        to_move=room.to_move,
        status=game_status(room.status),
        result=result(room),
        deadline=room.deadline(),
    )


def ack(receipt: MoveReceipt) -> Ack:
    """The ``ack`` of a move to its sender, the same for the first send and every resend."""
    return Ack(receipt.move_id, receipt.ply, receipt.move, receipt.taken_back)


def record(room: Room) -> Record:
    """``room``'s game as a ``.mbg`` record."""
    return Record(room.game_id, room.record_text())


def rematch_started(room: Room, rematch: Room, seat: int | None) -> RematchStarted:
    """To a connection of ``room``'s game that held ``seat`` there (None: a spectator): its rematch
    began, where the seats are swapped."""
    return RematchStarted(room.game_id, rematch.game_id, "spectator" if seat is None else 3 - seat, rematch.watch)
