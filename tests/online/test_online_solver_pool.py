"""The server's solver work through its pool, seen through a real ``serve`` with one worker: a
player's waiting move goes before an analysis's next depth, the move's place in the queue is
told, a move asked before the worker has taken up a par's slice ends that slice, an analysis stops
with its connection, and an address whose solver time is spent is refused with the seconds until
it may ask again."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from battle.rules.deal import deal
from battle.rules.notation import format_position
from tests.online_server import Client, ServerProcess, a_legal_move

WAIT = 60.0


def analysing(server: ServerProcess, number: int = 4) -> Client:
    """A connection analysing the start of deal ``number`` (far from exact: it deepens for long)."""
    analyst = Client(server.url)
    analyst.send({"type": "analyse", "id": "big", "position": format_position(deal(number))})
    while analyst.expect("solver_queue", WAIT)["place"] != 0:
        pass  # waiting, then running: the worker is busy with it
    return analyst


HELD_ANALYSIS = """
import sys
if "--multiprocessing-fork" in sys.argv:  # a solver worker: an analysis's slice waits while the test holds it
    import os, time
    from battle.players.pool import unit_search

    run = unit_search.PoolServices.run

    def held_run(self, job, **kwargs):
        if type(job).__name__ == "AnalysisJob":
            given_up = time.monotonic() + 120.0
            while os.path.exists({hold!r}) and time.monotonic() < given_up:
                time.sleep(0.01)
        return run(self, job, **kwargs)

    unit_search.PoolServices.run = held_run
"""
"""In the solver's worker: an analysis's slice starts only once the file ``hold`` is gone, so the
worker holds the analysis (running) for as long as the test wants, whatever the machine's load."""


def test_a_waiting_move_is_told_its_place_in_the_queue_and_is_played(tmp_path: Path) -> None:
    """A move asks the analysis's running slice to end, and it waits behind it meanwhile. The worker
    holds the analysis until the move has been told its place (``HELD_ANALYSIS``): left to itself, an
    analysis between two depths leaves the worker free for a moment, and a move that came then was
    never queued (its first place told was 0; once in eight runs beside two busy loops)."""
    hold = tmp_path / "hold-the-analysis"
    hold.touch()
    with ServerProcess(tmp_path, "--solver-workers", "1", prelude=HELD_ANALYSIS.format(hold=str(hold))) as server:
        analyst = analysing(server)
        player = Client(server.url)
        player.send({"type": "solver_game", "level": "beginner", "deal": {"number": 3}, "first": "creator"})
        state = player.expect("state", WAIT)
        player.send({"type": "move", "move": a_legal_move(state), "id": "m1"})
        try:
            assert player.expect("solver_queue", WAIT)["place"] == 1  # behind the analysis's running slice
        finally:
            hold.unlink()
        places: list[Any] = []
        while True:
            message = player.read(WAIT)
            if message["type"] == "solver_queue":
                places.append(message["place"])
            if message["type"] == "moved" and message["ply"] == 2:
                break
        assert set(places) <= {0, None}  # then the solver thinks (if a look at the queue comes meanwhile) and plays
        player.close()
        analyst.close()


YIELD_BEFORE_THE_PAR = """
import sys
if "--multiprocessing-fork" in sys.argv:  # a solver worker: it takes a par up only once a yield for it came
    import queue, threading, time
    from multiprocessing.connection import Connection

    handled = threading.Event()
    last = [None]
    recv, get = Connection.recv, queue.Queue.get

    def recv_noting_yields(self):
        if last[0] == "yield":
            handled.set()  # the listening thread reads again: it has done what the yield asked
        message = recv(self)
        last[0] = message[0]
        return message

    def endless_par(self, job, progress, slicing):
        from battle.players.pool.jobs import Continued, SearchProgress

        while not (slicing.cancelled() or slicing.yielded()):
            time.sleep(0.01)
        return Continued(progress or SearchProgress())

    def par_taken_up_late(self, *args, **kwargs):
        item = get(self, *args, **kwargs)
        if isinstance(item, (tuple, list)) and len(item) >= 3 and type(item[1]).__name__ == "ParJob":
            from battle.players.pool.unit_search import PoolServices

            PoolServices._par = endless_par
            handled.wait(60.0)
            handled.clear()
        return item

    Connection.recv, queue.Queue.get = recv_noting_yields, par_taken_up_late
"""
"""In the solver's workers: the thread of long units takes a par's slice up only after the worker has
read the yield a waiting move sent for it (as a niceness-10 thread on a busy machine may: a reload
test of the web pages found a beginner's move waiting 20 s behind a par), and a par's slice ends only
when it is told to (its real one ends after 10 CPU seconds, which a test would wait for). The unit
thread's queue item is taken apart loosely: a tuple or a list whose second element is the job."""


def test_a_move_asked_before_the_worker_takes_up_a_pars_slice_ends_that_slice(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--solver-workers", "1", prelude=YIELD_BEFORE_THE_PAR) as server:
        deadline = time.monotonic() + WAIT
        while server.stats()["solver_workers_ready"] != "1":  # a par waits for the kernels
            assert time.monotonic() < deadline, server.stats()
            time.sleep(0.2)
        player = Client(server.url)
        player.send({"type": "solver_game", "level": "beginner", "deal": {"number": 3}, "first": "creator"})
        state = player.expect("state", WAIT)
        player.send({"type": "par"})  # deal 3 is in no catalogue: its par goes to the only worker
        assert player.expect("par_result", WAIT)["place"] == 0
        player.send({"type": "move", "move": a_legal_move(state), "id": "m1"})
        while (message := player.read(WAIT))["type"] != "moved" or message["ply"] != 2:
            pass  # the par's slice ends before it began, and the solver answers
        player.close()


STEPS_OF_A_MINUTE = (
    "import battle.online.server.solving.analysis_boards as boards; boards.ANALYSIS_STEP_NODES = 60_000_000"
)
"""Each depth of an analysis searches up to 60 M nodes (a minute): a closed connection's is stopped, not finished."""


def test_an_analysis_stops_with_its_connection(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--solver-workers", "1", prelude=STEPS_OF_A_MINUTE) as server:
        analyst = Client(server.url)
        analyst.send({"type": "analyse", "id": "big", "position": format_position(deal(6))})
        while (message := analyst.read(WAIT))["type"] != "analysis_result" or message["evaluation"]["depth"] < 8:
            pass  # the quick depths are done: the next searches for up to a minute
        assert server.stats()["solver_running"] == "1"
        analyst.close()
        deadline = time.monotonic() + 30.0  # half the step's limit: only a stop ends it so soon
        while server.stats()["solver_running"] != "0" or server.stats()["solver_waiting_analysis"] != "0":
            assert time.monotonic() < deadline, server.stats()
            time.sleep(0.2)


SMALL_STEPS = "import battle.online.server.solving.analysis_boards as boards; boards.ANALYSIS_STEP_NODES = 20_000\n"
"""An analysis board's steps of 20,000 nodes: the test's budget is spent in a few of them, not in one
of 5 M nodes, which a long unit's thread (niceness 10) beside busy loops takes minutes over."""


def test_an_address_with_its_solver_time_spent_is_told_when_to_ask_again(tmp_path: Path) -> None:
    flags = ("--solver-workers", "1", "--solver-budget", "0.2")
    with ServerProcess(tmp_path, *flags, prelude=SMALL_STEPS) as server:
        analyst = Client(server.url)
        analyst.send({"type": "analyse", "id": "big", "position": format_position(deal(4))})
        refused = analyst.expect("solver_refused", WAIT)
        assert refused["what"] == "analysis" and refused["code"] == "budget"
        assert refused["retry_after"] >= 0.1  # never "again in 0 s"
        analyst.close()


def test_the_budget_and_its_refill_are_the_operators_and_stats_shows_them(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--solver-workers", "1", "--solver-budget", "45", "--solver-refill", "0.5") as server:
        shown = server.stats()
        assert shown["solver_budget_seconds"] == "45" and shown["solver_refill_per_second"] == "0.5", shown
    with ServerProcess(tmp_path / "default", "--solver-workers", "1") as server:
        shown = server.stats()
        assert shown["solver_budget_seconds"] == "120" and shown["solver_refill_per_second"] == "0.166667", shown
