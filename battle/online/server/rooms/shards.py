"""Which of the server's processes holds a game, and which one a client's connections reach first.

``serve --processes N`` runs N game processes over one database. A game lives in exactly one of
them: the process its id names (``shard_of``: a hash of the id, modulo N). Every process finds
a game's process from its id alone, with no table to keep in step (across machines, the server
groups' shared directory says which machine: ``group_routes``); a process starts with the
unfinished games of its shard, so a process started again after a crash holds what the crashed
one held. A process that makes a game (a create, a rematch, a game against the solver) draws ids
until one falls in its own shard: N draws on average, each 8 random bytes.

A fresh connection goes to the process its ``?at=`` names (one a client was sent ``elsewhere`` to),
else to its client network's home process (``home_of``), which spreads the networks over the
processes; what a network is held to is counted once for all of them (``guard_counts``).

Pure: no sockets, no processes.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from battle.online.protocol.codes import new_game_id


@dataclass(frozen=True)
class Shard:
    """One process's place among ``count``: its ``index`` (0 to count - 1)."""

    index: int = 0
    count: int = 1

    def __post_init__(self) -> None:
        if not 0 <= self.index < self.count:
            raise ValueError(f"process {self.index} is not one of {self.count}")

    @property
    def alone(self) -> bool:
        """One process serves every game (``--processes 1``): nothing is ever answered ``elsewhere``."""
        return self.count == 1

    def holds(self, game_id: str) -> bool:
        """Whether ``game_id``'s game lives in this process."""
        return self.alone or shard_of(game_id, self.count) == self.index

    def new_game_id(self) -> str:
        """A fresh game id of this process's shard."""
        while True:
            game_id = new_game_id()
            if self.holds(game_id):
                return game_id


ONE_PROCESS = Shard()
"""``--processes 1``: every game in the one process."""

POOL_PROCESS = 0
"""The process of several that opens the solver pool and serves it to the others (which wait for it
as they start), so a stop ends it last."""


def parse_shard(text: str) -> Shard:
    """``"2/4"`` as the third process of four; ``ValueError`` quoting ``text`` otherwise."""
    index, slash, count = text.partition("/")
    try:
        if slash and index.isdigit() and count.isdigit():
            return Shard(int(index), int(count))
    except ValueError:
        pass
    raise ValueError(f"expected a process as INDEX/COUNT like 0/4: {text!r}")


def shard_of(game_id: str, count: int) -> int:
    """The process (0 to ``count`` - 1) that holds the game ``game_id``."""
    digest = hashlib.blake2b(game_id.encode("utf-8", "replace"), digest_size=4).digest()
    return int.from_bytes(digest, "big") % count


def home_of(network: str, count: int) -> int:
    """The process whose counts hold the client network ``network`` (``AddressGuard.network``)."""
    digest = hashlib.blake2b(network.encode("utf-8", "replace"), digest_size=4, person=b"network").digest()
    return int.from_bytes(digest, "big") % count
