"""Following a game that lives on a server: the session's news, the Game that follows its state.

The server owns the game (docs/protocol.md). ``ServerGame`` keeps what the window knows of
it: the latest state, the connection, the move clock, the record asked for, the questions
turned down here. ``poll`` compares the moves the server holds, plus the player's own move
while it is on its way (``expected_moves``), with the Game's; it plays what is new with the
removal and flying-points animations of a local move, takes back what the server no longer
has (an accepted takeback, a refused move), and builds the Game again when the state is of
another game (a rematch) or does not follow from it. The game screen's online mode
(``online_mode.OnlineMode``) adds the controls and the words on top.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from battle.i18n import _, format_short
from battle.online.client.offer_news import NewsReader, OfferNews
from battle.online.client.session import Link
from battle.online.client.state_game import game_from_state, name_of, result_of_state
from battle.online.protocol.server_messages import Created, Error, Joined, Moved, Record, RematchStarted, State
from battle.rules.board import Move, Position, move_name
from battle.rules.errors import BattleError
from battle.ui.online import connection
from battle.ui.online.online_state import (
    common_prefix,
    describe_end,
    expected_moves,
    news_line,
    open_question,
    opponent_of,
    presence_of,
    seat_of,
    took_text,
)
from battle.ui.play.game_mode import RESULT_DELAY
from battle.ui.sound.events import presence_event
from battle.ui.widgets.hud import StatusLine

if TYPE_CHECKING:
    from battle.online.client.session import OnlineSession
    from battle.ui.play_mode import PlayScreen
from battle.ui.play_mode import Played, Shown

RECORD_WAIT = 10.0
"""Seconds to wait for the record before saying it did not come: the server answers within milliseconds,
and 10 s see a dropped connection through its first retries (0.5 + 1 + 2 + 4 s)."""
COUNTDOWN_INTERVAL = 0.25
"""Frames while the link is down: the retry countdown shows whole seconds, so four a second keep it on time."""
CLOCK_INTERVAL = 0.5
"""Frames while a move's time limit runs: its clock shows whole seconds."""
_SEVERITY = {"error": 4, "warn": 3, "good": 2, "hint": 2, "info": 1, "quiet": 0}


@dataclass
class _Change:
    """What following the server did to the game: said, taken back, played, or another game."""

    said: list[StatusLine] = field(default_factory=list)
    rewound: bool = False
    played: list[Played] = field(default_factory=list)
    reset: bool = False


class ServerGame:
    """The server's game as the game screen shows it: the session, its latest state, the Game that follows it."""

    def __init__(self, screen: PlayScreen, session: OnlineSession, state: State) -> None:
        self.screen = screen
        self.session = session
        self.state: State = state
        """The latest state the board follows."""
        self.game_id = state.game
        self.link: Link = session.link
        self.link_since = time.monotonic()
        self.lost = False
        """The connection dropped and is not back yet (a first connection is not "lost")."""
        self.result_shown = state.status == "finished"
        self.end_at: float | None = None
        self.turn_ends: float | None = None
        """``time.monotonic()`` when the side to move runs out of time, with a time limit."""
        self.record_asked_at: float | None = None
        self.called_off: str | None = None
        """The game this player called off (Abort): its card says who did, which the server's result does not."""
        self.record: str | None = None
        """The record the server sent for saving, until the screen takes it."""
        self.declined_rematch: str | None = None
        """The game whose rematch offer the player turned down (the server withdraws it; until its
        state says so, the question is gone here already)."""
        self.kept_game: str | None = None
        self.reader = NewsReader(state)
        """Reads each message's questions and answers in turn (``poll``)."""
        self._start_clock(state)
        self.start_problem = self._remember(state)
        """What keeping the seat in the list of online games ran into, for the first status line."""

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
        return self.state.status == "playing"

    @property
    def finished(self) -> bool:
        return self.state.status == "finished"

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
        return self.screen.match.game.ply > self.state.ply

    def seconds_left(self) -> float | None:
        return None if self.turn_ends is None else self.turn_ends - time.monotonic()

    def winner(self) -> int | None:
        result = result_of_state(self.state)
        return result.winner if result is not None else None

    def turn_status(self) -> StatusLine:
        """The status line when nothing else is to be said; the online mode words it."""
        raise NotImplementedError

    def _play_into_game(self, move: Move) -> Played:
        """Play a move into the Game; what happened, for the screen to show (its status: the caller's)."""
        game = self.screen.match.game
        mover = game.position.to_move
        kind = game.position.cells[move[0]]
        points = game.play(move)
        return Played(move, mover, kind, points, None)

    # -- following the server ----------------------------------------------------------------

    def poll(self) -> Shown | None:
        """Take the session's news: the game follows the state; what the screen shows of it (the
        moves, a rewind, another game, the status line), or None when nothing came."""
        events = self.session.events()
        if not events:
            return None
        state, pending = self.session.snapshot()
        links: list[StatusLine] = []
        told: list[StatusLine] = []
        news: list[OfferNews] = []
        changed = False
        for event in events:
            news.extend(self.reader.read(event))
            if isinstance(event, Link):
                links.extend(self._link_changed(event))
            elif isinstance(event, Error):
                told.append(StatusLine(connection.refusal(event, self.state), "error"))
            elif isinstance(event, Record) and self.record_asked_at is not None:
                self.record_asked_at = None
                self.record = event.mbg
            elif isinstance(event, RematchStarted):
                told.append(StatusLine(_("The rematch begins: the same deal, the sides swapped."), "good"))
            if isinstance(event, (State, Moved, Created, Joined, RematchStarted)):
                changed = True
            if isinstance(event, State):
                self._start_clock(event)
            elif isinstance(event, Moved):
                self._moved_clock(event)
        change = self._sync(state, pending, news) if state is not None else _Change()
        said = change.said
        said.extend(StatusLine(*line) for line in (news_line(item, self.state) for item in news) if line is not None)
        if said and all(part.kind == "info" for part in said):
            said.append(self.turn_status())
        if changed:
            problem = self._remember(self.state)
            if problem is not None:
                told.append(problem)
        parts = links + said + told
        status = None
        if parts:
            kind = max((part.kind for part in parts), key=lambda k: _SEVERITY.get(k, 1))
            status = StatusLine(" ".join(part.text for part in parts), kind)
        return Shown(status, rewound=change.rewound, played=tuple(change.played), reset=change.reset)

    def _sync(self, state: State, pending: list[tuple[str, str]], news: list[OfferNews]) -> _Change:
        """Bring the Game to the state's moves; what changed, for the screen and its status line."""
        change = _Change()
        previous, self.state = self.state, state
        if state.offers.rematch is None:
            self.declined_rematch = None  # withdrawn on the server: a new offer is a new question
        game = self.screen.match.game
        if state.game != self.game_id or state.start != previous.start:
            return self._rebuild(state)
        try:
            expected = expected_moves(state, pending)
        except BattleError as error:
            change.said.append(
                StatusLine(_("A move from the server does not read here: {error}").format(error=error), "error")
            )
            return change
        current = list(game.moves)
        keep = common_prefix(current, expected)
        said = change.said
        if keep < len(current):
            taken = [game.undo() for _ in range(len(current) - keep)]
            change.rewound = True
            granted = next((item.seat for item in news if item.kind == "takeback_granted"), None)
            said.append(self._taken_back(granted, taken))
        for move in expected[keep:]:
            if game.position.illegal_reason(move) is not None:
                return self._rebuild(state)
            change.played.append(self._play_into_game(move))
        if change.played:
            last = change.played[-1]
            said.append(StatusLine(took_text(state, last.mover, move_name(last.move), last.kind, last.points), "info"))
        for seat in (1, 2):
            if game.names[seat - 1] != name_of(state, seat):
                setattr(game, f"player{seat}", name_of(state, seat))
        arrival = presence_event(presence_of(previous, self.opponent), presence_of(state, self.opponent))
        if arrival is not None and not self.watching:
            self.screen.app.sounds.play(arrival)
        if state.status == "finished" and previous.status != "finished":
            said.append(self.game_over_line(state))
        return change

    def game_over_line(self, state: State) -> StatusLine:
        """The status line of a finished game: how it ended, said as to the player who called it off
        when this window did."""
        end = describe_end(state, state.game == self.called_off)
        return StatusLine(_("Game over: {describe_end}").format(describe_end=end), "good")

    def _rebuild(self, state: State) -> _Change:
        """Follow the state's game from its start (a rematch, or a state the board does not follow
        from): the match's game is replaced, and the screen starts its board afresh."""
        try:
            game = game_from_state(state)
        except BattleError as error:
            return _Change(
                [StatusLine(_("The server's game does not read here: {error}").format(error=error), "error")]
            )
        self.screen.match.game = game
        self.game_id = state.game
        self.result_shown = state.status == "finished"
        self.end_at = None
        return _Change([self.turn_status()], reset=True)

    def _taken_back(self, asker: int | None, taken: list[Move]) -> StatusLine:
        """``taken`` is off the board: a takeback ``asker`` asked for, or a move the server did not play."""
        listed = ", ".join(move_name(move) for move in reversed(taken))
        name = self.opponent_name
        if asker is not None and self.watching:
            return StatusLine(
                _("{what} took back {listed}.").format(what=name_of(self.state, asker), listed=listed), "info"
            )
        if asker == self.you:
            return StatusLine(_("{name} let you take back {listed}.").format(name=name, listed=listed), "good")
        if asker == self.opponent:
            return StatusLine(_("{name} took back {listed}.").format(name=name, listed=listed), "info")
        return StatusLine(
            _("{listed} is off the board again: the server did not play it.").format(listed=listed), "warn"
        )

    def _link_changed(self, event: Link) -> list[StatusLine]:
        self.link = event
        self.link_since = time.monotonic()
        if self.link.state == "retrying" and not self.lost:
            self.lost = True
            # No seconds here: the line stays while the tries go on (0.5 s doubling to 30 s), and
            # the notice beside it counts down to the next one (``notice``), the one clock shown.
            return [
                StatusLine(
                    _(
                        "Connection lost ({detail}): the window connects again on its own. "
                        "The game waits on the server."
                    ).format(detail=self.link.detail),
                    "warn",
                )
            ]
        if self.link.state == "connected" and self.lost:
            self.lost = False
            return [StatusLine(_("Connected again."), "good")]
        if self.link.state == "closed":
            return [StatusLine(_("Closed: {detail}.").format(detail=self.link.detail), "error")]
        return []

    def _retry_seconds(self) -> int:
        wait = float(self.link.retry_in or 0.0) - (time.monotonic() - self.link_since)
        return max(0, math.ceil(wait))

    def _start_clock(self, state: State) -> None:
        left = state.seconds_left
        self.turn_ends = time.monotonic() + left if left is not None else None

    def _moved_clock(self, moved: Moved) -> None:
        """A move starts the next turn's time now (the server's ``deadline`` is by its own clock)."""
        limit = self.state.move_seconds
        playing = moved.status == "playing"
        self.turn_ends = time.monotonic() + limit if playing and limit is not None else None

    def _remember(self, state: State) -> StatusLine | None:
        """Keep the seat in the list of online games (a rematch's game takes the old one's place);
        what that ran into, or None."""
        seat = self.session.seat
        if seat is None:
            return None
        if self.kept_game is not None and self.kept_game != seat.game:
            connection.forget(seat.url, self.kept_game)  # the token now resumes the rematch
        self.kept_game = seat.game
        problem = connection.remember(self.session, state)
        return StatusLine(problem, "warn") if problem else None

    # -- time --------------------------------------------------------------------------------

    def tick(self) -> StatusLine | None:
        """The result card once the finished game's last animation is over; a record that never came."""
        screen = self.screen
        said = None
        if self.record_asked_at is not None and time.monotonic() - self.record_asked_at > RECORD_WAIT:
            self.record_asked_at = None
            said = StatusLine(
                _("No record came from the server in {seconds} s: try again once connected.").format(
                    seconds=format_short(RECORD_WAIT)
                ),
                "warn",
            )
        if self._result_due():
            if screen.animating():
                self.end_at = None
            elif self.end_at is None:
                self.end_at = screen.clock + RESULT_DELAY
            elif screen.clock >= self.end_at:
                self.result_shown = True
                screen.show_result()
        return said

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
