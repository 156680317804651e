"""The window's remembered choices: names, level, mode, the kind of deal, window size, the online server;
JSON in config_dir().

Settings are a convenience, never a reason not to start: a file that cannot be
read, or holds a field of the wrong type, is renamed aside (``settings.json.corrupt``,
then ``settings.json.2.corrupt``...) and reported once, and the defaults stand in
for what was wrong. A config folder that cannot be made or used is reported the
same way and the window runs on defaults. Plain JSON only.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from battle.i18n import _, available_languages
from battle.search_times import REVIEW_SECONDS
from battle.storage.paths import (
    StorageProblem,
    config_dir,
    error_reason,
    remove_stray_temporaries,
    set_aside,
    write_atomically,
)
from battle.storage.textfile import TextFileError, json_reason, read_limited

SETTINGS_NAME = "settings.json"
MODES = ("hotseat", "solver")
DEAL_KINDS = ("number", "fair", "daily")
"""How the title picks a new game's deal (``battle.ui.title.deal_choice``)."""
FAIRNESS_KEYS = ("even", "within2", "within5", "first+3")
DEFAULT_SIZE = (1200, 800)
MIN_SIZE = (640, 440)
MAX_SIZE = (7680, 4320)
DEFAULT_REVIEW_SECONDS = REVIEW_SECONDS
REVIEW_SECONDS_RANGE = (0.05, 600.0)
UI_SCALE_RANGE = (0.8, 1.6)
"""The text size setting's bounds: 0.8 still reads at 1200x800, 1.6 is more than a 1200x800
window's side panel holds (the layout caps it at about 1.4 there, lower in smaller windows)."""
UI_SCALE_STEP = 0.1
SETTINGS_LIMIT = 256 * 1024
"""A settings file is well under a kilobyte; a bigger one is not ours."""
TEXT_FIELDS = ("player1", "player2", "human_name", "online_name", "level", "last_dir")
MAX_TEXT = 4096
DEFAULT_SERVER = "ws://127.0.0.1:8765"
"""The online server when none was used yet: one on this machine at ``mahjong-battle serve``'s port."""
SERVER_SCHEMES = ("ws://", "wss://")
MAX_SERVER = 2048
"""A server address is a host and a port; a longer one is not an address the window typed."""


@dataclass
class Settings:
    player1: str = "Player 1"
    player2: str = "Player 2"
    human_name: str = "You"
    online_name: str = ""
    """The name last sent to an online server, kept apart from ``human_name`` (the player's side
    in games against the solver): hosting as "Alice" renames no solver game. Empty: none sent yet,
    and the online form starts from ``human_name``."""
    level: str = "club"
    mode: str = "hotseat"
    human_first: bool = True
    deal_kind: str = "number"
    """A random or numbered deal, a fair one, or the deal of the day."""
    fairness: str = "even"
    """How close to even a fair deal is."""
    window_size: tuple[int, int] = field(default=DEFAULT_SIZE)
    last_dir: str = ""
    """The folder of the last saved or loaded file, where the file dialogs open."""
    review_seconds: float = DEFAULT_REVIEW_SECONDS
    """The game review's search time per move: longer proves more values on a full board."""
    ui_scale: float = 1.0
    """The player's text size: text, badges and widgets are this many times their size for the window."""
    online_server: str = DEFAULT_SERVER
    """The server address last used for online play (``ws://`` or ``wss://``)."""
    volume: float = 0.7
    """The sound effects' volume, 0 to 1 (``battle.ui.sound``)."""
    background_par: bool = True
    """Work out the par of a deal no catalogue knows while it is played (``battle.atlas.par_finder``:
    one thread at the lowest priority, stopped while the solver works for the player)."""
    muted: bool = False
    """The sound is off (M in the window)."""
    language: str = ""
    """The language chosen in the window (``de``, ``en``); empty: the system's."""

    def to_json(self) -> str:
        data = asdict(self)
        data["window_size"] = list(self.window_size)
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def settings_path() -> Path:
    return config_dir() / SETTINGS_NAME


def load_settings(path: Path | None = None) -> tuple[Settings, str | None]:
    """The settings and a problem to show the user (None when all is well)."""
    settings = Settings()
    try:
        path = path if path is not None else settings_path()
    except StorageProblem as problem:
        return settings, _("Settings cannot be kept: {problem}. Using the defaults.").format(problem=problem)
    remove_stray_temporaries(path.parent)
    try:
        raw = read_limited(path, SETTINGS_LIMIT, path.name)
    except FileNotFoundError:
        return settings, None
    except OSError as error:
        return settings, _corrupt(path, error_reason(error))
    except TextFileError:
        return settings, _corrupt(path, _("larger than {SETTINGS_LIMIT} bytes").format(SETTINGS_LIMIT=SETTINGS_LIMIT))
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        return settings, _corrupt(path, _("not UTF-8 (byte {start})").format(start=error.start))
    except RecursionError:
        return settings, _corrupt(path, _("nested too deeply"))
    except json.JSONDecodeError as error:
        return settings, _corrupt(
            path,
            _("not valid JSON ({reason}: line {line} column {column} (char {char}))").format(
                reason=json_reason(error), line=error.lineno, column=error.colno, char=error.pos
            ),
        )
    except ValueError as error:  # a whole number of more than 4,300 digits, which Python refuses to read
        return settings, _corrupt(path, _("not valid JSON ({error})").format(error=error))
    if not isinstance(data, dict):
        return settings, _corrupt(path, _("expected a JSON object"))
    ignored = _apply(settings, data)
    if ignored:
        return settings, _corrupt(
            path, _("these fields were wrong and are reset: {fields}").format(fields=", ".join(ignored))
        )
    return settings, None


def _corrupt(path: Path, reason: str) -> str:
    moved = set_aside(path)
    if moved is None:
        return _("Settings file {path} could not be read: {reason}. Using the defaults.").format(
            path=path, reason=reason
        )
    return _("Settings file {path} could not be read: {reason}; it was moved to {name}. Using the defaults.").format(
        path=path, reason=reason, name=moved.name
    )


def _apply(settings: Settings, data: dict) -> list[str]:
    """Take every field that is right; returns the names of those present but wrong."""
    ignored = []

    def take(name: str, ok: bool, value: object) -> None:
        if name not in data:
            return
        if ok:
            setattr(settings, name, value)
        else:
            ignored.append(name)

    for name in TEXT_FIELDS:
        value = data.get(name)
        # a NUL or another control character would break a font, a path or a record
        take(name, isinstance(value, str) and len(value) <= MAX_TEXT and value.isprintable(), value)
    take("mode", data.get("mode") in MODES, data.get("mode"))
    take("deal_kind", data.get("deal_kind") in DEAL_KINDS, data.get("deal_kind"))
    take("fairness", data.get("fairness") in FAIRNESS_KEYS, data.get("fairness"))
    server = data.get("online_server")
    take(
        "online_server",
        isinstance(server, str)
        and len(server) <= MAX_SERVER
        and server.isprintable()
        and server.lower().startswith(SERVER_SCHEMES),
        server,
    )
    take("human_first", isinstance(data.get("human_first"), bool), data.get("human_first"))
    take("muted", isinstance(data.get("muted"), bool), data.get("muted"))
    take("background_par", isinstance(data.get("background_par"), bool), data.get("background_par"))
    volume = _number_within(data.get("volume"), (0.0, 1.0))
    take("volume", volume is not None, volume)
    language = data.get("language")
    take("language", language == "" or (isinstance(language, str) and language in available_languages()), language)
    seconds = _number_within(data.get("review_seconds"), REVIEW_SECONDS_RANGE)
    take("review_seconds", seconds is not None, seconds)
    zoom = _number_within(data.get("ui_scale"), UI_SCALE_RANGE)
    take("ui_scale", zoom is not None, zoom)
    size = data.get("window_size")
    window = None
    if isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in size):
        window = clamp_size(size[0], size[1])
    take("window_size", window is not None, window)
    return ignored


def _number_within(value: object, bounds: tuple[float, float]) -> float | None:
    """``value`` as a float when it is a JSON number (not true or false) within ``bounds``, else None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and bounds[0] <= value <= bounds[1]:
        return float(value)
    return None


def clamp_ui_scale(value: float) -> float:
    """A text size within ``UI_SCALE_RANGE``, rounded to a tenth (steps of 0.1 add up without drift)."""
    return round(max(UI_SCALE_RANGE[0], min(UI_SCALE_RANGE[1], value)), 1)


def clamp_size(width: int, height: int) -> tuple[int, int]:
    return (max(MIN_SIZE[0], min(MAX_SIZE[0], width)), max(MIN_SIZE[1], min(MAX_SIZE[1], height)))


def save_settings(settings: Settings, path: Path | None = None) -> str | None:
    """Write the settings; returns a problem to show, or None."""
    try:
        write_atomically(path if path is not None else settings_path(), settings.to_json())
    except OSError as error:
        return _("Settings could not be saved: {value}").format(value=error_reason(error))
    return None
