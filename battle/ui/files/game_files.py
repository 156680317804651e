"""Loading and saving game records (.mbg) and positions (.mbp) for the window.

Every way a file can be wrong ends in a ``FileProblem`` whose message names the
file and, for bad contents, quotes the model's NotationError (line and reason),
so the window can show it in the status line instead of crashing.
"""

from __future__ import annotations

from pathlib import Path

from battle.i18n import _
from battle.rules.board import Position
from battle.rules.errors import BattleError
from battle.rules.game import Game
from battle.rules.notation import format_position, parse_any
from battle.rules.wording import about
from battle.storage.paths import error_reason, write_atomically
from battle.storage.textfile import TextFileError, read_text_file


class FileProblem(Exception):
    """A file that could not be read or written; the message is meant for the user."""


def read_text(path: Path) -> str:
    try:
        return read_text_file(path, path.name)
    except TextFileError as error:
        raise FileProblem(str(error)) from None


def load_game_file(path: Path | str) -> tuple[Game, str]:
    """A game from a .mbg record or a .mbp position, and what it was ("game record" / "position")."""
    path = Path(path)
    text = read_text(path)
    try:
        return Game.from_file_text(text)
    except BattleError as error:
        raise FileProblem(f"{path.name}: {error}") from None


def loaded_notice(what: str, file_name: str, game: Game) -> str:
    """The status line after a load: what was loaded (``what``: "game record" or "position", as
    ``Game.from_file_text`` tells them apart) and where the game stands."""
    record = what == "game record"
    result = game.result()
    if result is not None:
        finished = (
            _("Loaded the game record {file}: finished, {result}.")
            if record
            else _("Loaded the position {file}: finished, {result}.")
        )
        return finished.format(file=file_name, result=result.describe(game.names, start=False))
    mover = game.names[game.position.to_move - 1]
    if record:
        return about(
            mover,
            _("Loaded the game record {file}. You to move."),
            _("Loaded the game record {file}. {name} to move."),
            file=file_name,
        )
    return about(
        mover,
        _("Loaded the position {file}. You to move."),
        _("Loaded the position {file}. {name} to move."),
        file=file_name,
    )


def save_game_file(path: Path | str, game: Game) -> Path:
    """Write the record (adding .mbg when the name has no suffix); returns the path written."""
    return _write(Path(path), ".mbg", game.to_text())


def save_record_text(path: Path | str, text: str) -> Path:
    """Write a game record received as text (an online game's, from its server), adding .mbg when
    the name has no suffix; returns the path written."""
    return _write(Path(path), ".mbg", text)


def load_position_file(path: Path | str) -> Position:
    """The position of a .mbp file, or the current position of a .mbg record (for the editor)."""
    path = Path(path)
    text = read_text(path)
    try:
        return parse_any(text)
    except BattleError as error:
        raise FileProblem(f"{path.name}: {error}") from None


def save_position_file(path: Path | str, position: Position) -> Path:
    """Write a .mbp position (adding .mbp when the name has no suffix); returns the path written."""
    return _write(Path(path), ".mbp", format_position(position, "set up in the Mahjong Battle position editor"))


def _write(path: Path, suffix: str, text: str) -> Path:
    """Write atomically, adding ``suffix`` when the name has none; returns the path written."""
    if not path.suffix:
        path = path.with_suffix(suffix)
    try:
        write_atomically(path, text)
    except OSError as error:
        raise FileProblem(f"{path.name}: {error_reason(error)}") from None
    return path
