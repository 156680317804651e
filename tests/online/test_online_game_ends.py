"""When a game ends though no player ends it, as pure logic: the limit on the player to move's absence
(``game_ends``, ``Room.abandon``), what a network holds (``SeatNetworks``), how fast it may start
games (``AddressGuard``), and how the window and the terminal word all that (``wording``). The
served behaviour is in ``test_online_leavers``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battle import i18n
from battle.online.client.wording import end_cause, end_sentence, refusal_text
from battle.online.protocol.codes import hash_token
from battle.online.protocol.messages import ABORT_BEFORE_PLY, ErrorCode, NumberedDeal
from battle.online.protocol.server_messages import END_REASONS, EndReasonName, Error, GameResult, PlayerInfo, State
from battle.online.server.limits.address_guard import AddressGuard
from battle.online.server.limits.server import ServerLimits
from battle.online.server.rooms import wire
from battle.online.server.rooms.game_ends import SOLVER_NETWORK, abandon_deadline, abandon_limit, abandoning_seat
from battle.online.server.rooms.room import EndReason, Options, Room, Status, plan_start
from battle.online.server.rooms.seat_networks import SeatNetworks
from battle.rules import move_name

ANN, BOB = hash_token("token-of-ann"), hash_token("token-of-bob")
T0 = 1_700_000_000.0
LIMITS = ServerLimits(abandon_seconds=72 * 3600.0, abandon_one_network_seconds=6 * 3600.0)
KEY = b"k" * 32


def playing_room(moves: int = 0, move_seconds: int | None = None, lose_on_time: bool = False) -> Room:
    """A game of deal 1 joined at ``T0 + 1`` with ``moves`` moves played, one a minute."""
    room = Room.create(
        game_id="g1",
        invite="4KQ7M2XD",
        watch="9T3PWQ0R",
        plan=plan_start(NumberedDeal(1), "creator"),
        options=Options(move_seconds, lose_on_time, "creator"),
        creator_name="Ann",
        creator_token_hash=ANN,
        now=T0,
    )
    room.join("Bob", BOB, T0 + 1)
    for number in range(moves):
        seat = room.to_move
        assert seat is not None
        room.play(seat, move_name(room.game.position.legal_moves()[0]), f"m{number}", T0 + 60 * (number + 1))
    return room


# -- the limit -----------------------------------------------------------------------------------


def test_two_networks_get_days_and_one_network_or_the_solver_hours() -> None:
    assert abandon_limit({1: "aa", 2: "bb"}, LIMITS) == 72 * 3600
    assert abandon_limit({1: "aa", 2: "aa"}, LIMITS) == 6 * 3600
    assert abandon_limit({1: "aa", 2: SOLVER_NETWORK}, LIMITS) == 6 * 3600
    assert abandon_limit({}, LIMITS) == 72 * 3600  # a game stored without its networks: the longer limit
    assert abandon_limit({1: "aa"}, LIMITS) == 72 * 3600


def test_the_deadline_runs_from_the_turns_start_and_only_where_no_clock_decides() -> None:
    room = playing_room(moves=3)
    assert room.turn_started == T0 + 180
    assert abandon_deadline(room, {1: "aa", 2: "aa"}, LIMITS) == T0 + 180 + 6 * 3600
    assert abandon_deadline(room, {1: "aa", 2: "bb"}, LIMITS) == T0 + 180 + 72 * 3600
    clocked = playing_room(moves=1, move_seconds=60, lose_on_time=True)
    assert abandon_deadline(clocked, {1: "aa", 2: "aa"}, LIMITS) is None  # the per-move clock ends it
    told_only = playing_room(moves=1, move_seconds=60)
    assert abandon_deadline(told_only, {1: "aa", 2: "aa"}, LIMITS) == T0 + 60 + 6 * 3600
    solver_to_move = {room.to_move: SOLVER_NETWORK, 3 - (room.to_move or 1): "aa"}
    # the solver moves only while its player is there: a turn of its that lasts the limit is one its player left
    assert abandon_deadline(room, solver_to_move, LIMITS) == T0 + 180 + 6 * 3600
    waiting = Room.create(
        game_id="g2",
        invite="4KQ7M2XE",
        watch="9T3PWQ0S",
        plan=plan_start(NumberedDeal(1), "creator"),
        options=Options(),
        creator_name="Ann",
        creator_token_hash=ANN,
        now=T0,
    )
    assert abandon_deadline(waiting, {1: "aa"}, LIMITS) is None  # it expires instead (wait_seconds)


@given(st.integers(min_value=0, max_value=12), st.floats(min_value=0, max_value=1e6))
def test_an_abandoned_game_is_aborted_before_move_2_and_won_by_the_one_who_stayed_after(
    moves: int, late: float
) -> None:
    room = playing_room(moves=moves)
    gone = room.to_move
    assert gone is not None
    at = T0 + 1e7 + late
    reason = room.abandon(at)
    assert room.status == Status.FINISHED and room.finished_at == at and room.reason == reason
    if moves < ABORT_BEFORE_PLY:
        assert reason == EndReason.ABORTED and room.winner is None
        assert not room.record_text().startswith("#")
    else:
        assert reason == EndReason.ABANDONED and room.winner == 3 - gone
        assert room.record_text().startswith(f"# {room.name_of(gone)} abandons the game after move {moves}\n")
    assert wire.end_reason(reason) in END_REASONS


def test_a_game_left_on_the_solvers_turn_is_abandoned_by_its_player() -> None:
    room = playing_room(moves=3)
    solver = room.to_move
    assert solver is not None
    networks = {solver: SOLVER_NETWORK, 3 - solver: "aa"}
    assert abandoning_seat(room, networks) == 3 - solver
    assert abandoning_seat(room, {1: "aa", 2: "bb"}) == solver  # between people: the player to move
    deadline = abandon_deadline(room, networks, LIMITS)
    assert deadline is not None
    assert room.abandon(deadline, abandoning_seat(room, networks)) == EndReason.ABANDONED
    assert room.winner == solver
    assert room.record_text().startswith(f"# {room.name_of(3 - solver)} abandons the game after move 3\n")


def test_only_a_game_being_played_can_be_abandoned() -> None:
    room = playing_room(moves=2)
    room.resign(1, T0 + 500)
    snapshot = room.snapshot()
    try:
        room.abandon(T0 + 600)
    except ValueError as error:
        assert "only a game being played" in str(error)
    else:
        raise AssertionError("a finished game was abandoned")
    assert room.snapshot() == snapshot


# -- what a network holds ------------------------------------------------------------------------


def test_a_network_holds_the_unfinished_games_it_has_a_seat_in_each_kind_apart() -> None:
    networks = SeatNetworks(KEY, 64)
    home, school = networks.tag("192.0.2.7"), networks.tag("198.51.100.1")
    assert home != school and len(home) == 16 and "192" not in home
    assert networks.tag("2001:db8:1:2::1") == networks.tag("2001:db8:1:2:ffff::9")  # one /64
    assert networks.tag("2001:db8:1:2::1") != networks.tag("2001:db8:1:3::1")
    assert SeatNetworks(b"o" * 32, 64).tag("192.0.2.7") != home  # a key of its own: nothing to compare across
    unfinished = {"a", "b", "c", "s"}
    networks.add("a", {1: home})
    networks.add("a", {2: home})  # created and joined from one network: one game held
    networks.add("b", {1: home, 2: school})
    networks.add("c", {2: school})
    networks.add("s", {1: home, 2: SOLVER_NETWORK})
    assert len(networks.games(home, solver=False, unfinished=unfinished.__contains__)) == 2
    assert len(networks.games(home, solver=True, unfinished=unfinished.__contains__)) == 1
    assert len(networks.games(school, solver=False, unfinished=unfinished.__contains__)) == 2
    unfinished.discard("b")  # a game that ended is forgotten when next counted
    assert len(networks.games(home, solver=False, unfinished=unfinished.__contains__)) == 1
    assert networks.of("b") == {}
    assert len(networks.games(school, solver=False, unfinished=unfinished.__contains__)) == 1
    networks.forget("a")
    assert len(networks.games(home, solver=False, unfinished=unfinished.__contains__)) == 0
    assert len(networks.games(networks.tag("203.0.113.9"), solver=False, unfinished=unfinished.__contains__)) == 0


# -- how fast a network starts games -------------------------------------------------------------


def test_a_network_starts_a_burst_of_games_then_one_a_minute_and_others_are_not_held_back() -> None:
    guard = AddressGuard(ServerLimits(creates_per_hour=60, create_burst=20))
    for _ in range(20):
        assert guard.start_wait("192.0.2.7", 100.0) is None
        assert guard.take_start("192.0.2.7", 100.0) is None
    assert guard.take_start("192.0.2.7", 100.0) == 60.0  # refused: nothing counted
    assert guard.start_wait("192.0.2.7", 130.0) == 30.0
    assert guard.take_start("198.51.100.1", 130.0) is None  # another network has its own
    assert guard.take_start("192.0.2.7", 160.0) is None
    assert guard.start_wait("192.0.2.7", 160.0) == 60.0


# -- how the window and the terminal word it -----------------------------------------------------


def ended_state(you: int | str, reason: EndReasonName, winner: int | None) -> State:
    players = (PlayerInfo(1, "Ann", "away", True), PlayerInfo(2, "Bob", "connected", False))
    return State(
        game="g1",
        you=you,
        status="finished",
        start="",
        deal=1,
        moves=("a1-b2", "c3-d4"),
        to_move=None,
        scores=(40, 62),
        players=players,
        result=GameResult(winner, reason, (40, 62)),
    )


def test_an_abandoned_game_and_the_caps_are_worded_for_each_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "_language", i18n.SOURCE_LANGUAGE)
    assert end_sentence(ended_state(2, "abandoned", 2)) == "Ann did not move for too long; you win, 62-40."
    assert end_sentence(ended_state(1, "abandoned", 2)) == "You did not move for too long; Bob wins, 40-62."
    assert end_sentence(ended_state("spectator", "abandoned", 2)) == "Ann did not move for too long; Bob wins, 40-62."
    assert end_cause(ended_state(2, "abandoned", 2)) == "Ann did not move for too long and left the game."
    assert "nobody moved in time" in end_sentence(ended_state(1, "aborted", None))
    busy = {
        "network_games": ({"count": 5}, "Your address plays 5 unfinished games already"),
        "solver_games": ({"count": 1}, "Your address plays 1 unfinished game against the solver already"),
        "starts": ({"seconds": 42}, "try again in 42 seconds."),
    }
    for why, (params, words) in busy.items():
        assert words in refusal_text(Error(ErrorCode.BUSY, "", {"why": why, **params}))
    i18n.set_language("de")
    try:
        assert end_sentence(ended_state(2, "abandoned", 2)) == "Ann hat zu lange nicht gezogen; du gewinnst, 62-40."
        assert "versuch es in 42 Sekunden wieder" in refusal_text(
            Error(ErrorCode.BUSY, "", {"why": "starts", "seconds": 42})
        )
    finally:
        i18n.set_language("en")
