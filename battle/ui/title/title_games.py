"""The games the title screen starts, and the questions asked before one replaces another.

The title's form (``title_scene``) gathers a new game's players and deal; this module holds
the rest of the title's job: the unfinished games to resume (the newest one and a few more
kept for later), the rematch of the last game, a game or position read from a file, a
game record to review, and the two questions, what becomes of the unfinished game a new
one would replace, and whether to discard a kept one. What it cannot do it returns as a
``StatusLine`` for the title's status line; what it starts it opens through the ``Host``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from battle.i18n import _
from battle.storage.saved_games import SavedGame, Shelf
from battle.ui.choice_scene import Choice, ChoiceScene
from battle.ui.files.game_files import FileProblem, load_game_file, loaded_notice
from battle.ui.match import Match
from battle.ui.play.autosave import discard, keep_for_later, open_game, read_unfinished
from battle.ui.widgets.hud import StatusLine

if TYPE_CHECKING:
    from battle.rules.game import Game
    from battle.ui.scene import Host

MAX_OTHERS = 3
"""Unfinished games listed under the newest one, room permitting; the rest wait in the data folder."""


class TitleGames:
    """The title's games: what it offers to resume or replay, and how a chosen game starts."""

    def __init__(self, app: Host) -> None:
        self.app = app
        self.unfinished = read_unfinished(app.level_names)
        games = self.unfinished.games
        self.newest: SavedGame | None = games[0] if games else None
        """The newest unfinished game, as the list was read."""
        self.resume: Match | None = Match.from_saved(games[0], app.default_level) if games else None
        """The newest unfinished game, offered first (as the list was read: Resume reads it again)."""
        self.others: list[SavedGame] = games[1 : 1 + MAX_OTHERS]
        """More unfinished games, offered under the newest one."""
        shelf = Shelf()
        self.in_use: dict[str, int] = {}
        """The listed games open in another copy of the program, by id: the pid (0 when unknown)."""
        for saved in games[: 1 + MAX_OTHERS]:
            pid = shelf.holder(saved.game_id)
            if pid is not None:
                self.in_use[saved.game_id] = pid
        # the last game, finished or not, can be replayed with the sides swapped
        self.previous: Match | None = app.last_match or self.resume or _newest_finished(app)

    def problem(self) -> StatusLine | None:
        """Why some unfinished game could not be read, for the status line, if one could not."""
        problems = self.unfinished.problems
        if not problems:
            return None
        more = len(problems) - 1
        return StatusLine(problems[0] + (_(" ({more} more like it)").format(more=more) if more else ""), "warn")

    # -- starting a game ---------------------------------------------------------------------

    def _in_use_line(self, pid: int | None) -> StatusLine:
        holder = _(" (pid {pid})").format(pid=pid) if pid else ""
        return StatusLine(
            _("This game is open in another copy of Mahjong Battle{holder}; finish or quit it there first.").format(
                holder=holder
            ),
            "warn",
        )

    def _resume(self, saved: SavedGame, *, even_in_use: bool = False) -> StatusLine | None:
        """Resume a listed game: claimed, then read from disk (another copy may have played on since
        the list was read). One another copy holds is refused (played as not saved with
        ``even_in_use``); what cannot be opened comes back for the status line."""
        opened = open_game(saved.game_id, self.app.level_names, even_in_use=even_in_use)
        if opened.saved is None:
            if opened.held_by is not None:
                return self._in_use_line(opened.held_by)
            return StatusLine(_("Could not resume the game: {problem}").format(problem=opened.problem), "error")
        match = Match.from_saved(opened.saved, self.app.default_level)
        notice = _("Resumed: {what}.").format(what=match.describe())
        if opened.saved.game.moves != saved.game.moves and opened.held_by is None:
            notice = _("Resumed: {what}. It was played on in another copy since the list was shown.").format(
                what=match.describe()
            )
        self.app.start_match(match, notice, "good")
        return None

    def resume_newest(self) -> StatusLine | None:
        return None if self.newest is None else self._resume(self.newest)

    def resume_other(self, index: int) -> StatusLine | None:
        return self._resume(self.others[index])

    def rematch(self) -> None:
        if self.previous is not None:
            self.begin(self.previous.rematch(), _("Rematch: the same deal with the sides swapped."), "good")

    def begin(self, match: Match, notice: str | None, kind: str = "info") -> None:
        """Start a new game; first ask what becomes of the unfinished game the player last left."""
        current = self.unfinished.current
        if current is None or current.game_id == match.game_id or Shelf().holder(current.game_id) is not None:
            self.app.start_match(match, notice, kind)  # a game open in another copy is its own to end
            return

        def answered(key: str | None) -> None:
            if key == "resume":
                # another copy may have taken it since: it is then shown as not saved until that copy lets go
                refused = self._resume(current, even_in_use=True)
                if refused is not None:
                    self.app.show_title(refused.text, refused.kind)
                return
            if key == "keep":
                problem = keep_for_later(current)
            elif key == "discard":
                problem = discard(current)
                if problem:  # the game stays, and so does the title: the new game waits
                    self.app.show_title(problem, "warn")
                    return
            else:
                return
            if problem:
                self.app.start_match(match, problem, "error")
            else:
                self.app.start_match(match, notice, kind)

        self.app.stack.push(
            ChoiceScene(
                self.app,
                _("Your last game is not finished"),
                _(
                    "{what}. Resume it, keep it in the list of unfinished games and start the new one, or discard it?"
                ).format(what=current.describe()),
                (
                    Choice("resume", _("Resume it"), _("Go back to the unfinished game")),
                    Choice("keep", _("Keep it, start new"), _("The title lists it for later")),
                    Choice("discard", _("Discard it"), _("Delete the unfinished game")),
                ),
                answered,
            )
        )

    def ask_discard(self, index: int) -> None:
        """Ask before deleting one of the other unfinished games; the title then lists the rest."""
        saved = self.others[index]

        def answered(key: str | None) -> None:
            if key == "discard":
                problem = discard(saved)
                self.app.show_title(
                    problem or _("Discarded: {what}.").format(what=saved.describe()), "warn" if problem else "info"
                )

        self.app.stack.push(
            ChoiceScene(
                self.app,
                _("Discard this game?"),
                _("{what}. It cannot be brought back.").format(what=saved.describe()),
                (Choice("cancel", _("Keep it")), Choice("discard", _("Discard it"))),
                answered,
            )
        )

    # -- files -------------------------------------------------------------------------------

    def _read_game(self, path: Path) -> tuple[Game, str] | StatusLine:
        """The game in a picked file and what it was, or the problem to show."""
        try:
            game, what = load_game_file(path)
        except FileProblem as problem:
            return StatusLine(_("Could not load {problem}").format(problem=problem), "error")
        self.app.remember_folder(path.parent)
        return game, what

    def review(self, path: Path) -> StatusLine | None:
        """Review a game record from a file (a position file has no moves to review)."""
        loaded = self._read_game(path)
        if isinstance(loaded, StatusLine):
            return loaded
        game, what = loaded
        if game.ply == 0:
            empty = (
                _("{name} is a game record without moves: nothing to review.")
                if what == "game record"
                else _("{name} is a position without moves: nothing to review.")
            )
            return StatusLine(empty.format(name=path.name), "warn")
        self.app.open_review(game)
        return None

    def load(self, path: Path, solver_side: int | None, level: str) -> StatusLine | None:
        """Play the game or position in a file, the solver on ``solver_side`` (None: hot seat)."""
        loaded = self._read_game(path)
        if isinstance(loaded, StatusLine):
            return loaded
        game, what = loaded
        self.begin(Match.from_file(game, solver_side, level), loaded_notice(what, path.name, game), "good")
        return None


def _newest_finished(app: Host) -> Match | None:
    saved = Shelf().newest_finished(app.level_names)
    return Match.from_saved(saved, app.default_level) if saved is not None else None
