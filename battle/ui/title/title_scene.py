"""The title screen: the new-game form (``new_game_form``) on a card with the games to resume or
replay (``title_games``), and the ways to online play, the puzzles, the statistics, the editor,
a game file and the help, each opened through the ``Host`` by intent.

The keyboard reaches everything the mouse does: Tab, Shift+Tab and the arrow keys
move a focus ring over the buttons and fields (a text field then takes the typing),
Enter presses the focused button or opens the focused list (arrows choose in it,
Enter takes, Esc keeps the old choice), and with nothing focused Enter starts the game.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import pygame
import pygame_gui
from pygame_gui.core import UIElement
from pygame_gui.elements import UITextEntryLine

from battle.i18n import N_, _
from battle.storage.saved_games import SavedGame
from battle.ui.art import theme
from battle.ui.match import Match
from battle.ui.scene import Scene
from battle.ui.title.new_game_form import NewGameForm
from battle.ui.title.resume_labels import other_game_labels, resume_labels
from battle.ui.title.title_games import TitleGames
from battle.ui.title.title_hero import HeroPlace, TitleHero
from battle.ui.widgets.dialogs import FileDialogSlot, Picked
from battle.ui.widgets.focus_ring import FocusRing
from battle.ui.widgets.form_rows import FormRows
from battle.ui.widgets.hud import StatusLine, draw_status_below
from battle.ui.widgets.tile_warmer import INTERVAL as TILE_INTERVAL
from battle.ui.widgets.tile_warmer import TileWarmer

TILES_AFTER = 0.5
"""Seconds the title waits before drawing the board's tiles ahead: its first frames (50-90 ms
while the solver's thread imports numba) take no extra work."""

if TYPE_CHECKING:
    from battle.atlas.catalogue import Catalogue
    from battle.ui.scene import Host

BUTTON_ROWS: tuple[tuple[tuple[str, str, str, int], ...], ...] = (
    (
        ("start", N_("Start game"), N_("Deal the tiles (Enter)"), 100),
        ("online", N_("Play online"), N_("Host, join or resume a game against someone over the network (O)"), 102),
        (
            "puzzles",
            N_("Puzzles"),
            N_("Find the one good move in positions mined from exact analysis; a puzzle rating keeps score (P)"),
            78,
        ),
        (
            "stats",
            N_("Statistics"),
            N_("Your games, results per level, your rating against the solver, your puzzle rating (S)"),
            89,
        ),
        ("quit", N_("Quit"), N_("Close the window"), 56),
    ),
    (
        ("load", N_("Load game..."), N_("Open a game record (.mbg) or a position (.mbp)"), 112),
        ("edit", N_("Edit a position"), N_("Set up any position, then analyse it or play it (E)"), 124),
        ("review", N_("Review a game..."), N_("Grade every move of a game record (.mbg) against perfect play"), 139),
        ("help", N_("Rules & keys"), N_("The rules, the marks and every shortcut (F1)"), 110),
    ),
)
"""The buttons under the form, row by row: command, label, tool tip, and a share of the row in
proportion to the label's width plus its padding at 1200x800 (each shows in full there)."""


class TitleMetrics(TypedDict):
    """Where the hero (the fanned tiles and the title) and the card go at the window's size, in pixels."""

    row_h: int
    gap: int
    pad: int
    card_w: int
    card_h: int
    hero_h: int
    top: int
    card_x: int
    card_y: int
    hero_scale: float
    """The hero's height as a share of its full height (a short window shrinks it)."""


class TitleScene(Scene):
    files: FileDialogSlot

    def __init__(self, app: Host, notice: str | None = None, notice_kind: str = "info") -> None:
        super().__init__(app)
        self.form = NewGameForm(app)
        """The new game's choices, kept across rebuilds."""
        self.widgets: dict[str, UIElement] = {}
        self.ring = FocusRing(app, lambda: self.widgets, self.command, self.menu_changed)
        """The keyboard's focus ring over the form (no ring: Enter starts the game)."""
        self.files = FileDialogSlot(app)
        self.clock = 0.0
        self.tiles = TileWarmer(app.board_view)
        self.hero = TitleHero()
        self.status = StatusLine(notice, notice_kind) if notice else StatusLine("", "quiet")
        self.games = TitleGames(app)
        """The unfinished games and the rematch on offer, and how a chosen game starts."""
        self.status = self.games.problem() or self.status
        for text, kind in app.take_notices():
            self.status = StatusLine(text, kind)

    @property
    def resume(self) -> Match | None:
        """The newest unfinished game, offered first."""
        return self.games.resume

    @property
    def previous(self) -> Match | None:
        """The last game, offered as a rematch."""
        return self.games.previous

    @property
    def others(self) -> list[SavedGame]:
        return self.games.others

    # -- geometry --------------------------------------------------------------------------

    def _metrics(self) -> TitleMetrics:
        w, h = self.app.layout.window
        scale = self.app.layout.scale
        top_row = self.resume is not None or self.previous is not None
        rows = len(BUTTON_ROWS) + self.form.rows() + (1 if top_row else 0) + self._other_rows()
        row_h = max(24, round(36 * scale))
        gap = max(6, round(12 * scale))
        pad = max(10, round(24 * scale))
        card_w = max(260, min(round(600 * scale), w - 40))
        card_h = 2 * pad + rows * row_h + (rows - 1) * gap + round(8 * scale)
        full_hero = max(120, round(250 * scale))
        # a short window shrinks the fan of tiles and the title's room before the form runs off the bottom
        hero_h = max(110, min(full_hero, h - card_h - 8 - round(10 * scale)))
        top = max(8, (h - hero_h - card_h - round(40 * scale)) // 2)
        return {
            "row_h": row_h,
            "gap": gap,
            "pad": pad,
            "card_w": card_w,
            "card_h": card_h,
            "hero_h": hero_h,
            "top": top,
            "card_x": (w - card_w) // 2,
            "card_y": top + hero_h,
            "hero_scale": hero_h / full_hero,
        }

    def _other_rows(self) -> int:
        """How many more unfinished games the card lists: as many as the window's height has room for."""
        room = (self.app.layout.window[1] - 600) // max(30, round(48 * self.app.layout.scale))
        return max(0, min(len(self.others), room))

    def card_rect(self) -> pygame.Rect:
        m = self._metrics()
        return pygame.Rect(m["card_x"], m["card_y"], m["card_w"], m["card_h"])

    # -- widgets ---------------------------------------------------------------------------

    def build_ui(self) -> None:
        m = self._metrics()
        x0 = m["card_x"] + m["pad"]
        inner_w = m["card_w"] - 2 * m["pad"]
        label_w = max(round(inner_w * 0.3), min(110, inner_w // 2))
        wide = inner_w - label_w >= 330  # room for the short explanations next to the fields
        row_h, gap = m["row_h"], m["gap"]
        y = m["card_y"] + m["pad"]
        self.widgets = {}
        rows = FormRows(self.widgets, self.elements, self.app.manager, x0, x0 + label_w, inner_w - label_w, row_h)
        if self.resume is not None or self.previous is not None:
            rematch_w = round(inner_w * 0.3) if self.resume is not None else inner_w
            if self.resume is not None:
                text, *shorter = resume_labels(self.resume.game, self.resume.game_id in self.games.in_use)
                rows.button(
                    "resume",
                    pygame.Rect(x0, y, inner_w - rematch_w - 10, row_h),
                    text,
                    _("Continue the game that was open when the window closed: {game}").format(
                        game=self.resume.describe()
                    ),
                    primary=True,
                    shorter=shorter,
                )
            if self.previous is not None:
                text = _("Rematch") if self.resume is not None else _("Rematch: the last deal, sides swapped")
                rematch = pygame.Rect(x0 + inner_w - rematch_w, y, rematch_w, row_h)
                rows.button("rematch", rematch, text, _("The last game's deal again, with the sides swapped"))
            y += row_h + gap
        discard_w = max(60, round(inner_w * 0.18))
        for index, saved in enumerate(self.others[: self._other_rows()]):
            text, *shorter = other_game_labels(saved.describe(), saved.game, saved.game_id in self.games.in_use)
            tip = _("Another unfinished game, kept for later: {game}").format(game=saved.describe())
            rows.button(
                f"other:{index}", pygame.Rect(x0, y, inner_w - discard_w - 10, row_h), text, tip, shorter=shorter
            )
            discard = pygame.Rect(x0 + inner_w - discard_w, y, discard_w, row_h)
            rows.button(f"discard:{index}", discard, _("Discard"), _("Delete this unfinished game (asks first)"))
            y += row_h + gap

        y = self.form.build(rows, y, gap, wide)

        button_gap = round(10 * self.app.layout.scale)
        for row in BUTTON_ROWS:
            room = inner_w - (len(row) - 1) * button_gap
            total = sum(share for *_, share in row)
            x = x0
            for index, (key, text, tip, share) in enumerate(row):
                # the last button takes what rounding left, so every row ends at the card's edge
                width = x0 + inner_w - x if index == len(row) - 1 else round(room * share / total)
                rows.button(key, pygame.Rect(x, y, width, row_h), _(text), _(tip), primary=key == "start")
                x += width + button_gap
            y += row_h + gap
        self.ring.forget_missing()
        self.hero.render(self.app.art, self.app.layout.scale * m["hero_scale"])

    # -- input -----------------------------------------------------------------------------

    def controls(self) -> dict[str, UIElement]:
        return self.widgets

    def file_picked(self, picked: Picked) -> None:
        if picked.purpose == "review":
            self.review(picked.path)
        else:
            self.load(picked.path)

    def handle_input(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            self.command("start")
        elif kind == pygame.WINDOWFOCUSGAINED:
            self.refresh_games()
        elif kind == pygame.KEYDOWN:
            if self.ring.key(event):
                return
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.command("start")
            elif event.key == pygame.K_o and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self.command("load")
            elif event.key == pygame.K_e and not self._typing():
                self.command("edit")
            elif event.key == pygame.K_o and not self._typing():
                self.command("online")
            elif event.key == pygame.K_p and not self._typing():
                self.command("puzzles")
            elif event.key == pygame.K_s and not self._typing():
                self.command("stats")

    def menu_changed(self, menu: object, text: str) -> None:
        """A list's new choice (picked with the mouse or the keyboard)."""
        change = self.form.choose(self.widgets, menu, text)
        if change.rebuild:
            self.set_mode(self.form.mode)
        if change.recount:
            self.status = self.form.availability(self._catalogue) or self.status

    # -- the keyboard's focus ring (see ``FocusRing``) ---------------------------------------

    @property
    def focus(self) -> str | None:
        """The widget the ring is on (None: no ring, Enter starts the game)."""
        return self.ring.focus

    def focus_order(self) -> list[str]:
        return self.ring.order()

    def set_focus(self, name: str | None) -> None:
        self.ring.set(name)

    def _read_entries(self) -> None:
        self.form.read(self.widgets)

    def set_mode(self, mode: str) -> None:
        """Switch the form to hot seat or against the solver (its rows change with it)."""
        self._read_entries()
        self.form.mode = mode
        self.clear_ui()
        self.build_ui()

    def command(self, name: str) -> None:
        if name == "resume":
            self._not_resumed(self.games.resume_newest())
        elif name.startswith("other:"):
            self._not_resumed(self.games.resume_other(int(name.split(":")[1])))
        elif name.startswith("discard:"):
            self.games.ask_discard(int(name.split(":")[1]))
        elif name == "rematch":
            self.games.rematch()
        elif name == "start":
            self.start()
        elif name == "online":
            self._read_entries()  # a resize while the form is covered rebuilds it from its values
            self.app.open_online()
        elif name == "puzzles":
            self._read_entries()
            self.app.open_puzzles()
        elif name == "stats":
            self._read_entries()
            self.app.open_stats()
        elif name == "load":
            self.open_load_dialog()
        elif name == "edit":
            self.app.open_editor()
        elif name == "review":
            self.open_load_dialog("review")
        elif name == "help":
            self.app.open_help()
        elif name == "quit":
            self.app.running = False

    def _not_resumed(self, problem: StatusLine | None) -> None:
        """A game that did not open: the list as it is now, and why."""
        if problem is not None:
            self.refresh_games()
            self.status = problem

    def refresh_games(self) -> None:
        """Read the unfinished games again: another copy may have played on, finished or opened one
        since the list was read (at the window's focus, back from another screen, after a refusal)."""
        self._read_entries()
        self.games = TitleGames(self.app)
        self.status = self.games.problem() or self.status
        self.rebuild_ui()

    def _catalogue(self) -> Catalogue:
        """The app's catalogue (read on first use); a source that did not read is reported once."""
        catalogue = self.app.catalogue
        for text, kind in self.app.take_notices():
            self.status = StatusLine(text, kind)
        return catalogue

    def start(self) -> None:
        self._read_entries()
        chosen = self.form.new_game(self._catalogue)
        if isinstance(chosen, StatusLine):
            self.status = chosen
            return
        self.games.begin(chosen.match, chosen.notice, "good" if chosen.notice else "info")

    def _typing(self) -> bool:
        """Whether a text field has the keyboard (then E is a letter, not a shortcut)."""
        return any(isinstance(widget, UITextEntryLine) and widget.is_focused for widget in self.widgets.values())

    def open_load_dialog(self, purpose: str = "load") -> None:
        problem = self.files.open(purpose)
        if problem:
            self.status = StatusLine(problem, "error")

    def review(self, path: Path) -> None:
        """Review a game record from a file (a position file has no moves to review)."""
        self.status = self.games.review(path) or self.status

    def load(self, path: Path) -> None:
        self.status = self.games.load(path, self.form.solver_side(), self.form.level) or self.status

    def on_resume(self) -> None:
        super().on_resume()
        self.refresh_games()
        self.ring.set(self.ring.focus)  # a text field with the ring takes the typing again

    def on_exit(self) -> None:
        self.files.close()
        super().on_exit()

    # -- time and drawing ------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.clock += dt
        self.ring.follow_typing()
        if self.clock > TILES_AFTER:
            self.tiles.step(self.app.layout)

    def next_frame_in(self) -> float | None:
        """When the hero next moves a pixel: about 8 frames per 5.2 s float instead of 60 a second;
        while the solver prepares, at least twice a second, so its note goes when it is ready;
        30 a second for the first second, which draws the board's tiles ahead (``TileWarmer``)."""
        if not self.tiles.done(self.app.layout):
            return TILE_INTERVAL
        if not self.app.solver.ready and self.app.solver.engine_error is None:
            return min(PREPARING_CHECK, self._hero_frame_in() or PREPARING_CHECK)
        return self._hero_frame_in()

    def _hero_frame_in(self) -> float | None:
        return self.hero.next_move_in(self.clock, self.app.layout.scale)

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        layout = app.layout
        scale = layout.scale
        w, h = layout.window
        surface.blit(app.felt.surface(layout.window, (0.5, 0.42)), (0, 0))
        m = self._metrics()
        self.hero.draw(
            surface, app.fonts, HeroPlace(m["top"], m["hero_h"], m["hero_scale"], m["card_y"]), self.clock, scale
        )
        fonts = app.fonts
        card = self.card_rect()
        surface.blit(theme.rounded_panel(card.size, theme.PANEL, round(16 * scale), (*theme.GOLD, 90), 1), card)
        self.ring.draw(surface, scale)
        draw_status_below(surface, fonts, self.status, scale, layout.window, card.bottom + round(14 * scale))
        if not app.solver.ready and app.solver.engine_error is None:
            # Quiet, in a corner: the window works meanwhile, only the solver's first reply would wait.
            note = fonts.text(_("preparing the solver..."), 12 * scale, theme.IVORY_DIM)
            surface.blit(note, note.get_rect(bottomright=(w - round(10 * scale), h - round(8 * scale))))


PREPARING_CHECK = 0.5
"""Seconds between looks at the solver's warm-up while its note is on the title."""
