"""What the window gives a voice to: the events, and who counts as whom (the player or the opponent).

Pure, with no pygame and no numpy (the window imports it on the first frame's path): the screens
say what happened (``move_event``, ``end_event`` and ``presence_event`` pick the event) and
``Sounds.play`` plays it; ``voices`` makes each event's sound.
"""

from __future__ import annotations

from enum import Enum


class Event(Enum):
    SELECT = "select"
    PAIR_TAKEN = "pair_taken"
    """The player's pair (or either side's in a hot-seat game); ``value`` is the tile value 1..9."""
    OPPONENT_MOVED = "opponent_moved"
    """The solver's or the online opponent's pair; ``value`` as for ``PAIR_TAKEN``."""
    REFUSED = "refused"
    HINT = "hint"
    GAME_WON = "game_won"
    GAME_LOST = "game_lost"
    GAME_DRAWN = "game_drawn"
    PUZZLE_SOLVED = "puzzle_solved"
    PUZZLE_MISSED = "puzzle_missed"
    OPPONENT_ARRIVED = "opponent_arrived"
    OPPONENT_LEFT = "opponent_left"


VALUED = (Event.PAIR_TAKEN, Event.OPPONENT_MOVED)
"""The events with one sound per tile value."""
TILE_VALUES = range(1, 10)

SoundKey = tuple[Event, int]
"""An event and its tile value (0 for the events without one)."""


def sound_key(event: Event, value: int = 0) -> SoundKey:
    """The sound ``event`` plays with ``value``: a value only counts for a pair (clamped to 1..9)."""
    return (event, min(9, max(1, value))) if event in VALUED else (event, 0)


def move_event(opponent: bool) -> Event:
    return Event.OPPONENT_MOVED if opponent else Event.PAIR_TAKEN


def end_event(winner: int | None, viewer: int | None) -> Event:
    """A finished game's sound for the player at seat ``viewer``; with no one seat (hot seat, a watched
    game) a game won by either side is a win."""
    if winner is None:
        return Event.GAME_DRAWN
    return Event.GAME_WON if viewer is None or winner == viewer else Event.GAME_LOST


def presence_event(before: str, after: str) -> Event | None:
    """The opponent's seat went from ``before`` to ``after`` (``connected``, ``away``, ``open``)."""
    if after == "connected" and before != "connected":
        return Event.OPPONENT_ARRIVED
    if before == "connected" and after != "connected":
        return Event.OPPONENT_LEFT
    return None
