"""Saving and loading from the game screen: the file dialog, the record, the autosave.

Split from ``play_scene`` so the scene keeps to input and play; these functions
read and write the scene's match and set its status line.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from battle.i18n import _
from battle.rules.wording import about, level_word, solver_level
from battle.ui.files.game_files import FileProblem, load_game_file, loaded_notice, save_game_file
from battle.ui.match import Match
from battle.ui.play.autosave import write_autosave
from battle.ui.play_mode import PlayScreen
from battle.ui.widgets.dialogs import Picked, free_file_name, start_folder
from battle.ui.widgets.hud import StatusLine

if TYPE_CHECKING:
    from battle.rules.game import Game
    from battle.storage.saved_games import SavedGame
    from battle.ui.widgets.dialogs import FileDialogSlot


class SavingScreen(PlayScreen, Protocol):
    """What loading, saving and the autosave use of the game screen (``play_scene.PlayScene``)."""

    files: FileDialogSlot
    save_problem: str | None
    """Why the last autosave failed, if it did."""
    save_waiting: bool
    """Another copy holds the game: the autosave tries its claim again until it lets go."""
    taken_up: SavedGame | None
    """The record another copy changed and let go, for the screen to play on from."""

    @property
    def game(self) -> Game: ...

    def stop_browsing(self) -> None: ...


def open_dialog(scene: SavingScreen, purpose: str) -> None:
    """Open the load or save dialog (one at a time); the pick arrives as a pygame_gui event."""
    if scene.dialog_open():
        return
    if scene.browsing:
        scene.stop_browsing()
    number = scene.game.deal_number
    stem = f"deal-{number}" if number is not None else "position"
    name = free_file_name(start_folder(scene.app), stem, ".mbg") if purpose == "save" else ""
    problem = scene.files.open(purpose, name)
    if problem:
        scene.status = StatusLine(problem, "error")


def file_picked(scene: SavingScreen, picked: Picked) -> None:
    if picked.purpose == "save":
        save_to(scene, picked.path)
    elif picked.purpose == "load":
        load_from(scene, picked.path)


def save_to(scene: SavingScreen, path: Path) -> None:
    try:
        written = save_game_file(path, scene.game)
    except FileProblem as problem:
        scene.status = StatusLine(_("Could not save: {problem}").format(problem=problem), "error")
        return
    scene.app.remember_folder(written.parent)
    scene.status = StatusLine(_("Saved {name} (in {parent}).").format(name=written.name, parent=written.parent), "good")


def load_from(scene: SavingScreen, path: Path) -> None:
    try:
        game, what = load_game_file(path)
    except FileProblem as problem:
        scene.status = StatusLine(_("Could not load {problem}").format(problem=problem), "error")
        return
    scene.app.remember_folder(Path(path).parent)
    # The game goes on in the screen's mode: against the solver, the solver keeps its side
    # (and says so, since the record's names may be two people's).
    match = Match.from_file(game, scene.match.solver_side, scene.match.level)
    notice = loaded_notice(what, Path(path).name, game)
    if match.solver_side is not None and not game.is_over():
        side = game.names[match.solver_side - 1]
        level = level_word(match.level)
        if solver_level(side) is not None:
            plays = _("The solver ({level}) plays on as player {side}.").format(level=level, side=match.solver_side)
        else:
            plays = about(
                side, _("The solver ({level}) plays you."), _("The solver ({level}) plays {name}."), level=level
            )
        notice = f"{notice} {plays}"  # two whole sentences
    scene.app.start_match(match, notice, "good")


def autosave(scene: SavingScreen) -> None:
    """Save the game (see ``autosave.write_autosave``): say why not over the board, say when a game
    another copy held is saved here again, and leave a game that copy changed to ``take_up``."""
    if not scene.app.autosave_enabled:
        return
    was_waiting = scene.save_waiting
    saved = write_autosave(scene.match, scene.app.level_names)
    scene.save_problem = saved.problem
    scene.save_waiting = saved.waiting
    if saved.changed is not None:
        scene.taken_up = saved.changed
    elif was_waiting and saved.problem is None:
        scene.status = StatusLine(_("The other copy closed the game: it is saved here again."), "good")


def take_up(scene: SavingScreen) -> None:
    """Play on from the record another copy left when it let the game go (claimed for this window)."""
    fresh, scene.taken_up = scene.taken_up, None
    if fresh is None:
        return
    notice = _(
        "This game changed in another copy: it goes on here from move {move}; the moves made here meanwhile "
        "were not kept."
    ).format(move=fresh.game.ply + 1)
    scene.app.start_match(Match.from_saved(fresh, scene.app.default_level), notice, "warn")
