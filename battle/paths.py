"""Where the program keeps the user's files: settings, autosaves.

Follows the XDG base directory convention (``$XDG_CONFIG_HOME``,
``$XDG_DATA_HOME``) so tests and users can redirect it; nothing is written
until a caller asks for the directory.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_DIR = "mahjong-battle"


def _base(variable: str, fallback: str) -> Path:
    value = os.environ.get(variable)
    return Path(value) if value else Path.home() / fallback


def config_dir() -> Path:
    """The settings directory, created on demand."""
    path = _base("XDG_CONFIG_HOME", ".config") / APP_DIR
    path.mkdir(parents=True, exist_ok=True)
    return path


def data_dir() -> Path:
    """The directory for autosaved games, created on demand."""
    path = _base("XDG_DATA_HOME", ".local/share") / APP_DIR
    path.mkdir(parents=True, exist_ok=True)
    return path


def write_atomically(path: Path, text: str) -> None:
    """Replace a file in one step, so a crash mid-write never leaves half a save."""
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
