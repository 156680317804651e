"""The open challenges as rows of the game database, so that the lobby outlives its process.

The lobby's list lives in the memory of one process (``dispatch.LOBBY_PROCESS``); each challenge it
opens is also a row of ``lobby_challenges`` (its game, its challenger's network as ``seat_networks``
keeps it, and its entry as the lobby's messages carry it), written as it opens and deleted as it
closes (taken, withdrawn, expired, its challenger gone), in the order of its game's own writes. A
process started again (a crash, ``kill -9``, a restart) reads the rows of games still waiting
(``load``) and lists each again once its challenger is connected to it (``LobbyDesk.restore``):
a challenge nobody would answer for is not shown.

Bookkeeping: no sockets, no clock; ``load`` reads and writes the store at the start, the rest are
statements for a ``Write``. The table is part of the game database's schema (``store``).
"""

from __future__ import annotations

import json
import logging

from battle.online.protocol.lobby_messages import ChallengeEntry, challenge_json, read_challenge
from battle.online.protocol.messages import ProtocolError
from battle.online.protocol.reader import read_json
from battle.online.server.rooms.store import GameStore, Statement, Write

log = logging.getLogger("mahjong-battle.server")


def opened(game: str, network: str, entry: ChallengeEntry) -> Write:
    """The row of a challenge just listed."""
    text = json.dumps(challenge_json(entry), separators=(",", ":"))
    sql = "INSERT OR REPLACE INTO lobby_challenges (game, network, entry) VALUES (?, ?, ?)"
    return Write(game, f"listing the challenge of game {game}", (Statement(sql, (game, network, text)),))


def closed(game: str) -> Write:
    """No row for a challenge that left the list."""
    sql = "DELETE FROM lobby_challenges WHERE game = ?"
    return Write(game, f"taking the challenge of game {game} off the list", (Statement(sql, (game,)),))


def load(store: GameStore) -> list[tuple[str, str, ChallengeEntry]]:
    """The challenges whose games still wait for an opponent: (game, network, entry), oldest first. The
    rows of games that no longer wait are deleted; a row that does not read is left out in one line."""
    store.commit(
        Write(
            "",
            "forgetting the challenges of games that no longer wait",
            (
                Statement(
                    "DELETE FROM lobby_challenges WHERE game NOT IN (SELECT id FROM games WHERE status = 'waiting')",
                    (),
                ),
            ),
        )
    )
    found = []
    for game, network, text in store.read_rows("SELECT game, network, entry FROM lobby_challenges", ()):
        try:
            entry = read_challenge(read_json(str(text)))
        except ProtocolError as problem:
            log.warning("left out a stored challenge of game %s: %s", game, str(problem)[:120])
            continue
        found.append((str(game), str(network), entry))
    return sorted(found, key=lambda row: row[2].opened)
