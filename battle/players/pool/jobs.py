"""The solver pool's work as plain data: what a unit asks (jobs) and what it answers (results).

A job holds a position as ``PositionData``, the tuple ``Position.key()`` gives (the 108 cells'
kinds column by column, the player to move, both scores), and moves in notation: plain data a
server builds from what a client sent, checked here when the job is made (a bad position or
move is a ``ValueError`` naming it, before anything is queued). Between the pool and its own
worker processes jobs and results travel pickled; nothing a client sent is ever unpickled.

Every job bounds its search (a time or node limit: ``cost`` is its most, in CPU seconds,
what an address's budget reserves for it), and every result is a typed value with its moves in
notation, as ``mahjong-battle analyse --json`` and ``review --json`` write them: the server's
``wire`` reads its attributes, so a renamed field fails its type check, never a running server.

It loads no search: a game server holds its queue on these while the workers, other processes, run
them (``battle.players.pool.unit_search``), so the server's process never loads numba.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from battle.players.pool.schedule import SHORT_SECONDS, SLICE_SECONDS, Kind
from battle.players.review_report import ReviewJSON
from battle.rules.board import Move, Position, move_name, parse_move
from battle.rules.game import Game
from battle.rules.notation import parse_any, parse_record
from battle.search_times import HINT_QUICK_DEPTH, HINT_QUICK_SECONDS, REVIEW_NODES_PER_SECOND, REVIEW_SECONDS
from solver.levels import get_level
from solver.limits import FULL_DEPTH
from solver.plain_search import PLAIN_LEVELS, TIMED_PLAIN_LEVELS
from solver.results import Analysis, Bound

PositionData = tuple[tuple[int, ...], int, tuple[int, int]]
"""A position as plain data: ``Position.key()``, the cells' kinds, the player to move and both scores."""

MOST_UNIT_SECONDS = 600.0
"""The longest a single unit may search: a longer job is refused when it is made."""
NODES_PER_SECOND = REVIEW_NODES_PER_SECOND
"""What a node limit costs an address: a second for each million nodes, what one search thread
visits in a second on the 2-core benchmark machine (``battle.players.review``)."""
HINT_EXACT_SECONDS = 3.0
"""A hint's exact search after its quick one, as the window's (``battle.ui.play.thinking``)."""
SLICE_NODES = round(SLICE_SECONDS * NODES_PER_SECOND)
"""Nodes one slice of a long unit searches before its worker serves whoever is owed next: about
0.5 s of a quiet core (a million nodes a second on the 2-core benchmark machine). The next slice
searches the same position again on a table that still holds the last one's work, so slicing costs
little: 40 slices with another deal's slice between each two reached the depth of one 20-million-node
search of deal 7 (20 at 108 tiles, 28 at 88) in 1.03-1.04x its CPU (``benchmarks/solver_slices.py``).
``SLICE_SECONDS`` (0.5) is also what one slice
costs an address's budget at most, and the CPU a worker may spend on it before the watchdog asks why."""


def nodes_of(seconds: float) -> int:
    """A budget in seconds counted in nodes (``NODES_PER_SECOND``): a pool's searches end by nodes,
    never by the clock, so a busy machine gets as far, later."""
    return round(seconds * NODES_PER_SECOND)


def position_data(position: Position | str) -> PositionData:
    """``position`` as plain data; notation text (a ``.mbp`` position, or a ``.mbg`` record's last
    position) is read first, and a ``NotationError`` names what is wrong with it."""
    if isinstance(position, str):
        position = parse_any(position)
    cells, to_move, scores = position.key()
    return cells, to_move, scores


def position_of(data: PositionData) -> Position:
    """The ``Position`` of plain data (a ``PositionError`` names what is wrong)."""
    try:
        cells, to_move, scores = data
    except (TypeError, ValueError):
        raise ValueError(f"a position is (cells, to move, scores), not {str(data)[:80]!r}") from None
    return Position(cells, to_move, scores)


def _limit_seconds(seconds: float | None, what: str) -> None:
    if seconds is not None and not (0 < seconds <= MOST_UNIT_SECONDS):
        raise ValueError(f"{what} must be more than 0 and at most {MOST_UNIT_SECONDS:g} seconds, not {seconds!r}")


# -- jobs ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveJob:
    """The solver's move at ``level`` in ``position``; ``seed`` draws its choice (a retried unit plays
    the same move)."""

    position: PositionData
    level: str
    seed: int

    kind = Kind.MOVE

    def __post_init__(self) -> None:
        get_level(self.level)
        if not position_of(self.position).has_moves():
            raise ValueError("the game is over: there is no move to play")

    @property
    def cost(self) -> float:
        """The level's time limit: its search stops there."""
        return get_level(self.level).time_limit

    @property
    def plain(self) -> bool:
        """A shallow level: plain Python answers while the kernels load. Master, which plain Python plays
        only shallower within its time (the window's first moves after an install), waits for them: a
        server's workers compile once, at its first start."""
        name = get_level(self.level).name
        return name in PLAIN_LEVELS and name not in TIMED_PLAIN_LEVELS

    @property
    def sliced(self) -> bool:
        """A long level's move (expert, master, perfect) runs in slices; a short one's (at most
        ``SHORT_SECONDS``, a club move 0.02 s) in one go."""
        return self.cost > SHORT_SECONDS

    @property
    def budget(self) -> int:
        """A sliced move's budget: its level's seconds counted in nodes, whatever the load."""
        return nodes_of(self.cost)


@dataclass(frozen=True)
class HintJob:
    """The game's hint, evaluation and best line in ``position``, as the window gives them: exact when
    ``exact_seconds`` allow, else a ``quick_depth`` search within ``quick_seconds`` (``Opponent.hint``)."""

    position: PositionData
    quick_seconds: float = HINT_QUICK_SECONDS
    quick_depth: int = HINT_QUICK_DEPTH
    exact_seconds: float = HINT_EXACT_SECONDS

    kind = Kind.ANALYSIS
    plain = False

    def __post_init__(self) -> None:
        position_of(self.position)
        _limit_seconds(self.quick_seconds, "a hint's quick search")
        _limit_seconds(self.exact_seconds, "a hint's exact search")

    @property
    def cost(self) -> float:
        return self.quick_seconds + self.exact_seconds

    sliced = True


@dataclass(frozen=True)
class AnalysisJob:
    """One search of ``position``: with ``every_move`` each legal move's value (an analysis board),
    else the value, the best moves and the best line. Bounded by ``seconds`` or ``nodes`` (one of
    them at least), and ``depth`` moves deep when given."""

    position: PositionData
    every_move: bool = True
    seconds: float | None = None
    nodes: int | None = None
    depth: int | None = None

    kind = Kind.ANALYSIS
    plain = False

    def __post_init__(self) -> None:
        position_of(self.position)
        if self.seconds is None and self.nodes is None:
            raise ValueError("an analysis needs a time or a node limit")
        _limit_seconds(self.seconds, "an analysis's time")
        if self.nodes is not None and not (0 < self.nodes <= MOST_UNIT_SECONDS * NODES_PER_SECOND):
            raise ValueError(f"an analysis's nodes must be 1 to {MOST_UNIT_SECONDS * NODES_PER_SECOND:.0f}")
        if self.depth is not None and not 1 <= self.depth <= FULL_DEPTH:
            raise ValueError(f"an analysis's depth must be 1 to {FULL_DEPTH}, not {self.depth!r}")

    @property
    def cost(self) -> float:
        by_nodes = math.inf if self.nodes is None else self.nodes / NODES_PER_SECOND
        return min(by_nodes, math.inf if self.seconds is None else self.seconds)

    sliced = True

    @property
    def budget(self) -> int:
        """Its nodes, or its seconds counted in nodes."""
        return nodes_of(self.cost)


@dataclass(frozen=True)
class DeepeningJob:
    """An analysis board that deepens while the player looks: every move's value at each of
    ``depths`` in turn (None: to the end), each step a unit of its own within ``nodes``, until a
    step is exact. Each step's result comes as progress; the last is the ticket's result. A budget
    in nodes, not seconds: a busy machine takes longer over a step and reaches the same depth (5 s
    of wall clock left a 64-tile position at an estimate on a loaded server that solves it)."""

    position: PositionData
    depths: tuple[int | None, ...] = (4, 8, 12, 16, None)
    nodes: int = 5 * NODES_PER_SECOND

    kind = Kind.ANALYSIS
    plain = False

    def __post_init__(self) -> None:
        if not self.depths:
            raise ValueError("a deepening analysis needs at least one depth")
        for depth in self.depths:
            self.step(depth)

    def step(self, depth: int | None) -> AnalysisJob:
        return AnalysisJob(self.position, every_move=True, nodes=self.nodes, depth=depth)

    @property
    def cost(self) -> float:
        """One step's: each step is reserved when it is queued."""
        return self.nodes / NODES_PER_SECOND


@dataclass(frozen=True)
class ReviewJob:
    """The review of a game from ``start`` with ``moves`` (in notation), ``seconds_per_move`` a move
    counted in nodes (so a repeat grades the same; ``battle.players.review``). ``known_start``: a
    catalogued start's exact value and best first moves."""

    start: PositionData
    moves: tuple[str, ...]
    players: tuple[str, str] = ("Player 1", "Player 2")
    deal: int | None = None
    seconds_per_move: float = REVIEW_SECONDS
    known_start: tuple[int, tuple[str, ...]] | None = None

    kind = Kind.REVIEW
    plain = False

    def __post_init__(self) -> None:
        self.game()
        _limit_seconds(self.seconds_per_move, "a review's time a move")
        if self.known_start is not None:
            for move in self.known_start[1]:
                parse_move(move)

    @classmethod
    def from_record(cls, text: str, seconds_per_move: float = REVIEW_SECONDS) -> ReviewJob:
        """The review of a ``.mbg`` record's game (a ``NotationError`` names what is wrong)."""
        record = parse_record(text)
        moves = tuple(move_name(move) for move in record.moves)
        return cls(position_data(record.start), moves, (record.player1, record.player2), record.deal, seconds_per_move)

    def game(self) -> Game:
        """The game replayed (an ``IllegalMoveError`` names the first move the rules refuse)."""
        game = Game(position_of(self.start), *self.players, deal_number=self.deal)
        for number, text in enumerate(self.moves, start=1):
            try:
                game.play(parse_move(text))
            except ValueError as error:
                raise type(error)(f"move {number} ({text!r}): {error}") from None
        return game

    @property
    def cost(self) -> float:
        """Every position's search, the final one's included."""
        return (len(self.moves) + 1) * self.seconds_per_move

    sliced = True


PAR_NODES = 4_000_000_000
"""The most one par may search. Deal 5's par took 1.51 G nodes on one thread with a 256 MiB table
(561 s at 2.7 M nodes a second, 2026-11-29); the harder deals of the survey take up to 2-3 times a
median one's, so 4 G nodes proves most and ends the rest within about 25 minutes of one core, after
which the server says the par is unproved."""
PAR_SLICE_NODES = 20 * SLICE_NODES
"""A par's slice: 10 M nodes (about 4 s). Long, as a par ends its slice at once for any other unit
that waits for its worker (``Schedule.yields``), and each slice starts its exact search again at the
root: a few hundred restarts for a deal rather than thousands."""
PAR_MEGABYTES = 256
"""The table a worker searches pars on, its own beside the ``ENGINES`` of the games it serves (made at
a par's first slice on the worker, let go at a par's answer there): deal 5's par took 1.51 G nodes
with 256 MiB on one thread, and was not proved in 3 G with a game's 64 MiB (2026-11-29)."""


@dataclass(frozen=True)
class ParJob:
    """The par of a deal from ``start``: its exact value for the player to move and the best first
    moves, within ``nodes`` in slices of ``slice_nodes`` (an answer that is not exact says the budget
    ran out first)."""

    start: PositionData
    nodes: int = PAR_NODES
    slice_nodes: int = PAR_SLICE_NODES

    kind = Kind.PAR
    plain = False
    sliced = True

    def __post_init__(self) -> None:
        if not position_of(self.start).has_moves():
            raise ValueError("the deal is over before move 1: it has no par to find")
        if not 0 < self.nodes <= PAR_NODES:
            raise ValueError(f"a par's nodes must be 1 to {PAR_NODES}")
        if not 0 < self.slice_nodes <= PAR_SLICE_NODES:
            raise ValueError(f"a par's slice must be 1 to {PAR_SLICE_NODES} nodes")

    @property
    def cost(self) -> float:
        return self.nodes / NODES_PER_SECOND

    @property
    def budget(self) -> int:
        return self.nodes


Job = MoveJob | HintJob | AnalysisJob | DeepeningJob | ReviewJob | ParJob
StepJob = MoveJob | HintJob | AnalysisJob | ReviewJob | ParJob
"""What one unit runs: a deepening analysis runs as ``AnalysisJob`` steps."""


def slice_seconds(job: StepJob) -> float:
    """The most one run of ``job`` on a worker costs: a slice for a sliced job (a par's own), else its
    whole cost."""
    if isinstance(job, ParJob):
        return min(job.cost, job.slice_nodes / NODES_PER_SECOND)
    return min(job.cost, SLICE_SECONDS) if job.sliced else job.cost


# -- slices ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchProgress:
    """A search made in slices, so far: the nodes its slices were given, and the deepest answer they
    found (the next slice deepens from there on the worker's table; a worker without that table still
    answers no worse)."""

    spent: int = 0
    best: Analysis | None = None
    at_least: int | None = None
    """The least the position's value can be (for its player to move), proved by its exact search so
    far: the best root move's value once a root move is proved (a par's, which a page shows while the
    rest is searched); None before."""


Searched = tuple[int, tuple[int, int], Move, int, Analysis]
"""A review's searched position as plain data: the player to move, the scores, the move played, its
points, and the position's analysis (``solver.review.SearchedMove``'s fields: that module loads the
engine, which the pool's own process never does)."""


@dataclass(frozen=True)
class HintProgress:
    """A hint so far: the quick search's answer once it is done, and the running search's progress."""

    quick: Analysis | None = None
    search: SearchProgress = SearchProgress()


@dataclass(frozen=True)
class ReviewProgress:
    """A review so far: the positions searched, and the next one's search."""

    searched: tuple[Searched, ...] = ()
    search: SearchProgress = SearchProgress()


SliceProgress = SearchProgress | HintProgress | ReviewProgress


@dataclass(frozen=True)
class Continued:
    """A slice ended before its unit's answer: the unit waits for its next turn, which starts from
    ``progress`` (None: from the start, a first slice told to end before it began). Plain data
    (``solver.results`` and the rules), like the jobs."""

    progress: SliceProgress | None


# -- results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveResult:
    """The solver's move; ``plain`` when plain Python chose it while the kernels loaded."""

    move: str
    level: str
    plain: bool = False


@dataclass(frozen=True)
class MoveValue:
    """One legal move's value for the mover: in notation, its final margin (exact, an estimate or an
    upper bound) and the points its pair scores."""

    move: str
    value: int
    bound: Bound
    points: int


@dataclass(frozen=True)
class AnalysisResult:
    """A search's answer: the value for the player to move, whether it is proved (else an estimate
    ``depth`` moves deep), every best move, the best line, the final score along it, the effort, and
    each legal move's value (only the best ones exact unless every move's was asked for)."""

    value: int
    exact: bool
    best_moves: tuple[str, ...]
    pv: tuple[str, ...]
    final_score: tuple[int, int]
    depth: int
    nodes: int
    seconds: float
    moves: tuple[MoveValue, ...]

    @classmethod
    def of(cls, position: Position, analysis: Analysis) -> AnalysisResult:
        return cls(
            value=analysis.value,
            exact=analysis.exact,
            best_moves=tuple(move_name(move) for move in analysis.best_moves),
            pv=tuple(move_name(move) for move in analysis.pv),
            final_score=analysis.final_score,
            depth=analysis.depth,
            nodes=analysis.nodes,
            seconds=analysis.seconds,
            moves=tuple(
                MoveValue(mv.notation, mv.value, mv.bound, position.move_points(mv.move)) for mv in analysis.move_values
            ),
        )


@dataclass(frozen=True)
class ReviewResult:
    """A game's review: ``Review.to_json()`` (``battle.players.review_report`` describes its keys)."""

    report: ReviewJSON


Result = MoveResult | AnalysisResult | ReviewResult


DEFAULT_WORKER_MEGABYTES = 64
"""A pool worker's table: every unit of every game it serves shares it, and a unit for another
game's layout clears it first (64 MiB: about 50 ms on the benchmark machine, 32 MiB about as long
under load), while the levels' searches and a hint's 4 s fill far less than it holds."""
