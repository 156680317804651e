"""``tools/walk.py``: a move's walk through a real ``serve`` on 127.0.0.1, traced in its process, and
the page's side read from ``battle/web``, printed as tables; a page list that names a function its
module no longer has is refused.

The figures themselves belong to CONTRIBUTING.md and benchmarks/README.md: the test holds the tool
working (its server, its probe, its window and its tables), not what the walk counts today."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "walk.py"


def load_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("walk", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["walk"] = module
    spec.loader.exec_module(module)
    return module


def test_a_moves_walk_is_traced_in_the_server_and_tabled_with_the_pages(tmp_path: Path) -> None:
    printed = subprocess.run(
        [sys.executable, str(TOOL), "--walks", "move", "--processes", "1", "--repeats", "2", "--quiet", "1.0"]
        + ["--settle", "0.1", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert printed.returncode == 0, printed.stderr
    lines = printed.stdout.splitlines()
    row = next(line for line in lines if line.startswith("| move | 1 |"))
    files, functions = (int(cell) for cell in row.split("|")[3:5])
    assert files >= 5 and functions >= files, row  # a move is parsed, played, stored and sent back
    assert "| 1: serve |" in row and "serve MainThread" in row, row
    listed = [
        line.split("|")[2].strip() for line in lines if line.startswith("| ") and line.split("|")[1].strip().isdigit()
    ]
    assert len(listed) == files and "battle/rules/board.py" in listed, listed  # the rules judge the move
    assert all(name.startswith(("battle/", "solver/")) and name.endswith(".py") for name in listed), listed
    assert any(line.startswith("| move | the second tile's click to the socket's send | 6 |") for line in lines)
    assert list(tmp_path.glob("processes-1/calls-*.tsv")), "the probe wrote nothing"


def test_the_pages_walks_name_functions_their_modules_have(monkeypatch: pytest.MonkeyPatch) -> None:
    tool = load_tool()
    assert tool.checked_page() == []
    steps = tool.PAGE_WALKS["move"][0][1]
    monkeypatch.setitem(
        tool.PAGE_WALKS,
        "move",
        (
            (
                "a side",
                (*steps, ("board.js", "noSuchHandler", "gone")),
            ),
        ),
    )
    assert tool.checked_page() == ["board.js: noSuchHandler"]
