"""Analysis mode on the game screen: turning it on and off, exploring, stepping the best line.

A mixin of ``PlayScene`` (kept in its own file so the scene stays readable):
these methods read and set the scene's state; the study board itself, its
variation and the live values live in ``analysis_mode.AnalysisMode``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from battle.rules.board import Move, Position, move_name
from battle.rules.opens import Opening, describe_opening, what_opens
from battle.rules.wording import pair_words, plural, verb
from battle.ui.analysis.analysis_mode import AnalysisMode, pick_move
from battle.ui.widgets.animations import Removal
from battle.ui.widgets.hud import Status

if TYPE_CHECKING:
    from battle.ui.play.play_scene import PlayScene


TOOLS = (
    ("analyse", "Analyse", "Analysis mode: every pair's value, the best line, explore variations (A)"),
    ("edit", "Edit position", "Open this position in the position editor (E)"),
    ("review", "Review", "Grade every move of this game against perfect play (V)"),
)
BUTTONS = (
    ("undo", "Undo", "Take back a move (U); against the solver, your move and its reply"),
    ("redo", "Redo", "Play an undone move again (R)"),
    ("hint", "Hint", "Show the perfect player's move (H)"),
    ("new", "New game", "Start another game (N)"),
    ("save", "Save", "Save the game record, .mbg (Ctrl+S)"),
    ("load", "Load", "Load a game record .mbg or a position .mbp (Ctrl+O)"),
    *TOOLS,
)
ANALYSIS_BUTTONS = (
    ("undo", "Undo", "Take back a move of the variation (U)"),
    ("redo", "Redo", "Replay a variation move (R)"),
    ("back_game", "To game", "Drop the variation: the board shows the game again (B)"),
    ("pv_back", "< Line", "Step back along the best line (comma)"),
    ("pv_forward", "Line >", "Preview the best line one move further (full stop)"),
    ("pv_play", "Play line", "Play the previewed line (or the best move) into the variation (P)"),
    ("analyse", "Analysis off", "Leave analysis mode: back to the game (A)"),
    *TOOLS[1:],
)

STUDY_COMMANDS = ("undo", "redo", "back_game", "pv_back", "pv_forward", "pv_play")
STUDY_KEYS = {pygame.K_b: "back_game", pygame.K_COMMA: "pv_back", pygame.K_PERIOD: "pv_forward",
              pygame.K_p: "pv_play", pygame.K_PAGEUP: "pv_back", pygame.K_PAGEDOWN: "pv_forward"}
"""Keys that mean something only in analysis mode."""


class StudyControls:
    """Analysis-mode methods of the game screen (mixed into ``PlayScene``)."""

    analysis: AnalysisMode | None
    opening: Opening | None
    _opening_for: tuple | None

    def set_analysis(self: PlayScene, on: bool) -> None:
        """Turn analysis mode on (a study board with live values) or off (back to the game)."""
        if on == (self.analysis is not None):
            return
        if self.browsing:
            self.stop_browsing()
        self.selected = None
        self.hint = None
        self.cancel_hint()
        if on:
            self.analysis = AnalysisMode(self.game, self.app.live_analysis)
            self.solver_move = None  # the game waits while it is being studied
        else:
            self.analysis.close()
            self.analysis = None
        self.opening = None
        self._opening_for = None
        self.clear_ui()
        self.build_ui()
        if on:
            self.status = Status("Analysis: each pair shows the final margin it leads to for the mover. Moves "
                                 "played now explore a variation; the game is kept.", "hint")
        else:
            self.status = Status(f"Analysis off. {self.turn_status().text}", "info")

    def explore(self: PlayScene, move: Move) -> None:
        """Play a move into the analysis variation (the game's record is not touched)."""
        study = self.analysis
        position = study.position
        mover, kind = position.to_move, position.cells[move[0]]
        points = study.play(move)
        self.animations.append(Removal(move, kind, self.clock))
        self.selected = None
        after = study.position
        then = "no pair left." if after.is_over() else f"{self.game.names[after.to_move - 1]} to move."
        self.status = Status(f"Variation: {verb(self.game.names[mover - 1], 'takes')} {pair_words(kind)}, "
                             f"{move_name(move)}, for {plural(points, 'point')}; {then}", "info")

    def study_command(self: PlayScene, name: str) -> None:
        """The analysis buttons and keys: variation undo/redo, back to game, stepping the best line."""
        study = self.analysis
        self.selected = None
        if name == "undo":
            move = study.undo() if study.exploring else None
            self.status = Status(f"Took back {move_name(move)} from the variation." if move else
                                 "The variation is empty.", "info" if move else "quiet")
        elif name == "redo":
            move = study.redo()
            self.status = Status(f"Replayed {move_name(move)} in the variation." if move else "Nothing to redo.",
                                 "info" if move else "quiet")
        elif name == "back_game":
            study.back_to_game()
            self.status = Status(f"Back to the game. {self.study_status().text}", "info")
        elif name in ("pv_back", "pv_forward"):
            if not study.step_pv(-1 if name == "pv_back" else 1):
                self.status = Status("No best line to step through yet." if not study.pv else
                                     "That is the end of the best line.", "quiet")
        elif name == "pv_play":
            line = study.adopt_preview()
            self.status = Status(f"Played {' '.join(move_name(m) for m in line)} into the variation." if line
                                 else "No best line yet: the search is still starting.", "info" if line else "quiet")

    def study_buttons(self: PlayScene) -> dict[str, bool]:
        """Which analysis-mode buttons can be pressed now."""
        study = self.analysis
        return {
            "undo": study.exploring or self.match.undo_count() > 0,
            "redo": bool(study.undone) or (not study.exploring and self.match.redo_count() > 0),
            "back_game": study.exploring or study.previewing,
            "pv_back": study.previewing,
            "pv_forward": study.pv_step < len(study.pv),
            "pv_play": bool(study.pv),
        }

    def study_status(self: PlayScene) -> Status:
        study = self.analysis
        position = study.position
        count = len(study.variation)
        where = f"{plural(count, 'move')} into a variation" if study.exploring else "the game position"
        if position.is_over():
            return Status(f"Analysing {where}: no pair left.", "quiet")
        name = self.game.names[position.to_move - 1]
        return Status(f"Analysing {where}: {name} to move.", "info")

    def shown_position(self: PlayScene) -> Position:
        """The position the board shows (the browsed one, the PV preview, the study or the game position)."""
        if self.browsing and self.browse_position is not None:
            return self.browse_position
        if self.analysis is not None:
            return self.analysis.shown_position()
        return self.position

    def _update_opening(self: PlayScene) -> None:
        """Recompute "what this move opens" when the pointer, the selection or the values change."""
        study = self.analysis
        if study is None or study.previewing:
            self.opening, self._opening_for = None, None
            return
        analysed = study.analysis
        key = (self.hover_cell, self.selected, study.position.key(), id(analysed))
        if key == self._opening_for:
            return
        self._opening_for = key
        move = pick_move(study.position, self.hover_cell, self.selected, study.badges())
        self.opening = what_opens(study.position, move) if move is not None else None

    def opening_text(self: PlayScene) -> str | None:
        """The status line while a pair is pointed at: what it opens, and its value."""
        opening = self.opening
        if opening is None or self.analysis is None:
            return None
        badge = self.analysis.badges().get(opening.move)
        value = f" · value {badge.describe()}" if badge is not None else ""
        return f"{describe_opening(opening)}{value}"
