"""The seam between the server's facts and the wire (``battle/online/server/wire.py``): the solver
pool's typed results reach the messages by attribute, so a field renamed on either side fails the
type check (mypy sees it) and this test, never a running server; every field a page shows comes
through, and reads back as the clients read it."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import fields
from pathlib import Path

from battle.online.protocol.messages import encode
from battle.online.protocol.solver_messages import Evaluation, HintResult, MoveValue
from battle.online.protocol.solver_reader import parse_solver_news
from battle.online.protocol.solver_writer import solver_news_json
from battle.online.server import wire
from battle.players.pool_jobs import MoveValue as FoundValue
from battle.players.solver_pool import AnalysisResult

ROOT = Path(__file__).resolve().parents[2]
FOUND = AnalysisResult(
    value=-3,
    exact=False,
    best_moves=("a1-b9",),
    pv=("a1-b9", "c1-c9"),
    final_score=(41, 44),
    depth=8,
    nodes=123_456,
    seconds=0.25,
    moves=(FoundValue("a1-b9", -3, "estimate", 5), FoundValue("c1-c9", -7, "upper", 2)),
)
EFFORT = {"nodes", "seconds"}
"""What a search's answer holds that no page shows: the effort it took."""
PROBE = """
from battle.online.server import wire
from battle.online.server.solver_work import AnalysisResult, MoveResult, ReviewResult, Work


async def renamed(move: Work[MoveResult], hint: Work[AnalysisResult], review: Work[ReviewResult]) -> None:
    print((await move.answer()).mvoe)
    print((await hint.answer()).best_move)
    print((await review.answer()).reprot)
    wire.evaluation({"value": 1})
"""
PROBE_ERRORS = {
    "    print((await move.answer()).mvoe)": '"MoveResult" has no attribute "mvoe"',
    "    print((await hint.answer()).best_move)": '"AnalysisResult" has no attribute "best_move"',
    "    print((await review.answer()).reprot)": '"ReviewResult" has no attribute "reprot"',
    '    wire.evaluation({"value": 1})': 'expected "AnalysisResult"',
}
"""What mypy says of each line of the probe that reads a result wrong."""
CHECKED = [
    "battle/online/server/wire.py",
    "battle/online/server/solver_work.py",
    "battle/online/server/solver_games.py",
    "battle/online/server/analysis_boards.py",
    "battle/online/server/reviews.py",
]
"""The modules the pool's results travel through, from the pool to the frame."""


def test_every_field_of_a_search_a_page_shows_reaches_the_evaluation() -> None:
    evaluation = wire.evaluation(FOUND)
    shown = {field.name for field in fields(AnalysisResult)} - EFFORT
    assert shown == {field.name for field in fields(Evaluation)}
    assert {name: getattr(evaluation, name) for name in shown - {"moves"}} == {
        name: getattr(FOUND, name) for name in shown - {"moves"}
    }
    assert [field.name for field in fields(FoundValue)] == [field.name for field in fields(MoveValue)]
    assert evaluation.moves == (MoveValue("a1-b9", -3, "estimate", 5), MoveValue("c1-c9", -7, "upper", 2))


def test_a_hint_reads_back_as_the_clients_read_it() -> None:
    hint = wire.hint_result("3f9a0c1d2e4b5a69", 12, FOUND)
    assert parse_solver_news(encode(solver_news_json(hint))) == HintResult(
        "3f9a0c1d2e4b5a69", 12, wire.evaluation(FOUND)
    )


def test_a_renamed_result_field_is_a_type_error(tmp_path: Path) -> None:
    """The results stay typed from the pool to the frame: a field read under another name, or a
    dict handed where a result goes, is an error mypy names, and the modules that carry the
    results check clean."""
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    # a process of its own: mypy raises the interpreter's recursion limit, which the protocol's
    # reader counts on to refuse a frame nested too deeply
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--cache-dir",
            str(tmp_path / "cache"),
            "--config-file",
            str(ROOT / "pyproject.toml"),
        ]
        + [str(probe)]
        + [str(ROOT / path) for path in CHECKED],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    report = checked.stdout
    assert checked.returncode == 1, report + checked.stderr
    errors = {
        int(line.split(":")[1]): line.split(": error: ")[1]
        for line in report.splitlines()
        if line.startswith(f"{probe}:") and ": error: " in line
    }
    expected = {number: PROBE_ERRORS[line] for number, line in enumerate(PROBE.splitlines(), 1) if line in PROBE_ERRORS}
    assert report.count(": error: ") == len(errors) == len(expected), report  # none in the modules checked
    assert all(expected[number] in errors.get(number, "") for number in expected), report
