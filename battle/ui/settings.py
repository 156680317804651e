"""The window's remembered choices: names, level, mode, window size; JSON in config_dir().

Settings are a convenience, never a reason not to start: a file that cannot be
read is renamed aside (``settings.json.corrupt``) and reported, and the defaults
are used. Fields of the wrong type are ignored one by one. Plain JSON only.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from battle.paths import config_dir, write_atomically

SETTINGS_NAME = "settings.json"
MODES = ("hotseat", "solver")
DEFAULT_SIZE = (1200, 800)
MIN_SIZE = (640, 440)
MAX_SIZE = (7680, 4320)
DEFAULT_REVIEW_SECONDS = 1.0
REVIEW_SECONDS_RANGE = (0.05, 600.0)


@dataclass
class Settings:
    player1: str = "Player 1"
    player2: str = "Player 2"
    human_name: str = "You"
    level: str = "club"
    mode: str = "hotseat"
    human_first: bool = True
    window_size: tuple[int, int] = field(default=DEFAULT_SIZE)
    last_dir: str = ""
    """The folder of the last saved or loaded file, where the file dialogs open."""
    review_seconds: float = DEFAULT_REVIEW_SECONDS
    """The game review's search time per move: longer proves more values on a full board."""

    def to_json(self) -> str:
        data = asdict(self)
        data["window_size"] = list(self.window_size)
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def settings_path() -> Path:
    return config_dir() / SETTINGS_NAME


def set_aside(path: Path) -> Path | None:
    """Rename a file that cannot be read to ``<name>.corrupt`` so that it is kept, not reused."""
    target = path.with_name(path.name + ".corrupt")
    try:
        os.replace(path, target)
    except OSError:
        return None
    return target


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The settings and a problem to show the user (None when all is well)."""
    path = path if path is not None else settings_path()
    settings = Settings()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return settings, None
    except (OSError, UnicodeDecodeError) as error:
        return settings, _corrupt(path, str(error))
    try:
        data = json.loads(text)
    except ValueError as error:
        return settings, _corrupt(path, f"not valid JSON ({error})")
    if not isinstance(data, dict):
        return settings, _corrupt(path, "expected a JSON object")
    _apply(settings, data)
    return settings, None


def _corrupt(path: Path, reason: str) -> str:
    moved = set_aside(path)
    where = f"; it was moved to {moved.name}" if moved else ""
    return f"Settings file {path} could not be read: {reason}{where}. Using the defaults."


def _apply(settings: Settings, data: dict) -> None:
    for name in ("player1", "player2", "human_name", "level", "last_dir"):
        value = data.get(name)
        if isinstance(value, str) and len(value) <= 4096:
            setattr(settings, name, value)
    if data.get("mode") in MODES:
        settings.mode = data["mode"]
    if isinstance(data.get("human_first"), bool):
        settings.human_first = data["human_first"]
    seconds = data.get("review_seconds")
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) \
            and REVIEW_SECONDS_RANGE[0] <= seconds <= REVIEW_SECONDS_RANGE[1]:
        settings.review_seconds = float(seconds)
    size = data.get("window_size")
    if (isinstance(size, list) and len(size) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in size)):
        settings.window_size = clamp_size(size[0], size[1])


def clamp_size(width: int, height: int) -> tuple[int, int]:
    return (max(MIN_SIZE[0], min(MAX_SIZE[0], width)), max(MIN_SIZE[1], min(MAX_SIZE[1], height)))


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Write the settings; returns a problem to show, or None."""
    try:
        write_atomically(path if path is not None else settings_path(), settings.to_json())
    except OSError as error:
        return f"Settings could not be saved: {error.strerror or error}"
    return None
