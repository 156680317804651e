"""Reading a position or record file as text, with the reasons a person can act on.

The command line and the window both read user files; both cap the size (a
record or position is a few kilobytes, so a huge file is a mistake, not a game)
and accept UTF-8 with or without a byte-order mark.
"""

from __future__ import annotations

from typing import BinaryIO

MAX_BYTES = 1_000_000


class TextFileError(ValueError):
    """A file that is not readable text; the message names the file and the reason."""


def decode_limited(handle: BinaryIO, label: str) -> str:
    """Read at most ``MAX_BYTES`` from ``handle`` and decode them as UTF-8."""
    data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise TextFileError(f"{label}: larger than {MAX_BYTES} bytes, not a game record or position")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise TextFileError(f"{label}: not UTF-8 text (byte {error.start})") from None


def read_text_file(path: object, label: str) -> str:
    """The text of the file at ``path``; OSErrors become ``TextFileError`` too, and so does a
    name no system accepts (one with a NUL character, which ``open`` refuses with a ValueError)."""
    try:
        handle = open(path, "rb")  # type: ignore[call-overload]  # noqa: SIM115 - closed below
    except OSError as error:
        raise TextFileError(f"{label}: {error.strerror or error}") from None
    except ValueError as error:
        raise TextFileError(f"{label}: not a usable file name ({error})") from None
    with handle:
        try:
            return decode_limited(handle, label)
        except OSError as error:  # a folder, or a device that fails
            raise TextFileError(f"{label}: {error.strerror or error}") from None
