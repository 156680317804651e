"""The documents the project ships say what is, and say it where users are told to look.

- ``docs/notation.md`` is the notation contract the ``solve --json`` help refers to; it is a
  byte-for-byte copy of the spec the code implements (``../shared/spec/notation.md`` beside
  the clone).
- ``benchmarks/README.md`` holds how to run each benchmark and its standing table, not a lab
  notebook: it stays under 300 lines (the history lives in ``docs/solver-notes.md``).
- No code, comment or document numbers the rounds of work that produced it:
  a comment gives the reason and the deciding figure, a note its date and commit.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTATION = ROOT / "docs" / "notation.md"
SPEC = ROOT.parent / "shared" / "spec" / "notation.md"
BENCHMARKS_README = ROOT / "benchmarks" / "README.md"
MAX_BENCHMARKS_README_LINES = 300
CHECKED_FOLDERS = ("battle", "solver", "benchmarks", "docs")
SESSION_NUMBER = re.compile(r"\bsession[\s#]+\d+", re.IGNORECASE)
"""The word followed by a number, also wrapped over a line break or onto a comment's next line."""


def test_the_notation_contract_ships_with_the_project() -> None:
    assert NOTATION.is_file(), "docs/notation.md is missing"
    assert NOTATION.read_text(encoding="utf-8").startswith("# Mahjong Battle notation")


def test_the_shipped_notation_is_the_spec_byte_for_byte() -> None:
    if not SPEC.is_file():
        pytest.skip(f"the spec is not beside the clone ({SPEC}); CI has it")
    assert NOTATION.read_bytes() == SPEC.read_bytes(), (
        f"docs/notation.md differs from {SPEC}: copy the spec over it (cp {SPEC} docs/notation.md)"
    )


def test_solve_help_names_the_notation_file() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "battle", "solve", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "docs/notation.md" in result.stdout, f"solve --help does not name docs/notation.md:\n{result.stdout}"


def test_the_benchmarks_readme_is_documentation_not_a_notebook() -> None:
    lines = BENCHMARKS_README.read_text(encoding="utf-8").count("\n")
    assert lines < MAX_BENCHMARKS_README_LINES, (
        f"benchmarks/README.md has {lines} lines (under {MAX_BENCHMARKS_README_LINES}): keep one standing table "
        "per benchmark there and move what was tried to docs/solver-notes.md"
    )


def checked_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for folder in CHECKED_FOLDERS:
        files += sorted(path for path in (ROOT / folder).rglob("*") if path.suffix in (".py", ".md"))
    return files


def test_no_file_numbers_the_sessions_of_work() -> None:
    found = []
    for path in checked_files():
        text = path.read_text(encoding="utf-8")
        for match in SESSION_NUMBER.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(ROOT)}:{line}: {' '.join(match.group().split())!r}")
    assert not found, "history by session number (state the date and commit, or the reason):\n" + "\n".join(found)
