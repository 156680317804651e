"""The one background-search worker every screen uses: real engines, real threads.

What a window relies on: a search runs off its thread and can be polled; a
cancel ends the running search within a second and its answer is never
delivered; a newer task replaces an older one; a stop meant for one task never
cuts the next one short; a broken engine is reported, not lost; shutdown ends
the thread.
"""

from __future__ import annotations

import threading
import time

import pytest

from battle.search_worker import SearchWorker, Task
from solver.engine import Engine
from solver.limits import Limits
from solver.results import Analysis, Progress
from tests.solver.solver_cases import BIG, DATA, assert_usable, known_values, load

SMALL = DATA / "n024_s500001.mbp"


def poll_until_done(worker: SearchWorker, timeout: float) -> Task:
    deadline = time.monotonic() + timeout
    while True:
        task = worker.poll()
        if task is not None:
            return task
        assert time.monotonic() < deadline, "the task did not finish"
        time.sleep(0.01)


@pytest.fixture(scope="module")
def worker() -> SearchWorker:
    """One warmed-up worker for the module, so the kernels load (or compile) once."""
    worker = SearchWorker(lambda: Engine(table_bits=18), name="test")
    worker.search(load(SMALL), all_exact=True)
    poll_until_done(worker, timeout=300)
    yield worker
    worker.shutdown()
    assert worker.wait_idle(5)


def test_a_search_with_a_time_limit_reports_progress(worker: SearchWorker) -> None:
    position = load(BIG)
    task = worker.search(position, Limits(time=0.3))
    assert worker.busy and task.label == "search" and task.key == position.key()
    done = poll_until_done(worker, timeout=10)
    assert done is task and not worker.busy
    analysis = task.result()
    assert isinstance(analysis, Analysis)
    assert_usable(position, analysis)
    assert isinstance(task.progress, Progress)
    assert worker.poll() is None  # collected once


def test_an_exact_search_gives_the_known_value(worker: SearchWorker) -> None:
    row = known_values()[0]
    task = worker.search(load(DATA / f"{row['id']}.mbp"))
    poll_until_done(worker, timeout=60)
    analysis = task.result()
    assert analysis is not None and (analysis.exact, analysis.value) == (True, row["value"])


def test_cancel_ends_the_running_search_at_once_and_drops_its_answer(worker: SearchWorker) -> None:
    task = worker.search(load(BIG))  # exact: minutes, unless stopped
    deadline = time.monotonic() + 10
    while task.started_at is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    time.sleep(0.2)
    assert not task.finished
    started = time.monotonic()
    worker.cancel()
    assert not worker.busy and worker.poll() is None
    assert worker.wait_idle(5)
    assert time.monotonic() - started < 1.0
    assert task.finished and task.cancelled.is_set()


def test_a_newer_task_replaces_the_older_and_inherits_no_stop(worker: SearchWorker) -> None:
    """The stop that ends the first task must not cut the second short: its depth-8 search completes."""
    first = worker.search(load(BIG))
    second = worker.search(load(BIG), Limits(depth=8), all_exact=True)
    assert first.cancelled.is_set() and not second.cancelled.is_set()
    assert poll_until_done(worker, timeout=60) is second
    analysis = second.result()
    assert analysis is not None and analysis.depth == 8
    assert first.finished  # stopped, and its answer was never handed out


def test_a_task_cancelled_before_it_starts_never_runs(worker: SearchWorker) -> None:
    ran = threading.Event()
    gate = threading.Event()
    blocker = worker.submit(lambda engine, task: gate.wait(10), label="block")
    waiting = worker.submit(lambda engine, task: ran.set(), label="never")
    assert blocker.cancelled.is_set()
    worker.cancel()
    gate.set()
    assert worker.wait_idle(5)
    assert waiting.finished and not ran.is_set() and waiting.result() is None


def test_an_error_in_a_task_reaches_the_caller(worker: SearchWorker) -> None:
    def broken(engine: Engine, task: Task) -> None:
        raise ZeroDivisionError("a solver bug")

    task = worker.submit(broken)
    assert poll_until_done(worker, timeout=5) is task
    assert isinstance(task.error, ZeroDivisionError)


def test_an_engine_that_cannot_be_built_fails_every_task_with_its_reason() -> None:
    def no_engine() -> Engine:
        raise MemoryError("no room for the table")

    worker = SearchWorker(no_engine, name="broken")
    task = worker.submit(lambda engine, task: 1)
    done = poll_until_done(worker, timeout=5)
    assert done is task and isinstance(task.error, MemoryError) and not worker.ready
    assert isinstance(worker.engine_error, MemoryError)
    worker.shutdown()
    assert worker.wait_idle(5)


def warmed_up(name: str) -> SearchWorker:
    """A worker whose engine is built (its thread waits for tasks)."""
    worker = SearchWorker(lambda: Engine(table_bits=16), name=name)
    worker.warm_up()
    deadline = time.monotonic() + 60
    while not worker.ready:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    return worker


def test_shutdown_ends_the_thread_and_refuses_new_tasks() -> None:
    worker = warmed_up("short-lived")
    thread = next(t for t in threading.enumerate() if t.name == "short-lived")
    worker.shutdown()
    thread.join(5)
    assert not thread.is_alive()
    with pytest.raises(RuntimeError, match="shut down"):
        worker.submit(lambda engine, task: None)


def test_an_idle_worker_sleeps() -> None:
    """Between tasks the thread waits on a condition: no CPU time while idle."""
    worker = warmed_up("idle")
    before = time.process_time()
    time.sleep(0.5)
    used = time.process_time() - before
    worker.shutdown()
    assert used < 0.1
