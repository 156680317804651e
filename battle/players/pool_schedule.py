"""Which piece of solver work runs next: the solver pool's pure core.

The server's solver work comes as units: a waiting player's move, a hint or an analysis, a
finished game's review. This module decides their order, who may have one and when, and
what each address has spent; it runs nothing and reads no clock (every method that depends
on time takes ``now``, in monotonic seconds), so the tests drive it exactly and the pools
(``battle.players.local_pool``, ``battle.players.dask_pool``) stay thin shells over it.

The rules, in the order ``take`` applies them:

* **Priority by kind**: every waiting move before every hint or analysis, and those before
  every review (fishnet's order: a player who waits comes before background work).
* **Fair within a kind**: addresses take turns (start-time fair queuing: each unit gets a turn
  number, one past its address's previous unit of that kind or past the turn being served now,
  whichever is later), then first come, first served. One address with twenty analyses queued
  delays another's analysis by about one unit, not twenty.
* **One search per seat at a time**: a unit submitted for a seat replaces the seat's unit
  that waits (which then never runs) and stops the seat's unit that runs; the new one starts
  once the stopped one has ended. A player who moves on, or asks again, wants the answer to
  the newest question only.
* **Workers kept for moves**: a unit of a lower kind starts only while ``move_reserve``
  workers stay free after it (default: one when there are two or more), so a move never waits
  behind a long analysis it cannot interrupt.
* **Budgets per address**: each address (an IPv6 /64 counted as one, ``address_key``) has a
  token bucket of solver CPU seconds, ``Budget.rate`` a second, at most ``Budget.burst`` saved.
  A unit reserves its most (its time limit) when it is submitted and gives back what it did
  not use when it ends, so an address can never have more work queued than its budget pays
  for; a unit its bucket cannot pay for is refused with the seconds until it can.

Invariants: a unit is waiting, running or stopping (running, its worker told to stop it); a
seat has at most one waiting unit and at most one running or stopping one; an address's
reservations are in its bucket's level (the level is what is left after them).
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from typing import Literal

IPV6_PREFIX = 64
"""Bits of an IPv6 address that name one client: a /64 is what one home router hands out, and
a client holding one can use any of its 2**64 addresses."""


def address_key(address: str, ipv6_prefix: int = IPV6_PREFIX) -> str:
    """The key an address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 address
    as the IPv4 one), an IPv6 address as its ``/ipv6_prefix`` network (``2001:db8::/64``); a key
    given again stays the same, and anything that is no address (``"unknown"``) is its own key."""
    text = address.strip().strip("[]").split("%")[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        try:
            network = ipaddress.ip_network(text, strict=False)
        except ValueError:
            return address
        if network.version == 6 and network.prefixlen > ipv6_prefix:
            network = network.supernet(new_prefix=ipv6_prefix)
        return str(network)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))
    return str(ip)


class Kind(IntEnum):
    """What a unit is for, in the order of priority (the lowest value first)."""

    MOVE = 0
    """The solver's move in a game: a player waits for it."""
    ANALYSIS = 1
    """A hint, an evaluation, a best line, a step of an analysis board's deepening."""
    REVIEW = 2
    """A finished game's review, in the background."""


@dataclass(frozen=True)
class Budget:
    """Solver CPU seconds per address: ``rate`` regained a second, at most ``burst`` saved up, full at first.

    The defaults let one address keep a sixth of a core busy without end and spend two minutes
    of solver time at once: a whole game against the perfect level costs 17-63 CPU seconds
    on average (four runs of two games, ``benchmarks/solver_pool.py`` and ``web_solver.py``: the
    deal decides how many first moves stop at their 10 s limit) and a hint at most 4, so the burst holds such a game
    and a dozen hints at their most."""

    rate: float = 1 / 6
    burst: float = 120.0

    def __post_init__(self) -> None:
        if not (self.rate > 0 and math.isfinite(self.rate)):
            raise ValueError(f"a budget's rate must be a positive number of seconds a second, not {self.rate!r}")
        if not (self.burst > 0 and math.isfinite(self.burst)):
            raise ValueError(f"a budget's burst must be a positive number of seconds, not {self.burst!r}")


RefusalReason = Literal["budget", "busy", "closed", "unavailable"]


@dataclass(frozen=True)
class Refusal:
    """A unit not taken, and why: the address's budget is spent (``"budget"``), the queue is full
    (``"busy"``), the pool is closing (``"closed"``) or its cluster does not answer (``"unavailable"``,
    refused by the pool, never by the schedule). ``retry_after`` is the seconds until the same unit
    would be taken (for ``"busy"`` an estimate: the work queued ahead over the workers; for
    ``"unavailable"`` the next try of the cluster; 0 for ``"closed"``). The server words it for its
    reader ("try again in 12 s")."""

    reason: RefusalReason
    retry_after: float


@dataclass(frozen=True)
class Change:
    """What a submission or a cancellation did to other units: the waiting ones ``dropped`` (they
    never run) and the running ones now ``stopping`` (the pool tells their workers to stop)."""

    dropped: tuple[int, ...] = ()
    stopping: tuple[int, ...] = ()


@dataclass(frozen=True)
class Admitted:
    """A unit taken: its id, and what it did to the seat's earlier unit (``Change``)."""

    unit: int
    change: Change = Change()


class UnitState(Enum):
    WAITING = "waiting"
    RUNNING = "running"
    STOPPING = "stopping"


@dataclass
class Unit:
    """The schedule's record of one unit of work."""

    id: int
    kind: Kind
    seat: str
    address: str
    """The address's key (``address_key``)."""
    reserved: float
    """CPU seconds held in the address's bucket until the unit ends."""
    plain: bool
    """A worker whose kernels still load can run it (a shallow level's move, from plain Python)."""
    sequence: int
    """Submission order; a retried unit keeps its own."""
    turn: int = 0
    """Its address's turn within its kind (fair queuing); a retried unit keeps its own."""
    state: UnitState = UnitState.WAITING
    tries: int = 0
    """Times a worker died while running it."""
    started: float | None = None


@dataclass
class _Bucket:
    level: float
    stamp: float

    def refill(self, now: float, budget: Budget) -> float:
        self.level = min(budget.burst, self.level + max(0.0, now - self.stamp) * budget.rate)
        self.stamp = now
        return self.level


MAX_WAITING = 500
"""Units that may wait in all: beyond, a submission is refused as ``busy``."""
MAX_TRIES = 3
"""Times a unit may lose its worker (killed, out of memory) before it fails."""
PRUNE_EVERY = 256
"""Submissions between sweeps that forget idle addresses (``Schedule._forget_idle``)."""


@dataclass
class Schedule:
    """The queue, the seats and the budgets of one pool of ``workers`` workers.

    ``budget`` None: no budgets (a pool on one's own machine). ``move_reserve`` None: one
    worker kept for moves when there are two or more, none with one.
    """

    workers: int
    budget: Budget | None = Budget()
    max_waiting: int = MAX_WAITING
    move_reserve: int | None = None
    max_tries: int = MAX_TRIES
    _units: dict[int, Unit] = field(default_factory=dict)
    _seat_waiting: dict[str, int] = field(default_factory=dict)
    _seat_running: dict[str, int] = field(default_factory=dict)
    _buckets: dict[str, _Bucket] = field(default_factory=dict)
    _turn_served: dict[Kind, int] = field(default_factory=dict)
    """The latest turn taken of each kind: the turn being served now."""
    _last_turn: dict[tuple[str, Kind], int] = field(default_factory=dict)
    """Each address's latest turn of each kind (forgotten once the kind's served turn passes it)."""
    _next_id: int = 1
    _submissions: int = 0

    def __post_init__(self) -> None:
        self.set_workers(self.workers)

    def set_workers(self, workers: int) -> None:
        """How many units may run at once (a Dask cluster grows and shrinks)."""
        if workers < 1:
            raise ValueError(f"a pool needs at least one worker, not {workers}")
        self.workers = workers

    @property
    def reserve(self) -> int:
        """Workers kept free for moves."""
        if self.move_reserve is not None:
            return max(0, min(self.move_reserve, self.workers - 1))
        return 1 if self.workers >= 2 else 0

    # -- submitting and cancelling ------------------------------------------------------

    def submit(
        self, kind: Kind, seat: str, address: str, cost: float, now: float, *, plain: bool = False
    ) -> Admitted | Refusal:
        """Queue a unit of ``kind`` for ``seat`` that spends at most ``cost`` CPU seconds, or refuse it
        and change nothing. It replaces the seat's waiting unit and stops its running one (see ``Change``)."""
        if not (cost >= 0 and math.isfinite(cost)):
            raise ValueError(f"a unit's cost must be a finite number of seconds >= 0, not {cost!r}")
        key = address_key(address)
        replaced = self._units.get(self._seat_waiting.get(seat, 0))
        waiting = sum(1 for unit in self._units.values() if unit.state is UnitState.WAITING)
        if replaced is None and waiting >= self.max_waiting:
            return Refusal("busy", self._busy_wait())
        reserved = cost if self.budget is None else min(cost, self.budget.burst)
        if self.budget is not None:
            bucket = self._buckets.get(key)
            level = self.budget.burst if bucket is None else bucket.refill(now, self.budget)
            if replaced is not None and replaced.address == key:
                level += replaced.reserved
            if level < reserved:
                return Refusal("budget", (reserved - level) / self.budget.rate)
        change = self._clear_seat(seat)
        if self.budget is not None:
            self._bucket(key, now).level -= reserved
        turn = max(self._turn_served.get(kind, 0), self._last_turn.get((key, kind), 0)) + 1
        self._last_turn[(key, kind)] = turn
        unit = Unit(self._next_id, kind, seat, key, reserved, plain, self._next_id, turn)
        self._next_id += 1
        self._units[unit.id] = unit
        self._seat_waiting[seat] = unit.id
        self._submissions += 1
        if self._submissions % PRUNE_EVERY == 0:
            self._forget_idle(now)
        return Admitted(unit.id, change)

    def cancel(self, unit_id: int) -> Change:
        """End a unit: a waiting one is dropped, a running one is to be stopped (``finish`` ends it
        once its worker answers); nothing for a unit already stopping or ended."""
        unit = self._units.get(unit_id)
        if unit is None or unit.state is UnitState.STOPPING:
            return Change()
        if unit.state is UnitState.WAITING:
            self._drop(unit)
            return Change(dropped=(unit.id,))
        unit.state = UnitState.STOPPING
        return Change(stopping=(unit.id,))

    def cancel_seat(self, seat: str) -> Change:
        """End the seat's units, waiting and running (its connection closed)."""
        return self._clear_seat(seat)

    def _clear_seat(self, seat: str) -> Change:
        dropped = self.cancel(self._seat_waiting.get(seat, 0))
        stopped = self.cancel(self._seat_running.get(seat, 0))
        return Change(dropped.dropped, stopped.stopping)

    def _drop(self, unit: Unit) -> None:
        del self._units[unit.id]
        if self._seat_waiting.get(unit.seat) == unit.id:
            del self._seat_waiting[unit.seat]
        if self._last_turn.get((unit.address, unit.kind)) == unit.turn:
            self._last_turn[(unit.address, unit.kind)] = unit.turn - 1  # its successor takes the turn it leaves
        if self.budget is not None and unit.address in self._buckets:
            bucket = self._buckets[unit.address]
            bucket.level = min(self.budget.burst, bucket.level + unit.reserved)

    # -- running ------------------------------------------------------------------------

    def take(self, now: float, *, plain_only: bool = False) -> Unit | None:
        """The unit a free worker starts now (marked running), or None: the first in ``order`` whose
        seat runs nothing, that the kept workers allow, and with ``plain_only`` (a worker whose
        kernels still load) one that plain Python can answer."""
        busy = sum(1 for unit in self._units.values() if unit.state is not UnitState.WAITING)
        if busy >= self.workers:
            return None
        lower_allowed = self.workers - busy - 1 >= self.reserve
        for unit in self.order():
            if unit.seat in self._seat_running:
                continue
            if plain_only and not unit.plain:
                continue
            if unit.kind is not Kind.MOVE and not lower_allowed:
                continue
            unit.state = UnitState.RUNNING
            unit.started = now
            self._turn_served[unit.kind] = max(self._turn_served.get(unit.kind, 0), unit.turn)
            del self._seat_waiting[unit.seat]
            self._seat_running[unit.seat] = unit.id
            return unit
        return None

    def finish(self, unit_id: int, cpu_seconds: float, now: float) -> Unit | None:
        """A running or stopping unit ended after ``cpu_seconds`` of solver time, which its address
        pays instead of the reservation (the difference comes back, or more is taken when the unit
        overran). Returns the unit, or None when it was not running."""
        unit = self._units.get(unit_id)
        if unit is None or unit.state is UnitState.WAITING:
            return None
        del self._units[unit_id]
        if self._seat_running.get(unit.seat) == unit_id:
            del self._seat_running[unit.seat]
        if self.budget is not None:
            bucket = self._bucket(unit.address, now)
            bucket.level = min(self.budget.burst, bucket.level + unit.reserved - max(0.0, cpu_seconds))
        return unit

    def retry(self, unit_id: int, now: float, *, counted: bool = True) -> bool:
        """The worker running ``unit_id`` died: True when the unit waits again (ahead of later units, as
        it came first), False when it ended instead (it was being stopped, or it lost ``max_tries``
        workers), its whole reservation spent. ``counted`` False: the whole cluster went away, no
        fault of the unit's, which keeps its tries."""
        unit = self._units.get(unit_id)
        if unit is None or unit.state is UnitState.WAITING:
            return False
        if counted:
            unit.tries += 1
        if unit.state is UnitState.STOPPING or unit.tries >= self.max_tries:
            self.finish(unit_id, unit.reserved, now)
            return False
        del self._seat_running[unit.seat]
        self._seat_waiting[unit.seat] = unit.id
        unit.state = UnitState.WAITING
        unit.started = None
        return True

    # -- looking ------------------------------------------------------------------------

    def order(self) -> list[Unit]:
        """The waiting units in the order they are served: by kind, then by turn (addresses take
        turns), then by submission."""
        return sorted(
            (unit for unit in self._units.values() if unit.state is UnitState.WAITING),
            key=lambda unit: (unit.kind, unit.turn, unit.sequence),
        )

    def places(self) -> dict[int, int]:
        """Every unit's place: 0 running (or stopping), 1 the next to start, 2 the one after..."""
        found = {unit.id: 0 for unit in self._units.values() if unit.state is not UnitState.WAITING}
        found.update((unit.id, place) for place, unit in enumerate(self.order(), start=1))
        return found

    def place(self, unit_id: int) -> int | None:
        """The unit's place (see ``places``), None once it has ended. A later unit of a higher kind,
        or of an address with fewer queued, can move ahead of it."""
        unit = self._units.get(unit_id)
        if unit is None:
            return None
        if unit.state is not UnitState.WAITING:
            return 0
        return next(place for place, other in enumerate(self.order(), start=1) if other is unit)

    def unit(self, unit_id: int) -> Unit | None:
        return self._units.get(unit_id)

    def counts(self) -> dict[str, int]:
        """Units waiting of each kind, and running, for a server's ``/stats``."""
        found = {f"waiting_{kind.name.lower()}": 0 for kind in Kind}
        found["running"] = 0
        for unit in self._units.values():
            if unit.state is UnitState.WAITING:
                found[f"waiting_{unit.kind.name.lower()}"] += 1
            else:
                found["running"] += 1
        return found

    def level(self, address: str, now: float) -> float | None:
        """CPU seconds ``address`` may still reserve (None without budgets)."""
        if self.budget is None:
            return None
        bucket = self._buckets.get(address_key(address))
        return self.budget.burst if bucket is None else bucket.refill(now, self.budget)

    # -- budgets ------------------------------------------------------------------------

    def _bucket(self, key: str, now: float) -> _Bucket:
        assert self.budget is not None
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(self.budget.burst, now)
        else:
            bucket.refill(now, self.budget)
        return bucket

    def _forget_idle(self, now: float) -> None:
        """Forget what a new address would start with anyway: a turn already served, a full bucket
        with no unit of its address."""
        for address_kind, turn in list(self._last_turn.items()):
            if turn <= self._turn_served.get(address_kind[1], 0):
                del self._last_turn[address_kind]
        if self.budget is None:
            return
        active = {unit.address for unit in self._units.values()}
        for key in [key for key, bucket in self._buckets.items() if key not in active]:
            if self._buckets[key].refill(now, self.budget) >= self.budget.burst:
                del self._buckets[key]

    def _busy_wait(self) -> float:
        """Seconds until the queue has room, at worst: what waits, spread over the workers."""
        queued = sum(unit.reserved for unit in self._units.values() if unit.state is UnitState.WAITING)
        return max(1.0, queued / self.workers)
