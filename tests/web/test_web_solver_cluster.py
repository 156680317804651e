"""A game against the solver in Chromium, in German, on a ``serve --solver-scheduler`` whose Dask
scheduler and worker stop mid-game: the page says in whole sentences that the solver is unavailable
and when it tries again, and the solver's move arrives once they are back on the same port."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.online.test_online_solver_cluster import cluster_stat
from tests.online_server import ServerProcess
from tests.players.dask_processes import DaskProcesses
from tests.web.game_pages import DESKTOP, click_pair, new_page, wait_ply
from tests.web.test_web_solver import play_solver

pytest.importorskip("distributed")

UNAVAILABLE = re.compile(r"Der Solver ist gerade nicht erreichbar\. Er versucht es in \d+ Sekunden? erneut\.")


@pytest.mark.slow
def test_the_page_says_the_solver_is_unavailable_and_its_move_arrives_once_the_cluster_is_back(
    browser: Any, tmp_path: Path
) -> None:
    with (
        DaskProcesses(tmp_path / "dask") as cluster,
        ServerProcess(tmp_path, "--solver-scheduler", cluster.address) as server,
    ):
        page = new_page(browser, **DESKTOP, locale="de-DE")
        play_solver(page, server.base, level="club", deal=3)
        click_pair(page)
        wait_ply(page, 2)  # the player's move and the solver's answer
        cluster.stop()
        cluster_stat(server, "reconnecting")
        click_pair(page)
        page.wait_for_function(
            "pattern => new RegExp(pattern).test(document.getElementById('turn').textContent)", arg=UNAVAILABLE.pattern
        )
        cluster.start()
        wait_ply(page, 4)
        assert not UNAVAILABLE.search(page.text_content("#turn") or "")
        assert page.errors == []
