"""Where the program keeps the user's files, and how it writes them so that nothing is lost.

Follows the XDG base directory convention (``$XDG_CONFIG_HOME``,
``$XDG_DATA_HOME``) so tests and users can redirect it; nothing is written
until a caller asks for the directory.

Every write goes to a temporary file with a name of its own (``.mahjong-battle-`` with the
process id and a random part, so two copies of the program never share one, and only such
names are ever cleaned up), is flushed to disk, renamed over the target in one step and the
folder is synced, so a crash, a kill or a full disk leaves either the old file or the new
one, never half of one. A link is followed to the file it names, which is written in its
own folder (the link stays a link); a folder, a FIFO or a device is never written over. A
file that cannot be read is renamed aside, never deleted or reused.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import time
from pathlib import Path

from battle.i18n import N_, _
from battle.storage.process_lock import NotALockFile

APP_DIR = "mahjong-battle"
TEMPORARY_PREFIX = ".mahjong-battle-"
TEMPORARY_SUFFIX = ".tmp"
"""Temporary files are ``.mahjong-battle-PID-RANDOM.tmp``: a ``*.tmp`` of the user's is not ours."""
STRAY_AGE = 600.0
"""Seconds after which a leftover temporary file is a crash's, not another copy's write in flight
(a write takes milliseconds; ten minutes leaves room for a stalled disk)."""


class StorageProblem(OSError):
    """A folder of the program's own cannot be made or used; the message is for the user."""


class NotAFileToWrite(OSError):
    """The path names a folder, a FIFO, a device or a socket: nothing to write a game into."""


def _base(variable: str, fallback: str) -> Path:
    value = os.environ.get(variable)
    return Path(value) if value else Path.home() / fallback


def config_dir() -> Path:
    """The settings directory, created on demand (see ``ensure_folder`` for what can go wrong)."""
    return ensure_folder(_base("XDG_CONFIG_HOME", ".config") / APP_DIR)


def data_dir() -> Path:
    """The directory for saved games, created on demand."""
    return ensure_folder(data_location())


def ensure_folder(path: Path) -> Path:
    """Make ``path`` a usable folder: a file in its place is set aside; a folder that cannot be
    made or entered raises ``StorageProblem`` naming it, for the caller to report and go on without."""
    try:
        if path.exists() and not path.is_dir():
            moved = set_aside(path)
            if moved is None:
                raise StorageProblem(
                    _("{path} is a file, not a folder, and could not be moved aside").format(path=path)
                )
        path.mkdir(parents=True, exist_ok=True)
        if not os.access(path, os.R_OK | os.W_OK | os.X_OK):
            raise StorageProblem(_("{path} cannot be used: {reason}").format(path=path, reason=_refusal(path)))
    except StorageProblem:
        raise
    except (OSError, ValueError) as error:
        raise StorageProblem(
            _("{path} cannot be used: {reason}").format(path=path, reason=error_reason(error))
        ) from None
    return path


def _refusal(path: Path) -> str:
    """Why a folder that exists cannot be written: its file system is mounted read-only, or its
    permissions refuse this user (``os.access`` says only no)."""
    with contextlib.suppress(OSError, AttributeError):  # no statvfs on Windows
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return _("Read-only file system")
    return _("Permission denied")


def data_location() -> Path:
    """Where ``data_dir`` is, without making it: a folder that exists but cannot be written (a
    read-only file system) can still be read there."""
    return _base("XDG_DATA_HOME", ".local/share") / APP_DIR


_ERRNO_WORDS: dict[int, str] = {
    getattr(errno, name): words
    for name, words in (
        ("ENOENT", N_("No such file or directory")),
        ("EACCES", N_("Permission denied")),
        ("EPERM", N_("Operation not permitted")),
        ("EISDIR", N_("Is a directory")),
        ("ENOTDIR", N_("Not a directory")),
        ("ENOTEMPTY", N_("Directory not empty")),
        ("EEXIST", N_("File exists")),
        ("ENOSPC", N_("No space left on device")),
        ("EDQUOT", N_("Disk quota exceeded")),
        ("EFBIG", N_("File too large")),
        ("EROFS", N_("Read-only file system")),
        ("ENAMETOOLONG", N_("File name too long")),
        ("ELOOP", N_("Too many levels of symbolic links")),
        ("EMFILE", N_("Too many open files")),
        ("ENFILE", N_("Too many open files in system")),
        ("EIO", N_("Input/output error")),
        ("EBUSY", N_("Device or resource busy")),
        ("ENXIO", N_("No such device or address")),
        ("EINVAL", N_("Invalid argument")),
        ("ECONNREFUSED", N_("Connection refused")),
        ("ECONNRESET", N_("Connection reset by peer")),
        ("ETIMEDOUT", N_("Connection timed out")),
        ("ENETUNREACH", N_("Network is unreachable")),
        ("EHOSTUNREACH", N_("No route to host")),
        ("EADDRINUSE", N_("Address already in use")),
        ("EADDRNOTAVAIL", N_("Cannot assign requested address")),
    )
    if hasattr(errno, name)
}
"""The system's reasons a player meets, in the catalogue: the English is glibc's ``strerror``, so an
English line reads as the system's own, and another language gets whole words of its own."""


def error_reason(error: BaseException) -> str:
    """What went wrong in words, in the player's language: an OSError's reason by its ``errno``
    ("No such file or directory", German "Datei oder Ordner nicht gefunden") without its number
    and path, the system's own words for a rare one, any other error's message (a ValueError's
    "embedded null byte", say)."""
    if isinstance(error, NotALockFile):
        return error.worded()
    if isinstance(error, OSError):
        worded = _ERRNO_WORDS.get(error.errno) if error.errno is not None else None
        if worded is not None:
            return _(worded)
        if error.strerror:
            return error.strerror
    return str(error)


def write_atomically(path: Path | str, text: str | bytes) -> None:
    """Replace ``path`` with ``text`` (UTF-8 text, or bytes as they are, an image say) in one step,
    keeping the permissions of the file it replaces.

    Raises OSError (full disk, read-only folder...) with the old file untouched and no
    temporary file left behind.
    """
    path = writable_target(Path(path))
    folder = path.parent
    mode = _mode_of(path)
    temporary = folder / f"{TEMPORARY_PREFIX}{os.getpid()}-{secrets.token_hex(4)}{TEMPORARY_SUFFIX}"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(text.encode("utf-8") if isinstance(text, str) else text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    sync_folder(folder)


def writable_target(path: Path) -> Path:
    """The file a write to ``path`` replaces: ``path`` itself, or the file a link names (so the
    link keeps pointing at the new text). Raises ``NotAFileToWrite`` for a folder, a FIFO, a
    device or a socket, and the ``OSError`` of a name the system refuses (too long, say)."""
    target = Path(os.path.realpath(path)) if os.path.islink(path) else path
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return target
    if stat.S_ISREG(info.st_mode):
        return target
    if stat.S_ISDIR(info.st_mode):
        raise NotAFileToWrite(_("{path} is a folder: nothing is written there").format(path=path))
    raise NotAFileToWrite(
        _("{path} is not a regular file (a FIFO, a device or a socket): nothing is written there").format(path=path)
    )


def _mode_of(path: Path) -> int | None:
    """The permission bits of an existing regular file, to give its replacement."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None


def sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (a no-op where folders cannot be opened, as on Windows)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def set_aside(path: Path) -> Path | None:
    """Rename a file (or folder) that cannot be used to a name of its own ending in ``.corrupt``.

    ``settings.json`` becomes ``settings.json.corrupt``, a second one
    ``settings.json.2.corrupt``, and so on: an earlier one is never overwritten.
    Returns the new path, or None when even the rename failed.
    """
    path = Path(path)
    for number in range(1, 1000):
        middle = "" if number == 1 else f".{number}"
        target = path.with_name(f"{path.name}{middle}.corrupt")
        if target.exists() or target.is_symlink():
            continue
        try:
            # a hard link fails if another copy of the program took the name meanwhile
            if path.is_dir() and not path.is_symlink():
                os.rename(path, target)
            else:
                os.link(path, target, follow_symlinks=False)
                os.unlink(path)
        except FileExistsError:
            continue
        except OSError:
            try:
                os.rename(path, target)
            except OSError:
                return None
        return target
    return None


def remove_stray_temporaries(folder: Path, older_than: float = STRAY_AGE) -> int:
    """Delete temporary files left by a crash mid-write; returns how many went.

    Only files older than ``older_than`` seconds go, so another copy's write in
    flight is never touched.
    """
    removed = 0
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        ours = entry.name.startswith(TEMPORARY_PREFIX) and entry.name.endswith(TEMPORARY_SUFFIX)
        if not (ours and entry.is_file(follow_symlinks=False)):
            continue
        try:
            if now - entry.stat(follow_symlinks=False).st_mtime > older_than:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed
