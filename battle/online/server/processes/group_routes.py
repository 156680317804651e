"""Which server group a request belongs to, and the words for a directory that does not answer.

With ``serve --group NAME --shared URL`` several machines (groups, ``server_groups``) serve one
game service, each holding its own games in its own database. The shared directory
(``shared_directory``, PostgreSQL) says which group holds each invite code, watch code and seat
token; a ``join``, ``watch`` or ``resume`` that reaches a group holding no such game is answered
``elsewhere`` naming the group that does (``route``). What the directory is asked for comes from
the request alone (``directory_key``): the code a link's secret starts with, the hash of a token.

The rules the directory keeps: a code names one game of one group across all groups (a code is
drawn until the directory takes it, ``CLAIM_TRIES``); a seat token's hash names its group; a
network's unfinished games count across the groups for its caps (``network_caps``).

Pure: no sockets, no database.
"""

from __future__ import annotations

import math
from typing import Literal

from battle.online.protocol.codes import CODE_LENGTH, hash_token
from battle.online.protocol.messages import ErrorCode, Join, ProtocolError, Resume, Watch

KeyKind = Literal["join", "watch", "token"]
"""What a directory key is: an invite code, a watch code, or a seat token's hash."""
CLAIM_TRIES = 8
"""Draws of a fresh game's codes before a create gives up: with 40-bit codes and a million games in
the directory, one draw in a million collides, so a second draw is already rare."""
RETRY_SECONDS = 5.0
"""After the directory fails to answer, requests that need it are refused this long before it is tried
again: a down PostgreSQL costs each refusal nothing, and a client is told when to come back."""


class DirectoryDown(Exception):
    """The shared directory did not answer; a request that needs it may try again in ``seconds``."""

    def __init__(self, seconds: float, reason: str = "") -> None:
        super().__init__(reason or f"the game directory is unavailable for {math.ceil(seconds)} s")
        self.seconds = seconds


def directory_key(message: Join | Watch | Resume) -> tuple[KeyKind, str]:
    """What the directory is asked for the game ``message`` picks: a link's secret by the code it
    starts with (the group holding the game checks the rest), a token by its hash (the directory
    never holds a token)."""
    if isinstance(message, Resume):
        return "token", hash_token(message.token)
    kind: KeyKind = "join" if isinstance(message, Join) else "watch"
    return kind, message.code[:CODE_LENGTH]


def route(own: str, holder: str | None) -> str | None:
    """The group to send a request on to: ``holder`` when it is another group than ``own``; None when
    the request is served here (this group holds it, or no group does and this one says so)."""
    return holder if holder is not None and holder != own else None


def directory_refusal(down: DirectoryDown) -> ProtocolError:
    """The ``busy`` refusal of a request that needs the directory while it is down; games already
    in a group play on."""
    seconds = max(1, math.ceil(down.seconds))
    return ProtocolError(
        ErrorCode.BUSY,
        f"the game directory is unavailable; try again in {seconds} s",
        params={"why": "directory", "seconds": seconds},
    )
