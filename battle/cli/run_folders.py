"""The run folders ``serve --processes N`` keeps in the temporary directory, and their sweeping.

A supervisor's run folder holds its game processes' sockets and figures
(``mahjong-battle-serve-*``, a few files); it is removed when the supervisor stops, but a
supervisor killed with -9 (a host's ``systemctl kill``, a test's restart) cannot remove it. So
each folder names its supervisor's process id in ``supervisor.pid``, and a starting supervisor
removes the folders of its user whose supervisor is gone: the temporary directory holds at most
the running servers' folders and those of servers killed since the last start.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

PREFIX = "mahjong-battle-serve-"
"""The start of a run folder's name."""
PID_FILE = "supervisor.pid"
"""The file in a run folder naming the process id of the supervisor that made it."""


def make_run_folder(parent: Path | None = None) -> Path:
    """A fresh run folder for this process, after the stale ones under ``parent`` (default: the
    temporary directory) are swept."""
    base = Path(parent or tempfile.gettempdir())
    sweep_run_folders(base)
    folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir=base))
    (folder / PID_FILE).write_text(f"{os.getpid()}\n", encoding="ascii")
    return folder


def sweep_run_folders(parent: Path) -> list[Path]:
    """Remove the run folders under ``parent`` owned by this user whose supervisor is not running;
    returns them. A folder without a readable process id is left alone: it may be one being made."""
    removed: list[Path] = []
    try:
        candidates = list(parent.glob(PREFIX + "*"))
    except OSError:
        return removed
    for folder in candidates:
        try:
            if not folder.is_dir() or folder.is_symlink() or folder.stat().st_uid != os.getuid():
                continue
            pid = int((folder / PID_FILE).read_text(encoding="ascii").strip())
        except (OSError, ValueError):
            continue
        if pid > 0 and not _running(pid):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _running(pid: int) -> bool:
    """Whether a process ``pid`` exists (one of another user's counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
