"""A real ``mahjong-battle serve`` whose solver pool has answered a move holds no solver search in its
own process: numba, llvmlite and numpy are mapped only in its workers (read from ``/proc/PID/maps``,
what the kernel has loaded, whatever imported it), and its resident memory stays within a few MiB of a
server without a solver (``--solver-workers 0``)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.online.strangers import resident_mib
from tests.online_server import Client, ServerProcess

WAIT = 60.0
"""The longest the solver's first move is waited for (its worker still starting on a busy machine)."""
MOST_EXTRA_MIB = 15.0
"""What a server with a pool may hold beyond one without: its pool's threads, queue and pipes (2.2 MiB
measured), where numba, llvmlite and numpy would add 140 MiB."""
SEARCH_LIBRARIES = re.compile(r"/(numba|llvmlite|numpy)(\.libs)?/")


def search_libraries(pid: int) -> list[str]:
    """The files of numba, llvmlite and numpy that process ``pid`` has mapped."""
    mapped = (line.split(maxsplit=5)[-1] for line in Path(f"/proc/{pid}/maps").read_text().splitlines())
    return sorted({path for path in mapped if SEARCH_LIBRARIES.search(path)})


def test_a_server_whose_workers_searched_loads_no_numba_and_is_as_small_as_one_without_a_solver(
    tmp_path: Path,
) -> None:
    with (
        ServerProcess(tmp_path / "bare") as bare,
        ServerProcess(tmp_path / "pooled", "--solver-workers", "1") as pooled,
    ):
        client = Client(pooled.url)
        try:
            client.send({"type": "solver_game", "level": "club", "deal": {"number": 3}, "first": "joiner"})
            client.expect("solver_created", WAIT)
            assert client.expect("state", WAIT)["to_move"] == 1  # the solver's seat
            assert client.expect("moved", WAIT)["to_move"] == 2  # answered by the pool's worker
        finally:
            client.close()
        assert search_libraries(pooled.pid) == []
        pooled_mib, bare_mib = resident_mib(pooled.pid), resident_mib(bare.pid)
        assert pooled_mib <= bare_mib + MOST_EXTRA_MIB, (pooled_mib, bare_mib)
