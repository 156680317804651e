"""Reading a file the program did not make itself, so that no file can hang it or fill its memory.

Every file the program reads goes through ``read_regular_file``: only a regular file is read
(a FIFO, a device such as ``/dev/zero``, a socket or a folder is refused before a byte
is read, so nothing blocks or reads without end), and never more than a cap the caller
gives, checked against the file's size and again while reading (a file that grows while
read is caught too, and a sparse file of 3 GB is refused without a read). The file is
opened with ``O_NONBLOCK`` and examined with ``fstat`` on the open descriptor: opening a
FIFO for reading blocks until a writer comes, and a check by name before opening could
be raced by a rename.

This module sits below every other (the catalogue of words reads its compiled files with
it): it imports nothing of the program.
"""

from __future__ import annotations

import os
import stat


class NotAFileToRead(OSError):
    """The path names a FIFO, a device, a socket or a folder: nothing the program reads. The
    message is English; ``label`` and ``folder`` let a caller word it in its reader's language."""

    def __init__(self, label: str, *, folder: bool, message: str | None = None) -> None:
        kind = "a folder" if folder else "not a regular file (a FIFO, a device or a socket)"
        super().__init__(message or f"{label} is {kind}: nothing is read from it")
        self.label = label
        self.folder = folder


class FileTooLarge(ValueError):
    """The file is larger than the cap its kind has; the message names it and both sizes (``size``
    is None for a file that grew past the cap while it was read)."""

    def __init__(self, label: str, size: int | None, limit: int) -> None:
        if size is None:
            super().__init__(f"{label}: larger than the {limit} bytes a file of this kind has")
        else:
            super().__init__(f"{label}: {size} bytes, larger than the {limit} a file of this kind has")
        self.label = label
        self.size = size
        self.limit = limit


def read_regular_file(path: object, limit: int, label: str) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them; ``label`` names it
    in the messages.

    Raises ``FileNotFoundError`` (and other ``OSError``) as ``open`` does, ``NotAFileToRead``
    for anything but a regular file, and ``FileTooLarge`` for a file larger than ``limit``.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    descriptor = os.open(path, flags)  # type: ignore[arg-type]  # a caller turns a bad name into one line
    try:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode):
            raise NotAFileToRead(label, folder=stat.S_ISDIR(info.st_mode))
        if info.st_size > limit:
            raise FileTooLarge(label, info.st_size, limit)
    except BaseException:
        os.close(descriptor)
        raise
    with open(descriptor, "rb", closefd=True) as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise FileTooLarge(label, None, limit)
    return data
