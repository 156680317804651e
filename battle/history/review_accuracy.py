"""A finished review's accuracy, added to the stored game it graded: what ``stats`` plots.

The window and the terminal alike call this once a review has graded a finished game to its
end (``review`` of a record, the terminal's ``review`` after a game). The game is found by its
record (``.mbg`` text as ``Game.to_text`` writes it), the latest if it was stored more than
once; a record the history does not hold is no error (a friend's game, a composed one).
"""

from __future__ import annotations

from battle.history.store import History


def store_review_accuracy(history: History, record: str, accuracy: tuple[float | None, float | None]) -> int | None:
    """Give the stored game with this record player 1's and player 2's accuracy; the game's number
    (the ``#N`` of ``stats``), or None when no stored game has the record or the write failed
    (``history.take_notices`` then says why)."""
    stored = [entry.id for entry in history.games() if entry.record == record and entry.id is not None]
    if not stored:
        return None
    return stored[-1] if history.set_accuracy(stored[-1], accuracy[0], accuracy[1]) else None
