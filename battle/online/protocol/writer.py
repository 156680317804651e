"""Writing frames, both ways: ``client_frame`` turns one of ``messages``' client dataclasses into
the text of the frame a client sends, the exact inverse of ``reader.parse_client_message``;
``server_frame`` does the same for ``server_messages``' dataclasses, the inverse of
``reader.parse_server_message`` (property tests hold each pair together on generated messages).
Both sides build every message they send as a dataclass, so a message one side writes is a
message the other reads, and the other way round.
"""

from __future__ import annotations

from battle.online.protocol.messages import (
    AnswerTakeback,
    ClientMessage,
    Create,
    DealChoice,
    GivenPosition,
    Hello,
    Join,
    JsonObject,
    NameSeat,
    NumberedDeal,
    Ping,
    PlayMove,
    Resume,
    Watch,
    encode,
    message_json,
)
from battle.online.protocol.server_messages import (
    Error,
    ErrorRef,
    GameResult,
    Moved,
    RematchStarted,
    ServerMessage,
    State,
    Welcome,
)


def client_json(message: ClientMessage) -> JsonObject:
    """The JSON object of ``message``, with the optional fields at their defaults left out."""
    fields: JsonObject = {"type": message.TYPE}
    if isinstance(message, Hello):
        fields["version"] = message.version
        _name(fields, message.name)
    elif isinstance(message, Create):
        fields["deal"] = deal_json(message.deal)
        fields["first"] = message.first
        if message.move_seconds is not None:
            fields["move_seconds"] = message.move_seconds
        if message.lose_on_time:
            fields["lose_on_time"] = True
        _name(fields, message.name)
    elif isinstance(message, Join):
        fields["code"] = message.code
        _name(fields, message.name)
    elif isinstance(message, Resume):
        fields["token"] = message.token
    elif isinstance(message, Watch):
        fields["code"] = message.code
    elif isinstance(message, PlayMove):
        fields["move"] = message.move
        fields["id"] = message.id
    elif isinstance(message, AnswerTakeback):
        fields["accept"] = message.accept
    elif isinstance(message, NameSeat):
        fields["name"] = message.name
    elif isinstance(message, Ping) and message.t is not None:
        fields["t"] = message.t
    return fields


def client_frame(message: ClientMessage) -> str:
    """The text of the frame that carries ``message``."""
    return encode(client_json(message))


def deal_json(deal: DealChoice) -> JsonObject:
    """A ``create``'s ``deal`` field: ``{"number": N}``, ``{"random": true}`` or ``{"position": text}``."""
    if isinstance(deal, NumberedDeal):
        return {"number": deal.number}
    if isinstance(deal, GivenPosition):
        return {"position": deal.text}
    return {"random": True}


def _name(fields: JsonObject, name: str | None) -> None:
    if name is not None:
        fields["name"] = name


# -- server messages -----------------------------------------------------------------------


def server_json(message: ServerMessage) -> JsonObject:
    """The JSON object of a server message, every field present (null where it has no value)."""
    if isinstance(message, Welcome):  # the frame's order is not the dataclass's
        return {
            "type": message.TYPE,
            "version": message.version,
            "max_message_bytes": message.max_message_bytes,
            "share_url": message.share_url,
        }
    if isinstance(message, State):
        return _state_json(message)
    if isinstance(message, Moved):
        return message_json(message, scores=list(message.scores), result=result_json(message.result))
    if isinstance(message, Error):
        ref = None if message.ref is None else _ref_json(message.ref)
        return message_json(message, code=message.code.value, params=dict(message.params), ref=ref)
    if isinstance(message, RematchStarted):  # the frame's "from" is the field from_game: a Python keyword
        return {
            "type": message.TYPE,
            "from": message.from_game,
            "game": message.game,
            "you": message.you,
            "watch": message.watch,
        }
    return message_json(message)  # the flat ones: every field as it is


def server_frame(message: ServerMessage) -> str:
    """The text of the frame that carries a server message."""
    return encode(server_json(message))


def result_json(result: GameResult | None) -> JsonObject | None:
    if result is None:
        return None
    return {"winner": result.winner, "reason": result.reason, "scores": list(result.scores)}


def _ref_json(ref: ErrorRef) -> JsonObject:
    return {"type": ref.type} if ref.id is None else {"type": ref.type, "id": ref.id}


def _state_json(state: State) -> JsonObject:
    return {
        "type": state.TYPE,
        "game": state.game,
        "you": state.you,
        "status": state.status,
        "start": state.start,
        "deal": state.deal,
        "moves": list(state.moves),
        "ply": state.ply,
        "to_move": state.to_move,
        "scores": list(state.scores),
        "players": [
            {"seat": info.seat, "name": info.name, "presence": info.presence, "creator": info.creator}
            for info in state.players
        ],
        "result": result_json(state.result),
        "move_seconds": state.move_seconds,
        "lose_on_time": state.lose_on_time,
        "deadline": state.deadline,
        "seconds_left": state.seconds_left,
        "overdue": state.overdue,
        "offers": {"rematch": state.offers.rematch, "takeback": state.offers.takeback},
        "rematch": None if state.rematch is None else {"game": state.rematch.game, "watch": state.rematch.watch},
        "invite": state.invite,
        "watch": state.watch,
        "invite_secret": state.invite_secret,
        "watch_secret": state.watch_secret,
    }
