"""Reading a user's or the program's file, with the reasons a person can act on.

Every file the program reads goes through ``read_limited``: only a regular file is read
(a FIFO, a device such as ``/dev/zero``, a socket or a folder is refused before a byte
is read, so nothing blocks or reads without end), and never more than a cap the caller
gives, checked against the file's size and again while reading (a file that grows while
read is caught too). The file is opened with ``O_NONBLOCK`` and examined with ``fstat``
on the open descriptor: opening a FIFO for reading blocks until a writer comes, and a
check by name before opening could be raced by a rename.

Record and position files are text: UTF-8 with or without a byte-order mark.
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO

from battle.i18n import _
from battle.storage.paths import error_reason

MAX_BYTES = 1_000_000
"""Cap for a game record or position. The longest record is about 0.7 KB (54 moves, two
40-character names); comments may be added by hand, so the cap is 1,400 times that."""


class TextFileError(ValueError):
    """A file that is not readable text; the message names the file and the reason."""


class NotAFileToRead(OSError):
    """The path names a FIFO, a device, a socket or a folder: nothing the program reads."""


def read_limited(path: object, limit: int, label: str) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises ``FileNotFoundError`` (and other ``OSError``) as ``open`` does, ``NotAFileToRead``
    for anything but a regular file, and ``TextFileError`` for a file larger than ``limit``.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    descriptor = os.open(path, flags)  # type: ignore[arg-type]  # read_text_file turns a bad name into one line
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            if stat.S_ISDIR(info.st_mode):
                raise NotAFileToRead(_("{label} is a folder: nothing is read from it").format(label=label))
            raise NotAFileToRead(
                _("{label} is not a regular file (a FIFO, a device or a socket): nothing is read from it").format(
                    label=label
                )
            )
        if info.st_size > limit:
            raise TextFileError(
                _("{label}: {size} bytes, larger than the {limit} a file of this kind has").format(
                    label=label, size=info.st_size, limit=limit
                )
            )
    except BaseException:
        os.close(descriptor)
        raise
    with open(descriptor, "rb", closefd=True) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise TextFileError(
            _("{label}: larger than the {limit} bytes a file of this kind has").format(label=label, limit=limit)
        )
    return data


def decode_limited(handle: BinaryIO, label: str) -> str:
    """Read at most ``MAX_BYTES`` from ``handle`` (standard input) and decode them as UTF-8."""
    data = handle.read(MAX_BYTES + 1)
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
