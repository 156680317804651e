"""The survey for real on a Dask ``LocalCluster``, with small jobs (starts 44-56 tiles into numbered
deals, so a deal takes milliseconds): stored values against a plain solve, a worker killed
mid-run, a whole run killed and resumed, and the command line's report."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battle.atlas.deal_list import parse_deal_list
from battle.atlas.solve_deal import start_position
from battle.atlas.survey_db import SCHEMA_VERSION, DealResult, SurveyDatabase, SurveyDatabaseError
from battle.atlas.survey_report import format_report, summarise
from battle.atlas.survey_run import SurveyPlan, pending_deals, run_survey
from battle.rules.board import move_name
from solver.engine import Engine
from solver.limits import Limits

ROOT = Path(__file__).resolve().parents[2]
COMMAND = [sys.executable, "-c", "from battle.cli import entry_point; entry_point()"]


def plain_solve(deal: int, tiles: int) -> tuple[int, set[str]]:
    analysis = Engine(table_bits=18).search(start_position(deal, tiles), Limits())
    assert analysis.exact
    return analysis.value, {move_name(move) for move in analysis.best_moves}


# -- deal lists and the database ----------------------------------------------------------------


def test_deal_lists() -> None:
    assert parse_deal_list("1-5") == [1, 2, 3, 4, 5]
    assert parse_deal_list(" 7, 1-3 ,2,42") == [7, 1, 2, 3, 42]
    for bad, phrase in (
        ("", "no deals"),
        ("5-1", "backwards"),
        ("1-x", "not a deal number"),
        ("-3", "not a deal"),
        ("1-2000000", "more than"),
        ("99999999999999999999", "not a deal number"),
    ):
        with pytest.raises(ValueError, match=phrase):
            parse_deal_list(bad)


@given(st.text(max_size=40))
def test_a_deal_list_is_read_or_refused_in_one_line(text: str) -> None:
    try:
        deals = parse_deal_list(text)
    except ValueError as error:
        assert "\n" not in str(error)
    else:
        assert deals and len(deals) == len(set(deals))


def result(deal: int, solved: bool = True) -> DealResult:
    return DealResult(deal, 50, solved, 3, 127, ("a1-b1",) if solved else None, 10, 0.5, None, "test", "here")


def test_the_database_resumes_and_sets_a_bad_file_aside(tmp_path: Path) -> None:
    path = tmp_path / "survey.sqlite3"
    with SurveyDatabase(path) as database:
        database.store(result(1), 1.0)
        database.store(result(2, solved=False), 2.0)
    with SurveyDatabase(path) as database:
        plan = SurveyPlan([1, 2, 3], tiles=50)
        assert pending_deals(database, plan) == [3]
        assert pending_deals(database, SurveyPlan([1, 2, 3], tiles=50, retry_unsolved=True)) == [2, 3]
        assert pending_deals(database, SurveyPlan([1, 2, 3], tiles=108)) == [1, 2, 3]
        assert [r.best_moves for r in database.results(50)] == [("a1-b1",), None]
    damaged = path.read_bytes()[:100] + b"\xff" * 4000  # its header, and garbage where its pages were
    path.write_bytes(damaged)
    database = SurveyDatabase(path)
    assert database.notice is not None and "set aside" in str(database.notice) and database.results(50) == []
    database.close()
    assert (tmp_path / "survey.sqlite3.corrupt").read_bytes() == damaged


def test_a_file_that_is_not_a_survey_database_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("deal 5 looked even\n")
    other = tmp_path / "games.sqlite3"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE games (id TEXT)")
    newer = tmp_path / "newer.sqlite3"
    SurveyDatabase(newer).close()
    with sqlite3.connect(newer) as connection:
        connection.execute("PRAGMA user_version = 99")
    for path, words in (
        (text, "a file of another kind"),
        (other, rf"not a survey database \(schema version 0, expected {SCHEMA_VERSION}\)"),
        (newer, r"written by a newer version \(schema 99"),
    ):
        before = path.read_bytes()
        for read_only in (False, True):  # a survey run, and a reader (the window, a report)
            with pytest.raises(SurveyDatabaseError, match=words):
                SurveyDatabase(path, read_only=read_only)
        assert path.read_bytes() == before and not path.with_name(path.name + ".corrupt").exists()
    with pytest.raises(SurveyDatabaseError, match="no survey database there"):
        SurveyDatabase(tmp_path / "missing.sqlite3", read_only=True)
    assert main_files(tmp_path) == ["games.sqlite3", "newer.sqlite3", "notes.txt"]


def main_files(folder: Path) -> list[str]:
    """The files in ``folder`` but a WAL database's -wal and -shm, which a read-only reader of
    one leaves behind for its next writer (it may not delete them)."""
    return sorted(path.name for path in folder.iterdir() if not path.name.endswith(("-wal", "-shm")))


def test_a_worker_keeps_its_engine_only_while_the_table_fits_the_start() -> None:
    import threading

    from battle.atlas import solve_deal

    engines: list[Engine] = []

    def tasks() -> None:  # a worker thread of its own, as Dask's: the engine is per thread
        solver = solve_deal._solver(None, 1)
        engines.extend(solver._engine_for(solve_deal.start_position(1, tiles)) for tiles in (40, 40, 76, 76, 40))

    worker = threading.Thread(target=tasks)
    worker.start()
    worker.join()
    first, again, bigger, kept, smaller = engines
    assert again is first and kept is bigger and smaller is not bigger
    assert len(bigger.tt) > len(first.tt) == len(smaller.tt)  # a 76-tile start is not searched in a 40's table


def test_a_deal_over_its_time_limit_is_stopped_and_the_next_one_starts_afresh() -> None:
    import threading

    from battle.atlas.solve_deal import solve_deal

    results = []

    def tasks() -> None:  # one worker thread: the starts of 48-64 tiles want a 32 MiB table and share an engine
        results.append(solve_deal(4, tiles=60, time_limit=600, threads=1))
        results.append(solve_deal(1, tiles=64, time_limit=0.001, threads=1))
        results.append(solve_deal(2, tiles=48, threads=1))
        results.append(solve_deal(3, tiles=92, time_limit=1.0, megabytes=64, threads=1))

    worker = threading.Thread(target=tasks)
    worker.start()
    worker.join()
    within, stopped, after, previewed = results
    # a limit the deal stays within costs nothing: the search is the exact one, not deepened step by step
    unlimited = Engine(table_bits=21).search(start_position(4, 60), Limits())
    assert within.solved and (within.nodes, within.value) == (unlimited.nodes, unlimited.value)
    assert not stopped.solved and stopped.best_moves is None and stopped.seconds < 1
    assert after.solved and (after.value, set(after.best_moves or ())) == plain_solve(2, 48)
    # from 88 tiles the search previews step by step first: a stopped deal keeps that estimate
    assert not previewed.solved and 2 < previewed.depth < 127 and 1.0 <= previewed.seconds < 3


# -- the survey on a real local cluster -----------------------------------------------------------


def test_a_local_cluster_survey_stores_what_a_plain_solve_finds(tmp_path: Path) -> None:
    import dask

    deals = list(range(1, 13))
    pauses: list[dict[str, object]] = []

    def worker_settings(client) -> None:  # noqa: ANN001 - a dask Client
        pauses.append(client.run(dask.config.get, "distributed.worker.memory.pause"))

    with SurveyDatabase(tmp_path / "survey.sqlite3") as database:
        progress = run_survey(SurveyPlan(deals, tiles=48, workers=2), database, on_client=worker_settings)
        assert (progress.done, progress.solved, progress.failed) == (12, 12, [])
        # a worker whose table is most of its memory keeps solving: Dask's pause at 80% is off
        assert list(pauses[0].values()) == [False, False]
        stored = database.results(48)
        again = run_survey(SurveyPlan(deals, tiles=48, workers=2), database)
        assert (again.done, again.skipped) == (0, 12)  # nothing is solved twice
    assert [r.deal for r in stored] == deals
    for row in stored:
        value, best = plain_solve(row.deal, 48)
        assert (row.solved, row.value, set(row.best_moves or ())) == (True, value, best), row.deal


def test_a_worker_killed_mid_run_leaves_the_survey_complete_and_exact(tmp_path: Path) -> None:
    deals = list(range(20, 44))
    killed: list[int] = []
    clients = []

    def kill_one_worker(progress, stored) -> None:  # noqa: ANN001 - SurveyProgress, DealResult | None
        if stored is not None and not killed and clients:
            pids = clients[0].run(os.getpid)
            pid = sorted(pids.values())[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    with SurveyDatabase(tmp_path / "survey.sqlite3") as database:
        progress = run_survey(
            SurveyPlan(deals, tiles=56, workers=2), database, report=kill_one_worker, on_client=clients.append
        )
        stored = database.results(56)
    assert killed and progress.failed == []
    assert [r.deal for r in stored] == deals and all(r.solved for r in stored)
    for row in stored[::6]:
        assert row.value == plain_solve(row.deal, 56)[0]


def test_a_deal_whose_worker_dies_every_time_is_reported_in_one_line(tmp_path: Path) -> None:
    with SurveyDatabase(tmp_path / "survey.sqlite3") as database:  # 0.1 GB: Dask kills the worker on every try
        progress = run_survey(SurveyPlan([7], tiles=56, workers=1, memory_per_worker=0.1), database)
        assert database.results(56) == []  # not stored: the next run tries it again
    assert [str(line) for line in progress.failed] == [
        "deal 7: its worker died 3 times while solving it (out of memory? give each worker "
        "more with --memory-per-worker, or run fewer)"
    ]


def test_a_killed_run_resumes_without_losing_or_repeating_a_deal(tmp_path: Path) -> None:
    database = tmp_path / "survey.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data")}
    arguments = COMMAND + ["survey", "1-40", "--tiles", "56", "--workers", "1", "--db", str(database)]
    run = subprocess.Popen(
        arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True
    )
    deadline = time.monotonic() + 120
    first: dict[int, float] = {}
    while time.monotonic() < deadline and len(first) < 3:
        time.sleep(0.2)
        if database.exists():
            with sqlite3.connect(database) as connection, contextlib.suppress(sqlite3.OperationalError):
                # the file exists a moment before its table does
                first = dict(connection.execute("SELECT deal, stored_at FROM results").fetchall())
    os.killpg(run.pid, signal.SIGKILL)  # the command and its cluster's processes
    run.wait(10)
    assert 3 <= len(first) < 40, len(first)
    done = subprocess.run(arguments, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    with sqlite3.connect(database) as connection:
        rows = dict(connection.execute("SELECT deal, stored_at FROM results").fetchall())
    assert sorted(rows) == list(range(1, 41))
    assert all(rows[deal] == stored_at for deal, stored_at in first.items())  # none solved a second time
    assert f"{len(first)} already stored" in done.stdout or "already stored" in done.stdout


def test_a_run_stopped_by_kill_closes_its_cluster_and_says_it_resumes(tmp_path: Path) -> None:
    database = tmp_path / "survey.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data")}
    arguments = COMMAND + ["survey", "1-400", "--tiles", "60", "--workers", "1", "--db", str(database)]
    run = subprocess.Popen(
        arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not database.exists():
        time.sleep(0.2)
    time.sleep(1.0)  # the cluster is up and solving
    run.send_signal(signal.SIGTERM)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 128 + signal.SIGTERM, err[-2000:]
    assert err.rstrip().splitlines()[-1] == (
        "stopped by SIGTERM: every deal finished so far is stored; the same command resumes"
    )
    assert "Traceback" not in err and "leaked" not in err
    ended = time.monotonic() + 10
    while time.monotonic() < ended:  # its worker and the worker's helpers end with it
        try:
            os.killpg(run.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.killpg(run.pid, signal.SIGKILL)
        raise AssertionError("a process of the stopped survey is still running")


def test_a_start_the_greedy_line_left_without_a_pair_is_reported_without_a_first_move() -> None:
    assert start_position(3, 12).legal_moves() == []  # stuck at 18 tiles: the survey stores +0, no best move
    start = start_position(1, 12)
    biggest = move_name(max(start.legal_moves(), key=start.move_points))
    ended = DealResult(3, 12, True, 0, 0, (), 1, 0.0, None, "t", "w")
    played = DealResult(1, 12, True, 3, 5, (biggest,), 9, 0.1, None, "t", "w")
    report = summarise([ended, played])
    assert (report.solved, report.with_moves, report.biggest_not_best) == (2, 1, 0)
    assert "the biggest pair is not a best first move in 0 (0%) of the deals" in format_report(report, 12)


def test_the_report_and_its_plot_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "survey.sqlite3"
    with SurveyDatabase(path) as database:
        for deal, value in ((1, 4), (2, -2), (3, 0), (4, 4)):
            start = start_position(deal, 50)
            best = move_name(max(start.legal_moves(), key=start.move_points))
            database.store(DealResult(deal, 108, True, value, 127, (best,), 100, 60.0 * deal, None, "t", "w"), 1.0)
        database.store(DealResult(5, 108, False, 3, 20, None, 100, 900.0, 900.0, "t", "w"), 1.0)
    text = format_report(summarise(SurveyDatabase(path).results(108)))
    assert "5 deals surveyed" in text and "4 solved exactly, 1 unsolved" in text
    assert "over the time limit: deal 5 (~+3) ('survey DEALS --retry-unsolved" in text
    assert "(and 0.25 h on the deals over the limit)" in text
    assert "wins 2 (50%), draws 1 (25%), loses 1 (25%)" in text and "mean +1.50" in text
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data")}
    plot = tmp_path / "values.png"
    done = subprocess.run(
        COMMAND + ["survey", "--report", "--db", str(path), "--plot", str(plot)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "first player wins 2" in done.stdout and plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for arguments, phrase in (
        (["survey"], "name the deals"),
        (["survey", "5-1"], "backwards"),
        (["survey", "--report", "1-3"], "give no DEALS"),
        (["survey", "1", "--plot", "x.png"], "--plot goes with --report"),
        (["survey", "1", "--tiles", "7"], "even number of tiles"),
        (["survey", "1", "--memory-per-worker", "0.1"], "0.1 GB is too little for a worker"),
        (["survey", "1", "--scheduler", "http://x:1"], "not a Dask scheduler address like"),
        (["survey", "--report", "--db", "no.sqlite3"], "no survey database at no.sqlite3"),
        (["survey", "--export", "c.tsv", "--db", "no.sqlite3"], "no survey database at"),
    ):
        done = subprocess.run(COMMAND + arguments, capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
        assert done.returncode == 2 and phrase in done.stderr, (arguments, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "no.sqlite3").exists()  # a report makes no database


# -- the catalogue: par, fair deals, the deal of the day ---------------------------------------------


def catalogue_file(tmp_path: Path, rows: list[tuple[int, int]]) -> Path:
    from battle.atlas.catalogue import format_catalogue

    results = [DealResult(deal, 108, True, value, 127, ("a1-b1",), 10, 60.0, None, "t", "w") for deal, value in rows]
    results.append(DealResult(99, 108, False, 5, 20, None, 10, 900.0, 900.0, "t", "w"))  # unsolved: no par
    path = tmp_path / "catalogue.tsv"
    path.write_text(format_catalogue(results, "a test"))
    return path


def test_the_catalogue_gives_par_fair_deals_and_a_daily_deal(tmp_path: Path) -> None:
    import datetime

    from battle.atlas.catalogue import Catalogue

    shipped = catalogue_file(tmp_path, [(1, 0), (2, 4), (3, -1), (4, 0), (5, 3)])
    with SurveyDatabase(tmp_path / "mine.sqlite3") as database:  # the user's own survey adds to it
        database.store(DealResult(6, 108, True, 0, 127, None, 1, 1.0, None, "t", "w"), 1.0)
    catalogue = Catalogue.load(shipped, tmp_path / "mine.sqlite3")
    assert len(catalogue) == 6 and catalogue.par(99) is None and catalogue.problems == []
    assert catalogue.par(2).describe() == "Par: first player +4" and "even" in catalogue.par(1).describe()
    assert catalogue.fair_deals() == [1, 4, 6] and catalogue.fair_deals(margin=1) == [1, 3, 4, 6]
    assert catalogue.fair_deals(handicap=3) == [5]
    day = datetime.date(2026, 11, 26)
    assert catalogue.daily_deal(day) == catalogue.daily_deal(day) in catalogue.fair_deals(margin=2)
    days = {catalogue.daily_deal(day + datetime.timedelta(days=n)) for n in range(30)}
    assert len(days) > 1
    broken = tmp_path / "broken.tsv"
    broken.write_text("1\tfour\t-\t1\t1\tt\n")
    assert "line 1" in Catalogue.load(broken, tmp_path / "none.sqlite3").problems[0]
    mine = tmp_path / "mine.sqlite3"
    with SurveyDatabase(mine) as survey_in_progress:  # the window reads beside a running survey
        survey_in_progress.store(DealResult(7, 108, True, 2, 127, None, 1, 1.0, None, "t", "w"), 2.0)
        assert len(Catalogue.load(shipped, mine)) == 7
        survey_in_progress.store(DealResult(8, 108, True, 0, 127, None, 1, 1.0, None, "t", "w"), 3.0)
    files = main_files(tmp_path)
    mine.write_bytes(mine.read_bytes()[:100] + b"\xff" * 4000)  # damaged: said, and left for the survey
    damaged = Catalogue.load(shipped, mine)
    assert len(damaged) == 5 and len(damaged.problems) == 1 and "not a survey database" in damaged.problems[0]
    assert main_files(tmp_path) == files


def test_deal_fair_daily_and_show_par_from_the_command_line(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data")}
    survey = tmp_path / "data" / "mahjong-battle" / "atlas" / "survey.sqlite3"
    survey.parent.mkdir(parents=True)
    with SurveyDatabase(survey) as database:
        for deal, value in ((7, 0), (8, 5)):
            database.store(DealResult(deal, 108, True, value, 127, ("a1-b1",), 1, 1.0, None, "t", "w"), 1.0)

    def run(*arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            COMMAND + list(arguments), capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path
        )

    fair = run("deal", "--fair")
    # deal 7 here is even; a shipped even deal may be picked too
    assert fair.returncode == 0 and fair.stdout.startswith("# deal ") and "; Par: even" in fair.stdout, fair.stdout[:80]
    handicap = run("deal", "--fair", "--handicap", "5").stdout  # deal 8 here, or a shipped +5 deal
    assert handicap.startswith("# deal ") and "; Par: first player +5" in handicap.splitlines()[0]
    daily = run("deal", "--daily")
    assert daily.returncode == 0 and daily.stdout.startswith("# deal ") and "; Par: " in daily.stdout.splitlines()[0]
    (tmp_path / "d8.mbp").write_text(run("deal", "8").stdout)
    shown = run("show", "d8.mbp")
    assert "Par: first player +5 (deal 8 before move 1)" in shown.stdout
    for arguments, phrase in (
        (["deal", "5", "--fair"], "give no number"),
        (["deal", "--margin", "2"], "go with --fair"),
        (["deal", "--fair", "--handicap", "40"], "no catalogued deal has a value of +40"),
    ):
        done = run(*arguments)
        assert done.returncode == 2 and phrase in done.stderr, (arguments, done.stderr)


def test_export_writes_the_catalogue_the_game_reads(tmp_path: Path) -> None:
    from battle.atlas.catalogue import read_catalogue

    path = tmp_path / "survey.sqlite3"
    with SurveyDatabase(path) as database:
        database.store(DealResult(3, 108, True, -2, 127, ("c1-c9", "d1-e1"), 5, 70.0, 1500.0, "0.1.0", "w"), 1.0)
        database.store(DealResult(4, 108, False, 1, 30, None, 5, 1500.0, 1500.0, "0.1.0", "w"), 1.0)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data")}
    done = subprocess.run(
        COMMAND + ["survey", "--export", str(tmp_path / "c.tsv"), "--db", str(path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0 and "1 solved deals written" in done.stdout, done.stderr
    text = (tmp_path / "c.tsv").read_text()
    assert "'mahjong-battle survey 3-4 --time-limit 1500'" in text
    pars = read_catalogue(tmp_path / "c.tsv")
    assert list(pars) == [3] and pars[3].value == -2 and pars[3].best_moves == ("c1-c9", "d1-e1")


def test_the_shipped_catalogue_reads() -> None:
    from battle.atlas.catalogue import CATALOGUE_NAME, read_catalogue
    from battle.resources import asset_path

    pars = read_catalogue(asset_path("atlas", CATALOGUE_NAME))
    assert all(par.best_moves for par in pars.values())
