"""Studying the game: the game screen's mode while analysis is on.

The board shows the study position of an ``AnalysisMode`` (the game's position
plus a variation) with every pair's value. Moves played go into the variation, the
best line can be stepped through as a preview, and what the pair under the pointer
opens is worked out for the status line and the board. The game waits untouched:
the solver does not move and no result card comes while it is studied. Undo and
redo step the variation; with no variation to step they are the game's own.

The mode reaches the screen through ``PlayScreen`` and the game through its
``PlayMode``; the study board itself, its variation and the live values are
``AnalysisMode``'s, and ``study_view`` draws them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from battle.i18n import N_, _, ngettext
from battle.rules.board import Move, Position, move_name
from battle.rules.opens import Opening, describe_opening, what_opens
from battle.rules.wording import about, took_sentence
from battle.ui.analysis import study_view
from battle.ui.analysis.analysis_mode import AnalysisMode, pick_move
from battle.ui.widgets.hud import StatusLine

if TYPE_CHECKING:
    from battle.ui.play_mode import ButtonSpec, PlayMode, PlayScreen
from battle.ui.play_mode import Played, Shown

BUTTONS: tuple[ButtonSpec, ...] = (
    ("undo", N_("Undo"), N_("Take back a move of the variation (U)")),
    ("redo", N_("Redo"), N_("Replay a variation move (R)")),
    ("back_game", N_("To game"), N_("Drop the variation: the board shows the game again (B)")),
    ("pv_back", N_("< Line"), N_("Step back along the best line (comma)")),
    ("pv_forward", N_("Line >"), N_("Preview the best line one move further (full stop)")),
    ("pv_play", N_("Play line"), N_("Play the previewed line (or the best move) into the variation (P)")),
    ("analyse", N_("Analysis off"), N_("Leave analysis mode: back to the game (A)")),
)
COMMANDS = ("undo", "redo", "back_game", "pv_back", "pv_forward", "pv_play")
KEYS = {
    pygame.K_b: "back_game",
    pygame.K_COMMA: "pv_back",
    pygame.K_PERIOD: "pv_forward",
    pygame.K_p: "pv_play",
    pygame.K_PAGEUP: "pv_back",
    pygame.K_PAGEDOWN: "pv_forward",
}
"""Keys that mean something only in analysis mode."""
KEYS_HELP = N_("B back to game · , . best line · P play it · A off")
INTRO = N_(
    "Analysis: each pair shows the final margin it leads to for the mover. Moves played now explore a "
    "variation; the game is kept."
)
"""The status line as analysis comes on."""


def _variation_step(move: Move | None, done: str, nothing: str) -> StatusLine:
    """What a step back or forth in the variation says: ``done`` names the move, ``nothing`` says there was none."""
    if move is None:
        return StatusLine(nothing, "quiet")
    return StatusLine(done.format(move_name=move_name(move)), "info")


class StudyMode:
    """A study board with live values beside the waiting game: variations, the best line, what a pair opens."""

    buttons = BUTTONS
    keys = KEYS
    keys_help = KEYS_HELP
    runs_game = False
    shows_move_list = False
    """The analysis box takes the move list's place in the panel."""

    def __init__(self, screen: PlayScreen, game_mode: PlayMode) -> None:
        self.screen = screen
        self.game_mode = game_mode
        """The game's own mode: undo and redo fall back to it when there is no variation to step."""
        self.study = AnalysisMode(screen.match.game, screen.app.live_analysis)
        self.opening: Opening | None = None
        """What the pair under the pointer (or the selected tile's pair) opens."""
        self._opening_for: tuple[object, ...] | None = None
        """The pointer, the selection, the position and the values ``opening`` was worked out for."""

    @property
    def position(self) -> Position:
        return self.study.position

    @property
    def previewing(self) -> bool:
        return self.study.previewing

    def shown_position(self) -> Position:
        return self.study.shown_position()

    # -- buttons and clicks ------------------------------------------------------------------

    def enabled_buttons(self) -> dict[str, bool]:
        study = self.study
        match = self.screen.match
        return {
            "undo": study.exploring or match.undo_count() > 0,
            "redo": bool(study.undone) or (not study.exploring and match.redo_count() > 0),
            "back_game": study.exploring or study.previewing,
            "pv_back": study.previewing,
            "pv_forward": study.pv_step < len(study.pv),
            "pv_play": bool(study.pv),
        }

    def refusal(self) -> StatusLine | None:
        if self.position.is_over():
            return StatusLine(_("No pair left here. U takes back a variation move; B goes back to the game."), "quiet")
        return None

    def take_right_click(self) -> bool:
        """A right click ends the preview of the best line."""
        if not self.study.previewing:
            return False
        self.study.stop_preview()
        return True

    def take_board_click(self) -> Shown | None:
        """A click on the board while previewing explores on from the previewed position."""
        if not self.study.previewing:
            return None
        return self.command("pv_play")

    # -- exploring ---------------------------------------------------------------------------

    def play(self, move: Move) -> Played:
        """Play a move into the variation (the game's record is not touched)."""
        study = self.study
        names = self.screen.match.game.names
        position = study.position
        mover, kind = position.to_move, position.cells[move[0]]
        points = study.play(move)
        after = study.position
        then = (
            _("No pair left.")
            if after.is_over()
            else about(names[after.to_move - 1], _("You to move."), _("{name} to move."))
        )
        took = took_sentence(names[mover - 1], move_name(move), kind, points)
        said = StatusLine(_("Variation: {took} {then}").format(took=took, then=then), "info")
        return Played(move, mover, kind, points, said, flying=False, record=False)

    def undo(self) -> Shown:
        if self.study.exploring or self.study.previewing:
            return self.command("undo")
        return self.game_mode.undo()

    def redo(self) -> Shown:
        if self.study.exploring or self.study.undone:
            return self.command("redo")
        return self.game_mode.redo()

    def request_hint(self) -> Shown:
        return Shown(StatusLine(_("Analysis shows every pair's value: the green ones are best."), "hint"))

    def command(self, name: str) -> Shown:
        """The analysis buttons and keys: variation undo/redo, back to game, stepping the best line."""
        if name not in COMMANDS:
            return Shown()
        study = self.study
        said = None
        if name == "undo":
            move = study.undo() if study.exploring else None
            said = _variation_step(move, _("Took back {move_name} from the variation."), _("The variation is empty."))
        elif name == "redo":
            said = _variation_step(study.redo(), _("Replayed {move_name} in the variation."), _("Nothing to redo."))
        elif name == "back_game":
            study.back_to_game()
            said = StatusLine(_("Back to the game. {text}").format(text=self.turn_status().text), "info")
        elif name in ("pv_back", "pv_forward"):
            if not study.step_pv(-1 if name == "pv_back" else 1):
                said = StatusLine(
                    _("No best line to step through yet.") if not study.pv else _("That is the end of the best line."),
                    "quiet",
                )
        elif name == "pv_play":
            line = study.adopt_preview()
            said = StatusLine(
                _("Played {join} into the variation.").format(join=" ".join(move_name(m) for m in line))
                if line
                else _("No best line yet: the search is still starting."),
                "info" if line else "quiet",
            )
        return Shown(said, deselect=True)

    def turn_status(self) -> StatusLine:
        study = self.study
        position = study.position
        count = len(study.variation)
        name = self.screen.match.game.names[position.to_move - 1]
        if not study.exploring:
            if position.is_over():
                return StatusLine(_("Analysing the game position: no pair left."), "quiet")
            said = about(
                name, _("Analysing the game position: you to move."), _("Analysing the game position: {name} to move.")
            )
            return StatusLine(said, "info")
        if position.is_over():
            over = ngettext(
                "Analysing {count} move into a variation: no pair left.",
                "Analysing {count} moves into a variation: no pair left.",
                count,
            )
            return StatusLine(over.format(count=count), "quiet")
        said = about(
            name,
            ngettext(
                "Analysing {count} move into a variation: you to move.",
                "Analysing {count} moves into a variation: you to move.",
                count,
            ),
            ngettext(
                "Analysing {count} move into a variation: {name} to move.",
                "Analysing {count} moves into a variation: {name} to move.",
                count,
            ),
            count=count,
        )
        return StatusLine(said, "info")

    # -- time --------------------------------------------------------------------------------

    def tick(self) -> StatusLine | None:
        """Follow the game and collect new values; then what the pointed pair opens."""
        self.study.tick()
        self._update_opening()
        return None

    def _update_opening(self) -> None:
        """Recompute "what this move opens" when the pointer, the selection or the values change."""
        study, screen = self.study, self.screen
        if study.previewing:
            self.opening, self._opening_for = None, None
            return
        analysed = study.analysis
        key = (screen.hover_cell, screen.selected, study.position.key(), id(analysed))
        if key == self._opening_for:
            return
        self._opening_for = key
        move = pick_move(study.position, screen.hover_cell, screen.selected, study.badges())
        self.opening = what_opens(study.position, move) if move is not None else None

    def frame_due(self) -> bool:
        """The game waits, so nothing of the study moves by itself; its pulses are ``pulsing``."""
        return False

    def pulsing(self) -> bool:
        """A search fills in values, the preview's next move is ringed, or the pointed pair's gifts pulse."""
        return self.study.live.searching or self.study.previewing or self.opening is not None

    def close(self) -> None:
        """Stop the live search; the next tick starts it again on the study position."""
        self.study.close()

    # -- what it looks like ------------------------------------------------------------------

    def opening_text(self) -> str | None:
        """The status line while a pair is pointed at: what it opens, and its value."""
        opening = self.opening
        if opening is None:
            return None
        badge = self.study.badges().get(opening.move)
        if badge is None:
            return describe_opening(opening)
        return _("{opening} · value {value}").format(opening=describe_opening(opening), value=badge.describe())

    def status_line(self) -> tuple[StatusLine, str]:
        """What the pointed pair opens, in place of the status and the shortcuts; else the status."""
        hover = self.opening_text()
        return (StatusLine(hover, "hint"), "") if hover else (self.screen.status, KEYS_HELP)

    def notice(self) -> tuple[str, str] | None:
        return None

    def hint_move(self) -> Move | None:
        study = self.study
        return study.pv[study.pv_step] if study.previewing and study.pv_step < len(study.pv) else None

    def last_move(self) -> Move | None:
        line = self.screen.match.game.moves + self.study.variation
        return line[-1] if line else None

    def panel_label(self) -> str:
        study = self.study
        if study.exploring:
            return _("analysis · variation +{len}").format(len=len(study.variation))
        return _("analysis")

    def first_number(self) -> int:
        """The number of the next move at the study position, counted from the game's start."""
        return self.screen.match.game.ply + len(self.study.variation) + 1

    def draw(self, surface: pygame.Surface) -> None:
        study_view.draw_study(self, surface)
