"""The window's side of an ``OnlineSession``: opened so that it wakes the loop, closed without a wait,
and its seat kept in the list of online games.

The session's thread posts ``ONLINE_EVENT`` after every message it queues, so the window's
loop sleeps until there is news (a frame costs 7-8 ms at 1200x800: polling at 10 frames a
second would take about 8% of a core for as long as a game waits, which can be days). The
screens then drain ``events()`` in ``update``; an event lost to a full queue is picked up by
the loop's one-second safety wake.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import time

import pygame

from battle.i18n import _
from battle.online.client.seats import Seat, forget_seat, remember_seat
from battle.online.client.session import OnlineSession
from battle.online.client.state_game import name_of
from battle.online.client.wording import refusal_text
from battle.online.protocol.messages import Create, Join, Watch
from battle.online.protocol.server_messages import Error, State
from battle.storage.paths import error_reason
from battle.ui.online.online_state import opponent_of, presence_of, seat_of

ONLINE_EVENT = pygame.event.custom_type()
"""Posted by a session's thread: a message is waiting in ``events()``."""


def _wake() -> None:
    with contextlib.suppress(pygame.error):  # the display is gone: the window is closing
        pygame.event.post(pygame.event.Event(ONLINE_EVENT))


def refusal(event: Error, state: State | None = None) -> str:
    """What the window says of an ``error``: the refusal's code and params in the reader's words."""
    return refusal_text(event, state)


def open_session(url: str, opening: Create | Join | Watch, name: str | None) -> OnlineSession:
    """A session for ``opening`` (a ``create`` or ``join``) that wakes the window on every message."""
    return OnlineSession(url, opening, name, on_message=_wake)


def resume_session(seat: Seat, name: str | None) -> OnlineSession:
    """A session that comes back to a kept seat, waking the window on every message."""
    return OnlineSession.resume(seat, name, on_message=_wake)


def close_soon(session: OnlineSession) -> None:
    """Close the session on a thread of its own: a connection still opening can take the close's
    whole 2 s to give up, and the window must not stop for it."""
    threading.Thread(target=session.close, name="online-close", daemon=True).start()


def remember(session: OnlineSession, state: State | None) -> str | None:
    """Keep the session's seat in the list of online games, with the opponent's name, the time and
    whether the game is over; returns a problem to show, or None."""
    seat = session.seat
    if seat is None or seat.token is None:
        return None  # no seat yet, or a spectator's: nothing to come back to as a player
    kept = dataclasses.replace(seat, updated=time.time())
    if state is not None and seat_of(state) is not None:
        other = opponent_of(state)
        kept.opponent = name_of(state, other) if presence_of(state, other) != "open" else ""
        kept.finished = state.status == "finished"
    try:
        remember_seat(kept)
    except OSError as error:
        return _("Cannot keep this game in the list of online games: {value}").format(value=error_reason(error))
    return None


def forget(url: str, game: str) -> str | None:
    """Drop a game from the list (it stays on its server); returns a problem to show, or None."""
    try:
        forget_seat(url, game)
    except OSError as error:
        return _("Cannot change the list of online games: {value}").format(value=error_reason(error))
    return None
