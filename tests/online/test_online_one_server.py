"""One server a game database: a second ``serve`` on a file another server serves is refused in one
line naming the first (two servers on one file each keep their own games in memory, and a game made
on one and joined on the other would wait for ever); once the first has stopped, the file is free."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.online_server import ROOT, ServerProcess, free_port


def second_serve(database: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "from battle.cli import entry_point; entry_point()",
            "serve",
            "--port",
            str(free_port()),
            "--db",
            str(database),
            "--solver-workers",
            "0",
            *flags,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


@pytest.mark.parametrize("processes", ["1", "2"])
def test_a_second_server_on_a_served_database_is_refused_naming_the_first(tmp_path: Path, processes: str) -> None:
    with ServerProcess(tmp_path, "--processes", processes) as server:
        refused = second_serve(tmp_path / "games.sqlite3", "--processes", "1")
        assert refused.returncode == 2, refused.stderr
        lines = refused.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in refused.stderr, refused.stderr
        assert "games.sqlite3 is served by another server" in lines[0]
        assert f"process {server.pid}" in lines[0]  # the supervisor's, with two game processes
        assert refused.stdout == ""
    server.start()  # the first one stopped: the file is free again, for it as for any
    server.stop()


@pytest.mark.parametrize("processes", ["1", "2"])
def test_a_database_another_program_holds_a_write_lock_on_is_refused_in_one_line(
    tmp_path: Path, processes: str
) -> None:
    from battle.online.server.rooms.store import GameStore

    database = tmp_path / "games.sqlite3"
    GameStore(database).close()
    holder = sqlite3.connect(database, isolation_level=None)  # an sqlite3 shell in a transaction
    try:
        holder.execute("BEGIN EXCLUSIVE")
        refused = second_serve(database, "--processes", processes)
    finally:
        holder.close()
    assert refused.returncode == 2, refused.stderr
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "takes no writes (database is locked): another program holds it" in lines[0], lines
