"""The solver pool on a real Dask ``LocalCluster`` of two worker processes, as a server with
``--solver-scheduler tcp://...`` runs it: a worker killed mid-search (the search is retried and
answers), the order of the work and a running search stopped on the cluster; and on a ``dask
scheduler`` and a ``dask worker`` process stopped mid-search and started again on the same port (the
search answers once they are back, work asked meanwhile is refused with the wait)."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from battle.players import Advisor, Limits
from battle.players.pool.jobs import AnalysisJob, AnalysisResult, MoveResult, ReviewResult, position_data
from battle.players.pool.schedule import Refusal
from battle.rules.board import move_name
from tests.online_server import ROOT
from tests.players.conftest import (
    WAIT,
    club_move,
    endless_analysis,
    greedy_down,
    short_review,
    started,
    submit,
    wait_until_searching,
)
from tests.players.dask_processes import DaskProcesses

pytest.importorskip("distributed")

from battle.players.pool.dask_cluster import DaskPool, running_units  # noqa: E402 - needs Dask


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=40
    ) as local:
        yield local


@pytest.fixture
def pool(cluster: Any) -> Iterator[DaskPool]:  # noqa: ANN401 - a dask LocalCluster
    cluster.wait_for_workers(2, timeout=WAIT)  # a worker an earlier test killed is back: its nanny restarts it
    with DaskPool(cluster.scheduler_address, budget=None) as opened:
        yield opened


def worker_running(pool: DaskPool) -> str:
    """The address of the worker that runs a unit now (a bounded wait)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        holders = [address for address, units in pool.client.run(running_units).items() if units]
        if holders:
            return holders[0]
        time.sleep(0.05)
    raise AssertionError("no worker ran the unit")


NODES = 8_000_000
"""The killed search's budget: twice what a cold table proves it in, and more."""


@pytest.mark.hands_processes_to("cluster")  # the killed worker's replacement
def test_a_worker_killed_mid_search_is_retried_and_the_search_answers(pool: DaskPool) -> None:
    position = greedy_down(11, 72)
    # proved in 1.9 million nodes on a cold table; the slices before the kill spend up to that many
    # again on the lost one, so the budget covers both wherever the kill lands
    job = AnalysisJob(position_data(position), every_move=False, nodes=NODES)
    ticket = started(submit(pool, job, "killed"))
    holder = worker_running(pool)
    pid = pool.client.run(os.getpid, workers=[holder])[holder]
    wait_until_searching(pid)
    os.kill(pid, signal.SIGKILL)
    result = ticket.result(WAIT)
    assert isinstance(result, AnalysisResult)
    expected = Advisor(megabytes=64).search(position, Limits(nodes=NODES))
    assert expected.exact and result.exact  # the slices before the kill and after it, on another table
    assert (result.value, set(result.best_moves)) == (expected.value, {move_name(move) for move in expected.best_moves})
    assert pid not in pool.client.run(os.getpid).values()
    assert isinstance(submit(pool, club_move(), "the game goes on").result(WAIT), MoveResult)


def test_on_the_cluster_a_move_goes_before_reviews_and_a_running_search_is_stopped(pool: DaskPool) -> None:
    blocker = started(submit(pool, endless_analysis(), "blocker"))
    reviews = [submit(pool, short_review(number), f"review {number}", "10.0.0.2") for number in (3, 4)]
    move = submit(pool, club_move(), "move", "10.0.0.3")
    assert isinstance(move.result(WAIT), MoveResult)  # on the worker kept for moves
    assert [review.place() for review in reviews] == [1, 2]  # the other worker still searches
    blocker.cancel()  # a message to the workers stops the search; the reviews follow
    assert all(isinstance(review.result(WAIT), ReviewResult) for review in reviews)
    assert blocker.future.cancelled()
    assert pool.client.run(running_units) == {address: [] for address in pool.client.nthreads()}


def test_an_unreachable_scheduler_is_an_oserror_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    from battle.players.pool import dask_cluster

    with socket.socket() as probe:  # a port nobody listens on: taken, then given back
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(dask_cluster, "CONNECT_SECONDS", 1)
    with pytest.raises(OSError, match=f"tcp://127.0.0.1:{port}") as refused:
        DaskPool(f"tcp://127.0.0.1:{port}")
    assert "\n" not in str(refused.value)


def test_a_stop_meant_for_another_pools_unit_never_skips_this_ones(cluster: Any) -> None:  # noqa: ANN401
    """A cluster outlives a pool (a server started again) and may serve two; each counts its units from 1."""
    from battle.players.pool import dask_cluster

    with DaskPool(cluster.scheduler_address, budget=None) as first, DaskPool(cluster.scheduler_address) as second:
        assert first.token(1) != second.token(1)
        assert not dask_cluster.stop_unit(first.token(1))  # not running here: its unit is skipped when it comes
        skipped = dask_cluster.run_unit(first.token(1), club_move(), 32)
        answered = dask_cluster.run_unit(second.token(1), club_move(), 32)
    assert skipped == (None, None, 0.0)
    assert isinstance(answered[0], MoveResult) and answered[1] is None


def test_a_slice_told_to_end_before_it_came_is_answered_at_once_and_its_next_slice_runs(
    cluster: Any,  # noqa: ANN401 - a dask LocalCluster
) -> None:
    """A waiting move asks a background slice to end; the worker it goes to may not have taken it up
    yet (a fresh worker loads its kernels first): it answers that slice when it comes, with the unit's
    progress as it was, so the move waits for no slice; the unit's next slice is searched."""
    from battle.players.pool import dask_cluster
    from battle.players.pool.jobs import Continued

    with DaskPool(cluster.scheduler_address, budget=None) as pool:
        unit = pool.token(1)
        assert not dask_cluster.end_slice(unit, 1)  # not running here
        assert dask_cluster.run_unit(unit, club_move(), 32, None, 1) == (Continued(None), None, 0.0)
        answered = dask_cluster.run_unit(unit, club_move(), 32, None, 2)
        again = dask_cluster.run_unit(unit, club_move(), 32, None, 1)  # the record is spent once
    assert isinstance(answered[0], MoveResult) and answered[1] is None
    assert isinstance(again[0], MoveResult)


def test_open_pool_with_a_scheduler_runs_on_the_cluster(cluster: Any) -> None:  # noqa: ANN401
    from battle.players.pool.opening import open_pool

    cluster.wait_for_workers(2, timeout=WAIT)
    with open_pool(cluster.scheduler_address) as pool:
        assert isinstance(pool, DaskPool) and pool.stats()["workers"] == 2
        assert isinstance(submit(pool, club_move(), "opened").result(WAIT), MoveResult)


# -- a scheduler that goes away and comes back -------------------------------------------------


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[DaskProcesses]:
    with DaskProcesses(tmp_path / "dask") as cluster:
        yield cluster


def wait_for_cluster(pool: DaskPool, connected: bool) -> None:
    deadline = time.monotonic() + WAIT
    while pool.cluster().connected != connected:
        assert time.monotonic() < deadline, f"the pool's cluster never became connected={connected}"
        time.sleep(0.05)


class Kept(logging.Handler):
    """Keeps the records a logger handles (Dask's loggers hand theirs to no parent, so ``caplog`` misses them)."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def logged() -> Iterator[Kept]:
    """What the pool and Dask log, as a server's log gets it."""
    kept = Kept()
    loggers = [logging.getLogger(name) for name in ("mahjong-battle.solver-pool", "distributed")]
    for logger in loggers:
        logger.addHandler(kept)
    try:
        yield kept
    finally:
        for logger in loggers:
            logger.removeHandler(kept)


def test_a_search_in_flight_when_the_scheduler_goes_away_answers_once_it_is_back(
    processes: DaskProcesses, logged: Kept
) -> None:
    with DaskPool(processes.address, budget=None) as pool:
        position = greedy_down(11, 72)
        ticket = started(submit(pool, AnalysisJob(position_data(position), every_move=False, nodes=3_000_000), "a"))
        wait_until_searching(processes.worker_pids[0])
        processes.stop()
        wait_for_cluster(pool, connected=False)
        assert pool.cluster().text().startswith("reconnecting next_try_in=")
        assert pool.stats() == {
            "waiting_move": 0,
            "waiting_analysis": 1,
            "waiting_review": 0,
            "waiting_par": 0,
            "waiting_budget": 0,
            "running": 0,
            "slices_yielded": 0,
            "workers": 0,
        }
        refusal = pool.submit(club_move(), seat="b", address="10.0.0.2")
        assert isinstance(refusal, Refusal) and refusal.reason == "unavailable"
        assert 1.0 <= refusal.retry_after <= 2.0  # the first try is a second after the loss
        processes.start()  # the same port
        assert isinstance(ticket.result(WAIT), AnalysisResult)
        assert pool.cluster().text() == "connected"
        assert isinstance(submit(pool, club_move(), "b", "10.0.0.2").result(WAIT), MoveResult)
    lines = [record.getMessage() for record in logged.records if record.name == "mahjong-battle.solver-pool"]
    assert lines[0].startswith(f"the solver cluster at {processes.address} does not answer"), lines
    assert any(line.startswith(f"the solver cluster at {processes.address} answers again after") for line in lines)
    # the scheduler may answer before its worker has joined it again: said, and its return said too
    others = [line for line in lines[1:] if "answers again" not in line]
    assert others in ([], [f"the solver cluster at {processes.address} has no workers; its searches wait for one"]) or (
        len(others) == 2 and others[1].endswith("has 1 worker threads again")
    ), lines
    noise = [f"{record.name}: {record.getMessage()}" for record in logged.records if record.exc_info]
    assert not noise, f"tracebacks in the log: {noise}"


def test_a_pool_whose_scheduler_is_away_closes_at_once(processes: DaskProcesses) -> None:
    pool = DaskPool(processes.address, budget=None)
    waiting = submit(pool, club_move(), "waits")
    processes.stop()
    wait_for_cluster(pool, connected=False)
    begun = time.monotonic()
    pool.close()
    assert time.monotonic() - begun < 10.0  # at most one try to connect runs out
    assert waiting.future.cancelled() or waiting.future.done()


def wait_for_workers(pool: DaskPool, workers: int) -> None:
    deadline = time.monotonic() + WAIT
    while pool.cluster().workers != workers:
        assert time.monotonic() < deadline, f"the pool's cluster never had {workers} worker threads: {pool.cluster()}"
        time.sleep(0.05)


def test_workers_started_as_the_docs_say_come_back_with_their_scheduler(tmp_path: Path, logged: Kept) -> None:
    """``python -m battle.players.pool.dask_worker_keeper`` (docs/solver-pool.md's command) starts ``dask worker``
    again when it ends, as it does when its scheduler goes away; until a worker is there, the pool says
    so: ``/stats``' ``connected no_workers``, 0 workers, and work refused as unavailable."""
    scheduler = DaskProcesses(tmp_path / "dask", workers=0).start()
    supervisor = None
    try:
        with DaskPool(scheduler.address, budget=None) as pool:
            assert pool.cluster().text() == "connected no_workers" and pool.stats()["workers"] == 0
            refusal = pool.submit(club_move(), seat="early", address="10.0.0.1")
            assert isinstance(refusal, Refusal) and refusal.reason == "unavailable" and refusal.retry_after >= 1
            worker_options = ["--host", "127.0.0.1", "--nthreads", "1", "--no-nanny", "--no-dashboard"]
            worker_options += ["--local-directory", str(tmp_path / "scratch")]
            supervisor = subprocess.Popen(
                [sys.executable, "-m", "battle.players.pool.dask_worker_keeper", scheduler.address, *worker_options],
                stdout=subprocess.DEVNULL,
                stderr=(tmp_path / "dask_worker_keeper.log").open("wb"),
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                start_new_session=True,
            )
            wait_for_workers(pool, 1)
            assert isinstance(submit(pool, club_move(), "before").result(WAIT), MoveResult)
            scheduler.stop()  # its worker ends, and is started again to wait for the scheduler
            wait_for_cluster(pool, connected=False)
            scheduler.start()  # the same port
            wait_for_cluster(pool, connected=True)
            wait_for_workers(pool, 1)
            assert pool.cluster().text() == "connected"
            assert isinstance(submit(pool, club_move(), "after").result(WAIT), MoveResult)
        assert supervisor.poll() is None  # it stays, for the next time
        said = (tmp_path / "dask_worker_keeper.log").read_text(errors="replace")
        assert f"the solver's dask worker for {scheduler.address} ended" in said
    finally:
        if supervisor is not None and supervisor.poll() is None:
            supervisor.send_signal(signal.SIGTERM)  # it ends its worker and itself
            assert supervisor.wait(WAIT) == 0
        scheduler.stop()
    lines = [record.getMessage() for record in logged.records if record.name == "mahjong-battle.solver-pool"]
    assert f"the solver cluster at {scheduler.address} has 1 worker threads again" in lines, lines
