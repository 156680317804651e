"""Another revision of this repository, checked out for a benchmark to run beside the working tree.

``checked_out("3dde8aa")`` gives a temporary ``git worktree`` of that revision (removed at the
end), whose server a benchmark starts with the same command as its own: the figures of both
come from one run on one machine, under the same load, which is what makes them comparable.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def short_name(revision: str) -> str:
    """``revision``'s abbreviated commit id (``HEAD`` and branch names resolved); SystemExit if there is none."""
    found = subprocess.run(
        ["git", "rev-parse", "--short", "--verify", f"{revision}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
    )
    if found.returncode != 0:
        raise SystemExit(f"--against: {revision!r} is no commit of this repository")
    return found.stdout.strip()


@contextlib.contextmanager
def checked_out(revision: str) -> Iterator[Path]:
    """A temporary worktree of ``revision`` (detached), removed when the block ends."""
    folder = Path(tempfile.mkdtemp(prefix=f"tree-{short_name(revision)}-"))
    added = subprocess.run(
        ["git", "worktree", "add", "--detach", str(folder), revision],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if added.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise SystemExit(f"--against: cannot check out {revision}: {added.stderr.strip()[:300]}")
    try:
        yield folder
    finally:
        subprocess.run(
            ["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, capture_output=True, timeout=120
        )
        shutil.rmtree(folder, ignore_errors=True)
