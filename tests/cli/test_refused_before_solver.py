"""Every argument and file is checked before the solver loads: a typo gets its one line without
numba's import (0.4 s on a quiet machine, 35-50 s on a busy one) or Dask's, and a Ctrl-C while
the command's own modules load ends it with one line and code 130, not an import's traceback.

What a command imported is read from ``python -X importtime``, which names every module on
standard error as its import ends: no timing, the same on any load.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from battle.rules.deal import deal
from battle.rules.notation import format_position
from tests.cli.terminal_process import WAIT, home_env

POSIX = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT and its exit code are POSIX")
HEAVY = ("numba", "distributed", "solver")
"""Modules a refused command must not have loaded."""


def imported_and_said(done: subprocess.CompletedProcess[str]) -> tuple[set[str], list[str]]:
    """The modules ``-X importtime`` names, and the other lines of standard error."""
    modules, said = set(), []
    for line in done.stderr.splitlines():
        if line.startswith("import time:"):
            modules.add(line.rsplit("|", 1)[1].strip())
        else:
            said.append(line)
    return modules, said


def typo_cases(home: Path) -> list[tuple[list[str], str]]:
    position = home / "deal-3.mbp"
    position.write_text(format_position(deal(3)), encoding="utf-8")
    (home / "folder").mkdir()
    missing = str(home / "nofolder" / "x.sqlite3")
    return [
        (["play", "--vs", "clbu"], "unknown level 'clbu'"),
        (["play", "--vs", "club", "--deal", "abc"], "'abc' is not a deal number"),
        (["play", "--vs", "club", "--load", "d7.mbg"], "d7.mbg: "),
        (["play", "--vs", "club", "--resume"], "no unfinished game to resume"),
        (["review", "d7.mbp"], "d7.mbp: "),
        (["review", str(position)], "not a game record"),
        (["solve", "d7.mbp"], "d7.mbp: "),
        (["solve", "d7.mbp", "--nodes", "5", "--threads", "2", "--hash", "64"], "d7.mbp: "),
        (["solve", str(position), "--threads", "65"], "65 threads is too many: at most 64"),
        (["analyse", str(position), "--hash", "5"], "the smallest table is 32 MiB"),
        (["solve", str(position), "--nodes", str(2**62 + 1)], "at most 4611686018427387904"),
        (["puzzles", "make", "--out", "folder"], "folder is a folder"),
        (["survey", "1-2", "--db", missing], "there is no folder"),
        (["serve", "--db", missing, "--port", "0"], "there is no folder"),
    ]


def test_a_typo_is_refused_before_the_solver_or_dask_loads(tmp_path: Path) -> None:
    for argv, reason in typo_cases(tmp_path):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "battle", *argv],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env=home_env(tmp_path),
            cwd=tmp_path,
            timeout=WAIT,
        )
        modules, said = imported_and_said(done)
        assert done.returncode == 2 and len(said) == 1 and reason in said[0], (argv, said)
        assert not modules & set(HEAVY), (argv, sorted(modules & set(HEAVY)))
    assert not (tmp_path / "nofolder").exists()  # serve makes no folder for a mistyped --db


def test_the_bounds_checked_without_the_solver_are_the_solvers() -> None:
    from battle.cli import search_bounds
    from battle.players import LEVELS, MOST_SEARCH_NODES, MOST_SEARCH_THREADS, SMALLEST_TABLE_MEGABYTES

    assert tuple(LEVELS) == search_bounds.LEVEL_NAMES
    assert search_bounds.MOST_SEARCH_NODES == MOST_SEARCH_NODES
    assert search_bounds.MOST_SEARCH_THREADS == MOST_SEARCH_THREADS
    assert search_bounds.SMALLEST_TABLE_MEGABYTES == SMALLEST_TABLE_MEGABYTES


def sigint_at_default() -> None:  # a preexec_fn
    """A shell's background job (and pytest-xdist's worker) starts with SIGINT ignored: a terminal's
    Ctrl-C reaches a command with its default action."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@POSIX
@pytest.mark.parametrize("language, word", [("en", "interrupted"), ("de", "abgebrochen")])
def test_ctrl_c_while_the_command_loads_says_one_line(tmp_path: Path, language: str, word: str) -> None:
    """``show -`` waits on its input: wherever the Ctrl-C lands, in an import, while the parser is
    built or in the read, the answer is the same. It is sent as each of these modules is imported."""
    for module in (
        "battle.rules.board",
        "battle.i18n",
        "battle.cli.command_line",
        "battle.cli.online_commands",
        "battle.cli.solver_commands",
    ):
        child = subprocess.Popen(
            [sys.executable, "-X", "importtime", "-m", "battle", "--lang", language, "show", "-"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=home_env(tmp_path),
            cwd=tmp_path,
            preexec_fn=sigint_at_default,
        )
        try:
            assert child.stderr is not None and child.stdout is not None
            for line in child.stderr:
                if line.startswith("import time:") and line.rsplit("|", 1)[1].strip() == module:
                    child.send_signal(signal.SIGINT)
                    break
            else:
                raise AssertionError(f"{module} was never imported")
            rest = child.stderr.read()
            out = child.stdout.read()
            child.wait(WAIT)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
            for stream in (child.stdin, child.stdout, child.stderr):
                if stream is not None:
                    stream.close()
        said = [line for line in rest.splitlines() if not line.startswith("import time:")]
        assert (child.returncode, said, out) == (130, [f"mahjong-battle: {word}"], ""), module
