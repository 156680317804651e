"""The review screen: every move of a game graded against perfect play, and a way back into it.

First the review runs on a background thread (``ReviewJob``) behind a progress
card with a Cancel button. Then the screen shows the evaluation graph under the
board, the graded move list, both players' losses and accuracy, and the turning
points. Clicking a move, a turning point or a point of the graph shows the
position before that move, with the move played and the best move marked.
"Retry from here" starts a game against the solver from that position (you take
the side that was to move); "Analyse here" opens it in analysis mode. A finished game reviewed
to its end gives its entry in the history both players' accuracy (``game_history``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
from pygame_gui.core import ObjectID

from battle.atlas.catalogue import deal_at_start
from battle.i18n import N_, _, format_number, format_short
from battle.rules.board import Move, Position, parse_move
from battle.rules.game import Game, KnownStart
from battle.rules.wording import grade_word, shown_name, solver_name
from battle.ui.art import theme
from battle.ui.files.game_history import store_accuracy
from battle.ui.files.settings import REVIEW_SECONDS_RANGE
from battle.ui.match import Match
from battle.ui.play.par_words import par_headline
from battle.ui.review.review_job import ReviewJob
from battle.ui.review.review_layout import ReviewLayout, clamp_first, follow, move_row_at, review_layout
from battle.ui.review.review_view import (
    class_sign,
    draw_move_marks,
    draw_progress_card,
    draw_review_panel,
    turning_chips,
)
from battle.ui.scene import Scene
from battle.ui.widgets.board_view import BoardState, playable_cells
from battle.ui.widgets.buttons import Button, set_enabled
from battle.ui.widgets.eval_graph import GraphPicture, cursor_segments, draw_eval_graph, ply_at, x_of_ply
from battle.ui.widgets.hud import StatusLine, draw_status

if TYPE_CHECKING:
    from battle.players import MoveReview, Review
    from battle.ui.scene import Host

KEYS_HELP = N_("↑↓ moves · R retry · D deeper · Esc back")
COMMAND_KEYS = {pygame.K_r: "retry", pygame.K_a: "analyse", pygame.K_d: "deeper"}
"""The letters that stand for a button: the command each sends."""
DEEPER_FACTOR = 4
"""How much longer a deeper review searches each move: enough to prove a few more plies."""
CURSOR_WIDTH = 2
"""Pixels of the graph's cursor, the selected move's line across the plot."""


class ReviewScene(Scene):
    def __init__(self, app: Host, game: Game, time_per_move: float | None = None) -> None:
        super().__init__(app)
        self.game = game
        self.names = game.names
        seconds = time_per_move if time_per_move is not None else app.settings.review_seconds
        known_start = _known_start(app, game)  # a deal's exact move 1, when its par is known
        self.par_line = (
            None if known_start is None else par_headline(known_start[0], game.names[game.start.to_move - 1])
        )
        """``Par: +4 for Ann``, at the right of the graph's caption; None when the deal's par is not known."""
        self.job = ReviewJob(game, seconds, known_start=known_start).start()
        self.review: Review | None = None
        """The finished ``battle.players.review_report.Review``."""
        self.failed: str | None = None
        self.positions: list[Position] = []
        """The position before each move (and after the last), for the board."""
        self.selected = 0
        """The shown position: the number of moves played before it (0 is the start)."""
        self.first_row = 0
        self.hover_row: int | None = None
        self.buttons: dict[str, Button] = {}
        self.clock = 0.0
        self.focus_turning_point = False
        """Open the finished review at its first turning point rather than at the start."""
        self._graph: tuple[tuple, GraphPicture] | None = None
        self.history_notice: str | None = None
        """What the history said when the accuracy was stored (a file set aside), shown until a move is picked."""

    # -- geometry and widgets ----------------------------------------------------------------

    @property
    def graded(self) -> Review:
        """The finished review, for what is shown only once there is one: the graded moves, the graph."""
        review = self.review
        assert review is not None, "the graded moves are shown only after the review has finished"
        return review

    @property
    def geometry(self) -> ReviewLayout:
        return review_layout(*self.app.layout.window, self.app.layout.zoom)

    def card_rect(self) -> pygame.Rect:
        layout = self.app.layout
        scale = layout.scale
        rect = pygame.Rect(
            0, 0, min(round(520 * scale), layout.window[0] - 20), min(round(300 * scale), layout.window[1] - 20)
        )
        rect.center = (layout.window[0] // 2, layout.window[1] // 2)
        return rect

    def build_ui(self) -> None:
        manager = self.app.manager
        self.buttons = {}
        if self.review is None:
            card = self.card_rect()
            scale = self.app.layout.scale
            rect = pygame.Rect(0, 0, round(160 * scale), max(20, round(38 * scale)))
            rect.midbottom = (card.centerx, card.bottom - round(20 * scale))
            label = _("Back") if self.failed else _("Cancel")
            self.buttons["cancel"] = Button(rect, label, manager, tool_tip_text=_("Stop the review (Esc)"))
        else:
            geo = self.geometry
            for key, label, tip, place in (
                ("retry", _("Retry from here"), _("Play on from this position against the solver (R)"), geo.buttons[0]),
                ("analyse", _("Analyse here"), _("Open this position in analysis mode (A)"), geo.buttons[1]),
                ("deeper", _("Deeper"), self._deeper_tip(), geo.buttons[2]),
                ("back", _("Back"), _("Leave the review (Esc)"), geo.buttons[3]),
            ):
                object_id = ObjectID(object_id="#primary") if key == "retry" else None
                self.buttons[key] = Button(
                    pygame.Rect(place.as_tuple()), label, manager, tool_tip_text=tip, object_id=object_id
                )
        self.elements.extend(self.buttons.values())
        self._update_buttons()

    def _deeper_tip(self) -> str:
        seconds = self.job.time_per_move
        if self.review is not None and self.review.exact:
            return _("Every value is proved: a deeper review would find nothing new")
        if seconds >= REVIEW_SECONDS_RANGE[1]:
            return _("Already the longest search per move ({seconds} s)").format(seconds=format_short(seconds))
        return _(
            "Review again with {deeper_seconds} s per move instead of {seconds} s: proves the values that "
            "are estimates now (D)"
        ).format(deeper_seconds=format_short(self._deeper_seconds()), seconds=format_short(seconds))

    def _deeper_seconds(self) -> float:
        return min(REVIEW_SECONDS_RANGE[1], self.job.time_per_move * DEEPER_FACTOR)

    def _update_buttons(self) -> None:
        deeper = self.buttons.get("deeper")
        if deeper is not None:
            set_enabled(deeper, not self.graded.exact and self.job.time_per_move < REVIEW_SECONDS_RANGE[1])
        retry = self.buttons.get("retry")
        if retry is not None and self.positions:
            playable = self.positions[self.selected].has_moves()
            for button in (retry, self.buttons["analyse"]):
                set_enabled(button, playable)

    def on_exit(self) -> None:
        self.job.cancel()
        super().on_exit()

    def stop_background(self) -> None:
        self.job.cancel()

    def wait_background(self, timeout: float) -> bool:
        return self.job.wait(timeout)

    def searching(self) -> bool:
        return not self.job.done and not self.job.cancelled

    # -- input -------------------------------------------------------------------------------

    def controls(self) -> dict[str, Button]:
        return self.buttons

    def handle_input(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame.KEYDOWN:
            self.key(event.key)
        elif self.review is None:
            return
        elif kind == pygame.MOUSEMOTION:
            self.hover_row = move_row_at(self.geometry, event.pos, self.first_row, len(self.review.moves))
        elif kind == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.click(event.pos)
        elif kind == pygame.MOUSEWHEEL:
            self.first_row = clamp_first(self.geometry, self.first_row - event.y, len(self.review.moves))

    def key(self, key: int) -> None:
        if key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
            self.command("back" if self.review is not None else "cancel")
            return
        if self.review is None:
            return
        steps = {
            pygame.K_UP: -1,
            pygame.K_LEFT: -1,
            pygame.K_DOWN: 1,
            pygame.K_RIGHT: 1,
            pygame.K_PAGEUP: -10,
            pygame.K_PAGEDOWN: 10,
        }
        if key in steps:
            self.select(self.selected + steps[key])
        elif key == pygame.K_HOME:
            self.select(0)
        elif key == pygame.K_END:
            self.select(len(self.review.moves))
        elif key in COMMAND_KEYS:
            self.command(COMMAND_KEYS[key])

    def click(self, pos: tuple[int, int]) -> None:
        geo = self.geometry
        index = move_row_at(geo, pos, self.first_row, len(self.graded.moves))
        if index is not None:
            self.select(index)
            return
        for rect, move_index, _text, _colour in turning_chips(self.app.fonts, geo, self):
            if rect.contains(pos):
                self.select(move_index)
                return
        if geo.graph.contains(pos):
            # the point nearest the click is after move k, where k's marker is drawn: select move k
            ply = ply_at(
                (geo.graph.w, geo.graph.h), len(self.graded.moves), pos[0] - geo.graph.x, self.graph_text_scale()
            )
            self.select(max(1, ply) - 1)

    def select(self, ply: int) -> None:
        """Show the position after ``ply`` moves, i.e. before move ``ply + 1`` (clamped to the game)."""
        if self.review is None:
            return
        count = len(self.review.moves)
        self.history_notice = None
        self.selected = max(0, min(count, ply))
        if self.selected < count:
            self.first_row = follow(self.geometry, self.first_row, self.selected, count)
        self._update_buttons()

    def command(self, name: str) -> None:
        if name in ("cancel", "back"):
            self.job.cancel()
            self.app.stack.pop()
        elif name in ("retry", "analyse") and self.review is not None:
            self.leave_for_game(name)
        elif name == "deeper" and self.review is not None and self.buttons["deeper"].is_enabled:
            deeper = ReviewScene(self.app, self.game, self._deeper_seconds())
            deeper.focus_turning_point = self.focus_turning_point
            self.app.stack.pop()
            self.app.stack.push(deeper)

    def leave_for_game(self, how: str) -> None:
        """A game that goes on from the shown position: against the solver (you move), or analysed
        hot seat. It is the reviewed game up to that move, on the same deal, so its record, its
        save name and its panel keep the deal."""
        position = self.positions[self.selected]
        if not position.has_moves():
            return
        settings = self.app.settings
        if how == "analyse":
            self.app.start_match(Match(self._game_up_to_here(*self.names)), None, analyse=True)
            return
        level = settings.level if settings.level in self.app.level_names else self.app.default_level
        human = position.to_move
        name = self.names[human - 1]
        if name.startswith("Solver"):
            name = settings.human_name
        names = (name, solver_name(level)) if human == 1 else (solver_name(level), name)
        match = Match(self._game_up_to_here(*names), 3 - human, level, from_ply=self.selected)
        self.app.start_match(
            match,
            _("Retry from move {value}: your move, against the solver ({level}).").format(
                value=self.selected + 1, level=level
            ),
            "good",
        )

    def _game_up_to_here(self, player1: str, player2: str) -> Game:
        """The reviewed game's start and deal with its moves up to the shown position, under new names."""
        game = Game(self.game.start, player1, player2, self.game.deal_number)
        for move in self.game.moves[: self.selected]:
            game.play(move)
        return game

    # -- time --------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.clock += dt
        if self.review is None and self.failed is None and self.job.done:
            if self.job.error is not None:
                self.failed = _("The review failed: {error}").format(error=self.job.error)
            elif self.job.review is not None:
                self._finished(self.job.review)
            self.clear_ui()
            self.build_ui()

    def next_frame_in(self) -> float | None:
        """While the review runs, its progress is polled 20 times a second (a move takes up to seconds)."""
        return 0.05 if self.review is None and self.failed is None else None

    def _finished(self, review: Review) -> None:
        self.review = review
        position = self.game.start.copy()
        self.positions = [position.copy()]
        for move in self.game.moves[: len(review.moves)]:
            position.push(move)
            self.positions.append(position.copy())
        self.selected = 0
        turning = review.turning_points()
        if self.focus_turning_point and turning:
            self.select(turning[0].number - 1)
        self._remember_accuracy(review)

    def _remember_accuracy(self, review: Review) -> None:
        """A game reviewed to its end gives the stored game its players' accuracy (``game_history``),
        unless the window keeps no files (a demo)."""
        if not (self.app.autosave_enabled and review.complete and review.result is not None):
            return
        first, second = review.summary()
        self.history_notice = store_accuracy(self.app.history, self.game, (first.accuracy, second.accuracy))

    # -- drawing -----------------------------------------------------------------------------

    def selected_move(self) -> MoveReview | None:
        """The graded move played from the shown position (None at the end)."""
        if self.review is None or self.selected >= len(self.review.moves):
            return None
        return self.review.moves[self.selected]

    def board_state(self) -> BoardState:
        position = self.positions[self.selected]
        free = frozenset(position.free_cells())
        playable = playable_cells(position.cells, free) if position.has_moves() else frozenset()
        return BoardState(cells=position.cells, free=free, playable=playable, now=self.clock)

    def marks(self) -> tuple[Move | None, str | None, list[Move]]:
        """The played move, its class, and the best moves (at most three) of the shown position."""
        move = self.selected_move()
        if move is None:
            return None, None, []
        return parse_move(move.move), move.classification, [parse_move(text) for text in move.best_moves[:3]]

    def status(self) -> StatusLine:
        move = self.selected_move()
        if self.review is None:
            return StatusLine("", "quiet")
        if self.history_notice is not None:
            return StatusLine(self.history_notice, "warn")
        if move is None:
            result = self.review.result
            text = (
                _("After the last move: {what}.").format(what=result.describe(self.names))
                if result is not None
                else _("After the last reviewed move.")
            )
            return StatusLine(text, "good")
        sign = class_sign(move.classification)
        values = {
            "number": move.number,
            "name": shown_name(self.names[move.player - 1]),
            "move": move.move,
            "points": move.points,
            "grade": grade_word(move.classification) + (f" {sign}" if sign else ""),
            "loss": ("" if move.exact else "~") + str(move.loss),
            "best": ", ".join(move.best_moves[:2]),
            "value": f"{move.best_value:+d}",
        }
        said = (
            _("{number}. {name}: {move} ({points}), {grade}, losing {loss}; best {best} ({value})")
            if move.loss
            else _("{number}. {name}: {move} ({points}), {grade}")
        )
        text = f"{said.format(**values)} · {shown_name(self.names[0])} {move.eval_before:+d} → {move.eval_after:+d}"
        kind = "good" if move.classification in ("best", "good") else "warn"
        return StatusLine(text, kind)

    def graph_cursor_ply(self) -> int:
        """Where the graph's cursor stands: on the selected move's point (after it, where its marker
        is drawn), or on the last point once the final position is shown."""
        return min(len(self.graded.moves), self.selected + 1)

    def graph_text_scale(self) -> float:
        """The graph's text follows the window's, not the strip's height (which would make it tiny)."""
        return 0.85 * self.app.layout.scale

    def graph_picture(self, size: tuple[int, int]) -> GraphPicture:
        key = (size, id(self.review), self.graph_text_scale())
        if self._graph is None or self._graph[0] != key:
            self._graph = (
                key,
                draw_eval_graph(
                    self.graded,
                    size,
                    self.names,
                    self.app.fonts,
                    text_scale=self.graph_text_scale(),
                    par_line=self.par_line,
                ),
            )
        return self._graph[1]

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        if self.review is None:
            self._draw_progress(surface)
            return
        geo = self.geometry
        app.board_view.draw(surface, geo.board, self.board_state())
        played, played_class, best = self.marks()
        draw_move_marks(surface, app.fonts, geo.board, played, played_class, best)
        draw_status(surface, app.fonts, geo.board, self.status(), self.clock, KEYS_HELP)
        graph = geo.graph
        picture = self.graph_picture((graph.w, graph.h))
        surface.blit(picture.surface, (graph.x, graph.y))
        x = round(
            x_of_ply((graph.w, graph.h), len(self.review.moves), self.graph_cursor_ply(), self.graph_text_scale())
        )
        for top, bottom in cursor_segments(picture, x, CURSOR_WIDTH):
            pygame.draw.line(
                surface,
                theme.GOLD_BRIGHT,
                (graph.x + x, graph.y + top),
                (graph.x + x, graph.y + bottom - 1),
                CURSOR_WIDTH,
            )
        pygame.draw.rect(surface, (*theme.GOLD, 90), pygame.Rect(graph.as_tuple()), width=1, border_radius=6)
        draw_review_panel(surface, app.fonts, geo, self)

    def _draw_progress(self, surface: pygame.Surface) -> None:
        app, layout = self.app, self.app.layout
        surface.blit(app.felt.surface(layout.window, (0.5, 0.45)), (0, 0))
        job = self.job
        total = job.total
        step = job.progress
        if self.failed:
            lines = [(_("Could not review"), theme.ERROR), (self.failed, theme.IVORY_DIM)]
            fraction = 0.0
        else:
            current = min(total, job.reviewed + 1)
            headline = (
                _("Reviewing move {current}/{total}").format(current=current, total=total)
                if job.reviewed < total
                else _("Checking the final position")
            )
            if total == 0:
                headline = _("Checking the position")
            lines = [
                (headline, theme.IVORY),
                (
                    _("{names} vs {names2} · up to {seconds} s per move").format(
                        names=shown_name(self.names[0]),
                        names2=shown_name(self.names[1]),
                        seconds=format_number(job.time_per_move),
                    ),
                    theme.IVORY_DIM,
                ),
            ]
            if step is not None and step.move is not None:
                sign = class_sign(step.classification or "")
                grade = grade_word(step.classification or "") + (f" {sign}" if sign else "")
                lines.append(
                    (
                        _("{number}. {move}: {grade}").format(number=step.number, move=step.move, grade=grade),
                        theme.IVORY_FAINT,
                    )
                )
            fraction = job.reviewed / max(1, total)
        draw_progress_card(surface, app.fonts, self.card_rect(), layout.scale, lines, fraction)


def _known_start(app: Host, game: Game) -> KnownStart | None:
    """The deal's par and best first moves: the catalogue's, or the one the background finder has just
    found (the finder's thread puts it in the catalogue a moment after it is found)."""
    known = app.catalogue.known_start(game.deal_number, game.start)
    if known is not None:
        return known
    number = deal_at_start(game.deal_number, game.start)
    finder = app.par_finder
    found = None if number is None or finder is None else finder.found(number)
    return None if found is None else found.known_start()
