"""One online game as a state machine: seats, moves with idempotent ids, the clock, resignations,
takebacks and rematches; every refusal leaves the room exactly as it was."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battle.online.protocol import messages
from battle.online.protocol.codes import hash_token
from battle.online.protocol.messages import (
    ABORT_BEFORE_PLY,
    DealChoice,
    First,
    GivenPosition,
    NumberedDeal,
    RandomDeal,
)
from battle.online.protocol.server_messages import ServerMessage
from battle.online.protocol.writer import result_json, server_frame, server_json
from battle.online.server.rooms import wire
from battle.online.server.rooms.refusals import RefusalKind, Refused
from battle.online.server.rooms.room import (
    REMATCH_RETRY_SECONDS,
    EndReason,
    MoveReceipt,
    Options,
    PlayOutcome,
    Room,
    Status,
    TimeCheck,
    plan_start,
)
from battle.rules import Game, Position, cell_name, deal, format_position, move_name, parse_move
from battle.rules.deal import MAX_DEAL


def sent(message: ServerMessage) -> dict[str, Any]:
    """The message as its frame carries it: what every client reads."""
    return server_json(message)


ANN, BOB, EVE = hash_token("token-of-ann"), hash_token("token-of-bob"), hash_token("token-of-eve")
T0 = 1_700_000_000.0
NOBODY: dict[int, bool] = {}
DEAL_ONE = NumberedDeal(1)


def endgame(tiles: int, number: int = 3) -> Position:
    """A position of deal ``number`` played down to about ``tiles`` tiles, with a pair left."""
    position = deal(number)
    while position.tiles_left() > tiles:
        moves = position.legal_moves()
        position.push(moves[len(moves) // 2])
    assert not position.is_over()
    return position.copy()


def new_room(
    choice: DealChoice = DEAL_ONE,
    first: First = "creator",
    move_seconds: int | None = None,
    lose_on_time: bool = False,
    game_id: str = "g1",
) -> Room:
    return Room.create(
        game_id=game_id,
        invite="4KQ7M2XD",
        watch="9T3PWQ0R",
        plan=plan_start(choice, first),
        options=Options(move_seconds, lose_on_time, first),
        creator_name="Ann",
        creator_token_hash=ANN,
        now=T0,
    )


def started(choice: DealChoice = DEAL_ONE, **options: Any) -> Room:
    room = new_room(choice, **options)
    room.join("Bob", BOB, T0 + 1)
    return room


def play_first(room: Room, now: float, move_id: str | None = None) -> PlayOutcome:
    """The side to move plays its first legal move."""
    seat = room.to_move
    assert seat is not None
    move = room.game.position.legal_moves()[0]
    return room.play(seat, move_name(move), move_id or f"m{room.ply}", now)


def refused(room: Room, kind: RefusalKind, action: Callable[[], object]) -> Refused:
    before = room.snapshot()
    with pytest.raises(Refused) as caught:
        action()
    assert caught.value.kind == kind, caught.value.reason
    assert room.snapshot() == before
    assert "\n" not in caught.value.reason
    return caught.value


def rebuild(room: Room) -> Room:
    """The room made again from what the store keeps of it."""
    return Room(
        game_id=room.game_id,
        invite=room.invite,
        watch=room.watch,
        start=room.game.start,
        deal_number=room.game.deal_number,
        options=room.options,
        creator_seat=room.creator_seat,
        created_at=room.created_at,
        seats=room.seats,
        status=room.status,
        winner=room.winner,
        reason=room.reason,
        turn_started=room.turn_started,
        finished_at=room.finished_at,
        rematch_offer=room.rematch_offer,
        takeback_request=room.takeback_request,
        rematch_of=room.rematch_of,
        rematch_game=room.rematch_game,
        rematch_watch=room.rematch_watch,
        receipts=room.receipts,
    )


# -- the start ------------------------------------------------------------------------------------


def test_who_starts_chooses_the_creators_seat_and_never_the_position() -> None:
    assert plan_start(NumberedDeal(1), "creator").creator_seat == 1
    assert plan_start(NumberedDeal(1), "joiner").creator_seat == 2
    second_to_move = Position(deal(5).cells, 2, (10, 4))
    given = GivenPosition(format_position(second_to_move))
    for first, seat in (("creator", 2), ("joiner", 1)):
        plan = plan_start(given, first)  # type: ignore[arg-type]
        assert plan.creator_seat == seat
        assert plan.start == second_to_move and plan.deal_number is None
    seats = {plan_start(given, "random").creator_seat for _ in range(64)}
    assert seats == {1, 2}  # each of 64 draws misses a seat with odds 2^-64


def test_a_numbered_or_random_deal_starts_from_that_deal() -> None:
    plan = plan_start(NumberedDeal(MAX_DEAL), "creator")
    assert plan.start == deal(MAX_DEAL) and plan.deal_number == MAX_DEAL
    plan = plan_start(RandomDeal(), "creator")
    assert plan.deal_number is not None and 0 <= plan.deal_number < 1_000_000
    assert plan.start == deal(plan.deal_number)


def test_a_new_room_waits_for_the_second_player() -> None:
    room = new_room(first="joiner")
    assert room.status == Status.WAITING and room.creator_seat == 2 and room.open_seat == 1
    assert room.seat_of(ANN) == 2 and room.seat_of(BOB) is None
    assert room.to_move is None and room.deadline() is None
    assert room.name_of(2) == "Ann"
    refused(room, RefusalKind.NOT_STARTED, lambda: room.play(2, "a1-b1", "m1", T0))
    refused(room, RefusalKind.NOT_STARTED, lambda: room.resign(2, T0))
    refused(room, RefusalKind.NOT_A_PLAYER, lambda: room.resign(1, T0))


def test_joining_takes_the_open_seat_and_starts_the_game() -> None:
    room = new_room(first="joiner", move_seconds=30)
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.join("Ann again", ANN, T0 + 1))
    assert room.join("  Bob\x1b[31m ", BOB, T0 + 5) == 1
    assert room.status == Status.PLAYING and room.to_move == 1
    assert room.name_of(1) == "Bob[31m" and room.game.player1 == "Bob[31m"
    assert room.deadline() == T0 + 35
    refused(room, RefusalKind.FULL, lambda: room.join("Eve", EVE, T0 + 6))


def test_a_nameless_player_keeps_no_name_and_the_record_names_the_seat() -> None:
    room = new_room()
    room.join(None, BOB, T0)
    assert room.seats[2].name == ""  # never a default stored as if typed: each client words it
    assert [player["name"] for player in sent(wire.state(room, 1, {1: True, 2: True}, T0))["players"]] == ["Ann", ""]
    assert room.game.names == ("Ann", "Player 2") and "player2: Player 2" in room.record_text()


# -- moves ----------------------------------------------------------------------------------------


def test_a_move_is_applied_and_acknowledged() -> None:
    room = started()
    outcome = room.play(1, "i9 a1", "first", T0 + 2)  # deal 1 opens with a1-i9 for 9 points
    assert not outcome.duplicate
    assert outcome.receipt == MoveReceipt(1, "first", 1, "a1-i9", 9, T0 + 2)
    assert sent(wire.ack(outcome.receipt)) == {
        "type": "ack",
        "id": "first",
        "ply": 1,
        "move": "a1-i9",
        "taken_back": False,
    }
    assert room.ply == 1 and room.scores == (9, 0) and room.to_move == 2
    moved = sent(wire.moved(room, outcome.receipt))
    assert moved["ply"] == 1 and moved["points"] == 9 and moved["to_move"] == 2 and moved["status"] == "playing"


def test_refused_moves_say_why_and_change_nothing() -> None:
    room = started()
    play_first(room, T0 + 2)
    refused(room, RefusalKind.NOT_YOUR_TURN, lambda: room.play(1, "a1-i9", "x", T0 + 3))
    refused(room, RefusalKind.NOT_A_PLAYER, lambda: room.play(None, "a1-i9", "x", T0 + 3))
    refused(room, RefusalKind.NOT_A_PLAYER, lambda: room.play(3, "a1-i9", "x", T0 + 3))
    error = refused(room, RefusalKind.ILLEGAL_MOVE, lambda: room.play(2, "b2-b3", "x", T0 + 3))
    assert error.reason == "b2-b3: b2 is not free (only the top-most and bottom-most tile of a column are)"
    error = refused(room, RefusalKind.ILLEGAL_MOVE, lambda: room.play(2, "a1-b1", "x", T0 + 3))
    assert "a1 is empty" in error.reason
    refused(room, RefusalKind.ILLEGAL_MOVE, lambda: room.play(2, "z1-a1", "x", T0 + 3))
    refused(room, RefusalKind.BAD_MESSAGE, lambda: room.play(2, room_move(room), "", T0 + 3))
    refused(room, RefusalKind.BAD_MESSAGE, lambda: room.play(2, room_move(room), "with space", T0 + 3))


def room_move(room: Room) -> str:
    return move_name(room.game.position.legal_moves()[0])


def test_a_resent_move_id_gets_the_same_ack_and_plays_nothing() -> None:
    room = started()
    first = room.play(1, "a1-i9", "m1", T0 + 2)
    after_first = room.snapshot()
    again = room.play(1, "i9-a1", "m1", T0 + 50)
    assert again.duplicate and again.receipt == first.receipt
    assert room.snapshot() == after_first
    # the opponent's own ids are its own: the same id from seat 2 is a new move
    second = room.play(2, room_move(room), "m1", T0 + 3)
    assert not second.duplicate and second.receipt.ply == 2
    error = refused(room, RefusalKind.ID_REUSED, lambda: room.play(1, room_move(room), "m1", T0 + 4))
    assert "was move 1 (a1-i9)" in error.reason


def test_a_resend_after_the_last_move_is_acknowledged_not_refused() -> None:
    room = started(GivenPosition(format_position(endgame(6))))
    while room.status == Status.PLAYING:
        last = play_first(room, T0 + 2)
    assert room.status == Status.FINISHED and room.reason == EndReason.NO_PAIR
    again = room.play(last.receipt.seat, last.receipt.move, last.receipt.move_id, T0 + 9)
    assert again.duplicate and again.receipt == last.receipt
    refused(room, RefusalKind.GAME_OVER, lambda: room.play(room.game.position.to_move, "a1-b1", "new", T0 + 9))


def test_a_game_played_out_ends_by_the_rules_with_its_record() -> None:
    room = started(NumberedDeal(7))
    now = T0
    while room.status == Status.PLAYING:
        now += 1
        outcome = play_first(room, now)
    assert room.game.is_over() and room.to_move is None
    result = room.game.result()
    assert result is not None
    assert room.winner == result.winner and room.reason == EndReason.NO_PAIR and room.finished_at == now
    assert result_json(wire.result(room)) == {
        "winner": result.winner,
        "reason": "no_pair",
        "scores": list(result.scores),
    }
    moved = sent(wire.moved(room, outcome.receipt))
    assert (
        moved["status"] == "finished" and moved["to_move"] is None and moved["result"] == result_json(wire.result(room))
    )
    record = Game.from_text(room.record_text())
    assert record.moves == room.game.moves and record.names == ("Ann", "Bob") and record.deal_number == 7
    assert f"result: {result.scores[0]}-{result.scores[1]}" in room.record_text()


# -- resigning and the clock ---------------------------------------------------------------------


def test_resigning_gives_the_game_to_the_opponent_whatever_the_score() -> None:
    room = started()
    play_first(room, T0 + 2)  # seat 1 leads 9-0
    room.resign(1, T0 + 3)
    assert room.status == Status.FINISHED and room.winner == 2 and room.reason == EndReason.RESIGN
    assert result_json(wire.result(room)) == {"winner": 2, "reason": "resign", "scores": [9, 0]}
    text = room.record_text()
    assert text.startswith("# Ann resigns after move 1\n")
    assert Game.from_text(text).moves == room.game.moves
    refused(room, RefusalKind.GAME_OVER, lambda: room.resign(2, T0 + 4))


def test_without_lose_on_time_an_overdue_turn_is_only_reported_once() -> None:
    room = started(move_seconds=30)
    assert room.deadline() == T0 + 31
    assert room.check_time(T0 + 30.9) == TimeCheck.NONE
    assert not sent(wire.state(room, 1, NOBODY, T0 + 30.9))["overdue"]
    assert room.check_time(T0 + 31) == TimeCheck.OVERDUE
    assert room.check_time(T0 + 99) == TimeCheck.NONE
    state = sent(wire.state(room, 2, NOBODY, T0 + 40))
    assert state["overdue"] and state["seconds_left"] == 0.0 and state["deadline"] == T0 + 31
    assert room.status == Status.PLAYING
    play_first(room, T0 + 100)  # a late move still counts
    assert room.deadline() == T0 + 130
    assert room.check_time(T0 + 131) == TimeCheck.OVERDUE


def test_with_lose_on_time_the_side_to_move_loses_at_the_deadline() -> None:
    room = started(move_seconds=10, lose_on_time=True)
    play_first(room, T0 + 5)  # seat 1 leads; seat 2 now has until T0 + 15
    assert sent(wire.state(room, 1, NOBODY, T0 + 7))["seconds_left"] == 8.0
    refused(room, RefusalKind.OUT_OF_TIME, lambda: room.play(2, room_move(room), "late", T0 + 15))
    assert room.check_time(T0 + 14.5) == TimeCheck.NONE
    assert room.check_time(T0 + 60) == TimeCheck.LOST
    assert room.status == Status.FINISHED and room.reason == EndReason.TIME and room.winner == 1
    assert room.finished_at == T0 + 15  # the game ended when the time ran out, not when the server looked
    assert room.record_text().startswith("# Bob loses on time after move 1\n")
    assert room.check_time(T0 + 70) == TimeCheck.NONE


def test_a_game_without_a_limit_waits_forever() -> None:
    room = started()
    assert room.check_time(T0 + 10**9) == TimeCheck.NONE and room.deadline() is None
    state = sent(wire.state(room, 1, NOBODY, T0 + 10**9))
    assert state["deadline"] is None and state["seconds_left"] is None and not state["overdue"]


# -- games that end before they begin ----------------------------------------------------------


def test_the_host_aborts_a_game_nobody_joined_and_its_invite_stops_working() -> None:
    room = new_room()
    refused(room, RefusalKind.NOT_A_PLAYER, lambda: room.abort(None, T0 + 1))
    room.abort(1, T0 + 1)
    assert room.status == Status.FINISHED and room.reason == EndReason.ABORTED and room.winner is None
    assert room.open_seat is None and sent(wire.state(room, 1, NOBODY, T0 + 2))["invite"] is None
    assert refused(room, RefusalKind.EXPIRED, lambda: room.join("Bob", BOB, T0 + 2)).reason.startswith("this game was")
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.offer_rematch(1, T0 + 2))
    assert rebuild(room).snapshot() == room.snapshot()


def test_either_player_aborts_before_the_second_move_and_nobody_after() -> None:
    for moves_before, seat in ((0, 1), (0, 2), (1, 2), (1, 1)):
        room = started()
        for _ in range(moves_before):
            play_first(room, T0 + 2)
        room.abort(seat, T0 + 3)
        assert room.status == Status.FINISHED and room.reason == EndReason.ABORTED and room.winner is None
        refused(room, RefusalKind.GAME_OVER, lambda room=room: room.abort(1, T0 + 4))
        assert rebuild(room).snapshot() == room.snapshot()
    room = started()
    for _ in range(ABORT_BEFORE_PLY):
        play_first(room, T0 + 2)
    assert "resign" in refused(room, RefusalKind.NOT_ALLOWED, lambda: room.abort(1, T0 + 3)).reason


def test_a_game_nobody_joins_expires_after_the_wait_and_not_before() -> None:
    room = new_room()
    assert room.expires_at(3600) == T0 + 3600
    assert not room.expire(T0 + 3599, 3600) and room.status == Status.WAITING
    assert room.expire(T0 + 7200, 3600)
    assert room.status == Status.FINISHED and room.reason == EndReason.EXPIRED and room.finished_at == T0 + 3600
    assert room.expires_at(3600) is None and not room.expire(T0 + 9999, 3600)
    assert "expired" in refused(room, RefusalKind.EXPIRED, lambda: room.join("Bob", BOB, T0 + 7201)).reason
    assert rebuild(room).snapshot() == room.snapshot()
    started_room = started()
    assert not started_room.expire(T0 + 10**6, 3600) and started_room.status == Status.PLAYING


# -- takebacks ----------------------------------------------------------------------------------


def test_a_takeback_needs_the_requesters_own_last_move_and_the_opponents_yes() -> None:
    room = started(move_seconds=60)
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.request_takeback(1))  # no move yet
    first = room.play(1, "a1-i9", "m1", T0 + 2)
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.request_takeback(2))  # not Bob's move
    refused(room, RefusalKind.NO_OFFER, lambda: room.answer_takeback(2, True, T0 + 3))
    room.request_takeback(1)
    assert sent(wire.state(room, 2, NOBODY, T0 + 3))["offers"] == {"rematch": None, "takeback": 1}
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.request_takeback(1))
    refused(room, RefusalKind.NO_OFFER, lambda: room.answer_takeback(1, True, T0 + 3))
    refused(room, RefusalKind.NOT_A_PLAYER, lambda: room.answer_takeback(None, True, T0 + 3))
    taken = room.answer_takeback(2, True, T0 + 10)
    assert taken == MoveReceipt(1, "m1", 1, "a1-i9", 9, T0 + 2, taken_back_at=T0 + 10)
    assert room.ply == 0 and room.to_move == 1 and room.scores == (0, 0) and room.takeback_request is None
    assert room.deadline() == T0 + 70  # the requester's clock starts again
    # the taken-back move's id stays used: a late resend is acknowledged, never replayed
    again = room.play(1, first.receipt.move, "m1", T0 + 11)
    assert again.duplicate and again.receipt.taken_back and sent(wire.ack(again.receipt))["taken_back"] is True
    assert room.ply == 0
    replay = room.play(1, "a1-i9", "m2", T0 + 12)
    assert replay.receipt.ply == 1 and not replay.duplicate


def test_a_declined_or_overtaken_takeback_request_lapses() -> None:
    room = started()
    play_first(room, T0 + 2)
    room.request_takeback(1)
    assert room.answer_takeback(2, False, T0 + 3) is None
    assert room.ply == 1 and room.takeback_request is None
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.request_takeback(1))  # no asking again for this move
    play_first(room, T0 + 4)
    play_first(room, T0 + 5)  # Ann's next move may be asked about
    room.request_takeback(1)
    play_first(room, T0 + 6)  # Bob moves instead of answering
    assert room.takeback_request is None
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.request_takeback(1))


def test_no_takeback_once_the_game_is_over() -> None:
    room = started(GivenPosition(format_position(endgame(4))))
    while room.status == Status.PLAYING:
        last = play_first(room, T0 + 2)
    refused(room, RefusalKind.GAME_OVER, lambda: room.request_takeback(last.receipt.seat))


# -- rematches ----------------------------------------------------------------------------------


def test_a_rematch_starts_from_the_same_position_with_the_seats_swapped() -> None:
    room = started(NumberedDeal(9), first="joiner", move_seconds=45)  # Ann seat 2, Bob seat 1 moves first
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.offer_rematch(2, T0))
    room.resign(1, T0 + 5)
    refused(room, RefusalKind.NOT_A_PLAYER, lambda: room.offer_rematch(None, T0))
    refused(room, RefusalKind.NO_OFFER, lambda: room.accept_rematch(1, game_id="g2", invite="A", watch="B", now=T0))
    room.offer_rematch(2, T0 + 5)
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.offer_rematch(2, T0))
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.offer_rematch(1, T0 + 6))
    refused(room, RefusalKind.NO_OFFER, lambda: room.accept_rematch(2, game_id="g2", invite="A", watch="B", now=T0))
    rematch = room.accept_rematch(1, game_id="g2", invite="M0RX4T2Q", watch="QQQQ1111", now=T0 + 20)
    assert room.rematch_game == "g2" and room.rematch_offer is None
    assert sent(wire.state(room, None, NOBODY, T0 + 20))["rematch"] == {"game": "g2", "watch": "QQQQ1111"}
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.offer_rematch(1, T0 + 6))
    assert rematch.game.start == room.game.start and rematch.game.deal_number == 9
    assert rematch.seat_of(ANN) == 1 and rematch.seat_of(BOB) == 2 and rematch.creator_seat == 1
    assert rematch.game.names == ("Ann", "Bob")
    assert rematch.status == Status.PLAYING and rematch.to_move == 1 and rematch.ply == 0
    assert rematch.options == room.options and rematch.deadline() == T0 + 65
    assert rematch.rematch_of == "g1" and rematch.game_id == "g2"


def test_a_declined_rematch_is_withdrawn_and_may_be_offered_again() -> None:
    room = started(NumberedDeal(9))
    room.resign(1, T0 + 5)
    refused(room, RefusalKind.NO_OFFER, lambda: room.decline_rematch(2, T0 + 6))
    room.offer_rematch(1, T0 + 6)
    refused(room, RefusalKind.NO_OFFER, lambda: room.decline_rematch(1, T0 + 6))  # one's own offer is not declined
    refused(room, RefusalKind.NOT_A_PLAYER, lambda: room.decline_rematch(None, T0 + 6))
    room.decline_rematch(2, T0 + 6)
    assert room.rematch_offer is None and room.rematch_game is None
    assert sent(wire.state(room, 1, NOBODY, T0 + 6))["offers"]["rematch"] is None
    # the declined offer is not pushed at the opponent again at once, nor a minute later
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.offer_rematch(1, T0 + 7))
    refused(room, RefusalKind.NOT_ALLOWED, lambda: room.offer_rematch(1, T0 + 6 + REMATCH_RETRY_SECONDS - 1))
    room.offer_rematch(2, T0 + 7)  # the one who declined may offer at once
    assert room.rematch_offer == 2
    room.decline_rematch(1, T0 + 8)
    room.offer_rematch(1, T0 + 6 + REMATCH_RETRY_SECONDS)  # after the wait, again
    assert room.rematch_offer == 1


# -- what each viewer sees ----------------------------------------------------------------------


def test_state_shows_each_viewer_the_game_and_no_secret() -> None:
    room = new_room(move_seconds=60)
    waiting = sent(wire.state(room, 1, {1: True}, T0))
    assert waiting["you"] == 1 and waiting["status"] == "waiting" and waiting["invite"] == "4KQ7M2XD"
    assert waiting["players"][1] == {"seat": 2, "name": None, "presence": "open", "creator": False}
    assert sent(wire.state(room, None, {1: True}, T0))["invite"] is None  # a spectator cannot take the seat
    room.join("Bob", BOB, T0 + 1)
    play_first(room, T0 + 2)
    for viewer, you in ((1, 1), (2, 2), (None, "spectator"), (3, "spectator")):
        state = sent(wire.state(room, viewer, {1: True}, T0 + 3))
        text = messages.encode(state)
        assert ANN not in text and BOB not in text
        assert state["you"] == you and state["invite"] is None and state["watch"] == "9T3PWQ0R"
        assert state["players"] == [
            {"seat": 1, "name": "Ann", "presence": "connected", "creator": True},
            {"seat": 2, "name": "Bob", "presence": "away", "creator": False},
        ]
        assert state["moves"] == ["a1-i9"] and state["ply"] == 1 and state["to_move"] == 2
        assert state["scores"] == [9, 0] and state["deal"] == 1 and state["status"] == "playing"
        assert Position(deal(1).cells) == __import__("battle").parse_position(state["start"])
        assert state["deadline"] == T0 + 62 and state["seconds_left"] == 59.0 and state["result"] is None
        assert json.loads(text) == state


# -- random sessions ------------------------------------------------------------------------------

ACTIONS = (
    ("join", "join_self", "resign", "offer", "accept", "wait", "cells", "reuse_id")
    + ("move",) * 8
    + ("move_as", "resend", "resend", "request", "request", "answer", "answer", "answer", "takeback", "takeback")
)
"""Weighted so that games get played: a resignation in every step would end most sessions at once."""
MOVE_IDS = tuple(f"m{n}" for n in range(40))
steps = st.lists(
    st.tuples(st.sampled_from(ACTIONS), st.sampled_from([None, 1, 2, 2, 1]), st.integers(0, 10**6)),
    min_size=30,
    max_size=80,
)
STARTS = {
    "deal": NumberedDeal(2),
    "endgame": GivenPosition(format_position(endgame(14))),
    "short": GivenPosition(format_position(Position(endgame(8, 5).cells, 2, (100, 120)))),
}


def perform(room: Room, action: str, seat: int | None, pick: int, now: float) -> object:
    legal = room.game.position.legal_moves()
    some_move = move_name(legal[pick % len(legal)]) if legal else "a1-b1"
    move_id = MOVE_IDS[pick % len(MOVE_IDS)]
    receipts = room.receipts
    if action == "join":
        return room.join("Bob", BOB, now)
    if action == "join_self":
        return room.join("Ann", ANN, now)
    if action == "move":
        return room.play(room.to_move or seat, some_move, move_id, now)
    if action == "move_as":
        return room.play(seat, some_move, move_id, now)
    if action == "cells":
        first, second = pick % 108, (pick // 108) % 108
        return room.play(seat, f"{cell_name(first)}-{cell_name(second)}", move_id, now)
    if action == "wait":
        return room.check_time(now)
    if action == "resend" and receipts:
        earlier = receipts[pick % len(receipts)]
        outcome = room.play(earlier.seat, earlier.move, earlier.move_id, now)
        assert outcome.duplicate and outcome.receipt == earlier
        return outcome
    if action == "reuse_id" and receipts:
        earlier = receipts[pick % len(receipts)]
        return room.play(earlier.seat, some_move, earlier.move_id, now)
    if action == "resign":
        return room.resign(seat, now)
    if action == "offer":
        return room.offer_rematch(seat, now)
    if action == "accept":
        seat = 3 - room.rematch_offer if room.rematch_offer and pick % 4 else seat
        return room.accept_rematch(seat, game_id=f"g{pick}", invite="M0RX4T2Q", watch="QQQQ1111", now=now)
    if action == "request":
        last = room.last_receipt
        return room.request_takeback(last.seat if last and pick % 4 else seat)
    if action == "takeback" and room.last_receipt is not None:
        room.request_takeback(room.last_receipt.seat)
        return room.answer_takeback(3 - room.last_receipt.seat, True, now)
    if action == "answer":
        seat = 3 - room.takeback_request if room.takeback_request and pick % 4 else seat
        return room.answer_takeback(seat, pick % 2 == 0, now)
    return None


def check_invariants(room: Room) -> None:
    position = room.game.start.copy()
    live = room.live_receipts
    assert [receipt.ply for receipt in live] == list(range(1, len(live) + 1))
    for receipt in live:
        assert receipt.seat == position.to_move and not receipt.taken_back
        assert position.push(parse_move(receipt.move)) == receipt.points  # raises if not legal
    assert position == room.game.position
    assert {(r.seat, r.move_id) for r in live} <= {(r.seat, r.move_id) for r in room.receipts}
    assert sum(not r.taken_back for r in room.receipts) == len(live)
    if room.status == Status.PLAYING:
        assert not room.game.is_over() and len(room.seats) == 2
    if room.status == Status.FINISHED:
        assert room.reason is not None and room.takeback_request is None
        if room.reason == EndReason.NO_PAIR:
            assert room.game.is_over() and room.winner == room.game.result().winner  # type: ignore[union-attr]
    else:
        assert room.reason is None and room.winner is None and room.rematch_offer is None
    if room.takeback_request is not None:
        assert live and live[-1].seat == room.takeback_request


@settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.sampled_from(sorted(STARTS)),
    st.booleans(),
    st.booleans(),
    steps,
    st.lists(st.floats(0, 6), min_size=80, max_size=80),
)
def test_random_sessions_keep_every_promise(
    start: str, joined: bool, lose_on_time: bool, actions: list[tuple[str, int | None, int]], pauses: list[float]
) -> None:
    room = new_room(STARTS[start], move_seconds=30, lose_on_time=lose_on_time)
    if joined:
        room.join("Bob", BOB, T0 + 1)
    now = T0 + 1
    for (action, seat, pick), pause in zip(actions, pauses, strict=False):
        now += pause + (pick % 40 if action == "wait" else 0)
        room.check_time(now)
        before, ply = room.snapshot(), room.ply
        try:
            result = perform(room, action, seat, pick, now)
        except Refused as refusal:
            assert room.snapshot() == before, (action, refusal.reason)
        else:
            if isinstance(result, PlayOutcome):
                assert room.ply == (ply if result.duplicate else ply + 1)
                if result.duplicate:
                    assert room.snapshot() == before
            if isinstance(result, Room):
                check_invariants(result)
                assert result.game.start == room.game.start and rebuild(result).snapshot() == result.snapshot()
                room = result
        check_invariants(room)
        json.loads(server_frame(wire.state(room, seat, {1: True}, now)))
    assert rebuild(room).snapshot() == room.snapshot()


def test_a_stored_room_that_does_not_add_up_is_refused() -> None:
    room = started()
    play_first(room, T0 + 2)
    wrong_points = [MoveReceipt(1, "m0", 1, room.live_receipts[0].move, 1, T0 + 2)]
    wrong_seat = [MoveReceipt(2, "m0", 1, room.live_receipts[0].move, 9, T0 + 2)]
    illegal = [MoveReceipt(1, "m0", 1, "a2-a3", 9, T0 + 2)]
    gap = [MoveReceipt(1, "m0", 2, room.live_receipts[0].move, 9, T0 + 2)]
    for receipts in (wrong_points, wrong_seat, illegal, gap):
        with pytest.raises(ValueError):
            Room(
                game_id="g1",
                invite="I",
                watch="W",
                start=room.game.start,
                deal_number=1,
                options=room.options,
                creator_seat=1,
                created_at=T0,
                seats=room.seats,
                status=Status.PLAYING,
                receipts=receipts,
            )
    with pytest.raises(ValueError, match="status waiting with 2 seat"):
        Room(
            game_id="g1",
            invite="I",
            watch="W",
            start=room.game.start,
            deal_number=1,
            options=room.options,
            creator_seat=1,
            created_at=T0,
            seats=room.seats,
        )


def test_options_read_back_from_json_and_refuse_anything_else() -> None:
    options = Options(60, True, "random")
    assert Options.from_json(json.loads(json.dumps(options.to_json()))) == options
    for bad in (
        [],
        {"move_seconds": 60},
        {"move_seconds": "60", "lose_on_time": True, "first": "random"},
        {"move_seconds": 60, "lose_on_time": 1, "first": "random"},
        {"move_seconds": 60, "lose_on_time": True, "first": "me"},
    ):
        with pytest.raises(ValueError):
            Options.from_json(bad)
