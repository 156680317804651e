"""Puzzle files: JSON lines, one puzzle an object (``puzzle``), read with one-line errors.

Blank lines are skipped; everything else must be a puzzle, so a damaged file says which
line and what is wrong with it (``puzzles.jsonl, line 12: line: move 3, c1-c9: c9 is empty``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from battle.i18n import N_
from battle.puzzles.puzzle import Puzzle, PuzzleFormatError, puzzle_from_json
from battle.resources import asset_path
from battle.rules.errors import shorten_name
from battle.storage.paths import error_reason, write_atomically
from battle.storage.textfile import (
    A_FOLDER,
    NOT_A_REGULAR_FILE,
    NotAFileToRead,
    TextFileError,
    json_reason,
    read_limited,
)

SHIPPED = ("puzzles", "puzzles.jsonl")
"""The shipped set, under the assets folder."""
MAX_FILE_BYTES = 64 * 1024 * 1024
"""A puzzle is about 840 bytes (the shipped 600 take 504,365); 64 MiB holds 80,000 of them,
130 times the shipped set, and is read in well under a second."""


def shipped_puzzles_path() -> Path:
    """The puzzle set that comes with the game (``FileNotFoundError`` naming it when the install lacks it)."""
    return asset_path(*SHIPPED)


def parse_puzzles(text: str, label: str = "<puzzles>") -> list[Puzzle]:
    """Every puzzle of a JSON-lines text; ``PuzzleFormatError`` naming ``label`` and the line otherwise.

    Two puzzles with the same id are an error: ratings are stored by id."""
    puzzles: list[Puzzle] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise PuzzleFormatError(
                N_("{label}, line {number}: not JSON ({reason}, column {column})"),
                label=label,
                number=number,
                reason=json_reason(error),
                column=error.colno,
            ) from None
        except RecursionError:
            raise PuzzleFormatError(
                N_("{label}, line {number}: not a puzzle (JSON nested too deeply)"), label=label, number=number
            ) from None
        except ValueError:  # a whole number of more than 4,300 digits, which Python refuses to read
            raise PuzzleFormatError(
                N_("{label}, line {number}: not a puzzle (a number too long to read)"), label=label, number=number
            ) from None
        try:
            puzzle = puzzle_from_json(data)
        except PuzzleFormatError as error:
            raise PuzzleFormatError(
                N_("{label}, line {number}: {error}"), label=label, number=number, error=error.phrase
            ) from None
        if puzzle.id in seen:
            raise PuzzleFormatError(
                N_("{label}, line {number}: id {id} is also on line {other}"),
                label=label,
                number=number,
                id=puzzle.id,
                other=seen[puzzle.id],
            )
        seen[puzzle.id] = number
        puzzles.append(puzzle)
    return puzzles


def load_puzzles(path: Path | str | None = None) -> list[Puzzle]:
    """The puzzles of a file (the shipped set without one); ``PuzzleFormatError`` when unreadable."""
    path = shipped_puzzles_path() if path is None else Path(path)
    label = shorten_name(str(path))
    try:
        text = read_limited(path, MAX_FILE_BYTES, label).decode("utf-8")
    except TextFileError:
        raise PuzzleFormatError(
            N_("{label}: larger than {limit} bytes, too large for a puzzle file"), label=label, limit=MAX_FILE_BYTES
        ) from None
    except NotAFileToRead as error:
        raise PuzzleFormatError(A_FOLDER if error.folder else NOT_A_REGULAR_FILE, label=label) from None
    except OSError as error:
        raise PuzzleFormatError(
            N_("{label}: cannot read ({reason})"), label=label, reason=error_reason(error)
        ) from None
    except UnicodeDecodeError as error:
        raise PuzzleFormatError(N_("{label}: not UTF-8 text (byte {byte})"), label=label, byte=error.start) from None
    return parse_puzzles(text, label)


def format_puzzles(puzzles: Iterable[Puzzle]) -> str:
    """The JSON-lines text of the puzzles, one compact object a line."""
    return "".join(json.dumps(puzzle.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n" for puzzle in puzzles)


def save_puzzles(path: Path | str, puzzles: Iterable[Puzzle]) -> None:
    """Write a puzzle file in one step: a crash leaves the old file or the new one."""
    write_atomically(Path(path), format_puzzles(puzzles))
