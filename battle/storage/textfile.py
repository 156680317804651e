"""Reading a user's or the program's file, with the reasons a person can act on.

Every file the program reads goes through ``read_limited`` (``battle.regular_file`` under it):
only a regular file is read, never more than a cap the caller gives, and nothing blocks.

Record and position files are text: UTF-8 with or without a byte-order mark.
"""

from __future__ import annotations

import json

from battle.i18n import N_, _
from battle.regular_file import FileTooLarge, NotAFileToRead, read_regular_file
from battle.rules.errors import Phrase
from battle.storage.paths import error_reason

MAX_BYTES = 1_000_000
"""Cap for a game record or position. The longest record is about 0.7 KB (54 moves, two
40-character names); comments may be added by hand, so the cap is 1,400 times that."""


class TextFileError(ValueError):
    """A file that is not readable text; the message names the file and the reason."""


A_FOLDER = N_("{label} is a folder: nothing is read from it")
NOT_A_REGULAR_FILE = N_("{label} is not a regular file (a FIFO, a device or a socket): nothing is read from it")
"""What a path to read that names no regular file is, in the catalogue (``{label}`` names it)."""


def read_limited(path: object, limit: int, label: str) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them (``read_regular_file``).

    Raises ``FileNotFoundError`` (and other ``OSError``) as ``open`` does, ``NotAFileToRead``
    for anything but a regular file, and ``TextFileError`` for a file larger than ``limit``.
    """
    try:
        return read_regular_file(path, limit, label)
    except NotAFileToRead as error:
        worded = _(A_FOLDER if error.folder else NOT_A_REGULAR_FILE).format(label=label)
        raise NotAFileToRead(label, folder=error.folder, message=worded) from None
    except FileTooLarge as error:
        if error.size is None:
            raise TextFileError(
                _("{label}: larger than the {limit} bytes a file of this kind has").format(label=label, limit=limit)
            ) from None
        raise TextFileError(
            _("{label}: {size} bytes, larger than the {limit} a file of this kind has").format(
                label=label, size=error.size, limit=limit
            )
        ) from None


def decode_limited(data: bytes, label: str) -> str:
    """``data``, read as at most ``MAX_BYTES + 1`` bytes (of standard input), decoded as UTF-8; more
    than ``MAX_BYTES`` is refused."""
    if len(data) > MAX_BYTES:
        raise TextFileError(
            _("{label}: larger than {limit} bytes, not a game record or position").format(label=label, limit=MAX_BYTES)
        )
    return _decode(data, label)


def _decode(data: bytes, label: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise TextFileError(_("{label}: not UTF-8 text (byte {byte})").format(label=label, byte=error.start)) from None


def read_text_file(path: object, label: str, limit: int = MAX_BYTES) -> str:
    """The text of the file at ``path``; OSErrors become ``TextFileError`` too, and so does a
    name no system accepts (one with a NUL character, which ``open`` refuses with a ValueError)."""
    try:
        data = read_limited(path, limit, label)
    except NotAFileToRead as error:
        raise TextFileError(str(error)) from None
    except OSError as error:
        raise TextFileError(_("{label}: {reason}").format(label=label, reason=error_reason(error))) from None
    except ValueError as error:
        if isinstance(error, TextFileError):
            raise
        raise TextFileError(_("{label}: not a usable file name ({error})").format(label=label, error=error)) from None
    return _decode(data, label)


_JSON_REASONS = frozenset(
    {
        N_("Expecting value"),
        N_("Expecting property name enclosed in double quotes"),
        N_("Expecting ':' delimiter"),
        N_("Expecting ',' delimiter"),
        N_("Unterminated string starting at"),
        N_("Invalid control character at"),
        N_("Invalid \\escape"),
        N_("Invalid \\uXXXX escape"),
        N_("Extra data"),
    }
)
"""The JSON reader's reasons, in the catalogue: the English is Python's own (``json.JSONDecodeError.msg``),
so an English line reads as before, and another language gets words of its own; a reason of a
later Python not listed here is shown as Python words it."""


def json_reason(error: json.JSONDecodeError) -> Phrase | str:
    """Why a line is not JSON, worded when shown."""
    return Phrase(error.msg) if error.msg in _JSON_REASONS else error.msg
