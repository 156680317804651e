"""An exclusive lock on a file that ends with the process holding it, and that process's id in it.

The one mechanism under both claims of the program: a game open in one copy
(``battle.storage.game_claim``) and a survey running on one database
(``battle.storage.sqlite_store.claim``). The lock is ``flock`` on POSIX and
``msvcrt.locking`` on Windows; the system drops it when the process ends, however it ends
(a ``kill -9`` too), so a claim never outlives its holder. The holder writes its process id
into the file, for the one line a second copy shows ("... (pid N)").

A lock file is a regular file of its own: a symbolic link at its name is never followed (the
pid written would truncate the file it names), and a folder, a FIFO or a device there is
refused with ``NotALockFile`` before anything is written, so a claim that cannot be made is
said, never skipped. A lock needs no write access: a lock file this user may only read (one a
copy run as root left behind) is locked read-only, without the pid.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys

from battle.i18n import _

PID_OFFSET = 1
"""Windows locks byte 0 and refuses to read a locked byte to others: the pid starts after it."""


_SAFE_OPEN = (
    getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
"""No link followed, no wait on a FIFO's other end, not inherited by the compile's child processes."""


class NotALockFile(OSError):
    """Something other than a regular file stands at a lock file's name; the message says what."""

    WORDS = {"folder": "is a folder", "link": "is a symbolic link", "special": "is not a regular file"}

    def __init__(self, path: os.PathLike[str] | str, what: str) -> None:
        super().__init__(errno.EINVAL, self.WORDS[what], str(path))
        self.what = what
        """``folder``, ``link`` or ``special`` (a FIFO, a device or a socket)."""

    def __str__(self) -> str:
        return f"{self.filename} {self.strerror}, not a lock file"

    def worded(self) -> str:
        """The reason as one sentence in the player's language."""
        if self.what == "folder":
            said = _("{path} is a folder, not a lock file")
        elif self.what == "link":
            said = _("{path} is a symbolic link, not a lock file: a lock never follows one")
        else:
            said = _("{path} is not a regular file (a FIFO, a device or a socket), not a lock file")
        return said.format(path=self.filename)


def open_lock_file(path: os.PathLike[str] | str, *, create: bool = True) -> int:
    """A descriptor of the regular file ``path`` (made when ``create``), for ``try_lock``: read-write,
    or read-only when the file is another user's. Raises ``NotALockFile`` for a folder, a link, a
    FIFO, a device or a socket at ``path``, and ``OSError`` when it cannot be opened or made."""
    with contextlib.suppress(FileNotFoundError):  # looked at first, so a device is never even opened
        _refuse_special(path, os.lstat(path).st_mode)
    try:
        descriptor = os.open(path, os.O_RDWR | _SAFE_OPEN | (os.O_CREAT if create else 0), 0o644)
    except PermissionError:
        if not os.path.lexists(path):
            raise  # the folder refuses a new file
        descriptor = os.open(path, os.O_RDONLY | _SAFE_OPEN)
    except OSError as error:
        if error.errno == errno.ELOOP:  # O_NOFOLLOW met a link made after the look above
            raise NotALockFile(path, "link") from None
        raise
    try:
        _refuse_special(path, os.fstat(descriptor).st_mode)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _refuse_special(path: os.PathLike[str] | str, mode: int) -> None:
    if stat.S_ISLNK(mode):
        raise NotALockFile(path, "link")
    if stat.S_ISDIR(mode):
        raise NotALockFile(path, "folder")
    if not stat.S_ISREG(mode):
        raise NotALockFile(path, "special")


def write_pid(descriptor: int) -> None:
    """This process's id, after the locked byte, in place of whatever the file held; nothing on a
    lock file opened read-only (the pid only names the holder in a message)."""
    try:
        os.ftruncate(descriptor, PID_OFFSET)
        os.lseek(descriptor, PID_OFFSET, os.SEEK_SET)
        os.write(descriptor, f"{os.getpid()}\n".encode("ascii"))
    except OSError as error:
        if error.errno not in (errno.EBADF, errno.EINVAL):  # ftruncate on a read-only descriptor
            raise


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
