"""The fork server of ``serve --processes 2`` through real processes: the game processes are forked
from one process that has the server imported, each named for its index; a fork server killed is
started again with them, and nothing outlives a supervisor killed with 9."""

from __future__ import annotations

import errno
import os
import signal
import time
from pathlib import Path

import psutil
import pytest

from battle.i18n import catalogue
from battle.online.server.processes.supervisor import EXITED_AT_START, Sentence, how_it_exited
from tests.online_server import LOCALES, ServerProcess, process_that_makes

HOMES = ("127.0.0.1", "127.0.0.3")
"""An address whose network's home is process 0, and one whose home is process 1."""
SECONDS = 30.0
"""The most any wait here takes on a busy machine (a quiet one: well under a second)."""


def game_processes(server: ServerProcess) -> list[psutil.Process]:
    """Both game processes, once both run (a restart takes a moment)."""
    deadline = time.monotonic() + SECONDS
    while True:
        found = [server.game_process(index) for index in range(2)]
        if all(process is not None for process in found):
            return [process for process in found if process is not None]
        assert time.monotonic() < deadline, f"the game processes are not both running: {found}"
        time.sleep(0.05)


def gone(process: psutil.Process) -> bool:
    try:
        return process.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def create_at_both_homes(server: ServerProcess) -> None:
    """A player of each home makes a game, and each game is made in its player's home (a process
    still starting is not sent to: its network's games are made in the other one meanwhile)."""
    deadline = time.monotonic() + SECONDS
    for home, address in enumerate(HOMES):
        while process_that_makes(server.url, address) != home:
            assert time.monotonic() < deadline, f"process {home} does not make its network's games"
            time.sleep(0.05)


def test_the_game_processes_are_forked_from_one_process_and_named_by_their_index(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--processes", "2") as server:
        first, second = game_processes(server)
        fork_server = first.parent()
        assert fork_server is not None and second.ppid() == fork_server.pid
        assert fork_server.ppid() == server.pid  # the supervisor's child, not the supervisor
        assert [first.name(), second.name()] == ["battle-game-0", "battle-game-1"]
        create_at_both_homes(server)


def test_a_fork_server_killed_with_9_is_started_again_and_the_game_processes_with_it(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--processes", "2") as server:
        before = game_processes(server)
        fork_server = before[0].parent()
        assert fork_server is not None
        fork_server.kill()
        deadline = time.monotonic() + SECONDS
        while not all(gone(process) for process in before):  # they end with it (their parent-death signal)
            assert time.monotonic() < deadline, "a game process outlived its fork server"
            time.sleep(0.05)
        after = game_processes(server)
        assert {process.pid for process in after}.isdisjoint(process.pid for process in before)
        assert after[0].ppid() == after[1].ppid() != fork_server.pid
        create_at_both_homes(server)
        assert any("fork server ended; starting it again" in line for line in server.log_lines())


def test_a_supervisor_killed_with_9_leaves_no_process_of_its_server(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--processes", "2") as server:
        game_processes(server)
        tree = psutil.Process(server.pid).children(recursive=True)
        assert len(tree) == 3  # the fork server and two game processes
        server.kill()
        deadline = time.monotonic() + SECONDS
        while not all(gone(process) for process in tree):
            assert time.monotonic() < deadline, f"left running: {[p for p in tree if not gone(p)]}"
            time.sleep(0.05)


def test_a_stopped_server_ends_every_process_and_says_so(tmp_path: Path) -> None:
    """SIGTERM (a service manager's stop) reaches the supervisor: it ends the game processes
    through the fork server, which ends after them, and the server says every game is kept. Process 0,
    which serves the solver pool to the other, ends last, so the other's last lines do not say the
    pool went away and is being dialled again."""
    server = ServerProcess(tmp_path, "--processes", "2", "--solver-workers", "1").start()
    game_processes(server)
    tree = psutil.Process(server.pid).children(recursive=True)
    assert server.process is not None
    server.process.send_signal(signal.SIGTERM)
    assert server.process.wait(SECONDS) == 0
    assert server.process.stdout is not None
    assert "every game is kept" in server.process.stdout.read()
    assert all(gone(process) for process in tree)
    assert [line for line in server.log_lines() if "solver pool" in line] == []


FORKS_FAIL = """
import errno, os
import battle.online.server.processes.fork_server as forks
real, calls = forks._fork_game_process, []
def refused(*arguments):
    calls.append(1)
    if len(calls) <= {failures}:
        raise OSError(errno.EAGAIN, os.strerror(errno.EAGAIN))
    return real(*arguments)
forks._fork_game_process = refused
"""
"""A prelude: the fork server's first ``failures`` forks fail as at the system's limit of processes."""


def test_a_fork_that_fails_is_tried_again_and_said_in_the_log(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--processes", "2", prelude=FORKS_FAIL.format(failures=1)) as server:
        game_processes(server)
        create_at_both_homes(server)
        log = server.log_lines()
    assert sum("could not be started (Resource temporarily unavailable); trying again" in line for line in log) == 1


SAID_WHEN_FORKS_FAIL = {
    "en": "mahjong-battle: process {index} of the server could not be started 3 times (last: {reason})",
    "de": "mahjong-battle: Prozess {index} des Servers konnte 3 Mal nicht gestartet werden (zuletzt: {reason})",
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_forks_that_keep_failing_stop_the_server_in_one_line(tmp_path: Path, language: str) -> None:
    """The one line is in the user's language, as every other error of ``serve``."""
    server = ServerProcess(tmp_path, "--processes", "2", prelude=FORKS_FAIL.format(failures=100), env=LOCALES[language])
    with pytest.raises(AssertionError):  # it never says where it serves
        server.start()
    assert server.process is not None and server.process.wait(SECONDS) == 2
    said = [line for line in server.log_lines() if line.startswith("mahjong-battle:")]
    reason = os.strerror(errno.EAGAIN)
    assert said in ([SAID_WHEN_FORKS_FAIL[language].format(index=index, reason=reason)] for index in (0, 1)), said


@pytest.mark.parametrize(
    ("code", "english", "german"),
    [(-9, "killed by signal SIGKILL", "beendet durch das Signal SIGKILL"), (1, "exit code 1", "Exit-Code 1")],
)
def test_a_process_that_exits_at_its_start_is_said_by_how_it_ended(code: int, english: str, german: str) -> None:
    """A return code of -9 is a signal, not a code: the stop's reason names it, in either language."""
    reason = Sentence(EXITED_AT_START, {"index": 1, "count": 3, "how": how_it_exited(code)})
    assert reason.said(str) == f"process 1 of the server exited 3 times at its start (last: {english})"
    in_german = reason.said(catalogue("de").gettext)
    assert in_german == f"Prozess 1 des Servers hat sich 3 Mal gleich beim Start beendet (zuletzt: {german})"
