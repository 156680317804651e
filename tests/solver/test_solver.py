"""The solver against the slow, obviously-correct ``tests/naive.py``, and its public contract.

Random small positions (numbered deals played down by random moves, and composed
positions with three or four free copies of a kind, lone tiles, player 2 to move,
nonzero scores) are solved by both; every value, best-move set, per-move value and
best line must agree. Then the limits, stopping, the background thread, the levels,
the command line, the import boundary and the on-disk kernel cache.

The shared positions and checks (``small_position``, ``check_against_naive``, ...) live in
``tests/solver/solver_cases.py``; ``test_solver_slow.py`` runs the same checks on thousands of positions.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from battle.cli import main
from battle.cli.json_shapes import AnalyseJSON, MoveValueJSON
from battle.rules.board import Position, move_name, parse_move
from battle.rules.deal import deal
from battle.rules.notation import format_position, parse_position
from battle.rules.tiles import EMPTY, KIND_COUNT
from solver import FULL_DEPTH, Analysis, Engine, Limits, Progress, SolveJSON
from solver.levels import LEVELS, best_move, get_level
from tests import naive
from tests.benchmark_scripts import load_script
from tests.solver.solver_cases import (
    BIG,
    CROSS_CHECKS,
    DATA,
    MAX_NAIVE_TILES,
    ROOT,
    assert_usable,
    cache_files,
    check_against_naive,
    check_line,
    composed,
    free_counts,
    has_lone_tile,
    known_values,
    load,
    played_down,
    replay,
    small_position,
)


@pytest.fixture(scope="module")
def engine() -> Engine:
    """One engine for the module, warmed up, so the kernels load (or compile) only once."""
    engine = Engine(table_bits=18)
    engine.search(load(DATA / "n024_s500001.mbp"), all_exact=True)
    return engine


# -- cross-check against the naive solver -----------------------------------------------


@pytest.mark.parametrize("seed", range(CROSS_CHECKS))
def test_search_agrees_with_naive(engine: Engine, seed: int) -> None:
    check_against_naive(engine, small_position(seed))


def test_the_cross_check_covers_the_awkward_cases() -> None:
    """The random cases really include what the rules make special."""
    cases = [small_position(seed) for seed in range(CROSS_CHECKS)]
    assert all(case.tiles_left() <= MAX_NAIVE_TILES for case in cases)
    assert sum(4 in free_counts(case).values() for case in cases) >= 12
    assert sum(3 in free_counts(case).values() for case in cases) >= 30
    assert sum(has_lone_tile(case) for case in cases) >= 100
    assert sum(case.to_move == 2 for case in cases) >= 100
    assert sum(case.scores[0] != case.scores[1] for case in cases) >= 200
    assert sum(case.is_over() for case in cases) >= 5  # value 0, no moves
    assert sum(len(naive.best_moves(case.copy())[1]) >= 2 for case in cases) >= 30  # ties


@pytest.mark.parametrize(
    "name",
    ["four-free-copies", "three-free-copies", "lone-tiles", "same-column-pairs", "empty-board", "over-with-tiles-left"],
)
def test_hand_made_positions_agree_with_naive(engine: Engine, name: str) -> None:
    check_against_naive(engine, load(Path(__file__).parents[1] / "data" / "positions" / f"{name}.mbp"))


def test_a_finished_game_is_worth_nothing(engine: Engine) -> None:
    position = load(Path(__file__).parents[1] / "data" / "positions" / "over-with-tiles-left.mbp")
    analysis = engine.search(position)
    assert (analysis.value, analysis.best_moves, analysis.pv, analysis.exact) == (0, [], [], True)
    assert analysis.final_score == tuple(position.scores)


# -- one engine, many positions ---------------------------------------------------------


def relabelled(position: Position, rng: random.Random) -> Position:
    """Same shape (the same column runs, so the same table keys), other tiles."""
    kinds = list(range(KIND_COUNT))
    rng.shuffle(kinds)
    return Position(
        [EMPTY if kind == EMPTY else kinds[kind] for kind in position.cells], position.to_move, position.scores
    )


def test_one_engine_across_deals_with_the_same_shape() -> None:
    """The table is keyed on column runs: a new layout must not reuse old values."""
    engine = Engine(table_bits=16)
    rng = random.Random(7)
    differing = 0
    for _ in range(20):
        first = played_down(rng, MAX_NAIVE_TILES, min_tiles=12)
        second = relabelled(first, rng)
        values = {id(p): naive.value(p.copy()) for p in (first, second)}
        differing += values[id(first)] != values[id(second)]
        for position in (first, second, first, second):
            assert engine.search(position).value == values[id(position)], format_position(position)
    # Guard against a check that cannot fail: a stale table would answer wrongly here.
    assert differing >= 10


def test_one_engine_across_many_deals() -> None:
    engine = Engine(table_bits=16)
    rng = random.Random(8)
    for _ in range(40):
        position = played_down(rng, MAX_NAIVE_TILES) if rng.random() < 0.7 else composed(rng, MAX_NAIVE_TILES)
        value, best = naive.best_moves(position.copy())
        analysis = engine.search(position)
        assert (analysis.value, analysis.best_moves) == (value, best), format_position(position)


@pytest.mark.parametrize("number", [3, 11])
def test_one_engine_along_a_game(number: int) -> None:
    """A game's positions, forwards then backwards (undo), with one warm table.

    Each answer matches a cold engine's, the naive solver's once small enough, and
    a best move hands the opponent exactly the value it leaves.
    """
    rng = random.Random(number)
    position = deal(number)
    while position.tiles_left() > 44 and not position.is_over():
        position.push(rng.choice(position.legal_moves()))
    warm = Engine(table_bits=16)
    line: list[Position] = []
    while True:
        line.append(position.copy())
        analysis = warm.search(position)
        cold = Engine(table_bits=16).search(position)
        assert (analysis.value, analysis.best_moves) == (cold.value, cold.best_moves)
        if position.tiles_left() <= MAX_NAIVE_TILES:
            assert (analysis.value, analysis.best_moves) == naive.best_moves(position.copy())
        if position.is_over():
            break
        # Alternate a best move and a random one, so the line leaves the table's best line.
        if len(line) % 2:
            move = analysis.best_moves[-1]
            points = position.push(move)
            assert warm.search(position).value == points - analysis.value
        else:
            position.push(rng.choice(position.legal_moves()))
    assert len(line) >= 10
    for earlier in reversed(line):
        expected = Engine(table_bits=16).search(earlier)
        assert warm.search(earlier).value == expected.value


# -- known values of bigger positions ---------------------------------------------------


def test_the_known_values_file() -> None:
    rows = known_values()
    assert sorted({row["tiles_left"] for row in rows}) == [24, 40, 56]
    assert len(rows) == 12
    for row in rows:
        assert load(DATA / f"{row['id']}.mbp").tiles_left() == row["tiles_left"]


@pytest.mark.parametrize("row", known_values(), ids=lambda row: row["id"])
def test_known_value(engine: Engine, row: dict) -> None:
    position = load(DATA / f"{row['id']}.mbp")
    analysis = engine.search(position)
    assert analysis.exact
    assert analysis.value == row["value"]
    assert sorted(move_name(m) for m in analysis.best_moves) == sorted(row["best_moves"])
    check_line(position, analysis)


def test_the_module_level_solve(engine: Engine) -> None:
    """``solver.solve`` is the scripting entry point the API promises: its own engine, the same answers."""
    import solver

    row = known_values()[4]
    position = load(DATA / f"{row['id']}.mbp")
    analysis = solver.solve(position, threads=1)
    assert analysis.exact and analysis.value == row["value"]
    assert sorted(move_name(m) for m in analysis.best_moves) == sorted(row["best_moves"])
    check_line(position, analysis)
    every = solver.solve(position, all_exact=True, threads=1)
    assert all(mv.exact for mv in every.move_values)
    assert {mv.move for mv in every.move_values} == set(position.legal_moves())
    limited = solver.solve(load(BIG), Limits(nodes=20_000), threads=1)
    assert_usable(load(BIG), limited)
    assert solver.best_move(position, "perfect", rng=random.Random(1)) in analysis.best_moves
    assert {"solve", "best_move", "Engine", "Limits", "LEVELS"} <= set(solver.__all__)


# -- limits and stopping ----------------------------------------------------------------


@contextlib.contextmanager
def watchdog(engine: Engine, seconds: float = 10.0) -> Iterator[None]:
    """Stop the engine after ``seconds`` anyway, so that a limit the search ignores
    fails the test's timing assertion instead of hanging the suite for minutes."""
    timer = threading.Timer(seconds, engine.stop)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def test_time_limit(engine: Engine) -> None:
    position = load(BIG)
    engine.clear()
    started = time.perf_counter()
    with watchdog(engine):
        analysis = engine.search(position, Limits(time=0.2))
    assert time.perf_counter() - started < 1.5
    assert_usable(position, analysis)
    assert analysis.depth < FULL_DEPTH


def test_node_limit(engine: Engine) -> None:
    position = load(BIG)
    engine.clear()
    started = time.perf_counter()
    with watchdog(engine):
        analysis = engine.search(position, Limits(nodes=50_000))
    assert time.perf_counter() - started < 1.5
    assert_usable(position, analysis)
    assert 50_000 <= analysis.nodes <= 100_000


def test_depth_limit_on_a_big_position(engine: Engine) -> None:
    position = load(BIG)
    started = time.perf_counter()
    with watchdog(engine):
        analysis = engine.search(position, Limits(depth=2))
    assert time.perf_counter() - started < 1.5
    assert_usable(position, analysis)
    assert analysis.depth == 2


def test_a_search_whose_time_is_up_before_it_begins_answers_from_two_moves_at_once(engine: Engine) -> None:
    """A deadline already past (a command whose start-up took its whole ``--time``) stops the search
    before its first iteration, not when a timer thread gets round to it: no iteration is reported
    and the answer is the two-move search's."""
    position = load(BIG)
    engine.clear()
    reports = []
    with watchdog(engine):
        analysis = engine.search(position, Limits(time=5.0, deadline=time.monotonic() - 1.0), progress=reports.append)
    assert reports == []
    assert (analysis.depth, analysis.exact) == (2, False)
    assert_usable(position, analysis)


TINY = """\
to-move: 2
score: 10 20
5p 2s 7m .. .. .. .. .. .. .. .. ..
7m .. .. .. .. .. .. .. .. .. .. ..
3m .. .. .. .. .. .. .. .. .. .. ..
2s .. .. .. .. .. .. .. .. .. .. ..
5p .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
"""
"""5p on both ends of column a; taking them frees 7m and 2s (3m stays buried between),
whose twins wait on c1 and b1. Two moves after the first, every tile is free."""


def test_depth_limit_that_reaches_the_end_is_exact(engine: Engine) -> None:
    position = parse_position(TINY)
    value, best = naive.best_moves(position.copy())
    shallow = engine.search(position, Limits(depth=1))
    assert not shallow.exact  # after one move, 3m is still buried under pairs
    deep = engine.search(position, Limits(depth=2))
    assert (deep.exact, deep.depth, deep.value, deep.best_moves) == (True, FULL_DEPTH, value, best)
    check_line(position, deep)


def test_stop_from_another_thread(engine: Engine) -> None:
    position = load(BIG)
    engine.clear()
    timer = threading.Timer(0.2, engine.stop)
    started = time.perf_counter()
    timer.start()
    analysis = engine.search(position)
    elapsed = time.perf_counter() - started
    timer.cancel()
    assert 0.15 < elapsed < 10.0  # stopped: the whole search takes minutes; a loaded machine is slow to stop
    assert_usable(position, analysis)


def test_a_stop_is_heard_at_the_next_node(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop ends the search at the kernel's next node, not after a stride of nodes: under load a
    fresh table's page faults slow the first nodes to a millisecond each, and ``--time`` has 0.5 s."""
    position = load(BIG)
    engine.clear()
    at_stop: list[int] = []
    at_finish: list[int] = []

    def progress(report: Progress) -> None:
        if report.depth >= 8 and not at_stop:
            at_stop.append(engine._nodes())
            engine.stop()  # on the search's own thread, between two iterations: no race

    finish = engine._finish

    def counted_finish(*args: object, **kwargs: object) -> Analysis:
        at_finish.append(engine._nodes())  # before the best line's short searches add theirs
        return finish(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "_finish", counted_finish)
    analysis = engine.search(position, Limits(depth=40), progress=progress)
    assert at_stop and not analysis.exact and analysis.depth == 8
    # the next iteration's root calls the kernel once a move at most, each ending at its first node
    assert at_finish[0] - at_stop[0] <= len(position.legal_moves())


def test_a_stop_while_the_search_works_out_its_answer_changes_nothing(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second stop (another Ctrl-C, a stop timer firing late) after the search has ended leaves its
    answer whole: the two-move search of a search stopped before it began, and the best line."""
    position = load(BIG)
    engine.clear()
    iterate, child_value = engine._iterate, engine._child_value

    def stopped_iterate(*args: Any, **kwargs: Any) -> Any:
        engine.stop()  # the only iteration is the two-move answer's
        return iterate(*args, **kwargs)

    def stopped_child_value(*args: Any, **kwargs: Any) -> Any:
        engine.stop()  # each ply of the best line
        return child_value(*args, **kwargs)

    monkeypatch.setattr(engine, "_iterate", stopped_iterate)
    monkeypatch.setattr(engine, "_child_value", stopped_child_value)
    engine.stop()  # before the search begins: it answers from a two-move search
    analysis = engine.search(position, Limits(time=60))
    assert (analysis.depth, len(analysis.pv)) == (2, 2) and not analysis.exact
    assert_usable(position, analysis)
    engine.stop()  # after the search: kept for the next one, as before
    assert engine.search(position, Limits(time=60)).depth == 2


def test_stop_after_stops_the_search_and_leaves_the_next_one_unstopped(engine: Engine) -> None:
    """``stop_after`` ends a search that runs long; the next search on the engine runs to its end."""
    position = load(BIG)
    engine.clear()
    started = time.perf_counter()
    stopped = engine.search(position, Limits(stop_after=0.2))
    assert 0.15 < time.perf_counter() - started < 1.5
    assert not stopped.exact
    assert_usable(position, stopped)
    small = played_down(random.Random(7), 40, 36)
    engine.clear()
    plain = engine.search(small)
    engine.clear()
    guarded = engine.search(small, Limits(stop_after=600))
    # a stop the search stays within costs no nodes: it is the same search as an unlimited one
    assert guarded.exact and (guarded.nodes, guarded.value) == (plain.nodes, plain.value)


def test_a_node_stop_ends_an_exact_search_in_slices_that_keep_what_they_proved(engine: Engine) -> None:
    """``stop_after_nodes`` stops the search without making it deepen step by step: searched again and
    again from its own table, the position is proved, with the value of one whole search, and every
    stopped slice's ``proved`` is a bound the value keeps (once a root move is searched to the end)."""
    position = played_down(random.Random(11), 72, 60)
    engine.clear()
    whole = engine.search(position)
    engine.clear()
    guarded = engine.search(position, Limits(stop_after_nodes=whole.nodes + 1_000_000))
    assert guarded.exact and (guarded.nodes, guarded.value) == (whole.nodes, whole.value)  # the same search
    engine.clear()
    proved: list[int | None] = []
    for _ in range(500):
        sliced = engine.search(position, Limits(stop_after_nodes=max(1_000, whole.nodes // 40)))
        if sliced.exact:
            break
        proved.append(engine.status().proved)
    assert sliced.exact and sliced.value == whole.value and len(proved) > 1
    bounds = [bound for bound in proved if bound is not None]
    assert bounds and all(bound <= whole.value for bound in bounds)
    assert engine.status().proved == whole.value  # the finished search proved its value


def test_cancelling_a_stop_timer_waits_for_a_stop_already_under_way() -> None:
    """Otherwise the stop lands after the search cleared it, and stops the next search at once."""
    from solver.engine import _cancel

    began, landed = threading.Event(), []

    def slow_stop() -> None:
        began.set()
        time.sleep(0.2)
        landed.append(True)

    timer = threading.Timer(0, slow_stop)
    timer.start()
    assert began.wait(5)
    _cancel(timer)
    assert landed == [True]


def test_status_while_an_exact_search_runs(engine: Engine) -> None:
    """An exact solve is one long iteration; ``status`` says which root move it is on meanwhile."""
    position = load(BIG)
    engine.clear()
    done = threading.Event()
    thread = threading.Thread(target=lambda: (engine.search(position), done.set()), daemon=True)
    thread.start()
    with watchdog(engine):
        status = engine.status()
        while status.move is None or status.nodes < 10_000:
            assert not done.is_set(), "an 80-tile solve should not finish this fast"
            time.sleep(0.01)
            status = engine.status()
        engine.stop()
        thread.join()
    assert status.depth == FULL_DEPTH and status.move_number >= 1
    assert status.moves == len(position.legal_moves()) and status.move in position.legal_moves()
    assert status.seconds > 0 and (status.best_move is None) == (status.best_value is None)


def test_solve_says_what_it_does_between_reports(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from battle.cli import solver_commands as cli_solver

    monkeypatch.setattr(cli_solver, "LOGGED_STATUS_SECONDS", 0.1)  # capsys's stderr is no terminal
    code, _, err = run_cli(capsys, "solve", str(BIG), "--time", "0.8", "--hash", "32")
    assert code == 0
    status = [line for line in err.splitlines() if line.startswith("  searching (")]
    assert status, err
    assert all("Mnodes/s" in line and " nodes " in line for line in status)


def test_a_status_line_every_five_seconds_on_a_terminal_and_every_minute_in_a_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    from battle.cli.solver_commands import status_seconds

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    assert status_seconds() == 5.0
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    assert status_seconds() == 60.0
    monkeypatch.setattr(sys, "stderr", None)  # pythonw: nothing to write to
    assert status_seconds() == 60.0


def test_the_status_line() -> None:
    from battle.cli.solver_commands import format_status
    from solver import SearchStatus

    first = SearchStatus(1_234_567, 2.0, FULL_DEPTH, 1, 14, (8, 17), None, None)
    assert format_status(first) == (
        "  searching (exact): move 1/14 a9-b9, no move searched yet  1,234,567 nodes  0.62 Mnodes/s  2.0s"
    )
    later = SearchStatus(4_000_000, 4.0, 12, 3, 14, (8, 17), 7, (0, 9))
    assert format_status(later).startswith("  searching (depth 12): move 3/14 a9-b9, best so far +7 a1-b1  ")
    # a compile is done and said before the search starts: the engine's own wait is a load from the cache
    loading = SearchStatus(0, 5.0, 0, 0, 0, None, None, None, loading=True)
    assert format_status(loading) == "  preparing the solver: loading its kernels from the cache  5.0s"


def test_the_status_says_when_the_kernels_are_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first search of a process loads (or on a new install compiles) the kernels
    first; a status read meanwhile says so instead of showing a search that never moves."""
    from solver import engine as engine_module

    engine = Engine(table_bits=16)
    seen = []
    original = Engine._load_kernels

    def spy(self: Engine, root: object, moves: list) -> None:
        seen.append(self.status().loading)
        original(self, root, moves)

    monkeypatch.setattr(engine_module, "_kernels_loaded", [])
    monkeypatch.setattr(Engine, "_load_kernels", spy)
    engine.search(load(DATA / "n024_s500001.mbp"))
    assert seen == [True]
    assert not engine.status().loading


def test_progress_reports_deepening(engine: Engine) -> None:
    position = load(DATA / "n056_s500011.mbp")
    engine.clear()
    reports = []
    analysis = engine.search(position, Limits(depth=8), progress=reports.append)
    depths = [report.depth for report in reports]
    assert len(depths) >= 2
    assert depths == sorted(set(depths)), depths
    assert depths[-1] == analysis.depth
    legal = set(position.legal_moves())
    assert all(report.best_move in legal for report in reports)
    assert [r.nodes for r in reports] == sorted(r.nodes for r in reports)


# -- levels -----------------------------------------------------------------------------


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_plays_a_legal_move(engine: Engine, level: str) -> None:
    for row in known_values()[:6]:
        position = load(DATA / f"{row['id']}.mbp")
        move = best_move(position, level, engine=engine, rng=random.Random(0))
        assert move in position.legal_moves()


def test_perfect_plays_a_best_move(engine: Engine) -> None:
    positions = [small_position(seed) for seed in range(60)]
    positions = [p for p in positions if len(naive.best_moves(p.copy())[1]) >= 1]
    rng = random.Random(0)
    for position in positions:
        best = naive.best_moves(position.copy())[1]
        for _ in range(3):
            assert best_move(position, "perfect", engine=engine, rng=rng) in best


def test_unknown_level() -> None:
    with pytest.raises(ValueError, match="nonsense") as error:
        get_level("nonsense")
    for name in LEVELS:
        assert name in str(error.value)


# -- command line -----------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    row = known_values()[1]
    path = DATA / f"{row['id']}.mbp"
    code, out, _ = run_cli(capsys, "solve", str(path), "--json", "--quiet")
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["value", "best_moves", "pv", "final_score", "exact", "nodes", "seconds"]
    assert list(data) == list(SolveJSON.__annotations__)  # the type says what the output is
    assert type(data["value"]) is int and data["value"] == row["value"]
    assert data["best_moves"] == sorted(row["best_moves"])
    assert data["exact"] is True
    assert type(data["nodes"]) is int and data["nodes"] > 0
    assert isinstance(data["seconds"], float) and data["seconds"] >= 0
    assert all(isinstance(m, str) for m in data["pv"]) and data["pv"][0] in row["best_moves"]
    position = load(path)
    end = replay(position, [parse_move(m) for m in data["pv"]])
    assert end.is_over() and data["final_score"] == end.scores
    assert all(type(s) is int for s in data["final_score"])


def test_solve_text_gives_the_final_score_of_an_exact_solve(capsys: pytest.CaptureFixture[str]) -> None:
    row = known_values()[1]
    path = DATA / f"{row['id']}.mbp"
    code, out, _ = run_cli(capsys, "solve", str(path), "--quiet")
    assert code == 0
    lines = dict(line.split(": ", 1) for line in out.splitlines())
    end = replay(load(path), [parse_move(m) for m in lines["best line"].split()])
    assert end.is_over() and lines["final score"] == f"{end.scores[0]}-{end.scores[1]}"
    assert lines["value"].startswith(f"{row['value']:+d}  (") and "; exact)" in lines["value"]


@pytest.mark.parametrize("threads", ["1", "2", "3"])
def test_solve_threads_give_the_same_answer(capsys: pytest.CaptureFixture[str], threads: str) -> None:
    row = known_values()[-1]
    code, out, _ = run_cli(capsys, "solve", str(DATA / f"{row['id']}.mbp"), "--json", "--quiet", "--threads", threads)
    assert code == 0
    data = json.loads(out)
    assert (data["value"], data["best_moves"], data["exact"]) == (row["value"], sorted(row["best_moves"]), True)


def test_solve_rejects_zero_threads(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:  # argparse's usage error
        main(["solve", str(BIG), "--threads", "0"])
    assert exit_info.value.code == 2
    assert "--threads: '0' must be a positive whole number" in capsys.readouterr().err


def test_solve_refuses_more_threads_than_the_engine_takes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["solve", str(BIG), "--threads", "65"])
    assert exit_info.value.code == 2
    assert "--threads: 65 threads is too many: at most 64" in capsys.readouterr().err


def test_solve_refuses_a_table_smaller_than_the_smallest(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["solve", str(BIG), "--hash", "16"])
    assert exit_info.value.code == 2
    assert "--hash: 16 MiB is too small: the smallest table is 32 MiB" in capsys.readouterr().err


def test_the_default_table_cap_follows_the_memory_within_its_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    from solver import table_size

    page = 4096
    for memory, expected in ((512 << 20, 256), (6 << 30, 1536), (64 << 30, 2048)):
        monkeypatch.setattr(
            table_size.os, "sysconf", lambda name, m=memory: m // page if name == "SC_PHYS_PAGES" else page
        )
        assert table_size.default_table_megabytes() == expected
    # a 40-tile solve still gets the smallest table under the biggest cap; a complete deal the whole cap
    assert table_size.table_bits_for(40, 2048) == table_size.MIN_TABLE_BITS == 21
    assert table_size.table_bits_for(108, 2048) == 27  # 2 GiB of 16-byte entries
    assert table_size.table_bits_for(96, 2048) == 25  # past 512 MiB pays only for complete deals


def test_a_limited_search_gets_no_bigger_table_than_it_can_fill() -> None:
    from solver import table_size

    # two threads store at most 12 M entries in 3 s: 2**24 of them, not the complete deal's 2**27
    assert table_size.table_bits_for(108, 2048, limits=Limits(time=3.0), threads=2) == 24
    assert table_size.table_bits_for(108, 2048, limits=Limits(time=3.0), threads=4) == 25  # more threads, more stores
    assert table_size.table_bits_for(108, 2048, limits=Limits(time=3.0)) == 23  # one thread
    assert table_size.table_bits_for(108, 2048, limits=Limits(time=30.0), threads=2) == 27
    assert table_size.table_bits_for(108, 2048, limits=Limits(nodes=5_000_000)) == 23
    assert table_size.table_bits_for(108, 2048, limits=Limits(time=30.0, nodes=5_000_000), threads=2) == 23
    assert table_size.table_bits_for(108, 2048, limits=Limits(nodes=1)) == table_size.MIN_TABLE_BITS
    # the cap only ever lowers what the position and the memory limit give
    assert table_size.table_bits_for(40, 2048, limits=Limits(time=600.0), threads=2) == table_size.MIN_TABLE_BITS
    assert table_size.table_bits_for(108, 256, limits=Limits(time=600.0), threads=2) == 24


def tied_position_file(tmp_path: Path) -> tuple[Path, Position]:
    """A composed position with several best moves and more moves besides."""
    for seed in range(1000):
        position = composed(random.Random(seed), 16)
        values = naive.move_values(position.copy())
        if len(values) >= 5 and list(values.values()).count(max(values.values())) >= 2:
            path = tmp_path / "tied.mbp"
            path.write_text(format_position(position), encoding="utf-8")
            return path, position
    raise AssertionError("no tied position found")


def test_analyse_lists_every_move_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, position = tied_position_file(tmp_path)
    code, out, _ = run_cli(capsys, "analyse", str(path), "--quiet", "--hash", "32")
    assert code == 0
    listed: dict[str, bool] = {}
    names = {move_name(m) for m in position.legal_moves()}
    for line in out.splitlines():
        fields = line.split()
        if fields and fields[0] == "*" and len(fields) > 1 and fields[1] in names:
            assert fields[1] not in listed
            listed[fields[1]] = True
        elif fields and fields[0] in names:
            assert fields[0] not in listed
            listed[fields[0]] = False
    assert set(listed) == names
    value, best = naive.best_moves(position.copy())
    assert {name for name, starred in listed.items() if starred} == {move_name(m) for m in best}


def test_analyse_json_has_every_move(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, position = tied_position_file(tmp_path)
    code, out, _ = run_cli(capsys, "analyse", str(path), "--json", "--quiet", "--hash", "32")
    assert code == 0
    data = json.loads(out)
    expected = naive.move_values(position.copy())
    assert {entry["move"]: entry["value"] for entry in data["moves"]} == {
        move_name(move): value for move, value in expected.items()
    }
    assert len(data["moves"]) == len(expected)
    assert all(entry["bound"] == "exact" for entry in data["moves"])
    assert data["value"] == max(expected.values())
    assert set(data) == AnalyseJSON.__required_keys__
    assert all(set(entry) == MoveValueJSON.__required_keys__ for entry in data["moves"])


def test_solve_with_a_time_limit_says_not_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "solve", str(BIG), "--time", "0.3", "--quiet", "--hash", "32")
    assert code == 0
    assert "not exact" in out
    # the best line of a cut-short search stops before the game does: no final score is claimed
    assert not any(line.startswith("final score:") for line in out.splitlines())
    assert "score after the best line:" in out and "not the final score" in out
    said = re.search(r"\((\d+) (moves?) on;", out)
    assert said is not None and (said.group(2) == "move") == (said.group(1) == "1"), out  # "1 move", "2 moves"


@pytest.mark.parametrize("command", ["solve", "analyse"])
def test_bad_files_exit_2_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str) -> None:
    broken = tmp_path / "broken.mbp"
    broken.write_text("to-move: 3\nscore: 0 0\n", encoding="utf-8")
    for name, reason in ((tmp_path / "missing.mbp", "missing.mbp"), (broken, "line 1")):
        code, out, err = run_cli(capsys, command, str(name), "--quiet")
        assert code == 2
        assert out == ""
        assert err.count("\n") == 1 and reason in err, err


# -- the import boundary and the kernel cache -------------------------------------------


def run_python(code: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(cwd), **(env or {})}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


IMPORTS = "import sys\nimport solver, solver.engine, solver.levels, battle.players, battle.search_worker\n"


def test_the_solver_never_imports_pygame() -> None:
    done = run_python(IMPORTS + "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pygame'))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_pygame_check_would_notice() -> None:
    pytest.importorskip("pygame")
    done = run_python(
        IMPORTS.replace("import sys\n", "import sys\nimport pygame\n")
        + "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pygame'))"
    )
    assert done.returncode == 0, done.stderr
    assert "'pygame'" in done.stdout


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing is compiled without the JIT")
def test_kernels_are_cached_on_disk(tmp_path: Path) -> None:
    """A fresh process compiles and writes the cache; the next one loads it and compiles nothing.
    A release-time check of the compile in the program's own process (11 CPU s, 13-18 s of a default
    run's wall time): the default run checks the first run's compile in children and the next run's
    load (``tests/solver/test_compile_ahead.py``).

    Runs on a snapshot of the sources, so that an edit of the working tree
    between the two runs cannot invalidate the cache. The search has a time
    limit far below the compile time and is still exact: the kernels are
    loaded before the clock starts (a 40-tile position, whose search checks
    the stop flag on the way).
    """
    snapshot = tmp_path / "src"
    ignore = shutil.ignore_patterns("__pycache__", "ui")
    for package in ("battle", "solver"):
        shutil.copytree(ROOT / package, snapshot / package, ignore=ignore)
    cache = tmp_path / "numba-cache"
    row = next(row for row in known_values() if row["tiles_left"] == 40)
    code = (
        "from pathlib import Path\nfrom battle.rules.notation import parse_position\n"
        "from solver import Engine, Limits\n"
        f"position = parse_position(Path({str(DATA / (row['id'] + '.mbp'))!r}).read_text())\n"
        "analysis = Engine(table_bits=12).search(position, Limits(time=2.0))\nprint(analysis.value, analysis.exact)\n"
    )
    env = {"NUMBA_CACHE_DIR": str(cache)}
    started = time.perf_counter()
    first = run_python(code, env, cwd=snapshot)
    first_seconds = time.perf_counter() - started
    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == [str(row["value"]), "True"]
    written = cache_files(cache)
    assert any(name.endswith(".nbi") for name in written), sorted(written)

    started = time.perf_counter()
    second = run_python(code, env, cwd=snapshot)
    second_seconds = time.perf_counter() - started
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout
    assert cache_files(cache) == written, "the second run compiled again"
    assert second_seconds < 2 * first_seconds + 1


# -- the plain-Python reference of the benchmarks ---------------------------------------


def test_the_python_reference_agrees_with_naive() -> None:
    pyref = load_script("pyref")
    for seed in range(50):
        position = small_position(1000 + seed)
        expected = naive.best_moves(position.copy())
        result = pyref.solve(position, etc=seed % 2 == 0)
        assert (result.value, result.best_moves) == expected, format_position(position)


def test_the_python_reference_on_known_values() -> None:
    pyref = load_script("pyref")
    for row in known_values()[:8]:  # 24 and 40 tiles: quick in plain Python
        result = pyref.solve(load(DATA / f"{row['id']}.mbp"))
        assert result.value == row["value"]
        assert sorted(move_name(m) for m in result.best_moves) == sorted(row["best_moves"])


def test_kernels_cached_tells_a_first_run_from_a_cached_one(tmp_path: Path) -> None:
    """Read from the cache's index alone: an empty cache folder says 'not cached' without compiling."""
    code = "from solver.engine import kernels_cached; print(kernels_cached())"
    warm = run_python(code)
    cold = run_python(code, env={"NUMBA_CACHE_DIR": str(tmp_path / "empty")})
    assert (warm.stdout.strip(), cold.stdout.strip()) == ("True", "False"), (warm.stderr, cold.stderr)


@pytest.mark.slow
def test_a_first_run_says_it_compiles_at_once(tmp_path: Path) -> None:
    """With an empty cache, solve names the one-time compile before anything else, not 5 s in."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(tmp_path / "empty")}
    position = tmp_path / "d.mbp"
    position.write_text(format_position(load(DATA / "n024_s500001.mbp")))
    process = subprocess.Popen(
        [sys.executable, "-m", "battle", "solve", "--time", "3", str(position)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    started = time.monotonic()
    first = process.stderr.readline()
    assert "compiling the solver (first run only" in first and time.monotonic() - started < 5
    out, _ = process.communicate(timeout=600)
    assert "; exact)" in out  # the compile (in child processes) is not counted in --time
