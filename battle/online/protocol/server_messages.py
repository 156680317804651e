"""The messages a server sends, built as dicts (``encode`` in ``protocol`` makes a frame of one);
each builder's docstring says who receives it. Examples of each are in ``docs/protocol.md``.
"""

from __future__ import annotations

from typing import Literal

from battle.online.protocol.messages import MAX_MESSAGE_BYTES, PROTOCOL_VERSION, ErrorCode, JsonObject, ProtocolError
from battle.rules.errors import one_line

Presence = Literal["connected", "away", "open"]
"""A seat's presence: its player has a connection, has none, or nobody holds the seat yet."""
Viewer = int | Literal["spectator"]


def welcome(share_url: str | None = None) -> JsonObject:
    """The answer to ``hello``; ``share_url`` is the address to put in links for friends, when the
    one the client used is not it (``share_address``)."""
    return {
        "type": "welcome",
        "version": PROTOCOL_VERSION,
        "max_message_bytes": MAX_MESSAGE_BYTES,
        "share_url": share_url,
    }


def created(
    game: str, invite: str, watch: str, token: str, seat: int, invite_secret: str, watch_secret: str
) -> JsonObject:
    """To the creator only: the codes to share (and the secrets of their links) and the secret token
    of the creator's seat."""
    return {
        "type": "created",
        "game": game,
        "invite": invite,
        "watch": watch,
        "token": token,
        "seat": seat,
        "invite_secret": invite_secret,
        "watch_secret": watch_secret,
    }


def joined(game: str, token: str, seat: int) -> JsonObject:
    """To the joiner only: the secret token of the seat the invite code gave."""
    return {"type": "joined", "game": game, "token": token, "seat": seat}


def player(seat: int, name: str | None, presence: Presence, creator: bool) -> JsonObject:
    """One seat as ``state`` lists it (an open seat has no name yet)."""
    return {"seat": seat, "name": name, "presence": presence, "creator": creator}


def result(winner: int | None, reason: str, scores: tuple[int, int]) -> JsonObject:
    """A finished game's outcome: ``reason`` is ``no_pair``, ``resign``, ``time``, ``aborted`` or
    ``expired``; a null winner is a draw (and no winner at all for the last two)."""
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
