"""The run folders of ``serve --processes N``: a supervisor killed with -9 leaves its folder, and the
next one to start removes it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil

from battle.cli.run_folders import PID_FILE, PREFIX, make_run_folder, sweep_run_folders
from tests.online_server import ServerProcess


def ended_pid() -> int:
    """The id of a process that has ended (and been waited for)."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def run_folder(parent: Path, name: str, pid: int | None) -> Path:
    folder = parent / f"{PREFIX}{name}"
    folder.mkdir()
    (folder / "stats-0.txt").write_text("games 0\n")
    if pid is not None:
        (folder / PID_FILE).write_text(f"{pid}\n")
    return folder


def test_only_the_folders_of_supervisors_gone_are_swept(tmp_path: Path) -> None:
    gone = run_folder(tmp_path, "gone", ended_pid())
    running = run_folder(tmp_path, "running", os.getpid())
    being_made = run_folder(tmp_path, "new", None)
    other = tmp_path / "someone-else"
    other.mkdir()
    (other / PID_FILE).write_text(f"{ended_pid()}\n")
    assert sweep_run_folders(tmp_path) == [gone]
    assert not gone.exists() and running.exists() and being_made.exists() and other.exists()


def test_a_new_folder_names_its_supervisor(tmp_path: Path) -> None:
    folder = make_run_folder(tmp_path)
    assert folder.name.startswith(PREFIX) and (folder / PID_FILE).read_text() == f"{os.getpid()}\n"
    assert sweep_run_folders(tmp_path) == []


def test_the_folder_of_a_supervisor_killed_with_9_is_gone_once_another_starts(tmp_path: Path) -> None:
    temporary = Path(tempfile.mkdtemp(prefix="mb-"))  # short: a socket's path holds ~100 bytes
    try:
        killed_and_started(tmp_path, temporary)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)


def killed_and_started(tmp_path: Path, temporary: Path) -> None:
    server = ServerProcess(tmp_path, "--processes", "2", env={"TMPDIR": str(temporary)})
    with server:
        (left,) = temporary.glob(PREFIX + "*")
        children = psutil.Process(server.pid).children()
        server.kill()
        psutil.wait_procs(children, timeout=30)  # its game processes end once their supervisor is gone
        assert left.exists()
        server.start()
        assert not left.exists()
        assert len(list(temporary.glob(PREFIX + "*"))) == 1
    assert list(temporary.glob(PREFIX + "*")) == []
