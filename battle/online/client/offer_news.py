"""What changed in a game's offers and players, read from the server's messages in order.

The server sends a ``state`` after every change but a move, which comes as ``moved``, and a
client may hold several messages before it reads one: a request and its answer can both
be queued. Reading every message in turn against the game as it stood before that message
tells each request and answer; comparing only the newest state with the last one shown
misses a question asked and answered in between. The terminal's and the window's clients
both read the news here and word it each in their own way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from battle.online.client.state_game import after_move
from battle.online.protocol.server_messages import Moved, ServerMessage, State

NewsKind = Literal[
    "takeback_asked",  # ``seat`` asks to take back their last move
    "takeback_granted",  # ``seat``'s last ``moves`` are taken back, as asked
    "takeback_refused",  # ``seat``'s request is turned down
    "takeback_overtaken",  # ``seat``'s opponent moved instead of answering
    "rematch_offered",  # ``seat`` offers a rematch
    "rematch_declined",  # ``seat``'s rematch offer is turned down
    "away",  # ``seat`` lost its connection while the game goes on
    "back",  # ``seat`` is connected again
    "joined",  # somebody holds ``seat`` now, where it was open
]


@dataclass(frozen=True)
class OfferNews:
    """One change, and the seat it is about (the asker of a request, the player who came or went)."""

    kind: NewsKind
    seat: int
    moves: tuple[str, ...] = ()
    """The moves taken back, oldest first (``takeback_granted`` only)."""


class NewsReader:
    """Follows one connection's messages and tells what each changed."""

    def __init__(self, state: State | None = None) -> None:
        """``state``: the state the client shows already (its questions are not news again)."""
        self.seen: State | None = state
        """The game as the messages read so far leave it."""

    def read(self, message: ServerMessage | object) -> list[OfferNews]:
        """The news in ``message``, the next message from the server (any type, or a link change)."""
        if isinstance(message, State):
            news = offer_news(self.seen, message)
            self.seen = message
            return news
        if isinstance(message, Moved) and self.seen is not None:
            asked = self.seen.offers.takeback
            self.seen = after_move(self.seen, message)
            if asked is not None and message.seat != asked:
                return [OfferNews("takeback_overtaken", asked)]
        return []


def offer_news(before: State | None, state: State) -> list[OfferNews]:
    """The changes from ``before`` to ``state``, the game before a ``state`` message and that message.

    A state of another game (a rematch began, or the first state of a connection) starts
    afresh: only its open questions are news.
    """
    if before is not None and before.game != state.game:
        before = None
    news: list[OfferNews] = []
    asked = None if before is None else before.offers.takeback
    asking = state.offers.takeback
    if asked is not None and asking != asked:
        played = () if before is None else before.moves
        playing = state.moves
        if len(playing) < len(played) and played[: len(playing)] == playing:
            news.append(OfferNews("takeback_granted", asked, played[len(playing) :]))
        elif len(playing) > len(played):
            news.append(OfferNews("takeback_overtaken", asked))
        else:
            news.append(OfferNews("takeback_refused", asked))
    if asking is not None and asking != asked:
        news.append(OfferNews("takeback_asked", asking))
    offered = None if before is None else before.offers.rematch
    offering = state.offers.rematch
    if state.rematch is None:  # an offer that ends because the rematch began is no refusal
        if offered is not None and offering != offered:
            news.append(OfferNews("rematch_declined", offered))
        if offering is not None and offering != offered:
            news.append(OfferNews("rematch_offered", offering))
    if before is not None:
        for seat in (1, 2):
            news.extend(_presence_news(before, state, seat))
    return news


def _presence_news(before: State, state: State, seat: int) -> list[OfferNews]:
    was, now = before.presence(seat), state.presence(seat)
    if now == was:
        return []
    if now == "away" and state.status != "finished":
        return [OfferNews("away", seat)]
    if now == "connected":
        return [OfferNews("joined" if was == "open" else "back", seat)]
    return []
