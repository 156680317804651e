"""The window's part in the history of games (``battle.history``): what it stores, and when.

Every game the window sees to its end goes into the history as the result card comes up:
a local game with its levels, the human's side against the solver and the deal's par (the
autosave's game id keeps it from being stored twice after an undo and a replay), an online
game with the player's seat (a watched game is someone else's and is not stored; one ended by a
resignation or the clock, whose scores do not say who won, is stored without the seat). A review
that grades a stored game to its end adds both players' accuracy to it, the game found by
its record.

The history never stops a game: ``History`` turns every database failure into a notice,
which the screen shows once in its status line. Writes run on the drawing thread: one takes
a few milliseconds, and a database locked by another copy of the program is waited for at
most ``WINDOW_BUSY_SECONDS`` before that one write is skipped.
"""

from __future__ import annotations

from battle.history.review_accuracy import store_review_accuracy
from battle.history.store import GameEntry, History
from battle.i18n import _
from battle.rules.game import Game

WINDOW_BUSY_SECONDS = 0.5
"""The longest a frame waits for another copy's lock: its writes take milliseconds, and half a
second is the longest freeze the window accepts at the end of a game."""


def open_history() -> History:
    """The player's history database (``data_dir()/history.sqlite3``), opened at its first use."""
    return History(busy_seconds=WINDOW_BUSY_SECONDS)


def local_entry(
    game: Game, solver_side: int | None, level: str, game_key: str, par: int | None, from_ply: int = 0
) -> GameEntry:
    """A game played in this window: against the solver the human's side is "you" and the solver's
    side has its level; a hot-seat game has neither (it counts among the games, not among yours).
    ``from_ply``: the move the solver joined at (``Match.from_ply``)."""
    levels = (level if solver_side == 1 else None, level if solver_side == 2 else None)
    you = None if solver_side is None else 3 - solver_side
    return GameEntry.from_game(
        game, front_end="window", levels=levels, you=you, par=par, game_key=game_key, from_ply=from_ply
    )


def notice_text(notices: list[str]) -> str | None:
    """The history's notices (``History.take_notices``, each a clause in lower case) as one status line,
    or None without any."""
    if not notices:
        return None
    return " ".join(_("{notice}.").format(notice=notice.removesuffix(".")) for notice in notices)


def store_game(history: History, entry: GameEntry) -> str | None:
    """Store a finished game; what the history has to say (a file set aside, a busy database), to show once."""
    history.add_game(entry)
    return notice_text(history.take_notices())


def store_accuracy(history: History, game: Game, accuracy: tuple[float | None, float | None]) -> str | None:
    """Add a finished review's accuracies (player 1's, player 2's) to the stored game with the same
    record, the latest if it was stored more than once; what the history has to say, to show once."""
    store_review_accuracy(history, game.to_text(), accuracy)
    return notice_text(history.take_notices())
