"""The waiting room: from Host, Join or Resume until the game begins.

A host sees the invite code large and under it the invite link (``http://HOST:PORT/join/CODE``,
which opens the game in a browser, on the address the server says a friend can reach; one that
works on this machine only says so), with Copy (the link to the clipboard, where there is one), the watch
code smaller, and the connection's state; a joiner or a returning player sees the connection
until the server sends the game. The game screen opens by itself as soon as the game is being
played (the opponent joined) or is over, and takes the session over. Back leaves the room:
the connection closes, and a hosted game waits on the server, in the list of online games.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.core.utility import clipboard_copy

from battle.i18n import N_, _
from battle.online.client.session import Link
from battle.online.client.share_link import friend_link, here_only_note
from battle.online.client.state_game import ended_unplayed, name_of
from battle.online.protocol.codes import format_code
from battle.online.protocol.messages import Abort
from battle.online.protocol.server_messages import Created, Error, Joined, State
from battle.rules.errors import BattleError
from battle.ui.art import theme
from battle.ui.online import connection
from battle.ui.online.online_scene import OnlineScene
from battle.ui.online.online_state import game_terms, opponent_of, server_label
from battle.ui.online.online_view import draw_code, draw_link_line
from battle.ui.scene import Scene
from battle.ui.sound.events import Event
from battle.ui.widgets.buttons import Button
from battle.ui.widgets.hud import STATUS_COLOURS, StatusLine

if TYPE_CHECKING:
    from battle.online.client.session import Link, OnlineSession
    from battle.ui.scene import Host

COUNTDOWN_INTERVAL = 0.25
"""Frames while the link is down: the retry countdown shows whole seconds."""
HEADINGS = {
    "host": N_("Creating your game..."),
    "join": N_("Joining a game"),
    "resume": N_("Coming back to your game"),
    "watch": N_("Watching a game"),
}
SEATLESS = ("join", "watch")
"""Purposes with no seat kept until the server gives one: Back leaves nothing waiting on the server."""


class LobbyScene(Scene):
    """Waiting for the game to begin (see the module docstring)."""

    def __init__(
        self,
        app: Host,
        session: OnlineSession,
        purpose: str,
        code: str | None = None,
        returned: Callable[[StatusLine], None] | None = None,
    ) -> None:
        super().__init__(app)
        self.session = session
        self.purpose = purpose
        """``host``, ``join``, ``watch`` or ``resume``."""
        self.code = code
        """The invite code being joined (canonical), for a joiner."""
        self.returned = returned
        """Told what to say when Back returns to the screen below."""
        self.state: State | None = None
        self.invite: str | None = None
        self.invite_secret: str | None = None
        """The invite link's secret: the link a host copies cannot be guessed."""
        self.watch: str | None = None
        self.link: Link = session.link
        self.link_since = time.monotonic()
        self.reached = False
        """The server answered once: a later drop is a lost connection, not an unreachable server."""
        self.note = StatusLine("", "quiet")
        self.buttons: dict[str, Button] = {}
        self.handed_over = False
        self.session_closed = False

    # -- geometry ----------------------------------------------------------------------------

    def card_rect(self) -> pygame.Rect:
        w, h = self.app.layout.window
        scale = self.app.layout.scale
        rect = pygame.Rect(0, 0, min(round(680 * scale), w - 40), min(round(480 * scale), h - 30))
        rect.center = (w // 2, h // 2)
        return rect

    def _copy_rect(self) -> pygame.Rect:
        card = self.card_rect()
        scale = self.app.layout.scale
        rect = pygame.Rect(0, 0, round(170 * scale), max(24, round(36 * scale)))
        rect.midtop = (card.centerx, card.y + round(204 * scale))
        return rect

    # -- widgets -----------------------------------------------------------------------------

    def build_ui(self) -> None:
        manager = self.app.manager
        scale = self.app.layout.scale
        card = self.card_rect()
        pad = round(22 * scale)
        height = max(24, round(36 * scale))
        self.buttons = {}
        if self.invite:
            self.buttons["copy"] = Button(
                self._copy_rect(),
                _("Copy link"),
                manager,
                tool_tip_text=_("Copy the invite link to the clipboard (C)"),
                object_id=ObjectID(object_id="#primary"),
            )
        back = pygame.Rect(0, 0, round(150 * scale), height)
        back.midbottom = (card.centerx, card.bottom - pad)
        tip = (
            _("Back to the online setup; the game waits on the server (Esc)")
            if self.purpose not in SEATLESS
            else _("Back to the online setup (Esc)")
        )
        if self.invite:  # the host's own game, still waiting: it can be called off
            gap = round(12 * scale)
            back.right = card.centerx - gap // 2
            call_off = back.copy()
            call_off.left = card.centerx + gap // 2
            self.buttons["abort"] = Button(
                call_off,
                _("Call off"),
                manager,
                tool_tip_text=_("End this game before anyone joins: its code stops working (A)"),
            )
        self.buttons["back"] = Button(back, _("Back"), manager, tool_tip_text=tip)
        self.elements.extend(self.buttons.values())

    # -- input -------------------------------------------------------------------------------

    def controls(self) -> dict[str, Button]:
        return self.buttons

    def actions(self) -> dict[str, Callable[[], object]]:
        return {"copy": self.copy_code, "back": self.back, "abort": self.call_off}

    def handle_input(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_c:
                self.copy_code()
            elif event.key == pygame.K_a and self.invite:
                self.call_off()
            elif event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                self.back()

    def copy_code(self) -> None:
        """The invite link to the clipboard; where there is none, the note says so."""
        if not self.invite:
            return
        text = self.friend_link(self.invite_secret or self.invite)
        try:
            clipboard_copy(text)
        except (pygame.error, OSError, RuntimeError) as error:
            self.note = StatusLine(
                _("No clipboard here ({error}): read the code or the link out instead.").format(error=error), "warn"
            )
            return
        self.note = StatusLine(_("Copied {text}: paste it to your opponent.").format(text=text), "good")

    def friend_link(self, code: str) -> str:
        """The link to send: on the address the server says a friend can reach, else on this one."""
        return friend_link(self.session.url, self.session.share_url, code)

    def call_off(self) -> None:
        """Abort the waiting game: the server ends it, and its state brings this screen back."""
        self.session.send(Abort())
        self.note = StatusLine(_("Calling the game off..."), "quiet")

    def back(self) -> None:
        if self.app.stack.top is self:
            self.app.stack.pop()
        if self.returned is not None and self.purpose not in SEATLESS and self.session.seat is not None:
            self.returned(StatusLine(_("Your game waits on the server: Resume in the list comes back to it."), "info"))

    # -- time --------------------------------------------------------------------------------

    def update(self, dt: float) -> None:
        events = self.session.events()
        if not events:
            return
        had_invite = self.invite
        keep = False
        for event in events:
            if isinstance(event, Link):
                self.link = self.session.link
                self.link_since = time.monotonic()
                self.reached = self.reached or self.link.state == "connected"
            elif isinstance(event, Error):
                self.note = StatusLine(connection.refusal(event, self.state), "error")
            elif isinstance(event, Created):
                self.invite, self.watch = event.invite, event.watch
                self.invite_secret = event.invite_secret
            keep = keep or isinstance(event, (Created, Joined, State))
        self.state, _unused = self.session.snapshot()
        if self.state is not None:
            self.invite = self.state.invite or self.invite
            self.invite_secret = self.state.invite_secret or self.invite_secret
            self.watch = self.state.watch or self.watch
        if keep:
            problem = connection.remember(self.session, self.state)
            if problem:
                self.note = StatusLine(problem, "warn")
        if self.state is not None and ended_unplayed(self.state):
            self.ended_unplayed(self.state)
        elif self.state is not None and self.state.status in ("playing", "finished"):
            self.open_game()
        elif self.invite != had_invite:
            self.rebuild_ui()

    def ended_unplayed(self, state: State) -> None:
        """The game was called off or expired before anyone joined: back to the set-up, the game
        out of the list of games to resume (the server keeps nothing to come back to)."""
        seat = self.session.seat
        problem = connection.forget(seat.url, seat.game) if seat is not None else None
        expired = state.result is not None and state.result.reason == "expired"
        words = (
            _("Nobody joined in time: the game expired.")
            if expired
            else _("You called the game off: its code no longer works.")
        )
        if self.app.stack.top is self:
            self.app.stack.pop()
        if self.returned is not None:
            self.returned(StatusLine(problem or words, "warn" if problem else "info"))

    def open_game(self) -> None:
        """The game began (or is over): its screen takes the session over."""
        try:
            scene = OnlineScene(self.app, self.session)
        except (BattleError, ValueError) as error:
            self.note = StatusLine(_("The server's game does not read here: {error}").format(error=error), "error")
            return
        self.handed_over = True
        self.app.stack.replace_all(scene)
        if scene.online.playing:  # the opponent is at the table: the game begins
            self.app.sounds.play(Event.OPPONENT_ARRIVED)

    def next_frame_in(self) -> float | None:
        """Four frames a second while the link is down (the retry countdown); else only news wakes it."""
        return COUNTDOWN_INTERVAL if self.link.state in ("connecting", "retrying") else None

    def on_exit(self) -> None:
        super().on_exit()
        if not self.handed_over and not self.session_closed:
            self.session_closed = True
            connection.close_soon(self.session)

    def stop_background(self) -> None:
        if not self.handed_over and not self.session_closed:
            self.session_closed = True
            self.session.close()

    # -- drawing -----------------------------------------------------------------------------

    def heading(self) -> str:
        state = self.state
        if self.purpose == "watch":
            return _("Waiting for the players...") if state is not None else _(HEADINGS["watch"])
        if self.invite or (state is not None and state.status == "waiting"):
            return _("Waiting for your opponent...")
        if self.purpose == "resume" and state is not None:
            return _("Coming back to your game with {what}").format(what=name_of(state, opponent_of(state)))
        return _(HEADINGS[self.purpose]) if self.purpose in HEADINGS else _("Connecting")

    def link_line(self) -> tuple[str, str]:
        """The connection in words, and its kind (the colour)."""
        server = server_label(self.session.url)
        link = self.link
        wait = max(0, math.ceil(float(link.retry_in or 0.0) - (time.monotonic() - self.link_since)))
        if link.state == "connected":
            waiting = _(" · waiting for your opponent...") if self.invite else ""
            return _("Connected to {server}{waiting}").format(server=server, waiting=waiting), "good"
        if link.state == "retrying":
            what = _("Connection lost") if self.reached else _("Cannot reach {server}").format(server=server)
            return _("{what} — retrying in {wait} s").format(what=what, wait=wait), "warn"
        if link.state == "closed":
            return _("Closed: {detail}").format(detail=link.detail), "error"
        return _("Connecting to {server}...").format(server=server), "quiet"

    def draw(self, surface: pygame.Surface) -> None:
        app = self.app
        fonts = app.fonts
        scale = app.layout.scale
        w, _unused = app.layout.window
        surface.blit(app.felt.surface(app.layout.window, (0.5, 0.42)), (0, 0))
        card = self.card_rect()
        surface.blit(theme.rounded_panel(card.size, theme.PANEL, round(16 * scale), (*theme.GOLD, 90), 1), card)
        inner = card.w - 2 * round(24 * scale)
        y = card.y + round(22 * scale)
        heading = fonts.text(
            fonts.fit(self.heading(), 24 * scale, inner, bold=True), 24 * scale, theme.IVORY, bold=True
        )
        surface.blit(heading, heading.get_rect(midtop=(card.centerx, y)))
        if self.state is not None:
            terms = fonts.text(fonts.fit(game_terms(self.state), 13 * scale, inner), 13 * scale, theme.IVORY_DIM)
            surface.blit(terms, terms.get_rect(midtop=(card.centerx, card.y + round(58 * scale))))
        shown_code = self.invite or (self.code if self.purpose in SEATLESS else None)
        if shown_code:
            if self.invite:
                label = _("INVITE CODE")
            elif self.purpose == "watch":
                label = _("WATCHING WITH THE CODE")
            else:
                label = _("JOINING WITH THE CODE")
            caption = fonts.text(label, 13 * scale, theme.GOLD, bold=True)
            surface.blit(caption, caption.get_rect(midtop=(card.centerx, card.y + round(88 * scale))))
            draw_code(
                surface,
                fonts,
                (card.centerx, card.y + round(152 * scale)),
                format_code(shown_code),
                64 * scale,
                min(inner, round(520 * scale)),
            )
        y = card.y + round(254 * scale)
        if self.invite:
            shown = fonts.text(
                fonts.fit(self.friend_link(self.invite_secret or self.invite), 15 * scale, inner),
                15 * scale,
                theme.GOLD,
                bold=True,
            )
            surface.blit(shown, shown.get_rect(midtop=(card.centerx, y)))
            y += shown.get_height() + round(4 * scale)
        for words in self._explanation(inner):
            rendered = fonts.text(words, 15 * scale, theme.IVORY_DIM)
            surface.blit(rendered, rendered.get_rect(midtop=(card.centerx, y)))
            y += rendered.get_height() + round(2 * scale)
        # below the instructions, however many lines a language needs for them: never over them
        if self.watch and self.invite:
            watch = fonts.text(
                _("Watch code for spectators: {format_code}").format(format_code=format_code(self.watch)),
                13 * scale,
                theme.IVORY_FAINT,
            )
            placed = watch.get_rect(midtop=(card.centerx, max(card.y + round(308 * scale), y + round(6 * scale))))
            surface.blit(watch, placed)
            y = placed.bottom
        link, kind = self.link_line()
        line = draw_link_line(
            surface,
            fonts,
            (card.centerx, max(card.y + round(346 * scale), y + round(20 * scale))),
            fonts.fit(link, 15 * scale, inner - 20),
            kind,
            15 * scale,
        )
        if self.note.text:
            colour = STATUS_COLOURS.get(self.note.kind, theme.IVORY)
            note = fonts.text(fonts.fit(self.note.text, 14 * scale, min(inner, w - 40)), 14 * scale, colour)
            top = max(card.y + round(372 * scale), line.bottom + round(8 * scale))
            surface.blit(note, note.get_rect(midtop=(card.centerx, top)))

    def _explanation(self, width: int) -> list[str]:
        """What to do while waiting: pass the code on, or just wait for the server."""
        if self.invite:
            words = here_only_note(self.friend_link(self.invite)) or _(
                "Send the link (it opens in a browser) or read the code out; the game starts when they join."
            )
        elif self.purpose == "join":
            words = _("The game starts as soon as the server seats you.")
        elif self.purpose == "watch":
            words = _("The game opens once both players are there: you see every move as it is made.")
        else:
            words = _("The game opens as soon as the server sends it.")
        return self.app.fonts.wrap(words, 15 * self.app.layout.scale, width, max_lines=2)
