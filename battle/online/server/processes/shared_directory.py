"""The directory the server groups share, in PostgreSQL (``serve --shared postgresql://...``).

It holds what one group must know of the others (``group_routes``), and nothing per move:

- ``battle_codes``: each invite and watch code, the game it names and the group that holds it; the
  code is the primary key, so a code drawn twice (on two groups at once, or as the invite of one
  game and the watch of another) is refused by PostgreSQL and drawn again;
- ``battle_seats``: each seat token's SHA-256 and its group, for a ``resume`` without ``?at=``;
- ``battle_challenges`` and ``battle_lobby_groups``: each group's open challenges and when it was last
  alive (``lobby.shared``: one lobby for every group);
- ``battle_day_results``: each group's results on the deal of the day (``days.shared``: one day's table);
- ``battle_held``: each unfinished game's networks (a keyed hash under ``battle_keys``' key, the same
  on every group), so a network's caps count its games on every group. A group deletes the rows of
  its games that ended (``sweep``, every ``SWEEP_SECONDS``), so a count errs only towards refusing,
  for at most that long after a game ends.

The codes and tokens of the games a group no longer keeps (``--keep-days`` deleted them, or a create
failed after its codes were drawn) are deleted by that group too, ``SWEEP_BATCH`` rows a sweep in
the order of their keys (``forget_gone``), once they are ``SETTLE_SECONDS`` old: a game's codes are
entered before the game is stored, and a sweep must never take them in between. So the directory
holds about what the groups' databases hold.

One connection per game process, a query at a time (an ``asyncio.Lock``): a create is two inserts
and a join one, 0.2 ms each on loopback. A query that fails (PostgreSQL down, a statement past
``STATEMENT_MS``) closes the connection and raises ``DirectoryDown``; the next ``RETRY_SECONDS`` refuse
at once, then a new connection is tried. psycopg is imported only here, only with ``--shared``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal

from battle.online.server.processes.group_routes import RETRY_SECONDS, DirectoryDown, KeyKind

if TYPE_CHECKING:
    import psycopg

CONNECT_SECONDS = 3
"""Seconds a connection to PostgreSQL may take before the directory counts as down."""
STATEMENT_MS = 3000
"""Milliseconds one statement may run (PostgreSQL's ``statement_timeout``)."""
ANSWER_SECONDS = CONNECT_SECONDS + STATEMENT_MS / 1000 + 1
"""Seconds one request (a connection's making included) may take before the directory counts as down."""
SWEEP_SECONDS = 5.0
"""How often a group deletes the ``battle_held`` rows of its games that ended."""
SWEEP_BATCH = 500
"""Codes or tokens one sweep checks against the group's own database: 500 look-ups of an index, a
millisecond or two, every ``SWEEP_SECONDS``."""
SETTLE_SECONDS = 3600
"""Age of a code or token row before a sweep may delete it for want of its game: far more than a
create takes from its draw to its commit."""
SCHEMA_LOCK = 61_061
"""The advisory lock two groups starting at once take to make the tables one after the other."""

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS battle_codes (code text PRIMARY KEY, purpose text NOT NULL, "
    "game text NOT NULL, grp text NOT NULL, made timestamptz NOT NULL DEFAULT now())",
    "CREATE INDEX IF NOT EXISTS battle_codes_game ON battle_codes (game)",
    "CREATE TABLE IF NOT EXISTS battle_seats (token_hash text PRIMARY KEY, game text NOT NULL, grp text NOT NULL, "
    "made timestamptz NOT NULL DEFAULT now())",
    "CREATE TABLE IF NOT EXISTS battle_held (game text NOT NULL, network text NOT NULL, solver boolean NOT NULL, "
    "grp text NOT NULL, PRIMARY KEY (game, network))",
    "CREATE INDEX IF NOT EXISTS battle_held_network ON battle_held (network)",
    "CREATE TABLE IF NOT EXISTS battle_keys (name text PRIMARY KEY, key bytea NOT NULL)",
    "CREATE TABLE IF NOT EXISTS battle_challenges (code text PRIMARY KEY, grp text NOT NULL, entry text NOT NULL, "
    "opened double precision NOT NULL)",
    "CREATE TABLE IF NOT EXISTS battle_lobby_groups (grp text PRIMARY KEY, alive timestamptz NOT NULL)",
    "CREATE TABLE IF NOT EXISTS battle_day_results (grp text NOT NULL, game text NOT NULL, seat integer NOT NULL, "
    "day date NOT NULL, deal integer NOT NULL, finished_at double precision NOT NULL, result text NOT NULL, "
    "PRIMARY KEY (grp, game, seat))",
    "CREATE INDEX IF NOT EXISTS battle_day_results_day ON battle_day_results (day, deal)",
    "CREATE TABLE IF NOT EXISTS battle_pars (start text PRIMARY KEY, par text NOT NULL)",
)


class SharedDirectory:
    """The shared directory as the group ``group`` sees it, at the PostgreSQL ``url``."""

    def __init__(self, url: str, group: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.url = url
        self.group = group
        self.clock = clock
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._lock = asyncio.Lock()
        self._down_until = 0.0
        self._network_key: bytes | None = None

    # -- the rules ---------------------------------------------------------------------------

    async def claim(self, game: str, invite: str, watch: str) -> bool:
        """Enter a fresh game's two codes as this group's; False (nothing entered) when either names
        a game already, so the caller draws again."""
        import psycopg.errors

        async def claim(connection: psycopg.AsyncConnection[Any]) -> bool:
            try:
                async with connection.transaction():
                    await connection.execute(
                        "INSERT INTO battle_codes (code, purpose, game, grp) VALUES (%s, 'join', %s, %s), "
                        "(%s, 'watch', %s, %s)",
                        (invite, game, self.group, watch, game, self.group),
                    )
            except psycopg.errors.UniqueViolation:
                return False
            return True

        return bool(await self._run(claim))

    async def add_seat(self, token_hash: str, game: str) -> None:
        """Enter a seat token's hash as this group's."""

        async def add(connection: psycopg.AsyncConnection[Any]) -> None:
            await connection.execute(
                "INSERT INTO battle_seats (token_hash, game, grp) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                (token_hash, game, self.group),
            )

        await self._run(add)

    async def holder(self, kind: KeyKind, key: str) -> str | None:
        """The group that holds the game of an invite code (``join``), a watch code (``watch``) or a
        token's hash (``token``); None when no group does."""

        async def find(connection: psycopg.AsyncConnection[Any]) -> str | None:
            if kind == "token":
                cursor = await connection.execute("SELECT grp FROM battle_seats WHERE token_hash = %s", (key,))
            else:
                cursor = await connection.execute(
                    "SELECT grp FROM battle_codes WHERE code = %s AND purpose = %s", (key, kind)
                )
            row = await cursor.fetchone()
            return None if row is None else str(row[0])

        found = await self._run(find)
        return None if found is None else str(found)

    async def hold(self, game: str, networks: Iterable[str], *, solver: bool) -> None:
        """``game`` of this group holds a seat of each of ``networks`` (``network_tag``'s hashes)."""
        rows = [(game, network, solver, self.group) for network in set(networks)]

        async def add(connection: psycopg.AsyncConnection[Any]) -> None:
            async with connection.cursor() as cursor:
                await cursor.executemany(
                    "INSERT INTO battle_held (game, network, solver, grp) VALUES (%s, %s, %s, %s) "
                    "ON CONFLICT DO NOTHING",
                    rows,
                )

        if rows:
            await self._run(add)

    async def carry(self, old: str, new: str) -> None:
        """The rematch ``new`` holds the networks the game ``old`` held."""

        async def carry(connection: psycopg.AsyncConnection[Any]) -> None:
            await connection.execute(
                "INSERT INTO battle_held (game, network, solver, grp) SELECT %s, network, solver, grp "
                "FROM battle_held WHERE game = %s ON CONFLICT DO NOTHING",
                (new, old),
            )

        await self._run(carry)

    async def held_elsewhere(self, network: str, *, solver: bool) -> int:
        """The unfinished games the network ``network`` holds a seat in on the other groups."""

        async def count(connection: psycopg.AsyncConnection[Any]) -> int:
            cursor = await connection.execute(
                "SELECT count(DISTINCT game) FROM battle_held WHERE network = %s AND solver = %s AND grp <> %s",
                (network, solver, self.group),
            )
            row = await cursor.fetchone()
            return 0 if row is None else int(row[0])

        return int(await self._run(count))

    async def sweep(self, unfinished: Callable[[str], bool]) -> int:
        """Delete the ``battle_held`` rows of this group's games that ``unfinished`` says ended; how many games."""

        async def sweep(connection: psycopg.AsyncConnection[Any]) -> int:
            cursor = await connection.execute("SELECT DISTINCT game FROM battle_held WHERE grp = %s", (self.group,))
            ended = [str(row[0]) for row in await cursor.fetchall() if not unfinished(str(row[0]))]
            if ended:
                await connection.execute(
                    "DELETE FROM battle_held WHERE grp = %s AND game = ANY(%s)", (self.group, ended)
                )
            return len(ended)

        return int(await self._run(sweep))

    async def forget_gone(
        self, kind: Literal["games", "tokens"], after: str, kept: Callable[[list[str]], set[str]]
    ) -> str:
        """Check the next ``SWEEP_BATCH`` settled game ids (``games``) or token hashes (``tokens``) of this
        group after ``after`` against ``kept`` (which of them the group's database holds), and delete the
        rows of the others; the key to start the next batch after ("" once the last one was checked)."""
        if kind == "games":
            select = (
                "SELECT DISTINCT game FROM battle_codes WHERE grp = %s AND game > %s "
                "AND made < now() - make_interval(secs => %s) ORDER BY game LIMIT %s"
            )
            delete = "DELETE FROM battle_codes WHERE grp = %s AND game = ANY(%s)"
        else:
            select = (
                "SELECT token_hash FROM battle_seats WHERE grp = %s AND token_hash > %s "
                "AND made < now() - make_interval(secs => %s) ORDER BY token_hash LIMIT %s"
            )
            delete = "DELETE FROM battle_seats WHERE grp = %s AND token_hash = ANY(%s)"

        async def forget(connection: psycopg.AsyncConnection[Any]) -> str:
            cursor = await connection.execute(select, (self.group, after, SETTLE_SECONDS, SWEEP_BATCH))
            keys = [str(row[0]) for row in await cursor.fetchall()]
            still = kept(keys)
            gone = [key for key in keys if key not in still]
            if gone:
                await connection.execute(delete, (self.group, gone))
            return keys[-1] if len(keys) == SWEEP_BATCH else ""

        return str(await self._run(forget))

    async def network_tag(self, network: str) -> str:
        """The hash a client network (``address_guard.network_of``) is counted under on every group:
        64 bits of HMAC-SHA256 under the directory's key, never the address."""
        if self._network_key is None:
            self._network_key = await self._run(self._read_key)
        digest = hmac.new(self._network_key, f"network:{network}".encode("utf-8", "replace"), hashlib.sha256)
        return digest.hexdigest()[:16]

    async def sweep_forever(
        self,
        unfinished: Callable[[str], bool],
        kept: tuple[Callable[[list[str]], set[str]], Callable[[list[str]], set[str]]] | None = None,
    ) -> None:
        """Every ``SWEEP_SECONDS`` while the server runs: ``sweep`` the counts of ended games and, with
        ``kept`` (which games, which tokens the group's database holds), ``forget_gone`` the next batch
        of codes and of tokens; a directory that is down is tried later."""
        after = {"games": "", "tokens": ""}
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            with contextlib.suppress(DirectoryDown):
                await self.sweep(unfinished)
                if kept is not None:
                    after["games"] = await self.forget_gone("games", after["games"], kept[0])
                    after["tokens"] = await self.forget_gone("tokens", after["tokens"], kept[1])

    async def close(self) -> None:
        async with self._lock:
            if self._connection is not None:
                await self._connection.close()
                self._connection = None

    async def run(self, work: Callable[[psycopg.AsyncConnection[Any]], Any]) -> Any:
        """``work`` on this directory's connection, one request at a time; ``DirectoryDown`` when
        PostgreSQL does not answer (the shared lobby's and the day table's queries)."""
        return await self._run(work)

    # -- the connection ----------------------------------------------------------------------

    async def _read_key(self, connection: psycopg.AsyncConnection[Any]) -> bytes:
        await connection.execute(
            "INSERT INTO battle_keys (name, key) VALUES ('network', %s) ON CONFLICT DO NOTHING",
            (secrets.token_bytes(32),),
        )
        cursor = await connection.execute("SELECT key FROM battle_keys WHERE name = 'network'")
        row = await cursor.fetchone()
        assert row is not None  # inserted just now, or by another group before
        return bytes(row[0])

    async def _run(self, work: Callable[[psycopg.AsyncConnection[Any]], Any]) -> Any:
        """``work`` on the connection (made, with the tables, when there is none); ``DirectoryDown``
        when PostgreSQL does not answer, or not within ``ANSWER_SECONDS`` (a network that drops its
        packets answers nothing, and ``statement_timeout`` is PostgreSQL's own)."""
        import psycopg

        self._refuse_while_down()
        async with self._lock:
            self._refuse_while_down()  # it went down while this request waited for the connection
            try:
                async with asyncio.timeout(ANSWER_SECONDS):
                    if self._connection is None:
                        self._connection = await self._connect()
                    return await work(self._connection)
            except (psycopg.Error, TimeoutError) as error:
                connection, self._connection = self._connection, None
                if connection is not None and not connection.closed:
                    with contextlib.suppress(psycopg.Error, TimeoutError):
                        async with asyncio.timeout(1):
                            await connection.close()
                self._down_until = self.clock() + RETRY_SECONDS
                reason = str(error) or f"no answer in {ANSWER_SECONDS:g} s"
                raise DirectoryDown(RETRY_SECONDS, f"the game directory did not answer: {reason}") from None

    def _refuse_while_down(self) -> None:
        now = self.clock()
        if now < self._down_until:
            raise DirectoryDown(self._down_until - now)

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        import psycopg

        connection = await psycopg.AsyncConnection.connect(
            self.url,
            autocommit=True,
            connect_timeout=CONNECT_SECONDS,
            options=f"-c statement_timeout={STATEMENT_MS}",
            application_name=f"mahjong-battle {self.group}",
        )
        try:
            async with connection.transaction():
                await connection.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                for statement in SCHEMA:
                    await connection.execute(statement)
        except BaseException:
            await connection.close()
            raise
        return connection
