"""One lobby for every server group (``serve --group --shared``): the open challenges in PostgreSQL.

Each group writes its challenges as rows of ``battle_challenges`` and tells each change on the
channel ``LOBBY_CHANNEL`` (``shared_notes``); each group listens on a connection of its own and
puts the others' challenges on its board (``LobbyDesk.shared_changed``), so a follower of any group
sees every group's challenges and their news. A challenge of another group is taken the way any of
its games is joined: the ``join`` with its code is answered ``elsewhere`` (``group_desk``).

Writes wait in ``_pending`` (one entry a code, so it holds no more than the board does) and go in one
transaction a turn, on a connection of their own (a ``SharedDirectory``), so a slow write never holds
up a join. A group that dies leaves rows behind: every group stamps ``battle_lobby_groups`` each
``HEARTBEAT_SECONDS`` and deletes (and tells) the challenges of a group not stamped for
``DEAD_SECONDS``, and of any challenge opened ``challenge_seconds`` ago (the board's own end).

Without PostgreSQL each group's lobby lists its own challenges: the others' leave the board, the log
says so once, and every ``RETRY_SECONDS`` the listener tries again; back, it reads every row afresh
and writes all of its own again (``reload``). psycopg is imported only here, only with ``--shared``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from battle.online.server.lobby.desk import LobbyDesk
from battle.online.server.lobby.shared_notes import (
    LOBBY_CHANNEL,
    BadNote,
    SharedOffer,
    notes,
    offer_row,
    read_note,
    read_offer_row,
    reload_note,
)
from battle.online.server.processes.group_routes import RETRY_SECONDS, DirectoryDown
from battle.online.server.processes.shared_away import SaidOnce
from battle.online.server.processes.shared_directory import CONNECT_SECONDS, SharedDirectory

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("mahjong-battle.server")

HEARTBEAT_SECONDS = 5.0
"""How often a group stamps itself alive and clears the challenges of groups that are not."""
DEAD_SECONDS = 20.0
"""A group not stamped for this long is gone: its challenges leave every lobby (four missed stamps)."""


class SharedLobby:
    """The group ``group``'s side of the lobby the groups share, at the PostgreSQL ``url``, for ``desk``."""

    def __init__(self, url: str, group: str, desk: LobbyDesk, clock: Callable[[], float] = time.time) -> None:
        self.url = url
        self.group = group
        self.desk = desk
        self.clock = clock
        self.writer = SharedDirectory(url, group)
        self._own: dict[str, SharedOffer] = {}
        """This group's open challenges by invite code, as the others should see them."""
        self._pending: dict[str, bool] = {}
        """Codes whose row is still to be written (True) or deleted (False), in the order they changed."""
        self._reload = True
        """Write every row of this group again (at the start, and after PostgreSQL was away)."""
        self._wake = asyncio.Event()
        self._away = SaidOnce(
            "the shared lobby is unavailable ({reason}); this group's lobby lists its own challenges",
            "the shared lobby answers again; this group's lobby lists every group's challenges",
        )
        """Whether the shared lobby is known to be away."""
        self._listening: asyncio.Task[None] | None = None
        desk.on_open = self._opened
        desk.on_gone = self._gone

    # -- this group's changes ----------------------------------------------------------------

    def _opened(self, offer: SharedOffer) -> None:
        self._own[offer.entry.code] = offer
        self._changed(offer.entry.code, True)

    def _gone(self, code: str) -> None:
        if self._own.pop(code, None) is not None:
            self._changed(code, False)

    def _changed(self, code: str, kept: bool) -> None:
        if not self._reload:  # a reload writes every row anyway: nothing piles up while PostgreSQL is away
            self._pending[code] = kept
        self._wake.set()

    async def _write(self) -> None:
        """The pending changes (or, after a reload is due, every row of this group), in one transaction."""
        reload, self._reload = self._reload, False
        pending, self._pending = self._pending, {}
        own = dict(self._own)
        opened = list(own.values()) if reload else [own[code] for code, kept in pending.items() if kept and code in own]
        gone = [] if reload else [code for code, kept in pending.items() if not kept]

        async def write(connection: psycopg.AsyncConnection[Any]) -> None:
            async with connection.transaction(), connection.cursor() as cursor:
                if reload:
                    await cursor.execute("DELETE FROM battle_challenges WHERE grp = %s", (self.group,))
                if gone:
                    await cursor.execute(
                        "DELETE FROM battle_challenges WHERE grp = %s AND code = ANY(%s)", (self.group, gone)
                    )
                if opened:
                    await cursor.executemany(
                        "INSERT INTO battle_challenges (code, grp, entry, opened) VALUES (%s, %s, %s, %s) "
                        "ON CONFLICT (code) DO UPDATE SET grp = EXCLUDED.grp, entry = EXCLUDED.entry, "
                        "opened = EXCLUDED.opened",
                        [(offer.entry.code, self.group, offer_row(offer), offer.entry.opened) for offer in opened],
                    )
                told = [reload_note(self.group)] if reload else list(notes(self.group, opened, gone))
                for note in told:
                    await cursor.execute("SELECT pg_notify(%s, %s)", (LOBBY_CHANNEL, note))

        try:
            await self.writer.run(write)
        except DirectoryDown:
            self._reload = True  # what this group holds is written whole once PostgreSQL answers

    async def _write_forever(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            if not self._away.down:
                await self._write()

    # -- the other groups' -------------------------------------------------------------------

    async def _listen(self) -> None:
        """Listen to the channel, read every other group's rows, then apply each note as it comes."""
        import psycopg

        connection = await psycopg.AsyncConnection.connect(
            self.url,
            autocommit=True,
            connect_timeout=CONNECT_SECONDS,
            application_name=f"mahjong-battle {self.group} lobby",
        )
        try:
            await connection.execute(f"LISTEN {LOBBY_CHANNEL}")
            self.desk.shared_reset(None, await self._rows(None))  # notes from here on are not missed
            self._reload = True
            self._wake.set()
            self._away.answered()
            async for message in connection.notifies():
                await self._note(message.payload)
        finally:
            with contextlib.suppress(psycopg.Error, OSError):
                await connection.close()

    async def _note(self, payload: str) -> None:
        try:
            note = read_note(payload)
        except BadNote as problem:
            log.warning("left out a lobby note: %s", problem)
            return
        if note.group == self.group:
            return
        if note.reload:
            self.desk.shared_reset(note.group, await self._rows(note.group))
        else:
            self.desk.shared_changed(note)

    async def _rows(self, group: str | None) -> list[tuple[str, SharedOffer]]:
        """The open challenges of ``group`` (None: of every other group), oldest first, but those of a
        group gone quiet or past their time (the next stamp deletes them)."""
        select = (
            "SELECT grp, entry FROM battle_challenges WHERE opened >= %s AND grp NOT IN (SELECT grp FROM "
            "battle_lobby_groups WHERE alive < now() - make_interval(secs => %s)) AND "
            + ("grp <> %s" if group is None else "grp = %s")
            + " ORDER BY opened"
        )
        opened_since = self.clock() - self.desk.limits.challenge_seconds
        arguments = (opened_since, DEAD_SECONDS, self.group if group is None else group)

        async def read(connection: psycopg.AsyncConnection[Any]) -> list[tuple[str, str]]:
            cursor = await connection.execute(select, arguments)
            return [(str(grp), str(entry)) for grp, entry in await cursor.fetchall()]

        offers: list[tuple[str, SharedOffer]] = []
        for grp, entry in await self.writer.run(read):
            try:
                offers.append((grp, read_offer_row(entry)))
            except BadNote as problem:
                log.warning("left out a shared challenge: %s", problem)
        return offers

    async def _listen_forever(self) -> None:
        import psycopg

        while True:
            self._listening = asyncio.create_task(self._listen())
            try:
                await self._listening
                reason = "the listening connection ended"
            except asyncio.CancelledError:
                current = asyncio.current_task()
                if current is not None and current.cancelling():
                    raise
                reason = f"no answer in {HEARTBEAT_SECONDS:g} s"
            except (psycopg.Error, OSError, DirectoryDown) as error:
                reason = " ".join(str(error).split()) or type(error).__name__  # libpq's words span lines
            finally:
                self._listening = None
            self._away.lost(reason)
            self.desk.shared_reset(None, ())
            await asyncio.sleep(RETRY_SECONDS)

    # -- every group's upkeep ----------------------------------------------------------------

    async def _stamp(self) -> None:
        """Stamp this group alive; delete and tell the challenges of the groups gone, and those past
        their time."""

        async def stamp(connection: psycopg.AsyncConnection[Any]) -> None:
            async with connection.transaction(), connection.cursor() as cursor:
                await cursor.execute(
                    "SELECT alive < now() - make_interval(secs => %s) FROM battle_lobby_groups WHERE grp = %s",
                    (DEAD_SECONDS, self.group),
                )
                stamped = await cursor.fetchone()
                if stamped is not None and stamped[0]:  # this group was taken for gone: its rows are no more
                    self._reload = True
                    self._wake.set()
                await cursor.execute(
                    "INSERT INTO battle_lobby_groups (grp, alive) VALUES (%s, now()) "
                    "ON CONFLICT (grp) DO UPDATE SET alive = now()",
                    (self.group,),
                )
                await cursor.execute(
                    "DELETE FROM battle_challenges WHERE opened < %s OR grp IN (SELECT grp FROM battle_lobby_groups "
                    "WHERE alive < now() - make_interval(secs => %s)) RETURNING grp, code",
                    (self.clock() - self.desk.limits.challenge_seconds, DEAD_SECONDS),
                )
                gone: dict[str, list[str]] = {}
                for grp, code in await cursor.fetchall():
                    gone.setdefault(str(grp), []).append(str(code))
                for grp, codes in gone.items():
                    for note in notes(grp, (), codes):
                        await cursor.execute("SELECT pg_notify(%s, %s)", (LOBBY_CHANNEL, note))

        await self.writer.run(stamp)

    async def _stamp_forever(self) -> None:
        while True:
            try:
                await self._stamp()
            except DirectoryDown:
                if self._listening is not None:  # a line that drops its packets tells the listener nothing
                    self._listening.cancel()
            await asyncio.sleep(HEARTBEAT_SECONDS)

    async def run(self) -> None:
        """Share this group's challenges and list the others' until cancelled."""
        tasks = [
            asyncio.create_task(work()) for work in (self._listen_forever, self._write_forever, self._stamp_forever)
        ]
        try:
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self) -> None:
        """This group's challenges leave the other lobbies (it stops; they end with its games)."""
        self._own.clear()
        self._reload = True
        with contextlib.suppress(DirectoryDown):
            if not self._away.down:
                await self._write()
        await self.writer.close()
