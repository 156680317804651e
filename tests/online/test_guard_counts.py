"""The guard's counts shared by the processes of one server (``guard_counts.SharedCounts``): the same
caps as in one process, whichever process a network's requests reach, and no race of two processes
passes one. Two ``AddressGuard``s on one file stand for two processes; the race runs in two real
processes."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from battle.online.server.limits.address_guard import AddressGuard
from battle.online.server.limits.guard_counts import Counts, MemoryCounts, SharedCounts
from battle.online.server.limits.server import ServerLimits

ROOT = Path(__file__).resolve().parents[2]
LIMITS = ServerLimits(creates_per_hour=60, create_burst=20, free_failed_codes=5, failed_codes_burst=100)


@pytest.fixture(params=["memory", "shared"])
def counts(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Counts]:
    made: Counts = MemoryCounts() if request.param == "memory" else SharedCounts(tmp_path / "guard.sqlite3", 3600.0)
    yield made
    made.close()


def test_codes_and_starts_are_counted_alike_in_memory_and_in_the_file(counts: Counts) -> None:
    guard = AddressGuard(LIMITS, counts=counts)
    for _ in range(5):  # five wrong codes are free
        assert guard.code_refusal("192.0.2.7", 100.0) is None
    assert guard.code_refusal("192.0.2.7", 100.0) is None  # the sixth is looked up, then waits 1 s
    assert guard.code_refusal("192.0.2.7", 100.5) == "too many wrong codes from your network; try again in 2 s"
    assert guard.code_refusal("198.51.100.1", 100.5) is None  # another network
    guard.code_found("198.51.100.1", 100.5)  # a right code counts nothing
    assert guard.code_refusal("198.51.100.1", 100.5) is None
    for _ in range(20):
        assert guard.take_start("192.0.2.7", 100.0) is None
    assert guard.take_start("192.0.2.7", 100.0) == 60.0


def test_two_processes_on_one_file_share_each_networks_caps_and_the_servers_budget(tmp_path: Path) -> None:
    path = tmp_path / "guard.sqlite3"
    first, second = (AddressGuard(LIMITS, counts=SharedCounts(path, 3600.0)) for _ in range(2))
    for number in range(20):  # the network's starts, half through each process
        assert (first if number % 2 else second).take_start("192.0.2.7", 100.0) is None
    assert first.take_start("192.0.2.7", 100.0) == 60.0 and second.take_start("192.0.2.7", 100.0) == 60.0
    for number in range(5):  # its free wrong codes
        assert (first if number % 2 else second).code_refusal("192.0.2.7", 100.0) is None
    assert second.code_refusal("192.0.2.7", 100.0) is None
    assert first.code_refusal("192.0.2.7", 100.0) is not None  # waits, whichever process it asks
    spent = sum(first.code_refusal(f"203.0.113.{number}", 100.0) is None for number in range(200))
    assert spent == 100 - 6  # the server's 100 wrong codes, six of them the first network's
    assert second.code_refusal("198.51.100.9", 100.0) == (
        "the server takes no codes for a moment (too many wrong ones); try again in 1 s"
    )
    for guard in (first, second):
        guard.counts.close()


RACE = """
import sys
from pathlib import Path
from battle.online.server.limits.address_guard import AddressGuard
from battle.online.server.limits.guard_counts import SharedCounts
from battle.online.server.limits.server import ServerLimits
guard = AddressGuard(ServerLimits(creates_per_hour=60, create_burst=20), counts=SharedCounts(Path(sys.argv[1]), 3600.0))
sys.stdin.readline()  # both start together
print(sum(guard.take_start("192.0.2.7", 100.0) is None for _ in range(200)))
"""


def test_a_race_of_two_processes_starts_no_more_than_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "guard.sqlite3"
    SharedCounts(path, 3600.0).close()  # made before either process opens it
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACE, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
        )
        for _ in range(2)
    ]
    for racer in racers:
        assert racer.stdin is not None
        racer.stdin.write("go\n")
        racer.stdin.flush()
    taken = [int(racer.communicate(timeout=60)[0]) for racer in racers]
    assert sum(taken) == 20, taken


def test_a_mark_counts_for_its_network_until_it_is_dropped_or_its_time_passes(counts: Counts) -> None:
    with counts.held(100.0) as now:
        now.put_mark("making", "net-a", "game-1", 160.0)
        now.put_mark("making_solver", "net-a", "game-2", 160.0)
        now.put_mark("making", "net-b", "game-3", 110.0)
    with counts.held(105.0) as now:
        assert now.marked("making", "net-a", 105.0) == {"game-1"} and now.marked("making_solver", "net-a", 105.0) == {
            "game-2"
        }
        assert now.marked("making", "net-b", 105.0) == {"game-3"}
        now.drop_mark("making", "game-1")  # stored
    with counts.held(111.0) as now:
        assert now.marked("making", "net-a", 111.0) == set()
        assert now.marked("making", "net-b", 111.0) == set()  # its process died before it was stored


def test_a_networks_connections_are_counted_once_however_they_spread_over_processes(tmp_path: Path) -> None:
    """Each process counts what it holds in one shared file: a network's connections and puzzles meet one
    cap across both, a connection moving between them is counted where it lands (without its cap),
    and a process started again in a dead one's place lets go of what the dead one held."""
    path = tmp_path / "guard.sqlite3"
    limits = ServerLimits(connections_per_address=4)
    first, second = (AddressGuard(limits, counts=SharedCounts(path, 3600.0, process)) for process in (0, 1))
    assert first.admit("192.0.2.7", 1.0) is None and first.admit("192.0.2.7", 1.0) is None
    assert second.admit("192.0.2.7", 1.0) is None and second.admit("192.0.2.7", 1.0) is None
    refused = "4 connections from your network are open already"
    assert first.admit("192.0.2.7", 1.0) == refused and second.admit("192.0.2.7", 1.0) == refused
    assert second.admit("198.51.100.1", 1.0) is None  # another network
    first.release("192.0.2.7", 2.0)  # one moves from the first process to the second
    assert second.admit("192.0.2.7", 2.0, per_address=False) is None
    assert first.admit("192.0.2.7", 2.0) == refused
    assert (first.total, second.total) == (1, 4) and second.connections == {"192.0.2.7": 3, "198.51.100.1": 1}
    assert second.reassign("198.51.100.1", "192.0.2.7", 2.0) == refused  # behind a proxy: the forwarded one's cap
    assert first.reassign("192.0.2.7", "203.0.113.5", 2.0) is None
    assert first.admit("192.0.2.7", 2.0) is None  # room for one again
    for _ in range(8):
        assert second.take_hold("puzzles", "192.0.2.7", 8, 3.0)
    assert not first.take_hold("puzzles", "192.0.2.7", 8, 3.0)
    first.let_go("puzzles", "192.0.2.7", 3.0)  # none held here: nothing to let go, 8 held still
    assert not first.take_hold("puzzles", "192.0.2.7", 8, 3.0)
    second.let_go("puzzles", "192.0.2.7", 3.0)
    assert first.take_hold("puzzles", "192.0.2.7", 8, 3.0) and not second.take_hold("puzzles", "192.0.2.7", 8, 3.0)
    second.counts.close()
    again = AddressGuard(limits, counts=SharedCounts(path, 3600.0, 1))  # the second process, started again
    assert again.take_hold("puzzles", "192.0.2.7", 8, 4.0)  # the dead one's 8 are gone: this one's 1 is left
    for _ in range(3):
        assert again.admit("192.0.2.7", 4.0) is None
    assert again.admit("192.0.2.7", 4.0) == refused
    for guard in (first, again):
        guard.counts.close()


def test_a_network_holds_what_it_holds_alike_in_memory_and_in_the_file(counts: Counts) -> None:
    guard = AddressGuard(ServerLimits(connections_per_address=2), counts=counts)
    assert guard.admit("2001:db8:1:2::7", 1.0) is None and guard.admit("2001:db8:1:2::8", 1.0) is None
    assert guard.admit("2001:db8:1:2::9", 1.0) == "2 connections from your network are open already"  # one /64
    guard.release("2001:db8:1:2::7", 2.0)
    assert guard.admit("2001:db8:1:2::9", 2.0) is None
    assert guard.total == 2 and guard.connections == {"2001:db8:1:2::/64": 2}
