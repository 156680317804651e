"""What one client network may start: a game between people, a game against the solver, a rematch.

Two caps, each refused ``busy`` with a ``why`` and a figure the clients word:

- **Games held** (``network_games``, ``solver_games`` with ``count``): a network that holds a seat
  in ``games_per_network`` unfinished games between people (5), or in ``solver_games_per_network``
  games against the solver (3), starts no other until one ends; the clock ends those whose player
  is gone (``game_ends``), so a network that leaves its games behind gets its slots back within
  the abandon limit. A join is never refused for it: a friend's invitation always works.
- **Starts** (``starts`` with ``seconds``): ``creates_per_hour`` (60, bursts of 20) for all three
  kinds together: what bounds the finished games, and so the bytes, one network leaves in the
  database a day (docs/online.md).
"""

from __future__ import annotations

import math
import time

from battle.online.protocol.messages import ErrorCode, ProtocolError
from battle.online.server.limits.address_guard import AddressGuard, making_kind
from battle.online.server.limits.guard_counts import CountsNow
from battle.online.server.rooms.live_games import LiveGames


def refuse_start(
    live: LiveGames,
    guard: AddressGuard,
    address: str,
    *,
    solver: bool,
    elsewhere: int = 0,
    take: bool = True,
    game: str | None = None,
) -> str:
    """Refuse a new game (against the solver: ``solver``) that ``address``'s network may not start now,
    counting ``elsewhere`` games it holds on the other server groups (``group_desk``); else its
    network's tag, for the seat's row. ``take``: the start is counted against the network's
    ``creates_per_hour`` (the last look before the game is made); False only looks.

    The network's games are those of this process, those the store has of the other processes and
    those any process is making (``guard.counts``' marks of ``making_kind``), each once; ``game``, the one about to
    be made, joins the last until ``guard.made`` says it was stored or failed. The count, the start
    and that mark are one block of the counts the processes share, so two processes' creates at the
    same moment cannot both take the network's last game or its last start."""
    limits = guard.limits
    network = live.networks.tag(address)
    now = time.monotonic()
    with guard.counts.held(now) as counts:
        games = live.networks.games(network, solver=solver, unfinished=live.is_unfinished)
        games |= live.games_elsewhere(network, solver=solver) | counts.marked(making_kind(solver), network, now)
        held = len(games) + elsewhere
        if solver and held >= limits.solver_games_per_network:
            raise ProtocolError(
                ErrorCode.BUSY,
                f"your address has {held} unfinished games against the solver already; finish one first",
                params={"why": "solver_games", "count": held},
            )
        if not solver and held >= limits.games_per_network:
            raise ProtocolError(
                ErrorCode.BUSY,
                f"your address has a seat in {held} unfinished games already; finish one first",
                params={"why": "network_games", "count": held},
            )
        refuse_fast_start(guard, address, take=take, within=counts)
        if game is not None:
            counts.put_mark(making_kind(solver), network, game, now + MAKING_SECONDS)
    return network


MAKING_SECONDS = 60.0
"""How long a game being made counts for its network without ``guard.made``: the process that made
it died meanwhile (a create is stored in milliseconds)."""


def refuse_fast_start(guard: AddressGuard, address: str, *, take: bool = True, within: CountsNow | None = None) -> None:
    """Refuse ``busy``, with the seconds to wait, a game ``address``'s network would start beyond its
    ``creates_per_hour``; else count it (``take``). ``within``: in a block of the counts the caller
    holds."""
    now = time.monotonic()
    start = guard.take_start if take else guard.start_wait
    wait = start(address, now, within=within)
    if wait is not None:
        seconds = max(1, math.ceil(wait))
        raise ProtocolError(
            ErrorCode.BUSY,
            f"your address starts games faster than this server allows; try again in {seconds} s",
            params={"why": "starts", "seconds": seconds},
        )
