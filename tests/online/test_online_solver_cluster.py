"""``serve --solver-scheduler tcp://...`` on a real Dask ``LocalCluster`` of two worker processes:
the worker searching the solver's move is killed mid-search, the unit is retried on the other,
and the player's game goes on (the solver's move arrives, the next one too)."""

from __future__ import annotations

import os
import signal
import time
from typing import Any

import pytest

from tests.online_server import Client, ServerProcess, a_legal_move
from tests.players.conftest import wait_until_searching

pytest.importorskip("distributed")

from battle.players.dask_pool import running_units  # noqa: E402 - needs Dask
from tests.players.test_dask_pool import cluster  # noqa: E402 - the pool's own two-worker LocalCluster

__all__ = ["cluster"]

WAIT = 120.0


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
def test_a_worker_killed_mid_search_through_serve_and_the_game_goes_on(cluster: Any, tmp_path: Any) -> None:
    from dask.distributed import Client as DaskClient

    with (
        ServerProcess(tmp_path, "--solver-scheduler", cluster.scheduler_address) as server,
        DaskClient(cluster.scheduler_address) as dask,
    ):
        player = Client(server.url, "Ann")
        player.send({"type": "solver_game", "level": "master", "deal": {"number": 12}, "first": "joiner"})
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
