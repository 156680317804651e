"""The window's screens as a player walks through them, each read as the player reads it: every
text a real frame draws (``Fonts.text`` blits) and every pygame_gui widget on screen (buttons,
labels, titles, tool tips), for the language guard (``language_guard``).

``window_screens(app, ...)`` plays one session in a real ``App``: the title, the rules page, a
game against the solver (a refused pair, a selection, a hint, the analysis), a finished game's
result card, a hot-seat rematch with the default names, a review in progress and the review with
its graph, the editor with a gap in a column, the puzzles (Show solution pressed once: what it
costs), the statistics, online play's form and waiting room, and the file dialog.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pygame
from pygame_gui.core.utility import translate

from battle.i18n import _, pgettext
from battle.rules.game import Game
from battle.storage.saved_games import SavedGame, Shelf, new_game_id
from battle.ui.app import App
from battle.ui.demos import played_down
from battle.ui.match import Match, new_match
from battle.ui.play.result_scene import ResultScene
from battle.ui.puzzles.puzzle_scene import PuzzleScene
from battle.ui.review.review_scene import ReviewScene
from battle.ui.widgets.buttons import SHORT_FORMS, Button
from tests import ui_harness as ui
from tests.i18n.language_guard import Screen
from tests.ui.drawn_text import TextRecorder
from tests.ui.test_ui_fits import last_pair_won_by_player_2

NAMES = ("Ann", "Ben", "Bob")
"""The players' names the screens show, as typed."""
ELLIPSIS = "…"


@dataclass
class Reading:
    """What one frame shows: the drawn texts (with what ``Fonts.fit`` cut short) and the widgets' texts."""

    drawn: list[str] = field(default_factory=list)
    widgets: list[str] = field(default_factory=list)
    cut_buttons: list[str] = field(default_factory=list)
    """Buttons that show a label cut short: neither their text nor one of their shorter labels."""

    def screen(self, name: str) -> Screen:
        return Screen(name, "\n".join(self.drawn + self.widgets), names=NAMES)

    def cut(self) -> list[str]:
        """The drawn texts that end in ``…`` and the buttons cut short: a word cut where it is shown."""
        return [text for text in self.drawn if text.rstrip().endswith(ELLIPSIS)] + self.cut_buttons


def widget_texts(app: App) -> list[str]:
    """The texts of every pygame_gui element on screen: a button's or label's text, a window's
    title, a text box's words, each element's tool tip (shown when pointed at)."""
    found = []
    for element in app.manager.get_sprite_group().sprites():
        if not getattr(element, "visible", True) or not element.alive():
            continue
        for name in ("text", "html_text", "window_display_title", "tool_tip_text"):
            value = getattr(element, name, None)
            if isinstance(value, str) and value.strip():
                found.append(translate(value) if value.startswith("pygame-gui.") else value)
    return found


def cut_buttons(app: App) -> list[str]:
    """The labels of the buttons on screen that show neither their whole text nor a shorter form of it
    (their own ``shorter`` labels, or the catalogue's short form for narrow buttons)."""
    cut = []
    for element in app.manager.get_sprite_group().sprites():
        if not isinstance(element, Button) or not element.visible or not element.alive():
            continue
        short = {pgettext(*form) for long, form in SHORT_FORMS.items() if _(long) == element.full_text}
        if element.text not in {element.full_text, *element.shorter, *short}:
            cut.append(f"{element.text} ({element.full_text})")
    return cut


def read(app: App, recorder: TextRecorder, frames: int = 2) -> Reading:
    """Step ``frames`` frames; what the last one shows."""
    for _frame in range(frames - 1):
        app.step([], ui.DT)
    return Reading([text for text, _rect in recorder.frame()], widget_texts(app), cut_buttons(app))


def walk(app: App, recorder: TextRecorder) -> Iterator[tuple[str, Reading]]:
    """The session, screen by screen: (name, what it shows)."""
    yield "title", read(app, recorder)
    unfinished = Game.new(12, "You", "Solver (beginner)")
    unfinished.play(unfinished.position.legal_moves()[0])
    Shelf().save(SavedGame(new_game_id(), unfinished, 2, "beginner"))
    title = app.show_title()
    yield "title with a game to resume", read(app, recorder)
    title.command("start")  # type: ignore[attr-defined]
    yield "start while a game is unfinished", read(app, recorder)
    ui.key(app, pygame.K_ESCAPE)
    ui.key(app, pygame.K_F1)
    yield "rules", read(app, recorder)
    ui.key(app, pygame.K_ESCAPE)

    scene = app.start_match(new_match(12, "solver", ("You", "You"), level="beginner"))
    ui.settle(app)
    yield "game", read(app, recorder)
    position = scene.position
    first = position.legal_moves()[0][0]
    other = next(cell for cell in position.free_cells() if position.cells[cell] != position.cells[first])
    ui.click_cell(app, first)
    yield "selected", read(app, recorder)
    ui.click_cell(app, other)
    yield "not a pair", read(app, recorder)
    blocked = next(cell for cell in range(108) if position.cells[cell] >= 0 and not position.is_free(cell))
    ui.click_cell(app, blocked)
    yield "not free", read(app, recorder)
    ui.key(app, pygame.K_ESCAPE)
    ui.key(app, pygame.K_h)
    ui.run_until(app, lambda: scene.status.kind == "hint", timeout=120)
    yield "hint", read(app, recorder)
    ui.key(app, pygame.K_a)
    ui.run_until(app, lambda: scene.analysis is not None and bool(scene.analysis.badges()), timeout=120)
    yield "analysis", read(app, recorder)
    valued = sorted(scene.analysis.badges())
    scene.hover_cell = valued[len(valued) // 2][0]  # a pair pointed at: what it opens, and its value
    yield "pointed pair", read(app, recorder, frames=3)
    ui.key(app, pygame.K_a)

    finishing = app.start_match(Match(Game(last_pair_won_by_player_2(), "Solver (club)", "You"), 1, "club"))
    ui.play_move(app, finishing.position.legal_moves()[0])
    ui.settle(app, 20)
    yield "result card", read(app, recorder)

    hot_seat = app.start_match(Match(Game(last_pair_won_by_player_2(), _("Player 1"), _("Player 2"))))
    ui.play_move(app, hot_seat.position.legal_moves()[0])
    ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=5)
    ui.click_button(app, app.stack.top.buttons["rematch"])  # type: ignore[attr-defined]
    ui.settle(app)
    yield "hot-seat rematch", read(app, recorder)

    opening = Game.new(4, "Ann", "Ben")
    for _move in range(6):
        opening.play(opening.position.legal_moves()[0])
    running = app.open_review(opening, time_per_move=0.4)  # a 108-tile deal: seconds a move
    assert isinstance(running, ReviewScene)
    ui.run_until(app, lambda: running.job.progress is not None and running.job.progress.move is not None, timeout=60)
    yield "review in progress", read(app, recorder, frames=1)
    ui.click_button(app, running.buttons["cancel"])

    played = ui.short_game(tiles=12)
    reviewed = Game(played.start, "You", "Ben")
    for move in played.moves:
        reviewed.play(move)
    review = app.open_review(reviewed, time_per_move=0.2)
    assert isinstance(review, ReviewScene)
    ui.run_until(app, lambda: review.review is not None or review.failed is not None, timeout=120)
    yield "review", read(app, recorder)

    app.show_title()
    start = played_down(2, 60)
    editor = app.open_editor(start)
    column = next(col for col in range(12) if 0 <= start.column_run(col)[1] <= 5)
    kind = next(kind for kind in range(27) if editor.model.count(kind) < 4)  # type: ignore[attr-defined]
    editor.model.place(column * 9 + start.column_run(column)[1] + 2, kind)  # type: ignore[attr-defined]
    yield "editor", read(app, recorder)

    app.show_title()
    puzzles = app.open_puzzles()
    assert isinstance(puzzles, PuzzleScene)
    ui.settle(app)
    yield "puzzles", read(app, recorder)
    ui.click_button(app, puzzles.widgets["solution"])
    yield "puzzle solution asked", read(app, recorder)

    app.show_title()
    app.open_stats()
    ui.settle(app)
    yield "statistics", read(app, recorder)

    app.show_title()
    app.open_online()
    ui.settle(app)
    yield "online form", read(app, recorder)

    app.show_title()
    ui.settle(app)
    ui.key(app, pygame.K_o, pygame.KMOD_CTRL)
    yield "file dialog", read(app, recorder)
    ui.key(app, pygame.K_ESCAPE)
