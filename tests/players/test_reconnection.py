"""The Dask pool's reconnection, its pure core (``battle.players.pool.reconnection``) driven with explicit
times: the back-off between tries, what ``/stats`` and a refusal say, and a unit whose whole cluster
went away waiting again without spending a try (``Schedule.retry(counted=False)``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from battle.players.pool.reconnection import ANSWER_SECONDS, LONGEST_DELAY, ClusterLink, ClusterState
from battle.players.pool.schedule import Admitted, Kind, Schedule


def waits_between_tries(link: ClusterLink, now: float, tries: int) -> list[float]:
    """The seconds from each failed try to the next, ``tries`` of them in a row, each try made when due."""
    waits = []
    for _ in range(tries):
        now = link.next_try
        assert link.due(now)
        link.failed(now)
        waits.append(link.next_try - now)
    return waits


def test_a_lost_scheduler_is_tried_after_1_s_then_2_4_8_16_and_every_30_s() -> None:
    link = ClusterLink()
    assert link.lose(100.0)
    assert link.next_try == 101.0 and not link.due(100.5) and link.due(101.0)
    assert waits_between_tries(link, 100.0, 7) == [2.0, 4.0, 8.0, 16.0, 30.0, 30.0, 30.0]


def test_a_scheduler_back_is_connected_and_the_next_loss_starts_the_back_off_again() -> None:
    link = ClusterLink()
    link.lose(10.0)
    waits_between_tries(link, 10.0, 4)
    assert link.regain(50.0) == 40.0
    assert link.connected and not link.due(60.0) and link.wait(60.0) == 0.0
    assert link.lose(70.0) and link.next_try == 71.0
    assert waits_between_tries(link, 70.0, 1) == [2.0]


def test_a_loss_noticed_twice_is_news_once() -> None:
    link = ClusterLink()
    assert link.lose(5.0)
    assert not link.lose(5.2)  # the connection's close and the look at the cluster's size, both
    assert link.next_try == 6.0


def test_stats_and_refusals_say_the_wait_for_the_next_try() -> None:
    link = ClusterLink()
    assert link.state(0.0) == ClusterState(True) and link.state(0.0).text() == "connected"
    link.lose(20.0)
    assert link.state(20.2).text() == "reconnecting next_try_in=1"
    assert link.retry_after(20.5) == 0.5 + ANSWER_SECONDS
    assert link.state(21.5).text() == "reconnecting next_try_in=0"  # due, or a try runs
    link.failed(22.0)
    assert link.state(22.0) == ClusterState(False, 2.0)


@given(st.lists(st.floats(min_value=0.0, max_value=100.0), max_size=30))
def test_tries_come_at_most_30_s_apart_and_never_sooner_than_the_one_before(lateness: list[float]) -> None:
    """However late each try runs (a try that takes long, a busy machine), the wait after it grows
    and stays within ``LONGEST_DELAY``."""
    link = ClusterLink()
    link.lose(0.0)
    previous = 1.0
    for late in lateness:
        now = link.next_try + late
        link.failed(now)
        wait = link.next_try - now
        assert previous - 1e-9 <= wait <= LONGEST_DELAY + 1e-9  # times are floats
        previous = wait


def test_a_unit_whose_cluster_went_away_waits_again_without_spending_a_try() -> None:
    schedule = Schedule(workers=1, budget=None, max_tries=2)
    unit = schedule.submit(Kind.MOVE, "s", "10.0.0.1", 3.0, 0.0)
    assert isinstance(unit, Admitted)
    for _ in range(5):  # five outages in a row: the unit waits after each
        assert schedule.take(0.0) is not None
        assert schedule.retry(unit.unit, 0.0, counted=False)
    assert schedule.unit(unit.unit).tries == 0  # type: ignore[union-attr]
    assert schedule.take(0.0) is not None
    assert schedule.retry(unit.unit, 0.0)  # a worker that died counts: one try of two
    assert schedule.take(0.0) is not None
    assert not schedule.retry(unit.unit, 0.0)  # the second, and the unit ends
