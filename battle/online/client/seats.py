"""The online games this player can come back to: server, game, seat and the seat's secret token.

Kept in ``data_dir()/online/seats.json`` (written atomically, readable only by the
user: a token is the key to a seat), shared by the window and the terminal, so a
game started in one can be resumed days later in either. A file that does not read
is set aside and the list starts empty; the reason is returned for the front end to say.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from battle.rules.errors import one_line
from battle.storage.paths import data_dir, ensure_folder, set_aside, write_atomically
from battle.storage.textfile import TextFileError, read_text_file

SEATS_FILE = "seats.json"
MAX_SEATS = 50
"""The newest games kept; older ones drop off (their games stay on the server)."""


@dataclass
class Seat:
    """What a client keeps to come back to a game."""

    url: str
    game: str
    token: str | None
    """None for a spectator, who comes back with the watch code."""
    seat: int | None
    watch: str | None = None
    invite: str | None = None
    opponent: str = ""
    """The other player's name when last seen, for the list."""
    updated: float = 0.0
    """When the game was last seen (``time.time()``), newest first in the list."""
    finished: bool = False

    @classmethod
    def from_json(cls, value: object) -> Seat:
        """Read one entry back; raises ValueError naming what is wrong."""
        if not isinstance(value, dict):
            raise ValueError(f"a seat must be an object, not {type(value).__name__}")
        try:
            seat = cls(**value)
        except TypeError as error:
            raise ValueError(f"a seat's fields do not fit: {error}") from None
        if (
            not isinstance(seat.url, str)
            or not isinstance(seat.game, str)
            or not (seat.token is None or isinstance(seat.token, str))
            or seat.seat not in (None, 1, 2)
        ):
            raise ValueError(f"a seat of game {seat.game!r} has fields of the wrong type")
        return seat


def seats_path() -> Path:
    return data_dir() / "online" / SEATS_FILE


def load_seats(path: Path | None = None) -> tuple[list[Seat], str | None]:
    """The kept seats, newest first, and a one-line problem if the file had to be set aside."""
    path = path or seats_path()
    if not path.exists():
        return [], None
    try:
        values = json.loads(read_text_file(path, "the list of online games"))
        if not isinstance(values, list):
            raise ValueError("not a list")
        seats = [Seat.from_json(value) for value in values]
    except (OSError, TextFileError, ValueError, RecursionError) as error:
        moved = set_aside(path)
        where = f"; set aside as {moved.name}" if moved else ""
        return [], one_line(f"{path}: the list of online games does not read ({error}){where}")
    return sorted(seats, key=lambda seat: -seat.updated), None


def remember_seat(seat: Seat, path: Path | None = None) -> None:
    """Add or update ``seat`` (by server and game); raises OSError if it cannot be written."""
    path = path or seats_path()
    seats, _ = load_seats(path)
    kept = [seat] + [s for s in seats if (s.url, s.game) != (seat.url, seat.game)]
    _write(path, kept[:MAX_SEATS])


def forget_seat(url: str, game: str, path: Path | None = None) -> None:
    path = path or seats_path()
    seats, _ = load_seats(path)
    _write(path, [s for s in seats if (s.url, s.game) != (url, game)])


def _write(path: Path, seats: list[Seat]) -> None:
    ensure_folder(path.parent)
    write_atomically(path, json.dumps([asdict(seat) for seat in seats], indent=1))
    os.chmod(path, 0o600)
