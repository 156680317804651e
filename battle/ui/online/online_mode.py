"""Playing a game that lives on a server: the game screen's mode for an online game.

The server owns the game (docs/protocol.md). ``server_game.ServerGame`` follows it (the
session's news, the Game that follows its state); this mode adds what the player sees and
does: the buttons and keys, the questions and their answers, the status line and the notice
over the board. The player's own move is shown at once and sent with ``OnlineSession.play``,
which resends it after a dropped connection; the server applies it once. A window that
watches with a watch code (``watching``) follows the board the same way and sends nothing.

While the game is played, hints, analysis, the local undo and redo, the editor and the
review are off (each would be the solver's help); a takeback is a request the opponent
answers. Once the game is over they come back.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

import pygame

from battle.i18n import N_, NP_, _, ngettext, pgettext
from battle.online.client.state_game import name_of
from battle.rules.board import Move, move_name
from battle.rules.wording import took_sentence
from battle.ui.online.online_state import (
    clock_text,
    last_mover,
    presence_of,
    seat_of,
    server_label,
)
from battle.ui.online.server_game import ServerGame
from battle.ui.widgets.hud import StatusLine

if TYPE_CHECKING:
    from battle.ui.play_mode import ButtonSpec, Played
from battle.online.protocol.messages import (
    ABORT_BEFORE_PLY,
    Abort,
    AcceptRematch,
    AnswerTakeback,
    DeclineRematch,
    GetRecord,
    OfferRematch,
    RequestTakeback,
    Resign,
)
from battle.ui.play_mode import Shown

BUTTONS: tuple[ButtonSpec, ...] = (
    ("takeback", N_("Take back"), N_("Ask your opponent to let you take back your last move (T)")),
    (
        "resign",
        N_("Resign"),
        N_(
            "Give up this game: your opponent wins (asks first); before the second move "
            "it reads Abort and calls the game off"
        ),
    ),
    ("leave", N_("Leave"), N_("Back to the title; the game waits on the server for you to resume it (L)")),
    ("yes", N_("Yes"), N_("Accept your opponent's takeback request or rematch offer (Y)")),
    ("no", N_("No"), N_("Turn down your opponent's takeback request or rematch offer (N)")),
    ("rematch", N_("Rematch"), N_("Once the game is over: offer (or accept) the same deal with the sides swapped")),
    ("save", N_("Save record"), N_("Save the game record the server keeps, .mbg (Ctrl+S)")),
)
COMMANDS = ("takeback", "yes", "no", "rematch")
"""The mode's own commands (``resign``, ``leave`` and ``save`` need the screen, which handles them)."""
KEYS = {pygame.K_t: "takeback", pygame.K_y: "yes", pygame.K_n: "no", pygame.K_l: "leave"}
"""Online keys; N answers no here (Leave is L), the rest of the game's keys are the screen's."""
WATCHING = N_("You are watching this game: the players make the moves.")


SEAT_WORDS = {
    "you": NP_("online seat", "you"),
    "connected": NP_("online seat", "connected"),
    "offline": NP_("online seat", "offline"),
    "reconnecting": NP_("online seat", "reconnecting"),
    "unknown": NP_("online seat", "unknown"),
    "away": NP_("online seat", "away"),
    "overdue": NP_("online seat", "overdue"),
    "watching": NP_("online seat", "watching"),
}
"""The words of a player card's line (``roles``) and of the panel's header, each in the catalogue."""


def seat_word(key: str) -> str:
    return pgettext(*SEAT_WORDS[key])


class OnlineMode(ServerGame):
    """An online game on the game screen: the server's game (``ServerGame``) with its controls and words."""

    buttons = BUTTONS
    keys = KEYS
    runs_game = True
    shows_move_list = True
    previewing = False

    # -- buttons and clicks ------------------------------------------------------------------

    def enabled_buttons(self) -> dict[str, bool]:
        offers = self.state.offers
        asked = self.question() is not None
        game = self.screen.match.game
        if self.watching:
            return {
                "takeback": False,
                "resign": False,
                "yes": False,
                "no": False,
                "rematch": False,
                "edit": self.finished,
                "review": self.finished and game.ply > 0,
            }
        return {
            "takeback": (
                self.playing
                and last_mover(self.state, game) == self.you
                and offers.takeback is None
                and not self.in_flight()
            ),
            "resign": self.playing,
            "yes": asked,
            "no": asked,
            "rematch": self.finished and self.state.rematch is None and offers.rematch != self.you,
            "edit": self.finished,
            "review": self.finished and game.ply > 0,
        }

    def refusal(self) -> StatusLine | None:
        if self.link.state == "closed":
            return StatusLine(
                _("Not connected ({detail}). Leave, then resume the game from Play online.").format(
                    detail=self.link.detail
                ),
                "error",
            )
        if self.watching:
            return StatusLine(_(WATCHING), "quiet")
        if self.state.status == "waiting":
            return StatusLine(_("Your opponent has not joined yet."), "quiet")
        if self.finished:
            return StatusLine(_("The game is over. Rematch offers another; V reviews this one."), "quiet")
        if self.in_flight():
            return StatusLine(_("Wait: your move is on its way to the server."), "quiet")
        if self.state.to_move != self.you:
            return StatusLine(_("Wait: {name} is to move.").format(name=self.opponent_name), "quiet")
        return None

    def locked(self, name: str) -> StatusLine:
        """Why a command of the local game is off while the online game is played."""
        words = {
            "undo": _("Undo is off in an online game: T asks {opponent_name} to let you take back your move.").format(
                opponent_name=self.opponent_name
            ),
            "redo": _("Redo is off in an online game."),
            "hint": _("Hints are off in an online game."),
            "analyse": _("Analysis is off while the game is played; it comes back when the game is over."),
            "edit": _("The position editor opens once the game is over."),
            "review": _("The review opens once the game is over."),
            "load": _("Loading a game is off here: Leave first (the game waits on the server)."),
        }
        return StatusLine(words.get(name, _("That is off in an online game.")), "quiet")

    def take_right_click(self) -> bool:
        return False

    def take_board_click(self) -> Shown | None:
        return None

    # -- playing -----------------------------------------------------------------------------

    def play(self, move: Move) -> Played:
        """The player's move: sent to the server and shown at once (``sync`` takes it back if refused)."""
        self.session.play(move_name(move))
        played = self._play_into_game(move)
        after = _("{name} is to move.").format(name=self.opponent_name)
        if self.link.state != "connected":
            after = _("It goes to the server when the connection is back.")
        took = took_sentence("You", move_name(move), played.kind, played.points)
        said = StatusLine(f"{took} {after}", "info")  # two whole sentences
        return replace(played, status=said)

    def undo(self) -> Shown:
        return Shown(
            self.locked("undo")
            if not self.finished
            else StatusLine(_("The game is over: V reviews it move by move."), "quiet")
        )

    def redo(self) -> Shown:
        return Shown(self.locked("redo"))

    def request_hint(self) -> Shown:
        return Shown(
            self.locked("hint")
            if not self.finished
            else StatusLine(_("The game is over: V reviews every move against perfect play."), "quiet")
        )

    def command(self, name: str) -> Shown:
        """Take back, yes, no and rematch (the screen handles resign, leave and save)."""
        if self.watching:
            return Shown(StatusLine(_(WATCHING), "quiet"))
        if name == "takeback":
            return Shown(self._ask_takeback())
        if name in ("yes", "no"):
            return Shown(self._answer(name == "yes"))
        if name == "rematch":
            return Shown(self._rematch())
        return Shown()

    def _ask_takeback(self) -> StatusLine:
        if not self.enabled_buttons()["takeback"]:
            reason = (
                _("You asked already.")
                if self.state.offers.takeback == self.you
                else _("Only your own last move can be taken back, while the game is played.")
            )
            return StatusLine(_("No takeback to ask for: {reason}").format(reason=reason), "quiet")
        self.session.send(RequestTakeback())
        move = self.state.moves[-1] if self.state.moves else "?"
        return StatusLine(
            _("Asked {opponent_name} to let you take back {move}.").format(opponent_name=self.opponent_name, move=move),
            "hint",
        )

    def _answer(self, accept: bool) -> StatusLine:
        asked = self.question()
        name = self.opponent_name
        if asked == "takeback":
            self.session.send(AnswerTakeback(accept))
            return StatusLine(
                _("You let {name} take back their move.").format(name=name)
                if accept
                else _("You said no: {name}'s move stays.").format(name=name),
                "info",
            )
        if asked == "rematch" and accept:
            self.session.send(AcceptRematch())
            return StatusLine(_("You took the rematch: the same deal, the sides swapped."), "good")
        if asked == "rematch":
            self.session.send(DeclineRematch())
            self.declined_rematch = self.game_id  # the question goes at once, before the server's state
            return StatusLine(_("You turned down {name}'s rematch.").format(name=name), "info")
        return StatusLine(_("There is nothing to answer."), "quiet")

    def _rematch(self) -> StatusLine:
        offers = self.state.offers
        name = self.opponent_name
        if not self.finished:
            return StatusLine(_("A rematch can be offered once the game is over."), "quiet")
        if self.state.rematch is not None:
            return StatusLine(_("The rematch has begun already."), "quiet")
        if offers.rematch == self.opponent and self.declined_rematch != self.game_id:
            return self._answer(True)
        if offers.rematch == self.you:
            return StatusLine(_("You offered a rematch: waiting for {name}.").format(name=name), "quiet")
        self.session.send(OfferRematch())
        return StatusLine(_("Offered {name} a rematch: the same deal, the sides swapped.").format(name=name), "good")

    def resign(self) -> StatusLine:
        """Resign the game; what the status line says."""
        self.session.send(Resign())
        return StatusLine(_("You resign."), "info")

    @property
    def can_abort(self) -> bool:
        """Before the game's second move a player calls it off instead of resigning (the server's rule)."""
        return self.playing and not self.watching and self.state.ply < ABORT_BEFORE_PLY

    def abort(self) -> StatusLine:
        """Call the game off; what the status line says."""
        self.session.send(Abort())
        self.called_off = self.state.game
        return StatusLine(_("You called the game off: it counts for nothing."), "info")

    def ask_for_record(self) -> StatusLine:
        """Ask the server for the game record (``take_record`` has it when it comes); what to say meanwhile."""
        if self.link.state == "closed":
            return StatusLine(
                _("Not connected ({detail}): the record comes from the server.").format(detail=self.link.detail),
                "error",
            )
        self.record_asked_at = time.monotonic()
        self.session.send(GetRecord())
        return StatusLine(_("Asking the server for the record..."), "hint", busy=True, since=self.screen.clock)

    def take_record(self) -> str | None:
        record, self.record = self.record, None
        return record

    # -- what it looks like ------------------------------------------------------------------

    @property
    def keys_help(self) -> str:
        if self.watching:
            return _("V review · L leave") if self.finished else _("L leave")
        if self.question() is not None:
            return _("Y yes · N no · L leave")
        if self.playing:
            return _("T take back · L leave")
        return _("V review · L leave") if self.finished else _("L leave")

    def turn_status(self) -> StatusLine:
        state = self.state
        name = self.opponent_name
        if self.link.state == "closed":
            return StatusLine(
                _("Closed: {detail}. Leave, then resume the game from Play online.").format(detail=self.link.detail),
                "error",
            )
        if state.status == "waiting":
            return StatusLine(
                _("Waiting for both players to join.") if self.watching else _("Waiting for your opponent to join."),
                "quiet",
            )
        if self.finished:
            return self.game_over_line(state)
        if self.watching:
            mover = 1 if state.to_move == 1 else 2
            watched = _("You are watching: {name} is to move.").format(name=name_of(state, mover))
            return StatusLine(watched, "quiet")
        if state.to_move == self.you:
            pairs = len(self.position.legal_moves())
            said = ngettext(
                "Your move: {count} pair to choose from.", "Your move: {count} pairs to choose from.", pairs
            )
            return StatusLine(said.format(count=pairs), "info")
        if presence_of(state, self.opponent) == "away":
            away = _("{name} is to move. {name} is away: the game waits.").format(name=name)
            return StatusLine(away, "quiet")
        return StatusLine(_("{name} is to move.").format(name=name), "quiet")

    def status_line(self) -> tuple[StatusLine, str]:
        return self.screen.status, self.keys_help

    def hint_move(self) -> Move | None:
        return None

    def last_move(self) -> Move | None:
        moves = self.screen.match.game.moves
        return moves[-1] if moves else None

    def panel_label(self) -> str:
        role = "watching" if self.watching else _("you are Player {you}").format(you=self.you)
        return _("online · {role} · server {server_label}").format(
            role=role, server_label=server_label(self.session.url)
        )

    def panel_labels(self, deal: int | None) -> list[str]:
        """The panel header's line, longest first: the screen shows the first that fits."""
        server = server_label(self.session.url)
        full = self.panel_label()
        labels = [_("Deal {deal}  ·  {full}").format(deal=deal, full=full)] if deal is not None else []
        role = seat_word("watching") if self.watching else _("Player {you} (you)").format(you=self.you)
        return [
            *labels,
            full,
            _("online · {role} · {server}").format(role=role, server=server),
            _("online · {server}").format(server=server),
        ]

    def roles(self) -> tuple[str, str]:
        """The player cards' lines: who is who, who is connected, and the time left on a move."""
        left = self.seconds_left()
        roles = []
        for seat in (1, 2):
            label = _("Player {seat}").format(seat=seat)
            parts = [] if name_of(self.state, seat) == label else [label]  # a nameless seat's card says it once
            if seat == seat_of(self.state):
                link = {"connected": "connected", "closed": "offline"}.get(self.link.state, "reconnecting")
                parts += [seat_word("you"), seat_word(link)]
            elif self.link.state != "connected":
                parts.append(seat_word("unknown"))  # the last word from a server that is gone says nothing of now
            else:
                presence = presence_of(self.state, seat)
                parts.append(_("not joined yet") if presence == "open" else seat_word(presence))
            if self.playing and self.state.to_move == seat and left is not None:
                overdue = seat_word("overdue")
                parts.append(_("{clock_text} left").format(clock_text=clock_text(left)) if left > 0 else overdue)
            roles.append(" · ".join(parts))
        return roles[0], roles[1]

    def notice(self) -> tuple[str, str] | None:
        """The one thing that needs noticing beside the status line, and its kind: a lost link, a question, absence."""
        name = self.opponent_name
        offers = self.state.offers
        if self.link.state == "closed":
            return _("Closed: {detail}").format(detail=self.link.detail), "error"
        if self.lost and self.link.state == "retrying":
            return _("Connection lost — retrying in {retry_seconds} s").format(
                retry_seconds=self._retry_seconds()
            ), "warn"
        if self.lost:
            return _("Connection lost — connecting again…"), "warn"
        if self.watching:
            away = [seat for seat in (1, 2) if presence_of(self.state, seat) == "away"]
            return (
                (_("{what} is away: the game waits").format(what=name_of(self.state, away[0])), "quiet")
                if self.playing and away
                else None
            )
        asked = self.question()
        if asked == "takeback":
            return _("{name} asks to take back their last move — Y yes · N no").format(name=name), "good"
        if asked == "rematch":
            return _("{name} offers a rematch — Y yes · N no").format(name=name), "good"
        if self.playing and presence_of(self.state, self.opponent) == "away":
            return _("{name} is away: the game waits").format(name=name), "quiet"
        if self.playing and offers.takeback == self.you:
            return _("Waiting for {name} to answer your takeback request").format(name=name), "quiet"
        if self.finished and offers.rematch == self.you and self.state.rematch is None:
            return _("Waiting for {name} to take the rematch").format(name=name), "quiet"
        return None

    def draw(self, surface: pygame.Surface) -> None:
        """Nothing over the board: the notice goes beside the status line (``draw_status_and_notice``)."""
