"""Play online: the server and your name; host a new game, join or watch one with a code, or come
back to one.

Two cards side by side. The form: the server's address (remembered in the settings), your
name, a host's choices (the deal, who moves first, a time per move and whether running
out of it loses) with Host, and a code with Join (an invite code) or Watch (a watch code).
The list: the online games kept
on this machine (``battle.online.client.seats``, shared with the terminal), each with Resume and
Forget (which asks first: the seat's secret key is kept only there).

A field that does not read gives one line in the status naming the field and what is wrong,
and nothing else happens. Host, Join, Watch and Resume open the waiting room (``LobbyScene``) over
this screen; Back from it returns here. The keyboard works as on the title (``FocusRing``);
Enter in the code field joins, Enter in the deal field hosts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame
import pygame_gui
from pygame_gui.core import UIElement
from pygame_gui.elements import UITextEntryLine

from battle.i18n import N_, _
from battle.online.client.seats import Seat, load_seats
from battle.online.protocol.codes import format_code
from battle.ui.art import theme
from battle.ui.choice_scene import Choice, ChoiceScene
from battle.ui.online import connection
from battle.ui.online.lobby_scene import LobbyScene
from battle.ui.online.setup_form import (
    FIRST_CHOICES,
    TIME_CHOICES,
    FormProblem,
    create_message,
    join_message,
    kept_game_details,
    kept_game_line,
    kept_game_title,
    name_to_send,
    read_address,
    read_code,
    watch_message,
)
from battle.ui.scene import Scene, pressed_key
from battle.ui.widgets.buttons import Button
from battle.ui.widgets.focus_ring import FocusRing
from battle.ui.widgets.form_rows import FormRows
from battle.ui.widgets.hud import StatusLine, draw_status_below

if TYPE_CHECKING:
    from collections.abc import Callable

    from battle.ui.scene import Host

FIELDS = ("server", "name", "deal", "code")
"""The text fields, whose typing survives a rebuild (a resize, a list coming back)."""
FORM_ROWS = 11
"""Rows of the form card: server, name, the host heading, deal, first, time, lose on time, Host,
the join heading, code, Join."""


@dataclass(frozen=True)
class SetupMetrics:
    """The rows and the two cards (the form, the kept games) at the window's size, in pixels."""

    row_h: int
    gap: int
    pad: int
    card_w: int
    card_h: int
    top: int
    """The cards' top edge."""
    left: int
    """The form's left edge."""
    right: int
    """The kept games' card's left edge."""


class OnlineSetupScene(Scene):
    """The online setup (see the module docstring)."""

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        settings = app.settings
        self.values = {
            "server": settings.online_server,
            "name": settings.online_name or name_to_send(settings.human_name) or "",
            "deal": "",
            "code": "",
        }
        self.first = next(iter(FIRST_CHOICES))
        self.time = next(iter(TIME_CHOICES))
        self.lose_on_time = False
        self.widgets: dict[str, UIElement] = {}
        self.headings: list[tuple[str, int]] = []
        """The form's section headings, drawn on the card: their text and their row's top."""
        self.ring = FocusRing(app, lambda: self.widgets, self.command, self.menu_changed)
        self.status = StatusLine("", "quiet")
        self.seats: list[Seat] = []
        self.shown_seats = 0
        """How many kept games the list has room for at this size."""
        self.kept_rows: list[tuple[Seat, pygame.Rect]] = []
        """Each kept game shown and where its words go."""
        self.load_kept()

    def load_kept(self) -> None:
        seats, problem = load_seats()
        self.seats = [seat for seat in seats if seat.token]
        if problem:
            self.status = StatusLine(problem, "warn")

    # -- geometry ----------------------------------------------------------------------------

    def metrics(self) -> SetupMetrics:
        """The two cards and the rows, fitted to the window (a short one gets tighter rows)."""
        w, h = self.app.layout.window
        scale = self.app.layout.scale
        gap = max(4, round(9 * scale))
        pad = max(10, round(20 * scale))
        title_h = round(64 * scale)
        status_h = round(36 * scale)
        room = h - title_h - status_h - 2 * pad - 16
        pitch = min(round(46 * scale), room // FORM_ROWS)
        row_h = max(20, pitch - gap)
        between = max(12, round(18 * scale))
        card_w = min(round(520 * scale), (w - 3 * between) // 2)
        card_h = 2 * pad + FORM_ROWS * (row_h + gap) - gap
        left = (w - 2 * card_w - between) // 2
        top = max(title_h + 8, (h - card_h - status_h + title_h) // 2)
        return SetupMetrics(row_h, gap, pad, card_w, card_h, top, left, left + card_w + between)

    def card_rects(self) -> tuple[pygame.Rect, pygame.Rect]:
        m = self.metrics()
        return (
            pygame.Rect(m.left, m.top, m.card_w, m.card_h),
            pygame.Rect(m.right, m.top, m.card_w, m.card_h),
        )

    # -- widgets -----------------------------------------------------------------------------

    def build_ui(self) -> None:
        m = self.metrics()
        row_h, gap, pad = m.row_h, m.gap, m.pad
        form, kept = self.card_rects()
        inner = form.w - 2 * pad
        label_w = max(80, round(inner * 0.32))
        x0 = form.x + pad
        self.widgets = {}
        self.headings = []
        rows = FormRows(self.widgets, self.elements, self.app.manager, x0, x0 + label_w, inner - label_w, row_h)
        y = form.y + pad
        rows.field("server", _("Server"), y, self.values["server"], "ws://host:8765", 200)
        y += row_h + gap
        rows.field("name", _("Your name"), y, self.values["name"], _("the name your opponent sees"), 40)
        y += row_h + gap
        self.headings.append((_("Host a new game"), y))
        y += row_h + gap
        rows.field("deal", _("Deal"), y, self.values["deal"], _("(random)"), 19)
        y += row_h + gap
        rows.label(_("First move"), y)
        rows.menu("first", rows.field_rect(y), [_(choice) for choice in FIRST_CHOICES], _(self.first))
        y += row_h + gap
        rows.label(_("Time"), y)
        rows.menu("time", rows.field_rect(y), [_(choice) for choice in TIME_CHOICES], _(self.time))
        y += row_h + gap
        # inset 2 px: a button's border is drawn on its edge, a text field's and a list's 2 px inside
        rows.button(
            "lose",
            rows.field_rect(y).inflate(-4, 0),
            self._lose_label(),
            _("With a time per move: whether running out of it loses the game (else the turn is only marked overdue)"),
        )
        y += row_h + gap
        rows.button(
            "host",
            pygame.Rect(x0, y, inner, row_h),
            _("Host a game"),
            _("Create the game on the server and get its invite code (Enter)"),
            primary=True,
        )
        y += row_h + gap
        self.headings.append((_("Join or watch a game"), y))
        y += row_h + gap
        rows.field("code", _("Code"), y, self.values["code"], _("invite or watch code: K7QM-2XPD"), 20)
        y += row_h + gap
        half = (inner - gap) // 2
        join_tip = _("Take the second seat of the game with this invite code (Enter in the code)")
        rows.button("join", pygame.Rect(x0, y, half, row_h), _("Join"), join_tip)
        watch_tip = _("Watch the game with this watch code: every move as it is made, none of your own")
        rows.button("watch", pygame.Rect(x0 + half + gap, y, inner - half - gap, row_h), _("Watch"), watch_tip)
        self._build_kept(kept, row_h, gap, pad)
        self._update_lose()
        self.ring.forget_missing()

    def _build_kept(self, card: pygame.Rect, row_h: int, gap: int, pad: int) -> None:
        """The kept games: who and where (drawn), Resume and Forget for each; Back at the card's foot."""
        inner = card.w - 2 * pad
        x0 = card.x + pad
        rows = FormRows(self.widgets, self.elements, self.app.manager, x0, x0, inner, row_h)
        entry_h = round(row_h * 1.35)  # the opponent's name over the server and the game's status
        button_w = max(66, round(inner * 0.19))  # "Resume" whole at the smallest window
        top = card.y + pad + row_h + gap  # under the card's heading
        back_top = card.bottom - pad - row_h
        room = max(0, (back_top - top) // (entry_h + gap))
        self.shown_seats = min(len(self.seats), room)
        if self.shown_seats < len(self.seats):
            self.shown_seats = max(0, self.shown_seats - 1)  # a line says how many more there are
        self.kept_rows = []
        for index, seat in enumerate(self.seats[: self.shown_seats]):
            y = top + index * (entry_h + gap)
            button_y = y + (entry_h - row_h) // 2
            code = (
                _("; invite code {format_code}").format(format_code=format_code(seat.invite))
                if seat.invite and not seat.opponent
                else ""
            )
            resume_tip = _("Come back to this game: {line} ({url}{code})").format(
                line=kept_game_line(seat), url=seat.url, code=code
            )
            resume = pygame.Rect(x0 + inner - 2 * button_w - gap, button_y, button_w, row_h)
            rows.button(f"resume:{index}", resume, _("Resume"), resume_tip)
            forget = pygame.Rect(x0 + inner - button_w, button_y, button_w, row_h)
            rows.button(f"forget:{index}", forget, _("Forget"), _("Drop it from this list (asks first)"))
            self.kept_rows.append((seat, pygame.Rect(x0, y, inner - 2 * button_w - 2 * gap, entry_h)))
        back = pygame.Rect(card.right - pad - round(inner * 0.4), back_top, round(inner * 0.4), row_h)
        rows.button("back", back, _("Back"), _("Back to the title (Esc)"))

    def _lose_label(self) -> str:
        return _("Lose on time: {value}").format(value=_("yes") if self.lose_on_time else _("no"))

    def _update_lose(self) -> None:
        """Losing on time needs a time per move: the toggle is off without one."""
        button = self.widgets.get("lose")
        if isinstance(button, Button):
            if TIME_CHOICES.get(self.time) is None:
                button.disable()
            else:
                button.enable()

    def _read_entries(self) -> None:
        for name in FIELDS:
            entry = self.widgets.get(name)
            if isinstance(entry, UITextEntryLine):
                self.values[name] = entry.get_text()

    def rebuild(self) -> None:
        self._read_entries()
        self.clear_ui()
        self.build_ui()

    # -- input -------------------------------------------------------------------------------

    def controls(self) -> dict[str, UIElement]:
        return self.widgets

    def handle_input(self, event: pygame.event.Event) -> None:
        kind = event.type
        if kind == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            entered = pressed_key(event, self.widgets)
            if entered == "code":
                self.command("join")
            elif entered == "deal":
                self.command("host")
            else:
                self.ring.move(1)
        elif kind == pygame.KEYDOWN:
            if self.ring.key(event):
                return
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self._read_entries()
                self.command("join" if self.values["code"].strip() else "host")
            elif event.key == pygame.K_ESCAPE:
                self.command("back")

    def menu_changed(self, menu: object, text: str) -> None:
        if menu is self.widgets.get("first"):
            self.first = next((choice for choice in FIRST_CHOICES if _(choice) == text), text)
        elif menu is self.widgets.get("time"):
            self.time = next((choice for choice in TIME_CHOICES if _(choice) == text), text)
            self._update_lose()

    def command(self, name: str) -> None:
        """A button of the form or of a kept game's row (``resume:2``, ``forget:2``), or its key."""
        if name.startswith("resume:"):
            self.resume(self.seats[int(name.split(":")[1])])
        elif name.startswith("forget:"):
            self.ask_forget(self.seats[int(name.split(":")[1])])
        else:
            super().command(name)

    def actions(self) -> dict[str, Callable[[], object]]:
        return {"host": self.host, "join": self.join, "watch": self.watch, "lose": self.toggle_lose, "back": self.back}

    def toggle_lose(self) -> None:
        """Whether running out of the time per move loses: the other way, said on its button."""
        self.lose_on_time = not self.lose_on_time
        button = self.widgets.get("lose")
        if isinstance(button, Button):
            button.set_text(self._lose_label())

    def back(self) -> None:
        if self.app.stack.top is self:
            self.app.stack.pop()

    def _address_and_name(self) -> tuple[str, str | None] | None:
        """The server and the name to send, remembered in the settings; None with the problem shown."""
        self._read_entries()
        try:
            url = read_address(self.values["server"])
        except FormProblem as problem:
            self.status = StatusLine(str(problem), "error")
            return None
        name = name_to_send(self.values["name"])
        settings = self.app.settings
        settings.online_server = url
        settings.online_name = name or ""
        self.app.save_settings()
        return url, name

    def host(self) -> None:
        chosen = self._address_and_name()
        if chosen is None:
            return
        url, name = chosen
        try:
            message = create_message(self.values["deal"], self.first, self.time, self.lose_on_time, name)
        except FormProblem as problem:
            self.status = StatusLine(str(problem), "error")
            return
        self.status = StatusLine("", "quiet")
        session = connection.open_session(url, message, name)
        self.app.stack.push(LobbyScene(self.app, session, "host", returned=self.came_back))

    def join(self) -> None:
        self._enter_with_code("join")

    def watch(self) -> None:
        self._enter_with_code("watch")

    def _enter_with_code(self, purpose: str) -> None:
        """Join (an invite code) or watch (a watch code): the waiting room, once the code and the server read."""
        self._read_entries()
        try:
            code = read_code(self.values["code"], N_("Invite code") if purpose == "join" else N_("Watch code"))
        except FormProblem as problem:
            self.status = StatusLine(str(problem), "error")
            return
        chosen = self._address_and_name()
        if chosen is None:
            return
        url, name = chosen
        self.status = StatusLine("", "quiet")
        opening = join_message(code, name) if purpose == "join" else watch_message(code)
        session = connection.open_session(url, opening, name if purpose == "join" else None)
        self.app.stack.push(LobbyScene(self.app, session, purpose, code, returned=self.came_back))

    def resume(self, seat: Seat) -> None:
        self._read_entries()
        self.status = StatusLine("", "quiet")
        session = connection.resume_session(seat, name_to_send(self.values["name"]))
        self.app.stack.push(LobbyScene(self.app, session, "resume", returned=self.came_back))

    def ask_forget(self, seat: Seat) -> None:
        line = kept_game_line(seat)

        def answered(key: str | None) -> None:
            if key != "forget":
                return
            problem = connection.forget(seat.url, seat.game)
            self.load_kept()
            self.rebuild()
            self.status = (
                StatusLine(problem, "error") if problem else StatusLine(_("Forgot {line}.").format(line=line), "info")
            )

        self.app.stack.push(
            ChoiceScene(
                self.app,
                _("Forget this game?"),
                _(
                    "{line}. It stays on its server, but its key is kept only in this list: "
                    "without it, nobody can come back to your seat."
                ).format(line=line),
                (
                    Choice("keep", _("Keep it"), _("Leave it in the list (Esc)")),
                    Choice("forget", _("Forget it"), _("Drop it from the list")),
                ),
                answered,
            )
        )

    def came_back(self, note: StatusLine) -> None:
        """The waiting room closed: the list may hold a new game."""
        self.status = note

    def on_resume(self) -> None:
        self.load_kept()
        self._read_entries()
        self.clear_ui()
        self.build_ui()
        super().on_resume()
        self.ring.set(self.ring.focus)

    # -- time and drawing --------------------------------------------------------------------

    def update(self, dt: float) -> None:
        self.ring.follow_typing()

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        fonts = app.fonts
        scale = app.layout.scale
        w = app.layout.window[0]
        m = self.metrics()
        surface.blit(app.felt.surface(app.layout.window, (0.5, 0.42)), (0, 0))
        title = fonts.text(_("Play online"), 34 * scale, theme.IVORY, bold=True)
        surface.blit(title, title.get_rect(midbottom=(w // 2, m.top - round(14 * scale))))
        form, kept = self.card_rects()
        for card in (form, kept):
            surface.blit(theme.rounded_panel(card.size, theme.PANEL, round(16 * scale), (*theme.GOLD, 90), 1), card)
        for text, top in self.headings:
            self._heading(surface, text, form, top, m)
        self._heading(surface, _("Your online games"), kept, kept.y + m.pad, m)
        self._draw_kept_notes(surface, kept, m)
        self.ring.draw(surface, scale)
        draw_status_below(surface, fonts, self.status, scale, app.layout.window, form.bottom + round(12 * scale))

    def _heading(self, surface: pygame.Surface, text: str, card: pygame.Rect, top: int, m: SetupMetrics) -> None:
        """A section's heading: gold words and a rule to the card's edge."""
        fonts = self.app.fonts
        scale = self.app.layout.scale
        words = fonts.text(text, 16 * scale, theme.GOLD, bold=True)
        rect = words.get_rect(midleft=(card.x + m.pad, top + m.row_h // 2))
        surface.blit(words, rect)
        x = rect.right + round(10 * scale)
        if x < card.right - m.pad:
            pygame.draw.line(surface, (*theme.GOLD, 120), (x, rect.centery), (card.right - m.pad, rect.centery))

    def _draw_kept_notes(self, surface: pygame.Surface, card: pygame.Rect, m: SetupMetrics) -> None:
        """Under the list: what it is for when empty, how many more there are when it is cut short."""
        fonts = self.app.fonts
        scale = self.app.layout.scale
        inner = card.w - 2 * m.pad
        for seat, rect in self.kept_rows:
            name = fonts.text(
                fonts.fit(kept_game_title(seat), 15 * scale, rect.w, bold=True), 15 * scale, theme.IVORY, bold=True
            )
            details = fonts.text(fonts.fit(kept_game_details(seat), 13 * scale, rect.w), 13 * scale, theme.IVORY_DIM)
            y = rect.centery - (name.get_height() + details.get_height()) // 2
            surface.blit(name, (rect.x, y))
            surface.blit(details, (rect.x, y + name.get_height()))
            rule_y = rect.bottom + m.gap // 2
            pygame.draw.line(surface, (*theme.IVORY_FAINT, 60), (card.x + m.pad, rule_y), (card.right - m.pad, rule_y))
        top = (self.kept_rows[-1][1].bottom + m.gap) if self.kept_rows else card.y + m.pad + m.row_h + m.gap
        if not self.seats:
            words = _(
                "No online games yet. A game you host or join is kept here, with the key to your seat, "
                "so you can come back to it, days later too."
            )
        elif self.shown_seats < len(self.seats):
            more = len(self.seats) - self.shown_seats
            words = _("{more} more, older, not shown here: a larger window lists them.").format(more=more)
        else:
            return
        for line in fonts.wrap(words, 14 * scale, inner, max_lines=4):
            text = fonts.text(line, 14 * scale, theme.IVORY_DIM)
            surface.blit(text, (card.x + m.pad, top))
            top += text.get_height() + round(3 * scale)
