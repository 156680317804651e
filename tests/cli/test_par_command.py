"""``mahjong-battle par`` as a user runs it, a real process each: pars from the shipped catalogue and
from the survey database at once, a deal solved and kept (slow: deal 49 takes 20-40 s), Ctrl-C in
a solve keeps nothing half-done and says how to go on, a second run beside a solving one is
refused in one line, and bad input is one line with exit code 2."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from battle.atlas.survey_db import FULL_DEAL, DealResult, SurveyDatabase
from tests.cli.terminal_process import WAIT, home_env


def par(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "battle", "par", *args],
        capture_output=True,
        text=True,
        env=home_env(home),
        cwd=home,
        timeout=WAIT,
    )


class Solving:
    """``par ARGS`` running, its stderr read line by line as it comes."""

    def __init__(self, home: Path, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "battle", "par", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=home_env(home),
            cwd=home,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.put(line)
        self.lines.put("")

    def wait_for(self, text: str) -> list[str]:
        """Every stderr line up to the first holding ``text`` (bounded by ``WAIT``)."""
        deadline, seen = time.monotonic() + WAIT, []
        while not seen or text not in seen[-1]:
            line = self.lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line, f"stderr ended before {text!r}: {seen}"
            seen.append(line)
        return seen

    def stop(self) -> tuple[int, str, str]:
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=WAIT)
        assert self.process.stdout is not None
        out = self.process.stdout.read()  # a few lines: the pipe held them
        rest = []
        while (line := self.lines.get(timeout=WAIT)) != "":
            rest.append(line)
        return self.process.returncode, out, "".join(rest)


def survey_path(home: Path) -> Path:
    return home / "data" / "mahjong-battle" / "atlas" / "survey.sqlite3"


def test_known_pars_print_at_once_from_the_shipped_catalogue_and_the_survey(tmp_path: Path) -> None:
    done = par(tmp_path, "1,2", "--json")
    assert done.returncode == 0 and done.stderr == ""
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        {"deal": 1, "par": 4, "best_moves": ["a1-i9"], "source": "shipped"},
        {"deal": 2, "par": 6, "best_moves": ["c1-h1", "e9-k9", "i1-l1"], "source": "shipped"},
    ]
    assert not survey_path(tmp_path).exists()  # nothing to solve: no database made
    with SurveyDatabase(survey_path(tmp_path)) as database:  # as an earlier run (or a survey) kept it
        database.store(DealResult(3, FULL_DEAL, True, 6, 127, ("b1-g9",), 10, 1.0, None, "0.1.0", "here"), 1.0)
    done = par(tmp_path, "3", "1")
    assert done.returncode == 0 and "solving" not in done.stderr
    assert done.stdout.splitlines() == [
        "deal 3: Par: first player +6; best first moves b1-g9 (from your survey database)",
        "deal 1: Par: first player +4; best first moves a1-i9 (from the shipped catalogue)",
    ]


def test_ctrl_c_in_a_solve_keeps_nothing_half_done_and_a_second_run_is_refused(tmp_path: Path) -> None:
    solving = Solving(tmp_path, "1,3")  # deal 1 is shipped; deal 3 takes minutes
    seen = solving.wait_for("deal 3: solving")
    assert all("deal 1" not in line for line in seen)
    beside = par(tmp_path, "3")  # would solve deal 3 twice
    assert beside.returncode == 2 and beside.stdout == ""
    assert beside.stderr.count("\n") == 1 and "a survey is already running on this file" in beside.stderr
    code, out, err = solving.stop()
    assert code == 130
    assert out == "deal 1: Par: first player +4; best first moves a1-i9 (from the shipped catalogue)\n"
    assert err.endswith("stopped: every par found so far is kept; the same command resumes\n"), err
    with SurveyDatabase(survey_path(tmp_path), read_only=True) as database:
        assert database.results() == []


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["1-x"], "'1-x' is not a deal number or a range of them"),
        (["5-2"], "the range runs backwards"),
        (["1", "--db", "/nonexistent/par.sqlite3"], "there is no folder /nonexistent"),
        (["1", "--threads", "0"], "--threads"),
    ],
)
def test_bad_input_is_one_line_with_exit_code_2(tmp_path: Path, args: list[str], said: str) -> None:
    done = par(tmp_path, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr


@pytest.mark.slow
def test_a_deal_solved_here_agrees_with_the_catalogue_and_is_kept(tmp_path: Path) -> None:
    done = par(tmp_path, "49", "--verify", "--threads", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "deal 49: Par: first player +2; best first moves f1-g1 h1-j9 (solved now, kept in your survey database)"
        " agrees with the shipped catalogue\n"
    )
    with SurveyDatabase(survey_path(tmp_path), read_only=True) as database:
        (kept,) = database.results()
    assert (kept.deal, kept.solved, kept.value, kept.best_moves) == (49, True, 2, ("f1-g1", "h1-j9"))
    again = par(tmp_path, "49")
    assert again.stdout.startswith("deal 49: Par: first player +2;") and "(from your survey database)" in again.stdout
