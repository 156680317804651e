"""One copy of the program at a time on an unfinished game.

Two copies playing the same game each write their own line of moves over the other's, and
the last to quit wins: the other's confirmed moves are gone. So a copy that opens an
unfinished game first claims it: an exclusive lock (``battle.storage.process_lock``) on
``ID.lock`` beside the game's record, held while the game is open, which ends with the
process. The lock file holds the holder's process id, for the one line a second copy shows:
"this game is open in another copy of Mahjong Battle (pid N)". A holder removes its lock
file on release while it still holds the lock; a claimant checks after locking that the
file it locked is still the one under that name, so a claim never lands on a removed file.

A claim that cannot be made (a folder, a link, a FIFO at ``ID.lock``, a folder that refuses
the file) raises ``GameUnclaimable`` with the reason in one line: the caller plays the game
without saving it and says why, since a copy that wrote without the claim could write over
another's moves unseen.

Within one process a game is claimed once (``claims`` by game id): the window that returns
to its title and resumes the game it left is not told it is open elsewhere.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from battle.i18n import _
from battle.storage.paths import error_reason
from battle.storage.process_lock import NotALockFile, open_lock_file, pid_in, try_lock, unlock, write_pid

LOCK_SUFFIX = ".lock"


class GameInUse(Exception):
    """Another copy of the program holds the game; the message is the line to show."""

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        super().__init__(
            _("this game is open in another copy of Mahjong Battle (pid {pid})").format(pid=pid)
            if pid
            else _("this game is open in another copy of Mahjong Battle")
        )


class GameUnclaimable(Exception):
    """The game's claim cannot be made here; the message is the reason, in one line."""

    @classmethod
    def because(cls, path: Path, error: OSError) -> GameUnclaimable:
        name = path.name
        if isinstance(error, NotALockFile):
            what = {
                "folder": _("its lock file {name} is a folder"),
                "link": _("its lock file {name} is a symbolic link"),
            }.get(error.what, _("its lock file {name} is not a regular file"))
            return cls(what.format(name=name))
        return cls(_("its lock file {name} cannot be used: {reason}").format(name=name, reason=error_reason(error)))


class GameClaim:
    """The lock on one unfinished game, held until ``release`` (or the end of the process)."""

    def __init__(self, path: Path, descriptor: int) -> None:
        self.path = path
        self._descriptor: int | None = descriptor

    @property
    def held(self) -> bool:
        return self._descriptor is not None

    def release(self) -> None:
        """Give the game up: the lock file goes (while still locked), then the lock."""
        if self._descriptor is None:
            return
        with contextlib.suppress(OSError):
            if _same_file(self._descriptor, self.path):
                os.unlink(self.path)
        with contextlib.suppress(OSError):
            os.close(self._descriptor)
        self._descriptor = None


claims: dict[Path, GameClaim] = {}
"""The games this process holds, by lock path."""


def lock_path(folder: Path, game_id: str) -> Path:
    return folder / f"{game_id}{LOCK_SUFFIX}"


def holds(folder: Path, game_id: str) -> bool:
    """Whether this process holds the game."""
    held = claims.get(lock_path(folder, game_id))
    return held is not None and held.held


def claim(folder: Path, game_id: str) -> GameClaim:
    """Claim the game ``game_id`` in ``folder`` for this process (again if it holds it already).

    Raises ``GameInUse`` when another process holds it, and ``GameUnclaimable`` when the lock
    file cannot be made or used (a read-only folder, a folder or a link at its name).
    """
    path = lock_path(folder, game_id)
    held = claims.get(path)
    if held is not None and held.held:
        return held
    try:
        for _attempt in range(10):  # a holder may remove the file between our open and our lock
            descriptor = open_lock_file(path)
            try:
                if not try_lock(descriptor):
                    raise GameInUse(pid_in(descriptor))
                if not _same_file(descriptor, path):
                    os.close(descriptor)
                    continue
                write_pid(descriptor)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.close(descriptor)
                raise
            claims[path] = GameClaim(path, descriptor)
            return claims[path]
    except OSError as error:
        raise GameUnclaimable.because(path, error) from None
    raise GameInUse(None)


def holder(folder: Path, game_id: str) -> int | None:
    """The process id of another copy holding the game, 0 when one holds it but its id is not
    known, None when no other copy holds it (the title asks this for every game it lists)."""
    path = lock_path(folder, game_id)
    held = claims.get(path)
    if held is not None and held.held:
        return None
    try:
        descriptor = open_lock_file(path, create=False)
    except OSError:
        return None  # no lock file: nobody holds it
    try:
        if try_lock(descriptor):
            unlock(descriptor)
            return None
        return pid_in(descriptor) or 0
    finally:
        os.close(descriptor)


def clear_stale(folder: Path) -> int:
    """Remove the lock files no process holds (left by a copy that was killed or closed); returns
    how many went. Each is locked before it is removed, so a held one is never touched and a
    claimant that opened it meanwhile sees it gone (``claim`` checks the name after locking)."""
    removed = 0
    try:
        names = [name for name in os.listdir(folder) if name.endswith(LOCK_SUFFIX)]
    except OSError:
        return 0
    for name in names:
        path = folder / name
        if path in claims:
            continue
        try:
            descriptor = open_lock_file(path, create=False)
        except OSError:
            continue
        try:
            if try_lock(descriptor) and _same_file(descriptor, path):
                os.unlink(path)
                removed += 1
        except OSError:
            pass
        finally:
            os.close(descriptor)
    return removed


def release_all_but(game_id: str | None) -> None:
    """Release every game this process holds except ``game_id``: a window plays one game at a time."""
    for path, held in list(claims.items()):
        if path.name != f"{game_id}{LOCK_SUFFIX}":
            held.release()
            del claims[path]


def release(folder: Path, game_id: str) -> None:
    held = claims.pop(lock_path(folder, game_id), None)
    if held is not None:
        held.release()


def _same_file(descriptor: int, path: Path) -> bool:
    try:
        named = os.lstat(path)
    except OSError:
        return False
    mine = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (mine.st_dev, mine.st_ino)
