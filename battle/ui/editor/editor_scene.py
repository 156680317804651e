"""The position editor: set up any position, check it, save it, analyse it or play it.

Click a kind in the palette, then cells to place it (drag to paint); right-click
or the eraser clears a cell. The board may break the rules while it is being
set up; the status line names the first rule broken (``find_layout_problem``'s
reason) and the broken cells are marked, and Analyse / Play stay disabled until
the position is valid and has a pair to take. The state lives in
``EditorModel``; this scene turns input into its changes and draws it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.core import ObjectID, UIElement
from pygame_gui.elements import UIButton, UILabel, UITextEntryLine

from battle.i18n import N_, _, pgettext
from battle.rules.board import Position, cell_name
from battle.rules.deal import parse_deal_number
from battle.rules.errors import BattleError
from battle.rules.game import Game
from battle.rules.tiles import COPIES, EMPTY, KIND_NAMES, kind_name
from battle.rules.wording import solver_name
from battle.ui.art import theme
from battle.ui.editor.editor_layout import EditorLayout, editor_layout, kind_at, split_row
from battle.ui.editor.editor_model import EditorModel
from battle.ui.files.game_files import FileProblem, load_position_file, save_position_file
from battle.ui.match import Match
from battle.ui.scene import Scene
from battle.ui.widgets.board_view import BoardState, face_rect, playable_cells
from battle.ui.widgets.buttons import TEXT_MARGIN, Button, fitted_label, font_width, set_enabled
from battle.ui.widgets.dialogs import FileDialogSlot, Picked, free_file_name, start_folder
from battle.ui.widgets.hud import StatusLine, draw_status
from battle.ui.widgets.layout import Rect, cell_at, cell_rect

if TYPE_CHECKING:
    from battle.ui.scene import Host

KEYS_HELP = N_("right-click clears · Esc back")


class EditorScene(Scene):
    files: FileDialogSlot

    def __init__(self, app: Host, position: Position | None = None) -> None:
        super().__init__(app)
        self.model = EditorModel.from_position(position) if position is not None else EditorModel.empty()
        self.kind: int | None = 0
        """The palette kind clicks place; None: the eraser."""
        self.widgets: dict[str, UIElement] = {}
        self.files = FileDialogSlot(app)
        self.hover_cell: int | None = None
        self.painting: int | None = None
        """The mouse button held down on the board (1 places, 3 erases), for painting by dragging."""
        self.clock = 0.0
        self.notice: StatusLine | None = None
        """A message about the last action (saved, loaded...), shown until the next edit."""
        self._palette_cache: dict[tuple[int, int, int], pygame.Surface] = {}

    # -- geometry and widgets ----------------------------------------------------------------

    def geometry(self) -> EditorLayout:
        layout = self.app.layout
        return editor_layout(layout.panel.rect, layout.scale)

    def build_ui(self) -> None:
        manager = self.app.manager
        geo = self.geometry()
        gap = geo.gap
        self.widgets = {}

        def add(name: str, element: UIElement) -> None:
            self.widgets[name] = element
            self.elements.append(element)

        def rect(r: Rect) -> pygame.Rect:
            return pygame.Rect(r.as_tuple())

        eraser, clear = split_row(geo.rows[0], (0.5, 0.5), gap)
        add(
            "eraser", Button(rect(eraser), _("Eraser"), manager, tool_tip_text=_("Clicks clear cells (or right-click)"))
        )
        add("clear", Button(rect(clear), _("Clear board"), manager, tool_tip_text=_("Remove every tile")))
        label, entry, fill = split_row(geo.rows[1], (0.27, 0.33, 0.40), gap)
        add(
            "deal_label",
            UILabel(
                rect(label),
                pgettext("the editor's short label of a deal's number", "Deal"),
                manager,
                object_id=ObjectID(object_id="#field_label"),
            ),
        )
        deal_entry = UITextEntryLine(rect(entry), manager, placeholder_text=_("number"))
        deal_entry.placeholder_text = fitted_label(_("number"), entry.w - 2 * TEXT_MARGIN, font_width(deal_entry))
        deal_entry.rebuild()
        deal_entry.set_allowed_characters("numbers")
        deal_entry.set_text_length_limit(19)
        add("deal", deal_entry)
        add("fill", Button(rect(fill), _("Fill board"), manager, tool_tip_text=_("The full board of that deal")))
        label, first, second = split_row(geo.rows[2], (0.31, 0.345, 0.345), gap)
        add("score_label", UILabel(rect(label), _("Scores"), manager, object_id=ObjectID(object_id="#field_label")))
        for name, piece, player in (("score1", first, 1), ("score2", second, 2)):
            score_entry = UITextEntryLine(
                rect(piece), manager, placeholder_text=_("player {player}").format(player=player)
            )
            score_entry.set_allowed_characters("numbers")
            score_entry.set_text_length_limit(4)
            score_entry.set_text(str(self.model.scores[player - 1]))
            add(name, score_entry)
        add(
            "to_move",
            Button(
                rect(geo.rows[3]),
                self._to_move_label(),
                manager,
                tool_tip_text=_("Who moves first from this position (click to change)"),
            ),
        )
        save, load = split_row(geo.rows[4], (0.5, 0.5), gap)
        add("save", Button(rect(save), _("Save .mbp..."), manager, tool_tip_text=_("Save the position (Ctrl+S)")))
        add(
            "load",
            Button(rect(load), _("Load..."), manager, tool_tip_text=_("Load a .mbp, or a .mbg's position (Ctrl+O)")),
        )
        analyse, play = split_row(geo.bottom[0], (0.5, 0.5), gap)
        add(
            "analyse",
            Button(
                rect(analyse),
                _("Analyse"),
                manager,
                object_id=ObjectID(object_id="#primary"),
                tool_tip_text=_("Open it in analysis mode (a two-player game from here)"),
            ),
        )
        add(
            "play",
            Button(
                rect(play),
                _("Play vs solver"),
                manager,
                tool_tip_text=_("You take the side to move, the solver the other"),
            ),
        )
        add("back", Button(rect(geo.bottom[1]), _("Back"), manager, tool_tip_text=_("Leave the editor (Esc)")))
        self._update_widgets()

    def _to_move_label(self) -> str:
        return _("Player {to_move} to move").format(to_move=self.model.to_move)

    def _update_widgets(self) -> None:
        ok = self.model.playable_problem() is None
        for name in ("analyse", "play"):
            button = self.widgets.get(name)
            if isinstance(button, UIButton):
                set_enabled(button, ok)
        save = self.widgets.get("save")
        if isinstance(save, UIButton):
            set_enabled(save, self.model.problem() is None)
        eraser = self.widgets.get("eraser")
        if isinstance(eraser, UIButton):
            if self.kind is None:
                eraser.select()
            else:
                eraser.unselect()

    def on_exit(self) -> None:
        self.files.close()
        super().on_exit()

    def dialog_open(self) -> bool:
        return self.files.is_open()

    # -- input -------------------------------------------------------------------------------

    def controls(self) -> dict[str, UIElement]:
        return self.widgets

    def handle_input(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            for player in (1, 2):
                if event.ui_element is self.widgets.get(f"score{player}"):
                    self.set_score(player, event.text)
            return
        if kind == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            if event.ui_element is self.widgets.get("deal"):
                self.command("fill")
            return
        if kind == pygame.MOUSEMOTION:
            self.hover_cell = cell_at(self.app.layout, event.pos)
            if self.painting is not None and self.hover_cell is not None:
                self.paint(self.hover_cell, erase=self.painting == 3)
        elif kind == pygame.MOUSEBUTTONDOWN and event.button in (1, 3):
            self.click(event.pos, event.button)
        elif kind == pygame.MOUSEBUTTONUP:
            self.painting = None
        elif kind == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.command("back")
            elif event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META) and event.key in (pygame.K_s, pygame.K_o):
                self.command("save" if event.key == pygame.K_s else "load")

    def click(self, pos: tuple[int, int], button: int = 1) -> None:
        chosen = kind_at(self.geometry(), pos)
        if chosen is not None and button == 1:
            self.choose(chosen)
            return
        cell = cell_at(self.app.layout, pos)
        if cell is not None:
            self.painting = button
            self.paint(cell, erase=button == 3)

    def choose(self, kind: int | None) -> None:
        """Pick the kind clicks place (None: the eraser)."""
        self.kind = kind  # the panel says what clicks do; the status line keeps saying what is wrong
        self._update_widgets()

    def paint(self, cell: int, erase: bool = False) -> None:
        if erase or self.kind is None:
            self.model.erase(cell)
        else:
            self.model.place(cell, self.kind)
        self.notice = None
        self._update_widgets()

    def set_score(self, player: int, text: str) -> None:
        self.model.set_score(player, int(text) if text.strip().isdigit() else 0)
        self.notice = None
        self._update_widgets()

    def command(self, name: str) -> None:
        model = self.model
        if name == "eraser":
            self.choose(None if self.kind is not None else 0)
        elif name == "clear":
            model.clear()
            self.notice = StatusLine(_("Cleared the board."), "info")
        elif name == "fill":
            self.fill()
        elif name == "to_move":
            model.toggle_to_move()
            button = self.widgets.get("to_move")
            if isinstance(button, UIButton):
                button.set_text(self._to_move_label())
            self.notice = None
        elif name in ("save", "load"):
            self.open_dialog("save_position" if name == "save" else "load_position")
        elif name in ("analyse", "play"):
            self.start(name)
        elif name == "back":
            self.app.stack.pop()
            return
        self._update_widgets()

    def fill(self) -> None:
        entry = self.widgets.get("deal")
        text = entry.get_text() if isinstance(entry, UITextEntryLine) else ""
        try:
            number = parse_deal_number(text.strip())
        except BattleError as error:
            self.notice = StatusLine(_("Deal number: {error}").format(error=error), "error")
            return
        self.model.fill_from_deal(number)
        self.notice = StatusLine(_("Filled the board from deal {number}.").format(number=number), "info")

    def start(self, how: str) -> None:
        """Leave the editor for a game from this position: analysed hot seat, or against the solver."""
        problem = self.model.playable_problem()
        if problem is not None:
            self.notice = StatusLine(_("Cannot start: {problem}.").format(problem=problem), "error")
            return
        position = self.model.position()
        settings = self.app.settings
        if how == "analyse":
            match = Match(Game(position, settings.player1, settings.player2))
            self.app.start_match(match, None, analyse=True)
            return
        level = settings.level if settings.level in self.app.level_names else self.app.default_level
        human, solver = settings.human_name, solver_name(level)
        names = (human, solver) if position.to_move == 1 else (solver, human)
        match = Match(Game(position, *names), 3 - position.to_move, level)
        self.app.start_match(
            match, _("Playing the edited position against the solver ({level}): your move.").format(level=level), "good"
        )

    # -- files -------------------------------------------------------------------------------

    def open_dialog(self, purpose: str) -> None:
        if self.dialog_open():
            return
        if purpose == "save_position" and self.model.problem() is not None:
            self.notice = StatusLine(
                _("Cannot save an invalid position: {problem}.").format(problem=self.model.problem()), "error"
            )
            return
        name = free_file_name(start_folder(self.app), "position", ".mbp") if purpose == "save_position" else ""
        problem = self.files.open(purpose, name)
        if problem:
            self.notice = StatusLine(problem, "error")

    def file_picked(self, picked: Picked) -> None:
        if picked.purpose == "save_position":
            self.save_to(picked.path)
        elif picked.purpose == "load_position":
            self.load_from(picked.path)

    def save_to(self, path: Path) -> None:
        try:
            written = save_position_file(path, self.model.position())
        except (FileProblem, BattleError) as problem:
            self.notice = StatusLine(_("Could not save: {problem}").format(problem=problem), "error")
            return
        self.app.remember_folder(written.parent)
        self.notice = StatusLine(
            _("Saved {name} (in {parent}).").format(name=written.name, parent=written.parent), "good"
        )

    def load_from(self, path: Path) -> None:
        try:
            position = load_position_file(path)
        except FileProblem as problem:
            self.notice = StatusLine(_("Could not load {problem}").format(problem=problem), "error")
            return
        self.app.remember_folder(Path(path).parent)
        self.model = EditorModel.from_position(position)
        self.clear_ui()
        self.build_ui()
        self.notice = StatusLine(_("Loaded {name}.").format(name=Path(path).name), "good")

    # -- time and drawing --------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.clock += dt

    def status(self) -> StatusLine:
        """The status line: the last action's message, else whether the position is valid and why not."""
        if self.notice is not None:
            return self.notice
        problem = self.model.problem()
        if problem is not None:
            return StatusLine(_("Not a valid position: {problem}.").format(problem=problem), "error")
        playable = self.model.playable_problem()
        if playable is not None:
            return StatusLine(_("Valid, but {playable}.").format(playable=playable), "warn")
        return StatusLine(self.model.summary(), "good")

    def draw(self, surface: pygame.Surface) -> None:
        app, layout, model = self.app, self.app.layout, self.model
        free = frozenset(model.free_cells())
        valid = model.problem() is None
        state = BoardState(
            cells=model.cells,
            free=free,
            playable=playable_cells(model.cells, free) if valid else frozenset(),
            now=self.clock,
        )
        app.board_view.draw(surface, layout, state)
        slot = theme.mix(theme.MAT, theme.IVORY_FAINT, 0.45)
        for cell, kind in enumerate(model.cells):
            if kind == EMPTY:
                face = face_rect(cell_rect(layout, cell))
                pygame.draw.rect(surface, slot, pygame.Rect(face.as_tuple()), width=1, border_radius=4)
        for cell in model.problem_cells():
            outline = pygame.Rect(face_rect(cell_rect(layout, cell)).as_tuple()).inflate(4, 4)
            pygame.draw.rect(surface, theme.ERROR, outline, width=max(2, round(3 * layout.scale)), border_radius=5)
        if self.hover_cell is not None and self.kind is not None and not self.dialog_open():
            rect = cell_rect(layout, self.hover_cell)
            if model.cells[self.hover_cell] == EMPTY:  # where a click would put the tile
                ghost = app.board_view.tile(self.kind, "normal", layout).copy()
                ghost.set_alpha(110)
                surface.blit(ghost, (rect.x, rect.y))
            else:  # a click would replace this tile
                outline = pygame.Rect(face_rect(rect).as_tuple()).inflate(4, 4)
                pygame.draw.rect(surface, theme.GOLD_BRIGHT, outline, width=2, border_radius=5)
        self._draw_panel(surface)
        draw_status(surface, app.fonts, layout, self.status(), self.clock, KEYS_HELP)

    def _draw_panel(self, surface: pygame.Surface) -> None:
        app, layout = self.app, self.app.layout
        fonts, scale = app.fonts, layout.scale
        panel = layout.panel.rect
        surface.blit(
            theme.rounded_panel((panel.w, panel.h), theme.PANEL, max(6, round(14 * scale)), (*theme.GOLD, 60), 1),
            (panel.x, panel.y),
        )
        geo = self.geometry()
        title = fonts.text(_("Position editor"), 21 * scale, theme.IVORY, bold=True)
        surface.blit(title, (geo.header.x, geo.header.y))
        hint = (
            _("Pick a tile, click cells to place it.") if self.kind is not None else _("Eraser: click cells to clear.")
        )
        sub = fonts.text(fonts.fit(hint, 14 * scale, geo.header.w), 14 * scale, theme.IVORY_DIM)
        surface.blit(sub, (geo.header.x, geo.header.y + title.get_height() + round(2 * scale)))
        for kind, rect in enumerate(geo.palette):
            face = self._palette_face(kind, rect.w, rect.h)
            surface.blit(face, (rect.x, rect.y))
            if kind == self.kind:
                pygame.draw.rect(
                    surface, theme.GOLD_BRIGHT, pygame.Rect(rect.as_tuple()).inflate(4, 4), width=2, border_radius=4
                )
            count = self.model.count(kind)
            colour = theme.ERROR if count > COPIES else (theme.IVORY_FAINT if count == 0 else theme.IVORY_DIM)
            label = fonts.text(f"{count}/{COPIES}", 11 * scale, colour, bold=count > COPIES)
            surface.blit(label, label.get_rect(midtop=(rect.x + rect.w // 2, rect.bottom + 1)))
        info = geo.info
        lines = self._info_lines()
        y = info.y + round(4 * scale)
        for text, colour in lines:
            if y + round(18 * scale) > info.bottom:
                break
            rendered = fonts.text(fonts.fit(text, 14 * scale, info.w), 14 * scale, colour)
            surface.blit(rendered, (info.x, y))
            y += round(20 * scale)

    def _info_lines(self) -> list[tuple[str, theme.Colour]]:
        model = self.model
        tiles = sum(1 for kind in model.cells if kind != EMPTY)
        lines = [(_("Tiles on the board: {tiles}").format(tiles=tiles), theme.IVORY_DIM)]
        selected = (
            _("Placing: {KIND_NAMES}").format(KIND_NAMES=KIND_NAMES[self.kind])
            if self.kind is not None
            else _("Eraser on")
        )
        lines.append((selected, theme.GOLD))
        if self.hover_cell is not None:
            kind = model.cells[self.hover_cell]
            lines.append(
                (
                    _("Pointer on {cell_name}: {kind_name}").format(
                        cell_name=cell_name(self.hover_cell), kind_name=kind_name(kind)
                    ),
                    theme.IVORY_FAINT,
                )
            )
        problem = model.problem()
        lines.append(
            (
                _("Valid position") if problem is None else _("Invalid: see the status line"),
                theme.GOLD_BRIGHT if problem is None else theme.ERROR,
            )
        )
        return lines

    def _palette_face(self, kind: int, width: int, height: int) -> pygame.Surface:
        key = (kind, width, height)
        face = self._palette_cache.get(key)
        if face is None:
            if len(self._palette_cache) > 60:
                self._palette_cache.clear()
            face = self._palette_cache[key] = self.app.art.face(kind, width, height)
        return face
