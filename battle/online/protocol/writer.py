"""Writing client frames: ``client_frame`` turns one of ``protocol``'s message dataclasses into
the text of the frame a client sends, the exact inverse of ``message_reader.parse_client_message``
(a test holds the two together on generated messages). The clients build every message they
send as a dataclass, so a message the server reads is a message a client can write, and the
other way round.
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
    NumberedDeal,
    Ping,
    PlayMove,
    Resume,
    Watch,
    encode,
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
