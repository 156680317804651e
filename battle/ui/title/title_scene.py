"""The title screen and new-game form: resume, hot seat or against the solver, which deal (a random
or numbered one, a fair one, the deal of the day: ``deal_choice``); the way to online play
(``battle.ui.online``), to the puzzles (``battle.ui.puzzles``) and to the statistics (``battle.ui.stats``).

The form remembers its values across rebuilds (a resize, switching the mode or the kind of
deal), and the chosen names, level, mode and kind of deal go into the settings when a game starts.

The keyboard reaches everything the mouse does: Tab, Shift+Tab and the arrow keys
move a focus ring over the buttons and fields (a text field then takes the typing),
Enter presses the focused button or opens the focused list (arrows choose in it,
Enter takes, Esc keeps the old choice), and with nothing focused Enter starts the game.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import pygame
import pygame_gui
from pygame_gui.core import ObjectID, UIElement
from pygame_gui.elements import UIDropDownMenu, UILabel, UITextEntryLine

from battle.rules.errors import BattleError
from battle.storage.saved_games import SavedGame, Shelf
from battle.ui.art import theme
from battle.ui.files.game_files import FileProblem, load_game_file
from battle.ui.help.help_scene import open_help
from battle.ui.online.setup_scene import OnlineSetupScene
from battle.ui.play.autosave import discard, keep_for_later, read_unfinished
from battle.ui.play.match import Match, new_match
from battle.ui.puzzles.puzzle_scene import PuzzleScene
from battle.ui.scene import Scene, pressed_key
from battle.ui.stats.stats_scene import StatsScene
from battle.ui.title.deal_choice import (
    FAIRNESS,
    FAIRNESS_BY_KEY,
    KIND_LABELS,
    NoCataloguedDeal,
    availability,
    pick_deal,
)
from battle.ui.title.title_hero import HeroPlace, TitleHero
from battle.ui.widgets.buttons import Button
from battle.ui.widgets.choice_scene import Choice, ChoiceScene
from battle.ui.widgets.dialogs import DIALOG_EVENTS, FileDialogSlot
from battle.ui.widgets.focus_ring import FocusRing
from battle.ui.widgets.hud import STATUS_COLOURS, StatusLine
from battle.ui.widgets.tile_warmer import INTERVAL as TILE_INTERVAL
from battle.ui.widgets.tile_warmer import TileWarmer

TILES_AFTER = 0.5
"""Seconds the title waits before drawing the board's tiles ahead: its first frames (50-90 ms
while the solver's thread imports numba) take no extra work."""

if TYPE_CHECKING:
    from battle.atlas.catalogue import Catalogue
    from battle.rules.game import Game
    from battle.ui.host import Host

MODE_LABELS = {"hotseat": "Two players, one screen", "solver": "Against the solver"}
FIRST_LABELS = {True: "You move first", False: "The solver moves first"}
MAX_OTHERS = 3
"""Unfinished games listed under the newest one, room permitting; the rest wait in the data folder."""
BUTTON_ROWS: tuple[tuple[tuple[str, str, str, int], ...], ...] = (
    (("start", "Start game", "Deal the tiles (Enter)", 100),
     ("online", "Play online", "Host, join or resume a game against someone over the network (O)", 102),
     ("puzzles", "Puzzles", "Find the one good move in positions mined from exact analysis; a puzzle rating keeps "
                            "score (P)", 78),
     ("stats", "Statistics", "Your games, results per level, your rating against the solver, your puzzle rating (S)",
      89),
     ("quit", "Quit", "Close the window", 56)),
    (("load", "Load game...", "Open a game record (.mbg) or a position (.mbp)", 112),
     ("edit", "Edit a position", "Set up any position, then analyse it or play it (E)", 124),
     ("review", "Review a game...", "Grade every move of a game record (.mbg) against perfect play", 139),
     ("help", "Rules & keys", "The rules, the marks and every shortcut (F1)", 110)),
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
    def __init__(self, app: Host, notice: str | None = None, notice_kind: str = "info") -> None:
        super().__init__(app)
        settings = app.settings
        self.mode = settings.mode
        self.values = {
            "player1": settings.player1,
            "player2": settings.player2,
            "human_name": settings.human_name,
            "deal": "",
        }
        self.level = settings.level if settings.level in app.level_names else app.default_level
        self.human_first = settings.human_first
        self.deal_kind = settings.deal_kind
        self.fairness = FAIRNESS_BY_KEY.get(settings.fairness, FAIRNESS[0])
        self.widgets: dict[str, UIElement] = {}
        self.ring = FocusRing(app, lambda: self.widgets, self.command, self.menu_changed)
        """The keyboard's focus ring over the form (no ring: Enter starts the game)."""
        self.files = FileDialogSlot(app)
        self.clock = 0.0
        self.tiles = TileWarmer(app.board_view)
        self.hero = TitleHero()
        self.status = StatusLine(notice, notice_kind) if notice else StatusLine("", "quiet")
        self.unfinished = read_unfinished(app.level_names)
        games = self.unfinished.games
        self.resume: Match | None = Match.from_saved(games[0], app.default_level) if games else None
        self.others: list[SavedGame] = games[1:1 + MAX_OTHERS]
        """More unfinished games, offered under the newest one."""
        # the last game, finished or not, can be replayed with the sides swapped
        self.previous: Match | None = app.last_match or self.resume or _newest_finished(app)
        if self.unfinished.problems:
            more = len(self.unfinished.problems) - 1
            self.status = StatusLine(self.unfinished.problems[0] + (f" ({more} more like it)" if more else ""), "warn")
        for text, kind in app.take_notices():
            self.status = StatusLine(text, kind)

    # -- geometry --------------------------------------------------------------------------

    def _metrics(self) -> TitleMetrics:
        w, h = self.app.layout.window
        scale = self.app.layout.scale
        top_row = self.resume is not None or self.previous is not None
        rows = 6 + (1 if top_row else 0) + (1 if self.mode == "solver" else 0) + self._other_rows()
        row_h = max(24, round(36 * scale))
        gap = max(6, round(12 * scale))
        pad = max(10, round(24 * scale))
        card_w = max(260, min(round(600 * scale), w - 40))
        card_h = 2 * pad + rows * row_h + (rows - 1) * gap + round(8 * scale)
        full_hero = max(120, round(250 * scale))
        # a short window shrinks the fan of tiles and the title's room before the form runs off the bottom
        hero_h = max(110, min(full_hero, h - card_h - 8 - round(10 * scale)))
        top = max(8, (h - hero_h - card_h - round(40 * scale)) // 2)
        return {"row_h": row_h, "gap": gap, "pad": pad, "card_w": card_w, "card_h": card_h, "hero_h": hero_h,
                "top": top, "card_x": (w - card_w) // 2, "card_y": top + hero_h,
                "hero_scale": hero_h / full_hero}

    def _other_rows(self) -> int:
        """How many more unfinished games the card lists: as many as the window's height has room for."""
        room = (self.app.layout.window[1] - 600) // max(30, round(48 * self.app.layout.scale))
        return max(0, min(len(self.others), room))

    def card_rect(self) -> pygame.Rect:
        m = self._metrics()
        return pygame.Rect(m["card_x"], m["card_y"], m["card_w"], m["card_h"])

    # -- widgets ---------------------------------------------------------------------------

    def build_ui(self) -> None:
        manager = self.app.manager
        m = self._metrics()
        x0 = m["card_x"] + m["pad"]
        inner_w = m["card_w"] - 2 * m["pad"]
        label_w = max(round(inner_w * 0.3), min(110, inner_w // 2))
        wide = inner_w - label_w >= 330  # room for the short explanations next to the fields
        field_x = x0 + label_w
        field_w = inner_w - label_w
        row_h, gap = m["row_h"], m["gap"]
        y = m["card_y"] + m["pad"]
        self.widgets = {}

        def add(name: str, element: UIElement) -> None:
            self.widgets[name] = element
            self.elements.append(element)

        def label(text: str, top: int) -> None:
            add(f"label:{text}", UILabel(pygame.Rect(x0, top, label_w - 8, row_h), text, manager,
                                         object_id=ObjectID(object_id="#field_label")))

        if self.resume is not None or self.previous is not None:
            rematch_w = round(inner_w * 0.3) if self.resume is not None else inner_w
            if self.resume is not None:
                width = inner_w - rematch_w - 10
                text = self.app.fonts.fit(f"Resume: {self.resume.describe()}", 16, width - 24, bold=True)
                add("resume", Button(pygame.Rect(x0, y, width, row_h), text, manager,
                                     object_id=ObjectID(object_id="#primary"),
                                     tool_tip_text="Continue the game that was open when the window closed"))
            if self.previous is not None:
                text = "Rematch" if self.resume is not None else "Rematch: the last deal, sides swapped"
                add("rematch", Button(pygame.Rect(x0 + inner_w - rematch_w, y, rematch_w, row_h), text, manager,
                                      tool_tip_text="The last game's deal again, with the sides swapped"))
            y += row_h + gap
        discard_w = max(60, round(inner_w * 0.18))
        for index, saved in enumerate(self.others[:self._other_rows()]):
            width = inner_w - discard_w - 10
            text = self.app.fonts.fit(f"Resume: {saved.describe()}", 15, width - 24)
            add(f"other:{index}", Button(pygame.Rect(x0, y, width, row_h), text, manager,
                                         tool_tip_text="Another unfinished game, kept for later"))
            add(f"discard:{index}", Button(pygame.Rect(x0 + inner_w - discard_w, y, discard_w, row_h), "Discard",
                                           manager, tool_tip_text="Delete this unfinished game (asks first)"))
            y += row_h + gap

        label("Game", y)
        add("mode", UIDropDownMenu(list(MODE_LABELS.values()), MODE_LABELS[self.mode],
                                   pygame.Rect(field_x, y, field_w, row_h), manager))
        y += row_h + gap
        if self.mode == "hotseat":
            for key, text in (("player1", "Player 1"), ("player2", "Player 2")):
                label(text, y)
                entry = UITextEntryLine(pygame.Rect(field_x, y, field_w, row_h), manager, placeholder_text=text)
                entry.set_text_length_limit(40)
                entry.set_text(self.values[key])
                add(key, entry)
                y += row_h + gap
        else:
            label("Your name", y)
            entry = UITextEntryLine(pygame.Rect(field_x, y, field_w, row_h), manager, placeholder_text="You")
            entry.set_text_length_limit(40)
            entry.set_text(self.values["human_name"])
            add("human_name", entry)
            y += row_h + gap
            label("Solver", y)
            level_w = round(field_w * 0.42) if wide else field_w
            add("level", UIDropDownMenu(list(self.app.level_names), self.level,
                                        pygame.Rect(field_x, y, level_w, row_h), manager))
            if wide:
                add("level_help", UILabel(pygame.Rect(field_x + level_w + 10, y, field_w - level_w - 10, row_h),
                                          self.app.level_description(self.level), manager,
                                          object_id=ObjectID(object_id="#field_label")))
            y += row_h + gap
            label("Order", y)
            add("first", UIDropDownMenu(list(FIRST_LABELS.values()), FIRST_LABELS[self.human_first],
                                        pygame.Rect(field_x, y, field_w, row_h), manager))
            y += row_h + gap

        label("Deal", y)
        self._deal_row(field_x, y, field_w, row_h, add)
        y += row_h + gap + round(8 * self.app.layout.scale)

        button_gap = round(10 * self.app.layout.scale)
        for row in BUTTON_ROWS:
            room = inner_w - (len(row) - 1) * button_gap
            total = sum(share for *_, share in row)
            x = x0
            for index, (key, text, tip, share) in enumerate(row):
                # the last button takes what rounding left, so every row ends at the card's edge
                width = x0 + inner_w - x if index == len(row) - 1 else round(room * share / total)
                object_id = ObjectID(object_id="#primary") if key == "start" else None
                add(key, Button(pygame.Rect(x, y, width, row_h), text, manager, tool_tip_text=tip,
                                object_id=object_id))
                x += width + button_gap
            y += row_h + gap
        self.ring.forget_missing()
        self.hero.render(self.app.art, self.app.layout.scale * m["hero_scale"])

    def _deal_row(self, x: int, y: int, width: int, row_h: int, add: Callable[[str, UIElement], None]) -> None:
        """The deal's list (any, fair, of the day) and, beside it, what that kind asks: a number
        (empty: random), how fair, or nothing (the deal of the day is everyone's)."""
        manager = self.app.manager
        # "Deal of the day" and the list's arrow take about 130 px at scale 1: half the field at 800x600
        kind_w = max(round(width * 0.42), min(width // 2, round(150 * self.app.layout.scale)))
        add("deal_kind", UIDropDownMenu(list(KIND_LABELS.values()), KIND_LABELS[self.deal_kind],
                                        pygame.Rect(x, y, kind_w, row_h), manager))
        side = pygame.Rect(x + kind_w + 10, y, width - kind_w - 10, row_h)
        if self.deal_kind == "number":
            entry = UITextEntryLine(side, manager, placeholder_text="(random)")
            entry.set_text_length_limit(19)
            entry.set_text(self.values["deal"])
            add("deal", entry)
        elif self.deal_kind == "fair":
            add("fairness", UIDropDownMenu([fairness.label for fairness in FAIRNESS], self.fairness.label, side,
                                           manager))
        else:
            add("deal_help", UILabel(side, "the same for everyone", manager,
                                     object_id=ObjectID(object_id="#field_label")))

    # -- input -----------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        kind = event.type
        was_open = self._dialog_open()
        picked = self.files.handle(event)
        if picked is not None:
            if picked.purpose == "review":
                self.review(picked.path)
            else:
                self.load(picked.path)
            return
        if was_open or kind in DIALOG_EVENTS:
            return
        if kind == pygame_gui.UI_BUTTON_PRESSED:
            name = pressed_key(event, self.widgets)
            if name is not None and (name in ("resume", "rematch", "start", "online", "load", "quit", "puzzles",
                                              "stats", "edit", "review", "help")
                                     or name.startswith(("other:", "discard:"))):
                self.command(name)
        elif kind == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            self.menu_changed(event.ui_element, event.text)
        elif kind == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            self.command("start")
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
        if menu is self.widgets.get("mode"):
            chosen = next(key for key, label in MODE_LABELS.items() if label == text)
            self.set_mode(chosen)
        elif menu is self.widgets.get("level"):
            self.level = text
            help_label = self.widgets.get("level_help")
            if isinstance(help_label, UILabel):
                help_label.set_text(self.app.level_description(self.level))
        elif menu is self.widgets.get("first"):
            self.human_first = text == FIRST_LABELS[True]
        elif menu is self.widgets.get("deal_kind"):
            self.deal_kind = next(key for key, label in KIND_LABELS.items() if label == text)
            self.set_mode(self.mode)  # the row beside the list changes with it
            self._show_availability()
        elif menu is self.widgets.get("fairness"):
            self.fairness = next(fairness for fairness in FAIRNESS if fairness.label == text)
            self._show_availability()

    def _show_availability(self) -> None:
        """How many catalogued deals fit the new choice (a fair deal, the deal of the day), or that none does."""
        if self.deal_kind != "number":
            self.status = StatusLine(*availability(self._catalogue(), self.deal_kind, self.fairness))

    # -- the keyboard's focus ring (see ``FocusRing``) ---------------------------------------

    @property
    def focus(self) -> str | None:
        """The widget the ring is on (None: no ring, Enter starts the game)."""
        return self.ring.focus

    def focus_order(self) -> list[str]:
        return self.ring.order()

    def set_focus(self, name: str | None) -> None:
        self.ring.set(name)

    def _dialog_open(self) -> bool:
        return self.files.is_open()

    def _read_entries(self) -> None:
        for key in ("player1", "player2", "human_name", "deal"):
            entry = self.widgets.get(key)
            if isinstance(entry, UITextEntryLine):
                self.values[key] = entry.get_text()

    def set_mode(self, mode: str) -> None:
        self._read_entries()
        self.mode = mode
        self.clear_ui()
        self.build_ui()

    def command(self, name: str) -> None:
        if name == "resume" and self.resume is not None:
            self.app.start_match(self.resume, f"Resumed: {self.resume.describe()}.", "good")
        elif name.startswith("other:"):
            saved = self.others[int(name.split(":")[1])]
            match = Match.from_saved(saved, self.app.default_level)
            self.app.start_match(match, f"Resumed: {match.describe()}.", "good")
        elif name.startswith("discard:"):
            self.ask_discard(self.others[int(name.split(":")[1])])
        elif name == "rematch" and self.previous is not None:
            self.begin(self.previous.rematch(), "Rematch: the same deal with the sides swapped.", "good")
        elif name == "start":
            self.start()
        elif name == "online":
            self._read_entries()  # a resize while the form is covered rebuilds it from its values
            self.app.stack.push(OnlineSetupScene(self.app))
        elif name == "puzzles":
            self._read_entries()
            self.app.stack.push(PuzzleScene(self.app))
        elif name == "stats":
            self._read_entries()
            self.app.stack.push(StatsScene(self.app))
        elif name == "load":
            self.open_load_dialog()
        elif name == "edit":
            self.app.open_editor()
        elif name == "review":
            self.open_load_dialog("review")
        elif name == "help":
            open_help(self.app)
        elif name == "quit":
            self.app.running = False

    def _catalogue(self) -> Catalogue:
        """The app's catalogue (read on first use); a source that did not read is reported once."""
        catalogue = self.app.catalogue
        for text, kind in self.app.take_notices():
            self.status = StatusLine(text, kind)
        return catalogue

    def start(self) -> None:
        self._read_entries()
        try:
            pick = pick_deal(self.deal_kind, self.values["deal"], self.fairness,
                             None if self.deal_kind == "number" else self._catalogue())
        except BattleError as error:
            self.status = StatusLine(f"Deal number: {error}", "error")
            return
        except NoCataloguedDeal as none:
            self.status = StatusLine(str(none), "warn")
            return
        settings = self.app.settings
        settings.mode = self.mode
        settings.level = self.level
        settings.human_first = self.human_first
        settings.deal_kind = self.deal_kind
        settings.fairness = self.fairness.key
        if self.mode == "hotseat":
            settings.player1 = self.values["player1"].strip() or "Player 1"
            settings.player2 = self.values["player2"].strip() or "Player 2"
            names = (settings.player1, settings.player2)
        else:
            settings.human_name = self.values["human_name"].strip() or "You"
            names = (settings.human_name, settings.human_name)
        self.app.save_settings()
        match = new_match(pick.number, self.mode, names, self.level, self.human_first)
        self.begin(match, pick.notice, "good" if pick.notice else "info")

    def begin(self, match: Match, notice: str | None, kind: str = "info") -> None:
        """Start a new game; first ask what becomes of the unfinished game the player last left."""
        current = self.unfinished.current
        if current is None or current.game_id == match.game_id:
            self.app.start_match(match, notice, kind)
            return

        def answered(key: str | None) -> None:
            problem = None
            if key == "resume":
                resumed = Match.from_saved(current, self.app.default_level)
                self.app.start_match(resumed, f"Resumed: {resumed.describe()}.", "good")
                return
            if key == "keep":
                problem = keep_for_later(current)
            elif key == "discard":
                problem = discard(current)
            else:
                return
            if problem:
                self.app.start_match(match, problem, "error")
            else:
                self.app.start_match(match, notice, kind)

        self.app.stack.push(ChoiceScene(
            self.app, "Your last game is not finished",
            f"{current.describe()}. Resume it, keep it in the list of unfinished games and start the new one, "
            "or discard it?",
            (Choice("resume", "Resume it", "Go back to the unfinished game"),
             Choice("keep", "Keep it, start new", "The title lists it for later"),
             Choice("discard", "Discard it", "Delete the unfinished game")),
            answered))

    def ask_discard(self, saved: SavedGame) -> None:
        def answered(key: str | None) -> None:
            if key == "discard":
                problem = discard(saved)
                self.app.show_title(problem or f"Discarded: {saved.describe()}.", "error" if problem else "info")

        self.app.stack.push(ChoiceScene(
            self.app, "Discard this game?", f"{saved.describe()}. It cannot be brought back.",
            (Choice("cancel", "Keep it"), Choice("discard", "Discard it")), answered))

    def _typing(self) -> bool:
        """Whether a text field has the keyboard (then E is a letter, not a shortcut)."""
        return any(isinstance(widget, UITextEntryLine) and widget.is_focused for widget in self.widgets.values())

    def open_load_dialog(self, purpose: str = "load") -> None:
        problem = self.files.open(purpose)
        if problem:
            self.status = StatusLine(problem, "error")

    def _read_game(self, path: Path) -> tuple[Game, str] | None:
        """The game in a picked file and what it was, or None with the problem shown."""
        try:
            game, what = load_game_file(path)
        except FileProblem as problem:
            self.status = StatusLine(f"Could not load {problem}", "error")
            return None
        self.app.remember_folder(path.parent)
        return game, what

    def review(self, path: Path) -> None:
        """Review a game record from a file (a position file has no moves to review)."""
        loaded = self._read_game(path)
        if loaded is None:
            return
        game, what = loaded
        if game.ply == 0:
            self.status = StatusLine(f"{path.name} is a {what} without moves: nothing to review.", "warn")
            return
        self.app.open_review(game)

    def load(self, path: Path) -> None:
        loaded = self._read_game(path)
        if loaded is None:
            return
        game, what = loaded
        solver_side = None
        if self.mode == "solver":
            solver_side = 2 if self.human_first else 1
        self.begin(Match(game, solver_side, self.level), f"Loaded the {what} {path.name}.", "good")

    def on_resume(self) -> None:
        super().on_resume()
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
        self.hero.draw(surface, app.fonts, HeroPlace(m["top"], m["hero_h"], m["hero_scale"], m["card_y"]),
                       self.clock, scale)
        fonts = app.fonts
        card = self.card_rect()
        surface.blit(theme.rounded_panel(card.size, theme.PANEL, round(16 * scale), (*theme.GOLD, 90), 1), card)
        self.ring.draw(surface, scale)
        if self.status.text:
            colour = STATUS_COLOURS.get(self.status.kind, theme.IVORY)
            text = fonts.text(fonts.fit(self.status.text, 15 * scale, w - 40), 15 * scale, colour)
            surface.blit(text, text.get_rect(midtop=(w // 2, min(h - text.get_height() - 6,
                                                                card.bottom + round(14 * scale)))))
        if not app.solver.ready and app.solver.engine_error is None:
            # Quiet, in a corner: the window works meanwhile, only the solver's first reply would wait.
            note = fonts.text("preparing the solver...", 12 * scale, theme.IVORY_DIM)
            surface.blit(note, note.get_rect(bottomright=(w - round(10 * scale), h - round(8 * scale))))


PREPARING_CHECK = 0.5
"""Seconds between looks at the solver's warm-up while its note is on the title."""


def _newest_finished(app: Host) -> Match | None:
    saved = Shelf().newest_finished(app.level_names)
    return Match.from_saved(saved, app.default_level) if saved is not None else None
