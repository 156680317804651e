"""When a game ends though no player ends it: the server's limits, as of the times the store keeps.

- A game waiting for its second player expires ``wait_seconds`` after its creation (``Room.expire``).
- A game whose clock loses (``lose_on_time`` with a per-move time) is lost on time at its deadline
  (``Room.check_time``): the players chose that limit, at most a day.
- Every other game being played ends once the player to move has not moved for
  ``abandon_seconds`` (3 days) since their turn began, or ``abandon_one_network_seconds`` (6 h)
  when its two seats came from one network or the other seat is the solver's: nobody else waits
  for such a game, and it holds one of its network's few seats (``seat_networks``). It ends
  aborted before move 2 and abandoned after (``Room.abandon``). The solver's own turn has the
  same limit, and the game is its player's to abandon: the solver moves only while a connection
  holds its player's seat (``solving.games``), so a turn of the solver's that lasts 6 h is one its
  player left (its longest wait for the pool is minutes: a move past its budget waits for it).

Each deadline is a stored time plus a limit (``created_at``, ``turn_started``), never a timer of
its own: a restart finds every deadline where it was, and a game past its limit when the server
starts ends at once, as of the moment its limit ran out.

Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping

from battle.online.server.limits.server import ServerLimits
from battle.online.server.rooms.room import Room, Status

SOLVER_NETWORK = "solver"
"""What ``seat_networks`` records for the seat the solver holds (no network's hash looks like it)."""


def abandon_limit(networks: Mapping[int, str], limits: ServerLimits) -> float:
    """Seconds the player to move may take in a game whose seats came from ``networks`` (by seat;
    a game stored without them gets the longer limit)."""
    one_network = SOLVER_NETWORK in networks.values() or (
        len(networks) == 2 and networks.get(1) is not None and networks.get(1) == networks.get(2)
    )
    return limits.abandon_one_network_seconds if one_network else limits.abandon_seconds


def abandon_deadline(room: Room, networks: Mapping[int, str], limits: ServerLimits) -> float | None:
    """When ``room``'s game ends for its player's absence, or None: a game not being played, or one
    the clock decides (a per-move time that loses)."""
    if room.status != Status.PLAYING or room.turn_started is None:
        return None
    if room.options.lose_on_time and room.options.move_seconds is not None:
        return None
    return room.turn_started + abandon_limit(networks, limits)


def abandoning_seat(room: Room, networks: Mapping[int, str]) -> int | None:
    """The seat that abandons ``room``'s game at its deadline: the player to move, or on the solver's
    turn the solver's player (who left: the solver moves for a player who is there)."""
    to_move = room.to_move
    if to_move is not None and networks.get(to_move) == SOLVER_NETWORK:
        return 3 - to_move
    return to_move
