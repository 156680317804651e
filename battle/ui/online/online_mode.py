"""Playing a game that lives on a server: the game screen's mode for an online game.

The server owns the game (docs/protocol.md); this mode shows it and sends what the player
does. The match's Game follows the session's state: ``sync`` compares the moves the server
holds, plus the player's own move while it is on its way (``expected_moves``), with the
Game's; it plays what is new with the removal and flying-points animations of a local move,
takes back what the server no longer has (an accepted takeback, a refused move), and builds
the Game again when the state is of another game (a rematch) or does not follow from it.
The player's own move is shown at once and sent with ``OnlineSession.play``, which resends it
after a dropped connection; the server applies it once. A window that watches with a watch
code (``watching``) follows the board the same way and sends nothing.

While the game is played, hints, analysis, the local undo and redo, the editor and the
review are off (each would be the solver's help); a takeback is a request the opponent
answers. Once the game is over they come back.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

import pygame

from battle.online.client import Link
from battle.online.offer_news import NewsReader, OfferNews
from battle.online.state_game import JsonObject, game_from_state, name_of, result_of_state
from battle.rules.board import Move, Position, move_name
from battle.rules.errors import BattleError
from battle.rules.wording import pair_words, plural, verb
from battle.ui.online import connection
from battle.ui.online.online_state import (
    clock_text,
    common_prefix,
    describe_end,
    expected_moves,
    last_mover,
    news_line,
    open_question,
    opponent_of,
    presence_of,
    seat_of,
    server_label,
    who,
)
from battle.ui.online.online_view import draw_notice
from battle.ui.play.game_mode import RESULT_DELAY
from battle.ui.play.match import Match
from battle.ui.widgets.animations import FLY_DELAY, FlyingPoints, Pulse, Removal
from battle.ui.widgets.hud import StatusLine

if TYPE_CHECKING:
    from battle.online.client import OnlineSession
    from battle.ui.play.play_mode import ButtonSpec, PlayScreen

BUTTONS: tuple[ButtonSpec, ...] = (
    ("takeback", "Take back", "Ask your opponent to let you take back your last move (T)"),
    ("resign", "Resign", "Give up this game: your opponent wins (asks first)"),
    ("leave", "Leave", "Back to the title; the game waits on the server for you to resume it (L)"),
    ("yes", "Yes", "Accept your opponent's takeback request or rematch offer (Y)"),
    ("no", "No", "Turn down your opponent's takeback request or rematch offer (N)"),
    ("rematch", "Rematch", "Once the game is over: offer (or accept) the same deal with the sides swapped"),
    ("save", "Save record", "Save the game record the server keeps, .mbg (Ctrl+S)"),
)
COMMANDS = ("takeback", "yes", "no", "rematch")
"""The mode's own commands (``resign``, ``leave`` and ``save`` need the screen, which handles them)."""
KEYS = {pygame.K_t: "takeback", pygame.K_y: "yes", pygame.K_n: "no", pygame.K_l: "leave"}
"""Online keys; N answers no here (Leave is L), the rest of the game's keys are the screen's."""
RECORD_WAIT = 10.0
"""Seconds to wait for the record before saying it did not come: the server answers within milliseconds,
and 10 s see a dropped connection through its first retries (0.5 + 1 + 2 + 4 s)."""
COUNTDOWN_INTERVAL = 0.25
"""Frames while the link is down: the retry countdown shows whole seconds, so four a second keep it on time."""
CLOCK_INTERVAL = 0.5
"""Frames while a move's time limit runs: its clock shows whole seconds."""
WATCHING = "You are watching this game: the players make the moves."
_SEVERITY = {"error": 4, "warn": 3, "good": 2, "hint": 2, "info": 1, "quiet": 0}


class OnlineMode:
    """An online game on the game screen: the session, the Game that follows it, the questions and the end."""

    buttons = BUTTONS
    keys = KEYS
    runs_game = True
    shows_move_list = True
    previewing = False

    def __init__(self, screen: PlayScreen, session: OnlineSession, state: JsonObject) -> None:
        self.screen = screen
        self.session = session
        self.state: JsonObject = state
        """The latest state the board follows."""
        self.game_id = str(state.get("game"))
        self.link: Link = session.link
        self.link_since = time.monotonic()
        self.lost = False
        """The connection dropped and is not back yet (a first connection is not "lost")."""
        self.result_shown = state.get("status") == "finished"
        self.end_at: float | None = None
        self.turn_ends: float | None = None
        """``time.monotonic()`` when the side to move runs out of time, with a time limit."""
        self.record_asked_at: float | None = None
        self.record: str | None = None
        """The record the server sent for saving, until the screen takes it."""
        self.declined_rematch: str | None = None
        """The game whose rematch offer the player turned down (the server withdraws it; until its
        state says so, the question is gone here already)."""
        self.kept_game: str | None = None
        self.reader = NewsReader(state)
        """Reads each message's questions and answers in turn (``poll``)."""
        self._start_clock(state)
        self._remember(state)

    # -- reading the state -------------------------------------------------------------------

    @property
    def you(self) -> int:
        return seat_of(self.state) or 1

    @property
    def watching(self) -> bool:
        """The window watches the game (a watch code): it sees every move and makes none."""
        return seat_of(self.state) is None

    @property
    def opponent(self) -> int:
        return opponent_of(self.state)

    @property
    def opponent_name(self) -> str:
        return name_of(self.state, self.opponent)

    @property
    def playing(self) -> bool:
        return self.state.get("status") == "playing"

    @property
    def finished(self) -> bool:
        return self.state.get("status") == "finished"

    @property
    def position(self) -> Position:
        return self.screen.match.game.position

    def shown_position(self) -> Position:
        return self.position

    def question(self) -> str | None:
        """What the opponent asks now (``takeback`` or ``rematch``), unless the player turned it down here."""
        asked = None if self.watching else open_question(self.state)
        return None if asked == "rematch" and self.declined_rematch == self.game_id else asked

    def in_flight(self) -> bool:
        """The player's move is on the board but not yet in the state the board follows (the session
        may have its ``ack`` already: the board goes by the state it shows, never by the newer list)."""
        return self.screen.match.game.ply > len(self.state.get("moves") or ())

    def seconds_left(self) -> float | None:
        return None if self.turn_ends is None else self.turn_ends - time.monotonic()

    def winner(self) -> int | None:
        result = result_of_state(self.state)
        return result.winner if result is not None else None

    # -- buttons and clicks ------------------------------------------------------------------

    def enabled_buttons(self) -> dict[str, bool]:
        offers = self.state.get("offers") or {}
        asked = self.question() is not None
        game = self.screen.match.game
        if self.watching:
            return {"takeback": False, "resign": False, "yes": False, "no": False, "rematch": False,
                    "edit": self.finished, "review": self.finished and game.ply > 0}
        return {
            "takeback": (self.playing and last_mover(self.state, game) == self.you
                         and offers.get("takeback") is None and not self.in_flight()),
            "resign": self.playing,
            "yes": asked,
            "no": asked,
            "rematch": self.finished and not self.state.get("rematch") and offers.get("rematch") != self.you,
            "edit": self.finished,
            "review": self.finished and game.ply > 0,
        }

    def refusal(self) -> StatusLine | None:
        if self.link.state == "closed":
            return StatusLine(f"Not connected ({self.link.detail}). Leave, then resume the game from Play online.",
                          "error")
        if self.watching:
            return StatusLine(WATCHING, "quiet")
        if self.state.get("status") == "waiting":
            return StatusLine("Your opponent has not joined yet.", "quiet")
        if self.finished:
            return StatusLine("The game is over. Rematch offers another; V reviews this one.", "quiet")
        if self.in_flight():
            return StatusLine("Wait: your move is on its way to the server.", "quiet")
        if self.state.get("to_move") != self.you:
            return StatusLine(f"Wait: {verb(self.opponent_name, 'is')} to move.", "quiet")
        return None

    def locked(self, name: str) -> StatusLine:
        """Why a command of the local game is off while the online game is played."""
        words = {
            "undo": f"Undo is off in an online game: T asks {self.opponent_name} to let you take back your move.",
            "redo": "Redo is off in an online game.",
            "hint": "Hints are off in an online game.",
            "analyse": "Analysis is off while the game is played; it comes back when the game is over.",
            "edit": "The position editor opens once the game is over.",
            "review": "The review opens once the game is over.",
            "load": "Loading a game is off here: Leave first (the game waits on the server).",
        }
        return StatusLine(words.get(name, "That is off in an online game."), "quiet")

    def take_right_click(self) -> bool:
        return False

    def take_board_click(self) -> bool:
        return False

    # -- playing -----------------------------------------------------------------------------

    def play(self, move: Move) -> None:
        """The player's move: sent to the server and shown at once (``sync`` takes it back if refused)."""
        kind = self.position.cells[move[0]]
        self.session.play(move_name(move))
        points = self._show_move(move)
        after = f"{verb(self.opponent_name, 'is')} to move."
        if self.link.state != "connected":
            after = "It goes to the server when the connection is back."
        self.screen.status = StatusLine(f"You took {pair_words(kind)}, {move_name(move)}, for "
                                    f"{plural(points, 'point')}. {after}", "info")

    def _show_move(self, move: Move) -> int:
        """Play a move into the Game with the removal and flying-points animations; its points."""
        screen = self.screen
        game = screen.match.game
        mover = game.position.to_move
        kind = game.position.cells[move[0]]
        points = game.play(move)
        screen.animations.append(Removal(move, kind, screen.clock))
        flying = FlyingPoints(f"+{points}", points, mover, move, screen.clock + FLY_DELAY)
        screen.animations.append(flying)
        screen.animations.append(Pulse(mover, flying.start + flying.duration))
        screen.selected = None
        screen.refresh()
        return points

    def undo(self) -> None:
        self.screen.status = self.locked("undo") if not self.finished else StatusLine(
            "The game is over: V reviews it move by move.", "quiet")

    def redo(self) -> None:
        self.screen.status = self.locked("redo")

    def request_hint(self) -> None:
        self.screen.status = self.locked("hint") if not self.finished else StatusLine(
            "The game is over: V reviews every move against perfect play.", "quiet")

    def command(self, name: str) -> None:
        """Take back, yes, no and rematch (the screen handles resign, leave and save)."""
        if self.watching:
            self.screen.status = StatusLine(WATCHING, "quiet")
        elif name == "takeback":
            self._ask_takeback()
        elif name in ("yes", "no"):
            self._answer(name == "yes")
        elif name == "rematch":
            self._rematch()

    def _ask_takeback(self) -> None:
        if not self.enabled_buttons()["takeback"]:
            reason = ("You asked already." if (self.state.get("offers") or {}).get("takeback") == self.you
                      else "Only your own last move can be taken back, while the game is played.")
            self.screen.status = StatusLine(f"No takeback to ask for: {reason}", "quiet")
            return
        self.session.send({"type": "takeback_request"})
        move = (self.state.get("moves") or ["?"])[-1]
        self.screen.status = StatusLine(f"Asked {self.opponent_name} to let you take back {move}.", "hint")

    def _answer(self, accept: bool) -> None:
        asked = self.question()
        name = self.opponent_name
        if asked == "takeback":
            self.session.send({"type": "takeback_answer", "accept": accept})
            self.screen.status = StatusLine(f"You let {name} take back their move." if accept
                                        else f"You said no: {name}'s move stays.", "info")
        elif asked == "rematch" and accept:
            self.session.send({"type": "rematch_accept"})
            self.screen.status = StatusLine("You took the rematch: the same deal, the sides swapped.", "good")
        elif asked == "rematch":
            self.session.send({"type": "rematch_decline"})
            self.declined_rematch = self.game_id  # the question goes at once, before the server's state
            self.screen.status = StatusLine(f"You turned down {name}'s rematch.", "info")
        else:
            self.screen.status = StatusLine("There is nothing to answer.", "quiet")

    def _rematch(self) -> None:
        offers = self.state.get("offers") or {}
        name = self.opponent_name
        if not self.finished:
            self.screen.status = StatusLine("A rematch can be offered once the game is over.", "quiet")
        elif self.state.get("rematch"):
            self.screen.status = StatusLine("The rematch has begun already.", "quiet")
        elif offers.get("rematch") == self.opponent and self.declined_rematch != self.game_id:
            self._answer(True)
        elif offers.get("rematch") == self.you:
            self.screen.status = StatusLine(f"You offered a rematch: waiting for {name}.", "quiet")
        else:
            self.session.send({"type": "rematch_offer"})
            self.screen.status = StatusLine(f"Offered {name} a rematch: the same deal, the sides swapped.", "good")

    def resign(self) -> None:
        self.session.send({"type": "resign"})
        self.screen.status = StatusLine("You resign.", "info")

    def ask_for_record(self) -> StatusLine:
        """Ask the server for the game record (``take_record`` has it when it comes); what to say meanwhile."""
        if self.link.state == "closed":
            return StatusLine(f"Not connected ({self.link.detail}): the record comes from the server.", "error")
        self.record_asked_at = time.monotonic()
        self.session.send({"type": "record"})
        return StatusLine("Asking the server for the record...", "hint", busy=True, since=self.screen.clock)

    def take_record(self) -> str | None:
        record, self.record = self.record, None
        return record

    # -- following the server ----------------------------------------------------------------

    def poll(self) -> None:
        """Take the session's news: the board follows the state, the status line says what changed."""
        events = self.session.events()
        if not events:
            return
        state, pending = self.session.snapshot()
        links: list[StatusLine] = []
        told: list[StatusLine] = []
        news: list[OfferNews] = []
        changed = False
        for event in events:
            kind = event.get("type")
            news.extend(self.reader.read(event))
            if kind == "link":
                links.extend(self._link_changed(event))
            elif kind == "error":
                told.append(StatusLine(f"The server refused: {event.get('reason')}", "error"))
            elif kind == "record" and self.record_asked_at is not None:
                self.record_asked_at = None
                self.record = str(event.get("mbg", ""))
            elif kind == "rematch":
                told.append(StatusLine("The rematch begins: the same deal, the sides swapped.", "good"))
            if kind in ("state", "moved", "created", "joined", "rematch"):
                changed = True
            if kind == "state":
                self._start_clock(event)
            elif kind == "moved":
                self._moved_clock(event)
        said = self._sync(state, pending, news) if state is not None else []
        said.extend(StatusLine(*line) for line in (news_line(item, self.state) for item in news) if line is not None)
        if said and all(part.kind == "info" for part in said):
            said.append(self.turn_status())
        if changed:
            self._remember(self.state)
        parts = links + said + told
        if parts:
            kind = max((part.kind for part in parts), key=lambda k: _SEVERITY.get(k, 1))
            self.screen.status = StatusLine(" ".join(part.text for part in parts), kind)

    def _sync(self, state: JsonObject, pending: list[tuple[str, str]], news: list[OfferNews]) -> list[StatusLine]:
        """Bring the Game to the state's moves; what changed, for the status line."""
        previous, self.state = self.state, state
        if (state.get("offers") or {}).get("rematch") is None:
            self.declined_rematch = None  # withdrawn on the server: a new offer is a new question
        game = self.screen.match.game
        if str(state.get("game")) != self.game_id or state.get("start") != previous.get("start"):
            return self._rebuild(state)
        try:
            expected = expected_moves(state, pending)
        except BattleError as error:
            return [StatusLine(f"A move from the server does not read here: {error}", "error")]
        current = list(game.moves)
        keep = common_prefix(current, expected)
        said: list[StatusLine] = []
        if keep < len(current):
            taken = [game.undo() for _ in range(len(current) - keep)]
            self.screen.animations = [a for a in self.screen.animations if isinstance(a, Pulse)]
            self.screen.selected = None
            self.screen.refresh()
            granted = next((item.seat for item in news if item.kind == "takeback_granted"), None)
            said.append(self._taken_back(granted, taken))
        last = None
        for move in expected[keep:]:
            position = game.position
            if position.illegal_reason(move) is not None:
                return self._rebuild(state)
            last = (position.to_move, position.cells[move[0]], move, self._show_move(move))
        if last is not None:
            mover, kind, move, points = last
            said.append(StatusLine(f"{verb(who(state, mover), 'took')} {pair_words(kind)}, {move_name(move)}, for "
                               f"{plural(points, 'point')}.", "info"))
        for seat in (1, 2):
            if game.names[seat - 1] != name_of(state, seat):
                setattr(game, f"player{seat}", name_of(state, seat))
        if state.get("status") == "finished" and previous.get("status") != "finished":
            said.append(StatusLine(f"Game over: {describe_end(state)}", "good"))
        return said

    def _rebuild(self, state: JsonObject) -> list[StatusLine]:
        """Show the state's game from its start (a rematch, or a state the board does not follow from)."""
        try:
            game = game_from_state(state)
        except BattleError as error:
            return [StatusLine(f"The server's game does not read here: {error}", "error")]
        screen = self.screen
        screen.match = Match(game)
        screen.selected = None
        screen.animations = []
        screen.refresh()
        self.game_id = str(state.get("game"))
        self.result_shown = state.get("status") == "finished"
        self.end_at = None
        return [self.turn_status()]

    def _taken_back(self, asker: int | None, taken: list[Move]) -> StatusLine:
        """``taken`` is off the board: a takeback ``asker`` asked for, or a move the server did not play."""
        listed = ", ".join(move_name(move) for move in reversed(taken))
        name = self.opponent_name
        if asker is not None and self.watching:
            return StatusLine(f"{name_of(self.state, asker)} took back {listed}.", "info")
        if asker == self.you:
            return StatusLine(f"{name} let you take back {listed}.", "good")
        if asker == self.opponent:
            return StatusLine(f"{name} took back {listed}.", "info")
        return StatusLine(f"{listed} is off the board again: the server did not play it.", "warn")

    def _link_changed(self, event: JsonObject) -> list[StatusLine]:
        self.link = Link(str(event.get("state")), str(event.get("detail") or ""), event.get("retry_in"))
        self.link_since = time.monotonic()
        if self.link.state == "retrying" and not self.lost:
            self.lost = True
            return [StatusLine(f"Connection lost ({self.link.detail}): trying again in "
                           f"{self._retry_seconds()} s. The game waits on the server.", "warn")]
        if self.link.state == "connected" and self.lost:
            self.lost = False
            return [StatusLine("Connected again.", "good")]
        if self.link.state == "closed":
            return [StatusLine(f"Closed: {self.link.detail}.", "error")]
        return []

    def _retry_seconds(self) -> int:
        wait = float(self.link.retry_in or 0.0) - (time.monotonic() - self.link_since)
        return max(0, math.ceil(wait))

    def _start_clock(self, state: JsonObject) -> None:
        left = state.get("seconds_left")
        self.turn_ends = time.monotonic() + float(left) if isinstance(left, (int, float)) else None

    def _moved_clock(self, moved: JsonObject) -> None:
        """A move starts the next turn's time now (the server's ``deadline`` is by its own clock)."""
        limit = self.state.get("move_seconds")
        playing = moved.get("status") == "playing"
        self.turn_ends = time.monotonic() + limit if playing and isinstance(limit, int) else None

    def _remember(self, state: JsonObject) -> None:
        """Keep the seat in the list of online games; a rematch's game takes the old one's place."""
        seat = self.session.seat
        if seat is None:
            return
        if self.kept_game is not None and self.kept_game != seat.game:
            connection.forget(seat.url, self.kept_game)  # the token now resumes the rematch
        self.kept_game = seat.game
        problem = connection.remember(self.session, state)
        if problem:
            self.screen.status = StatusLine(problem, "warn")

    # -- time --------------------------------------------------------------------------------

    def tick(self) -> None:
        """The result card once the finished game's last animation is over; a record that never came."""
        screen = self.screen
        if self.record_asked_at is not None and time.monotonic() - self.record_asked_at > RECORD_WAIT:
            self.record_asked_at = None
            screen.status = StatusLine(f"No record came from the server in {RECORD_WAIT:g} s: try again once "
                                   "connected.", "warn")
        if self._result_due():
            if screen.animating():
                self.end_at = None
            elif self.end_at is None:
                self.end_at = screen.clock + RESULT_DELAY
            elif screen.clock >= self.end_at:
                self.result_shown = True
                screen.show_result()

    def _result_due(self) -> bool:
        screen = self.screen
        return self.finished and not self.result_shown and not screen.browsing and not screen.dialog_open()

    def frame_due(self) -> bool:
        return self._result_due()

    def pulsing(self) -> bool:
        return False

    def next_poll_in(self) -> float | None:
        """How soon the screen changes without news: the retry countdown, a move's clock; else only news."""
        if self.link.state == "closed":
            return None
        if self.link.state != "connected" or self.record_asked_at is not None:
            return COUNTDOWN_INTERVAL
        return CLOCK_INTERVAL if self.playing and self.turn_ends is not None else None

    def close(self) -> None:
        """The session goes on while the screen is covered (a review, a question); the screen closes it."""

    # -- what it looks like ------------------------------------------------------------------

    @property
    def keys_help(self) -> str:
        if self.watching:
            return "V review · L leave" if self.finished else "L leave"
        if self.question() is not None:
            return "Y yes · N no · L leave"
        if self.playing:
            return "T take back · L leave"
        return "V review · L leave" if self.finished else "L leave"

    def turn_status(self) -> StatusLine:
        state = self.state
        name = self.opponent_name
        if self.link.state == "closed":
            return StatusLine(f"Closed: {self.link.detail}. Leave, then resume the game from Play online.", "error")
        if state.get("status") == "waiting":
            return StatusLine("Waiting for " + ("both players" if self.watching else "your opponent") + " to join.",
                          "quiet")
        if self.finished:
            return StatusLine(f"Game over: {describe_end(state)}", "good")
        if self.watching:
            mover = 1 if state.get("to_move") == 1 else 2
            return StatusLine(f"You are watching: {verb(name_of(state, mover), 'is')} to move.", "quiet")
        if state.get("to_move") == self.you:
            return StatusLine(f"Your move: {plural(len(self.position.legal_moves()), 'pair')} to choose from.", "info")
        away = f" {verb(name, 'is')} away: the game waits." if presence_of(state, self.opponent) == "away" else ""
        return StatusLine(f"{verb(name, 'is')} to move.{away}", "quiet")

    def status_line(self) -> tuple[StatusLine, str]:
        return self.screen.status, self.keys_help

    def hint_move(self) -> Move | None:
        return None

    def last_move(self) -> Move | None:
        moves = self.screen.match.game.moves
        return moves[-1] if moves else None

    def panel_label(self) -> str:
        role = "watching" if self.watching else f"you are Player {self.you}"
        return f"online · {role} · server {server_label(self.session.url)}"

    def panel_labels(self, deal: int | None) -> list[str]:
        """The panel header's line, longest first: the screen shows the first that fits."""
        server = server_label(self.session.url)
        full = self.panel_label()
        labels = [f"Deal {deal}  ·  {full}"] if deal is not None else []
        role = "watching" if self.watching else f"Player {self.you} (you)"
        return [*labels, full, f"online · {role} · {server}", f"online · {server}"]

    def roles(self) -> tuple[str, str]:
        """The player cards' lines: who is who, who is connected, and the time left on a move."""
        left = self.seconds_left()
        roles = []
        for seat in (1, 2):
            parts = [f"Player {seat}"]
            if seat == seat_of(self.state):
                link = {"connected": "connected", "closed": "offline"}.get(self.link.state, "reconnecting")
                parts += ["you", link]
            else:
                parts.append({"connected": "connected", "away": "away",
                              "open": "not joined yet"}.get(presence_of(self.state, seat), "away"))
            if self.playing and self.state.get("to_move") == seat and left is not None:
                parts.append(f"{clock_text(left)} left" if left > 0 else "overdue")
            roles.append(" · ".join(parts))
        return roles[0], roles[1]

    def notice(self) -> tuple[str, str] | None:
        """The one thing that needs noticing over the board, and its kind: a lost link, a question, absence."""
        name = self.opponent_name
        offers = self.state.get("offers") or {}
        if self.link.state == "closed":
            return f"Closed: {self.link.detail}", "error"
        if self.lost and self.link.state == "retrying":
            return f"Connection lost — retrying in {self._retry_seconds()} s", "warn"
        if self.lost:
            return "Connection lost — connecting again…", "warn"
        if self.watching:
            away = [seat for seat in (1, 2) if presence_of(self.state, seat) == "away"]
            return (f"{name_of(self.state, away[0])} is away: the game waits", "quiet") if self.playing and away \
                else None
        asked = self.question()
        if asked == "takeback":
            return f"{name} asks to take back their last move — Y yes · N no", "good"
        if asked == "rematch":
            return f"{name} offers a rematch — Y yes · N no", "good"
        if self.playing and presence_of(self.state, self.opponent) == "away":
            return f"{name} is away: the game waits", "quiet"
        if self.playing and offers.get("takeback") == self.you:
            return f"Waiting for {name} to answer your takeback request", "quiet"
        if self.finished and offers.get("rematch") == self.you and not self.state.get("rematch"):
            return f"Waiting for {name} to take the rematch", "quiet"
        return None

    def draw(self, surface: pygame.Surface) -> None:
        notice = self.notice()
        if notice is not None and not self.screen.browsing:
            app = self.screen.app
            draw_notice(surface, app.fonts, app.layout, *notice)
