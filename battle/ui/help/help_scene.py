"""Rules & keys: the rules in plain words, the marks on the board, and every shortcut of every screen.

An overlay card over whatever screen asked for it (F1 or ? anywhere, or the title's
"Rules & keys" button), closed by Esc, F1, ? or its Close button. The page is drawn
once per window size and text size and scrolls (wheel, arrows, PageUp/PageDown,
Home/End) when it is taller than the card: 3208 px at 1200x800 against 590 px
of room. The card's foot also sets the text size, as Ctrl+= and Ctrl+- do everywhere, and the
sound's volume and mute, as + / - and M do; a row above it turns the par's background work on or off.

``window_key`` is the App's hook for the keys that work on every screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UITextEntryBox, UITextEntryLine

from battle.i18n import N_, _, available_languages, current_language, format_percent, language_name
from battle.ui.analysis.analysis_view import BADGE_TEXT, BEST_COLOUR, BEST_MARK
from battle.ui.art import theme
from battle.ui.files.settings import UI_SCALE_RANGE, UI_SCALE_STEP
from battle.ui.scene import Scene
from battle.ui.sound.sound_control import MUTE, SoundControl
from battle.ui.widgets.buttons import Button
from battle.ui.widgets.layout import layout_scale

if TYPE_CHECKING:
    from battle.ui.scene import Host

TITLE = N_("Rules & keys")

RULES = (
    N_("108 tiles lie face up in 12 columns of 9: characters, circles and bamboo, values 1 to 9, four of each."),
    N_(
        "A tile is free when it is the top-most or the bottom-most tile left in its column. A tile you "
        "could reach only from the left or the right is not free."
    ),
    N_(
        "On your turn, take a pair of identical free tiles (same suit, same value) and score its value, "
        "1 to 9 points. A player who has a pair must take one: there is no passing."
    ),
    N_(
        "The game ends when no pair of free twins is left. 270 points are in play, so 136 always win; "
        "a draw is possible."
    ),
    N_("Think beyond the points: every pair you take frees the tiles behind it, for your opponent first."),
)

PAR_TIP = N_(
    "Work out the par of a deal no catalogue knows while it is played: one thread at the lowest "
    "priority, paused while the solver works for you and while the computer runs on its battery"
)
PAR_MEANING = N_("Par: a deal's value under perfect play, shown when the game ends.")


def _par_label(on: bool) -> str:
    return _("Work out pars: on") if on else _("Work out pars: off")


PICTURE_KINDS = (15, 2, 21, 7, 15)
"""The example column, top to bottom: 7 circles at both ends (a free pair), blocked tiles between."""

MARKS = (
    ("player", N_("Player 1 (red) is a circle, player 2 (blue) a diamond: on the cards, in the move lists.")),
    ("best", N_("Analysis: a best pair's badge starts with a star; the others show how much worse they are.")),
    ("grades", N_("Review: ✓ best, good (1-2 points lost), ?! inaccuracy (3-5), ? mistake (6-9), ?? blunder (10+).")),
)

SHORTCUTS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        N_("Every screen"),
        (
            (N_("F1  or  ?"), N_("This page (F1, ? or Esc closes it)")),
            (N_("Ctrl + =  /  Ctrl + -  /  Ctrl + 0"), N_("Larger / smaller / the normal text size")),
            (N_("M"), N_("Sound off / on (kept, like the volume)")),
            (N_("+  /  -"), N_("Louder / softer sound")),
        ),
    ),
    (
        N_("Title"),
        (
            (
                N_("Tab  /  Shift + Tab,  ← → ↑ ↓"),
                N_(
                    "Move the focus ring over the buttons and fields (in a name or "
                    "number field ← → move its cursor, Tab moves on)"
                ),
            ),
            (N_("Enter"), N_("Press the focused button (Start game when nothing is focused)")),
            (N_("Enter  or  Space"), N_("Open the focused list; ↑ ↓ choose, Enter takes it, Esc keeps the old choice")),
            (N_("Esc"), N_("Hide the focus ring")),
            (N_("Ctrl + O"), N_("Load a game record (.mbg) or a position (.mbp)")),
            ("E", N_("Edit a position")),
            ("O", N_("Play online: host, join or come back to a game over the network")),
            ("P  /  S", N_("Puzzles / your statistics")),
        ),
    ),
    (
        N_("Game"),
        (
            (
                N_("Click,  ← → ↑ ↓"),
                N_("Pick a free tile, then its twin; the arrows move a cursor over the free tiles"),
            ),
            (N_("Enter  or  Space"), N_("Select the tile under the cursor")),
            (N_("Esc,  right click"), N_("Drop the selection")),
            ("U  /  R", N_("Undo / redo a move")),
            ("H", N_("Hint: the perfect player's move")),
            ("A", N_("Analysis on / off")),
            ("N", N_("New game (back to the title)")),
            ("E", N_("Edit this position")),
            ("V", N_("Review the game")),
            (N_("Ctrl + S  /  Ctrl + O"), N_("Save the game / load a game or a position")),
            (
                N_("Click a move in the list"),
                N_("Show the board after that move (any other key or a right click: back)"),
            ),
            (N_("then  ← ↑  /  → ↓,  Home  /  End"), N_("The move before / after, the first / the last")),
            (N_("Mouse wheel"), N_("Scroll the move list")),
        ),
    ),
    (
        N_("Puzzles"),
        (
            (
                N_("Click,  ← → ↑ ↓"),
                N_("Pick a free tile, then its twin; the arrows move a cursor over the free tiles"),
            ),
            (N_("Enter  or  Space"), N_("Select the tile under the cursor")),
            ("T", N_("Try again after a wrong move (a click on the board does too)")),
            ("S", N_("Show the solution (the puzzle counts as missed)")),
            ("N", N_("Next puzzle")),
            (N_("Esc  or  Backspace"), N_("Drop the selection; after a wrong move, try again; else back to the title")),
        ),
    ),
    (
        N_("Statistics"),
        (
            (N_("Tab  /  Shift + Tab,  ← → ↑ ↓"), N_("Move the focus ring over the best and worst games and Back")),
            (N_("Enter  or  Space"), N_("Open the focused game in the review screen")),
            (N_("Esc  or  Backspace"), N_("Hide the focus ring; without one, back to the title")),
        ),
    ),
    (
        N_("Analysis"),
        (
            ("B", N_("Back to the game position (drops the variation)")),
            (N_(",  or  PageUp"), N_("Step back along the best line")),
            (N_(".  or  PageDown"), N_("Preview the best line one move further")),
            ("P", N_("Play the previewed line into the variation")),
            ("U  /  R", N_("Undo / redo a move of the variation")),
            ("A", N_("Analysis off")),
        ),
    ),
    (
        N_("Position editor"),
        (
            (N_("Click  /  right click"), N_("Place the chosen tile / clear a cell; hold the button to paint")),
            (N_("Esc"), N_("Back")),
            (N_("Ctrl + S  /  Ctrl + O"), N_("Save / load a position")),
        ),
    ),
    (
        N_("Review"),
        (
            ("← ↑  /  → ↓", N_("Previous / next move")),
            (N_("PageUp  /  PageDown"), N_("Ten moves back / on")),
            (N_("Home  /  End"), N_("The start / the end")),
            ("R", N_("Retry from here against the solver")),
            ("A", N_("Analyse this position")),
            ("D", N_("Deeper: review again with more time per move")),
            (N_("Esc  or  Backspace"), N_("Back (while the review runs: stop it)")),
        ),
    ),
    (
        N_("Game over"),
        (
            (N_("Enter"), N_("Rematch: the same deal, sides swapped")),
            ("N", N_("New game")),
            ("V", N_("Review the game")),
            (N_("Esc"), N_("Close the panel and look at the board")),
        ),
    ),
    (
        N_("Play online"),
        (
            (
                N_("Tab  /  Shift + Tab,  ← → ↑ ↓"),
                N_("Move the focus ring over the fields and buttons, as on the title"),
            ),
            (
                N_("Enter"),
                N_(
                    "In the invite code: join; in the deal number: host; with nothing focused: join when a code "
                    "is typed, else host"
                ),
            ),
            (N_("Esc"), N_("Hide the focus ring; without one, back to the title")),
        ),
    ),
    (
        N_("Waiting for an opponent"),
        (
            ("C", N_("Copy the invite link to the clipboard")),
            ("A", N_("Call the hosted game off: nobody can join it any more")),
            (N_("Esc  or  Backspace"), N_("Back to the online setup (a hosted game waits on the server)")),
        ),
    ),
    (
        N_("Online game"),
        (
            ("T", N_("Ask your opponent to let you take back your last move")),
            ("Y  /  N", N_("Yes / no to your opponent's takeback request or rematch offer")),
            ("L", N_("Leave: back to the title; the game waits on the server")),
            (N_("Ctrl + S"), N_("Save the game record the server keeps")),
            (
                N_("U  R  H  A  E  V,  Ctrl + O"),
                N_(
                    "Off while the game is played (undo, redo, hint, analysis, editor, "
                    "review, load); V, A and E come back once it is over"
                ),
            ),
        ),
    ),
    (
        N_("Questions and file dialogs"),
        (
            (N_("Tab  /  Shift + Tab,  ← → ↑ ↓"), N_("Move between the answers")),
            (N_("Enter  or  Space"), N_("Take the focused answer")),
            (N_("Esc"), N_("Cancel")),
            (N_("Enter in the path box"), N_("Open or save the file named there")),
        ),
    ),
    (
        N_("This page"),
        (
            (N_("↑ ↓,  PageUp / PageDown,  Home / End"), N_("Scroll (the mouse wheel too)")),
            (N_("Esc,  F1  or  ?"), N_("Close")),
        ),
    ),
)
"""Every keyboard shortcut, screen by screen (the handlers are the scenes' ``pygame.K_`` tests)."""


def window_key(app: Host, event: pygame.event.Event) -> bool:
    """Keys that work on every screen, before the widgets see them; True when ``event`` was one.

    F1 and ? open this page (? only when no text field has the keyboard, where it is a character),
    Ctrl+= / Ctrl+- / Ctrl+0 set the text size.
    """
    command = event.mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
    if command:
        if event.key in (pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS):
            app.set_ui_scale(app.settings.ui_scale + UI_SCALE_STEP)
            return True
        if event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            app.set_ui_scale(app.settings.ui_scale - UI_SCALE_STEP)
            return True
        if event.key in (pygame.K_0, pygame.K_KP_0):
            app.set_ui_scale(1.0)
            return True
        return False
    asked = event.key == pygame.K_F1 or (getattr(event, "unicode", "") == "?" and not _typing(app))
    if not asked:
        return False
    top = app.stack.top
    if isinstance(top, HelpScene):
        top.close()
        return True
    if app.manager.get_window_stack().get_full_stack():
        return False  # a file dialog has the keyboard
    app.open_help()
    return True


def _typing(app: Host) -> bool:
    return any(
        isinstance(element, (UITextEntryLine, UITextEntryBox)) and element.is_focused
        for element in app.manager.get_focus_set() or ()
    )


class HelpScene(Scene):
    overlay = True

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        self.offset = 0
        """How far the page is scrolled, in pixels."""
        self.page: pygame.Surface | None = None
        self.buttons: dict[str, Button] = {}
        self.sound: SoundControl | None = None
        """The volume slider and mute button, beside the text size."""

    # -- geometry --------------------------------------------------------------------------

    def card_rect(self) -> pygame.Rect:
        layout = self.app.layout
        scale = layout.scale
        margin = max(8, round(20 * scale))
        width = min(layout.window[0] - 2 * margin, max(360, round(900 * scale)))
        rect = pygame.Rect(0, 0, max(100, width), max(100, layout.window[1] - 2 * margin))
        rect.center = (layout.window[0] // 2, layout.window[1] // 2)
        return rect

    def _pad(self) -> int:
        return max(10, round(22 * self.app.layout.scale))

    def _foot_height(self) -> int:
        return max(24, round(36 * self.app.layout.scale))

    def _foot_text_size(self) -> float:
        return max(12.0 * self.app.layout.zoom, 14 * self.app.layout.scale)

    def viewport(self) -> pygame.Rect:
        """The part of the card the page scrolls in: under the title, above the buttons."""
        card = self.card_rect()
        pad = self._pad()
        top = card.y + pad + round(34 * self.app.layout.scale)
        bottom = card.bottom - pad - 2 * self._foot_height() - round(20 * self.app.layout.scale)
        return pygame.Rect(card.x + pad, top, card.w - 2 * pad, max(10, bottom - top))

    def max_offset(self) -> int:
        return max(0, (self.page.get_height() if self.page else 0) - self.viewport().h)

    # -- widgets ---------------------------------------------------------------------------

    def on_enter(self) -> None:
        self.app.manager.set_focus_set(None)  # a hidden text field below must not take the typing
        super().on_enter()

    def build_ui(self) -> None:
        card = self.card_rect()
        scale = self.app.layout.scale
        pad = self._pad()
        height = self._foot_height()
        gap = round(10 * scale)
        y = card.bottom - pad - height
        # each button as wide as its words (German's "Schließen" and "Schrift +" are wider than English's),
        # so that the volume slider and the text size keep their room beside them at 800x600
        foot_size = self._foot_text_size()

        def fitting(*labels: str, least: int) -> int:
            return max(least, *(self.app.fonts.width(label, foot_size) + round(36 * scale) for label in labels))

        close_w = fitting(_("Close"), least=max(80, round(110 * scale)))
        size_w = fitting(_("Text -"), _("Text +"), least=max(60, round(90 * scale)))
        language_w = fitting(*map(language_name, available_languages()), least=max(80, round(110 * scale)))
        self.buttons = {}
        par_w = fitting(_par_label(True), _par_label(False), least=max(80, round(110 * scale)))
        above = y - height - gap  # the row over the foot
        for key, label, tip, x, top, width, object_id in (
            ("par", _par_label(self.app.settings.background_par), _(PAR_TIP), card.x + pad, above, par_w, None),
            ("smaller", _("Text -"), _("Smaller text everywhere (Ctrl + -)"), card.x + pad, y, size_w, None),
            (
                "larger",
                _("Text +"),
                _("Larger text everywhere (Ctrl + =)"),
                card.x + pad + size_w + gap,
                y,
                size_w,
                None,
            ),
            (
                "language",
                language_name(current_language()),
                _("The language of the game: click for the next one"),
                card.right - pad - close_w - gap - language_w,
                y,
                language_w,
                None,
            ),
            ("close", _("Close"), _("Back to the screen (Esc)"), card.right - pad - close_w, y, close_w, "#primary"),
        ):
            button = Button(
                pygame.Rect(x, top, width, height),
                label,
                self.app.manager,
                tool_tip_text=tip,
                object_id=ObjectID(object_id=object_id) if object_id else None,
            )
            self.buttons[key] = button
            self.elements.append(button)
        label_w = self.app.fonts.width(format_percent(100, 0), foot_size)  # the least it shows
        size_end = card.x + pad + 2 * size_w + gap + round(32 * scale) + label_w
        sound_end = card.right - pad - close_w - gap - language_w - gap  # the language button's left edge
        self.sound = SoundControl(
            self.app.sounds, self.app.manager, pygame.Rect(size_end, y, sound_end - size_end, height), scale
        )
        self.elements.extend(self.sound.elements)
        self.buttons.update(self.sound.buttons)
        if self.app.settings.ui_scale <= UI_SCALE_RANGE[0]:
            self.buttons["smaller"].disable()
        if self.app.settings.ui_scale >= UI_SCALE_RANGE[1]:
            self.buttons["larger"].disable()
        self.page = render_page(self.app, self.viewport().w)
        self.offset = max(0, min(self.offset, self.max_offset()))

    # -- input -----------------------------------------------------------------------------

    def controls(self) -> dict[str, Button]:
        return self.buttons

    def command(self, name: str) -> None:
        if name == "close":
            self.close()
        elif name == "language":
            languages = available_languages()
            following = languages[(languages.index(current_language()) + 1) % len(languages)]
            self.app.set_language(following)
        elif name in ("smaller", "larger"):
            step = UI_SCALE_STEP if name == "larger" else -UI_SCALE_STEP
            self.app.set_ui_scale(self.app.settings.ui_scale + step)
        elif name == MUTE and self.sound is not None:
            self.sound.command(name)
        elif name == "par":
            self.app.set_background_par(not self.app.settings.background_par)
            self.buttons["par"].set_text(_par_label(self.app.settings.background_par))

    def handle_input(self, event: pygame.event.Event) -> None:
        if self.sound is not None and self.sound.handle(event):
            return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll(-event.y * self._line())
        elif event.type == pygame.KEYDOWN:
            page = max(self._line(), self.viewport().h - 2 * self._line())
            steps = {
                pygame.K_UP: -self._line(),
                pygame.K_DOWN: self._line(),
                pygame.K_PAGEUP: -page,
                pygame.K_PAGEDOWN: page,
                pygame.K_HOME: -(10**6),
                pygame.K_END: 10**6,
            }
            if event.key in steps:
                self.scroll(steps[event.key])
            elif event.key == pygame.K_ESCAPE:
                self.close()

    def update(self, dt: float) -> None:
        if self.sound is not None:
            self.sound.follow()  # M, + or - pressed while the card is open

    def _line(self) -> int:
        return max(12, round(40 * self.app.layout.scale))

    def scroll(self, pixels: int) -> None:
        self.offset = max(0, min(self.offset + pixels, self.max_offset()))

    def close(self) -> None:
        if self.app.stack.top is self:
            self.app.stack.pop()

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, surface: pygame.Surface) -> None:
        fonts = self.app.fonts
        scale = self.app.layout.scale
        theme.draw_veil(surface, 150)
        card = self.card_rect()
        theme.draw_overlay_card(surface, card, scale, alpha=248)
        pad = self._pad()
        title = fonts.text(_(TITLE), 22 * scale, theme.IVORY, bold=True)
        surface.blit(title, (card.x + pad, card.y + pad - round(4 * scale)))
        view = self.viewport()
        if self.offset > 0:  # the page runs on above: a rule keeps it from touching the title
            pygame.draw.line(surface, theme.GOLD, (view.x, view.y - 2), (view.right, view.y - 2), 1)
        if self.page is not None:
            surface.blit(self.page, view.topleft, pygame.Rect(0, self.offset, view.w, view.h))
            if self.max_offset() > 0:
                self._draw_scrollbar(surface, view)
        size_text = _("Text size {percent}%").format(percent=round(self.app.settings.ui_scale * 100))
        layout = self.app.layout
        fitted = round(100 * layout.scale / layout_scale(*layout.window))
        if fitted < round(self.app.settings.ui_scale * 100):
            size_text += " " + _("({percent}% fits this window)").format(percent=fitted)
        foot = self.buttons.get("larger")
        if foot is not None:
            size = self._foot_text_size()
            room = (self.sound.left if self.sound else self.card_rect().right) - foot.rect.right - round(20 * scale)
            if fonts.width(size_text, size) > room:  # the number alone reads better than a cut sentence
                size_text = format_percent(self.app.settings.ui_scale * 100, 0)
            label = fonts.text(fonts.fit(size_text, size, room), size, theme.IVORY_DIM)
            surface.blit(label, label.get_rect(midleft=(foot.rect.right + round(12 * scale), foot.rect.centery)))
        par = self.buttons.get("par")
        if par is not None:
            size = self._foot_text_size()
            room = self.card_rect().right - self._pad() - par.rect.right - round(12 * scale)
            label = fonts.text(fonts.fit(_(PAR_MEANING), size, room), size, theme.IVORY_DIM)
            surface.blit(label, label.get_rect(midleft=(par.rect.right + round(12 * scale), par.rect.centery)))

    def _draw_scrollbar(self, surface: pygame.Surface, view: pygame.Rect) -> None:
        assert self.page is not None
        track = pygame.Rect(view.right + max(3, round(8 * self.app.layout.scale)), view.y, 4, view.h)
        pygame.draw.rect(surface, (40, 70, 56), track, border_radius=2)
        height = max(16, round(view.h * view.h / self.page.get_height()))
        top = view.y + round((view.h - height) * self.offset / max(1, self.max_offset()))
        pygame.draw.rect(surface, theme.GOLD, (track.x, top, 4, height), border_radius=2)


# -- the page ------------------------------------------------------------------------------


def render_page(app: Host, width: int) -> pygame.Surface:
    """The whole page at ``width`` pixels: rules with the picture, marks, shortcuts (made once per size)."""
    fonts = app.fonts
    scale = app.layout.scale
    body = max(12.0 * app.layout.zoom, 15 * scale)
    heading = max(13.0 * app.layout.zoom, 17 * scale)
    line_gap = round(body * 0.35)
    pieces: list[tuple[pygame.Surface, int, int]] = []
    y = 0

    def section(text: str) -> None:
        nonlocal y
        y += round(heading * 0.6) if pieces else 0
        rendered = fonts.text(text, heading, theme.GOLD, bold=True)
        pieces.append((rendered, 0, y))
        y += rendered.get_height() + line_gap

    def paragraph(text: str, x: int, room: int, colour: theme.Colour = theme.IVORY) -> None:
        nonlocal y
        for line in fonts.wrap(text, body, room):
            rendered = fonts.text(line, body, colour)
            pieces.append((rendered, x, y))
            y += rendered.get_height()
        y += line_gap

    section(_("The game"))
    picture = column_picture(app, scale)
    text_room = width - picture.get_width() - round(24 * scale)
    if text_room < 260 * scale:  # a narrow card: the picture goes under the words
        text_room = width
    top = y
    bullet = fonts.text("•", body, theme.GOLD)
    indent = bullet.get_width() + round(body * 0.6)
    for rule in RULES:
        pieces.append((bullet, 0, y))
        paragraph(_(rule), indent, text_room - indent)
    if text_room < width:
        pieces.append((picture, width - picture.get_width(), top))
        y = max(y, top + picture.get_height())
    else:
        pieces.append((picture, (width - picture.get_width()) // 2, y))
        y += picture.get_height() + line_gap

    section(_("Marks that do not rely on colour"))
    samples = [mark_sample(app, kind, body) for kind, _ in MARKS]
    mark_room = max(sample.get_width() for sample in samples) + round(10 * scale)
    for sample, (_unused, text) in zip(samples, MARKS, strict=True):
        pieces.append((sample, 0, y + round(body * 0.15)))
        paragraph(_(text), mark_room, width - mark_room, theme.IVORY_DIM)

    keys_w = min(round(width * 0.42), round(330 * scale))
    for screen, rows in SHORTCUTS:
        section(_("Keys: {screen}").format(screen=_(screen)))
        for keys, what in rows:
            row_top = y
            key_lines = fonts.wrap(_(keys), body, keys_w - round(12 * scale))
            for index, line in enumerate(key_lines):
                rendered = fonts.text(line, body, theme.GOLD_BRIGHT)
                pieces.append((rendered, 0, row_top + index * rendered.get_height()))
            key_bottom = row_top + len(key_lines) * round(body * 1.45)
            paragraph(_(what), keys_w, width - keys_w, theme.IVORY_DIM)
            y = max(y, key_bottom + line_gap)

    page = pygame.Surface((max(1, width), max(1, y)), pygame.SRCALPHA)
    page.fill((0, 0, 0, 0))
    for rendered, x, top in pieces:
        page.blit(rendered, (x, top))
    return page


def column_picture(app: Host, scale: float) -> pygame.Surface:
    """One column drawn with the game's tiles: its top and bottom tiles framed as free, the rest dimmed."""
    fonts = app.fonts
    tile_h = max(30, round(58 * scale))
    tile_w = round(tile_h * 0.75)
    pitch = tile_h + max(1, round(tile_h * 0.025))
    label_size = max(12.0 * app.layout.zoom, 14 * scale)
    labels = (_("free: take it"), _("blocked"), _("free: take it"))
    label_w = max(fonts.width(text, label_size) for text in labels)
    arrow_h = round(label_size * 1.5)
    count = len(PICTURE_KINDS)
    width = tile_w + round(16 * scale) + label_w + 8
    height = arrow_h * 2 + (count - 1) * pitch + tile_h + 8
    picture = pygame.Surface((width, height), pygame.SRCALPHA)
    picture.fill((0, 0, 0, 0))
    x = 4
    ends = (0, count - 1)
    for index, kind in enumerate(PICTURE_KINDS):
        app.art.draw(picture, kind, (x, arrow_h + index * pitch), tile_w, tile_h)
    for index in range(count):
        rect = pygame.Rect(x, arrow_h + index * pitch, tile_w, tile_h)
        if index in ends:
            pygame.draw.rect(picture, theme.GOLD_BRIGHT, rect.inflate(4, 4), max(2, round(3 * scale)), 6)
        else:
            shade = pygame.Surface(rect.size, pygame.SRCALPHA)
            shade.fill((6, 24, 16, 140))
            picture.blit(shade, rect)
    for text, arrow_y in (("↓", arrow_h // 2), ("↑", height - arrow_h // 2 - 4)):
        arrow = fonts.text(text, label_size * 1.1, theme.GOLD_BRIGHT)
        picture.blit(arrow, arrow.get_rect(center=(x + tile_w // 2, arrow_y)))
    label_x = x + tile_w + round(12 * scale)
    for text, index in ((labels[0], 0), (labels[1], count // 2), (labels[2], count - 1)):
        colour = theme.GOLD_BRIGHT if index in ends else theme.IVORY_FAINT
        rendered = fonts.text(text, label_size, colour)
        centre_y = arrow_h + index * pitch + tile_h // 2
        picture.blit(rendered, rendered.get_rect(midleft=(label_x, centre_y)))
    return picture


def mark_sample(app: Host, kind: str, size: float) -> pygame.Surface:
    """A small picture of the mark a ``MARKS`` line explains, drawn as the screens draw it."""
    fonts = app.fonts
    height = round(size * 1.45)
    sample = pygame.Surface((round(size * 2.6), height), pygame.SRCALPHA)
    sample.fill((0, 0, 0, 0))
    radius = size * 0.42
    if kind == "player":
        theme.draw_player_mark(sample, 1, (radius + 2, height / 2), radius)
        theme.draw_player_mark(sample, 2, (size * 2.6 - radius * 1.25 - 3, height / 2), radius)
    elif kind == "best":
        pill = sample.get_rect().inflate(-2, -round(size * 0.2))
        pygame.draw.rect(sample, BEST_COLOUR, pill, border_radius=pill.h // 2)
        star = fonts.text(BEST_MARK, size * 0.9, BADGE_TEXT)
        sample.blit(star, star.get_rect(center=pill.center))
    else:
        sign = fonts.text("?!", size, theme.WARN, bold=True)
        sample.blit(sign, sign.get_rect(center=sample.get_rect().center))
    return sample
