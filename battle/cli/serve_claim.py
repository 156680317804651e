"""One server a game database: ``serve`` holds the database's claim (``FILE.lock``, the survey's
mechanism: ``battle.storage.sqlite_store.claim``) while it runs, so a second ``serve`` on the same
file is refused in one line naming the first, instead of both serving it. Two servers on one file
each keep their own games in memory: a game made on one and joined on the other waits for ever."""

from __future__ import annotations

from pathlib import Path
from typing import IO, TYPE_CHECKING

from battle.cli.inputs import InputError, file_label
from battle.i18n import _
from battle.storage.paths import error_reason
from battle.storage.process_lock import NotALockFile
from battle.storage.sqlite_store import StoreClaimed, claim, claim_path

if TYPE_CHECKING:
    from battle.online.server.rooms.store import GameStore


def hold_database(path: Path) -> IO[bytes]:
    """The claim on the game database ``path``, held until the returned file is closed or this
    process ends (a ``kill -9`` too); ``InputError`` when another server holds it."""
    try:
        return claim(path)
    except StoreClaimed as held:
        holder = _("process {pid}").format(pid=held.holder) if held.holder else _("another process")
        raise InputError(
            _("{path} is served by another server ({holder}): stop it, or give this one its own --db").format(
                path=file_label(str(path)), holder=holder
            )
        ) from None
    except NotALockFile as error:
        raise InputError(error.worded()) from None
    except OSError as error:
        raise InputError(
            _("cannot claim {path}: {value}").format(path=file_label(str(claim_path(path))), value=error_reason(error))
        ) from None


def check_writable(store: GameStore) -> None:
    """Refuse, in one line, a game database another program holds a write lock on (an ``sqlite3``
    shell in a transaction, a backup tool): the server's first write would fail with a traceback,
    in every game process again."""
    from battle.online.server.rooms.store import StoreError, Write

    try:
        store.commit(Write("", "writing to the game database", ()))
    except StoreError as error:
        raise InputError(
            _("{path} takes no writes ({reason}): another program holds it").format(
                path=file_label(str(store.path)), reason=str(error).rpartition(": ")[2]
            )
        ) from None
