"""One solver pool for several processes (``battle.players.pool.sharing``): a real ``LocalPool`` with
one worker served on a real Unix socket, used by clients in processes of their own
(``tests/players/pool_client_driver.py``), and by raw sockets that send what no client would."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from battle.players.pool.client import PoolClient
from battle.players.pool.front import PoolFront
from battle.players.pool.jobs import (
    AnalysisJob,
    AnalysisResult,
    DeepeningJob,
    HintJob,
    Job,
    MoveJob,
    MoveResult,
    ReviewResult,
)
from battle.players.pool.local_workers import LocalPool
from battle.players.pool.queue import PoolError
from battle.players.pool.schedule import Budget, Refusal, Standing
from battle.players.pool.sharing import PoolService, serve_pool
from battle.players.pool.wire import MAX_FRAME, decode_result, encode, encode_tagged, frame, read_frame
from tests.loop_apart import run_apart
from tests.players.conftest import WAIT, data_position, endless_analysis, greedy_down, short_review, submit

ROOT = Path(__file__).resolve().parents[2]
BUDGET = Budget(rate=1e-6, burst=20.0)
"""Next to no refill (a millionth of a second a second): what an address spent is not back within any
test's life, however slowly a loaded machine runs the test (at 0.01 a second, a job that took 3 s of
wall time for 0.02 s of CPU was back to the full 20 s before the test read it)."""


@contextlib.contextmanager
def listening_at(path: Path) -> Iterator[socket.socket]:
    """A Unix socket listening at ``path`` for one client: a service of the test's own making, which
    answers (or does not) as no real one would."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(str(path))
        listener.listen(1)
        yield listener


class Driver:
    """A client process: ``PoolClient`` in ``pool_client_driver``, one command a line."""

    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.players.pool_client_driver", str(path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert self._read() == {"ready": True}

    def ask(self, **command: Any) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        return self._read()

    def submit(self, name: str, job: Job, address: str, seat: str | None = None) -> Any:
        answer = self.ask(do="submit", name=name, job=encode_tagged(job), seat=seat or name, address=address)
        return answer["refusal"]

    def result(self, name: str) -> dict[str, Any]:
        return self.ask(do="result", name=name)

    def _read(self) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, f"the client process ended (exit code {self.process.poll()})"
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        assert self.process.wait(WAIT) == 0
        assert self.process.stdout is not None
        self.process.stdout.close()

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(WAIT)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


@pytest.fixture
def clients() -> Iterator[Callable[[Path], Driver]]:
    """Starts client processes; kills any a failed test left running."""
    started: list[Driver] = []

    def start(path: Path) -> Driver:
        started.append(Driver(path))
        return started[-1]

    yield start
    for driver in started:
        if driver.process.poll() is None:
            driver.kill()


@pytest.fixture(scope="module")
def pool() -> Iterator[LocalPool]:
    with LocalPool(1, budget=BUDGET) as pool:
        assert pool.wait_ready(WAIT)
        yield pool


@pytest.fixture
def service(pool: LocalPool, tmp_path: Path) -> Iterator[PoolService]:
    with serve_pool(pool, tmp_path / "pool.sock") as service:
        yield service
    assert service.clients() == 0


def until(condition: Any, what: str) -> None:
    """Return once ``condition()`` holds; fail after ``WAIT`` seconds."""
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def idle(pool: LocalPool) -> bool:
    counts = pool.stats()
    return counts["running"] == 0 and counts["waiting_analysis"] == 0 and counts["waiting_move"] == 0


# -- the same answers ---------------------------------------------------------------------------------


def test_answers_through_the_service_equal_the_pools_own(
    pool: LocalPool, service: PoolService, clients: Callable[[Path], Driver]
) -> None:
    jobs: dict[str, Job] = {
        "move": MoveJob(greedy_down(6, 60).key(), "beginner", 42),
        "analysis": AnalysisJob(data_position("endgame-deal-5").key(), seconds=10),
        "review": short_review(5, tiles=30, moves=3),
    }
    client = clients(service.path)
    try:
        for number, (name, job) in enumerate(jobs.items()):
            assert client.submit(name, job, f"192.0.2.{number}") is None
        through = {name: decode_result(client.result(name)["result"]) for name in jobs}
    finally:
        client.close()
    direct = {
        name: submit(pool, job, name, f"192.0.3.{number}").result(WAIT)
        for number, (name, job) in enumerate(jobs.items())
    }
    assert isinstance(through["move"], MoveResult) and through["move"] == direct["move"]
    analysis, expected = through["analysis"], direct["analysis"]
    assert isinstance(analysis, AnalysisResult) and isinstance(expected, AnalysisResult) and analysis.exact
    assert (analysis.value, analysis.best_moves, analysis.moves, analysis.final_score) == (
        expected.value,
        expected.best_moves,
        expected.moves,
        expected.final_score,
    )
    review, expected_review = through["review"], direct["review"]
    assert isinstance(review, ReviewResult) and isinstance(expected_review, ReviewResult)
    assert review.report["summary"] == expected_review.report["summary"]
    assert [move["value"] for move in review.report["moves"]] == [m["value"] for m in expected_review.report["moves"]]


def test_a_client_in_this_process_is_a_pool_front(pool: LocalPool, service: PoolService) -> None:
    """The interface the game server uses, with progress steps and the budget (``solving/work.py``)."""
    with PoolClient(service.path) as client:
        front: PoolFront = client
        assert front.budget == BUDGET and front.cluster() is None
        steps: list[AnalysisResult] = []
        job = DeepeningJob(data_position("endgame-deal-5").key(), depths=(2, 4, None))
        ticket = front.submit(job, seat="board", address="192.0.2.3", on_progress=steps.append)
        assert not isinstance(ticket, Refusal)
        final = ticket.result(WAIT)
        assert isinstance(final, AnalysisResult) and [step.depth for step in steps] == [2, 4][: len(steps)]
        assert ticket.cpu_seconds > 0 and ticket.place() is None and front.standings() == {}
        left = front.budget_left("192.0.2.3")
        assert left is not None and left < BUDGET.burst
        assert set(front.stats()) >= {"running", "waiting_move", "workers"}


# -- one schedule for every client ------------------------------------------------------------------


def test_two_clients_on_one_address_spend_one_budget(
    pool: LocalPool, service: PoolService, clients: Callable[[Path], Driver]
) -> None:
    spender, other = clients(service.path), clients(service.path)
    try:
        assert spender.submit("board", endless_analysis(), "198.51.100.7") is None  # reserves the whole 20 s
        left = other.ask(do="budget_left", address="198.51.100.7")["left"]
        assert left is not None and left < 1.0
        hint = HintJob(data_position("endgame-deal-5").key())
        refusal = other.submit("hint", hint, "198.51.100.7")
        assert refusal is not None and refusal["reason"] == "budget" and refusal["retry_after"] > 100
        assert other.submit("hint", hint, "198.51.100.8") is None  # another address is paid from its own
    finally:
        spender.close()
        other.close()
    until(lambda: idle(pool), "the closed clients' work left the pool")


def test_the_same_seat_name_in_two_clients_is_two_seats(
    pool: LocalPool, service: PoolService, clients: Callable[[Path], Driver]
) -> None:
    """Two server processes number their connections alike: one's seat never replaces the other's."""
    first, second = clients(service.path), clients(service.path)
    try:
        assert first.submit("a", endless_analysis(), "192.0.2.10", seat="connection 1/analysis") is None
        assert second.submit("b", endless_analysis(2), "192.0.2.11", seat="connection 1/analysis") is None
        assert first.ask(do="place", name="a")["place"] == 0
        assert second.ask(do="place", name="b")["place"] == 1
    finally:
        first.close()
        second.close()
    until(lambda: idle(pool), "the closed clients' work left the pool")


# -- a client that goes --------------------------------------------------------------------------------


def test_a_killed_clients_work_leaves_the_queue_and_the_worker(
    pool: LocalPool, service: PoolService, clients: Callable[[Path], Driver]
) -> None:
    client = clients(service.path)
    assert client.submit("running", endless_analysis(), "203.0.113.1") is None
    assert client.submit("waiting", endless_analysis(2), "203.0.113.2") is None
    until(lambda: pool.stats()["running"] == 1 and pool.stats()["waiting_analysis"] == 1, "the unit ran")
    client.kill()
    until(lambda: idle(pool), "the killed client's units ended")
    move = submit(pool, MoveJob(greedy_down(6, 60).key(), "beginner", 1), "after", "203.0.113.3")
    assert isinstance(move.result(WAIT), MoveResult)  # the one worker was stopped, not kept for 300 s
    until(lambda: service.clients() == 0, "the service forgot the client")


# -- bad frames ------------------------------------------------------------------------------------------


def raw_client(service: PoolService) -> socket.socket:
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.settimeout(WAIT)
    connection.connect(str(service.path))
    hello = read_frame(connection)
    assert hello == {"op": "hello", "budget": encode(BUDGET)}
    return connection


BAD_FRAMES = {
    "not JSON": (struct.pack(">I", 9) + b"not json!", "a frame is not JSON"),
    "too long": (struct.pack(">I", MAX_FRAME + 1), "longer than"),
    "no op": (struct.pack(">I", 6) + b"[1, 2]", "not an object with an 'op'"),
    "unknown op": (frame({"op": "unpickle"}), "unknown op 'unpickle'"),
    "unknown job": (
        frame(
            {"op": "submit", "req": 1, "id": 1, "job": {"type": "os.system", "value": {}}, "seat": "s", "address": "a"}
        ),
        "unknown job type 'os.system'",
    ),
    "bad position": (
        frame(
            {
                "op": "submit",
                "req": 1,
                "id": 1,
                "job": {"type": "MoveJob", "value": {"position": [[1], 0, [0, 0]], "level": "club", "seed": 1}},
                "seat": "s",
                "address": "a",
            }
        ),
        "MoveJob: expected 108 cells",
    ),
    "bool for a number": (frame({"op": "cancel", "id": True}), "'id' is a number"),
}


@pytest.mark.parametrize("name", list(BAD_FRAMES))
def test_a_bad_frame_gets_one_line_and_the_connection_closed(
    name: str, pool: LocalPool, service: PoolService, caplog: pytest.LogCaptureFixture
) -> None:
    data, words = BAD_FRAMES[name]
    caplog.set_level(logging.WARNING, "mahjong-battle.solver-pool")
    with raw_client(service) as connection:
        connection.sendall(data)
        answer = read_frame(connection)
        assert answer is not None and answer["op"] == "error" and words in answer["message"]
        assert "\n" not in answer["message"]
        assert read_frame(connection) is None  # closed
    assert [words in record.getMessage() for record in caplog.records] == [True]
    until(lambda: service.clients() == 0, "the service dropped the client")
    with PoolClient(service.path) as client:  # and serves the next
        assert client.budget_left("192.0.2.50") == BUDGET.burst


def test_a_frame_cut_short_by_a_closing_client_ends_only_that_client(pool: LocalPool, service: PoolService) -> None:
    with raw_client(service) as connection:
        connection.sendall(struct.pack(">I", 100) + b'{"op": "st')
    until(lambda: service.clients() == 0, "the service dropped the client")
    with PoolClient(service.path) as client:
        assert client.stats()["workers"] == 1


# -- the service going away ----------------------------------------------------------------------------


def test_clients_of_a_restarted_service_fail_their_tickets_and_connect_again(
    pool: LocalPool, tmp_path: Path, clients: Callable[[Path], Driver]
) -> None:
    path = tmp_path / "restarting.sock"
    service = serve_pool(pool, path)
    client = clients(path)
    try:
        assert client.submit("board", endless_analysis(), "192.0.2.20") is None
        until(lambda: pool.stats()["running"] == 1, "the unit ran")
        service.close()
        until(lambda: idle(pool), "the closed service's work left the pool")
        failure = client.result("board")["error"]
        assert failure.startswith("PoolUnavailable: the solver pool is unavailable: its service at")
        refusal = client.submit("move", MoveJob(greedy_down(6, 60).key(), "beginner", 1), "192.0.2.20")
        assert refusal is not None and refusal["reason"] == "unavailable" and refusal["retry_after"] > 0
        assert client.ask(do="cluster")["cluster"]["connected"] is False
        service = serve_pool(pool, path)
        until(lambda: client.ask(do="cluster")["cluster"] is None, "the client connected again")
        assert client.submit("move", MoveJob(greedy_down(6, 60).key(), "beginner", 1), "192.0.2.20") is None
        assert isinstance(decode_result(client.result("move")["result"]), MoveResult)
    finally:
        client.close()
        service.close()


def test_serving_where_a_service_answers_or_a_file_lies_is_refused(pool: LocalPool, service: PoolService) -> None:
    with pytest.raises(OSError, match="answers at .* already"):
        serve_pool(pool, service.path)
    plain = service.path.with_name("plain.txt")
    plain.write_text("not a socket")
    with pytest.raises(OSError, match="is not a socket"):
        serve_pool(pool, plain)
    assert plain.read_text() == "not a socket"


def test_the_socket_is_the_owners_alone(service: PoolService) -> None:
    assert os.stat(service.path).st_mode & 0o777 == 0o600


def test_a_client_where_nothing_serves_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        PoolClient(tmp_path / "nothing.sock")


# -- the server's one way to the solver, over a client -------------------------------------------------


def test_the_servers_solver_work_runs_on_a_client_as_on_the_pool(pool: LocalPool, service: PoolService) -> None:
    """``SolverWork`` takes a ``PoolClient`` where it takes a pool: a move, a deepening analysis's
    steps, the places and ``/stats``, all on an event loop as in ``serve``."""
    from battle.online.server.solving.work import SolverWork, Work

    async def use(work: SolverWork) -> None:
        move = work.move(greedy_down(6, 60), "beginner", 7, seat="move:g1", address="192.0.2.60")
        assert isinstance(move, Work)
        places: list[object] = []
        work.watch(move, places.append)
        answer = await move.answer()
        direct = submit(pool, MoveJob(greedy_down(6, 60).key(), "beginner", 7), "move:g1", "192.0.2.61")
        assert answer == direct.result(WAIT) and places and move.place() is None
        steps: list[AnalysisResult] = []
        board = work.analysis(
            data_position("endgame-deal-5"), seat="board:1", address="192.0.2.60", on_step=steps.append, nodes=100_000
        )
        assert isinstance(board, Work)
        final = await board.answer()
        assert final.exact and all(not step.exact for step in steps)
        lines = dict(work.stats())
        assert lines["solver_workers"] == "1" and lines["solver_budget_seconds"] == "20"
        assert "solver_cpu_seconds_move" in lines and move.ticket.cpu_seconds > 0

    with PoolClient(service.path) as client:
        run_apart(use(SolverWork(client)))


def test_a_client_whose_service_sends_bad_bytes_fails_its_tickets_in_one_line(tmp_path: Path) -> None:
    """A peer's bytes are untrusted both ways: a bad frame from the service ends the connection, not the client."""
    path = tmp_path / "liar.sock"
    with listening_at(path) as listener:
        answered = threading.Event()

        def lie() -> None:
            connection, _ = listener.accept()
            with connection:
                connection.sendall(frame({"op": "hello", "budget": None}))
                request = read_frame(connection)
                assert request is not None and request["op"] == "submit"
                connection.sendall(frame({"op": "submitted", "req": request["req"], "refusal": None}))
                connection.sendall(struct.pack(">I", 4) + b"\xff\xfe{}")
                answered.set()
                read_frame(connection)  # until the client hangs up

        liar = threading.Thread(target=lie)
        liar.start()
        with PoolClient(path) as client:
            ticket = client.submit(endless_analysis(), seat="s", address="192.0.2.70")
            assert not isinstance(ticket, Refusal)
            with pytest.raises(
                PoolError, match=r"^the solver pool is unavailable: .* sent a bad frame: a frame is not JSON"
            ):
                ticket.result(WAIT)
            cluster = client.cluster()
            assert answered.is_set() and cluster is not None and not cluster.connected
        liar.join()


def test_work_whose_service_goes_fails_as_unavailable_for_the_server(pool: LocalPool, tmp_path: Path) -> None:
    """The server tells the page ``unavailable`` with the seconds to the next try, not ``failed``."""
    from battle.online.server.solving.outcomes import SolverRefusal, WorkFailed
    from battle.online.server.solving.work import SolverWork, Work

    service = serve_pool(pool, tmp_path / "going.sock")

    async def use(work: SolverWork) -> None:
        board = work.analysis(
            greedy_down(1, 100),
            seat="board:1",
            address="192.0.2.80",
            on_step=lambda _step: None,
            nodes=15_000_000,  # 15 s of the budget's 20: one search to the end that runs until stopped
            to_the_end=True,
        )
        assert isinstance(board, Work)
        await asyncio.get_running_loop().run_in_executor(None, until, lambda: pool.stats()["running"] == 1, "ran")
        await asyncio.get_running_loop().run_in_executor(None, service.close)
        with pytest.raises(WorkFailed) as failed:
            await board.answer()
        assert failed.value.code == "unavailable" and failed.value.retry_after is not None
        assert 0 < failed.value.retry_after <= 2.0 + 0.5
        refused = work.hint(greedy_down(1, 100), seat="hint:1", address="192.0.2.80")
        assert isinstance(refused, SolverRefusal) and refused.code == "unavailable"

    try:
        with PoolClient(service.path) as client:
            run_apart(use(SolverWork(client)))
    finally:
        service.close()
    until(lambda: idle(pool), "the closed service's work left the pool")


def test_a_silent_service_holds_one_call_and_the_next_ones_answer_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A service whose process is stopped keeps the connection open and answers nothing: the first call
    waits ``ANSWER_SECONDS`` (here 0.3) for it, and until the service speaks again every call answers at
    once without sending it anything (work refused as unavailable), so a game process's loop is held
    once, not five seconds a call; its late answer ends the silence."""
    from battle.players.pool import client as client_module

    monkeypatch.setattr(client_module, "ANSWER_SECONDS", 0.3)
    path = tmp_path / "silent.sock"
    with listening_at(path) as listener:
        wake = threading.Event()
        heard: list[str] = []

        def silent_then_well() -> None:
            connection, _ = listener.accept()
            with connection:
                connection.sendall(frame({"op": "hello", "budget": None}))
                first = read_frame(connection)
                assert first is not None
                heard.append(first["op"])
                wake.wait(WAIT)  # stopped: the request waits in the socket
                connection.sendall(
                    frame({"op": "answer", "req": first["req"], "value": {"stats": {}, "cluster": None}})
                )
                while (request := read_frame(connection)) is not None:
                    heard.append(request["op"])
                    connection.sendall(frame({"op": "answer", "req": request["req"], "value": []}))

        service = threading.Thread(target=silent_then_well)
        service.start()
        with PoolClient(path) as client:
            assert client.stats() == {}  # the one call that waits
            refused = client.submit(endless_analysis(), seat="s", address="192.0.2.71")
            assert isinstance(refused, Refusal) and refused.reason == "unavailable"
            assert client.standings() == {} and client.stats() == {}
            cluster = client.cluster()
            assert cluster is not None and not cluster.connected
            wake.set()  # the service goes on: its late answer comes first
            deadline = time.monotonic() + WAIT
            while client._silent:
                assert time.monotonic() < deadline, "the late answer did not end the silence"
                time.sleep(0.01)
            assert client.standings() == {}
        service.join(WAIT)
        assert heard == ["stats", "standings"]  # nothing was sent while it was silent


def test_a_round_trip_in_flight_ends_when_its_client_closes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A game process that stops while its ``/stats`` round trip waits for the service (which has the
    request and has not answered yet) closes its client: the call answers at once with nothing, rather
    than holding the process's exit until ``ANSWER_SECONDS`` (here an hour) and then calling the
    service silent in the stop's last lines."""
    from battle.players.pool import client as client_module

    monkeypatch.setattr(client_module, "ANSWER_SECONDS", 3600.0)
    path = tmp_path / "slow.sock"
    with listening_at(path) as listener:
        heard = threading.Event()
        done = threading.Event()

        def answers_late() -> None:
            connection, _ = listener.accept()
            with connection:
                connection.sendall(frame({"op": "hello", "budget": None}))
                if read_frame(connection) is not None:
                    heard.set()
                done.wait(WAIT)

        service = threading.Thread(target=answers_late)
        service.start()
        client = PoolClient(path)
        stats: list[dict[str, int]] = []
        asking = threading.Thread(target=lambda: stats.append(client.stats()))
        asking.start()
        assert heard.wait(WAIT), "the service never got the request"
        client.close()
        asking.join(WAIT)
        done.set()
        service.join(WAIT)
        assert not asking.is_alive() and stats == [{}]
        assert not client._silent
        assert "did not answer" not in caplog.text


def test_a_submission_never_waits_for_the_service_and_a_silent_one_fails_it_as_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``submit`` returns the ticket before the service answers: a refusal that comes afterwards fails
    the ticket's future with ``PoolRefused`` (and says so in ``admitted``); a submission the service
    leaves unanswered for ``ANSWER_SECONDS`` (here 0.3) fails as unavailable, the client falls silent,
    and the service's late admission of it is answered with a cancel."""
    from battle.players.pool import client as client_module
    from battle.players.pool.queue import PoolRefused, PoolUnavailable

    monkeypatch.setattr(client_module, "ANSWER_SECONDS", 0.3)
    path = tmp_path / "slow.sock"
    with listening_at(path) as listener:
        refuse_now, wake = threading.Event(), threading.Event()
        heard: list[dict[str, Any]] = []

        def slow_service() -> None:
            connection, _ = listener.accept()
            with connection:
                connection.sendall(frame({"op": "hello", "budget": None}))
                first = read_frame(connection)
                assert first is not None and first["op"] == "submit"
                refuse_now.wait(WAIT)  # the client went on meanwhile
                refusal = encode(Refusal("budget", 7.0))
                connection.sendall(frame({"op": "submitted", "req": first["req"], "refusal": refusal}))
                second = read_frame(connection)
                assert second is not None and second["op"] == "submit"
                wake.wait(WAIT)  # stopped past ANSWER_SECONDS: then it takes the work after all
                taken = encode(Standing(place=1))
                connection.sendall(frame({"op": "submitted", "req": second["req"], "refusal": None, "standing": taken}))
                while (message := read_frame(connection)) is not None:
                    heard.append(message)

        service = threading.Thread(target=slow_service)
        service.start()
        with PoolClient(path) as client:
            ticket = client.submit(endless_analysis(), seat="s", address="192.0.2.72")
            assert isinstance(ticket, client_module.ClientTicket) and not ticket.admitted.done()
            assert ticket.standing() is None  # not known before the service says it
            refuse_now.set()
            assert ticket.admission(WAIT) == Refusal("budget", 7.0)
            with pytest.raises(PoolRefused) as refused:
                ticket.result(WAIT)
            assert refused.value.refusal == Refusal("budget", 7.0)

            unanswered = client.submit(endless_analysis(2), seat="s", address="192.0.2.72")
            assert isinstance(unanswered, client_module.ClientTicket)
            assert client.stats() == {}  # a round trip unanswered for 0.3 s: the client falls silent
            with pytest.raises(PoolUnavailable, match="did not answer in 0.3 s"):
                unanswered.result(WAIT)
            assert unanswered.admission(0) == Refusal("unavailable", 0.3)
            silent = client.submit(endless_analysis(3), seat="s", address="192.0.2.72")
            assert silent == Refusal("unavailable", 0.3)  # at once, nothing sent
            wake.set()
            deadline = time.monotonic() + WAIT
            while not any(message["op"] == "cancel" for message in heard):
                assert time.monotonic() < deadline, f"the late admission was not cancelled: {heard}"
                time.sleep(0.01)
        service.join(WAIT)
        ops = [message["op"] for message in heard]
        assert ops[:2] == ["stats", "cancel"] and heard[1]["id"] == unanswered.number, heard
