"""Online play in the terminal: ``play --online ws://HOST:PORT`` (host), ``--join CODE``, ``--resume``.

The game lives on the server; this loop shows it and sends what the player types.
Lines are read on a thread of their own, so the opponent's moves, their presence
and their offers are printed the moment they arrive, also while the prompt waits.
Moves are sent through ``OnlineSession``, which resends them after a dropped
connection without ever playing one twice; ``quit`` leaves the game waiting on the
server, to be resumed later here or in the window.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from battle.cli.inputs import InputError, is_yes
from battle.cli.textboard import render_board
from battle.cli.typed_lines import NOTHING_YET, TypedLines
from battle.history.store import History, online_entry
from battle.i18n import N_, _, format_number, format_short, ngettext
from battle.online.client.offer_news import NewsReader
from battle.online.client.seats import Seat, remember_seat
from battle.online.client.session import Link, OnlineSession
from battle.online.client.share_link import friend_link, friend_server, here_only_note
from battle.online.client.state_game import game_from_state, name_of, result_of_state
from battle.online.client.wording import end_sentence, refusal_text, unplayed_end
from battle.online.protocol.codes import format_code
from battle.online.protocol.messages import (
    Abort,
    AcceptRematch,
    AnswerTakeback,
    Create,
    DeclineRematch,
    ErrorCode,
    GetRecord,
    Join,
    OfferRematch,
    RequestTakeback,
    Resign,
    Watch,
)
from battle.online.protocol.server_messages import (
    Ack,
    Created,
    Error,
    Moved,
    Record,
    RematchStarted,
    ServerMessage,
    State,
)
from battle.rules.board import Position, move_name, parse_move
from battle.rules.errors import BattleError, shorten_name
from battle.rules.notation import parse_position
from battle.rules.wording import plural
from battle.storage.paths import error_reason, write_atomically

HELP = N_("""Commands:
  c1-c9        take the pair on c1 and c9 (also 'c1 c9')
  moves        list the playable pairs
  board        show the board again
  takeback     ask your opponent to let you take back your last move
  yes, no      answer your opponent's takeback request or rematch offer
  rematch      offer a rematch once the game is over (same deal, sides swapped)
  resign       give up the game (asks first)
  abort        call the game off while nobody has joined or before move 2 (it counts for nothing)
  codes        show the invite and watch codes (and links) again
  save FILE    write the game record (.mbg)
  quit         leave; the game waits on the server ('mahjong-battle play --online {url} --resume')
  help         this text""")
NO_HINTS = N_(
    "No hints in a game between people: each side plays on its own. Save the record ('save FILE') and "
    "'mahjong-battle review FILE' grades every move once the game is over."
)
CONNECT_WAIT = 15.0
"""Seconds to wait for the first state before saying the server cannot be reached."""
RECORD_WAIT = 5.0
QUIT_WAIT = 5.0
"""Seconds ``quit`` waits for the server to confirm a move typed just before it."""


class OnlinePlay:
    """One online game at the terminal."""

    def __init__(
        self,
        session: OnlineSession,
        read_line: Callable[[str], str] | None = None,
        out: TextIO | None = None,
        colour: bool = False,
        history: History | None = None,
    ) -> None:
        """``history``: where a finished game is kept (default: the user's game history)."""
        import sys

        self.session = session
        self.read_line = read_line if read_line is not None else input
        self.out = out if out is not None else sys.stdout
        self.colour = colour
        self.lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self.typed: TypedLines | None = None
        self.prompted_for: tuple[int, str] | None = None
        self.confirming: str | None = None
        self.called_off: str | None = None
        """The game this player called off ('abort'): its end says who did, which the server's does not."""
        self.shown_codes = False
        self.last_link = ""
        self.history = history
        self.reader = NewsReader()
        """Reads each message's questions and answers in turn."""
        self.kept: set[str] = set()
        """The games (server ids) already in the history: a finished game's state comes again on a reconnect."""
        self.resigned: object = None
        """The game (server id) the player resigned: no prompt for it while the server's answer is on its way."""

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    # -- the loop ----------------------------------------------------------------------------

    def run(self) -> int:
        try:
            return self._run()
        finally:
            if self.history is not None:
                self.history.close()

    def _run(self) -> int:
        first = self._wait_for_state()
        if self.read_line is not input:
            threading.Thread(target=self._read_lines, name="stdin", daemon=True).start()
        self._show()
        self._tell(first)  # a resumed game's open question
        while True:
            for event in self.session.events():
                self._event(event)
            if self.session.link.state == "closed":
                self.say(_("The connection is closed: {detail}.").format(detail=self.session.link.detail))
                return 2
            self._prompt_if_due()
            line = self._next_line(0.1)
            if line is NOTHING_YET:
                continue
            if line is None:
                self.say()
                self.say(_("Input closed: leaving.") + self._what_stays())
                return 0
            if not self.handle(str(line).strip()):
                return 0
            if self.confirming is None and self._your_turn():  # the prompt again; whom the game waits for, once a turn
                self.prompted_for = None

    def _next_line(self, timeout: float) -> str | None | object:
        """A line typed, None at the end of input, ``NOTHING_YET`` if none came within ``timeout``.

        Real standard input is watched with ``select`` (through ``TypedLines``) rather than read on
        a thread: a thread blocked in a read at exit makes the interpreter abort while finalising
        its stdin lock.
        """
        if self.read_line is not input:
            try:
                return self.lines.get(timeout=timeout)
            except queue.Empty:
                return NOTHING_YET
        if self.typed is None:
            import sys

            self.typed = TypedLines(sys.stdin)
        return self.typed.next(timeout)

    def _wait_for_state(self) -> State:
        """The first state; an ``InputError`` (one line on stderr, exit 2) when the server refused or
        cannot be reached."""
        deadline = time.monotonic() + CONNECT_WAIT
        said_retrying = False
        refused: str | None = None
        while time.monotonic() < deadline:
            event = self.session.wait_event(0.2)
            if event is None:
                continue
            if isinstance(event, Error):
                if event.code == ErrorCode.DAMAGED:  # trying again cannot help: said at once
                    raise InputError(_("the server could not load that game: its record there is damaged"))
                refused = refusal_text(event)
                if self.session.link.state == "closed":
                    raise InputError(refused)
            elif isinstance(event, Link) and event.state == "closed":
                raise InputError(
                    refused if refused is not None else _("cannot play online: {detail}").format(detail=event.detail)
                )
            elif isinstance(event, Link) and event.state == "retrying" and not said_retrying:
                self.say(
                    _("No connection yet ({detail}); trying again for {seconds} s...").format(
                        detail=event.detail, seconds=format_number(CONNECT_WAIT)
                    )
                )
                said_retrying = True
            elif isinstance(event, Created):
                self._remember()
            elif isinstance(event, State):
                if refused is not None:  # refused something, yet the game goes on: said with it
                    self.say(refused)
                self._remember()
                return event
        raise InputError(
            _("cannot reach {url}: no answer in {seconds} s. Is the server running, and is the address right?").format(
                url=self.session.url, seconds=format_short(CONNECT_WAIT)
            )
        )

    def _read_lines(self) -> None:
        while True:
            try:
                line = self.read_line("")
            except (EOFError, OSError, ValueError):
                self.lines.put(None)
                return
            self.lines.put(line)

    # -- what arrives -------------------------------------------------------------------------

    def _event(self, event: ServerMessage | Link) -> None:
        self._tell(event)
        state = self.session.state
        if isinstance(event, Moved) and state is not None:
            seat = event.seat
            if seat != state.you:
                name, points = name_of(state, seat), event.points
                self.say(  # the opponent's move: never "You take", whatever their name
                    ngettext(
                        "{name} takes {move} for {count} point.", "{name} takes {move} for {count} points.", points
                    ).format(name=name, move=event.move, count=points)
                )
                self._show()
            if event.status == "finished":
                self._show_result(state)
        elif isinstance(event, Ack):
            self.say(_("Move {get}, {get2}, is on the server.").format(get=event.ply, get2=event.move))
            self._show()
        elif isinstance(event, State):
            self._remember()
            if state is not None and state.status == "finished":
                self._show_result(state)
        elif isinstance(event, RematchStarted):
            self.say(_("The rematch begins: same deal, sides swapped."))
            self._remember()
        elif isinstance(event, Error):
            self.say(refusal_text(event, state))
            self.resigned = None  # a refused resignation leaves the game to play on
        elif isinstance(event, Link):
            if event.state == "connected":
                self.resigned = None  # a resignation lost with the connection: the player is asked again
            text = {
                "retrying": _("Connection lost ({detail}); trying again in {seconds} s...").format(
                    detail=event.detail, seconds=round(event.retry_in or 0)
                ),
                "connected": _("Connected."),
                "connecting": "",
            }.get(event.state, "")
            if text and text != self.last_link:
                self.say(text)
            self.last_link = text

    def _tell(self, event: ServerMessage | Link) -> None:
        """Say the questions, answers and comings and goings in ``event``, read in turn: a request
        and its answer can both be queued before the loop looks."""
        news = self.reader.read(event)
        state = self.reader.seen
        if state is None:
            return
        you = state.you
        for item in news:
            if you not in (1, 2) and item.kind not in ("takeback_granted", "away", "back", "joined"):
                continue  # a spectator is asked nothing
            name = name_of(state, item.seat)
            mine = item.seat == you
            other = name_of(state, 3 - item.seat)
            moves = ", ".join(item.moves)
            text = {
                "takeback_asked": (
                    _("You asked {other} to let you take back your last move; waiting for the answer.")
                    if mine
                    else _("{name} asks to take back their last move: yes or no?")
                ),
                "takeback_granted": (
                    _("{other} let you take back {moves}.") if mine else _("{name} took back {moves}.")
                ),
                "takeback_refused": _("{other} said no to the takeback.") if mine else None,
                "takeback_overtaken": _("{other} moved instead: no takeback.") if mine else None,
                "rematch_offered": None if mine else _("{name} offers a rematch: yes or no?"),
                "rematch_declined": _("{other} turned down the rematch.") if mine else None,
                "away": None if mine else _("{name} is away; the game waits for them."),
                "back": None if mine else _("{name} is back."),
                "joined": None if mine else _("{name} joined."),
            }[item.kind]
            text = None if text is None else text.format(name=name, other=other, moves=moves)
            if text:
                self.say(text)
            if item.kind == "takeback_granted":
                self._show()

    # -- what the player types ---------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Act on one line; False to leave."""
        state = self.session.state
        word = line.lower()
        if self.confirming == "resign":
            self.confirming = None
            if is_yes(word):
                self.session.send(Resign())
                self.resigned = None if state is None else state.game
            else:
                self.say(_("You play on."))
            return True
        if not line:
            return True
        if word in ("quit", "exit", "q"):
            self._settle_moves()
            self.say(_("Leaving.") + self._what_stays())
            return False
        if word in ("help", "?"):
            self.say(_(HELP).format(url=self.session.url))
        elif word == "board":
            self._show()
        elif word == "moves" and state is not None:
            position = self._position(state)
            for move in position.legal_moves():
                self.say(f"  {move_name(move)} ({position.move_points(move)})")
        elif word == "codes" and state is not None:
            self._codes(state, force=True)
        elif word == "resign":
            self.confirming = "resign"
            self.say(_("Resign this game? (y/n)"))
        elif word == "abort":
            self.session.send(Abort())
            self.called_off = state.game if state is not None else None
        elif word == "takeback":
            self.session.send(RequestTakeback())
        elif word == "rematch":
            self.session.send(OfferRematch())
        elif word in ("yes", "y", "no", "n") and state is not None:
            self._answer(state, word.startswith("y"))
        elif word.startswith("save ") and line[5:].strip():
            self._save(line[5:].strip())
        elif word in ("hint", "eval"):  # the offline game's words, which a game between people has not
            self.say(_(NO_HINTS))
        elif word in ("undo", "redo"):
            self.say(_("In an online game 'takeback' asks your opponent to let you take back your last move."))
        elif state is not None:
            self._move(state, line)
        return True

    def _answer(self, state: State, accept: bool) -> None:
        offers = state.offers
        you = state.you
        if offers.takeback not in (None, you):
            self.session.send(AnswerTakeback(accept))
            if not accept:
                self.say(_("You said no to the takeback."))
        elif offers.rematch not in (None, you):
            self.session.send(AcceptRematch() if accept else DeclineRematch())
            if not accept:
                self.say(_("You turned down the rematch."))
        else:
            self.say(_("There is nothing to answer."))

    def _move(self, state: State, text: str) -> None:
        try:
            move = parse_move(text.replace(" ", "-") if "-" not in text else text)
        except BattleError as error:
            self.say(_("{error}. Type 'help' for the commands.").format(error=error))
            return
        if state.you == "spectator":
            self.say(_("You are watching this game: the moves are the players'."))
            return
        if state.status != "playing":
            self.say(
                _("The game is not being played now.")
                if state.status == "finished"
                else _("The game waits for your opponent to join.")
            )
            return
        if state.to_move != state.you:
            self.say(_("Wait: it is {what}'s turn.").format(what=name_of(state, state.to_move)))
            return
        reason = self._position(state).illegal_reason(move)
        if reason is not None:
            self.say(_("Not a legal move: {move}: {reason}.").format(move=move_name(move), reason=reason))
            return
        self.session.play(move_name(move))

    def _settle_moves(self) -> None:
        """Before leaving, wait up to ``QUIT_WAIT`` for the moves on their way, so a move typed just
        before ``quit`` is confirmed (or refused) on screen; one still unanswered is named."""
        deadline = time.monotonic() + QUIT_WAIT
        while self.session.pending and self.session.link.state != "closed" and time.monotonic() < deadline:
            event = self.session.wait_event(0.1)
            if event is not None:
                self._event(event)
            for event in self.session.events():
                self._event(event)
        for _move_id, move in self.session.pending:
            self.say(
                _(
                    "No answer from the server about {move} yet: 'mahjong-battle play --online {url} --resume' "
                    "shows whether it counts."
                ).format(move=move, url=self.session.url)
            )

    # -- showing -----------------------------------------------------------------------------

    def _position(self, state: State) -> Position:
        position = parse_position(state.start)
        for move in state.moves:
            position.push(parse_move(move))
        return position

    def _show(self) -> None:
        state = self.session.state
        if not state:
            return
        position = self._position(state)
        self.say(render_board(position, self.colour))
        names = [name_of(state, seat) for seat in (1, 2)]
        scores = state.scores
        self.say(
            _("{names} {scores} : {scores2} {names2}  ·  {plural} left").format(
                names=names[0],
                scores=scores[0],
                scores2=scores[1],
                names2=names[1],
                plural=plural(position.points_on_board(), "point"),
            )
        )
        self._codes(state)

    def _codes(self, state: State, force: bool = False) -> None:
        if state.status == "waiting" and state.invite:
            self.say(
                _(
                    "Waiting for your opponent. Invite code: {format_code}  (mahjong-battle play --online {url} "
                    "--join {format_code})"
                ).format(
                    format_code=format_code(state.invite),
                    url=friend_server(self.session.url, self.session.share_url),
                )
            )
            link = friend_link(self.session.url, self.session.share_url, state.invite_secret or state.invite)
            self.say(_("Invite link (opens the game in a browser): {invite_link}").format(invite_link=link))
            note = here_only_note(link)
            if note:
                self.say(note)
        if (force or not self.shown_codes) and state.watch:
            self.say(
                _("Watch code for spectators: {format_code}  (link: {invite_link})").format(
                    format_code=format_code(state.watch),
                    invite_link=friend_link(
                        self.session.url, self.session.share_url, state.watch_secret or state.watch, "watch"
                    ),
                )
            )
            self.shown_codes = True

    def _your_turn(self) -> bool:
        state = self.session.state
        return state is not None and state.status == "playing" and state.to_move == state.you

    def _prompt_if_due(self) -> None:
        """Once a turn: the prompt on the player's own turn; on the opponent's, whom the game waits for,
        so a player who joins a game the host moves first in is told they are not the one to move."""
        state = self.session.state
        if (
            state is None
            or state.status != "playing"
            or state.you == "spectator"
            or self.session.pending
            or state.game == self.resigned
        ):
            return
        key = (state.ply, state.game)
        if self.prompted_for == key:
            return
        self.prompted_for = key
        if state.to_move != state.you:
            self.say(
                _("Waiting for {other}'s move; you are {you}.").format(
                    other=name_of(state, state.to_move), you=name_of(state, state.you)
                )
            )
            return
        self.say(_("{what}, your move (c1-c9, help):").format(what=name_of(state, state.you)))

    def _what_stays(self) -> str:
        """What ``quit`` leaves behind: a game still going waits on the server, a finished one does not."""
        state = self.session.state
        if state is not None and state.status == "finished":
            return " " + _("The game is over.")
        return " " + _(
            "The game waits on the server: 'mahjong-battle play --online {url} --resume' comes back to it."
        ).format(url=self.session.url)

    def _show_result(self, state: State) -> None:
        unplayed = unplayed_end(state, called_off_here=state.game == self.called_off)
        if unplayed is not None:
            self.say(unplayed)
            self.say(_("'quit' leaves."))
            return
        self.say(f"{_('The game is over.')} {end_sentence(state)}")  # two whole sentences
        self.say(_("'save FILE' keeps the record, 'rematch' offers another game, 'quit' leaves."))
        self._keep_in_history(state)

    def _keep_in_history(self, state: State) -> None:
        """Keep a finished game the player played (not one watched) in the history, once, with the
        winner of a game ended by a resignation or the clock; say what the history has to say."""
        seat, game_id = state.you, state.game
        if not isinstance(seat, int) or game_id in self.kept:
            return
        self.kept.add(game_id)
        try:
            game = game_from_state(state)
        except BattleError:  # a state this version cannot read: the game shown already said so
            return
        result = result_of_state(state)
        winner = None if game.position.is_over() or result is None else result.winner
        if self.history is None:
            self.history = History()
        self.history.add_game(online_entry(game, seat, self.session.url, game_id, winner))
        for notice in self.history.take_notices():
            self.say(_("Game history: {notice}").format(notice=notice))

    def _save(self, name: str) -> None:
        """Ask the server for the record and write it once it comes (other messages are shown meanwhile)."""
        self.session.send(GetRecord())
        deadline = time.monotonic() + RECORD_WAIT
        while time.monotonic() < deadline:
            event = self.session.wait_event(0.1)
            if event is None:
                continue
            if isinstance(event, Record):
                self._write_record(name, event)
                return
            self._event(event)
        self.say(
            _("No record came from the server within {seconds} s; try again.").format(seconds=format_short(RECORD_WAIT))
        )

    def _write_record(self, name: str, event: Record) -> None:
        path = Path(name)
        try:
            write_atomically(path, event.mbg)
        except OSError as error:
            self.say(
                _("Cannot save {shorten_name}: {value}").format(
                    shorten_name=shorten_name(name), value=error_reason(error)
                )
            )
            return
        self.say(_("Saved the record to {shorten_name}.").format(shorten_name=shorten_name(name)))

    def _remember(self) -> None:
        seat = self.session.seat
        state = self.session.state
        if seat is None:
            return
        opponents = [] if state is None else [p.name for p in state.players if p.seat != seat.seat]
        seat.opponent = (opponents[0] or "") if opponents else ""
        seat.updated = time.time()
        seat.finished = state is not None and state.status == "finished"
        try:
            remember_seat(seat)
        except OSError as error:
            self.say(_("Cannot keep this game in the list of online games: {value}").format(value=error_reason(error)))


def open_session(
    url: str, *, join: str | None, watch: str | None, resume: Seat | None, create: Create | None, name: str | None
) -> OnlineSession:
    """The session for the command line's choice: resume a kept seat, join or watch with a code, or host."""
    if resume is not None:
        return OnlineSession.resume(resume, name)
    if watch is not None:
        return OnlineSession(url, Watch(watch), name)
    if join is not None:
        return OnlineSession(url, Join(join, name or None), name)
    assert create is not None
    return OnlineSession(url, create, name)
