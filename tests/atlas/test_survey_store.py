"""The survey's file as users meet it, through real processes: hostile rows in a file of the old
schema, two surveys started at once, and a report on a fresh install that counts the deals the
game ships."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from battle.atlas.catalogue import read_catalogue
from battle.atlas.survey_db import SCHEMA_VERSION, DealResult, SurveyDatabase
from battle.resources import asset_path
from battle.rules.deal import MAX_DEAL

ROOT = Path(__file__).resolve().parents[2]
COMMAND = [sys.executable, "-m", "battle"]
OLD_SCHEMA = """
CREATE TABLE results (
    deal INTEGER NOT NULL,
    tiles INTEGER NOT NULL,
    solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
    value INTEGER NOT NULL,
    depth INTEGER NOT NULL,
    best_moves TEXT,
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,
    time_limit REAL,
    solver_version TEXT NOT NULL,
    worker TEXT NOT NULL,
    stored_at REAL NOT NULL,
    PRIMARY KEY (deal, tiles)
);
PRAGMA user_version = 1;
"""
"""The table as a release whose table is not STRICT made it."""


def environment(home: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(home), "NO_COLOR": "1"}


def run(*arguments: str, home: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *arguments],
        capture_output=True,
        text=True,
        env=environment(home),
        cwd=cwd,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )


def own_survey(home: Path) -> Path:
    path = home / "mahjong-battle" / "atlas" / "survey.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def good_row(deal: int, value: int, tiles: int = 108) -> tuple[object, ...]:
    return (deal, tiles, 1, value, 127, '["a1-b1"]', 10, 1.0, None, "t", "w", 1.0)


def test_hostile_survey_rows_are_skipped_and_said_once_by_every_command(tmp_path: Path) -> None:
    path = own_survey(tmp_path)
    with sqlite3.connect(path) as connection:
        connection.executescript(OLD_SCHEMA)
        rows = [
            good_row(501, 0),
            good_row(502, 5),
            (503, 108, 1, 2, 127, "[not json", 10, 1.0, None, "t", "w", 1.0),
            (504, 108, 1, "x", 127, None, 10, 1.0, None, "t", "w", 1.0),
        ]
        connection.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    (tmp_path / "d502.mbp").write_text(run("deal", "502", home=tmp_path, cwd=tmp_path).stdout)
    said = "2 unreadable rows in " + str(path) + " skipped (deal 503: best_moves '[not json' is not a JSON list"
    for arguments in (
        ["show", "d502.mbp"],
        ["deal", "--daily"],
        ["deal", "--fair"],
        ["survey", "--report"],
        ["survey", "--export", str(tmp_path / "mine.tsv")],
    ):
        done = run(*arguments, home=tmp_path, cwd=tmp_path)
        assert done.returncode == 0, (arguments, done.stderr[-2000:])
        assert done.stderr.splitlines() == [f"mahjong-battle: {said}, ...)"], (arguments, done.stderr)
    assert (
        "Par: first player +5 (deal 502 before move 1)" in run("show", "d502.mbp", home=tmp_path, cwd=tmp_path).stdout
    )
    assert sorted(read_catalogue(tmp_path / "mine.tsv")) == [501, 502]
    with SurveyDatabase(path) as database:  # a run on the old file goes on storing into it
        database.store(DealResult(505, 108, True, 1, 127, None, 1, 1.0, None, "t", "w"), 2.0)
        assert [result.deal for result in database.results()] == [501, 502, 505]


def test_a_new_survey_database_refuses_hostile_values(tmp_path: Path) -> None:
    path = tmp_path / "survey.sqlite3"
    SurveyDatabase(path).close()
    with sqlite3.connect(path) as connection:
        for row in (
            (1, 108, 1, "x", 127, None, 1, 1.0, None, "t", "w", 1.0),
            (2, 108, 1, 3, 127, "[not json", 1, 1.0, None, "t", "w", 1.0),
            (3, 108, 1, 3, 127, None, 1, -1.0, None, "t", "w", 1.0),
        ):
            with pytest.raises(sqlite3.IntegrityError):
                connection.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)


def test_the_report_on_a_fresh_install_counts_the_shipped_deals_and_the_users_own(tmp_path: Path) -> None:
    shipped = read_catalogue(asset_path("atlas", "catalogue.tsv"))
    plot = tmp_path / "values.png"
    fresh = run("survey", "--report", "--plot", str(plot), home=tmp_path, cwd=tmp_path)
    assert fresh.returncode == 0, fresh.stderr[-2000:]
    first, second = fresh.stdout.splitlines()[:2]
    assert first.startswith(
        f"{len(shipped)} deals: {len(shipped)} from the catalogue the game ships, none of your own yet"
    ), first
    assert second.startswith(f"{len(shipped)} deals surveyed (whole deals): {len(shipped)} solved exactly")
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and fresh.stderr == ""
    catalogued = min(shipped)
    with SurveyDatabase(own_survey(tmp_path)) as database:  # one deal the catalogue has, one it lacks
        for deal in (catalogued, 900):
            database.store(DealResult(deal, 108, True, 0, 127, None, 1, 1.0, None, "t", "w"), 1.0)
    mine = run("survey", "--report", home=tmp_path, cwd=tmp_path)
    assert mine.returncode == 0, mine.stderr[-2000:]
    assert mine.stdout.splitlines()[0] == (
        f"{len(shipped) + 1} deals: {len(shipped)} from the catalogue the game ships, 2 from your survey "
        f"({own_survey(tmp_path)}); 1 in both, yours counted"
    )


# -- two surveys on one file -----------------------------------------------------------------------


def survey(database: Path, deals: str, home: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*COMMAND, "survey", deals, "--tiles", "56", "--workers", "1", "--db", str(database)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(home),
        cwd=home,
        start_new_session=True,
    )


def stored(database: Path) -> dict[int, float]:
    with sqlite3.connect(database) as connection:
        return dict(connection.execute("SELECT deal, stored_at FROM results").fetchall())


def test_two_surveys_at_once_one_solves_and_the_other_says_so(tmp_path: Path) -> None:
    database = tmp_path / "survey.sqlite3"
    runs = [survey(database, "1-6", tmp_path), survey(database, "1-6", tmp_path)]  # a new file
    ends = [run.communicate(timeout=300) for run in runs]
    codes = sorted(run.returncode for run in runs)
    assert codes == [0, 2], [end[1][-2000:] for end in ends]
    [(_, refused)] = [end for run, end in zip(runs, ends, strict=True) if run.returncode == 2]
    [line] = refused.splitlines()
    # the holder named once its claim holds its number; a second at the same instant reads "another process"
    assert "a survey is already running on this file (" in line and str(database) in line, line
    assert sorted(stored(database)) == list(range(1, 7))
    first = survey(database, "1-40", tmp_path)  # an existing file: the second starts while the first solves
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(stored(database)) < 8:
        time.sleep(0.2)
    second = survey(database, "1-40", tmp_path)
    out, err = second.communicate(timeout=120)
    assert second.returncode == 2 and "a survey is already running on this file" in err and out == "", err
    out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err[-2000:]
    assert sorted(stored(database)) == list(range(1, 41))
    assert "6 already stored" in out


# -- a worker killed while the local cluster starts --------------------------------------------------


def spawned_children(pid: int) -> list[int]:
    """The processes ``pid`` spawned through multiprocessing (Dask's workers), from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:  # ended meanwhile
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"spawn_main" in command:
            found.append(int(entry))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the worker in /proc")
def test_a_worker_killed_while_the_cluster_starts_is_started_again(tmp_path: Path) -> None:
    database = tmp_path / "survey.sqlite3"
    run = survey(database, "1-3", tmp_path)
    killed: list[int] = []
    deadline = time.monotonic() + 120
    while not killed and time.monotonic() < deadline and run.poll() is None:
        for pid in spawned_children(run.pid):  # still importing: its nanny has not heard from it yet
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
        time.sleep(0.01)
    out, err = run.communicate(timeout=300)
    assert killed, "no worker seen"
    assert run.returncode == 0, err[-3000:]
    assert "Traceback" not in err and "Nanny failed" not in err, err[-3000:]
    assert "3 deals solved now" in out and sorted(stored(database)) == [1, 2, 3]


OPENER = """
import sys, time
from pathlib import Path
from battle.atlas.survey_db import SurveyDatabase, SurveyDatabaseError
folder, go = Path(sys.argv[1]), Path(sys.argv[2])
while not go.exists():
    time.sleep(0.001)
failures = 0
for number in range(int(sys.argv[3])):
    try:
        SurveyDatabase(folder / f"survey{number}.sqlite3").close()
    except SurveyDatabaseError as error:
        failures += 1
        print(error)
sys.exit(1 if failures else 0)
"""


def test_two_processes_making_the_same_new_file_both_open_it(tmp_path: Path) -> None:
    go = tmp_path / "go"
    # three copies over 100 new files: the WAL switch's "database is locked" came 1-4 times in 300
    openers = [
        subprocess.Popen(
            [sys.executable, "-c", OPENER, str(tmp_path), str(go), "100"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment(tmp_path),
        )
        for _ in range(3)
    ]
    time.sleep(1.0)  # both imported and waiting (the race itself is settled by the go file, not this pause)
    go.touch()
    for opener in openers:
        out, err = opener.communicate(timeout=120)
        assert opener.returncode == 0, (out[-1000:], err[-1000:])
    for number in range(100):
        with sqlite3.connect(tmp_path / f"survey{number}.sqlite3") as connection:
            assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
            assert connection.execute("SELECT count(*) FROM results").fetchone()[0] == 0


# -- what a reader meets in an older or damaged file, and deal 0 ----------------------------------------

VERSION_1_SCHEMA = """
CREATE TABLE results (
    deal INTEGER NOT NULL CHECK (deal >= 1),
    tiles INTEGER NOT NULL CHECK (tiles BETWEEN 4 AND 108),
    solved INTEGER NOT NULL CHECK (solved IN (0, 1)),
    value INTEGER NOT NULL CHECK (value BETWEEN -1000 AND 1000),
    depth INTEGER NOT NULL CHECK (depth >= 0),
    best_moves TEXT CHECK (best_moves IS NULL OR json_valid(best_moves)),
    nodes INTEGER NOT NULL CHECK (nodes >= 0),
    seconds REAL NOT NULL CHECK (seconds >= 0),
    time_limit REAL,
    solver_version TEXT NOT NULL,
    worker TEXT NOT NULL,
    stored_at REAL NOT NULL,
    PRIMARY KEY (deal, tiles)
) STRICT;
PRAGMA user_version = 1;
"""
"""Version 1 as a release with STRICT tables made it: deal 0 refused by its CHECK."""


def test_a_text_deal_number_in_an_older_table_is_skipped_and_said_once_by_every_reader(tmp_path: Path) -> None:
    path = own_survey(tmp_path)
    with sqlite3.connect(path) as connection:
        connection.executescript(OLD_SCHEMA)
        rows = [good_row(501, 0), ("abc", 108, 1, 3, 127, None, 10, 1.0, None, "t", "w", 1.0), good_row(502, 5)]
        connection.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    said = f"mahjong-battle: 1 unreadable row in {path} skipped (deal 'abc' is not a deal number (0 to {MAX_DEAL}))"
    for arguments in (["survey", "--report"], ["survey", "--export", "mine.tsv"], ["deal", "--fair", "--margin", "9"]):
        done = run(*arguments, home=tmp_path, cwd=tmp_path)
        assert done.returncode == 0, (arguments, done.stderr[-2000:])
        assert done.stderr.splitlines() == [said], (arguments, done.stderr)
    assert sorted(read_catalogue(tmp_path / "mine.tsv")) == [501, 502]


def test_a_damaged_page_costs_a_reader_the_rows_on_it_said_once(tmp_path: Path) -> None:
    """A report, an export and the catalogue read past the page (read only: the file is left as it
    is, a survey may be writing it) and say how many rows it hid; the report and the export end
    with code 1, so that a script learns its result is not whole."""
    path = own_survey(tmp_path)
    with SurveyDatabase(path) as database:
        for deal in range(1001, 1401):  # about 100 rows a page: the damaged one is in the middle
            database.store(DealResult(deal, 108, True, deal % 7, 127, ("a1-b1",), 10, 1.0, None, "t", f"w{deal}"), 1.0)
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    page = data.index(b"w1200") // page_size
    data[page * page_size : (page + 1) * page_size] = b"\x00" * 8 + b"\xa5" * (page_size - 8)
    path.write_bytes(bytes(data))
    exported = run("survey", "--export", "mine.tsv", home=tmp_path, cwd=tmp_path)
    assert exported.returncode == 1, exported.stderr[-2000:]
    kept = sorted(read_catalogue(tmp_path / "mine.tsv"))
    assert 1001 in kept and 1400 in kept and 1200 not in kept and 200 < len(kept) < 400
    said = f"mahjong-battle: {400 - len(kept)} rows of {path} are on damaged pages and could not be read"
    assert exported.stderr.splitlines() == [said]
    for arguments, code in ((["survey", "--report"], 1), (["deal", "--fair", "--margin", "9"], 0)):
        done = run(*arguments, home=tmp_path, cwd=tmp_path)
        assert done.returncode == code, (arguments, done.stderr[-2000:])
        assert done.stderr.splitlines() == [said], (arguments, done.stderr)
    assert path.read_bytes() == bytes(data)


def test_deal_0_is_surveyed_and_a_version_1_file_is_read_then_upgraded(tmp_path: Path) -> None:
    """Deal 0 is a deal (``battle.rules.deal``: 0 to 2**63 - 1). A version 1 file, whose CHECK
    refused it, reads as it is for a report and is widened by the next run, keeping its rows
    and its STRICT table."""
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.executescript(VERSION_1_SCHEMA)
        connection.execute(
            "INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            good_row(7, 2, tiles=12),
        )
    report = run("survey", "--report", "--db", str(path), "--tiles", "12", home=tmp_path, cwd=tmp_path)
    assert report.returncode == 0 and report.stderr == "", report.stderr[-2000:]
    assert report.stdout.startswith(f"from {path}: 1 deal")
    solved = run("survey", "0-3", "--tiles", "12", "--workers", "1", "--db", str(path), home=tmp_path, cwd=tmp_path)
    assert solved.returncode == 0, solved.stderr[-3000:]
    assert "4 deals solved now (4 exactly, 0 over the time limit), 0 already stored, 0 failed" in solved.stdout
    assert sorted(stored(path)) == [0, 1, 2, 3, 7]
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        strict = [row for row in connection.execute("PRAGMA table_list('results')")]
        assert strict[0][5] == 1, strict
        with pytest.raises(sqlite3.IntegrityError):  # the widened table keeps its other CHECKs
            connection.execute("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", good_row(-1, 0))
    report = run("survey", "--report", "--db", str(path), "--tiles", "12", home=tmp_path, cwd=tmp_path)
    assert report.stdout.startswith(f"from {path}: 5 deals"), report.stdout


@pytest.mark.parametrize("kind", ["link to a file", "dangling link", "fifo", "folder"])
def test_a_survey_lock_that_is_no_regular_file_is_refused_in_one_line_before_any_solve(
    tmp_path: Path, kind: str
) -> None:
    """A link at ``FILE.lock`` is never followed: the run's process id went into the file it named
    (the user's notes.txt became "m11585")."""
    database = tmp_path / "survey.sqlite3"
    lock = tmp_path / "survey.sqlite3.lock"
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    if kind == "link to a file":
        lock.symlink_to(notes)
    elif kind == "dangling link":
        lock.symlink_to(tmp_path / "nowhere")
    elif kind == "fifo":
        os.mkfifo(lock)
    else:
        lock.mkdir()
    done = run("survey", "1-3", "--tiles", "12", "--workers", "1", "--db", str(database), home=tmp_path, cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == "", done.stderr[-2000:]
    [line] = done.stderr.splitlines()
    assert line.startswith(f"mahjong-battle: {database}: cannot claim the survey database: {lock} is "), line
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    assert not database.exists() and not (tmp_path / "nowhere").exists()
