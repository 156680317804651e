"""The title screen and new-game form: resume, hot seat or against the solver, which deal.

The form remembers its values across rebuilds (a resize, switching the mode),
and the chosen names, level and mode go into the settings when a game starts.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIDropDownMenu, UILabel, UITextEntryLine
from pygame_gui.windows import UIFileDialog

from battle.deal import parse_deal_number
from battle.errors import BattleError
from battle.ui import theme
from battle.ui.autosave import read_autosave
from battle.ui.buttons import Button
from battle.ui.dialogs import DialogProblem, open_file_dialog
from battle.ui.files import FileProblem, load_game_file
from battle.ui.hud import STATUS_COLOURS, Status
from battle.ui.match import Match, new_match
from battle.ui.scene import Scene, pressed_key

if TYPE_CHECKING:
    from battle.game import Game
    from battle.ui.app import App

MODE_LABELS = {"hotseat": "Two players, one screen", "solver": "Against the solver"}
FIRST_LABELS = {True: "You move first", False: "The solver moves first"}
HERO_KINDS = (18, 4, 13, 22, 8, 9, 26)
"""The tiles fanned above the title: the bird (1 bamboo) first, then a mix of suits."""


class TitleScene(Scene):
    def __init__(self, app: App, notice: str | None = None, notice_kind: str = "info") -> None:
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
        self.widgets: dict[str, object] = {}
        self.dialog: UIFileDialog | None = None
        self.dialog_purpose = "load"
        self.clock = 0.0
        self.hero: pygame.Surface | None = None
        self.status = Status(notice, notice_kind) if notice else Status("", "quiet")
        resumable = read_autosave(app.level_names)
        self.resume: Match | None = resumable.match
        # the last game, finished or not, can be replayed with the sides swapped
        self.previous: Match | None = app.last_match or resumable.match
        if self.resume is not None and self.resume.game.is_over():
            self.resume = None
        if resumable.problem:
            self.status = Status(resumable.problem, "warn")
        for text, kind in app.take_notices():
            self.status = Status(text, kind)

    # -- geometry --------------------------------------------------------------------------

    def _metrics(self) -> dict[str, int]:
        w, h = self.app.layout.window
        scale = self.app.layout.scale
        top_row = self.resume is not None or self.previous is not None
        rows = 6 + (1 if top_row else 0) + (1 if self.mode == "solver" else 0)
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

        def add(name: str, element: object) -> None:
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

        label("Deal number", y)
        deal_w = round(field_w * 0.42) if wide else field_w
        entry = UITextEntryLine(pygame.Rect(field_x, y, deal_w, row_h), manager, placeholder_text="(random)")
        entry.set_text_length_limit(19)
        entry.set_text(self.values["deal"])
        add("deal", entry)
        if wide:
            add("deal_help", UILabel(pygame.Rect(field_x + deal_w + 10, y, field_w - deal_w - 10, row_h),
                                     "empty: a random deal", manager, object_id=ObjectID(object_id="#field_label")))
        y += row_h + gap + round(8 * self.app.layout.scale)

        button_gap = round(10 * self.app.layout.scale)
        widths = (0.36, 0.42, 0.22)
        x = x0
        for (key, text, tip), share in zip((
            ("start", "Start game", "Deal the tiles (Enter)"),
            ("load", "Load game...", "Open a game record (.mbg) or a position (.mbp)"),
            ("quit", "Quit", "Close the window"),
        ), widths, strict=True):
            width = round((inner_w - 2 * button_gap) * share)
            object_id = ObjectID(object_id="#primary") if key == "start" else None
            add(key, Button(pygame.Rect(x, y, width, row_h), text, manager, tool_tip_text=tip,
                            object_id=object_id))
            x += width + button_gap
        y += row_h + gap
        half = (inner_w - button_gap) // 2
        add("edit", Button(pygame.Rect(x0, y, half, row_h), "Edit a position", manager,
                           tool_tip_text="Set up any position, then analyse it or play it (E)"))
        add("review", Button(pygame.Rect(x0 + half + button_gap, y, inner_w - half - button_gap, row_h),
                             "Review a game...", manager,
                             tool_tip_text="Grade every move of a game record (.mbg) against perfect play"))
        self._render_hero()

    def _render_hero(self) -> None:
        """The fan of tiles over the title, rendered once per size (drawing only blits it)."""
        scale = self.app.layout.scale * self._metrics()["hero_scale"]
        tile_h = max(24, round(92 * scale))
        tile_w = round(tile_h * 0.75)
        count = len(HERO_KINDS)
        width = round(tile_w * count * 0.82 + tile_w * 2)
        height = round(tile_h * 1.6)
        hero = pygame.Surface((width, height), pygame.SRCALPHA)
        hero.fill((0, 0, 0, 0))
        art = self.app.art
        for index, kind in enumerate(HERO_KINDS):
            t = index / (count - 1) - 0.5
            angle = -t * 36
            tile = pygame.Surface((tile_w + 12, tile_h + 12), pygame.SRCALPHA)
            tile.fill((0, 0, 0, 0))
            art.draw(tile, kind, (2, 2), tile_w, tile_h)
            rotated = pygame.transform.rotozoom(tile, angle, 1.0)
            cx = width / 2 + t * tile_w * count * 0.78
            cy = height * 0.56 + (t * t) * tile_h * 0.9
            hero.blit(rotated, rotated.get_rect(center=(round(cx), round(cy))))
        self.hero = hero

    # -- input -----------------------------------------------------------------------------

    def handle_event(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame_gui.UI_BUTTON_PRESSED:
            name = pressed_key(event, self.widgets)
            if name in ("resume", "rematch", "start", "load", "quit", "edit", "review"):
                self.command(name)
        elif kind == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            if event.ui_element is self.widgets.get("mode"):
                chosen = next(key for key, text in MODE_LABELS.items() if text == event.text)
                self.set_mode(chosen)
            elif event.ui_element is self.widgets.get("level"):
                self.level = event.text
                help_label = self.widgets.get("level_help")
                if isinstance(help_label, UILabel):
                    help_label.set_text(self.app.level_description(self.level))
            elif event.ui_element is self.widgets.get("first"):
                self.human_first = event.text == FIRST_LABELS[True]
        elif kind == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            self.command("start")
        elif kind == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            if self.dialog is not None and event.ui_element is self.dialog:
                self.dialog = None
                if self.dialog_purpose == "review":
                    self.review(Path(event.text))
                else:
                    self.load(Path(event.text))
        elif kind == pygame.KEYDOWN and not self._dialog_open():
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.command("start")
            elif event.key == pygame.K_o and event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META):
                self.command("load")
            elif event.key == pygame.K_e and not self._typing():
                self.command("edit")

    def _dialog_open(self) -> bool:
        return self.dialog is not None and self.dialog.alive()

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
        elif name == "rematch" and self.previous is not None:
            self.app.start_match(self.previous.rematch(), "Rematch: the same deal with the sides swapped.", "good")
        elif name == "start":
            self.start()
        elif name == "load":
            self.open_load_dialog()
        elif name == "edit":
            self.app.open_editor()
        elif name == "review":
            self.open_load_dialog("review")
        elif name == "quit":
            self.app.running = False

    def start(self) -> None:
        self._read_entries()
        text = self.values["deal"].strip()
        number = None
        if text:
            try:
                number = parse_deal_number(text)
            except BattleError as error:
                self.status = Status(f"Deal number: {error}", "error")
                return
        settings = self.app.settings
        settings.mode = self.mode
        settings.level = self.level
        settings.human_first = self.human_first
        if self.mode == "hotseat":
            settings.player1 = self.values["player1"].strip() or "Player 1"
            settings.player2 = self.values["player2"].strip() or "Player 2"
            names = (settings.player1, settings.player2)
        else:
            settings.human_name = self.values["human_name"].strip() or "You"
            names = (settings.human_name, settings.human_name)
        self.app.save_settings()
        match = new_match(number, self.mode, names, self.level, self.human_first)
        self.app.start_match(match, None)

    def _typing(self) -> bool:
        """Whether a text field has the keyboard (then E is a letter, not a shortcut)."""
        return any(isinstance(widget, UITextEntryLine) and widget.is_focused for widget in self.widgets.values())

    def open_load_dialog(self, purpose: str = "load") -> None:
        if self._dialog_open():
            return
        try:
            self.dialog = open_file_dialog(self.app, purpose)
        except DialogProblem as problem:
            self.status = Status(str(problem), "error")
            return
        self.dialog_purpose = purpose

    def _read_game(self, path: Path) -> tuple[Game, str] | None:
        """The game in a picked file and what it was, or None with the problem shown."""
        try:
            game, what = load_game_file(path)
        except FileProblem as problem:
            self.status = Status(f"Could not load {problem}", "error")
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
            self.status = Status(f"{path.name} is a {what} without moves: nothing to review.", "warn")
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
        self.app.start_match(Match(game, solver_side, self.level), f"Loaded the {what} {path.name}.", "good")

    def on_exit(self) -> None:
        if self.dialog is not None:
            self.dialog.kill()
            self.dialog = None
        super().on_exit()

    # -- time and drawing ------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.clock += dt
        if self.dialog is not None and not self.dialog.alive():
            self.dialog = None

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        layout = app.layout
        scale = layout.scale
        w, h = layout.window
        surface.blit(app.felt.surface(layout.window, (0.5, 0.42)), (0, 0))
        m = self._metrics()
        if self.hero is not None:
            bob = math.sin(self.clock * 1.2) * 2 * scale
            lift = round(28 * scale * m["hero_scale"])
            hero_rect = self.hero.get_rect(midtop=(w // 2, m["top"] + round(bob) - lift))
            surface.blit(self.hero, hero_rect)
        fonts = app.fonts
        title_y = m["top"] + round(m["hero_h"] * 0.70)
        mark = fonts.text("麻将", 30 * scale, theme.GOLD, bold=True)
        title = fonts.text("Mahjong Battle", 44 * scale, theme.IVORY, bold=True)
        total = mark.get_width() + round(14 * scale) + title.get_width()
        x = (w - total) // 2
        surface.blit(mark, mark.get_rect(midleft=(x, title_y)))
        surface.blit(title, title.get_rect(midleft=(x + mark.get_width() + round(14 * scale), title_y)))
        tagline = fonts.text("Take pairs of free tiles, score their value: 270 points in play, the bigger share wins.",
                             15 * scale, theme.IVORY_DIM)
        tagline_rect = tagline.get_rect(midtop=(w // 2, title_y + title.get_height() // 2 + round(8 * scale)))
        if tagline_rect.bottom < m["card_y"]:  # a short window squeezes it out rather than under the form
            surface.blit(tagline, tagline_rect)

        card = self.card_rect()
        surface.blit(theme.rounded_panel(card.size, theme.PANEL, round(16 * scale), (*theme.GOLD, 90), 1), card)
        if self.status.text:
            colour = STATUS_COLOURS.get(self.status.kind, theme.IVORY)
            text = fonts.text(fonts.fit(self.status.text, 15 * scale, w - 40), 15 * scale, colour)
            surface.blit(text, text.get_rect(midtop=(w // 2, min(h - text.get_height() - 6,
                                                                card.bottom + round(14 * scale)))))
