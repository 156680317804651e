"""The solver pool's pure core (``battle.players.pool_schedule``): order, seats, kept workers, budgets,
retries and places, driven with explicit times."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battle.players.pool_schedule import (
    Admitted,
    Budget,
    Change,
    Kind,
    Refusal,
    Schedule,
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


def test_the_queue_is_bounded_and_refuses_with_an_estimate() -> None:
    schedule = Schedule(workers=2, budget=None, max_waiting=3)
    for seat in "abc":
        admitted(schedule.submit(Kind.REVIEW, seat, "10.0.0.1", 10.0, 0.0))
    assert schedule.submit(Kind.MOVE, "d", "10.0.0.2", 1.0, 0.0) == Refusal("busy", 15.0)
    assert isinstance(schedule.submit(Kind.REVIEW, "a", "10.0.0.1", 10.0, 0.0), Admitted)  # a replacement fits


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


operations = st.lists(
    st.tuples(
        st.sampled_from(["submit", "take", "finish", "cancel", "retry", "seat"]),
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
    schedule = Schedule(workers=2, budget=budget, max_waiting=8)
    now = 0.0
    for action, number, kind, amount in steps:
        now += 0.5
        seat, address = f"seat{number % 4}", f"10.0.0.{number % 2}"
        units = list(schedule._units)
        if action == "submit":
            schedule.submit(kind, seat, address, amount, now, plain=number % 2 == 0)
        elif action == "take":
            schedule.take(now, plain_only=number == 0)
        elif action == "seat":
            schedule.cancel_seat(seat)
        elif units and action == "finish":
            schedule.finish(units[number % len(units)], amount, now)
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
        assert sum(unit.state is UnitState.WAITING for unit in live) <= schedule.max_waiting
        for key in {unit.address for unit in live}:
            level = schedule.level(key, now)
            assert level is not None and level <= budget.burst
        places = schedule.places()
        assert sorted(place for place in places.values() if place) == list(range(1, len(schedule.order()) + 1))
