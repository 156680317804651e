"""``serve --solver-scheduler tcp://...`` on a real Dask ``LocalCluster`` of two worker processes:
the worker searching the solver's move is killed mid-search, the unit is retried on the other,
and the player's game goes on (the solver's move arrives, the next one too). And on a ``dask
scheduler`` and a ``dask worker`` process that stop mid-game and start again on the same port: the
solver's next move arrives, ``/stats`` says the cluster reconnects meanwhile, and the log says it in
a line each way."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from tests.online_server import Client, ServerProcess, a_legal_move
from tests.players.conftest import wait_until_searching
from tests.players.dask_processes import DaskProcesses

pytest.importorskip("distributed")

from battle.players.pool.dask_cluster import running_units  # noqa: E402 - needs Dask
from tests.players.test_dask_cluster import cluster  # noqa: E402 - the pool's own two-worker LocalCluster

__all__ = ["cluster"]

WAIT = 120.0
LONG_LEVEL = "perfect"
"""The level of a first move that is still searching when a test kills its worker or stops its cluster:
perfect's search of a deal's first move runs to its time limit counted in nodes (10 s, 4.7 CPU s on
a busy core), while master's ends at its depth in 0.1 CPU s, less than a worker's first load of the
kernels, which can meet ``wait_until_searching`` on its own."""


def searching_worker(client: Any) -> int:  # noqa: ANN401 - a dask Client
    """The process id of the worker that runs a unit now (a bounded wait)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        holders = [address for address, units in client.run(running_units).items() if units]
        if holders:
            return int(client.run(os.getpid, workers=[holders[0]])[holders[0]])
        time.sleep(0.05)
    raise AssertionError("no worker ran the solver's move")


@pytest.mark.slow
@pytest.mark.hands_processes_to("cluster")  # the killed worker's replacement
def test_a_worker_killed_mid_search_through_serve_and_the_game_goes_on(cluster: Any, tmp_path: Any) -> None:
    from dask.distributed import Client as DaskClient

    with (
        ServerProcess(tmp_path, "--solver-scheduler", cluster.scheduler_address) as server,
        DaskClient(cluster.scheduler_address) as dask,
    ):
        player = Client(server.url, "Ann")
        player.send({"type": "solver_game", "level": LONG_LEVEL, "deal": {"number": 12}, "first": "joiner"})
        player.expect("solver_created", WAIT)
        state = player.expect("state", WAIT)
        assert state["to_move"] == 1 and state["you"] == 2  # the solver moves first
        pid = searching_worker(dask)
        wait_until_searching(pid)
        os.kill(pid, signal.SIGKILL)
        moved = player.expect("moved", WAIT)  # retried on the other worker (or on the one restarted)
        assert moved["seat"] == 1 and moved["ply"] == 1
        state = {**state, "moves": [moved["move"]], "to_move": 2}
        player.send({"type": "move", "move": a_legal_move(state), "id": "after-the-kill"})
        player.expect("ack", WAIT)
        answer = player.expect("moved", WAIT)
        while answer["seat"] != 1:
            answer = player.expect("moved", WAIT)
        assert answer["ply"] == 3  # the solver answered the next move too: the game goes on
        player.close()


# -- a scheduler that goes away mid-game and comes back on its port ----------------------------


def cluster_stat(server: ServerProcess, starting: str) -> dict[str, str]:
    """``/stats`` once its ``solver_cluster`` line starts with ``starting`` (a bounded wait)."""
    deadline = time.monotonic() + WAIT
    while not (found := server.stats())["solver_cluster"].startswith(starting):
        assert time.monotonic() < deadline, f"/stats never said solver_cluster {starting}: {found}"
        time.sleep(0.1)
    return found


def solver_moved(player: Client, seat: int, ply: int) -> dict[str, Any]:
    """The ``moved`` of the solver's ``seat`` (the player's own moves' news before it are passed over)."""
    moved = player.expect("moved", WAIT)
    while moved["seat"] != seat:
        moved = player.expect("moved", WAIT)
    assert moved["ply"] == ply
    return moved


def said_once_without_a_traceback(server: ServerProcess, address: str) -> None:
    """The server's log says the loss and the return in one line each, and holds no traceback."""
    lines = server.log_lines()
    lost = [line for line in lines if line.startswith(f"the solver cluster at {address} does not answer")]
    back = [line for line in lines if line.startswith(f"the solver cluster at {address} answers again after")]
    assert (len(lost), len(back)) == (1, 1), "\n".join(lines)
    assert not [line for line in lines if "Traceback" in line], "\n".join(lines)


def outage_left(stopped: float, seconds: float) -> None:
    """Sleep out an outage of ``seconds`` begun at ``stopped``: the scenario's length, not a wait for an event."""
    time.sleep(max(0.0, stopped + seconds - time.monotonic()))


def test_a_scheduler_away_for_5_s_between_moves_and_the_solvers_next_move_arrives(tmp_path: Path) -> None:
    """The player moves while the cluster is away: the solver's move is refused in words with the wait,
    asked again, and arrives once the scheduler and its worker are back on the same port."""
    with (
        DaskProcesses(tmp_path / "dask") as cluster,
        ServerProcess(tmp_path, "--solver-scheduler", cluster.address) as server,
    ):
        assert server.stats()["solver_cluster"] == "connected"
        player = Client(server.url, "Ann")
        player.send({"type": "solver_game", "level": "club", "deal": {"number": 3}, "first": "creator"})
        player.expect("solver_created", WAIT)
        state = player.expect("state", WAIT)
        moves: list[str] = []
        for ply in (1, 3):
            mine = a_legal_move({**state, "moves": moves})
            player.send({"type": "move", "move": mine, "id": f"m{ply}"})
            moves += [mine, solver_moved(player, 2, ply + 1)["move"]]
        cluster.stop()
        stopped = time.monotonic()
        during = cluster_stat(server, "reconnecting next_try_in=")
        assert during["solver_workers"] == "0"
        mine = a_legal_move({**state, "moves": moves})
        player.send({"type": "move", "move": mine, "id": "m5"})
        refused = player.expect("solver_refused", WAIT)
        assert (refused["what"], refused["code"]) == ("move", "unavailable")
        assert 1.0 <= refused["retry_after"] <= 31.0
        outage_left(stopped, 5.0)
        cluster.start()
        assert solver_moved(player, 2, 6)["move"]
        assert server.stats()["solver_cluster"] == "connected"
        player.close()
    said_once_without_a_traceback(server, cluster.address)


@pytest.mark.slow
def test_a_scheduler_away_for_30_s_mid_search_and_the_move_in_flight_arrives(tmp_path: Path) -> None:
    """The solver's first move (``LONG_LEVEL``) is searching when the cluster goes: it waits in the queue
    (``/stats``), a game begun meanwhile is refused in words, and both moves arrive once it is back."""
    with (
        DaskProcesses(tmp_path / "dask") as cluster,
        ServerProcess(tmp_path, "--solver-scheduler", cluster.address) as server,
    ):
        player = Client(server.url, "Ann")
        player.send({"type": "solver_game", "level": LONG_LEVEL, "deal": {"number": 12}, "first": "joiner"})
        player.expect("solver_created", WAIT)
        assert player.expect("state", WAIT)["to_move"] == 1  # the solver moves first, for seconds
        wait_until_searching(cluster.worker_pids[0])
        cluster.stop()
        stopped = time.monotonic()
        during = cluster_stat(server, "reconnecting next_try_in=")
        assert (during["solver_waiting_move"], during["solver_running"]) == ("1", "0")  # handed back
        newcomer = Client(server.url, "Bea")
        newcomer.send({"type": "solver_game", "level": "club", "deal": {"number": 3}, "first": "joiner"})
        newcomer.expect("solver_created", WAIT)
        refused = newcomer.expect("solver_refused", WAIT)
        assert (refused["what"], refused["code"]) == ("move", "unavailable") and refused["retry_after"] >= 1.0
        outage_left(stopped, 30.0)
        assert server.stats()["solver_cluster"].startswith("reconnecting next_try_in=")
        cluster.start()
        assert solver_moved(player, 1, 1)["move"]
        assert solver_moved(newcomer, 1, 1)["move"]
        assert server.stats()["solver_cluster"] == "connected"
        player.close()
        newcomer.close()
    said_once_without_a_traceback(server, cluster.address)
