"""The game screen: the board, the side panel, and everything a player can do there.

Input changes the match only through a handful of methods (``click_cell``,
``undo``, ``redo``, ``request_hint``, ``browse``...), which the keyboard, the
mouse, the panel buttons and the tests all call. What a move, an undo or a hint
means is the screen's mode's (``play_mode.PlayMode``): ``GameMode`` plays the
game, and its solver's moves go through the same ``play`` as a human's;
``StudyMode`` (analysis on) plays into a variation on a study board while the game
waits, untouched. The screen keeps what both share (the selection and the cursor,
browsing the moves, the animations, the status line, the widgets) and is the
``PlayScreen`` the modes see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
from pygame_gui.core import ObjectID

from battle.atlas.catalogue import deal_at_start
from battle.i18n import _
from battle.rules.board import Move, Position, cell_name
from battle.rules.tiles import EMPTY, kind_value
from battle.ui.analysis.analysis_mode import AnalysisMode
from battle.ui.analysis.study_mode import INTRO, StudyMode
from battle.ui.files.game_history import local_entry, store_game
from battle.ui.match import Match
from battle.ui.play import play_files, play_view
from battle.ui.play.autosave import RETRY_CLAIM
from battle.ui.play.game_mode import GameMode
from battle.ui.play.result_scene import ResultScene
from battle.ui.play_mode import TOOLS, Played, PlayMode, Shown
from battle.ui.scene import Scene
from battle.ui.sound.events import Event, end_event, move_event
from battle.ui.widgets.animations import FLY_DELAY, Animation, FlyingPoints, Pulse, Removal
from battle.ui.widgets.board_view import BoardState
from battle.ui.widgets.buttons import Button, set_enabled
from battle.ui.widgets.dialogs import FileDialogSlot, Picked
from battle.ui.widgets.hud import StatusLine
from battle.ui.widgets.layout import (
    DIRECTIONS,
    Layout,
    cell_at,
    clamp_first_row,
    follow_row,
    move_at,
    nearest_cell,
    next_cell,
)
from battle.ui.widgets.panel import PanelInfo
from battle.ui.widgets.tile_picking import apply_pick, pick_tile, selection_status

if TYPE_CHECKING:
    from collections.abc import Callable

    from battle.atlas.catalogue import Par
    from battle.rules.game import Game
    from battle.storage.saved_games import SavedGame
    from battle.ui.scene import Host

PULSE_INTERVAL = 0.05
"""Frames 20 times a second for what only pulses (the hint, the selected tile's twins) or a search
that fills in values: a 1.6 s colour pulse moves a tenth of its swing per frame at that rate."""
THINKING_INTERVAL = 1 / 30
"""Frames 30 times a second while only a clock runs: the solver's thinking card (its spinner and
tenths of a second), a busy status line, a search of the game's. The spinner turns as smoothly to
the eye as at 60, and the window's share of a core, which the search beside it on two cores would
have, halves (``benchmarks/bench_ui.py``)."""


class PlayScene(Scene):
    files: FileDialogSlot
    presses_before_dialogs = True  # Save, Load and the rest answer even over a file dialog
    """The game screen (see the module docstring), and the ``PlayScreen`` its modes work on."""

    local = True
    """The match is this window's own, autosaved, and the title offers its rematch (an online
    game's screen, a subclass, shows a game that lives on its server)."""

    def __init__(self, app: Host, match: Match, notice: str | None = None, notice_kind: str = "info") -> None:
        super().__init__(app)
        self.match = match
        self.clock = 0.0
        self.selected: int | None = None
        self.cursor: int | None = None
        self.cursor_visible = False
        self.browse_ply: int | None = None
        self.browse_position: Position | None = None
        self.animations: list[Animation] = []
        self.first_row = 0
        self.hover_move: int | None = None
        self.mouse_pos: tuple[int, int] = (-1, -1)
        self.files = FileDialogSlot(app)
        self.save_problem: str | None = None
        """Why the last autosave failed; shown over the board until a save succeeds again."""
        self.save_waiting = False
        """Another copy holds the game: its claim is tried again every ``RETRY_CLAIM`` seconds."""
        self.taken_up: SavedGame | None = None
        """The record another copy changed and let go: the next frame plays on from it."""
        self._claim_retry = 0.0
        self.buttons: dict[str, Button] = {}
        self.move_list: list[tuple[int, int, str, int]] = []
        self.hover_cell: int | None = None
        self.game_mode = GameMode(self)
        """The game in play: kept (with its searches and hint) while the game is studied."""
        self.mode: PlayMode = self.game_mode
        """What clicks, undo and the hint mean now: the game mode, or a ``StudyMode`` while analysis is on."""
        self._par_of: tuple[Game, Par | None] | None = None
        self.par()  # the catalogue loads here on the first game, not on a drawing frame
        self._par_asked = False
        """Whether the par finder was told of this game's deal (at the screen's first frame)."""
        self.refresh()
        self.status = StatusLine(notice, notice_kind) if notice else self.turn_status()

    # -- convenience -----------------------------------------------------------------------

    @property
    def layout(self) -> Layout:
        return self.app.layout

    @property
    def game(self) -> Game:
        return self.match.game

    @property
    def position(self) -> Position:
        return self.match.game.position

    @property
    def board_position(self) -> Position:
        """The position clicks act on: the study position in analysis mode, else the game's."""
        return self.mode.position

    @property
    def analysis(self) -> AnalysisMode | None:
        """The study board while analysis mode is on, else None."""
        return self.mode.study if isinstance(self.mode, StudyMode) else None

    @property
    def browsing(self) -> bool:
        return self.browse_ply is not None

    def shown_position(self) -> Position:
        """The position the board shows (the browsed one, or the mode's: the game's, the study's, a preview)."""
        if self.browsing and self.browse_position is not None:
            return self.browse_position
        return self.mode.shown_position()

    def dialog_open(self) -> bool:
        return self.files.is_open()

    def par(self) -> Par | None:
        """The game's par when its deal is catalogued and it began at the deal's start (see
        ``Catalogue.par_at_start``); once found, looked up again only when the screen shows another
        game (a par worked out in the background enters the catalogue while the game is on)."""
        game = self.game
        if self._par_of is None or self._par_of[0] is not game or self._par_of[1] is None:
            self._par_of = (game, self.app.catalogue.par_at_start(game.deal_number, game.start))
        return self._par_of[1]

    def par_deal(self) -> int | None:
        """The deal whose par this game is compared with: its number when it began at the deal's start."""
        return deal_at_start(self.game.deal_number, self.game.start)

    def want_par(self) -> None:
        """A game of a deal no catalogue knows: its par is worked out in the background (if the settings allow)."""
        finder = self.app.par_finder
        number = self.par_deal()
        if finder is not None and number is not None and self.par() is None:
            finder.want(number)

    def background_par_allowed(self) -> None:
        self._par_asked = False  # the next frame asks, as a game's first frame does

    def animating(self) -> bool:
        return any(
            not animation.done(self.clock)
            for animation in self.animations
            if isinstance(animation, (Removal, FlyingPoints))
        )

    def refresh(self) -> None:
        """Derived data that only changes with the game (drawn every frame, computed once)."""
        self.move_list = self.game.move_list()
        self.first_row = follow_row(self.layout.panel, len(self.move_list))

    def viewer_seat(self) -> int | None:
        """The seat of the player at this window (the other side is the solver); None in a hot-seat game."""
        solver = self.match.solver_side
        return None if solver is None else 3 - solver

    def autosave(self) -> None:
        play_files.autosave(self)

    def show_result(self) -> None:
        result = self.game.result()
        self.app.sounds.play(end_event(result.winner if result else None, self.viewer_seat()))
        self.remember_in_history()
        self.app.stack.push(ResultScene(self.app, self))

    def remember_in_history(self) -> None:
        """Store the finished game in the history (``game_history``), unless the window keeps no files (a
        demo); what the history has to say goes on the status line, under the result card."""
        if not self.app.autosave_enabled:
            return
        match = self.match
        par = self.par()
        entry = local_entry(
            match.game,
            match.solver_side,
            match.level,
            match.game_id,
            None if par is None else par.value,
            match.from_ply,
        )
        notice = store_game(self.app.history, entry)
        if notice:
            self.status = StatusLine(notice, "warn")

    # -- widgets ---------------------------------------------------------------------------

    def build_ui(self) -> None:
        manager = self.app.manager
        self.buttons = {}
        specs = (*self.mode.buttons, *TOOLS)
        for (key, label, tip), rect in zip(specs, self.layout.panel.buttons, strict=True):
            object_id = ObjectID(class_id="@panel_button", object_id="#primary" if key == "hint" else None)
            button = Button(pygame.Rect(rect.as_tuple()), _(label), manager, tool_tip_text=_(tip), object_id=object_id)
            self.buttons[key] = button
            self.elements.append(button)
        self.first_row = clamp_first_row(self.layout.panel, self.first_row, len(self.move_list))
        self._update_buttons()

    def _update_buttons(self) -> None:
        for key, on in self.mode.enabled_buttons().items():
            button = self.buttons.get(key)
            if button is None:
                continue
            set_enabled(button, on)

    def on_pause(self) -> None:
        self.mode.close()
        super().on_pause()

    def on_exit(self) -> None:
        self.game_mode.cancel_searches()
        self.mode.close()
        self.files.close()
        super().on_exit()

    def set_analysis(self, on: bool) -> None:
        """Turn analysis mode on (a study board with live values) or off (back to the game)."""
        if on == isinstance(self.mode, StudyMode):
            return
        if self.browsing:
            self.stop_browsing()
        self.selected = None
        if on:
            self.game_mode.set_aside()  # the game waits while it is being studied
            self.mode = StudyMode(self, self.playing_mode())
            self.status = StatusLine(_(INTRO), "hint")
        else:
            self.mode.close()
            self.mode = self.playing_mode()
            self.status = StatusLine(_("Analysis off. {text}").format(text=self.turn_status().text), "info")
        self.clear_ui()
        self.build_ui()

    def playing_mode(self) -> PlayMode:
        """The mode of the game itself, which analysis returns to."""
        return self.game_mode

    # -- input -----------------------------------------------------------------------------

    def controls(self) -> dict[str, Button]:
        return self.buttons

    def handle_input(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame.MOUSEMOTION:
            self.mouse_pos = event.pos
            self.hover_cell = cell_at(self.layout, event.pos)
            if self.mode.shows_move_list:
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
                elif not self.mode.take_right_click():
                    self.deselect()
        elif kind == pygame.KEYDOWN:
            self.key(event.key, event.mod)

    def command(self, name: str) -> None:
        """A panel button or its shortcut: the screen's own action, else the mode's."""
        action = self.actions().get(name)
        if action is None:
            self.show(self.mode.command(name))
        else:
            action()

    def actions(self) -> dict[str, Callable[[], object]]:
        return {
            "undo": self.undo,
            "redo": self.redo,
            "hint": self.request_hint,
            "new": self.app.show_title,
            "save": lambda: play_files.open_dialog(self, "save"),
            "load": lambda: play_files.open_dialog(self, "load"),
            "analyse": lambda: self.set_analysis(self.analysis is None),
            "edit": lambda: self.app.open_editor(self.shown_position()),
            "review": self.open_review,
        }

    def open_review(self) -> None:
        """The game so far in the review screen; with no move yet, the status line says there is nothing to review."""
        if self.game.ply == 0:
            self.status = StatusLine(_("No moves to review yet."), "quiet")
        else:
            self.app.open_review(self.game)

    def key(self, key: int, mod: int = 0) -> None:
        if not mod & (pygame.KMOD_CTRL | pygame.KMOD_META) and key in self.mode.keys:
            self.command(self.mode.keys[key])
            return
        if self.browse_ply is not None:
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
        shortcuts = {
            pygame.K_u: "undo",
            pygame.K_r: "redo",
            pygame.K_h: "hint",
            pygame.K_n: "new",
            pygame.K_a: "analyse",
            pygame.K_e: "edit",
            pygame.K_v: "review",
        }
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
        if index is not None and self.mode.shows_move_list:
            self.browse(index + 1)
            return
        if self.browsing:
            self.stop_browsing()
            return
        cell = cell_at(self.layout, pos)
        taken = self.mode.take_board_click() if cell is not None else None
        if taken is not None:
            self.show(taken)
            return
        if cell is None:
            if self.layout.mat.contains(pos) and self.selected is not None:
                self.deselect()
            return
        self.cursor_visible = False
        self.cursor = cell
        self.click_cell(cell)

    def file_picked(self, picked: Picked) -> None:
        """A file chosen in the save or load dialog."""
        play_files.file_picked(self, picked)

    def scroll(self, rows: int) -> None:
        self.first_row = clamp_first_row(self.layout.panel, self.first_row + rows, len(self.move_list))

    # -- selecting and playing -------------------------------------------------------------

    def click_cell(self, cell: int) -> None:
        """A click (or Enter) on a cell: select, pair up, or say why not."""
        position = self.board_position
        if self.browsing:
            self.stop_browsing()
            return
        refusal = self.mode.refusal()
        if refusal is not None:
            self.app.sounds.play(Event.REFUSED)
            self.status = refusal
            return
        kind = position.cells[cell]
        if kind == EMPTY:
            if self.selected is not None:
                self.deselect()
            else:
                self.status = StatusLine(_("{cell_name} is empty.").format(cell_name=cell_name(cell)), "quiet")
            return
        selected = None if self.selected is None or position.cells[self.selected] == EMPTY else self.selected
        pick = pick_tile(position, selected, cell)
        if pick.status is not None or pick.prefix:
            self.app.sounds.play(Event.REFUSED)
        apply_pick(self, pick)

    def select(self, cell: int, prefix: str = "") -> None:
        if not prefix:
            self.app.sounds.play(Event.SELECT)
        self.selected = cell
        self.status = selection_status(self.board_position, cell, prefix)

    def deselect(self) -> None:
        if self.selected is not None:
            self.selected = None
            self.status = StatusLine(_("Selection cleared."), "quiet")

    def play(self, move: Move) -> None:
        """Play a legal move of the board's position: into the game, or into the variation in analysis mode."""
        self.show_played(self.mode.play(move))

    def show_played(self, played: Played) -> None:
        """A move the mode played: the pair lifts off, a game's points fly to the mover's score."""
        viewer = self.viewer_seat()
        opponent = played.flying and viewer is not None and played.mover != viewer
        self.app.sounds.play(move_event(opponent), kind_value(played.kind))
        self.animations.append(Removal(played.move, played.kind, self.clock))
        if played.flying:
            flying = FlyingPoints(f"+{played.points}", played.points, played.mover, played.move, self.clock + FLY_DELAY)
            self.animations.append(flying)
            self.animations.append(Pulse(played.mover, flying.start + flying.duration))
        self.selected = None
        if played.record:
            self.refresh()
        if played.save:
            self.autosave()
        if played.status is not None:
            self.status = played.status

    def show(self, shown: Shown) -> None:
        """What the mode's undo, redo, hint, command or news changed."""
        if shown.reset:
            self.animations = []
            self.refresh()
        if shown.deselect or shown.rewound or shown.reset:
            self.selected = None
        if shown.rewound:
            self.animations = [a for a in self.animations if isinstance(a, Pulse)]
            self.refresh()
            self.autosave()
        for move, kind in shown.replayed:
            self.animations.append(Removal(move, kind, self.clock))
        for played in shown.played:
            self.show_played(played)
        if shown.status is not None:
            self.status = shown.status

    def turn_status(self) -> StatusLine:
        return self.mode.turn_status()

    def move_cursor(self, direction: str | None) -> None:
        free = self.board_position.free_cells()
        start = self.cursor if self.cursor_visible else self.selected
        if direction is None:
            self.cursor = start if start is not None else next_cell(free, None, (0, 0))
        else:
            self.cursor = next_cell(free, start, DIRECTIONS[direction])
        self.cursor_visible = self.cursor is not None

    # -- undo, redo, hint ------------------------------------------------------------------

    def undo(self) -> None:
        if self.browsing:
            self.stop_browsing()
        self.show(self.mode.undo())

    def redo(self) -> None:
        if self.browsing:
            self.stop_browsing()
        self.show(self.mode.redo())

    def request_hint(self) -> None:
        if self.browsing:
            self.stop_browsing()
        self.show(self.mode.request_hint())

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
        self.status = StatusLine(
            _("Browsing the game: Left/Right step through the moves; any other key or a click on the board returns."),
            "quiet",
        )

    def stop_browsing(self) -> None:
        self.browse_ply = None
        self.browse_position = None
        self.first_row = follow_row(self.layout.panel, len(self.move_list))
        self.status = self.turn_status()

    # -- time ------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.clock += dt
        if not self._par_asked:
            self._par_asked = True
            self.want_par()
        now = self.clock
        self.animations = [a for a in self.animations if not a.done(now)]
        self.status = self.game_mode.poll() or self.status
        if self.paused:
            return
        if self.save_waiting or self.taken_up is not None:
            self._retry_claim(dt)
            if self.app.stack.top is not self:
                return  # the game screen was replaced by the game another copy left
        self.status = self.mode.tick() or self.status
        self._keep_cursor_on_a_tile()
        self._update_buttons()

    def _retry_claim(self, dt: float) -> None:
        """While another copy holds the game, try its claim once every ``RETRY_CLAIM`` seconds."""
        self._claim_retry += dt
        if self.save_waiting and self._claim_retry >= RETRY_CLAIM:
            self._claim_retry = 0.0
            self.autosave()
        play_files.take_up(self)

    def _keep_cursor_on_a_tile(self) -> None:
        """A move (either side's, an undo, a variation) that empties the cursor's cell sends the
        cursor to the nearest free tile, so the arrows and Enter go on from where the player looks."""
        position = self.board_position
        if self.cursor is None or position.cells[self.cursor] != EMPTY:
            return
        self.cursor = nearest_cell(position.free_cells(), self.cursor)
        if self.cursor is None:
            self.cursor_visible = False

    # -- drawing (see play_view) -----------------------------------------------------------

    def next_frame_in(self) -> float | None:
        """Every frame while something moves; 30 a second while a clock runs (the solver's reply, a
        search, the result card's moment); a slow rate while something only pulses; else nothing
        until input."""
        if self.animations:
            return 0.0
        if self.game_mode.searching() or self.status.busy or self.mode.frame_due():
            return THINKING_INTERVAL
        pulsing = self.selected is not None or self.mode.pulsing()
        if pulsing:
            return PULSE_INTERVAL
        return RETRY_CLAIM if self.save_waiting else None

    def board_state(self) -> BoardState:
        return play_view.board_state(self)

    def panel_info(self) -> PanelInfo:
        return play_view.panel_info(self)

    def draw(self, surface: pygame.Surface) -> None:
        play_view.draw_play(self, surface)


_ARROWS = {pygame.K_LEFT: "left", pygame.K_RIGHT: "right", pygame.K_UP: "up", pygame.K_DOWN: "down"}
_MODIFIER_KEYS = {
    pygame.K_LSHIFT,
    pygame.K_RSHIFT,
    pygame.K_LCTRL,
    pygame.K_RCTRL,
    pygame.K_LALT,
    pygame.K_RALT,
    pygame.K_LGUI,
    pygame.K_RGUI,
    pygame.K_CAPSLOCK,
    pygame.K_NUMLOCK,
    pygame.K_MODE,
}
