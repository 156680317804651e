"""The window's games on disk, so a crash or a closed window loses nothing, and another copy's moves neither.

After every move the window writes the match to the saved games
(``battle.storage.saved_games``): an unfinished game to the unfinished list, a finished
one to the finished records. A fresh deal with no move yet is not written (the
deal number makes it again). The title offers the unfinished games to resume, and says
which are open in another copy of the program (``Shelf.holder``).

The window writes a game only while it holds the game's claim, and opens a game it resumes by
claiming it first and reading its record then (``open_game``). A game it cannot claim is played
as not saved, with the reason over the board: held by another copy, the window tries the claim
again once a second and, once that copy lets go, saves on where the record stood, or plays on
from that copy's last move when it changed the game (``Autosaved.changed``); a lock file that
cannot be used leaves the game unsaved.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from battle.i18n import _
from battle.storage.game_claim import GameInUse, GameUnclaimable, release_all_but
from battle.storage.paths import StorageProblem, error_reason
from battle.storage.saved_games import GameChanged, SavedGame, Shelf, ShelfProblem
from battle.ui.match import Match

RETRY_CLAIM = 1.0
"""Seconds between the window's tries at the claim of a game another copy holds: the other copy's
quit shows here within a second, for one lock attempt (microseconds) a second."""


@dataclass(frozen=True)
class Autosaved:
    """What an autosave came to: saved (no ``problem``), or why not, and what follows."""

    problem: str | None = None
    """The line over the board while the game is not saved."""
    waiting: bool = False
    """Another copy holds the game: try again (``RETRY_CLAIM``) until it lets go."""
    changed: SavedGame | None = None
    """The record another copy left, claimed for this window: the game goes on from it."""


def write_autosave(match: Match, levels: tuple[str, ...] | list[str] = (), shelf: Shelf | None = None) -> Autosaved:
    """Save the match, claiming it for this window first (the one it played before is let go), so a
    terminal that resumes it meanwhile is refused rather than writing over its moves."""
    shelf = shelf if shelf is not None else Shelf()
    release_all_but(match.game_id)
    game = match.game
    try:
        if game.is_over():
            shelf.finish(match.saved())
        elif game.ply > 0 or shelf.has(match.game_id):
            shelf.save(match.saved())
    except GameInUse as error:
        return Autosaved(
            _("Not saved: {error}. When it is closed there, the game goes on here from its last move there.").format(
                error=error
            ),
            waiting=True,
        )
    except GameUnclaimable as error:
        return Autosaved(not_saved(str(error)))
    except GameChanged as change:
        if change.gone:
            return Autosaved(not_saved(str(change)))
        return _take_up(match.game_id, levels, shelf)
    except StorageProblem as error:
        return Autosaved(_("Autosave failed: {error}. Save the game with Ctrl+S to keep it.").format(error=error))
    except OSError as error:
        return Autosaved(
            _("Autosave failed: {value}. Save the game with Ctrl+S to keep it.").format(value=error_reason(error))
        )
    return Autosaved()


def not_saved(reason: str) -> str:
    """The line over the board of a game this window cannot save, and why."""
    return _("Not saved: {reason}. Its moves here are not kept; save the game with Ctrl+S to keep them.").format(
        reason=reason
    )


def _take_up(game_id: str, levels: tuple[str, ...] | list[str], shelf: Shelf) -> Autosaved:
    """The record another copy changed, read under this window's claim."""
    try:
        return Autosaved(changed=shelf.open_claimed(game_id, levels))
    except GameInUse as error:  # taken again meanwhile
        return Autosaved(not_saved(str(error)), waiting=True)
    except (GameUnclaimable, ShelfProblem) as error:
        return Autosaved(not_saved(str(error)))


@dataclass(frozen=True)
class Opened:
    """A game to resume as ``open_game`` found it: the record read under the claim, or why not."""

    saved: SavedGame | None
    """The game to play (None: it cannot be opened, ``problem`` says why)."""
    problem: str | None = None
    held_by: int | None = None
    """The pid of the copy that holds it (0: unknown), else None; ``saved`` is then its record read
    without the claim, when asked for."""


def open_game(
    game_id: str, levels: tuple[str, ...] | list[str], *, even_in_use: bool = False, shelf: Shelf | None = None
) -> Opened:
    """Claim the game, then read its record, for the window to play: the moves as they are now,
    not as a list read earlier shows them. A game whose lock file cannot be used is read without
    the claim, to be played as not saved; so is one another copy holds, with ``even_in_use``."""
    shelf = shelf if shelf is not None else Shelf()
    release_all_but(game_id)
    held_by = None
    try:
        return Opened(shelf.open_claimed(game_id, levels))
    except GameInUse as error:
        held_by = error.pid or 0
        if not even_in_use:
            return Opened(None, str(error), held_by)
    except GameUnclaimable:
        pass  # played as not saved: its first autosave says why
    except ShelfProblem as problem:
        return Opened(None, str(problem))
    try:
        return Opened(shelf.load(game_id, levels), held_by=held_by)
    except ShelfProblem as problem:
        return Opened(None, str(problem))


def let_go() -> None:
    """Release the games this window holds (back at the title, none is in play; the window closes)."""
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
    """Mark the game kept for later; a game another copy plays is left as it is (nothing to keep)."""
    try:
        (shelf or Shelf()).keep(saved.game_id)
    except (GameInUse, GameUnclaimable):
        return None
    except (OSError, ShelfProblem) as error:
        return _("Could not keep the game: {error}").format(error=error)
    return None


def discard(saved: SavedGame, shelf: Shelf | None = None) -> str | None:
    """Delete the game, under its claim: one another copy holds, or changed since it was listed, stays."""
    try:
        (shelf or Shelf()).discard(saved.game_id, saved.game)
    except GameInUse as error:
        return _("Not discarded: {error}; finish or quit it there first.").format(error=error)
    except GameChanged as change:
        return _("Not discarded: {error}; the list shows it as it is now.").format(error=change)
    except GameUnclaimable as error:
        return _("Not discarded: {error}.").format(error=error)
    except OSError as error:
        return _("Could not discard the game: {value}").format(value=error_reason(error))
    return None
