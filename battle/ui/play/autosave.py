"""The window's games on disk, so a crash or a closed window loses nothing.

After every move the window writes the match to the saved games
(``battle.storage.saved_games``): an unfinished game to the unfinished list, a finished
one to the finished records. A fresh deal with no move yet is not written (the
deal number makes it again). The title offers the unfinished games to resume, and says
which are open in another copy of the program (``Shelf.holder``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from battle.i18n import _
from battle.storage.game_claim import GameInUse, release_all_but
from battle.storage.paths import StorageProblem, error_reason
from battle.storage.saved_games import SavedGame, Shelf, ShelfProblem
from battle.ui.match import Match


def write_autosave(match: Match, shelf: Shelf | None = None) -> str | None:
    """Save the match; returns a problem to show (None on success or when there is nothing to save).

    The game saved is claimed for this window (and the one it played before let go), so a
    terminal that resumes it meanwhile is refused rather than writing over its moves."""
    shelf = shelf if shelf is not None else Shelf()
    game = match.game
    try:
        if not game.is_over() and (game.ply > 0 or shelf.has(match.game_id)):
            _claim_only(shelf, match.game_id)
        if game.is_over():
            shelf.finish(match.saved())
        elif game.ply > 0 or shelf.has(match.game_id):
            shelf.save(match.saved())
    except GameInUse as error:
        return _("Not saved: {error}. Its moves here are not kept; save the game with Ctrl+S to keep them.").format(
            error=error
        )
    except StorageProblem as error:
        return _("Autosave failed: {error}. Save the game with Ctrl+S to keep it.").format(error=error)
    except OSError as error:
        return _("Autosave failed: {value}. Save the game with Ctrl+S to keep it.").format(value=error_reason(error))
    return None


def _claim_only(shelf: Shelf, game_id: str) -> None:
    release_all_but(game_id)
    try:
        shelf.claim(game_id)
    except GameInUse:
        raise
    except OSError:
        pass  # no lock can be made in this folder: the game is saved unclaimed


def let_go() -> None:
    """Release the games this window holds (back at the title, none is in play)."""
    release_all_but(None)


@dataclass
class Unfinished:
    """The unfinished games for the title, newest first, and what was wrong reading them."""

    games: list[SavedGame] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def current(self) -> SavedGame | None:
        """The game a new start asks about: the newest one the player has not kept for later."""
        return next((saved for saved in self.games if not saved.kept), None)


def read_unfinished(levels: tuple[str, ...] | list[str], shelf: Shelf | None = None) -> Unfinished:
    shelf = shelf if shelf is not None else Shelf()
    games, problems = shelf.unfinished(levels)
    return Unfinished(games, problems)


def keep_for_later(saved: SavedGame, shelf: Shelf | None = None) -> str | None:
    try:
        (shelf or Shelf()).keep(saved.game_id)
    except (OSError, ShelfProblem) as error:
        return _("Could not keep the game: {error}").format(error=error)
    return None


def discard(saved: SavedGame, shelf: Shelf | None = None) -> str | None:
    try:
        (shelf or Shelf()).discard(saved.game_id)
    except OSError as error:
        return _("Could not discard the game: {value}").format(value=error_reason(error))
    return None
