"""The solver pool on real worker processes (``battle.players.pool.local_workers``): priorities, seats,
cancellation, budgets and a killed worker on one worker; the answers against the Advisor, the
Reviewer and ``mahjong-battle analyse`` on two."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

import pytest

from battle.players import Advisor, Limits, Opponent, Reviewer
from battle.players.pool.jobs import (
    AnalysisJob,
    AnalysisResult,
    DeepeningJob,
    HintJob,
    MoveJob,
    MoveResult,
    ParJob,
    ReviewJob,
    ReviewResult,
    position_data,
)
from battle.players.pool.local_workers import LocalPool
from battle.players.pool.queue import PoolError
from battle.players.pool.schedule import Budget, Refusal
from battle.rules.board import biggest_pair, move_name, parse_move
from battle.rules.deal import deal
from tests.loop_apart import run_apart
from tests.players.conftest import (
    DATA,
    WAIT,
    club_move,
    data_position,
    endless_analysis,
    greedy_down,
    short_review,
    started,
    submit,
    wait_until_searching,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def one_worker() -> Iterator[LocalPool]:
    with LocalPool(1, budget=None) as pool:
        yield pool


@pytest.fixture
def single(one_worker: LocalPool) -> Iterator[LocalPool]:
    """One worker: what it runs is in the order the pool gives. What a test leaves (it failed
    half-way) is cancelled after it, so the next test finds the worker free."""
    yield one_worker
    for ticket in one_worker.standings():
        ticket.cancel()


@pytest.fixture(scope="module")
def pair() -> Iterator[LocalPool]:
    with LocalPool(2, budget=None) as pool:
        assert pool.wait_ready(WAIT)
        yield pool


# -- order, seats and cancellation on one worker --------------------------------------------------


def test_a_move_submitted_after_reviews_is_served_first(single: LocalPool) -> None:
    blocker = started(submit(single, endless_analysis(), "blocker"))
    reviews = [submit(single, short_review(number), f"review {number}", "10.0.0.2") for number in (3, 4)]
    move = submit(single, club_move(), "move", "10.0.0.3")
    finished: list[str] = []
    for name, ticket in (("review 3", reviews[0]), ("review 4", reviews[1]), ("move", move)):
        ticket.future.add_done_callback(lambda _, name=name: finished.append(name))
    # the blocker is asked to end its slice for the move at once: the move comes next (1) or already
    # runs (0), the blocker's next slice (an analysis) waiting ahead of the reviews
    places = [move.place(), reviews[0].place(), reviews[1].place()]
    assert places in ([1, 2, 3], [0, 2, 3]), places
    blocker.cancel()  # the worker's search is stopped; the move goes next
    assert isinstance(move.result(WAIT), MoveResult)
    assert all(isinstance(review.result(WAIT), ReviewResult) for review in reviews)
    assert finished == ["move", "review 3", "review 4"]
    assert blocker.future.cancelled() and blocker.place() is None


def test_a_cancelled_queued_unit_never_runs_and_a_running_one_is_stopped_not_killed(single: LocalPool) -> None:
    pid = single.worker_pids()[0]
    running = started(submit(single, endless_analysis(), "running"))
    queued = submit(single, endless_analysis(2), "queued")
    assert queued.place() == 1
    queued.cancel()
    assert queued.future.cancelled() and queued.place() is None
    running.cancel()
    assert running.future.cancelled()
    after = submit(single, club_move(), "after")
    assert isinstance(after.result(WAIT), MoveResult)  # within WAIT: the 300 s search was stopped
    assert not queued.started.is_set()
    assert single.worker_pids() == [pid]  # the solver's stop, not a new process


def test_a_seats_new_request_replaces_its_old_one(single: LocalPool) -> None:
    old = started(submit(single, endless_analysis(), "seat"))
    waiting = submit(single, endless_analysis(2), "seat")  # replaces the running one (stopped)
    assert old.future.cancelled()
    newest = submit(single, club_move(), "seat")  # replaces the waiting one, or stops it if it started
    assert waiting.future.cancelled()  # the old one's stop takes milliseconds: the second may have started
    assert isinstance(newest.result(WAIT), MoveResult)


def test_a_closed_connections_seats_are_cancelled(single: LocalPool) -> None:
    running = started(submit(single, endless_analysis(), "connection 7/analysis"))
    waiting = submit(single, short_review(), "connection 7/review")
    for seat in ("connection 7/analysis", "connection 7/review"):
        single.cancel_seat(seat)
    assert running.future.cancelled() and waiting.future.cancelled()
    assert isinstance(submit(single, club_move(), "another").result(WAIT), MoveResult)


def test_cancelling_the_awaited_future_cancels_the_unit(single: LocalPool) -> None:
    """What a server does when the connection that waits for a search closes: its task is cancelled."""
    ticket = started(submit(single, endless_analysis(), "awaited"))

    async def wait_then_leave() -> None:
        waiting = asyncio.ensure_future(asyncio.wrap_future(ticket.future))
        await asyncio.sleep(0)
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting

    run_apart(wait_then_leave())
    assert ticket.future.cancelled() and ticket.place() is None
    assert isinstance(submit(single, club_move(), "next").result(WAIT), MoveResult)


@pytest.mark.hands_processes_to("one_worker")  # the killed worker's replacement
def test_a_worker_killed_mid_search_is_replaced_and_the_search_answers(single: LocalPool) -> None:
    position = greedy_down(11, 72)
    job = AnalysisJob(position_data(position), every_move=False, nodes=3_000_000)
    ticket = started(submit(single, job, "killed"))
    pid = single.worker_pids()[0]
    assert pid is not None
    wait_until_searching(pid)
    os.kill(pid, signal.SIGKILL)
    result = ticket.result(WAIT)
    assert single.worker_pids()[0] not in (None, pid)
    assert isinstance(result, AnalysisResult)
    expected = Advisor(megabytes=64).search(position, Limits(nodes=3_000_000))  # proved in 1.9 million nodes
    assert expected.exact and result.exact  # the slices before the kill and after it, on another table
    assert (result.value, set(result.best_moves)) == (expected.value, {move_name(move) for move in expected.best_moves})


def test_a_par_runs_in_slices_to_the_exact_value_or_ends_unproved_at_its_nodes(single: LocalPool) -> None:
    position = greedy_down(11, 72)  # proved in 0.49 million nodes: five slices
    found = submit(single, ParJob(position_data(position), slice_nodes=100_000), "par:a", "10.0.0.9").result(WAIT)
    expected = Advisor(megabytes=64).search(position, Limits(nodes=3_000_000))
    assert isinstance(found, AnalysisResult) and found.exact and expected.exact
    assert (found.value, set(found.best_moves)) == (expected.value, {move_name(move) for move in expected.best_moves})
    cut = submit(single, ParJob(position_data(greedy_down(13, 72)), nodes=600_000), "par:b", "10.0.0.9")  # 1.8 M
    short = cut.result(WAIT)
    assert isinstance(short, AnalysisResult) and not short.exact  # its nodes spent before the proof


def test_an_address_whose_budget_is_spent_is_refused_with_the_seconds_to_wait() -> None:
    now = [1000.0]
    with LocalPool(1, budget=Budget(rate=0.5, burst=10.0), clock=lambda: now[0]) as pool:
        blocker = submit(pool, endless_analysis(), "blocker", "203.0.113.7")  # another address's 300 s
        job = AnalysisJob(position_data(data_position("endgame-deal-5")), seconds=8.0)
        first = submit(pool, job, "first", "2001:db8:5:5::1")  # waits behind the blocker, holding its 8 s
        assert pool.budget_left("2001:db8:5:5::99") == 2.0
        assert pool.submit(job, seat="second", address="2001:db8:5:5:abcd::2") == Refusal("budget", 12.0)
        assert isinstance(pool.submit(job, seat="third", address="2001:db8:5:6::1"), type(first))  # another /64
        now[0] += 12.0
        second = pool.submit(job, seat="second", address="2001:db8:5:5::2")
        assert not isinstance(second, Refusal)
        blocker.cancel()
        assert isinstance(first.result(WAIT), AnalysisResult) and isinstance(second.result(WAIT), AnalysisResult)
        assert first.cpu_seconds > 0
    assert pool.submit(job, seat="late", address="10.0.0.1") == Refusal("closed", 0.0)


def test_a_move_past_its_budget_waits_for_its_bucket_and_starts_beside_a_running_search() -> None:
    with LocalPool(2, budget=Budget(rate=1.0, burst=2.0)) as pool:
        assert pool.wait_ready(WAIT)
        holder = submit(pool, endless_analysis(), "board", "10.0.0.1")  # holds the whole 2 s
        move = submit(pool, club_move(), "game", "10.0.0.1")  # not refused: it waits for 2 s of budget
        standing = move.standing()
        assert standing is not None and standing.place == 1 and 1.0 < standing.wait <= 2.0
        other = submit(pool, club_move(3), "other", "10.0.0.2")  # another address's goes at once
        assert isinstance(other.result(WAIT), MoveResult)  # not held up by the move that waits to be paid
        assert move.place() in (0, 1)  # 0 once its 1-2 s wait is over, on a machine slow to answer the other
        # nothing ends meanwhile: the pool's own timer starts the move once its bucket pays
        assert isinstance(move.result(WAIT), MoveResult) and holder.place() == 0
        holder.cancel()


def busiest_thread_niceness(pid: int) -> int:
    """The niceness of the thread of process ``pid`` that has used the most CPU (``/proc/PID/task``)."""
    threads = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        threads.append((int(fields[11]) + int(fields[12]), int(fields[16])))
    return max(threads)[1]


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own niceness is Linux's")
def test_a_long_search_runs_at_a_lower_priority_than_a_short_move() -> None:
    from battle.players.pool.local_workers import LONG_NICENESS

    with LocalPool(1, budget=None) as pool:
        assert pool.wait_ready(WAIT)
        pid = pool.worker_pids()[0]
        assert pid is not None
        long = submit(pool, endless_analysis(), "long")
        wait_until_searching(pid, 1.0)
        assert busiest_thread_niceness(pid) == os.getpriority(os.PRIO_PROCESS, pid) + LONG_NICENESS
        long.cancel()
        assert isinstance(submit(pool, club_move(), "short").result(WAIT), MoveResult)  # the other thread's


def resident_kib_of_mappings(pid: int, size_kib: int) -> list[int]:
    """The resident KiB of each of process ``pid``'s mappings of ``size_kib`` (``/proc/PID/smaps``)."""
    found, size = [], 0
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name == "Size":
            size = int(rest.split()[0])
        elif name == "Rss" and size == size_kib:
            found.append(int(rest.split()[0]))
    return found


@pytest.mark.skipif(sys.platform != "linux", reason="/proc/PID/smaps is Linux's")
def test_a_ready_worker_holds_its_whole_table_before_its_first_search(pair: LocalPool) -> None:
    from battle.players.pool.jobs import DEFAULT_WORKER_MEGABYTES

    for pid in pair.worker_pids():
        assert pid is not None
        table = DEFAULT_WORKER_MEGABYTES * 1024
        # written at start: a first move does not pay the system's zeroing of its pages (up to 0.13 s)
        assert table in resident_kib_of_mappings(pid, table), resident_kib_of_mappings(pid, table)


def test_a_deepening_analysis_whose_budget_runs_out_answers_with_its_deepest_step() -> None:
    now = [0.0]
    with LocalPool(1, budget=Budget(rate=0.5, burst=3.0), clock=lambda: now[0]) as pool:
        blocker = started(submit(pool, endless_analysis(), "blocker", "203.0.113.7"))
        position = data_position("midgame-deal-9-ply-25")
        steps: list[AnalysisResult] = []
        job = DeepeningJob(position_data(position), depths=(1, 2, None), nodes=2_000_000)
        deepening = pool.submit(job, seat="board", address="10.0.0.1", on_progress=steps.append)
        assert not isinstance(deepening, Refusal)
        # the same address's next question holds the last second: after the first step has paid
        # for its CPU, less than the 2 s of the next one is left
        waiting = submit(pool, AnalysisJob(position_data(position), seconds=1.0), "eval")
        blocker.cancel()
        final = deepening.result(WAIT)
        assert isinstance(final, AnalysisResult) and final.depth == 1 and steps == []
        refusal = deepening.refusal
        assert refusal is not None and refusal.reason == "budget" and refusal.retry_after > 0
        assert isinstance(waiting.result(WAIT), AnalysisResult)


def test_the_watchdog_stops_a_unit_far_past_its_limit_and_kills_a_worker_that_does_not_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from battle.players.pool import local_workers

    monkeypatch.setattr(local_workers, "WATCHDOG_FACTOR", 0.0)  # a slice is overdue at 0.05 s of its worker's CPU
    monkeypatch.setattr(local_workers, "WATCHDOG_SLACK", 0.05)  # (a slice of 0.5 s: the look each second finds one)
    monkeypatch.setattr(local_workers, "STOP_GRACE", 1.0)
    monkeypatch.setattr(local_workers, "BLOCKED_SECONDS", 1.0)  # a stopped worker uses no CPU: blocked after 1 s
    with LocalPool(1, budget=None) as pool:
        assert pool.wait_ready(WAIT)
        ticket = submit(pool, endless_analysis(), "overdue")
        overdue = ticket.result(WAIT)  # stopped: it answers from what it has
        assert isinstance(overdue, AnalysisResult) and not overdue.exact
        # at a look of the watchdog's own clock, not after hundreds of slices (each dispatch wakes it)
        assert ticket.cpu_seconds < 30
        hung = started(submit(pool, endless_analysis(2), "hung"))
        pid = pool.worker_pids()[0]
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)  # a worker that cannot answer its stop
        with pytest.raises(PoolError, match="did not stop at its limit"):
            hung.result(WAIT)
        assert isinstance(submit(pool, club_move(), "after").result(WAIT), MoveResult)
        assert pool.worker_pids()[0] not in (None, pid)


def test_a_unit_on_a_worker_starved_of_the_cpu_ends_by_its_own_limit_not_the_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The watchdog counts the worker's CPU seconds: a node-limited analysis on a worker that gets a
    core one part in sixteen (stopped 0.45 s, let run 0.03 s, by signals) takes many times its
    allowance of wall clock, and still runs to its node limit, on the same worker; so does a 2-move
    game's review, slice by slice."""
    from battle.players.pool import local_workers

    monkeypatch.setattr(local_workers, "WATCHDOG_FACTOR", 0.0)
    monkeypatch.setattr(local_workers, "WATCHDOG_SLACK", 2.0)  # 2 CPU seconds, several times the unit's
    nodes = 200_000
    with LocalPool(1, budget=None) as pool:
        assert pool.wait_ready(WAIT)
        pid = pool.worker_pids()[0]
        assert pid is not None
        done = threading.Event()

        def throttle() -> None:
            while not done.is_set():
                os.kill(pid, signal.SIGSTOP)
                done.wait(0.45)
                os.kill(pid, signal.SIGCONT)
                done.wait(0.03)

        throttling = threading.Thread(target=throttle, daemon=True)
        throttling.start()
        try:
            job = AnalysisJob(position_data(deal(1)), every_move=False, nodes=nodes)  # far from exact
            starved = submit(pool, job, "starved").result(WAIT * 4)
            start = deal(1)
            first = biggest_pair(start)
            after = start.copy()
            after.push(first)
            two_moves = (move_name(first), move_name(biggest_pair(after)))
            review_job = ReviewJob(position_data(start), two_moves, seconds_per_move=0.1)  # a 2-move game's review
            reviewed = submit(pool, review_job, "review").result(WAIT * 4)
        finally:
            done.set()
            throttling.join()
            os.kill(pid, signal.SIGCONT)
        assert isinstance(starved, AnalysisResult) and starved.nodes >= nodes
        assert isinstance(reviewed, ReviewResult) and len(reviewed.report["moves"]) == 2
        assert pool.worker_pids()[0] == pid  # not killed


def test_open_pool_without_a_scheduler_starts_worker_processes_here() -> None:
    from battle.players.pool.opening import open_pool

    with open_pool(workers=1, budget=Budget(rate=1.0, burst=30.0)) as pool:
        assert isinstance(pool, LocalPool) and pool.stats()["workers"] == 1
        assert isinstance(submit(pool, club_move(), "opened").result(WAIT), MoveResult)
        assert pool.budget_left("10.0.0.1") is not None


def test_bad_jobs_are_refused_before_anything_is_queued() -> None:
    start = position_data(deal_start := greedy_down(3, 24))
    with pytest.raises(ValueError, match="unknown level 'grandmaster'"):
        MoveJob(start, "grandmaster", 1)
    with pytest.raises(ValueError, match="needs a time or a node limit"):
        AnalysisJob(start)
    with pytest.raises(ValueError, match="at most 600 seconds"):
        AnalysisJob(start, seconds=601)
    with pytest.raises(ValueError, match="game is over"):
        MoveJob(position_data(data_position("deal-3-finished")), "club", 1)
    with pytest.raises(ValueError, match=r"move 1 \('a1-a2'\)"):
        short_review().__class__(start, ("a1-a2",))
    with pytest.raises(ValueError, match="kinds|cells|tile"):
        HintJob(((99,) * 108, 1, (0, 0)))
    with pytest.raises(ValueError, match="'xx' is not a tile"):
        position_data("to-move: 1\nscore: 0 0\n" + "xx " * 12)
    assert deal_start.tiles_left() == 24


# -- the answers on two workers -------------------------------------------------------------------


VALUE_POSITIONS = [
    "endgame-deal-5",
    "three-free-copies",
    "same-column-pairs",
    "midgame-deal-9-ply-25",
    "n040_s500004",
    "n056_s500011",
]


def test_analyses_equal_the_advisors_on_known_positions(pair: LocalPool) -> None:
    tickets = {
        name: submit(pair, AnalysisJob(position_data(data_position(name)), seconds=120), name)
        for name in VALUE_POSITIONS
    }
    for name, ticket in tickets.items():
        position = data_position(name)
        result = ticket.result(WAIT)
        expected = AnalysisResult.of(position, Advisor(megabytes=32).search(position, all_exact=True))
        assert isinstance(result, AnalysisResult) and result.exact, name
        assert (result.value, result.best_moves, result.moves, result.final_score) == (
            expected.value,
            expected.best_moves,
            expected.moves,
            expected.final_score,
        ), name
        assert result.pv[0] in result.best_moves


def test_every_solver_test_positions_value_and_best_moves_equal_the_known_ones(pair: LocalPool) -> None:
    known = [json.loads(line) for line in (DATA / "solver" / "known_values.jsonl").read_text().splitlines()]
    known = [entry for entry in known if entry["tiles_left"] <= 56]
    tickets = [
        submit(pair, AnalysisJob(position_data(data_position(entry["id"])), every_move=False, seconds=60), entry["id"])
        for entry in known
    ]
    for entry, ticket in zip(known, tickets, strict=True):
        result = ticket.result(WAIT)
        assert isinstance(result, AnalysisResult) and result.exact
        assert (result.value, sorted(result.best_moves)) == (entry["value"], sorted(entry["best_moves"])), entry["id"]


def test_an_analysis_equals_mahjong_battle_analyse(pair: LocalPool) -> None:
    path = DATA / "positions" / "midgame-deal-9-ply-25.mbp"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "battle", "analyse", str(path), "--json", "--quiet"],
        capture_output=True,
        text=True,
        env=env,
        timeout=WAIT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    printed = json.loads(done.stdout)
    result = submit(pair, AnalysisJob(position_data(path.read_text()), seconds=120), "analyse").result(WAIT)
    assert isinstance(result, AnalysisResult)
    assert (result.value, result.exact) == (printed["value"], printed["exact"])
    assert (list(result.best_moves), list(result.final_score)) == (printed["best_moves"], printed["final_score"])
    assert [asdict(value) for value in result.moves] == printed["moves"]


def test_a_hint_is_the_windows_hint(pair: LocalPool) -> None:
    position = data_position("n056_s500011")
    result = submit(pair, HintJob(position_data(position)), "hint").result(WAIT)
    expected = Opponent(megabytes=32).hint(position)
    assert isinstance(result, AnalysisResult) and result.exact and expected.exact
    assert (result.value, set(result.best_moves)) == (expected.value, {move_name(m) for m in expected.best_moves})


def test_a_deepening_analysis_reports_each_depth_and_ends_exact(pair: LocalPool) -> None:
    position = greedy_down(8, 44)
    steps: list[AnalysisResult] = []
    job = DeepeningJob(position_data(position), depths=(1, 2, None), nodes=60_000_000)
    ticket = pair.submit(job, seat="board", address="10.0.0.1", on_progress=steps.append)
    assert not isinstance(ticket, Refusal)
    final = ticket.result(WAIT)
    assert [step.depth for step in steps] == [1, 2] and not any(step.exact for step in steps)
    expected = AnalysisResult.of(position, Advisor(megabytes=32).search(position, all_exact=True))
    assert isinstance(final, AnalysisResult) and final.exact and final.moves == expected.moves
    assert ticket.refusal is None


def test_a_review_equals_the_reviewers(pair: LocalPool) -> None:
    job = short_review(5, tiles=30, moves=6)
    result = submit(pair, job, "review").result(WAIT)
    expected = Reviewer(megabytes=64).review(job.game(), seconds=job.seconds_per_move).to_json()
    assert isinstance(result, ReviewResult)

    def grades(report: dict) -> list[tuple]:
        return [
            (m["move"], m["value"], m["best_value"], m["best_moves"], m["class"], m["exact"]) for m in report["moves"]
        ]

    assert grades(dict(result.report)) == grades(dict(expected))
    assert result.report["summary"] == expected["summary"] and result.report["eval"] == expected["eval"]


def test_a_level_move_is_the_opponents_with_the_same_seed(pair: LocalPool) -> None:
    position = greedy_down(6, 60)
    for level in ("beginner", "club", "expert"):
        result = submit(pair, MoveJob(position_data(position), level, 42), f"move {level}").result(WAIT)
        expected = Opponent(megabytes=64).move(position, level=level, rng=random.Random(42))
        assert isinstance(result, MoveResult) and parse_move(result.move) == expected, level
        assert not result.plain


def test_a_failing_unit_fails_its_ticket_in_one_line(pair: LocalPool) -> None:
    job = AnalysisJob(position_data(greedy_down(6, 60)), seconds=5)
    object.__setattr__(job, "position", ((99,) * 108, 1, (0, 0)))  # past the check, as a bug would be
    with pytest.raises(PoolError, match="^PositionError: ") as failure:
        submit(pair, job, "broken").result(WAIT)
    assert "\n" not in str(failure.value)
    assert isinstance(submit(pair, club_move(), "fine").result(WAIT), MoveResult)


def test_a_deep_levels_move_waits_a_slice_for_a_strangers_long_analysis_not_its_end(pair: LocalPool) -> None:
    """A long unit holds a worker one slice at a time: a master's move asked while another address's
    analysis of a whole deal (up to 300 s) runs on the worker long units may use is answered between
    two of its slices (the running slice is told to end at once), and the analysis goes on afterwards."""
    board = started(submit(pair, endless_analysis(), "board", "10.0.0.1"))
    yielded = pair.stats()["slices_yielded"]
    move = submit(pair, MoveJob(position_data(deal(5)), "master", 7), "game", "10.0.0.2")
    assert pair.stats()["slices_yielded"] == yielded + 1  # the board's slice, running as the move came
    assert isinstance(move.result(WAIT), MoveResult)
    assert not board.future.done() and board.place() in (0, 1)
    board.cancel()
    assert board.future.cancelled()
