"""An exclusive lock on a file that ends with the process holding it, and that process's id in it.

The one mechanism under both claims of the program: a game open in one copy
(``battle.storage.game_claim``) and a survey running on one database
(``battle.storage.sqlite_store.claim``). The lock is ``flock`` on POSIX and
``msvcrt.locking`` on Windows; the system drops it when the process ends, however it ends
(a ``kill -9`` too), so a claim never outlives its holder. The holder writes its process id
into the file, for the one line a second copy shows ("... (pid N)"). A lock file is a regular
file opened without following a link: a link there could name the user's own file, which
the process id would overwrite.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys

PID_OFFSET = 1
"""Windows locks byte 0 and refuses to read a locked byte to others: the pid starts after it."""


class NotALockFile(OSError):
    """A link, a folder, a FIFO or a device where a lock file belongs: never followed, opened or written."""


def open_lock_file(path: os.PathLike[str] | str, *, create: bool = True) -> int:
    """A descriptor of the lock file ``path`` (made when ``create``), for ``try_lock``: a regular file,
    opened without following a link (``O_NOFOLLOW``) or waiting on a FIFO; ``NotALockFile`` for
    anything else there, other ``OSError`` as ``open`` raises them."""
    flags = os.O_RDWR | (os.O_CREAT if create else 0)
    for name in ("O_NOFOLLOW", "O_NONBLOCK", "O_NOCTTY", "O_BINARY"):
        flags |= getattr(os, name, 0)
    try:
        descriptor = os.open(path, flags, 0o644)
    except OSError:
        if os.path.islink(path):
            raise NotALockFile(f"{path} is a symbolic link, not a lock file: a lock never follows one") from None
        if os.path.isdir(path):
            raise NotALockFile(f"{path} is a folder, not a lock file") from None
        raise
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise NotALockFile(f"{path} is not a regular file (a FIFO, a device or a socket), not a lock file")
    return descriptor


def write_pid(descriptor: int) -> None:
    """This process's id, after the locked byte, in place of whatever the file held."""
    os.ftruncate(descriptor, PID_OFFSET)
    os.lseek(descriptor, PID_OFFSET, os.SEEK_SET)
    os.write(descriptor, f"{os.getpid()}\n".encode("ascii"))


def pid_in(descriptor: int) -> int | None:
    """The holder's process id as its lock file says, or None when it says none."""
    try:
        os.lseek(descriptor, PID_OFFSET, os.SEEK_SET)
        text = os.read(descriptor, 32).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


if sys.platform == "win32":
    import msvcrt

    def try_lock(descriptor: int) -> bool:
        """Take the lock if nobody holds it; False when another process does."""
        os.lseek(descriptor, 0, os.SEEK_SET)
        try:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def unlock(descriptor: int) -> None:
        os.lseek(descriptor, 0, os.SEEK_SET)
        with contextlib.suppress(OSError):
            msvcrt.locking(descriptor, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def try_lock(descriptor: int) -> bool:
        """Take the lock if nobody holds it; False when another process does."""
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def unlock(descriptor: int) -> None:
        fcntl.flock(descriptor, fcntl.LOCK_UN)
