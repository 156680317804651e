"""Every group's pars for every group (``serve --group --shared``): the pars found, in PostgreSQL.

A deal's par takes a whole deal's search (minutes of a worker), so a par one group found is written
to ``battle_pars`` for the others: a game on another group reads it there before it asks its own
pool, and keeps it in its own database (``par_rows``) for its later games and reviews. Only proved
pars are shared; a search that ran out of budget says nothing of what another group's could do.

A row is another group's text and is read as a stranger's message (``read_shared_par``): a value
outside the 270 points in play, a best move that is not a legal move of the start, or anything
else is left out, with one line in the log, and the par is worked out here as if none were there.
The codec (``shared_par_text``, ``read_shared_par``) is pure; ``SharedPars`` is the adapter.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

from battle.online.protocol.messages import ProtocolError
from battle.online.protocol.reader import read_json
from battle.online.server.processes.group_routes import DirectoryDown
from battle.online.server.processes.shared_away import SaidOnce
from battle.online.server.processes.shared_directory import SharedDirectory
from battle.online.server.solving.par_rows import ParRow
from battle.rules.board import Position, move_name, parse_move

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("mahjong-battle.server")

POINTS_IN_PLAY = 270
"""The largest margin a par can be: every point of the deal to one side."""


class BadSharedPar(ValueError):
    """A ``battle_pars`` row no group wrote as this one does; quotes what is wrong."""


def shared_par_text(row: ParRow) -> str:
    """A found par as ``battle_pars.par`` holds it."""
    return json.dumps({"value": row.value, "best": list(row.best), "found_at": row.found_at}, separators=(",", ":"))


def read_shared_par(start: str, position: Position, text: str) -> ParRow:
    """The found par of the deal from ``position`` (``start`` its ``.mbp`` text) in ``text``;
    ``BadSharedPar`` for anything that is not a margin within the points in play and some of the
    start's own legal moves."""
    quoted = f"not a deal's par: {text[:60]!r}"
    try:
        data = read_json(text)
        if not isinstance(data, dict):
            raise TypeError
        best = data["best"]
        if not isinstance(best, list) or not all(isinstance(move, str) for move in best):
            raise TypeError
        value, found_at = data["value"], float(data["found_at"])
        moves = tuple(move_name(parse_move(move)) for move in best)
    except (ProtocolError, ValueError, TypeError, KeyError, OverflowError):
        raise BadSharedPar(quoted) from None
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > POINTS_IN_PLAY:
        raise BadSharedPar(quoted)
    legal = {move_name(move) for move in position.legal_moves()}
    if not moves or len(set(moves)) != len(moves) or not set(moves) <= legal:
        raise BadSharedPar(f"best moves that are not the start's legal moves: {text[:60]!r}")
    return ParRow(start, "found", value, moves, found_at)


class SharedPars:
    """The pars every group found, through ``directory``; a PostgreSQL away is as no row (said once)."""

    def __init__(self, directory: SharedDirectory) -> None:
        self.directory = directory
        self._away = SaidOnce("the shared pars are unavailable; this group works out and keeps its own")

    async def find(self, start: str, position: Position) -> ParRow | None:
        """The par another group (or this one) found of the deal from ``position``, or None."""

        async def read(connection: psycopg.AsyncConnection[Any]) -> str | None:
            cursor = await connection.execute("SELECT par FROM battle_pars WHERE start = %s", (start,))
            row = await cursor.fetchone()
            return None if row is None else str(row[0])

        try:
            text = await self.directory.run(read)
        except DirectoryDown:
            self._away.lost()
            return None
        self._away.answered()
        if text is None:
            return None
        try:
            return read_shared_par(start, position, text)
        except BadSharedPar as problem:
            log.warning("left out a shared par: %s", problem)
            return None

    async def keep(self, row: ParRow) -> None:
        """Write a par found here for every group (the first group's row stays: a par is a par)."""

        async def write(connection: psycopg.AsyncConnection[Any]) -> None:
            await connection.execute(
                "INSERT INTO battle_pars (start, par) VALUES (%s, %s) ON CONFLICT (start) DO NOTHING",
                (row.start, shared_par_text(row)),
            )

        try:
            await self.directory.run(write)
            self._away.answered()
        except DirectoryDown:
            self._away.lost()
