"""Every sound the window plays, by event and tile value, made from code (``synth``) at a sample rate.

Imported by the mixer's thread when it opens, so numpy's import is off the first frame's path.
"""

from __future__ import annotations

from collections.abc import Callable

from battle.ui.sound import synth
from battle.ui.sound.events import TILE_VALUES, Event, SoundKey
from battle.ui.sound.synth import Samples

_MAKERS: dict[Event, Callable[[int], Samples]] = {
    Event.SELECT: synth.select,
    Event.REFUSED: synth.refused,
    Event.HINT: synth.hint,
    Event.GAME_WON: synth.game_won,
    Event.GAME_LOST: synth.game_lost,
    Event.GAME_DRAWN: synth.game_drawn,
    Event.PUZZLE_SOLVED: synth.puzzle_solved,
    Event.PUZZLE_MISSED: synth.puzzle_missed,
    Event.OPPONENT_ARRIVED: synth.opponent_arrived,
    Event.OPPONENT_LEFT: synth.opponent_left,
}


def all_sounds(rate: int) -> dict[SoundKey, Samples]:
    """Every sound the window plays, made at ``rate`` samples per second."""
    sounds = {(event, 0): make(rate) for event, make in _MAKERS.items()}
    for value in TILE_VALUES:
        sounds[(Event.PAIR_TAKEN, value)] = synth.pair_taken(rate, value)
        sounds[(Event.OPPONENT_MOVED, value)] = synth.pair_taken(rate, value, opponent=True)
    return sounds
