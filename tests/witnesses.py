"""What a failing test prints of the real processes it ran: each one's command, addresses, exit
code and last log lines, so a failure seen once on a loaded machine can be read and run again.

A helper that starts a real process (``ServerProcess``, ``TerminalProcess``, a proxy, PostgreSQL)
calls ``witness(describe)`` with a function that tells its story as it stands then; the root
``conftest.py`` adds each story to the report of a test that fails (a section headed "real
processes", printed with the failure). A witness is kept for the test that started it, and for
later tests while it still runs (a module's shared server).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

LOG_LINES = 40
"""The last lines of a log a story quotes: a traceback and what led to it, not the whole run."""


@dataclass
class Witness:
    describe: Callable[[], str]
    running: Callable[[], bool]


_witnesses: list[Witness] = []


def witness(describe: Callable[[], str], running: Callable[[], bool] = lambda: False) -> None:
    """Keep ``describe`` for the report of the test running now (and of later ones while ``running``)."""
    _witnesses.append(Witness(describe, running))


def stories() -> list[str]:
    """Every kept witness's story; one that cannot tell (its log gone) says why."""
    told = []
    for kept in _witnesses:
        try:
            told.append(kept.describe())
        except Exception as problem:  # a report must not fail for its witness
            told.append(f"(a witness could not tell: {type(problem).__name__}: {problem})")
    return told


def test_ended() -> None:
    """A test's report is written: keep only the witnesses that still run, for the next test."""
    _witnesses[:] = [kept for kept in _witnesses if _still(kept)]


def _still(kept: Witness) -> bool:
    try:
        return kept.running()
    except Exception:
        return False


def log_tail(path: Path, lines: int = LOG_LINES) -> str:
    """The last ``lines`` lines of ``path`` ("(no log)" where there is none)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return f"(no log at {path})"
    kept = text.splitlines()[-lines:]
    return "\n".join(f"    | {line}" for line in kept) if kept else "    (empty log)"
