"""The client network each seat of an unfinished game came from: how many games a network holds, and
whether a game's two seats came from one.

A network holds a game while one of the game's seats came from it (an IPv4 address, an IPv6
/64: ``network_of``): the seat its creator took, the seat a join took, the seats a rematch swapped.
Two caps read it, friends' games (``ServerLimits.games_per_network``) and games against the solver
(``solver_games_per_network``), and so does the clock (``game_ends``: a game one network plays
against itself, or against the solver, is abandoned after hours, not days).

Each seat's network is a row of ``seat_networks``, written in the same transaction as the seat,
so the counts and the limits outlive a restart. A network is kept as a keyed hash (the first 64
bits of HMAC-SHA256 under the database's own key), never as an address: it can be counted and
compared, not read back. The solver's seat is ``SOLVER_NETWORK``.

Bookkeeping: no sockets, no clock; ``load`` reads the store, ``statements`` are for a ``Write``.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable, Mapping

from battle.online.server.limits.address_guard import network_of
from battle.online.server.rooms.game_ends import SOLVER_NETWORK
from battle.online.server.rooms.store import GameStore, Statement, Write

TAG_BYTES = 8
"""Bytes of the hash kept: 64 bits, so two networks of one server never share a tag in practice
(with 10**6 networks the odds are 1 in 3.7 * 10**7)."""


class SeatNetworks:
    """The networks of the seats of the games the server holds, by game and by network."""

    def __init__(self, key: bytes, ipv6_prefix: int) -> None:
        self._key = key
        self.ipv6_prefix = ipv6_prefix
        self._by_game: dict[str, dict[int, str]] = {}
        self._by_network: dict[str, set[str]] = {}

    def tag(self, address: str) -> str:
        """The hash ``address``'s network is kept as."""
        network = network_of(address, self.ipv6_prefix)
        digest = hmac.new(self._key, f"network:{network}".encode("utf-8", "replace"), hashlib.sha256)
        return digest.hexdigest()[: 2 * TAG_BYTES]

    # -- what is known -----------------------------------------------------------------------------

    def of(self, game: str) -> Mapping[int, str]:
        """The networks of ``game``'s seats, by seat (empty for a game stored without them)."""
        return self._by_game.get(game, {})

    def games(self, tag: str, *, solver: bool, unfinished: Callable[[str], bool]) -> set[str]:
        """The unfinished games the network ``tag`` holds a seat in: games against the solver
        (``solver``) or games between people. Games ``unfinished`` says are over are forgotten here."""
        games = self._by_network.get(tag)
        if not games:
            return set()
        for game in [game for game in games if not unfinished(game)]:
            self.forget(game)
        return {game for game in games if (SOLVER_NETWORK in self._by_game[game].values()) == solver}

    # -- changes -----------------------------------------------------------------------------------

    def add(self, game: str, seats: Mapping[int, str]) -> None:
        """``game``'s ``seats`` came from these networks (each seat is taken once: by its creator, a
        join, a rematch's swap)."""
        self._by_game.setdefault(game, {}).update(seats)
        for tag in seats.values():
            self._by_network.setdefault(tag, set()).add(game)

    def forget(self, game: str) -> None:
        """``game`` is over, or was never stored: it holds nobody's seat any more."""
        for tag in self._by_game.pop(game, {}).values():
            self._drop(tag, game)

    def _drop(self, tag: str, game: str) -> None:
        games = self._by_network.get(tag)
        if games is not None:
            games.discard(game)
            if not games:
                del self._by_network[tag]

    # -- on disk -----------------------------------------------------------------------------------

    def load(self, store: GameStore, games: Iterable[str]) -> None:
        """The networks of ``games``' seats as the store has them (a row that does not read is left out)."""
        wanted = set(games)
        rows = store.read_rows(
            "SELECT n.game, n.seat, n.network FROM seat_networks n JOIN games g ON g.id = n.game "
            "WHERE g.status != 'finished'",
            (),
        )
        for game, seat, tag in rows:
            if game in wanted and seat in (1, 2) and isinstance(tag, str):
                self.add(game, {seat: tag})


def statements(game: str, seats: Mapping[int, str]) -> tuple[Statement, ...]:
    """The rows that store ``seats``' networks (a seat's earlier row replaced)."""
    return tuple(
        Statement(
            "INSERT INTO seat_networks (game, seat, network) VALUES (?, ?, ?) "
            "ON CONFLICT (game, seat) DO UPDATE SET network = excluded.network",
            (game, seat, tag),
        )
        for seat, tag in sorted(seats.items())
    )


def with_networks(write: Write, game: str, seats: Mapping[int, str]) -> Write:
    """``write`` with the networks of ``game``'s ``seats`` in the same transaction: a seat is never on
    disk without the network that counts it."""
    return Write(write.game, write.action, (*write.statements, *statements(game, seats)))
