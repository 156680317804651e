"""One online game as a pure state machine: its seats, its moves, its offers and its clock.

A ``Room`` does no I/O and reads no clock: every method that depends on time takes
``now`` (seconds since the epoch), so the server, the store and the tests replay it exactly.
Each action either changes the room and returns what happened, or raises ``Refused`` (a kind
and its details, ``refusals``) and leaves the room exactly as it was, so the server can
always answer with an ``error`` and go on.

Seats are the rules model's player numbers: seat 1 is player 1 of the start position, and
the position's ``to-move`` says which seat moves first. "Who starts" therefore chooses the
creator's seat, never the position. The server's order for every action is: ``check_time``,
the action, the store's matching write (committed), then the messages. The room builds no
message and imports no protocol: it returns facts (a ``MoveReceipt``, a ``PlayOutcome``, its own
attributes) or raises one (a ``Refused``), and ``wire`` words them as the protocol's messages, a
refusal as an ``error``. It starts from the choices of ``battle.online.game_terms``
(``DealChoice``, ``First``), which the protocol's ``create`` carries too.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from battle.online.game_terms import (
    ABORT_BEFORE_PLY,
    FIRST_CHOICES,
    DealChoice,
    First,
    GivenPosition,
    NumberedDeal,
    in_english,
    is_move_id,
)
from battle.online.server.rooms.refusals import RefusalKind, Refused
from battle.rules.board import Position, move_name, parse_move
from battle.rules.deal import deal, random_deal_number
from battle.rules.errors import NotationError
from battle.rules.game import Game, clean_name, result_of
from battle.rules.notation import format_position, format_record, parse_position

SEATS = (1, 2)


class Status(str, Enum):
    """Where a game stands: waiting for its second player, being played, or over."""

    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


class EndReason(str, Enum):
    """Why a game ended: no pair of free twins left (the rules' end), a resignation, the clock, an
    abort before the second move (by a player, or by the server when nobody moved in time), nobody
    joining within the server's waiting time, or the player to move gone for the server's limit."""

    NO_PAIR = "no_pair"
    RESIGN = "resign"
    TIME = "time"
    ABORTED = "aborted"
    EXPIRED = "expired"
    ABANDONED = "abandoned"


UNRATED_ENDS = (EndReason.ABORTED, EndReason.EXPIRED)
"""Ends with no winner and no result to count: the game hardly began."""
_RECORD_ENDS = {EndReason.RESIGN: "resigns", EndReason.TIME: "loses on time", EndReason.ABANDONED: "abandons the game"}
"""What a record's first comment says of the loser of a game that ended otherwise than by the rules."""
ACTIONS = {
    "move": "move",
    "abort": "abort the game",
    "resign": "resign",
    "rematch_offer": "offer a rematch",
    "rematch_accept": "accept a rematch",
    "rematch_decline": "decline a rematch",
    "takeback_request": "ask for a takeback",
    "takeback_answer": "answer a takeback",
    "name": "name a seat",
}
"""What a spectator may not do, by the name of the client message (a ``not_a_player`` refusal's
``action``), in the fixed English of the reason."""
REMATCH_RETRY_SECONDS = 60.0
"""How long a declined rematch offer stays declined: an offer cannot be pushed at a player who
just said no, over and over."""


class TimeCheck(str, Enum):
    """What a look at the clock found: nothing new, a turn newly past its limit, a loss on time, or
    (``LiveGames.check_time``) a game its player to move left for the server's limit."""

    NONE = "none"
    OVERDUE = "overdue"
    LOST = "lost"
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class Options:
    """What the creator chose besides the start."""

    move_seconds: int | None = None
    """The per-move time limit in seconds, None for none (correspondence play)."""
    lose_on_time: bool = False
    """Whether running out of time loses the game; otherwise the turn is only reported overdue."""
    first: First = "creator"
    """Who was to start, as the creator chose it (``creator``, ``joiner`` or ``random``)."""

    def to_json(self) -> dict[str, Any]:
        return {"move_seconds": self.move_seconds, "lose_on_time": self.lose_on_time, "first": self.first}

    @classmethod
    def from_json(cls, data: object) -> Options:
        """Read ``to_json``'s output back; raises ValueError naming what is wrong."""
        if not isinstance(data, dict) or set(data) != {"move_seconds", "lose_on_time", "first"}:
            raise ValueError(f"options must be an object with move_seconds, lose_on_time and first, not {data!r}")
        seconds, lose, first = data["move_seconds"], data["lose_on_time"], data["first"]
        if seconds is not None and (not isinstance(seconds, int) or isinstance(seconds, bool) or seconds <= 0):
            raise ValueError(f"options: move_seconds must be null or a positive whole number, not {seconds!r}")
        if not isinstance(lose, bool) or first not in FIRST_CHOICES:
            raise ValueError(f"options: lose_on_time {lose!r} or first {first!r} is not valid")
        return cls(seconds, lose, first)


@dataclass(frozen=True)
class SeatHolder:
    """A player in a seat: known only by the hash of their token."""

    token_hash: str
    name: str
    joined_at: float


@dataclass(frozen=True)
class MoveReceipt:
    """A move a seat sent with its id, as applied; kept after a takeback so its id stays used."""

    seat: int
    move_id: str
    ply: int
    """The move's number, from 1."""
    move: str
    """In canonical notation, ``c1-c9``."""
    points: int
    played_at: float
    taken_back_at: float | None = None

    @property
    def taken_back(self) -> bool:
        return self.taken_back_at is not None


@dataclass(frozen=True)
class PlayOutcome:
    """What ``play`` did: applied a new move, or recognised a resend (``duplicate``) and changed nothing."""

    receipt: MoveReceipt
    duplicate: bool


@dataclass(frozen=True)
class StartPlan:
    """Where a new game starts and which seat its creator takes."""

    start: Position
    deal_number: int | None
    creator_seat: int


def plan_start(choice: DealChoice, first: First) -> StartPlan:
    """The start position of a ``create`` request's deal and the creator's seat for its ``first``.

    ``creator`` gives the creator the seat the position says moves first, ``joiner`` the
    other one, ``random`` either with even odds; a random deal is a number from
    ``random_deal_number`` (under a million, short enough to read out), kept in the record.
    """
    if isinstance(choice, NumberedDeal):
        start, number = deal(choice.number), choice.number
    elif isinstance(choice, GivenPosition):
        start, number = parse_position(choice.text), None
    else:
        number = random_deal_number()
        start = deal(number)
    if first == "creator":
        seat = start.to_move
    elif first == "joiner":
        seat = 3 - start.to_move
    else:
        seat = secrets.choice(SEATS)
    return StartPlan(start, number, seat)


class Room:
    """One online game. Build a new one with ``create``; the constructor rebuilds a stored one.

    The constructor replays the moves that were not taken back, in order, and raises
    ValueError (or a ``BattleError``) if the stored facts do not fit together: a move that is
    not legal, made by the wrong seat, or worth other points than recorded.
    """

    def __init__(
        self,
        *,
        game_id: str,
        invite: str,
        watch: str,
        start: Position,
        deal_number: int | None,
        options: Options,
        creator_seat: int,
        created_at: float,
        seats: Mapping[int, SeatHolder],
        status: Status = Status.WAITING,
        winner: int | None = None,
        reason: EndReason | None = None,
        turn_started: float | None = None,
        finished_at: float | None = None,
        rematch_offer: int | None = None,
        takeback_request: int | None = None,
        rematch_of: str | None = None,
        rematch_game: str | None = None,
        rematch_watch: str | None = None,
        receipts: tuple[MoveReceipt, ...] | list[MoveReceipt] = (),
    ) -> None:
        if creator_seat not in SEATS or creator_seat not in seats or not set(seats) <= set(SEATS):
            raise ValueError(f"game {game_id}: the creator's seat {creator_seat!r} is not a taken seat 1 or 2")
        seat_counts = {
            Status.WAITING: (1,),
            Status.PLAYING: (2,),
            Status.FINISHED: (1, 2) if reason in UNRATED_ENDS else (2,),
        }
        if len(seats) not in seat_counts[status]:
            raise ValueError(f"game {game_id}: status {status.value} with {len(seats)} seat(s) taken")
        self.game_id = game_id
        self.invite = invite
        """The code that gives the open seat; useless once both seats are taken."""
        self.watch = watch
        """The code that lets anyone follow the game without a seat."""
        self.options = options
        self.creator_seat = creator_seat
        self.created_at = created_at
        self.seats: dict[int, SeatHolder] = dict(seats)
        names = [self.seats[seat].name if seat in self.seats else f"Player {seat}" for seat in SEATS]
        self.game = Game(start, names[0], names[1], deal_number)
        """The rules model's game: the start position and every move not taken back."""
        self.status = status
        self.winner = winner
        self.reason = reason
        self.turn_started = turn_started
        """When the side to move got the turn: the clock of the per-move limit starts there."""
        self.finished_at = finished_at
        self.rematch_offer = rematch_offer
        """The seat that offered a rematch, waiting for the other's answer."""
        self.takeback_request = takeback_request
        """The seat that asked to take back its last move, waiting for the other's answer."""
        self.rematch_of = rematch_of
        self.rematch_game = rematch_game
        self.rematch_watch = rematch_watch
        self._receipts: dict[tuple[int, str], MoveReceipt] = {}
        self._live: list[MoveReceipt] = []
        self._overdue_reported = False
        """Kept in memory only: after a restart an overdue turn is reported once more."""
        self._takeback_declined: tuple[int, int] | None = None
        """(seat, ply) of the last takeback request the opponent said no to: not asked again for that move."""
        self._rematch_declined: dict[int, float] = {}
        """When each seat's rematch offer was last declined (in memory: a restart forgets it)."""
        for receipt in receipts:
            key = (receipt.seat, receipt.move_id)
            if key in self._receipts:
                raise ValueError(f"game {game_id}: seat {receipt.seat} used move id {receipt.move_id!r} twice")
            self._receipts[key] = receipt
        for receipt in sorted((r for r in receipts if not r.taken_back), key=lambda r: r.ply):
            self._replay(receipt)
        if status == Status.FINISHED and reason is None:
            raise ValueError(f"game {game_id}: finished without a reason")
        if status == Status.PLAYING and self.game.is_over():
            raise ValueError(f"game {game_id}: still playing, but no pair is left")

    def _replay(self, receipt: MoveReceipt) -> None:
        position = self.game.position
        if receipt.ply != self.game.ply + 1 or receipt.seat != position.to_move:
            raise ValueError(
                f"game {self.game_id}: move {receipt.ply} ({receipt.move}) by seat {receipt.seat} does not follow "
                f"move {self.game.ply} with seat {position.to_move} to move"
            )
        points = self.game.play(parse_move(receipt.move))
        if points != receipt.points:
            raise ValueError(
                f"game {self.game_id}: move {receipt.ply} ({receipt.move}) is worth {points}, not {receipt.points}"
            )
        self._live.append(receipt)

    @classmethod
    def create(
        cls,
        *,
        game_id: str,
        invite: str,
        watch: str,
        plan: StartPlan,
        options: Options,
        creator_name: str | None,
        creator_token_hash: str,
        now: float,
    ) -> Room:
        """A new game waiting for its second player."""
        seat = plan.creator_seat
        name = _seat_name(creator_name)
        return cls(
            game_id=game_id,
            invite=invite,
            watch=watch,
            start=plan.start,
            deal_number=plan.deal_number,
            options=options,
            creator_seat=seat,
            created_at=now,
            seats={seat: SeatHolder(creator_token_hash, name, now)},
        )

    # -- queries -----------------------------------------------------------------------

    @property
    def ply(self) -> int:
        """Moves played and not taken back."""
        return self.game.ply

    @property
    def scores(self) -> tuple[int, int]:
        scores = self.game.position.scores
        return (scores[0], scores[1])

    @property
    def to_move(self) -> int | None:
        """The seat to move while the game is played, else None."""
        return self.game.position.to_move if self.status == Status.PLAYING else None

    @property
    def open_seat(self) -> int | None:
        """The seat the invite code gives, while the game waits for it."""
        return 3 - self.creator_seat if len(self.seats) == 1 and self.status == Status.WAITING else None

    def expires_at(self, wait_seconds: float) -> float | None:
        """When a game waiting for its second player ends unplayed; None once it is not waiting."""
        return self.created_at + wait_seconds if self.status == Status.WAITING else None

    @property
    def receipts(self) -> list[MoveReceipt]:
        """Every move id ever applied, taken back or not, by seat and id."""
        return [self._receipts[key] for key in sorted(self._receipts)]

    @property
    def live_receipts(self) -> list[MoveReceipt]:
        """The moves on the board, in order."""
        return list(self._live)

    @property
    def last_receipt(self) -> MoveReceipt | None:
        return self._live[-1] if self._live else None

    def seat_of(self, token_hash: str) -> int | None:
        """The seat a token's hash holds, or None (a spectator)."""
        for seat, holder in self.seats.items():
            if hmac.compare_digest(holder.token_hash, token_hash):
                return seat
        return None

    def name_of(self, seat: int) -> str:
        """The seat's name as the record writes it: the notation's "Player 2" for a player who gave none."""
        return self.game.names[seat - 1] or f"Player {seat}"

    def deadline(self) -> float | None:
        """When the side to move runs out of time; None without a limit or outside play."""
        seconds = self.options.move_seconds
        if seconds is None or self.status != Status.PLAYING or self.turn_started is None:
            return None
        return self.turn_started + seconds

    def is_overdue(self, now: float) -> bool:
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def record_text(self) -> str:
        """The game as a ``.mbg`` record; a resignation or a loss on time is said in a comment first."""
        record = self.game.to_record()
        record.player1, record.player2 = self.name_of(1), self.name_of(2)
        text = format_record(record)
        if self.status == Status.FINISHED and self.winner is not None and self.reason in _RECORD_ENDS:
            loser = self.name_of(3 - self.winner)
            text = f"# {loser} {_RECORD_ENDS[self.reason]} after move {self.ply}\n{text}"
        return text

    def snapshot(self) -> dict[str, Any]:
        """Everything the store keeps of the room, as plain values: two rooms with equal snapshots are the same game."""
        return {
            "game_id": self.game_id,
            "invite": self.invite,
            "watch": self.watch,
            "options": self.options.to_json(),
            "start": format_position(self.game.start),
            "deal": self.game.deal_number,
            "creator_seat": self.creator_seat,
            "created_at": self.created_at,
            "seats": {seat: (h.token_hash, h.name, h.joined_at) for seat, h in sorted(self.seats.items())},
            "names": self.game.names,
            "status": self.status.value,
            "winner": self.winner,
            "reason": None if self.reason is None else self.reason.value,
            "turn_started": self.turn_started,
            "finished_at": self.finished_at,
            "rematch_offer": self.rematch_offer,
            "takeback_request": self.takeback_request,
            "rematch_of": self.rematch_of,
            "rematch_game": self.rematch_game,
            "rematch_watch": self.rematch_watch,
            "receipts": self.receipts,
            "moves": [move_name(move) for move in self.game.moves],
            "position": self.game.position.key(),
        }

    # -- actions -----------------------------------------------------------------------

    def join(self, name: str | None, token_hash: str, now: float) -> int:
        """Take the open seat; the game starts and the side to move's clock runs. Returns the seat."""
        self.refuse_if_unplayed()
        seat = self.open_seat
        if seat is None:
            raise Refused(RefusalKind.FULL, "both seats of this game are taken")
        if self.seat_of(token_hash) is not None:
            raise Refused(RefusalKind.NOT_ALLOWED, "you hold the other seat of this game already", why="own_seat")
        holder = SeatHolder(token_hash, _seat_name(name), now)
        self.seats[seat] = holder
        if seat == 1:
            self.game.player1 = holder.name
        else:
            self.game.player2 = holder.name
        self.status = Status.PLAYING
        self.turn_started = now
        return seat

    def name_seat(self, seat: int | None, name: str) -> None:
        """Give ``seat``, taken without a name, the name its player chose since (a friend's link
        opens the game at once and asks the name beside the board). A seat named once keeps its
        name: the opponent is never shown a second one."""
        seat = self._require_player(seat, "name")
        holder = self.seats[seat]
        if holder.name:
            raise Refused(RefusalKind.NOT_ALLOWED, "your seat has a name already", why="named")
        self.seats[seat] = SeatHolder(holder.token_hash, _seat_name(name), holder.joined_at)
        if seat == 1:
            self.game.player1 = self.seats[seat].name
        else:
            self.game.player2 = self.seats[seat].name

    def play(self, seat: int | None, move_text: str, move_id: str, now: float) -> PlayOutcome:
        """Play ``move_text`` for ``seat``; a resend of an applied ``move_id`` returns the first outcome again.

        The id check comes before every other, so a resend is acknowledged even after the
        move ended the game or was taken back.
        """
        seat = self._require_player(seat, "move")
        try:
            move = parse_move(move_text)
        except NotationError as error:
            raise Refused(RefusalKind.ILLEGAL_MOVE, in_english(error), move=move_text[:40], why="notation") from None
        if not is_move_id(move_id):
            raise Refused(
                RefusalKind.BAD_MESSAGE,
                f"{move_id!r} is not a move id (1 to 64 printable ASCII characters)",
                field="id",
            )
        name = move_name(move)
        earlier = self._receipts.get((seat, move_id))
        if earlier is not None:
            if earlier.move != name:
                raise Refused(
                    RefusalKind.ID_REUSED,
                    f"move id {move_id!r} was move {earlier.ply} ({earlier.move}); a new move needs a new id",
                    id=move_id,
                    ply=earlier.ply,
                    move=earlier.move,
                )
            return PlayOutcome(earlier, duplicate=True)
        self._require_playing()
        position = self.game.position
        if position.to_move != seat:
            waiting = position.to_move
            raise Refused(RefusalKind.NOT_YOUR_TURN, f"not your turn: seat {waiting} is to move", seat=waiting)
        deadline = self.deadline()
        if self.options.lose_on_time and deadline is not None and now >= deadline:
            late = round(now - deadline, 1)
            raise Refused(RefusalKind.OUT_OF_TIME, f"the time for this move ran out {late:.1f} s ago", seconds=late)
        reason = position.illegal_reason(move)
        if reason is not None:
            raise Refused(RefusalKind.ILLEGAL_MOVE, f"{name}: {in_english(reason)}", move=name, why="illegal")
        points = self.game.play(move)
        receipt = MoveReceipt(seat, move_id, self.game.ply, name, points, now)
        self._receipts[(seat, move_id)] = receipt
        self._live.append(receipt)
        self.takeback_request = None  # a request is about the requester's last move, no longer the last
        self._start_turn(now)
        if self.game.is_over():
            winner = result_of(self.game.position.scores).winner
            self._finish(winner, EndReason.NO_PAIR, now)
        return PlayOutcome(receipt, duplicate=False)

    def refuse_if_unplayed(self) -> None:
        """Refuse, naming why, anything but a look at a game that ended before it began."""
        if self.reason == EndReason.EXPIRED:
            raise Refused(
                RefusalKind.EXPIRED, "this game expired: nobody joined it in time; host a new one", why="expired"
            )
        if self.reason == EndReason.ABORTED and len(self.seats) == 1:
            raise Refused(
                RefusalKind.EXPIRED, "this game was called off by its host before anyone joined", why="called_off"
            )

    def abort(self, seat: int | None, now: float) -> None:
        """Call the game off: its host while nobody has joined, either player before the second move.

        The game ends with no winner and counts for nothing; its codes and tokens stop working
        for play."""
        seat = self._require_player(seat, "abort")
        if self.status == Status.FINISHED:
            raise Refused(RefusalKind.GAME_OVER, "the game is over")
        if self.status == Status.PLAYING and self.ply >= ABORT_BEFORE_PLY:
            raise Refused(
                RefusalKind.NOT_ALLOWED,
                f"a game can be aborted only before move {ABORT_BEFORE_PLY}; resign instead",
                why="abort_late",
                ply=ABORT_BEFORE_PLY,
            )
        self._finish(None, EndReason.ABORTED, now)

    def expire(self, now: float, wait_seconds: float) -> bool:
        """End a game nobody joined within ``wait_seconds`` of its creation; True if it ended now."""
        ends = self.expires_at(wait_seconds)
        if ends is None or now < ends:
            return False
        self._finish(None, EndReason.EXPIRED, ends)
        return True

    def abandon(self, at: float, seat: int | None = None) -> EndReason:
        """End a game whose player to move has not moved within the server's limit, as of ``at`` (the
        limit's end): aborted while either player could still have called it off (before move
        ``ABORT_BEFORE_PLY``: nobody has staked a move on it), else abandoned by ``seat`` (the player
        to move unless said: a solver's player who left on the solver's turn), won by the seat that
        stayed whatever the score (a player who leaves a lost game loses it all the same)."""
        if self.status != Status.PLAYING:
            raise ValueError(
                f"game {self.game_id}: only a game being played can be abandoned, not a {self.status.value} one"
            )
        if self.ply < ABORT_BEFORE_PLY:
            self._finish(None, EndReason.ABORTED, at)
        else:
            self._finish(3 - (self.game.position.to_move if seat is None else seat), EndReason.ABANDONED, at)
        assert self.reason is not None
        return self.reason

    def resign(self, seat: int | None, now: float) -> None:
        """``seat`` gives up: the other seat wins whatever the score."""
        seat = self._require_player(seat, "resign")
        self._require_playing()
        self._finish(3 - seat, EndReason.RESIGN, now)

    def check_time(self, now: float) -> TimeCheck:
        """Apply the per-move limit at ``now``: with ``lose_on_time`` the side to move loses once the
        deadline has come (the game ends at the deadline); without it the turn is reported overdue once."""
        deadline = self.deadline()
        if deadline is None or now < deadline:
            return TimeCheck.NONE
        if self.options.lose_on_time:
            self._finish(3 - self.game.position.to_move, EndReason.TIME, deadline)
            return TimeCheck.LOST
        if self._overdue_reported:
            return TimeCheck.NONE
        self._overdue_reported = True
        return TimeCheck.OVERDUE

    def offer_rematch(self, seat: int | None, now: float) -> None:
        """Offer a rematch of a finished game: same start, seats swapped, a new game.

        An offer the opponent declined cannot be made again for ``REMATCH_RETRY_SECONDS``."""
        seat = self._require_player(seat, "rematch_offer")
        if self.status != Status.FINISHED:
            raise Refused(
                RefusalKind.NOT_ALLOWED, "a rematch can be offered once the game is over", why="rematch_early"
            )
        if self.reason in UNRATED_ENDS:
            raise Refused(RefusalKind.NOT_ALLOWED, "this game was never played; host a new one", why="unplayed")
        declined = self._rematch_declined.get(seat)
        if declined is not None and now - declined < REMATCH_RETRY_SECONDS:
            wait = round(REMATCH_RETRY_SECONDS - (now - declined))
            raise Refused(
                RefusalKind.NOT_ALLOWED,
                f"your opponent declined a rematch; you can offer again in {wait} s",
                why="rematch_declined",
                seconds=wait,
            )
        if self.rematch_game is not None:
            raise Refused(
                RefusalKind.NOT_ALLOWED,
                f"the rematch has begun already (game {self.rematch_game})",
                why="rematch_begun",
                game=self.rematch_game,
            )
        if self.rematch_offer == seat:
            raise Refused(RefusalKind.NOT_ALLOWED, "you have offered a rematch already", why="rematch_offered")
        if self.rematch_offer is not None:
            raise Refused(
                RefusalKind.NOT_ALLOWED, "your opponent has offered a rematch: accept it", why="rematch_waiting"
            )
        self.rematch_offer = seat

    def accept_rematch(self, seat: int | None, *, game_id: str, invite: str, watch: str, now: float) -> Room:
        """Accept the opponent's offer; returns the new game, already being played.

        The new game starts from the same position with the players in swapped seats, so
        whoever moved second moves first; each keeps their token, which now also holds
        their seat in the new game.
        """
        seat = self._require_player(seat, "rematch_accept")
        if self.rematch_offer != 3 - seat:
            raise Refused(RefusalKind.NO_OFFER, "your opponent has not offered a rematch", offer="rematch")
        swapped = {3 - old: replace(holder, joined_at=now) for old, holder in self.seats.items()}
        rematch = Room(
            game_id=game_id,
            invite=invite,
            watch=watch,
            start=self.game.start,
            deal_number=self.game.deal_number,
            options=self.options,
            creator_seat=3 - self.creator_seat,
            created_at=now,
            seats=swapped,
            status=Status.PLAYING,
            turn_started=now,
            rematch_of=self.game_id,
        )
        self.rematch_offer = None
        self.rematch_game = game_id
        self.rematch_watch = watch
        return rematch

    def decline_rematch(self, seat: int | None, now: float) -> None:
        """Turn down the opponent's rematch offer: the offer is withdrawn; the offerer may offer again
        after ``REMATCH_RETRY_SECONDS``, the one who declined at once."""
        seat = self._require_player(seat, "rematch_decline")
        if self.rematch_offer != 3 - seat:
            raise Refused(RefusalKind.NO_OFFER, "your opponent has not offered a rematch", offer="rematch")
        self.rematch_offer = None
        self._rematch_declined[3 - seat] = now

    def request_takeback(self, seat: int | None) -> None:
        """Ask the opponent to let ``seat`` take back its own last move."""
        seat = self._require_player(seat, "takeback_request")
        self._require_playing()
        last = self.last_receipt
        if last is None or last.seat != seat:
            raise Refused(
                RefusalKind.NOT_ALLOWED,
                "only the player who made the last move can ask to take it back",
                why="takeback_not_last",
            )
        if self.takeback_request == seat:
            raise Refused(
                RefusalKind.NOT_ALLOWED, "you have asked to take back your move already", why="takeback_asked"
            )
        if self._takeback_declined == (seat, self.ply):
            raise Refused(
                RefusalKind.NOT_ALLOWED, "your opponent said no to taking back this move", why="takeback_declined"
            )
        self.takeback_request = seat

    def answer_takeback(self, seat: int | None, accept: bool, now: float) -> MoveReceipt | None:
        """Answer the opponent's takeback request; on ``accept`` returns the receipt of the move taken back.

        The requester is to move again, with a fresh clock. The move's id stays used: a late
        resend of it is acknowledged as taken back, never played again.
        """
        seat = self._require_player(seat, "takeback_answer")
        self._require_playing()
        if self.takeback_request != 3 - seat:
            raise Refused(RefusalKind.NO_OFFER, "your opponent has not asked to take back a move", offer="takeback")
        self.takeback_request = None
        if not accept:
            self._takeback_declined = (3 - seat, self.ply)
            return None
        self.game.undo()
        last = replace(self._live.pop(), taken_back_at=now)
        self._receipts[(last.seat, last.move_id)] = last
        self._start_turn(now)
        return last

    # -- helpers -----------------------------------------------------------------------

    def _require_player(self, seat: int | None, action: str) -> int:
        if seat is None or seat not in self.seats:
            raise Refused(
                RefusalKind.NOT_A_PLAYER, f"only a player can {ACTIONS[action]}; you watch this game", action=action
            )
        return seat

    def _require_playing(self) -> None:
        if self.status == Status.WAITING:
            raise Refused(RefusalKind.NOT_STARTED, "the game waits for its second player")
        if self.status == Status.FINISHED:
            raise Refused(RefusalKind.GAME_OVER, "the game is over")

    def _start_turn(self, now: float) -> None:
        self.turn_started = now
        self._overdue_reported = False

    def _finish(self, winner: int | None, reason: EndReason, now: float) -> None:
        self.status = Status.FINISHED
        self.winner = winner
        self.reason = reason
        self.finished_at = now
        self.takeback_request = None
        self.rematch_offer = None


def _seat_name(name: str | None) -> str:
    """The name a player gave, cleaned; "" for none (never a default stored as if typed: the
    clients show "Player 1" or "Spieler 1" in their reader's language, and after a rematch's
    swap the default follows the seat)."""
    return clean_name(name or "", "")
