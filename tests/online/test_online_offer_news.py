"""The news the clients tell from the server's messages, read in turn: every takeback request and
its answer, every rematch offer and its refusal, who comes and goes. A real ``Room`` plays random
games and sends the messages its server would (a ``state`` after every change but a move, which
comes as ``moved``); the reader must tell exactly what the room did, and the client's own fold
of a ``moved`` must agree with the room's next state."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from battle.online.client.offer_news import NewsReader, OfferNews, offer_news
from battle.online.client.state_game import after_move
from battle.online.protocol.codes import hash_token
from battle.online.protocol.messages import NumberedDeal
from battle.online.protocol.server_messages import Moved, State
from battle.online.server.rooms import wire
from battle.online.server.rooms.refusals import Refused
from battle.online.server.rooms.room import Options, Room, Status, plan_start
from battle.rules import move_name

T0 = 1_700_000_000.0
BOTH = {1: True, 2: True}
FOLDED = ("moves", "ply", "scores", "to_move", "status", "result", "deadline")
"""What a ``moved`` brings a state up to date with."""


def started_room() -> Room:
    room = Room.create(
        game_id="g1",
        invite="4KQ7M2XD",
        watch="9T3PWQ0R",
        plan=plan_start(NumberedDeal(3), "creator"),
        options=Options(None, False, "creator"),
        creator_name="Ann",
        creator_token_hash=hash_token("ann"),
        now=T0,
    )
    room.join("Bob", hash_token("bob"), T0 + 1)
    return room


def state(room: Room, presence: dict[int, bool] | None = None) -> State:
    return wire.state(room, 1, BOTH if presence is None else presence, T0)


ACTIONS = st.lists(st.sampled_from(["move", "move", "ask", "yes", "no"]), min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(ACTIONS)
def test_the_reader_tells_every_takeback_question_and_answer_the_room_saw(actions: list[str]) -> None:
    room = started_room()
    reader = NewsReader()
    reader.read(state(room))
    told: list[OfferNews] = []
    expected: list[OfferNews] = []
    for action in actions:
        if room.status != Status.PLAYING:
            break
        asked = room.takeback_request
        try:
            if action == "move":
                seat = room.to_move
                assert seat is not None
                receipt = room.play(
                    seat, move_name(room.game.position.legal_moves()[0]), f"m{len(room.receipts)}", T0
                )  # a taken-back move's id stays used
                message = wire.moved(room, receipt.receipt)
                folded = after_move(reader.seen, message)
                if asked is not None:
                    expected.append(OfferNews("takeback_overtaken", asked))
            elif action == "ask":
                seat = room.last_receipt.seat if room.last_receipt is not None else 1
                room.request_takeback(seat)
                expected.append(OfferNews("takeback_asked", seat))
                message = state(room)
            else:
                if asked is None:
                    continue
                moves = tuple(receipt.move for receipt in room.live_receipts)
                taken = room.answer_takeback(3 - asked, action == "yes", T0)
                expected.append(
                    OfferNews("takeback_granted", asked, moves[-1:]) if taken else OfferNews("takeback_refused", asked)
                )
                message = state(room)
        except Refused:
            continue
        told.extend(reader.read(message))
        if isinstance(message, Moved):
            assert folded is not None
            assert {key: getattr(folded, key) for key in FOLDED} == {key: getattr(state(room), key) for key in FOLDED}
            assert folded.offers.takeback is None
    assert told == expected


def test_a_request_and_its_refusal_queued_together_are_both_told() -> None:
    room = started_room()
    room.play(1, move_name(room.game.position.legal_moves()[0]), "a1", T0)
    before = state(room)
    room.request_takeback(1)
    asked = state(room)
    room.answer_takeback(2, False, T0)
    answered = state(room)
    reader = NewsReader(before)
    assert reader.read(asked) + reader.read(answered) == [
        OfferNews("takeback_asked", 1),
        OfferNews("takeback_refused", 1),
    ]
    assert offer_news(before, answered) == []  # the newest state alone shows neither


def test_rematch_offers_and_refusals_and_a_rematch_that_began() -> None:
    room = started_room()
    room.resign(2, T0)
    reader = NewsReader(state(room))
    room.offer_rematch(2, T0)
    assert reader.read(state(room)) == [OfferNews("rematch_offered", 2)]
    room.decline_rematch(1, T0)
    assert reader.read(state(room)) == [OfferNews("rematch_declined", 2)]
    room.offer_rematch(1, T0)
    assert reader.read(state(room)) == [OfferNews("rematch_offered", 1)]
    rematch = room.accept_rematch(2, game_id="g2", invite="AAAAAAAA", watch="BBBBBBBB", now=T0)
    assert reader.read(state(room)) == []  # the offer ends because the rematch began: no refusal
    assert reader.read(wire.state(rematch, 1, BOTH, T0)) == []  # a new game with nothing asked yet


def test_comings_and_goings() -> None:
    room = Room.create(
        game_id="g1",
        invite="4KQ7M2XD",
        watch="9T3PWQ0R",
        plan=plan_start(NumberedDeal(3), "creator"),
        options=Options(None, False, "creator"),
        creator_name="Ann",
        creator_token_hash=hash_token("ann"),
        now=T0,
    )
    reader = NewsReader()
    assert reader.read(state(room, {1: True})) == []  # a first state: nothing changed yet
    room.join("Bob", hash_token("bob"), T0 + 1)
    assert reader.read(state(room)) == [OfferNews("joined", 2)]
    assert reader.read(state(room, {1: True})) == [OfferNews("away", 2)]
    assert reader.read(state(room)) == [OfferNews("back", 2)]
    room.resign(1, T0)
    assert reader.read(state(room, {2: True})) == []  # gone after the end: nobody waits


def test_a_move_out_of_order_is_left_for_the_next_state() -> None:
    room = started_room()
    now = state(room)
    receipt = room.play(1, move_name(room.game.position.legal_moves()[0]), "a1", T0)
    moved = wire.moved(room, receipt.receipt)
    assert after_move(now, replace(moved, ply=5)) is now
    assert after_move(now, replace(moved, game="g2")) is now
    later = after_move(now, moved)
    assert later is not now and now.moves == () and later.moves == (moved.move,)


def test_the_window_words_the_opponents_questions_and_the_answers_to_its_own() -> None:
    from battle.ui.online.online_state import news_line

    room = started_room()
    seat_one, watcher = wire.state(room, 1, BOTH, T0), wire.state(room, None, BOTH, T0)
    assert news_line(OfferNews("takeback_asked", 2), seat_one) == (
        "Bob asks to take back their last move: Y lets them, N says no.",
        "warn",
    )
    assert news_line(OfferNews("takeback_asked", 1), seat_one) is None  # its own request: said when sent
    assert news_line(OfferNews("takeback_refused", 1), seat_one) == ("Bob said no to the takeback.", "info")
    assert news_line(OfferNews("takeback_refused", 2), seat_one) is None  # its own answer
    assert news_line(OfferNews("takeback_granted", 1, ("a1-b1",)), seat_one) is None  # the board's change says it
    assert news_line(OfferNews("rematch_declined", 1), seat_one) == ("Bob turned down the rematch.", "info")
    assert news_line(OfferNews("away", 2), seat_one) == ("Bob is away: the game waits for them.", "quiet")
    assert news_line(OfferNews("away", 1), seat_one) is None
    assert news_line(OfferNews("takeback_asked", 2), watcher) is None  # a spectator is asked nothing
    assert news_line(OfferNews("back", 1), watcher) == ("Ann is back.", "info")
