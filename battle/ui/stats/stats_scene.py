"""The statistics screen: the history of games and puzzle attempts (``battle.history``) at a glance.

Results per opponent with the average margin, the rating against the solver on the levels'
scale with its uncertainty, the accuracy of reviewed games and the puzzle rating as curves,
and the best and worst games, each a button that opens the game in the review screen. The
statistics are computed when the screen opens and again when it comes back from a review
(which may have added an accuracy); an empty history gets one friendly line.

Tab, Shift+Tab and the arrows move a focus ring over the games and Back, Enter opens the
focused one, Esc hides the ring or goes back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame

from battle.history.stats import Stats, compute_stats
from battle.history.store import GameEntry
from battle.i18n import N_, _, format_percent
from battle.rules.errors import BattleError
from battle.rules.game import Game
from battle.rules.wording import plural
from battle.ui.art import theme
from battle.ui.files.game_history import notice_text
from battle.ui.scene import Scene
from battle.ui.stats.line_plot import render_line_plot
from battle.ui.stats.stats_layout import StatsLayout, stats_layout
from battle.ui.stats.stats_view import (
    draw_card,
    draw_list_heading,
    draw_plot_card,
    draw_results,
    draw_solver,
    game_line,
)
from battle.ui.widgets.buttons import Button
from battle.ui.widgets.focus_ring import FocusRing
from battle.ui.widgets.hud import STATUS_COLOURS, StatusLine
from battle.ui.widgets.layout import Rect

if TYPE_CHECKING:
    from pygame_gui.core import UIElement

    from battle.ui.scene import Host

EMPTY_HISTORY = N_(
    "No games or puzzles yet. Finish a game against the solver, or try a puzzle, and your "
    "results, ratings and best games show here."
)
ACCURACY_EMPTY = N_(
    "No reviewed game yet: Review on a finished game's card grades your moves; your accuracy shows here."
)
PUZZLES_EMPTY = N_("No puzzle tried yet: Puzzles on the title.")


class StatsScene(Scene):
    """The statistics screen (see the module docstring)."""

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        self.stats: Stats = compute_stats([], [])
        self.message = StatusLine("", "quiet")
        """What went wrong reading the history or opening a game, under the title."""
        self.widgets: dict[str, UIElement] = {}
        self.games: dict[str, GameEntry] = {}
        """The game each list button opens, by the button's name."""
        self._plots: dict[str, tuple[tuple[int, int], pygame.Surface]] = {}
        """Each curve as last drawn, by name, with its size: drawn again only at another size or after a refresh."""
        self.ring = FocusRing(app, lambda: self.widgets, self.command, lambda menu, text: None)
        self.refresh()

    @property
    def empty(self) -> bool:
        return self.stats.games == 0 and self.stats.puzzles_tried == 0

    @property
    def geometry(self) -> StatsLayout:
        return stats_layout(*self.app.layout.window, self.app.layout.scale)

    def refresh(self) -> None:
        """Read the history again and compute the statistics; what the history says goes under the title."""
        history = self.app.history
        self.stats = compute_stats(history.games(), history.attempts())
        self._plots = {}
        notice = notice_text(history.take_notices())
        if notice:
            self.message = StatusLine(notice, "warn")

    # -- widgets ---------------------------------------------------------------------------

    def build_ui(self) -> None:
        manager = self.app.manager
        geo = self.geometry
        self.widgets = {}
        self.games = {}
        if not self.empty:
            for kind, column, entries in (("best", geo.best, self.stats.best), ("worst", geo.worst, self.stats.worst)):
                for index, (entry, place) in enumerate(zip(entries, geo.game_rows(column), strict=False)):
                    name = f"{kind}:{index}"
                    self.games[name] = entry
                    self.widgets[name] = Button(
                        pygame.Rect(place.as_tuple()),
                        game_line(entry),
                        manager,
                        tool_tip_text=_("Open this game in the review screen"),
                    )
        self.widgets["back"] = Button(
            pygame.Rect(geo.back.as_tuple()), _("Back"), manager, tool_tip_text=_("Back to the title (Esc)")
        )
        self.elements.extend(self.widgets.values())
        self.ring.forget_missing()

    def accuracy_plot(self, size: tuple[int, int]) -> pygame.Surface:
        """Your accuracy in each reviewed game, 0 to 100%."""
        return self._plot(
            "accuracy",
            size,
            lambda: render_line_plot(
                [percent for _, percent in self.stats.accuracy],
                size,
                self.app.fonts,
                self.app.layout.scale,
                value_range=(0, 100),
                written=lambda tick: format_percent(tick, 0),
            ),
        )

    def puzzle_plot(self, size: tuple[int, int]) -> pygame.Surface:
        """Your puzzle rating after each attempt, in its band of two deviations either side."""
        ratings = [rating for _, rating in self.stats.puzzle_ratings]
        return self._plot(
            "puzzles",
            size,
            lambda: render_line_plot(
                [rating.rating for rating in ratings],
                size,
                self.app.fonts,
                self.app.layout.scale,
                band=[rating.interval() for rating in ratings],
            ),
        )

    def _plot(self, name: str, size: tuple[int, int], render: Callable[[], pygame.Surface]) -> pygame.Surface:
        cached = self._plots.get(name)
        if cached is None or cached[0] != size:
            cached = self._plots[name] = (size, render())
        return cached[1]

    # -- input -----------------------------------------------------------------------------

    def controls(self) -> dict[str, UIElement]:
        return self.widgets

    def handle_input(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if self.ring.key(event):
                return
            if event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.command("back")

    def command(self, name: str) -> None:
        if name == "back":
            self.app.stack.pop()
        elif name in self.games:
            self.open_game(self.games[name])

    def open_game(self, entry: GameEntry) -> None:
        """The stored game in the review screen (Back returns here)."""
        try:
            game = Game.from_text(entry.record)
        except BattleError as error:
            self.message = StatusLine(_("Game #{id} does not read: {error}").format(id=entry.id, error=error), "error")
            return
        self.app.open_review(game)

    def on_resume(self) -> None:
        """Back from a review, which may have stored an accuracy: the statistics are read again."""
        super().on_resume()
        self.refresh()
        self.clear_ui()
        self.build_ui()

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        fonts = app.fonts
        geo = self.geometry
        scale = geo.scale
        surface.blit(app.felt.surface(app.layout.window, (0.5, 0.4)), (0, 0))
        title = fonts.text(_("Statistics"), 30 * scale, theme.IVORY, bold=True)
        surface.blit(title, (geo.title.x, geo.title.y))
        stats = self.stats
        line = (
            self.message
            if self.message.text
            else StatusLine(
                _("{plural} stored · {plural2} tried").format(
                    plural=plural(stats.games, "game"), plural2=plural(stats.puzzles_tried, "puzzle")
                ),
                "quiet",
            )
        )
        room = geo.back.x - geo.title.x - round(12 * scale)
        sub = fonts.text(fonts.fit(line.text, 14 * scale, room), 14 * scale, STATUS_COLOURS.get(line.kind, theme.IVORY))
        surface.blit(sub, (geo.title.x, geo.title.y + title.get_height()))
        if self.empty:
            whole = Rect(geo.title.x, geo.results.y, geo.title.w, geo.results.h)
            area = draw_card(surface, fonts, whole, _("Nothing here yet"), scale)
            for index, text_line in enumerate(fonts.wrap(_(EMPTY_HISTORY), 16 * scale, area.w)):
                rendered = fonts.text(text_line, 16 * scale, theme.IVORY_DIM)
                surface.blit(rendered, (area.x, area.y + index * rendered.get_height()))
            self.ring.draw(surface, scale)
            return
        draw_results(surface, fonts, geo.results, stats, scale)
        draw_solver(surface, fonts, geo.solver, stats, scale)
        count = len(stats.accuracy)
        draw_plot_card(
            surface,
            fonts,
            geo.accuracy,
            _("Accuracy over time ({plural})").format(plural=plural(count, "reviewed game"))
            if count
            else _("Accuracy over time"),
            self.accuracy_plot if count else None,
            _(ACCURACY_EMPTY),
            scale,
        )
        draw_plot_card(
            surface,
            fonts,
            geo.puzzles,
            _("Puzzle rating over time (its 95% band shaded)"),
            self.puzzle_plot if stats.puzzle_ratings else None,
            _(PUZZLES_EMPTY),
            scale,
        )
        draw_list_heading(surface, fonts, geo.best, _("Best games (click to review)"), not stats.best, scale)
        draw_list_heading(surface, fonts, geo.worst, _("Worst games"), not stats.worst, scale)
        self.ring.draw(surface, scale)
