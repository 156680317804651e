"""Which piece of solver work runs next: the solver pool's pure core.

The server's solver work comes as units: a waiting player's move, a hint or an analysis, a
finished game's review, a deal's par. This module decides their order, who may have one and when, and
what each address has spent; it runs nothing and reads no clock (every method that depends
on time takes ``now``, in monotonic seconds), so the tests drive it exactly and the pools
(``battle.players.pool.local_workers``, ``battle.players.pool.dask_cluster``) stay thin shells over it.

The rules, in the order ``take`` applies them:

* **Priority by kind**: every waiting move before every hint or analysis, those before every
  review, and reviews before pars (fishnet's order: a player who waits comes before background work).
* **Fair within a kind**: addresses take turns (start-time fair queuing: each unit gets a turn
  number, one past its address's previous unit of that kind or the turn being served now,
  whichever is later; a long unit's next slice one past both), then first come, first served.
  An address that was idle joins the round being served, ahead of the later slices waiting in it
  (a unit's first slice goes before other units' next ones of the same turn): an expert move asked
  beside four addresses' perfect games waits for the slice that runs, not for a slice of each of
  them. One address with twenty analyses queued
  delays another's analysis by about one unit, not twenty; the turns hold across short and
  long moves alike (a long one passed over for want of a worker keeps its turn).
* **One search per seat at a time**: a unit submitted for a seat replaces the seat's unit
  that waits (which then never runs) and stops the seat's unit that runs; the new one starts
  once the stopped one has ended. A player who moves on, or asks again, wants the answer to
  the newest question only.
* **Workers kept for short moves**: every unit but a short move (a move whose most is at
  most ``SHORT_SECONDS``: the levels beginner, casual and club) starts only while ``reserve``
  workers stay free after it (default: one when there are two or more). This bounds a short
  move's wait by about one short move's time, whatever long searches (a perfect level's moves,
  analyses, reviews) fill the queue.
* **Slices**: a long unit runs a slice at a time (``pause``: its slice ended before its answer),
  then waits for its next turn as a new unit of its address would, so a waiting move goes first
  at the end of every slice and the addresses take turns slice by slice.
* **Pars stand aside for everyone**: a running par ends its slice at once for any unit that waits
  for want of a worker (``yields``), so its long slices (``jobs.PAR_SLICE_NODES``) hold up
  no hint, analysis or review.
* **Moves end background slices**: a move that waits for want of a worker while a hint, an
  analysis or a review runs asks that unit to end its slice at once (``yields``; its search
  answers within milliseconds and goes on from its table at its next turn), so a move waits for
  background work about as long as a worker takes to answer, however slow the machine makes a
  slice (a slice's 0.5 CPU seconds took 5 s of wall clock on a search of niceness 10 beside two
  busy loops).
* **Room of its own for each kind**: at most ``max_waiting`` units of each kind wait, and at
  most ``PER_NETWORK_WAITING`` of a kind per address, so background work never fills the room
  of the moves, and one address never fills the room of its kind.
* **Budgets per address**: each address (an IPv6 /64 counted as one, ``address_key``) has a
  token bucket of solver CPU seconds, ``Budget.rate`` a second, at most ``Budget.burst`` saved.
  A unit reserves its most (its time limit) when it is paid for and gives back what it did
  not use when it ends, so an address can never have more work queued than its budget pays
  for. A hint, analysis or review its bucket cannot pay for is refused with the seconds until
  it can; a move is never refused for the budget: it waits unpaid, passed over by ``take``
  until its bucket pays for it (its address's moves in their order), and meanwhile its
  address's other work is refused rather than spend what the move waits for.
* **Pars are the pool's own**: a par costs no address's budget (it may search longer than any
  burst holds); at most ``PARS_RUNNING`` run at once, on the workers the kept ones leave, so pars
  never take more than one worker of a pool, and only when nothing else waits for it.

Invariants: a unit is waiting (before its first slice or between two), running or stopping
(running, its worker told to stop it); a
seat has at most one waiting unit and at most one running or stopping one; only a waiting
move is unpaid; a par reserves nothing; an address's reservations are in its bucket's level (the level is what is
left after them); at most ``max_waiting`` units of a kind wait.
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
    PAR = 3
    """A deal's par (its exact value before move 1), in the background after every other kind: no
    player waits for it, and it is found once for every game on its deal."""


@dataclass(frozen=True)
class Budget:
    """Solver CPU seconds per address: ``rate`` regained a second, at most ``burst`` saved up, full at first.

    The defaults let one address keep a sixth of a core busy without end and spend two minutes
    of solver time at once: a whole game against the perfect level costs 17-63 CPU seconds
    on average (four runs of two games, ``benchmarks/pool_load.py`` and ``web_solver.py``: the
    deal decides how many first moves stop at their 10 s limit) and a hint at most 4, so the burst holds such a game
    and a dozen hints at their most."""

    rate: float = 1 / 6
    burst: float = 120.0

    def __post_init__(self) -> None:
        if not (self.rate > 0 and math.isfinite(self.rate)):
            raise ValueError(f"a budget's rate must be a positive number of seconds a second, not {self.rate!r}")
        if not (self.burst > 0 and math.isfinite(self.burst)):
            raise ValueError(f"a budget's burst must be a positive number of seconds, not {self.burst!r}")


RefusalReason = Literal["budget", "busy", "queued", "closed", "unavailable"]


@dataclass(frozen=True)
class Refusal:
    """A unit not taken, and why: the address's budget is spent (``"budget"``), the queue of its
    kind is full (``"busy"``), the address has as many units of its kind waiting as it may
    (``"queued"``), the pool is closing (``"closed"``) or its cluster does not answer
    (``"unavailable"``, refused by the pool, never by the schedule). ``retry_after`` is the seconds
    until the same unit would be taken (for ``"busy"`` and ``"queued"`` an estimate: the work queued
    ahead over the workers that may run it; for ``"unavailable"`` the next try of the cluster; 0 for
    ``"closed"``). The server words it for its reader ("try again in 12 s")."""

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


@dataclass(frozen=True)
class Standing:
    """Where a unit stands: ``place`` 0 running, 1 the next to start, 2 the one after...; ``wait`` the
    seconds until its address's budget pays for it (a move past its budget; 0 once paid for).
    A unit that waits for its budget is counted ahead of no other: its place is the one it takes
    once paid for, as things stand."""

    place: int
    wait: float = 0.0
    ahead: float = 0.0
    """Roughly the seconds of solver work ahead of it, over the workers that may run it: a slice of each
    unit of its kind ahead of it (they take turns slice by slice) or running, and the whole of each
    unit of a kind that goes first; 0 while it runs. An estimate at the units' most: a search often
    ends sooner."""
    at_least: int | None = None
    """The least the searched position's value can be, proved by the unit's slices so far
    (``jobs.SearchProgress.at_least``; the pool fills it in, the schedule knows no searches)."""


@dataclass
class Unit:
    """The schedule's record of one unit of work."""

    id: int
    kind: Kind
    seat: str
    address: str
    """The address's key (``address_key``)."""
    reserved: float
    """CPU seconds held in the address's bucket until the unit ends (0 while it waits unpaid)."""
    due: float
    """CPU seconds it reserves once paid for: its most, at most the budget's burst."""
    short: bool
    """A move that takes at most ``SHORT_SECONDS``: it may run on the workers kept for short moves."""
    paid: bool
    """Its reservation is made; only a waiting move may be unpaid (waiting for its budget)."""
    plain: bool
    """A worker whose kernels still load can run it (a shallow level's move, from plain Python)."""
    sequence: int
    """Submission order (a paused unit's: when its slice ended; ids and sequences share one counter); a
    retried unit keeps its own."""
    turn: int = 0
    """Its address's turn within its kind (fair queuing); a retried unit keeps its own."""
    state: UnitState = UnitState.WAITING
    tries: int = 0
    """Times a worker died while running it."""
    started: float | None = None
    spent: float = 0.0
    """CPU seconds its finished slices used (``pause``), which its address pays when it ends."""
    slices: int = 0
    """Slices it has run to their end."""
    yielding: bool = False
    """Asked to end its running slice early for a waiting move (``yields``)."""


@dataclass
class _Bucket:
    level: float
    stamp: float

    def refill(self, now: float, budget: Budget) -> float:
        self.level = min(budget.burst, self.level + max(0.0, now - self.stamp) * budget.rate)
        self.stamp = now
        return self.level


MAX_WAITING = 500
"""Units of one kind that may wait at once: beyond, a submission of that kind is refused as
``busy``. Each kind has this room of its own, so hints, analyses and reviews never fill the
moves' (a server holds at most ``--max-games`` games, each with one move of the solver's at a
time, 300 by default)."""
PER_NETWORK_WAITING: dict[Kind, int | None] = {Kind.MOVE: None, Kind.ANALYSIS: 4, Kind.REVIEW: 3, Kind.PAR: 2}
"""Units of a kind one address may have waiting (None: no bound of its own); beyond, a
submission is refused as ``queued``. Four analyses: a household behind one address, each with a
hint or an analysis board open (one unit a seat); three reviews: a household's games just
finished (one address alone queued 65 reviews in 43 s without a bound). More waiting would buy
the address nothing (the addresses take turns) but room in the queue: with these, 125 and 167
addresses are needed to fill the room of their kind. A move has no bound of its own: an
address's moves are bounded by its games against the solver (one move each at a time). Two pars:
the server bounds a network's pars by the hour as well (``ServerLimits.pars_per_hour``)."""
PARS_RUNNING = 1
"""Pars that run at once, however many workers: a par is the pool's own work, paid from no address's
budget (it costs up to ``jobs.PAR_NODES``, more than any budget's burst), so the pool bounds
it instead: at most one worker of any pool ever works on pars."""
SHORT_SECONDS = 2.0
"""A move whose most is at most this is short and may run on the workers kept for short moves:
the levels beginner, casual and club (1, 1 and 2 s; a club move takes 0.02 s alone on the
2-core machine, ``benchmarks/online_attack.py --solver``). Expert (3 s), master (5 s) and perfect
(10 s), a hint (4 s), an analysis's step (5 s) and a review are long."""
MAX_TRIES = 3
"""Times a unit may lose its worker (killed, out of memory) before it fails."""
SLICE_SECONDS = 0.5
"""A long unit's slice at most, in CPU seconds: ``jobs.SLICE_NODES`` at a million nodes a second."""
PRUNE_EVERY = 256
"""Submissions between sweeps that forget idle addresses (``Schedule._forget_idle``)."""


@dataclass
class Schedule:
    """The queue, the seats and the budgets of one pool of ``workers`` workers.

    ``budget`` None: no budgets (a pool on one's own machine). ``move_reserve`` None: one
    worker kept for short moves when there are two or more, none with one. ``per_network``:
    each kind's bound on the units an address may have waiting (``PER_NETWORK_WAITING``), with
    budgets only: a pool without them has one owner (a script's batch of analyses).
    """

    workers: int
    budget: Budget | None = Budget()
    max_waiting: int = MAX_WAITING
    move_reserve: int | None = None
    max_tries: int = MAX_TRIES
    per_network: dict[Kind, int | None] = field(default_factory=lambda: dict(PER_NETWORK_WAITING))
    slice_seconds: float = SLICE_SECONDS
    """The most a long unit holds a worker at a time (``jobs.SLICE_NODES``): for the estimates."""
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
        """Workers kept free for short moves."""
        if self.move_reserve is not None:
            return max(0, min(self.move_reserve, self.workers - 1))
        return 1 if self.workers >= 2 else 0

    # -- submitting and cancelling ------------------------------------------------------

    def submit(
        self, kind: Kind, seat: str, address: str, cost: float, now: float, *, plain: bool = False
    ) -> Admitted | Refusal:
        """Queue a unit of ``kind`` for ``seat`` that spends at most ``cost`` CPU seconds, or refuse it
        and change nothing. It replaces the seat's waiting unit and stops its running one (see ``Change``).
        A move its address's bucket cannot pay for now is queued unpaid (``Standing.wait``)."""
        if not (cost >= 0 and math.isfinite(cost)):
            raise ValueError(f"a unit's cost must be a finite number of seconds >= 0, not {cost!r}")
        key = address_key(address)
        replaced = self._units.get(self._seat_waiting.get(seat, 0))
        full = self._no_room(kind, key, replaced)
        if full is not None:
            return full
        pool_paid = kind is Kind.PAR
        due = cost if self.budget is None or pool_paid else min(cost, self.budget.burst)
        paid = True
        if self.budget is not None and not pool_paid:
            bucket = self._buckets.get(key)
            level = self.budget.burst if bucket is None else bucket.refill(now, self.budget)
            if replaced is not None and replaced.address == key:
                level += replaced.reserved
            owed = sum(unit.due for unit in self._unpaid(key) if unit is not replaced)
            if kind is Kind.MOVE:
                paid = owed == 0 and level >= due
            elif level - owed < due:
                return Refusal("budget", (due + owed - level) / self.budget.rate)
        change = self._clear_seat(seat)
        if self.budget is not None and paid and not pool_paid:
            self._bucket(key, now).level -= due
        # the round being served, unless the address has had its turn in it: start-time fair queuing, where a
        # unit of an address that was idle starts at the virtual time being served, and a unit that had a
        # slice goes on in the next round (``pause``); one at a time of each address in a round
        turn = max(self._turn_served.get(kind, 0), self._last_turn.get((key, kind), 0) + 1)
        self._last_turn[(key, kind)] = turn
        short = kind is Kind.MOVE and cost <= SHORT_SECONDS
        reserved = due if paid and not pool_paid else 0.0
        unit = Unit(self._next_id, kind, seat, key, reserved, due, short, paid, plain, self._next_id, turn)
        self._next_id += 1
        self._units[unit.id] = unit
        self._seat_waiting[seat] = unit.id
        self._submissions += 1
        if self._submissions % PRUNE_EVERY == 0:
            self._forget_idle(now)
        return Admitted(unit.id, change)

    def _no_room(self, kind: Kind, key: str, replaced: Unit | None) -> Refusal | None:
        """The refusal of a unit of ``kind`` from ``key`` when its kind's room, or the address's share
        of it, is full (the seat's waiting unit, which it replaces, makes room)."""
        waiting = [
            unit
            for unit in self._units.values()
            if unit.state is UnitState.WAITING and unit.kind is kind and unit is not replaced
        ]
        if len(waiting) >= self.max_waiting:
            return Refusal("busy", self._busy_wait(kind))
        bound = None if self.budget is None else self.per_network.get(kind)
        if bound is not None and sum(1 for unit in waiting if unit.address == key) >= bound:
            return Refusal("queued", self._busy_wait(kind, key))
        return None

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
        """The unit a free worker starts now (marked running), or None: the first in ``order`` that is
        paid for (moves whose budget is spent wait, without holding up others), whose seat runs
        nothing, that the kept workers allow (a short move may take any free worker, every other
        unit only while ``reserve`` stay free), and with ``plain_only`` (a worker whose kernels
        still load) one that plain Python can answer."""
        busy = sum(1 for unit in self._units.values() if unit.state is not UnitState.WAITING)
        if busy >= self.workers:
            return None
        self.pay(now)
        long_allowed = self.workers - busy - 1 >= self.reserve
        pars = sum(1 for unit in self._units.values() if unit.kind is Kind.PAR and unit.state is not UnitState.WAITING)
        for unit in self.order():
            if not unit.paid or unit.seat in self._seat_running:
                continue
            if unit.kind is Kind.PAR and pars >= PARS_RUNNING:
                continue
            if plain_only and not unit.plain:
                continue
            if not unit.short and not long_allowed:
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
        if self.budget is not None and unit.kind is not Kind.PAR:
            bucket = self._bucket(unit.address, now)
            spent = unit.spent + max(0.0, cpu_seconds)
            bucket.level = min(self.budget.burst, bucket.level + unit.reserved - spent)
        return unit

    def pause(self, unit_id: int, cpu_seconds: float, now: float) -> bool:
        """A running unit's slice ended after ``cpu_seconds`` before its answer: True when it waits again
        for its next turn (one past its address's latest of its kind, or past the turn served now,
        as a new unit's: so the addresses take turns slice by slice, and a waiting unit of a higher
        kind goes first), keeping its reservation and its place as its seat's unit; False when it
        ended instead (it was being stopped), its slices paid for."""
        unit = self._units.get(unit_id)
        if unit is None or unit.state is UnitState.WAITING:
            return False
        if unit.state is UnitState.STOPPING:
            self.finish(unit_id, cpu_seconds, now)
            return False
        unit.spent += max(0.0, cpu_seconds)
        unit.slices += 1
        key = (unit.address, unit.kind)
        unit.turn = max(self._turn_served.get(unit.kind, 0), self._last_turn.get(key, 0)) + 1
        self._last_turn[key] = unit.turn
        unit.sequence = self._next_id  # behind the units already waiting for the same turn
        self._next_id += 1
        self._wait_again(unit)
        return True

    def yields(self) -> tuple[int, ...]:
        """The running hints, analyses, reviews and pars to ask to end their slice now (each asked once), so
        that the paid units waiting for want of a worker get one: for a move any of them, pars before
        reviews before analyses, the last started first; for any other unit, a par (the pool's own work
        stands aside for everyone's). The pool tells their workers; each slice then ends (``pause``) as
        its budget would."""
        running = [unit for unit in self._units.values() if unit.state is not UnitState.WAITING]
        background = sorted(
            (
                unit
                for unit in running
                if unit.kind is not Kind.MOVE and unit.state is UnitState.RUNNING and not unit.yielding
            ),
            key=lambda unit: (unit.kind, unit.started or 0.0),
        )
        if not background:  # the common case, at every dispatch: no need to order the queue
            return ()
        free = self.workers - len(running) + sum(unit.yielding for unit in running)
        asked: list[int] = []
        for unit in self.order():
            if unit.kind is Kind.PAR:
                break
            if not unit.paid or unit.seat in self._seat_running:
                continue
            needed = 1 if unit.short else 1 + self.reserve
            while free < needed:
                candidates = [other for other in background if unit.kind is Kind.MOVE or other.kind is Kind.PAR]
                if not candidates:
                    break
                chosen = candidates[-1]
                background.remove(chosen)
                chosen.yielding = True
                asked.append(chosen.id)
                free += 1
            if free < needed:
                break
            free -= 1
        return tuple(asked)

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
            self.finish(unit_id, max(0.0, unit.reserved - unit.spent), now)
            return False
        self._wait_again(unit)
        return True

    def _wait_again(self, unit: Unit) -> None:
        """A running ``unit`` becomes its seat's waiting one again, off its worker: a slice ended before its
        answer (``pause``), or its worker died (``retry``)."""
        del self._seat_running[unit.seat]
        self._seat_waiting[unit.seat] = unit.id
        unit.state = UnitState.WAITING
        unit.started = None
        unit.yielding = False

    # -- looking ------------------------------------------------------------------------

    def order(self) -> list[Unit]:
        """The waiting units in the order they are served: by kind, then by turn (addresses take
        turns), then first slices before later ones, then by submission."""
        return sorted(
            (unit for unit in self._units.values() if unit.state is UnitState.WAITING),
            key=lambda unit: (unit.kind, unit.turn, unit.slices > 0, unit.sequence),
        )

    def places(self) -> dict[int, int]:
        """Every unit's place: 0 running (or stopping), 1 the next to start, 2 the one after... (a move
        that waits for its budget: the place it takes once paid for, see ``Standing``)."""
        return {unit: standing.place for unit, standing in self.standings(None).items()}

    def standings(self, now: float | None) -> dict[int, Standing]:
        """Every unit's ``Standing``; ``now`` None leaves out the seconds a move waits for its budget."""
        running = [unit for unit in self._units.values() if unit.state is not UnitState.WAITING]
        found = {unit.id: Standing(0) for unit in running}
        ahead = 0
        owed: dict[str, float] = {}
        busy = sum(min(self._left(unit), self.slice_seconds) for unit in running)
        whole = 0.0
        """The most of every paid unit before this one."""
        of_kind = dict.fromkeys(Kind, 0.0)
        sliced = dict.fromkeys(Kind, 0.0)
        """The most, and a slice each, of the units before this one of each kind."""
        for unit in self.order():
            work = busy + whole - of_kind[unit.kind] + sliced[unit.kind]
            seconds = work / (self.workers if unit.short else max(1, self.workers - self.reserve))
            if unit.paid:
                ahead += 1
                found[unit.id] = Standing(ahead, 0.0, seconds)
                left = self._left(unit)
                whole += left
                of_kind[unit.kind] += left
                sliced[unit.kind] += min(left, self.slice_seconds)
                continue
            owed[unit.address] = owed.get(unit.address, 0.0) + unit.due
            wait = 0.0 if now is None else self._seconds_until(unit.address, owed[unit.address], now)
            found[unit.id] = Standing(ahead + 1, wait, seconds)
        return found

    @staticmethod
    def _left(unit: Unit) -> float:
        """CPU seconds a unit may still use: its most less its finished slices."""
        return max(0.0, unit.due - unit.spent)

    def place(self, unit_id: int) -> int | None:
        """The unit's place (see ``places``), None once it has ended. A later unit of a higher kind,
        or of an address with fewer queued, can move ahead of it."""
        standing = self.standing(unit_id, None)
        return None if standing is None else standing.place

    def standing(self, unit_id: int, now: float | None) -> Standing | None:
        """The unit's ``Standing`` (see ``standings``), None once it has ended."""
        unit = self._units.get(unit_id)
        if unit is None:
            return None
        if unit.state is not UnitState.WAITING:
            return Standing(0)
        return self.standings(now)[unit_id]

    def next_payment(self, now: float) -> float | None:
        """Seconds until the first unpaid move's bucket pays for it (0: now), None when none waits unpaid:
        a pool looks again then, as nothing else tells it."""
        first: dict[str, float] = {}
        for unit in self.order():
            if not unit.paid and unit.address not in first:
                first[unit.address] = unit.due
        if not first:
            return None
        return min(self._seconds_until(key, due, now) for key, due in first.items())

    def unit(self, unit_id: int) -> Unit | None:
        return self._units.get(unit_id)

    def counts(self) -> dict[str, int]:
        """Units waiting of each kind (and of those, the moves that wait for their budget), and
        running, for a server's ``/stats``."""
        found = {f"waiting_{kind.name.lower()}": 0 for kind in Kind}
        found["waiting_budget"] = 0
        found["running"] = 0
        for unit in self._units.values():
            if unit.state is UnitState.WAITING:
                found[f"waiting_{unit.kind.name.lower()}"] += 1
                found["waiting_budget"] += not unit.paid
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

    def _unpaid(self, key: str) -> list[Unit]:
        return [unit for unit in self._units.values() if unit.address == key and not unit.paid]

    def pay(self, now: float) -> None:
        """Reserve for the unpaid moves their buckets now pay for, each address's in their order (one
        that cannot pay holds up its address's later ones, never another address's)."""
        if self.budget is None:
            return
        stuck: set[str] = set()
        for unit in self.order():
            if unit.paid or unit.address in stuck:
                continue
            bucket = self._bucket(unit.address, now)
            if bucket.level < unit.due:
                stuck.add(unit.address)
                continue
            bucket.level -= unit.due
            unit.reserved, unit.paid = unit.due, True

    def _seconds_until(self, key: str, owed: float, now: float) -> float:
        """Seconds until ``key``'s bucket holds ``owed``."""
        if self.budget is None:
            return 0.0
        bucket = self._buckets.get(key)
        level = self.budget.burst if bucket is None else bucket.refill(now, self.budget)
        return max(0.0, (owed - level) / self.budget.rate)

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

    def _busy_wait(self, kind: Kind, key: str | None = None) -> float:
        """Seconds until the room of ``kind`` has a place, at worst: the work of that kind and before it
        that waits, over the workers that may run it; with ``key``, until the address's first waiting
        unit of that kind has run (it frees the address's share)."""
        queued = 0.0
        for unit in self.order():
            if unit.kind > kind:
                break
            queued += unit.due
            if key is not None and unit.kind is kind and unit.address == key:
                break
        workers = self.workers if kind is Kind.MOVE else max(1, self.workers - self.reserve)
        return max(1.0, queued / workers)
