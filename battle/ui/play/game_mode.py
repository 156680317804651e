"""Playing the game: the game screen's mode while analysis is off.

Moves go into the match's game with the removal and flying-points animations and an
autosave; undo and redo follow the match's rules; a hint is a search on the window's
worker. The solver's moves arrive from the same worker in ``poll`` and are played in
``tick`` through ``play``, like a human's, so they get the same animation, autosave and
end-of-game check; the result card follows the last move once its animation is over.

The searches and the hint belong to this mode even while the game is studied: the
screen keeps its ``GameMode`` and polls it every frame, whichever mode is on.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from battle.i18n import N_, _, ngettext
from battle.rules.board import Move, Position, move_name
from battle.rules.wording import about, level_word, plural, to_move_sentence, took_sentence
from battle.ui.play.thinking import (
    Hint,
    hint_search,
    level_move,
    plain_level_move,
    plain_time_limit,
    plays_without_kernels,
)
from battle.ui.sound.events import Event
from battle.ui.widgets.animations import Removal
from battle.ui.widgets.hud import StatusLine

if TYPE_CHECKING:
    import pygame

    from battle.search_worker import Task
    from battle.ui.play_mode import ButtonSpec, PlayScreen
from battle.ui.play_mode import Played, Shown

MIN_THINK_SECONDS = 0.45
"""A solver reply that comes back instantly still waits this long: a move needs a moment to be seen."""
RESULT_DELAY = 0.4
"""Seconds between the last animation of a finished game and the result card."""

BUTTONS: tuple[ButtonSpec, ...] = (
    ("undo", N_("Undo"), N_("Take back a move (U); against the solver, your move and its reply")),
    ("redo", N_("Redo"), N_("Play an undone move again (R)")),
    ("hint", N_("Hint"), N_("Show the perfect player's move (H)")),
    ("new", N_("New game"), N_("Start another game (N)")),
    ("save", N_("Save"), N_("Save the game record, .mbg (Ctrl+S)")),
    ("load", N_("Load"), N_("Load a game record .mbg or a position .mbp (Ctrl+O)")),
    ("analyse", N_("Analyse"), N_("Analysis mode: every pair's value, the best line, explore variations (A)")),
)
KEYS_HELP = N_("U undo · R redo · H hint · A analyse · N new")
KEYS_HELP_OVER = N_("U undo · R redo · A analyse · N new")
"""A game over has no hint to ask: its key is not named beside a greyed-out button."""
NO_KEYS: dict[int, str] = {}
"""The game's shortcuts are the screen's own (``PlayScene.key``); the mode adds none."""


class GameMode:
    """The match in play: its moves, undo and redo, the hint, the solver's replies and the result card."""

    buttons = BUTTONS
    keys = NO_KEYS
    keys_help = KEYS_HELP
    runs_game = True
    shows_move_list = True
    previewing = False

    def __init__(self, screen: PlayScreen) -> None:
        self.screen = screen
        self.hint: Hint | None = None
        self.hint_job: Task[Hint | None] | None = None
        self.move_job: Task[Move | None] | None = None
        self.think_started = 0.0
        """When the solver's search of its move began (screen time, for the move's least delay)."""
        self.think_began = 0.0
        """The same moment by ``time.monotonic()``: the card's seconds are the wall clock's, as a busy
        machine's frames are each cut to ``MAX_DT`` and screen time falls behind (4.7 times on one)."""
        self.solver_move: tuple[Move, float] | None = None
        """The solver's chosen move and the screen time it is played at."""
        self.result_shown = screen.match.game.is_over()
        self.end_at: float | None = None
        """When the result card comes up, once the last move's animations are over."""
        self.rng = random.Random()
        match = screen.match
        timed = plain_time_limit(match.level) is not None
        if match.against_solver and not match.game.is_over() and (timed or not plays_without_kernels(match.level)):
            # perfect waits for the kernels and master plays shallower without them, so the compile runs at the
            # window's priority from the game's start, not from the solver's first turn (beside two busy
            # loops the kernels ready 12-20 s sooner; benchmarks/first_reply.py). Frames meanwhile may wait
            # up to ~68 ms for a core (``WINDOW_NICENESS``), while the player thinks.
            screen.app.solver.waited_on.set()
        self.plain_limit: float | None = None
        """While the solver's move comes from plain Python within its level's time (master during a first
        run's compile): those seconds, which the card says."""

    @property
    def position(self) -> Position:
        return self.screen.match.game.position

    def shown_position(self) -> Position:
        return self.position

    # -- buttons and clicks ------------------------------------------------------------------

    def enabled_buttons(self) -> dict[str, bool]:
        match = self.screen.match
        return {
            "undo": match.undo_count() > 0,
            "redo": match.redo_count() > 0,
            "hint": match.human_to_move() and self.hint_job is None,
        }

    def refusal(self) -> StatusLine | None:
        match = self.screen.match
        position = self.position
        if position.is_over():
            return StatusLine(_("The game is over. N starts a new one; U takes back the last move."), "quiet")
        if match.solver_to_move():
            name = match.game.names[position.to_move - 1]
            return StatusLine(about(name, _("Wait: you are thinking."), _("Wait: {name} is thinking.")), "quiet")
        return None

    def command(self, name: str) -> Shown:
        """Every command of the game is the screen's own."""
        return Shown()

    def take_right_click(self) -> bool:
        return False

    def take_board_click(self) -> Shown | None:
        return None

    # -- playing -----------------------------------------------------------------------------

    def play(self, move: Move) -> Played:
        """Play a legal move for the side to move; the screen shows it with the removal and
        flying-points animations and autosaves the game."""
        game = self.screen.match.game
        position = self.position
        mover = position.to_move
        kind = position.cells[move[0]]
        points = game.play(move)
        self.hint = None
        self.cancel_hint()
        self.end_at = None
        name = game.names[mover - 1]
        after = self.turn_status()
        said = StatusLine(f"{took_sentence(name, move_name(move), kind, points)} {after.text}", after.kind)
        return Played(move, mover, kind, points, said, save=True)

    def turn_status(self) -> StatusLine:
        game = self.screen.match.game
        position = self.position
        if position.is_over():
            result = game.result()
            return StatusLine(
                _("Game over: {what}.").format(what=result.describe(game.names)) if result else _("Game over."), "good"
            )
        name = game.names[position.to_move - 1]
        if self.screen.match.solver_to_move():
            return StatusLine(about(name, _("You are thinking..."), _("{name} is thinking...")), "quiet")
        return StatusLine(to_move_sentence(name, len(position.legal_moves())), "info")

    # -- undo, redo, hint --------------------------------------------------------------------

    def cancel_searches(self) -> None:
        self.screen.app.solver.cancel()
        self.screen.app.plain_solver.cancel()
        self.move_job = None
        self.hint_job = None
        self.solver_move = None

    def cancel_hint(self) -> None:
        """Stop the hint's search (a move or the study replaces its "Looking..." on the status line)."""
        if self.hint_job is not None:
            self.screen.app.solver.cancel()
            self.hint_job = None

    def set_aside(self) -> None:
        """The game is to be studied: the hint goes, and a reply the solver has chosen is dropped
        (it is searched again when the game goes on)."""
        self.hint = None
        self.cancel_hint()
        self.solver_move = None

    def _after_history_change(self) -> None:
        """The mode's part of an undo or a redo (the screen's is ``Shown.rewound``)."""
        self.hint = None
        self.result_shown = self.screen.match.game.is_over()
        self.end_at = None

    def undo(self) -> Shown:
        screen = self.screen
        count = screen.match.undo_count()
        if count == 0:
            return Shown(StatusLine(_("Nothing to take back."), "quiet"))
        self.cancel_searches()
        taken = screen.match.undo()
        self._after_history_change()
        listed = ", ".join(move_name(m) for m in reversed(taken))
        return Shown(
            StatusLine(_("Took back {listed}. {text}").format(listed=listed, text=screen.turn_status().text), "info"),
            rewound=True,
        )

    def redo(self) -> Shown:
        screen = self.screen
        if screen.match.redo_count() == 0:
            return Shown(StatusLine(_("Nothing to redo."), "quiet"))
        self.cancel_searches()
        before = self.position.cells[:]
        replayed = screen.match.redo()
        self._after_history_change()
        listed = ", ".join(move_name(m) for m in replayed)
        return Shown(
            StatusLine(_("Replayed {listed}. {text}").format(listed=listed, text=screen.turn_status().text), "info"),
            rewound=True,
            replayed=tuple((move, before[move[0]]) for move in replayed),
        )

    def request_hint(self) -> Shown:
        screen = self.screen
        position = self.position
        if position.is_over():
            return Shown(StatusLine(_("The game is over: no hint needed."), "quiet"))
        if not screen.match.human_to_move():
            return Shown(StatusLine(_("Hints are for your own turn."), "quiet"))
        if self.hint is not None:
            return Shown(self._hint_status(self.hint))
        if self.hint_job is not None:
            return Shown()
        self.hint_job = screen.app.solver.submit(hint_search(position), label="hint", key=position.key())
        return Shown(StatusLine(_("Looking for the best move..."), "hint", busy=True, since=screen.clock))

    def _hint_status(self, hint: Hint) -> StatusLine:
        points = self.position.move_points(hint.move)
        count = hint.alternatives
        if hint.exact:
            said = _("Hint: {move} for {points}, the perfect move.")
            if count:
                said = ngettext(
                    "Hint: {move} for {points}, the perfect move ({count} other move is as good).",
                    "Hint: {move} for {points}, the perfect move ({count} other moves are as good).",
                    count,
                )
        else:
            said = _("Hint: {move} for {points}, the best move found in the time.")
            if count:
                said = ngettext(
                    "Hint: {move} for {points}, the best move found in the time ({count} other move is as good).",
                    "Hint: {move} for {points}, the best move found in the time ({count} other moves are as good).",
                    count,
                )
        shown = said.format(move=move_name(hint.move), points=plural(points, "point"), count=count)
        return StatusLine(shown, "hint")

    # -- time --------------------------------------------------------------------------------

    def poll(self) -> StatusLine | None:
        """Once a frame, whichever mode is on: take a finished search of the solver's move or of the hint;
        what the status line says of it (the hint, a search that failed), if anything."""
        job: Task | None = self.screen.app.solver.poll() or self.screen.app.plain_solver.poll()
        if job is None:
            return None
        if job is self.move_job:
            self.move_job = None
            return self._solver_answered(job)
        if job is self.hint_job:
            self.hint_job = None
            return self._hint_answered(job)
        return None

    def tick(self) -> StatusLine | None:
        """Start the solver's search on its turn, play its move when due, bring the result card."""
        said = None
        screen = self.screen
        match = screen.match
        now = screen.clock
        if self.plain_limit is not None and self.move_job is not None and screen.app.solver.ready:
            # the kernels came while master's plain search ran (a load from the cache takes 1-18 s): their
            # search to the level's whole depth answers instead, in milliseconds; the card's count goes on
            screen.app.plain_solver.cancel()
            self.plain_limit = None
            run = level_move(match.level, self.rng, self.position)
            self.move_job = screen.app.solver.submit(run, label="move", key=self.position.key())
        if match.solver_to_move() and self.move_job is None and self.solver_move is None and self.hint_job is None:
            self.think_started = now
            self.think_began = time.monotonic()
            try:
                if not screen.app.solver.ready and plays_without_kernels(match.level):
                    # the kernels still compile (a first run): plain Python plays this level's move
                    plain = plain_level_move(match.level, self.rng, self.position)
                    self.move_job = screen.app.plain_solver.submit(plain, label="move", key=self.position.key())
                    self.plain_limit = plain_time_limit(match.level)
                else:
                    self.plain_limit = None
                    run = level_move(match.level, self.rng, self.position)
                    self.move_job = screen.app.solver.submit(run, label="move", key=self.position.key())
            except (ImportError, MemoryError, ValueError) as error:
                # no solver (or an unknown level from an edited file): the game goes on hot seat
                match.solver_side = None
                said = StatusLine(
                    _("The solver is not available ({error}); both sides are played here.").format(error=error), "error"
                )
        if (
            self.solver_move is not None
            and now >= self.solver_move[1]
            and not screen.browsing
            and not screen.dialog_open()
            and not any(isinstance(a, Removal) for a in screen.animations)
        ):
            move, _unused = self.solver_move
            self.solver_move = None
            if match.solver_to_move() and move in self.position.legal_moves():
                screen.show_played(self.play(move))
        if self._result_due():
            if screen.animating():
                self.end_at = None
            elif self.end_at is None:
                self.end_at = now + RESULT_DELAY
            elif now >= self.end_at:
                self.result_shown = True
                screen.show_result()
        return said

    def _result_due(self) -> bool:
        screen = self.screen
        return (
            screen.match.game.is_over() and not self.result_shown and not screen.browsing and not screen.dialog_open()
        )

    def _solver_answered(self, job: Task[Move | None]) -> StatusLine | None:
        position = self.position
        if job.key != position.key() or not self.screen.match.solver_to_move():
            return None
        legal = position.legal_moves()
        move = job.result()
        said = None
        if job.error is not None or move not in legal:
            said = StatusLine(
                _("The solver failed ({error}); it takes its biggest pair instead.").format(error=job.error)
                if job.error is not None
                else _("The solver gave no move; it takes its biggest pair instead."),
                "error",
            )
            move = max(legal, key=position.move_points)
        self.solver_move = (move, max(self.screen.clock, self.think_started + MIN_THINK_SECONDS))
        return said

    def _hint_answered(self, job: Task[Hint | None]) -> StatusLine | None:
        if job.key != self.position.key():
            return None
        hint = job.result()
        if job.error is not None or not isinstance(hint, Hint):
            if job.error is not None:
                return StatusLine(_("No hint: {value}.").format(value=job.error), "error")
            return StatusLine(_("No hint: the search found no move."), "error")
        self.hint = hint
        self.screen.app.sounds.play(Event.HINT)
        return self._hint_status(hint)

    def searching(self) -> bool:
        """Whether a search of the game's runs, or the solver's chosen move waits to be played."""
        return self.move_job is not None or self.hint_job is not None or self.solver_move is not None

    def frame_due(self) -> bool:
        """Every frame while the solver is to move (its clock runs in the panel) or the result card is due."""
        screen = self.screen
        return (not screen.browsing and screen.match.solver_to_move()) or self._result_due()

    def pulsing(self) -> bool:
        return self.hint is not None and not self.screen.browsing

    def thinking_seconds(self) -> float | None:
        """How long the solver has been on its move (wall-clock seconds), while it is; None otherwise."""
        if self.screen.match.solver_to_move() and (self.move_job is not None or self.solver_move is not None):
            return max(0.0, time.monotonic() - self.think_began)
        return None

    def preparing_seconds(self) -> float | None:
        """While the solver's move waits for the kernels (the first run's compile): how long the player
        has waited for this move, the same clock as ``thinking_seconds``, so the card's count goes on
        when the compile ends instead of jumping from the window's start (~50 s) to the move's (26 s);
        None otherwise."""
        return self.thinking_seconds() if self.preparing_solver() else None

    def thinking_limit(self) -> float | None:
        """The most seconds the solver's running move takes, when the card says it (``plain_limit``)."""
        return self.plain_limit if self.thinking_seconds() is not None and self.move_job is not None else None

    def preparing_solver(self) -> bool:
        """Whether the solver's move waits for the kernels' first-run compile (master or perfect; the
        levels up to expert play from plain Python meanwhile)."""
        app = self.screen.app
        return (
            self.thinking_seconds() is not None
            and self.move_job is not None
            and app.solver.current is self.move_job
            and not app.solver.ready
            and app.solver.engine_error is None
        )

    def close(self) -> None:
        """The game's searches go on while the screen is covered; ``cancel_searches`` stops them."""

    # -- what it looks like ------------------------------------------------------------------

    def status_line(self) -> tuple[StatusLine, str]:
        return self.screen.status, KEYS_HELP_OVER if self.position.is_over() else KEYS_HELP

    def notice(self) -> tuple[str, str] | None:
        return None

    def hint_move(self) -> Move | None:
        return self.hint.move if self.hint is not None else None

    def last_move(self) -> Move | None:
        moves = self.screen.match.game.moves
        return moves[-1] if moves else None

    def panel_label(self) -> str:
        match = self.screen.match
        if not match.against_solver:
            return _("two players")
        return _("against the solver ({level})").format(level=level_word(match.level))

    def draw(self, surface: pygame.Surface) -> None:
        """The game adds nothing to the board and the panel."""
