"""The game screen: the board, the side panel, and everything a player can do there.

Input changes the match only through a handful of methods (``click_cell``,
``undo``, ``redo``, ``request_hint``, ``browse``...), which the keyboard, the
mouse, the panel buttons and the tests all call. The solver's moves arrive in
``update`` from the background search and are played through the same path as
a human's, so they get the same animation, autosave and end-of-game check.

In analysis mode (``play_study``) the same clicks act on a study board instead:
moves go into a variation and the game waits, untouched, until analysis is off.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from battle.rules.board import Move, Position, cell_name, move_name
from battle.rules.opens import Opening
from battle.rules.tiles import EMPTY
from battle.rules.wording import pair_words, plural, tile_words, verb
from battle.ui.analysis.analysis_mode import AnalysisMode
from battle.ui.play import play_files, play_view
from battle.ui.play.match import Match
from battle.ui.play.play_study import ANALYSIS_BUTTONS, BUTTONS, STUDY_COMMANDS, STUDY_KEYS, StudyControls
from battle.ui.play.result_scene import ResultScene
from battle.ui.play.thinking import Hint, hint_search, level_move
from battle.ui.scene import Scene, pressed_key
from battle.ui.widgets.animations import FLY_DELAY, FlyingPoints, Pulse, Removal
from battle.ui.widgets.board_view import BoardState
from battle.ui.widgets.buttons import Button
from battle.ui.widgets.dialogs import DIALOG_EVENTS, FileDialogSlot
from battle.ui.widgets.hud import Status
from battle.ui.widgets.layout import DIRECTIONS, cell_at, clamp_first_row, follow_row, move_at, nearest_cell, next_cell
from battle.ui.widgets.panel import PanelInfo

if TYPE_CHECKING:
    from battle.search_worker import Task
    from battle.ui.host import Host

MIN_THINK_SECONDS = 0.45
"""A solver reply that comes back instantly still waits this long: a move needs a moment to be seen."""
RESULT_DELAY = 0.4
PULSE_INTERVAL = 0.05
"""Frames 20 times a second for what only pulses (the hint, the selected tile's twins) or a search
that fills in values: a 1.6 s colour pulse moves a tenth of its swing per frame at that rate."""

def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class PlayScene(StudyControls, Scene):
    def __init__(self, app: Host, match: Match, notice: str | None = None, notice_kind: str = "info",
                 selected: int | None = None) -> None:
        super().__init__(app)
        self.match = match
        self.clock = 0.0
        self.selected: int | None = selected
        self.cursor: int | None = None
        self.cursor_visible = False
        self.hint: Hint | None = None
        self.hint_job: Task | None = None
        self.move_job: Task | None = None
        self.think_started = 0.0
        self.solver_move: tuple[Move, float] | None = None
        self.browse_ply: int | None = None
        self.browse_position: Position | None = None
        self.animations: list = []
        self.first_row = 0
        self.hover_move: int | None = None
        self.mouse_pos: tuple[int, int] = (-1, -1)
        self.files = FileDialogSlot(app)
        self.save_problem: str | None = None
        """Why the last autosave failed; shown over the board until a save succeeds again."""
        self.result_shown = match.game.is_over()
        self.end_at: float | None = None
        self.buttons: dict[str, Button] = {}
        self.rng = random.Random()
        self.move_list: list[tuple[int, int, str, int]] = []
        self.analysis: AnalysisMode | None = None
        """The study board with live values, while analysis mode is on."""
        self.hover_cell: int | None = None
        self.opening: Opening | None = None
        """What the pair under the pointer (or the selected tile's pair) opens, in analysis mode."""
        self._opening_for: tuple | None = None
        self._refresh()
        self.status = Status(notice, notice_kind) if notice else self.turn_status()

    # -- convenience -----------------------------------------------------------------------

    @property
    def layout(self):  # noqa: ANN201 - Layout, from the app
        return self.app.layout

    @property
    def game(self):  # noqa: ANN201
        return self.match.game

    @property
    def position(self) -> Position:
        return self.match.game.position

    @property
    def board_position(self) -> Position:
        """The position clicks act on: the study position in analysis mode, else the game's."""
        return self.analysis.position if self.analysis is not None else self.match.game.position

    @property
    def browsing(self) -> bool:
        return self.browse_ply is not None

    def dialog_open(self) -> bool:
        return self.files.is_open()

    def animating(self) -> bool:
        return any(not animation.done(self.clock) for animation in self.animations
                   if isinstance(animation, (Removal, FlyingPoints)))

    def _refresh(self) -> None:
        """Derived data that only changes with the game (drawn every frame, computed once)."""
        self.move_list = self.game.move_list()
        self.first_row = follow_row(self.layout.panel, len(self.move_list))

    # -- widgets ---------------------------------------------------------------------------

    def build_ui(self) -> None:
        manager = self.app.manager
        self.buttons = {}
        specs = ANALYSIS_BUTTONS if self.analysis is not None else BUTTONS
        for (key, label, tip), rect in zip(specs, self.layout.panel.buttons, strict=True):
            object_id = ObjectID(class_id="@panel_button", object_id="#primary" if key == "hint" else None)
            button = Button(pygame.Rect(rect.as_tuple()), label, manager, tool_tip_text=tip, object_id=object_id)
            self.buttons[key] = button
            self.elements.append(button)
        self.first_row = clamp_first_row(self.layout.panel, self.first_row, len(self.move_list))
        self._update_buttons()

    def _update_buttons(self) -> None:
        study = self.analysis
        if study is None:
            enabled = {
                "undo": self.match.undo_count() > 0,
                "redo": self.match.redo_count() > 0,
                "hint": self.match.human_to_move() and self.hint_job is None,
            }
        else:
            enabled = self.study_buttons()
        for key, on in enabled.items():
            button = self.buttons.get(key)
            if button is None:
                continue
            if on and not button.is_enabled:
                button.enable()
            elif not on and button.is_enabled:
                button.disable()

    def on_pause(self) -> None:
        if self.analysis is not None:
            self.analysis.close()
        super().on_pause()

    def on_exit(self) -> None:
        self.cancel_searches()
        if self.analysis is not None:
            self.analysis.close()
        self.files.close()
        super().on_exit()

    # -- input -----------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame_gui.UI_BUTTON_PRESSED:
            key = pressed_key(event, self.buttons)
            if key is not None:
                self.command(key)
            return
        was_open = self.dialog_open()
        picked = self.files.handle(event)
        if picked is not None:
            play_files.file_picked(self, picked)
            return
        if was_open or kind in DIALOG_EVENTS:
            return
        if kind == pygame.MOUSEMOTION:
            self.mouse_pos = event.pos
            self.hover_cell = cell_at(self.layout, event.pos)
            if self.analysis is None:
                self.hover_move = move_at(self.layout.panel, event.pos, self.first_row, len(self.move_list))
        elif kind == pygame.MOUSEWHEEL:
            if self.layout.panel.moves.contains(self.mouse_pos):
                self.scroll(-event.y)
        elif kind == pygame.MOUSEBUTTONDOWN:
            self.mouse_pos = event.pos
            if event.button == 1:
                self.click(event.pos)
            elif event.button == 3:
                if self.browsing:
                    self.stop_browsing()
                elif self.analysis is not None and self.analysis.previewing:
                    self.analysis.stop_preview()
                else:
                    self.deselect()
        elif kind == pygame.KEYDOWN:
            self.key(event.key, event.mod)

    def command(self, name: str) -> None:
        """A panel button or its shortcut."""
        if name == "undo":
            self.undo()
        elif name == "redo":
            self.redo()
        elif name == "hint":
            self.request_hint()
        elif name == "new":
            self.app.show_title()
        elif name in ("save", "load"):
            play_files.open_dialog(self, name)
        elif name == "analyse":
            self.set_analysis(self.analysis is None)
        elif name == "edit":
            self.app.open_editor(self.shown_position())
        elif name == "review":
            if self.game.ply == 0:
                self.status = Status("No moves to review yet.", "quiet")
            else:
                self.app.open_review(self.game)
        elif self.analysis is not None and name in STUDY_COMMANDS:
            self.study_command(name)

    def key(self, key: int, mod: int = 0) -> None:
        if self.analysis is not None and not mod & (pygame.KMOD_CTRL | pygame.KMOD_META) \
                and key in STUDY_KEYS:
            self.command(STUDY_KEYS[key])
            return
        if self.browsing:
            if key in (pygame.K_LEFT, pygame.K_UP):
                self.browse(self.browse_ply - 1)
            elif key in (pygame.K_RIGHT, pygame.K_DOWN):
                self.browse(self.browse_ply + 1)
            elif key == pygame.K_HOME:
                self.browse(0)
            elif key == pygame.K_END:
                self.browse(self.game.ply)
            elif key not in _MODIFIER_KEYS:
                self.stop_browsing()
            return
        if mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
            if key == pygame.K_s:
                play_files.open_dialog(self, "save")
            elif key == pygame.K_o:
                play_files.open_dialog(self, "load")
            return
        shortcuts = {pygame.K_u: "undo", pygame.K_r: "redo", pygame.K_h: "hint", pygame.K_n: "new",
                     pygame.K_a: "analyse", pygame.K_e: "edit", pygame.K_v: "review"}
        if key in shortcuts:
            self.command(shortcuts[key])
        elif key in _ARROWS:
            self.move_cursor(_ARROWS[key])
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if self.cursor is None or not self.cursor_visible:
                self.move_cursor(None)
            else:
                self.click_cell(self.cursor)
        elif key == pygame.K_ESCAPE:
            self.deselect()

    def click(self, pos: tuple[int, int]) -> None:
        index = move_at(self.layout.panel, pos, self.first_row, len(self.move_list))
        if index is not None and self.analysis is None:
            self.browse(index + 1)
            return
        if self.browsing:
            self.stop_browsing()
            return
        if self.analysis is not None and self.analysis.previewing and cell_at(self.layout, pos) is not None:
            self.study_command("pv_play")  # explore on from the previewed position
            return
        cell = cell_at(self.layout, pos)
        if cell is None:
            if self.layout.mat.contains(pos) and self.selected is not None:
                self.deselect()
            return
        self.cursor_visible = False
        self.cursor = cell
        self.click_cell(cell)

    def scroll(self, rows: int) -> None:
        self.first_row = clamp_first_row(self.layout.panel, self.first_row + rows, len(self.move_list))

    # -- selecting and playing -------------------------------------------------------------

    def click_cell(self, cell: int) -> None:
        """A click (or Enter) on a cell: select, pair up, or say why not."""
        position = self.board_position
        if self.browsing:
            self.stop_browsing()
            return
        if position.is_over():
            if self.analysis is not None:
                self.status = Status("No pair left here. U takes back a variation move; B goes back to the game.",
                                     "quiet")
            else:
                self.status = Status("The game is over. N starts a new one; U takes back the last move.", "quiet")
            return
        if self.match.solver_to_move() and self.analysis is None:
            self.status = Status(f"Wait: {verb(self.game.names[position.to_move - 1], 'is')} thinking.", "quiet")
            return
        kind = position.cells[cell]
        if kind == EMPTY:
            if self.selected is not None:
                self.deselect()
            else:
                self.status = Status(f"{cell_name(cell)} is empty.", "quiet")
            return
        if self.selected is None or position.cells[self.selected] == EMPTY:
            if not position.is_free(cell):
                self.status = Status(
                    f"{cell_name(cell)} ({tile_words(kind)}) is not free: only the top-most and bottom-most "
                    "tile of a column can be taken.", "warn")
                return
            self.select(cell)
            return
        if cell == self.selected:
            self.deselect()
            return
        move = (min(cell, self.selected), max(cell, self.selected))
        reason = position.illegal_reason(move)
        if reason is None:
            self.play(move)
            return
        if position.is_free(cell):
            # another free tile of a different kind: take it as the new selection, and say why
            self.select(cell, prefix=f"{_capital(reason)}. ")
        else:
            self.status = Status(_capital(reason) + ".", "warn")

    def select(self, cell: int, prefix: str = "") -> None:
        position = self.board_position
        self.selected = cell
        kind = position.cells[cell]
        twins = [c for c in position.free_cells() if c != cell and position.cells[c] == kind]
        if twins:
            where = " or ".join(cell_name(c) for c in twins)
            self.status = Status(f"{prefix}{tile_words(kind)} on {cell_name(cell)}: now its twin on {where}.",
                                 "warn" if prefix else "info")
        else:
            self.status = Status(f"{prefix}{tile_words(kind)} on {cell_name(cell)} has no free twin yet.", "warn")

    def deselect(self) -> None:
        if self.selected is not None:
            self.selected = None
            self.status = Status("Selection cleared.", "quiet")

    def play(self, move: Move) -> None:
        """Play a legal move for the side to move, with the removal and flying-points animations.

        In analysis mode the move goes into the variation; the game is not changed.
        """
        if self.analysis is not None:
            self.explore(move)
            return
        position = self.position
        mover = position.to_move
        kind = position.cells[move[0]]
        points = self.game.play(move)
        self.animations.append(Removal(move, kind, self.clock))
        flying = FlyingPoints(f"+{points}", points, mover, move, self.clock + FLY_DELAY)
        self.animations.append(flying)
        self.animations.append(Pulse(mover, flying.start + flying.duration))
        self.selected = None
        self.hint = None
        self.cancel_hint()
        self.end_at = None
        self._refresh()
        self.autosave()
        name = self.game.names[mover - 1]
        after = self.turn_status()
        self.status = Status(f"{verb(name, 'took')} {pair_words(kind)}, {move_name(move)}, for "
                             f"{plural(points, 'point')}. {after.text}", after.kind)

    def turn_status(self) -> Status:
        if self.analysis is not None:
            return self.study_status()
        position = self.position
        if position.is_over():
            result = self.game.result()
            return Status(f"Game over: {result.describe(self.game.names)}." if result else "Game over.", "good")
        name = self.game.names[position.to_move - 1]
        if self.match.solver_to_move():
            return Status(f"{verb(name, 'is')} thinking...", "quiet")
        pairs = plural(len(position.legal_moves()), "pair")
        return Status(f"{name} to move: {pairs} to choose from.", "info")

    def move_cursor(self, direction: str | None) -> None:
        free = self.board_position.free_cells()
        start = self.cursor if self.cursor_visible else self.selected
        if direction is None:
            self.cursor = start if start is not None else next_cell(free, None, (0, 0))
        else:
            self.cursor = next_cell(free, start, DIRECTIONS[direction])
        self.cursor_visible = self.cursor is not None

    # -- undo, redo, hint ------------------------------------------------------------------

    def cancel_searches(self) -> None:
        self.app.solver.cancel()
        self.move_job = None
        self.hint_job = None
        self.solver_move = None

    def cancel_hint(self) -> None:
        if self.hint_job is not None:
            self.app.solver.cancel()
            self.hint_job = None
            if self.status.busy:
                self.status = self.turn_status()

    def _after_history_change(self) -> None:
        self.selected = None
        self.hint = None
        self.animations = [a for a in self.animations if isinstance(a, Pulse)]
        self.result_shown = self.game.is_over()
        self.end_at = None
        self._refresh()
        self.autosave()

    def undo(self) -> None:
        if self.browsing:
            self.stop_browsing()
        if self.analysis is not None and (self.analysis.exploring or self.analysis.previewing):
            self.study_command("undo")
            return
        count = self.match.undo_count()
        if count == 0:
            self.status = Status("Nothing to take back.", "quiet")
            return
        self.cancel_searches()
        taken = self.match.undo()
        self._after_history_change()
        listed = ", ".join(move_name(m) for m in reversed(taken))
        self.status = Status(f"Took back {listed}. {self.turn_status().text}", "info")

    def redo(self) -> None:
        if self.browsing:
            self.stop_browsing()
        if self.analysis is not None and (self.analysis.exploring or self.analysis.undone):
            self.study_command("redo")
            return
        if self.match.redo_count() == 0:
            self.status = Status("Nothing to redo.", "quiet")
            return
        self.cancel_searches()
        before = self.position.cells[:]
        replayed = self.match.redo()
        self._after_history_change()
        for move in replayed:
            self.animations.append(Removal(move, before[move[0]], self.clock))
        listed = ", ".join(move_name(m) for m in replayed)
        self.status = Status(f"Replayed {listed}. {self.turn_status().text}", "info")

    def request_hint(self) -> None:
        if self.browsing:
            self.stop_browsing()
        if self.analysis is not None:
            self.status = Status("Analysis shows every pair's value: the green ones are best.", "hint")
            return
        if self.position.is_over():
            self.status = Status("The game is over: no hint needed.", "quiet")
            return
        if not self.match.human_to_move():
            self.status = Status("Hints are for your own turn.", "quiet")
            return
        if self.hint is not None:
            self.status = self._hint_status(self.hint)
            return
        if self.hint_job is not None:
            return
        self.hint_job = self.app.solver.submit(hint_search(self.position), label="hint", key=self.position.key())
        self.status = Status("Looking for the best move...", "hint", busy=True, since=self.clock)

    def _hint_status(self, hint: Hint) -> Status:
        points = self.position.move_points(hint.move)
        quality = "the perfect move" if hint.exact else "the best move found in the time"
        count = hint.alternatives
        others = f" ({plural(count, 'other move')} {'is' if count == 1 else 'are'} as good)" if count else ""
        return Status(f"Hint: {move_name(hint.move)} for {plural(points, 'point')}, {quality}{others}.", "hint")

    # -- browsing --------------------------------------------------------------------------

    def browse(self, ply: int) -> None:
        """Show the position after ``ply`` moves, read-only."""
        ply = max(0, min(self.game.ply, ply))
        self.browse_ply = ply
        self.browse_position = self.game.position_at(ply)
        self.selected = None
        rows_before = (ply - 1) // 2 if ply > 0 else 0
        panel = self.layout.panel
        if not self.first_row <= rows_before < self.first_row + panel.visible_rows:
            self.first_row = clamp_first_row(panel, rows_before - panel.visible_rows // 2, len(self.move_list))
        self.status = Status("Browsing the game: Left/Right step through the moves; any other key or a click "
                             "on the board returns.", "quiet")

    def stop_browsing(self) -> None:
        self.browse_ply = None
        self.browse_position = None
        self.first_row = follow_row(self.layout.panel, len(self.move_list))
        self.status = self.turn_status()

    def autosave(self) -> None:
        play_files.autosave(self)

    # -- time ------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.clock += dt
        now = self.clock
        self.animations = [a for a in self.animations if not a.done(now)]
        job = self.app.solver.poll()
        if job is not None:
            if job is self.move_job:
                self.move_job = None
                self._solver_answered(job)
            elif job is self.hint_job:
                self.hint_job = None
                self._hint_answered(job)
        if self.paused:
            return
        if self.analysis is not None:
            self.analysis.tick()
            self._update_opening()
        if (self.match.solver_to_move() and self.move_job is None and self.solver_move is None
                and self.hint_job is None and self.analysis is None):
            self.think_started = now
            try:
                run = level_move(self.match.level, self.rng, self.position)
                self.move_job = self.app.solver.submit(run, label="move", key=self.position.key())
            except (ImportError, MemoryError, ValueError) as error:
                # no solver (or an unknown level from an edited file): the game goes on hot seat
                self.match.solver_side = None
                self.status = Status(f"The solver is not available ({error}); both sides are played here.",
                                     "error")
        if (self.solver_move is not None and now >= self.solver_move[1] and not self.browsing
                and self.analysis is None and not self.dialog_open()
                and not any(isinstance(a, Removal) for a in self.animations)):
            move, _ = self.solver_move
            self.solver_move = None
            if self.match.solver_to_move() and move in self.position.legal_moves():
                self.play(move)
        if (self.game.is_over() and not self.result_shown and not self.browsing and self.analysis is None
                and not self.dialog_open()):
            if self.animating():
                self.end_at = None
            elif self.end_at is None:
                self.end_at = now + RESULT_DELAY
            elif now >= self.end_at:
                self.result_shown = True
                self.app.stack.push(ResultScene(self.app, self))
        self._keep_cursor_on_a_tile()
        self._update_buttons()

    def _keep_cursor_on_a_tile(self) -> None:
        """A move (either side's, an undo, a variation) that empties the cursor's cell sends the
        cursor to the nearest free tile, so the arrows and Enter go on from where the player looks."""
        position = self.board_position
        if self.cursor is None or position.cells[self.cursor] != EMPTY:
            return
        self.cursor = nearest_cell(position.free_cells(), self.cursor)
        if self.cursor is None:
            self.cursor_visible = False

    def _solver_answered(self, job: Task) -> None:
        position = self.position
        if job.key != position.key() or not self.match.solver_to_move():
            return
        legal = position.legal_moves()
        move = job.result()
        if job.error is not None or move not in legal:
            reason = f"the solver failed ({job.error})" if job.error is not None else "the solver gave no move"
            self.status = Status(f"{_capital(reason)}; it takes its biggest pair instead.", "error")
            move = max(legal, key=position.move_points)
        self.solver_move = (move, max(self.clock, self.think_started + MIN_THINK_SECONDS))

    def _hint_answered(self, job: Task) -> None:
        if job.key != self.position.key():
            return
        hint = job.result()
        if job.error is not None or not isinstance(hint, Hint):
            self.status = Status(f"No hint: {job.error or 'the search found no move'}.", "error")
            return
        self.hint = hint
        self.status = self._hint_status(hint)

    # -- drawing (see play_view) -----------------------------------------------------------

    def next_frame_in(self) -> float | None:
        """Every frame while something moves or a timer runs (the solver's reply, the result card);
        a slow rate while something only pulses or a search fills in values; else nothing until input."""
        waiting = (self.move_job is not None or self.hint_job is not None or self.solver_move is not None
                   or self.status.busy)
        if self.animations or waiting or (self.analysis is None and not self.browsing and self.match.solver_to_move()):
            return 0.0
        if (self.game.is_over() and not self.result_shown and not self.browsing and self.analysis is None
                and not self.dialog_open()):
            return 0.0  # the result card is due (``end_at``) or about to be
        study = self.analysis
        pulsing = (self.selected is not None or (self.hint is not None and not self.browsing)
                   or (study is not None and (study.live.searching or study.previewing or self.opening is not None)))
        return PULSE_INTERVAL if pulsing else None

    def board_state(self) -> BoardState:
        return play_view.board_state(self)

    def panel_info(self) -> PanelInfo:
        return play_view.panel_info(self)

    def draw(self, surface: pygame.Surface) -> None:
        play_view.draw_play(self, surface)


_ARROWS = {pygame.K_LEFT: "left", pygame.K_RIGHT: "right", pygame.K_UP: "up", pygame.K_DOWN: "down"}
_MODIFIER_KEYS = {pygame.K_LSHIFT, pygame.K_RSHIFT, pygame.K_LCTRL, pygame.K_RCTRL, pygame.K_LALT, pygame.K_RALT,
                  pygame.K_LGUI, pygame.K_RGUI, pygame.K_CAPSLOCK, pygame.K_NUMLOCK, pygame.K_MODE}
