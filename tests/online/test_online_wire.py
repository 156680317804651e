"""The seam between the server's facts and the wire (``battle/online/server/rooms/wire.py``, and
``solving/wire.py`` for the solver's news): the solver pool's typed results reach the messages by
attribute, so a field renamed on either side fails the type check (mypy sees it) and this test,
never a running server; every field a page shows comes through, and reads back as the clients read
it. No other server module builds a message the server sends: the ``wire`` modules are the one
place."""

from __future__ import annotations

import ast
import importlib.util
import json
import subprocess
import sys
import typing
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest

from battle.online.protocol.device_messages import DeviceNews
from battle.online.protocol.lobby_messages import LobbyMessage
from battle.online.protocol.messages import ErrorCode, encode
from battle.online.protocol.puzzle_messages import PuzzleNews
from battle.online.protocol.server_messages import Error, ServerMessage
from battle.online.protocol.solver_messages import Evaluation, HintResult, MoveValue, SolverNews
from battle.online.protocol.solver_reader import parse_solver_news
from battle.online.protocol.solver_writer import solver_news_json
from battle.online.server.rooms import wire as room_wire
from battle.online.server.rooms.refusals import RefusalKind, Refused
from battle.online.server.solving import wire
from battle.players.pool.jobs import AnalysisResult
from battle.players.pool.jobs import MoveValue as FoundValue
from tests.online_server import Client, ServerProcess, host_and_join

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
from battle.online.server.solving import wire
from battle.online.server.solving.work import AnalysisResult, MoveResult, ReviewResult, Work


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
    "battle/online/server/solving/wire.py",
    "battle/online/server/solving/work.py",
    "battle/online/server/solving/games.py",
    "battle/online/server/solving/analysis_boards.py",
    "battle/online/server/solving/reviews.py",
]
"""The modules the pool's results travel through, from the pool to the frame."""
SERVER = ROOT / "battle" / "online" / "server"
PROTOCOL = "battle.online.protocol."


def _message_classes() -> set[str]:
    """The names of every protocol class a server->client message is built of: the messages the
    server sends and the protocol's values inside them, found through their fields' types.
    ``error`` is left out: a serving module raises it with a code where the bad input is met."""
    found: set[str] = set()
    waiting = [
        cls
        for union in (ServerMessage, SolverNews, LobbyMessage, PuzzleNews, DeviceNews)
        for cls in typing.get_args(union)
    ]
    waiting.remove(Error)
    while waiting:
        cls = waiting.pop()
        if not (isinstance(cls, type) and is_dataclass(cls)):
            waiting.extend(typing.get_args(cls))
            continue
        if cls.__module__.startswith(PROTOCOL) and cls.__name__ not in found:
            found.add(cls.__name__)
            waiting.extend(typing.get_type_hints(cls).values())
    return found


def _built_outside_wire() -> list[str]:
    """Where a serving module (any but ``wire*.py``) builds a server->client message itself: a
    call of a message class it imports from the protocol, or a dict literal with a ``"type"`` of
    its own."""
    classes = _message_classes()
    built = []
    for path in sorted(SERVER.rglob("*.py")):
        if path.name.startswith("wire"):
            continue
        tree = ast.parse(path.read_text(), str(path))
        names: set[str] = set()
        modules: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                for alias in node.names:
                    if node.module.startswith(PROTOCOL) and alias.name in classes:
                        names.add(alias.asname or alias.name)
                    elif f"{node.module}.{alias.name}".startswith(PROTOCOL):
                        modules.add(alias.asname or alias.name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                if (isinstance(func, ast.Name) and func.id in names) or (
                    isinstance(func, ast.Attribute)
                    and isinstance(func.value, ast.Name)
                    and func.value.id in modules
                    and func.attr in classes
                ):
                    built.append(f"{path.name}:{node.lineno} {ast.unparse(func)}(...)")
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "type" and isinstance(value, ast.Constant):
                        built.append(f"{path.name}:{node.lineno} {{'type': {value.value!r}}}")
    return sorted(built)


def test_only_the_wire_builds_the_messages_the_server_sends() -> None:
    assert {"State", "PlayerInfo", "SolverCreated", "MoveValue", "LobbyList", "ChallengeEntry"} <= _message_classes()
    assert "Error" not in _message_classes()
    assert _built_outside_wire() == []


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
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install '.[lint]')")
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


def test_every_refusal_of_a_room_is_the_error_code_of_its_name() -> None:
    """The room's refusals reach the wire only through ``rooms.wire.refusal_error``: a kind with no
    error code would be a ``KeyError`` in a running server instead of an ``error`` frame."""
    for kind in RefusalKind:
        problem = room_wire.refusal_error(Refused(kind, "a reason\non two lines", why="named", seat=2, seconds=1.5))
        assert problem.code == ErrorCode(kind.value)
        assert problem.reason == "a reason\\non two lines"  # one line, as every error's reason
        assert problem.params == {"why": "named", "seat": 2, "seconds": 1.5}
        assert problem.ref is None  # dispatch names the refused message


def error_frame(client: Client) -> str:
    """The text of the next ``error`` frame ``client`` gets, as it came (other news before it is skipped)."""
    while True:
        text = client.socket.recv(timeout=10)
        assert isinstance(text, str)
        if json.loads(text)["type"] == "error":
            return text


def test_a_refusal_of_the_room_reaches_the_player_as_its_error_frame(tmp_path: Path) -> None:
    """A move out of turn and an illegal pair, through ``serve``: the frames the clients read, to the byte."""
    with ServerProcess(tmp_path) as server:
        host, guest, _, _ = host_and_join(server.url)
        try:
            guest.send({"type": "move", "move": "a9-f1", "id": "early"})
            assert error_frame(guest) == (
                '{"type":"error","code":"not_your_turn","reason":"not your turn: seat 1 is to move",'
                '"params":{"seat":1},"ref":{"type":"move","id":"early"}}'
            )
            host.send({"type": "move", "move": "b2-b3", "id": "m1"})
            assert error_frame(host) == (
                '{"type":"error","code":"illegal_move","reason":"b2-b3: b2 is not free (only the top-most and '
                'bottom-most tile of a column are)","params":{"move":"b2-b3","why":"illegal"},'
                '"ref":{"type":"move","id":"m1"}}'
            )
        finally:
            host.close()
            guest.close()
