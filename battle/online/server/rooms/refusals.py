"""What a ``Room`` refuses, as facts of its own: a kind, a fixed English reason and the details a
client words it with.

The room speaks no protocol (``lint-imports`` holds it to that): ``wire.refusal_error`` turns a
``Refused`` into the protocol's ``error``, each kind into the error code of the same name, its
details into the error's ``params`` as they are.
"""

from __future__ import annotations

from enum import Enum

from battle.rules.errors import one_line

Detail = str | int | float | bool | None
"""A value a refusal carries for its client to word it with: a seat, a move, seconds, a ``why``."""


class RefusalKind(str, Enum):
    """Why a room refuses an action; a ``why`` detail tells the refusals of one kind apart (the
    ``why`` values docs/protocol.md lists under each error code)."""

    FULL = "full"
    """Both seats are taken."""
    NOT_A_PLAYER = "not_a_player"
    """A spectator tried a player's action (``action`` names it)."""
    NOT_STARTED = "not_started"
    """The game waits for its second player."""
    NOT_YOUR_TURN = "not_your_turn"
    """The other seat (``seat``) is to move."""
    ILLEGAL_MOVE = "illegal_move"
    """The move is not notation (``why`` ``notation``) or the rules forbid it (``illegal``)."""
    BAD_MESSAGE = "bad_message"
    """A move's id is not 1 to 64 printable ASCII characters (``field`` ``id``)."""
    ID_REUSED = "id_reused"
    """A move id names an earlier, different move (``id``, ``ply``, ``move``)."""
    OUT_OF_TIME = "out_of_time"
    """The move came ``seconds`` after its deadline in a game lost on time."""
    GAME_OVER = "game_over"
    """The game has ended."""
    NOT_ALLOWED = "not_allowed"
    """The action does not fit the game's state; ``why`` says how."""
    NO_OFFER = "no_offer"
    """There is no ``offer`` (``rematch`` or ``takeback``) to answer."""
    EXPIRED = "expired"
    """The game ended before it began: nobody joined (``why`` ``expired``) or its host called it off
    (``called_off``)."""


class Refused(Exception):
    """An action the game does not allow now; the room is unchanged.

    The refusal is a fact: its ``kind`` and ``details`` go to the client, which words them in its
    reader's language; ``reason`` is fixed English for logs and old clients."""

    def __init__(self, kind: RefusalKind, reason: str, **details: Detail) -> None:
        super().__init__(f"{kind.value}: {reason}")
        self.kind: RefusalKind = kind
        self.reason: str = one_line(reason)
        self.details: dict[str, Detail] = details
