"""The puzzle screen: a position from the shipped set, "Find the best move for Player 1", and the
flow of ``mahjong-battle puzzles play`` with the game screen's board and panel.

A pair is picked as in a game (two clicks, or the arrows and Enter). A right move is played
with the removal and flying-points animations, then the solver's reply from the puzzle's
line, and the puzzle goes on or ends ("Solved!" and the rating change). A wrong move is not
played into the puzzle: the board shows the position after it with the solver's refutation
ringed, the status line says what it loses at once and the refutation as soon as the window's
worker has found it (``refutation``); Try again, or a click on the board, goes back. Show
solution plays the rest of the line. The attempt is rated and stored when its outcome is
decided (``trainer``); the filters draw the next puzzle from the puzzles of a theme or a
length.

Showing the solution counts the puzzle as missed, as lichess counts a viewed solution as a
loss: a rating that skipping hard puzzles could not lower would say nothing. So before any
try, the first press of Show solution only says what it costs (``1500 → 1331``) and turns
the button into "Yes, show it"; the second shows it. After a wrong move the attempt is
already counted and the solution comes at once.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIDropDownMenu

from battle.i18n import N_, _
from battle.puzzles import puzzle_words as words
from battle.puzzles.puzzle import Puzzle, PuzzleFormatError
from battle.puzzles.puzzle_file import load_puzzles
from battle.puzzles.session import Attempt
from battle.puzzles.themes import THEMES, theme_word
from battle.rules.board import Move, Position
from battle.rules.errors import BattleError
from battle.rules.tiles import EMPTY, kind_value
from battle.ui.files.game_history import notice_text
from battle.ui.puzzles import puzzle_view
from battle.ui.puzzles.puzzle_layout import puzzle_panel
from battle.ui.puzzles.refutation import WrongTry, refutation_search
from battle.ui.puzzles.trainer import PuzzleTrainer
from battle.ui.scene import Scene
from battle.ui.sound.events import Event, move_event
from battle.ui.widgets.animations import FLY_DELAY, Animation, FlyingPoints, Pulse, Removal
from battle.ui.widgets.board_view import BoardState
from battle.ui.widgets.buttons import Button, set_enabled
from battle.ui.widgets.hud import StatusLine, draw_flying, draw_status
from battle.ui.widgets.layout import DIRECTIONS, cell_at, next_cell
from battle.ui.widgets.panel import PanelInfo
from battle.ui.widgets.tile_picking import apply_pick, pick_tile, selection_status

if TYPE_CHECKING:
    from pygame_gui.core import UIElement

    from battle.puzzles.session import PuzzleSession
    from battle.search_worker import Task
    from battle.ui.scene import Host

REPLY_SECONDS = 0.6
"""The solver's reply waits this long after the right move: the pair's removal (0.26 s) is over and
the reply reads as a move of its own, as the solver's replies in a game wait at least 0.45 s."""
PULSE_INTERVAL = 0.05
"""Frames 20 times a second while only something pulses (the selection's twins, the refutation's ring)."""
ANY_THEME = N_("Any theme")
ANY_LENGTH = N_("Any length")
KEYS_HELP = N_("T try again · S solution · N next · Esc back")
COMMAND_KEYS = {pygame.K_t: "retry", pygame.K_s: "solution", pygame.K_n: "next"}
"""The letters that stand for a button: the command each sends."""


@functools.cache
def shipped_puzzles() -> tuple[Puzzle, ...]:
    """The set that comes with the game, read once per run: its 600 puzzles take 0.4 s to read and check."""
    return tuple(load_puzzles())


class PuzzleScene(Scene):
    """The puzzle screen (see the module docstring)."""

    def __init__(self, app: Host, puzzles: Sequence[Puzzle] | None = None, rng: random.Random | None = None) -> None:
        super().__init__(app)
        problem = None
        if puzzles is None:
            try:
                puzzles = shipped_puzzles()
            except PuzzleFormatError as error:
                puzzles, problem = (), _("The puzzles did not load: {error}").format(error=error)
        self.trainer = PuzzleTrainer(puzzles, app.history, rng)
        self.clock = 0.0
        self.shown: Position | None = None
        """The board as shown: the puzzle's position, a step behind it while a move animates, or the
        position after a wrong move."""
        self.last_move: tuple[Move, int] | None = None
        """The last move shown on the board and its mover, marked on its empty cells."""
        self.queue: list[Move] = []
        """Moves still to show one by one: the solver's reply, or the rest of the solution."""
        self.next_at = 0.0
        self.line_note = ""
        """What the status line says before the queued moves' outcome: the right move, the solution."""
        self.solution_asked = False
        """Show solution was pressed once on a puzzle not yet counted: the next press shows it."""
        self.wrong: WrongTry | None = None
        self.refute_job: Task[Move | None] | None = None
        self.selected: int | None = None
        self.cursor: int | None = None
        self.cursor_visible = False
        self.animations: list[Animation] = []
        self.widgets: dict[str, UIElement] = {}
        self.status = StatusLine("")
        self.new_puzzle()
        if problem is not None:
            self.status = StatusLine(problem, "error")
        self._tell_notices()

    # -- the puzzle ------------------------------------------------------------------------

    @property
    def session(self) -> PuzzleSession | None:
        return self.trainer.session

    @property
    def side(self) -> int:
        session = self.session
        return session.side if session is not None else 1

    def next_puzzle(self) -> None:
        """A new puzzle of the filtered set, with the buttons it allows."""
        self.new_puzzle()
        self._refresh_buttons()

    def new_puzzle(self) -> None:
        """The next puzzle of the filtered set (none when the filters leave none)."""
        self._drop_wrong()
        puzzle = self.trainer.pick()
        self.solution_asked = False
        self.queue = []
        self.animations = []
        self.selected = None
        self.last_move = None
        session = self.session
        if puzzle is None or session is None:
            self.shown = None
            self.status = StatusLine(
                words.no_puzzle(self.trainer.theme, self.trainer.length, len(self.trainer.puzzles)), "warn"
            )
            return
        self.shown = session.position.copy()
        self.status = StatusLine(words.ask(session.side, 0), "info")

    def busy(self) -> bool:
        """Whether moves are still being shown (a click waits for them)."""
        return bool(self.queue)

    # -- input -----------------------------------------------------------------------------

    def controls(self) -> dict[str, UIElement]:
        return self.widgets

    def menu_changed(self, menu: object, text: str) -> None:
        self.filter_changed(menu, text)

    def handle_input(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame.MOUSEBUTTONDOWN:
            if event.button == 1:
                cell = cell_at(self.app.layout, event.pos)
                if cell is not None:
                    self.cursor_visible = False
                    self.cursor = cell
                    self.click_cell(cell)
                elif self.app.layout.mat.contains(event.pos):
                    self.deselect()
            elif event.button == 3:
                self.deselect()
        elif kind == pygame.KEYDOWN:
            self.key(event.key)

    def key(self, key: int) -> None:
        arrows = {pygame.K_LEFT: "left", pygame.K_RIGHT: "right", pygame.K_UP: "up", pygame.K_DOWN: "down"}
        if key in arrows and self.shown is not None:
            start = self.cursor if self.cursor_visible else self.selected
            self.cursor = next_cell(self.shown.free_cells(), start, DIRECTIONS[arrows[key]])
            self.cursor_visible = self.cursor is not None
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            if self.cursor is not None and self.cursor_visible:
                self.click_cell(self.cursor)
            elif self.shown is not None:
                self.cursor = next_cell(self.shown.free_cells(), self.selected, (0, 0))
                self.cursor_visible = self.cursor is not None
        elif key in COMMAND_KEYS:
            self.command(COMMAND_KEYS[key])
        elif key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            if self.selected is not None:
                self.deselect()
            elif self.wrong is not None:
                self.command("retry")
            else:
                self.command("back")

    def actions(self) -> dict[str, Callable[[], object]]:
        """What the buttons and their keys do."""
        return {
            "retry": self.try_again,
            "solution": self.show_solution,
            "next": self.next_puzzle,
            "back": self.app.stack.pop,
        }

    def filter_changed(self, menu: object, text: str) -> None:
        """A new theme or length: the next puzzle comes from the puzzles that have it."""
        if menu is self.widgets.get("theme"):
            self.trainer.theme = next((theme for theme in THEMES if theme_word(theme) == text), None)
        elif menu is self.widgets.get("length"):
            lengths = {words.length_words(length): length for length in self.trainer.lengths()}
            self.trainer.length = lengths.get(text)
        else:
            return
        self.next_puzzle()

    def click_cell(self, cell: int) -> None:
        """A click (or Enter) on a cell: back from a wrong move's board, select, pair up, or say why not."""
        session, position = self.session, self.shown
        if session is None or position is None:
            return
        if self.wrong is not None:
            self.try_again()
            return
        if session.finished:
            self.status = StatusLine(_("The puzzle is over: Next puzzle (N) for another."), "quiet")
            return
        if self.busy():
            self.status = StatusLine(_("Wait: {what} replies.").format(what=words.name_of(3 - session.side)), "quiet")
            return
        kind = position.cells[cell]
        if kind == EMPTY:
            self.deselect()
            return
        pick = pick_tile(position, self.selected, cell)
        if pick.status is not None or pick.prefix:
            self.app.sounds.play(Event.REFUSED)
        apply_pick(self, pick)

    def select(self, cell: int, prefix: str = "") -> None:
        """Pick up a free tile and name its free twins, as the game screen does."""
        position = self.shown
        assert position is not None
        if not prefix:
            self.app.sounds.play(Event.SELECT)
        self.selected = cell
        self.status = selection_status(position, cell, prefix)

    def deselect(self) -> None:
        self.selected = None

    # -- playing ---------------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Try a legal move of the puzzle's position: right ones are played, wrong ones shown."""
        session = self.session
        assert session is not None and self.shown is not None
        self.selected = None
        self.solution_asked = False
        try:
            attempt = self.trainer.try_move(move)
        except (BattleError, ValueError) as error:
            self.status = StatusLine(str(error), "warn")
            return
        if attempt.correct:
            self._show_move(move)
            note = words.right(attempt)
            if attempt.reply is not None:
                self.queue = [attempt.reply]
                self.next_at = self.clock + REPLY_SECONDS
                self.line_note = note
                self.status = StatusLine(note, "good")
            else:
                self._finish(note)
        else:
            self._show_wrong(attempt)
        self._refresh_buttons()

    def _show_move(self, move: Move) -> None:
        """A move on the shown board, with a game's removal, flying points and score pulse."""
        shown = self.shown
        assert shown is not None
        mover = shown.to_move
        kind = shown.cells[move[0]]
        points = shown.push(move)
        self.app.sounds.play(move_event(mover != self.side), kind_value(kind))
        self.last_move = (move, mover)
        self.animations.append(Removal(move, kind, self.clock))
        flying = FlyingPoints(f"+{points}", points, mover, move, self.clock + FLY_DELAY)
        self.animations.append(flying)
        self.animations.append(Pulse(mover, flying.start + flying.duration))

    def _show_wrong(self, attempt: Attempt) -> None:
        """The board after the wrong move (no points fly: it is not played), the search for its refutation."""
        session = self.session
        assert session is not None
        shown = session.position.copy()
        kind = shown.cells[attempt.move[0]]
        shown.push(attempt.move)
        self.shown = shown
        self.last_move = (attempt.move, session.side)
        self.app.sounds.play(Event.PUZZLE_MISSED)
        self.animations = [Removal(attempt.move, kind, self.clock)]
        self.wrong = WrongTry(attempt)
        if shown.is_over():
            self.wrong.searching = False
            self._say_wrong()
            return
        try:
            self.refute_job = self.app.solver.submit(refutation_search(shown), label="refutation", key=shown.key())
        except RuntimeError as error:  # the worker is shut down: the window is closing
            self.wrong.searching = False
            self.status = StatusLine(
                _("{wrong} No refutation: {error}.").format(wrong=words.wrong(attempt), error=error), "warn"
            )
            return
        self.status = StatusLine(
            _("{wrong} Looking for the refutation...").format(wrong=words.wrong(attempt)),
            "warn",
            busy=True,
            since=self.clock,
        )
        self._tell_notices()

    def _say_wrong(self, problem: str | None = None) -> None:
        wrong = self.wrong
        assert wrong is not None and self.shown is not None
        parts = [words.wrong(wrong.attempt)]
        if wrong.refutation is not None:
            parts.append(words.refutation(self.side, wrong.refutation, self.shown.move_points(wrong.refutation)))
        elif problem is not None:
            parts.append(_("No refutation: {problem}.").format(problem=problem))
        elif self.shown.is_over():
            parts.append(_("The game ends there."))
        parts.append(_(words.TRY_AGAIN))
        self.status = StatusLine(" ".join(parts), "warn")
        self._tell_notices()

    def _drop_wrong(self) -> None:
        if self.refute_job is not None:
            self.app.solver.cancel()
            self.refute_job = None
        self.wrong = None

    def try_again(self) -> None:
        """Back from a wrong move's board to the puzzle's position."""
        session = self.session
        if self.wrong is None or session is None:
            return
        self._drop_wrong()
        self.shown = session.position.copy()
        self.last_move = None
        self.animations = []
        self.status = StatusLine(words.ask(session.side, session.step), "info")
        self._refresh_buttons()

    def show_solution(self) -> None:
        """The rest of the line, played move by move; the attempt counts as missed. On a puzzle not
        yet counted, the first call says so, with the rating it leaves, and the second shows it."""
        session = self.session
        if session is None or session.finished or self.busy():
            return
        if self.trainer.outcome is None and not self.solution_asked:
            self.solution_asked = True
            self.selected = None
            self.status = StatusLine(
                _(
                    "Showing the solution counts this puzzle as missed: your puzzle rating goes from "
                    '{rating:.0f} to {after}. Press "Yes, show it" (S) to see it.'
                ).format(rating=self.trainer.rating.rating, after=self.trainer.rating_if_missed().describe()),
                "warn",
            )
            self._label_solution_button()
            return
        self.solution_asked = False
        self._label_solution_button()
        if self.wrong is not None:
            self.try_again()
        before = session.position.copy()
        self.queue = self.trainer.reveal()
        self.line_note = words.solution(before, self.queue)
        self.next_at = self.clock
        self.selected = None
        self.status = StatusLine(self.line_note, "hint")
        self._refresh_buttons()

    def _line_done(self, reply_words: str) -> None:
        """The queued moves are all shown: the puzzle goes on, or it is over."""
        session = self.session
        assert session is not None
        if session.finished:
            self._finish(self.line_note)
        else:
            self.status = StatusLine(f"{self.line_note} {reply_words} {words.ask(session.side, session.step)}", "info")

    def _finish(self, note: str) -> None:
        session = self.session
        assert session is not None
        outcome = self.trainer.outcome
        parts = [note, words.verdict(session.solved)]
        self.app.sounds.play(Event.PUZZLE_SOLVED if session.solved else Event.PUZZLE_MISSED)
        if outcome is not None:
            parts.append(words.rating_change(outcome))
        self.status = StatusLine(" ".join(part for part in parts if part), "good" if session.solved else "warn")
        self._tell_notices()
        self._refresh_buttons()

    def _tell_notices(self) -> None:
        """What the history had to say (a damaged file set aside), once, after the status line's message."""
        told = notice_text(self.trainer.take_notices())
        if told:
            self.status = StatusLine(f"{self.status.text} {told}".strip(), "warn")

    # -- time ------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.clock += dt
        self.animations = [animation for animation in self.animations if not animation.done(self.clock)]
        self._poll_refutation()
        moving = any(isinstance(animation, Removal) for animation in self.animations)
        if self.queue and self.clock >= self.next_at and not moving and self.shown is not None:
            move = self.queue.pop(0)
            points = self.shown.move_points(move)
            self._show_move(move)
            reply_words = words.reply(self.side, move, points)
            if self.queue:
                self.next_at = self.clock + REPLY_SECONDS
            else:
                self._line_done(reply_words)
        if not self.paused:
            self._refresh_buttons()

    def _poll_refutation(self) -> None:
        job = self.refute_job
        if job is None or not job.finished:
            return
        self.app.solver.poll()
        self.refute_job = None
        wrong = self.wrong
        if wrong is None or self.shown is None or job.key != self.shown.key():
            return
        wrong.searching = False
        move = job.result()
        if job.error is None and move is not None and move in self.shown.legal_moves():
            wrong.refutation = move
            self._say_wrong()
        else:
            self._say_wrong(str(job.error) if job.error is not None else None)

    def next_frame_in(self) -> float | None:
        if self.animations or self.queue or self.status.busy:
            return 0.0
        pulsing = self.selected is not None or (self.wrong is not None and self.wrong.refutation is not None)
        return PULSE_INTERVAL if pulsing else None

    # -- widgets ---------------------------------------------------------------------------

    def build_ui(self) -> None:
        manager = self.app.manager
        places = puzzle_panel(self.app.layout)
        self.widgets = {}
        themes: list[str | tuple[str, str]] = [_(ANY_THEME), *map(theme_word, THEMES)]
        lengths: list[str | tuple[str, str]] = [_(ANY_LENGTH), *map(words.length_words, self.trainer.lengths())]
        chosen_length = _(ANY_LENGTH) if self.trainer.length is None else words.length_words(self.trainer.length)
        chosen_theme = theme_word(self.trainer.theme) if self.trainer.theme else _(ANY_THEME)
        self.widgets["theme"] = UIDropDownMenu(themes, chosen_theme, pygame.Rect(places.theme_menu.as_tuple()), manager)
        self.widgets["length"] = UIDropDownMenu(
            lengths, chosen_length, pygame.Rect(places.length_menu.as_tuple()), manager
        )
        for (name, label, tip), place in zip(
            (
                ("retry", _("Try again"), _("Back to the puzzle's position after a wrong move (T)")),
                ("solution", *self._solution_label()),
                ("next", _("Next puzzle"), _("Another puzzle near your rating (N)")),
                ("back", _("Back"), _("Back to the title (Esc)")),
            ),
            places.buttons,
            strict=True,
        ):
            object_id = ObjectID(object_id="#primary") if name == "next" else None
            self.widgets[name] = Button(
                pygame.Rect(place.as_tuple()), label, manager, tool_tip_text=tip, object_id=object_id
            )
        self.elements.extend(self.widgets.values())
        self._refresh_buttons()

    def _solution_label(self) -> tuple[str, str]:
        """Show solution's label and tool tip: "Yes, show it" once pressed on a puzzle not yet counted."""
        if self.solution_asked:
            return _("Yes, show it"), _("Show the solution; the puzzle counts as missed (S)")
        return _("Show solution"), _("Play the rest of the solution; the puzzle counts as missed (S)")

    def _label_solution_button(self) -> None:
        button = self.widgets.get("solution")
        if isinstance(button, Button):
            label, tip = self._solution_label()
            if button.full_text != label:
                button.set_text(label)
                button.set_tooltip(tip)

    def _refresh_buttons(self) -> None:
        self._label_solution_button()
        session = self.session
        enabled = {
            "retry": self.wrong is not None,
            "solution": session is not None and not session.finished and not self.busy(),
            "next": bool(self.trainer.filtered()),
        }
        for name, on in enabled.items():
            button = self.widgets.get(name)
            if isinstance(button, Button):
                set_enabled(button, on)

    def on_exit(self) -> None:
        self._drop_wrong()
        super().on_exit()

    # -- drawing ---------------------------------------------------------------------------

    def board_state(self) -> BoardState:
        return puzzle_view.board_state(self)

    def panel_info(self) -> PanelInfo:
        return puzzle_view.panel_info(self)

    def puzzle_text(self) -> puzzle_view.PuzzleText:
        return puzzle_view.puzzle_text(self)

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        layout = app.layout
        app.board_view.draw(surface, layout, self.board_state())
        app.panel_view.draw(surface, layout.panel, self.panel_info(), layout.scale)
        puzzle_view.draw_puzzle_text(surface, app.fonts, puzzle_panel(layout).text, self.puzzle_text(), layout.scale)
        draw_status(surface, app.fonts, layout, self.status, self.clock, KEYS_HELP)
        for animation in self.animations:
            if isinstance(animation, FlyingPoints):
                draw_flying(surface, app.fonts, layout, animation, self.clock)
