"""The game in progress on disk, so a crash or a closed window loses nothing.

After every move the window writes ``data_dir()/autosave.mbg`` (the ordinary game
record) and ``autosave.json`` (who the solver is, at which level), each in one
atomic step. At the next start the title screen offers to resume it. A file that
does not load is renamed aside to ``*.corrupt`` and reported, never fatal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from battle.errors import BattleError
from battle.game import Game
from battle.paths import data_dir, write_atomically
from battle.textfile import TextFileError, read_text_file
from battle.ui.match import Match
from battle.ui.settings import set_aside

RECORD_NAME = "autosave.mbg"
SIDECAR_NAME = "autosave.json"


def autosave_paths() -> tuple[Path, Path]:
    folder = data_dir()
    return folder / RECORD_NAME, folder / SIDECAR_NAME


def write_autosave(match: Match) -> str | None:
    """Save the match; returns a problem to show (None on success).

    The sidecar goes first: a crash between the two writes leaves a record with
    the previous sidecar, which still names the same players' roles.
    """
    record, sidecar = autosave_paths()
    try:
        write_atomically(sidecar, json.dumps(match.sidecar()) + "\n")
        write_atomically(record, match.game.to_text())
    except OSError as error:
        return f"Autosave failed: {error.strerror or error}"
    return None


@dataclass
class Resumable:
    match: Match | None
    problem: str | None = None


def read_autosave(levels: tuple[str, ...] | list[str]) -> Resumable:
    """The autosaved match, or None if there is none; corrupt files are set aside and reported."""
    record, sidecar = autosave_paths()
    if not record.exists():
        return Resumable(None)
    try:
        game = Game.from_text(read_text_file(record, record.name))
    except (TextFileError, BattleError) as error:
        moved = set_aside(record)
        if sidecar.exists():
            set_aside(sidecar)
        where = f" It was moved to {moved.name}." if moved else ""
        return Resumable(None, f"The autosaved game could not be read: {error}.{where}")
    solver_side, level, problem = _read_sidecar(sidecar, levels)
    return Resumable(Match(game, solver_side, level), problem)


def _read_sidecar(path: Path, levels: tuple[str, ...] | list[str]) -> tuple[int | None, str, str | None]:
    default_level = "club" if "club" in levels else (levels[0] if levels else "club")
    if not path.exists():
        return None, default_level, None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise ValueError("expected a JSON object")
        side = data.get("solver_side")
        level = data.get("level", default_level)
        if side not in (None, 1, 2) or isinstance(side, bool):
            raise ValueError(f"solver_side must be 1, 2 or null, not {side!r}")
        if level not in levels:
            raise ValueError(f"unknown level {level!r}")
    except (OSError, ValueError) as error:
        moved = set_aside(path)
        where = f" (moved to {moved.name})" if moved else ""
        return None, default_level, f"The autosave's solver settings could not be read: {error}{where}; " \
                                    "resuming as a hot-seat game."
    return side, level, None

