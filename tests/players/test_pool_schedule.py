"""The solver pool's pure core (``battle.players.pool.schedule``): order, seats, kept workers, budgets,
retries and places, driven with explicit times."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battle.players.pool.schedule import (
    PARS_RUNNING,
    Admitted,
    Budget,
    Change,
    Kind,
    Refusal,
    Schedule,
    Standing,
    UnitState,
    address_key,
)


def admitted(result: Admitted | Refusal) -> int:
    assert isinstance(result, Admitted), result
    return result.unit


def taken_ids(schedule: Schedule, now: float = 0.0) -> list[int]:
    """Take units until none is given (finishing each at once, so every worker stays free)."""
    order = []
    while (unit := schedule.take(now)) is not None:
        order.append(unit.id)
        schedule.finish(unit.id, 0.0, now)
    return order


def test_addresses_are_keyed_by_ipv4_address_and_ipv6_network() -> None:
    assert address_key("203.0.113.9") == "203.0.113.9"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") == "2001:db8:1:3::/64"
    assert address_key("[2001:db8:1:2::1]") == address_key("fe80::1%eth0".replace("fe80::1", "2001:db8:1:2::1"))
    assert address_key("::ffff:203.0.113.9") == "203.0.113.9"
    assert address_key("2001:db8:1:2::1", ipv6_prefix=48) == "2001:db8:1::/48"
    for key in ("203.0.113.9", "2001:db8:1:2::/64"):
        assert address_key(key) == key  # a key given again is the same key
    assert address_key("2001:db8:1:2:3::/80") == "2001:db8:1:2::/64"
    assert address_key("unknown") == "unknown"


def test_a_move_submitted_after_reviews_and_analyses_is_taken_first() -> None:
    schedule = Schedule(workers=1, budget=None)
    reviews = [admitted(schedule.submit(Kind.REVIEW, f"r{i}", "10.0.0.1", 5, 0.0)) for i in range(3)]
    analysis = admitted(schedule.submit(Kind.ANALYSIS, "a", "10.0.0.1", 3, 0.0))
    move = admitted(schedule.submit(Kind.MOVE, "m", "10.0.0.1", 2, 0.0))
    assert schedule.places() == {move: 1, analysis: 2, reviews[0]: 3, reviews[1]: 4, reviews[2]: 5}
    assert taken_ids(schedule) == [move, analysis, *reviews]


def test_within_a_kind_addresses_take_turns() -> None:
    schedule = Schedule(workers=1, budget=None)
    flood = [admitted(schedule.submit(Kind.ANALYSIS, f"f{i}", "10.0.0.1", 1, 0.0)) for i in range(3)]
    other = admitted(schedule.submit(Kind.ANALYSIS, "o", "10.0.0.2", 1, 0.0))
    third = admitted(schedule.submit(Kind.ANALYSIS, "t", "2001:db8::5", 1, 0.0))
    assert schedule.place(other) == 2 and schedule.place(flood[1]) == 4
    assert taken_ids(schedule) == [flood[0], other, third, flood[1], flood[2]]


def test_one_search_per_seat_the_newest_replaces_the_waiting_and_stops_the_running() -> None:
    schedule = Schedule(workers=2, budget=None, move_reserve=0)
    first = admitted(schedule.submit(Kind.ANALYSIS, "seat", "10.0.0.1", 5, 0.0))
    running = schedule.take(0.0)
    assert running is not None and running.id == first
    second = schedule.submit(Kind.ANALYSIS, "seat", "10.0.0.1", 5, 1.0)
    assert isinstance(second, Admitted) and second.change == Change(stopping=(first,))
    third = schedule.submit(Kind.MOVE, "seat", "10.0.0.1", 2, 2.0)
    assert isinstance(third, Admitted) and third.change == Change(dropped=(second.unit,))
    # the seat's new unit waits while the stopped one still runs, though a worker is free
    assert schedule.take(2.0) is None and schedule.place(third.unit) == 1 and schedule.place(first) == 0
    assert schedule.finish(first, 0.5, 3.0) is not None
    assert [unit.id for unit in [schedule.take(3.0)] if unit] == [third.unit]
    assert schedule.place(second.unit) is None


def test_cancelling_drops_a_waiting_unit_and_stops_a_running_one_once() -> None:
    schedule = Schedule(workers=1, budget=None)
    running = admitted(schedule.submit(Kind.MOVE, "a", "10.0.0.1", 2, 0.0))
    waiting = admitted(schedule.submit(Kind.MOVE, "b", "10.0.0.1", 2, 0.0))
    assert schedule.take(0.0) is not None
    assert schedule.cancel(waiting) == Change(dropped=(waiting,))
    assert schedule.cancel(running) == Change(stopping=(running,))
    assert schedule.cancel(running) == Change() and schedule.cancel(waiting) == Change()
    assert schedule.unit(running) is not None and schedule.unit(running).state is UnitState.STOPPING  # type: ignore[union-attr]
    schedule.finish(running, 0.1, 1.0)
    assert schedule.take(1.0) is None and schedule.counts()["running"] == 0


def test_a_seat_whose_connection_closed_loses_both_its_units() -> None:
    schedule = Schedule(workers=1, budget=None)
    running = admitted(schedule.submit(Kind.ANALYSIS, "s", "10.0.0.1", 5, 0.0))
    schedule.take(0.0)
    waiting = admitted(schedule.submit(Kind.ANALYSIS, "s", "10.0.0.1", 5, 0.0))
    assert schedule.cancel_seat("s") == Change(dropped=(waiting,), stopping=())  # the running one already stops
    assert schedule.cancel_seat("other") == Change()
    fresh = Schedule(workers=1, budget=None)
    unit = admitted(fresh.submit(Kind.ANALYSIS, "s", "10.0.0.1", 5, 0.0))
    fresh.take(0.0)
    assert fresh.cancel_seat("s") == Change(stopping=(unit,))
    assert schedule.place(running) == 0 and fresh.place(unit) == 0  # both run until their workers answer


def test_a_worker_is_kept_for_moves() -> None:
    schedule = Schedule(workers=2, budget=None)
    long = admitted(schedule.submit(Kind.ANALYSIS, "a1", "10.0.0.1", 30, 0.0))
    assert schedule.take(0.0) is not None
    admitted(schedule.submit(Kind.REVIEW, "r", "10.0.0.2", 30, 0.0))
    admitted(schedule.submit(Kind.ANALYSIS, "a2", "10.0.0.3", 30, 0.0))
    assert schedule.take(0.0) is None  # the second worker waits for a move
    move = admitted(schedule.submit(Kind.MOVE, "m", "10.0.0.4", 2, 0.0))
    unit = schedule.take(0.0)
    assert unit is not None and unit.id == move
    schedule.finish(long, 30.0, 30.0)
    assert schedule.take(30.0) is None  # the move still runs on one worker: the other stays kept
    schedule.finish(move, 1.0, 31.0)
    analysis = schedule.take(31.0)
    assert analysis is not None and analysis.kind is Kind.ANALYSIS and schedule.take(31.0) is None
    assert (
        Schedule(workers=1, budget=None).reserve == 0 and Schedule(workers=4, budget=None, move_reserve=9).reserve == 3
    )


def test_a_worker_whose_kernels_load_takes_only_what_plain_python_answers() -> None:
    schedule = Schedule(workers=2, budget=None, move_reserve=0)
    deep = admitted(schedule.submit(Kind.MOVE, "expert", "10.0.0.1", 3, 0.0))
    shallow = admitted(schedule.submit(Kind.MOVE, "club", "10.0.0.1", 2, 0.0, plain=True))
    unit = schedule.take(0.0, plain_only=True)
    assert unit is not None and unit.id == shallow
    assert schedule.take(0.0, plain_only=True) is None
    unit = schedule.take(0.0)
    assert unit is not None and unit.id == deep


def test_a_budget_reserves_a_units_most_and_refuses_with_the_seconds_to_wait() -> None:
    schedule = Schedule(workers=1, budget=Budget(rate=0.5, burst=10.0))
    first = admitted(schedule.submit(Kind.ANALYSIS, "a", "2001:db8:7:7::1", 8.0, 100.0))
    assert schedule.level("2001:db8:7:7::2", 100.0) == 2.0  # the same /64
    refusal = schedule.submit(Kind.ANALYSIS, "b", "2001:db8:7:7:ffff::3", 8.0, 100.0)
    assert refusal == Refusal("budget", 12.0)  # 6 s short, at 0.5 s a second
    assert isinstance(schedule.submit(Kind.ANALYSIS, "c", "2001:db8:7:8::1", 8.0, 100.0), Admitted)
    assert schedule.submit(Kind.ANALYSIS, "b", "2001:db8:7:7::3", 8.0, 111.0) == Refusal("budget", 1.0)  # 7.5 s
    assert isinstance(schedule.submit(Kind.ANALYSIS, "b", "2001:db8:7:7::3", 8.0, 112.0), Admitted)
    # a running unit pays what it used: 1 s of its 8 back to the bucket when it ends
    schedule.take(112.0)
    schedule.finish(first, 7.0, 112.0)
    assert schedule.level("2001:db8:7:7::1", 112.0) == 1.0


def test_a_refused_unit_changes_nothing_and_a_replaced_units_reservation_pays_for_its_successor() -> None:
    schedule = Schedule(workers=1, budget=Budget(rate=1.0, burst=10.0))
    blocker = admitted(schedule.submit(Kind.MOVE, "x", "10.0.0.9", 1.0, 0.0))
    schedule.take(0.0)
    waiting = admitted(schedule.submit(Kind.ANALYSIS, "s", "10.0.0.1", 6.0, 0.0))
    assert schedule.submit(Kind.ANALYSIS, "t", "10.0.0.1", 6.0, 0.0) == Refusal("budget", 2.0)
    assert schedule.place(waiting) == 1
    # the same seat asks again: its waiting unit's 6 s come back first, so 9 s fit
    again = schedule.submit(Kind.ANALYSIS, "s", "10.0.0.1", 9.0, 0.0)
    assert isinstance(again, Admitted) and again.change == Change(dropped=(waiting,))
    assert schedule.level("10.0.0.1", 0.0) == 1.0
    assert schedule.cancel(again.unit) == Change(dropped=(again.unit,))
    assert schedule.level("10.0.0.1", 0.0) == 10.0
    schedule.finish(blocker, 0.2, 0.0)


def test_an_overrun_is_paid_for_and_a_unit_larger_than_the_burst_waits_for_a_full_bucket() -> None:
    schedule = Schedule(workers=1, budget=Budget(rate=1.0, burst=10.0))
    unit = admitted(schedule.submit(Kind.ANALYSIS, "s", "10.0.0.1", 4.0, 0.0))
    schedule.take(0.0)
    schedule.finish(unit, 9.0, 0.0)
    assert schedule.level("10.0.0.1", 0.0) == 1.0
    assert schedule.submit(Kind.REVIEW, "r", "10.0.0.1", 500.0, 0.0) == Refusal("budget", 9.0)
    assert isinstance(schedule.submit(Kind.REVIEW, "r", "10.0.0.1", 500.0, 9.0), Admitted)
    assert schedule.level("10.0.0.1", 9.0) == 0.0


def test_each_kind_has_room_of_its_own_and_an_address_a_share_of_it() -> None:
    schedule = Schedule(workers=2, budget=None, max_waiting=3)
    for number in range(3):
        admitted(schedule.submit(Kind.REVIEW, f"r{number}", f"10.0.0.{number}", 10.0, 0.0))
    # the reviews' room is full: a fourth waits 30 s of reviews on the one worker not kept
    assert schedule.submit(Kind.REVIEW, "r9", "10.0.0.9", 10.0, 0.0) == Refusal("busy", 30.0)
    move = admitted(schedule.submit(Kind.MOVE, "m", "10.0.0.9", 1.0, 0.0))  # moves have room of their own
    hint = admitted(schedule.submit(Kind.ANALYSIS, "h", "10.0.0.9", 4.0, 0.0))
    assert isinstance(schedule.submit(Kind.REVIEW, "r0", "10.0.0.0", 10.0, 0.0), Admitted)  # a replacement fits
    assert schedule.places()[move] == 1 and schedule.places()[hint] == 2

    share = Schedule(
        workers=2, budget=Budget(1.0, 100.0), per_network={Kind.MOVE: None, Kind.ANALYSIS: 2, Kind.REVIEW: 1}
    )
    admitted(share.submit(Kind.ANALYSIS, "a1", "10.0.0.1", 5.0, 0.0))
    admitted(share.submit(Kind.ANALYSIS, "a2", "10.0.0.1", 5.0, 0.0))
    admitted(share.submit(Kind.ANALYSIS, "b1", "10.0.0.2", 5.0, 0.0))
    # the address's two wait: its third waits its first's turn, 5 s (and b1's turn comes after it)
    assert share.submit(Kind.ANALYSIS, "a3", "10.0.0.1", 5.0, 0.0) == Refusal("queued", 5.0)
    assert isinstance(share.submit(Kind.ANALYSIS, "b2", "10.0.0.2", 5.0, 0.0), Admitted)
    assert isinstance(share.submit(Kind.REVIEW, "ra", "10.0.0.1", 5.0, 0.0), Admitted)
    assert share.submit(Kind.REVIEW, "rb", "10.0.0.1", 5.0, 0.0).reason == "queued"  # type: ignore[union-attr]
    for number in range(20):  # moves are bounded by the address's games, not here
        admitted(share.submit(Kind.MOVE, f"m{number}", "10.0.0.1", 10.0, 0.0))
    own = Schedule(workers=2, budget=None)  # a pool without budgets has one owner: the room is all its own
    for number in range(10):
        admitted(own.submit(Kind.ANALYSIS, f"own{number}", "10.0.0.1", 10.0, 0.0))


def test_a_short_move_never_waits_for_long_work_from_anyone() -> None:
    schedule = Schedule(workers=2, budget=None)
    perfect = [admitted(schedule.submit(Kind.MOVE, f"p{i}", "10.0.0.1", 10.0, 0.0)) for i in range(10)]
    others = [admitted(schedule.submit(Kind.MOVE, f"q{i}", f"10.0.1.{i}", 10.0, 0.0)) for i in range(8)]
    reviews = [admitted(schedule.submit(Kind.REVIEW, f"r{i}", f"10.0.2.{i}", 60.0, 0.0)) for i in range(3)]
    first = schedule.take(0.0)
    assert first is not None and first.id == perfect[0]
    assert schedule.take(0.0) is None  # the second worker is kept for short moves
    club = admitted(schedule.submit(Kind.MOVE, "club", "10.0.9.9", 2.0, 0.0))
    unit = schedule.take(0.0)
    assert unit is not None and unit.id == club and unit.short
    schedule.finish(club, 0.02, 0.02)
    schedule.finish(first.id, 10.0, 10.0)
    # the addresses take turns across long and short moves: one of each other address before the
    # flooding address's second
    after = schedule.take(10.0)
    assert after is not None and after.id == others[0] and schedule.place(perfect[1]) == 8
    assert all(schedule.place(review) for review in reviews)  # reviews after every move
    assert Schedule(workers=1, budget=None).reserve == 0  # one worker: it runs everything in turn


def test_a_move_past_its_budget_waits_and_holds_up_no_other_address() -> None:
    budget = Budget(rate=1.0, burst=10.0)
    schedule = Schedule(workers=2, budget=budget, move_reserve=0)
    first = admitted(schedule.submit(Kind.MOVE, "game1", "10.0.0.1", 10.0, 0.0))
    assert schedule.take(0.0) is not None
    second = admitted(schedule.submit(Kind.MOVE, "game2", "10.0.0.1", 10.0, 1.0))  # not refused
    third = admitted(schedule.submit(Kind.MOVE, "game3", "10.0.0.1", 2.0, 1.0))
    other = admitted(schedule.submit(Kind.MOVE, "x", "10.0.0.2", 10.0, 1.0))
    # x's address was idle: its move joins the round being served, ahead of game1's address's next one
    assert schedule.standing(second, 1.0) == Standing(2, 9.0, 0.5)  # 1 s of the 10 regained
    assert schedule.standing(third, 1.0) == Standing(2, 11.0, 0.5)  # after its address's earlier move
    assert schedule.standing(other, 1.0) == Standing(1, 0.0, 0.25)  # a slice of the running move, on 2 workers
    assert schedule.counts()["waiting_budget"] == 2
    # meanwhile its address's hint is refused: what it has goes to its waiting moves first
    assert schedule.submit(Kind.ANALYSIS, "hint", "10.0.0.1", 4.0, 1.0) == Refusal("budget", 15.0)
    unit = schedule.take(1.0)
    assert unit is not None and unit.id == other  # the other address goes at once
    schedule.finish(first, 10.0, 1.0)  # its whole 10 s spent: 1 s in the bucket
    assert schedule.take(1.0) is None and schedule.next_payment(1.0) == 9.0
    unit = schedule.take(10.0)
    assert unit is not None and unit.id == second and schedule.level("10.0.0.1", 10.0) == 0.0
    assert schedule.standing(third, 10.0) == Standing(1, 2.0, 0.5)  # a slice each of the two running moves
    assert schedule.cancel(third) == Change(dropped=(third,)) and schedule.next_payment(10.0) is None
    assert schedule.level("10.0.0.1", 10.0) == 0.0  # nothing was held for it


def test_a_unit_whose_worker_died_waits_again_ahead_of_later_ones_until_its_tries_run_out() -> None:
    schedule = Schedule(workers=1, budget=Budget(rate=1.0, burst=20.0), max_tries=2)
    unit = admitted(schedule.submit(Kind.MOVE, "s", "10.0.0.1", 3.0, 0.0))
    later = admitted(schedule.submit(Kind.MOVE, "t", "10.0.0.1", 3.0, 0.0))
    assert schedule.take(0.0).id == unit  # type: ignore[union-attr]
    assert schedule.retry(unit, 0.0) and schedule.place(unit) == 1 and schedule.place(later) == 2
    assert schedule.take(0.0).id == unit  # type: ignore[union-attr]
    assert not schedule.retry(unit, 0.0) and schedule.place(unit) is None
    assert schedule.level("10.0.0.1", 0.0) == 14.0  # the failed unit's whole reservation is spent, later's held
    stopping = admitted(schedule.submit(Kind.MOVE, "u", "10.0.0.1", 1.0, 0.0))
    schedule.finish(later, 0.0, 0.0)
    schedule.take(0.0)
    schedule.cancel(stopping)
    assert not schedule.retry(stopping, 0.0)  # a unit being stopped is not run again


def test_idle_full_buckets_are_forgotten() -> None:
    schedule = Schedule(workers=1, budget=Budget(rate=1.0, burst=5.0))
    for number in range(256):
        unit = admitted(schedule.submit(Kind.MOVE, f"s{number}", f"10.1.{number}.1", 1.0, float(number)))
        schedule.cancel(unit)
    assert len(schedule._buckets) < 256


def test_bad_budgets_and_costs_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="rate must be a positive"):
        Budget(rate=0)
    with pytest.raises(ValueError, match="burst must be a positive"):
        Budget(burst=float("inf"))
    with pytest.raises(ValueError, match="cost must be"):
        Schedule(workers=1).submit(Kind.MOVE, "s", "10.0.0.1", float("nan"), 0.0)
    with pytest.raises(ValueError, match="at least one worker"):
        Schedule(workers=0)


def test_between_slices_a_waiting_move_goes_first_and_addresses_take_turns_slice_by_slice() -> None:
    schedule = Schedule(workers=1, budget=None)
    board = admitted(schedule.submit(Kind.ANALYSIS, "board", "10.0.0.1", 160, 0.0))
    review = admitted(schedule.submit(Kind.REVIEW, "review", "10.0.0.3", 50, 0.0))
    assert taken(schedule) == board
    other = admitted(schedule.submit(Kind.ANALYSIS, "other", "10.0.0.2", 40, 0.0))
    move = admitted(schedule.submit(Kind.MOVE, "perfect", "10.0.0.4", 10, 0.0))
    assert schedule.pause(board, 0.5, 1.0)  # its slice ended: the long analysis waits again
    assert schedule.places() == {move: 1, other: 2, board: 3, review: 4}
    assert taken(schedule) == move
    schedule.finish(move, 1.0, 2.0)
    served = []
    for step in range(4):  # the two addresses' analyses alternate, slice by slice
        unit = taken(schedule)
        served.append(unit)
        assert schedule.pause(unit, 0.5, 3.0 + step)
    assert served == [other, board, other, board]
    assert schedule.unit(board) is not None and schedule.unit(board).slices == 3  # type: ignore[union-attr]


def test_the_work_ahead_counts_a_slice_of_each_unit_of_its_kind_and_the_whole_of_those_that_go_first() -> None:
    schedule = Schedule(workers=2, budget=None)  # one worker kept for short moves: long work on the other
    running = admitted(schedule.submit(Kind.ANALYSIS, "running", "10.0.0.1", 160, 0.0))
    assert taken(schedule) == running
    boards = [admitted(schedule.submit(Kind.ANALYSIS, f"b{n}", f"10.0.1.{n}", 5, 0.0)) for n in range(3)]
    move = admitted(schedule.submit(Kind.MOVE, "perfect", "10.0.0.9", 10, 0.0))
    review = admitted(schedule.submit(Kind.REVIEW, "review", "10.0.0.8", 30, 0.0))
    standings = schedule.standings(0.0)
    assert standings[running] == Standing(0)
    assert standings[move].ahead == pytest.approx(0.5)  # the running analysis's slice
    assert [standings[board].ahead for board in boards] == pytest.approx([10.5, 11.0, 11.5])  # the move, then slices
    assert standings[review].ahead == pytest.approx(0.5 + 10 + 15)
    assert [standings[unit].place for unit in (move, *boards, review)] == [1, 2, 3, 4, 5]


def test_an_idle_addresss_move_joins_the_round_being_served_and_then_takes_its_turns() -> None:
    """Start-time fair queuing: four addresses' perfect games take turns slice by slice; an expert move
    of a fifth address that was idle joins the round being served, its first slice ahead of the others'
    next ones in it (not after a whole round), and its next slice comes after one of each of the others."""
    schedule = Schedule(workers=1, budget=None)
    perfect = [admitted(schedule.submit(Kind.MOVE, f"p{n}", f"10.0.2.{n}", 10, 0.0)) for n in range(4)]
    for _ in range(6):  # a round and a half of slices: p0 and p1 have had their second, p2 and p3 not
        schedule.pause(taken(schedule), 0.5, 0.0)
    expert = admitted(schedule.submit(Kind.MOVE, "expert", "10.0.9.9", 3, 0.0))

    def until_expert() -> list[int]:
        served = []
        while (unit := taken(schedule)) != expert:
            served.append(unit)
            schedule.pause(unit, 0.5, 0.0)
        schedule.pause(expert, 0.5, 0.0)
        return served

    assert until_expert() == []  # its first slice at once, ahead of p2's and p3's second
    assert sorted(until_expert()) == perfect  # one slice of each between its two


def test_a_move_waiting_for_a_worker_ends_the_background_slices_it_needs_once() -> None:
    """Two workers, one kept for short moves: a review runs on the other. A long move asks the review
    to end its slice, once; the review's slice ends (``pause``) and the move takes its worker. A short
    move takes the kept worker without asking anything; with both workers busy, it asks too."""
    schedule = Schedule(workers=2, budget=None)
    review = admitted(schedule.submit(Kind.REVIEW, "review", "10.0.0.1", 60, 0.0))
    assert taken(schedule) == review
    assert schedule.yields() == ()  # nothing waits
    club = admitted(schedule.submit(Kind.MOVE, "club", "10.0.0.2", 2, 0.0))
    assert schedule.yields() == ()  # the kept worker is free for it
    assert taken(schedule) == club
    expert = admitted(schedule.submit(Kind.MOVE, "expert", "10.0.0.3", 3, 0.0))
    assert schedule.yields() == (review,)
    assert schedule.yields() == ()  # asked once
    assert schedule.take(0.0) is None
    assert schedule.pause(review, 0.1, 0.0)
    assert schedule.yields() == ()  # the review waits; the expert move waits for the club move's worker only
    schedule.finish(club, 0.02, 0.0)
    assert taken(schedule) == expert
    second = admitted(schedule.submit(Kind.MOVE, "club2", "10.0.0.4", 2, 0.0))
    assert schedule.yields() == ()  # a move holds the other worker: moves take turns, never yield
    assert taken(schedule) == second
    schedule.finish(expert, 1.0, 0.0)
    schedule.finish(second, 0.0, 0.0)
    assert taken(schedule) == review  # its next slice, from where it ended


def test_a_busy_pool_ends_reviews_before_analyses_and_the_latest_first() -> None:
    schedule = Schedule(workers=4, budget=None, move_reserve=1)
    review = admitted(schedule.submit(Kind.REVIEW, "review", "10.0.0.1", 60, 0.0))
    first = admitted(schedule.submit(Kind.ANALYSIS, "a1", "10.0.0.2", 60, 0.0))
    second = admitted(schedule.submit(Kind.ANALYSIS, "a2", "10.0.0.3", 60, 0.0))
    for now, unit in enumerate((first, second, review)):
        assert schedule.take(float(now)) is not None and schedule.unit(unit).state is UnitState.RUNNING  # type: ignore[union-attr]
    moves = [admitted(schedule.submit(Kind.MOVE, f"m{n}", f"10.0.1.{n}", 10, 0.0)) for n in range(2)]
    assert schedule.yields() == (review, second)  # two long moves need two workers and the kept one free
    assert schedule.unit(first).state is UnitState.RUNNING and moves  # type: ignore[union-attr]


def taken(schedule: Schedule) -> int:
    unit = schedule.take(0.0)
    assert unit is not None
    return unit.id


def test_a_unit_stopped_mid_slice_ends_with_it_and_its_address_pays_every_slice() -> None:
    budget = Budget(rate=1e-6, burst=100.0)
    schedule = Schedule(workers=1, budget=budget)
    review = admitted(schedule.submit(Kind.REVIEW, "review", "10.0.0.1", 30, 0.0))
    assert schedule.level("10.0.0.1", 0.0) == pytest.approx(70)  # its most, reserved
    for _ in range(3):
        assert taken(schedule) == review and schedule.pause(review, 0.5, 0.0)
    assert taken(schedule) == review
    assert schedule.cancel(review) == Change(stopping=(review,))
    assert not schedule.pause(review, 0.5, 0.0)  # the slice answers; the unit ends there
    assert schedule.unit(review) is None and schedule.take(0.0) is None
    assert schedule.level("10.0.0.1", 0.0) == pytest.approx(98)  # four slices of 0.5 s paid, the rest back


def test_a_par_comes_after_every_other_kind_costs_no_budget_and_runs_one_at_a_time() -> None:
    """A par is the pool's own work: after moves, analyses and reviews, paid from no address's bucket
    (its 600 s would not fit a burst of 120), one running however many workers are free, and the
    first background unit asked to end its slice for a waiting move."""
    schedule = Schedule(workers=4, budget=Budget(rate=1.0, burst=100.0), move_reserve=0)
    first = admitted(schedule.submit(Kind.PAR, "par:a", "10.0.0.1", 600, 0.0))
    second = admitted(schedule.submit(Kind.PAR, "par:b", "10.0.0.2", 600, 0.0))
    review = admitted(schedule.submit(Kind.REVIEW, "review", "10.0.0.1", 30, 0.0))
    assert schedule.level("10.0.0.1", 0.0) == pytest.approx(70)  # the review's 30 s; the par's 600 none
    assert taken(schedule) == review
    assert taken(schedule) == first
    assert schedule.take(0.0) is None  # two workers free, but one par runs already
    assert schedule.counts()["waiting_par"] == 1
    move = admitted(schedule.submit(Kind.MOVE, "game", "10.0.0.3", 5, 0.0))
    assert taken(schedule) == move
    late = admitted(schedule.submit(Kind.MOVE, "other", "10.0.0.4", 5, 0.0))
    assert taken(schedule) == late  # the fourth worker
    third = admitted(schedule.submit(Kind.MOVE, "third", "10.0.0.5", 5, 0.0))
    assert schedule.yields() == (first,)  # the par ends its slice before the review does
    assert schedule.yields() == ()  # asked once
    assert schedule.pause(first, 0.5, 0.0)
    assert taken(schedule) == third
    assert schedule.finish(review, 10.0, 0.0) is not None
    assert taken(schedule) == second  # the paused par's next slice waits for the turn after it
    assert schedule.finish(second, 300.0, 0.0) is not None
    assert schedule.level("10.0.0.2", 0.0) == pytest.approx(100)  # its 300 s paid by no address
    assert schedule.level("10.0.0.1", 0.0) == pytest.approx(90)  # the review's 10 s
    admitted(schedule.submit(Kind.PAR, "par:c", "10.0.0.1", 600, 0.0))
    refused = schedule.submit(Kind.PAR, "par:d", "10.0.0.1", 600, 0.0)
    assert isinstance(refused, Refusal) and refused.reason == "queued"  # two of the address's wait


def test_a_running_par_ends_its_slice_for_an_analysis_and_a_review_ends_none_for_it() -> None:
    schedule = Schedule(workers=2, budget=None)  # one worker kept for short moves: one long unit runs
    par = admitted(schedule.submit(Kind.PAR, "par:a", "10.0.0.1", 4000, 0.0))
    assert taken(schedule) == par
    analysis = admitted(schedule.submit(Kind.ANALYSIS, "board", "10.0.0.2", 5, 0.0))
    assert schedule.take(0.0) is None  # the kept worker is for short moves
    assert schedule.yields() == (par,)
    assert schedule.pause(par, 4.0, 0.0)
    assert taken(schedule) == analysis
    review = admitted(schedule.submit(Kind.REVIEW, "review", "10.0.0.3", 30, 0.0))
    assert schedule.yields() == ()  # an analysis does not stand aside for a review
    schedule.finish(analysis, 1.0, 0.0)
    assert taken(schedule) == review  # before the par's next slice
    assert schedule.unit(par) is not None and schedule.unit(par).state is UnitState.WAITING


operations = st.lists(
    st.tuples(
        st.sampled_from(["submit", "take", "finish", "pause", "cancel", "retry", "seat", "yields"]),
        st.integers(0, 5),
        st.sampled_from(list(Kind)),
        st.floats(0, 12),
    ),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(operations)
def test_the_invariants_hold_whatever_happens(steps: list[tuple[str, int, Kind, float]]) -> None:
    budget = Budget(rate=1.0, burst=10.0)
    schedule = Schedule(workers=2, budget=budget, max_waiting=4)
    now = 0.0
    for action, number, kind, amount in steps:
        now += 0.5
        seat, address = f"seat{number % 4}", f"10.0.0.{number % 2}"
        units = list(schedule._units)
        if action == "submit":
            answer = schedule.submit(kind, seat, address, amount, now, plain=number % 2 == 0)
            assert kind is not Kind.MOVE or not isinstance(answer, Refusal) or answer.reason != "budget"
        elif action == "take":
            schedule.take(now, plain_only=number == 0)
        elif action == "seat":
            schedule.cancel_seat(seat)
        elif action == "yields":
            for asked in schedule.yields():
                unit = schedule.unit(asked)
                assert unit is not None and unit.kind is not Kind.MOVE and unit.state is UnitState.RUNNING
                waiting_for = (Kind.MOVE,) if unit.kind is not Kind.PAR else (Kind.MOVE, Kind.ANALYSIS, Kind.REVIEW)
                assert any(
                    other.kind in waiting_for and other.state is UnitState.WAITING for other in schedule._units.values()
                )
        elif units and action == "finish":
            schedule.finish(units[number % len(units)], amount, now)
        elif units and action == "pause":
            schedule.pause(units[number % len(units)], amount, now)
        elif units and action == "cancel":
            schedule.cancel(units[number % len(units)])
        elif units:
            schedule.retry(units[number % len(units)], now)
        live = list(schedule._units.values())
        assert sum(unit.state is not UnitState.WAITING for unit in live) <= schedule.workers
        for seat_name in {unit.seat for unit in live}:
            mine = [unit for unit in live if unit.seat == seat_name]
            assert sum(unit.state is UnitState.WAITING for unit in mine) <= 1
            assert sum(unit.state is not UnitState.WAITING for unit in mine) <= 1
        waiting = [unit for unit in live if unit.state is UnitState.WAITING]
        for each in Kind:
            mine = [unit for unit in waiting if unit.kind is each]
            assert len(mine) <= schedule.max_waiting
            bound = schedule.per_network[each]
            assert bound is None or all(sum(u.address == k for u in mine) <= bound for k in {u.address for u in mine})
        assert all(unit.paid or (unit.kind is Kind.MOVE and unit in waiting) for unit in live)
        long_running = sum(unit.state is not UnitState.WAITING and not unit.short for unit in live)
        assert long_running <= schedule.workers - schedule.reserve
        pars = [unit for unit in live if unit.kind is Kind.PAR]
        assert sum(unit.state is not UnitState.WAITING for unit in pars) <= PARS_RUNNING
        assert all(unit.reserved == 0 for unit in pars)
        for key in {unit.address for unit in live}:
            level = schedule.level(key, now)
            assert level is not None and level <= budget.burst
        places = schedule.places()
        paid = sum(unit.paid for unit in waiting)
        assert sorted(places[unit.id] for unit in waiting if unit.paid) == list(range(1, paid + 1))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4), st.booleans()), min_size=1, max_size=40),
    st.integers(0, 40),
    st.lists(st.integers(0, 3), max_size=80),
)
def test_a_short_move_waits_for_at_most_two_short_units_of_each_other_address(
    others: list[tuple[int, bool]], when: int, finishing: list[int]
) -> None:
    """However other addresses mix long and short moves, and whichever running unit ends first, a
    short move submitted at any point starts after at most two short units of each other address
    (the turn being served and the next), and never later than a worker is free for it."""
    schedule = Schedule(workers=2, budget=None)
    victim: int | None = None
    started_after: list[str] = []
    pending = list(others)
    picks = iter(finishing)
    for step in range(len(others) + 200):
        if step == min(when, len(others)) and victim is None:
            victim = admitted(schedule.submit(Kind.MOVE, "victim", "10.9.9.9", 2.0, float(step)))
        if pending:
            address, long = pending.pop(0)
            schedule.submit(Kind.MOVE, f"s{step}", f"10.0.0.{address}", 10.0 if long else 1.0, float(step))
        while (unit := schedule.take(float(step))) is not None:
            if unit.id == victim:
                counted = [name for name in started_after if name != "long"]
                assert all(counted.count(name) <= 2 for name in set(counted)), counted
                return
            if victim is not None:
                started_after.append(unit.address if unit.short else "long")
        running = [unit for unit in schedule._units.values() if unit.state is not UnitState.WAITING]
        assert sum(not unit.short for unit in running) < schedule.workers  # one worker is kept
        if victim is not None:  # a short move waits only while no worker may take it
            assert (
                len(running) == schedule.workers or schedule.place(victim) != 1 or any(unit.short for unit in running)
            )
        if running:
            ending = running[next(picks, 0) % len(running)]
            schedule.finish(ending.id, 0.0, float(step))
    raise AssertionError("the victim's move never started")
