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
    from battle.ui.widgets.dialogs import FileDialogSlot


class SavingScreen(PlayScreen, Protocol):
    """What loading, saving and the autosave use of the game screen (``play_scene.PlayScene``)."""

    files: FileDialogSlot
    save_problem: str | None
    """Why the last autosave failed, if it did."""

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
    match = Match(game, scene.match.solver_side, scene.match.level)
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
    if not scene.app.autosave_enabled:
        return
    scene.save_problem = write_autosave(scene.match)
