"""The door's task services, each owning the ``solver.Engine`` that answers its kind of question,
and what the door hands on beside them (``battle.players`` describes them; a front end imports them
from there).

Each service builds its engine at its first search on the thread that runs it (numba must never
load on a window's drawing thread) and keeps it, so that a game's positions share one
transposition table. This module loads numba; ``battle.players`` loads it at the first name
a front end takes from the door, and a game server, whose pool's workers search, never does.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Sequence
from typing import TypeVar

# the door's names, listed once in battle.players: every one is here (``X as X``: only handed on)
from battle.players import __all__ as __all__
from battle.players.review import review_game
from battle.players.review_report import CLASS_NAMES as CLASS_NAMES
from battle.players.review_report import MoveReview as MoveReview
from battle.players.review_report import PlayerSummary as PlayerSummary
from battle.players.review_report import Review, ReviewStep
from battle.players.review_report import TurningPoint as TurningPoint
from battle.rules.board import Move, Position
from battle.rules.game import Game, KnownStart
from battle.rules.notation import Record
from battle.search_times import HINT_QUICK_DEPTH, HINT_QUICK_SECONDS, HINT_SECONDS, REFUTE_SECONDS, REVIEW_SECONDS
from solver.compile_ahead import WINDOW_NICENESS, prepare_kernels_apart
from solver.engine import (
    DEFAULT_TABLE_BITS,
    MAX_NODE_LIMIT,
    MAX_THREADS,
    Engine,
    engine_for,
    engine_table_bits,
)
from solver.engine import kernels_cached as _kernels_cached
from solver.levels import LEVELS as LEVELS
from solver.levels import Level, analyse_for_level, choose_from, get_level
from solver.limits import FULL_DEPTH as FULL_DEPTH
from solver.limits import Limits
from solver.plain_search import (
    PLAIN_LEVELS,
    PLAIN_MAX_DEPTH,
    TIMED_MARGIN,
    TIMED_PLAIN_LEVELS,
    plain_analysis,
    plain_within,
)
from solver.results import Analysis, ProgressCallback, SearchStatus
from solver.results import Bound as Bound
from solver.results import MoveValue as MoveValue
from solver.results import SolveJSON as SolveJSON
from solver.table_size import ENTRY_BYTES, MIN_TABLE_BITS, default_threads

MOST_SEARCH_NODES = MAX_NODE_LIMIT
"""The largest node limit a search takes (2**62); a command line refuses a larger one."""
MOST_SEARCH_THREADS = MAX_THREADS
"""The most threads a search shares its table between."""
SMALLEST_TABLE_MEGABYTES = (ENTRY_BYTES << MIN_TABLE_BITS) >> 20
"""The smallest transposition table, in MiB (32): what a puzzle-sized search needs."""


def kernels_ready() -> bool:
    """Whether the search kernels are compiled (in numba's cache), so a search starts in about a second."""
    return _kernels_cached()


def prepare_kernels(
    closing: threading.Event | None = None, *, window: bool = False, waited_on: threading.Event | None = None
) -> float:
    """Load the search kernels now, compiling them in child processes on a first run (about 10 s),
    so that the first real search starts at once; returns the seconds a compile took (0 when
    cached). ``closing`` ends the compile early; ``window`` runs it below the window's priority
    until ``waited_on`` is set (a player waits for the solver)."""
    return prepare_kernels_apart(closing, WINDOW_NICENESS if window else 0, waited_on)


_S = TypeVar("_S", bound="_Service")


def _table_bits(megabytes: int) -> int:
    return max(MIN_TABLE_BITS, ((megabytes << 20) // ENTRY_BYTES).bit_length() - 1)


class _Service:
    """Owns one engine, built at the first search (on the thread that searches) and kept.

    The table is ``megabytes`` big (default 128 MiB), or with ``fit`` the size the first
    position searched needs (up to ``max_megabytes``, for ``threads``, within what
    ``expected`` limits can fill: what the command line asks for). ``threads`` None: one per
    core, at most 4. A ``stop`` before the engine exists is kept for its first search, as the
    engine keeps one.
    """

    def __init__(
        self,
        *,
        megabytes: int | None = None,
        fit: bool = False,
        max_megabytes: int | None = None,
        threads: int | None = 1,
        expected: Limits = Limits(),
    ) -> None:
        self._megabytes = megabytes
        self._fit = fit
        self._max_megabytes = max_megabytes
        self._threads = threads
        self._expected = expected
        self._engine: Engine | None = None
        self._stop_pending = False
        self._building = threading.Lock()
        """Held while the engine is built, so that a ``stop`` from another thread meanwhile is not lost."""

    def open(self: _S, position: Position | None = None) -> _S:
        """Build the engine now (with ``fit``: sized for ``position``, else it waits for the first
        search), as a window's worker does on its own thread before the first task; returns the
        service."""
        if not self._fit or position is not None:
            self._engine_for(position)
        return self

    def _engine_for(self, position: Position | None) -> Engine:
        with self._building:
            if self._engine is None:
                if self._fit and position is not None:
                    engine = engine_for(
                        position.tiles_left(),
                        max_megabytes=self._max_megabytes,
                        threads=self._threads,
                        limits=self._expected,
                    )
                else:
                    bits = DEFAULT_TABLE_BITS if self._megabytes is None else _table_bits(self._megabytes)
                    engine = Engine(bits, threads=self._threads or default_threads())
                if self._stop_pending:
                    engine.stop()
                self._engine = engine
            return self._engine

    def search(
        self,
        position: Position,
        limits: Limits = Limits(),
        *,
        all_exact: bool = False,
        progress: ProgressCallback | None = None,
    ) -> Analysis:
        """One search of ``position`` (see ``Limits``); with ``all_exact`` every move's exact value."""
        return self._engine_for(position).search(position, limits, all_exact=all_exact, progress=progress)

    def agrees(self, position: Position) -> bool:
        """Whether searching ``position`` keeps what the table holds (``Engine.agrees``; True before
        the first search)."""
        with self._building:
            engine = self._engine
        return engine is None or engine.agrees(position)

    def stop(self) -> None:
        """Stop the running search from another thread (it answers from what it has)."""
        with self._building:
            if self._engine is None:
                self._stop_pending = True
                return
        self._engine.stop()

    def clear_stop(self) -> None:
        """Forget a stop that arrived after the last search ended."""
        with self._building:
            self._stop_pending = False
            engine = self._engine
        if engine is not None:
            engine.clear_stop()

    def clear(self) -> None:
        """Empty the table (a search then owes nothing to the ones before it)."""
        if self._engine is not None:
            self._engine.clear()

    def status(self) -> SearchStatus:
        """Where the running search is (call ``open`` first)."""
        if self._engine is None:
            raise RuntimeError("no search yet: open the service first")
        return self._engine.status()


# -- the opponent ----------------------------------------------------------------------------


Cancelled = Callable[[], bool]


class Opponent(_Service):
    """The computer across the table: its moves at a level, the game's hint, a puzzle's refutation.

    ``Opponent(level)`` checks the level at once (a ValueError names an unknown one); ``move``
    may name another level for one move. The window's worker shares one opponent between its
    games, hints and puzzles; the terminal makes one per computer player.
    """

    def __init__(
        self,
        level: str | None = None,
        *,
        seed: int | None = None,
        megabytes: int | None = None,
        threads: int | None = 1,
    ) -> None:
        super().__init__(megabytes=megabytes, threads=threads)
        self.level: Level | None = None if level is None else get_level(level)
        self.rng = random.Random(seed)

    def move(
        self,
        position: Position,
        *,
        level: str | Level | None = None,
        rng: random.Random | None = None,
        cancelled: Cancelled | None = None,
    ) -> Move | None:
        """The level's move in ``position``: its search, then its choice (None when cancelled meanwhile)."""
        chosen = level if isinstance(level, Level) else get_level(level) if level is not None else self.level
        if chosen is None:
            raise ValueError("no level to play at: give Opponent(level) or move(level=...)")
        analysis = analyse_for_level(self._engine_for(position), position, chosen)
        if cancelled is not None and cancelled():
            return None
        return choose_from(analysis, chosen, rng if rng is not None else self.rng)

    def hint(
        self,
        position: Position,
        cancelled: Cancelled | None = None,
        *,
        quick_seconds: float = HINT_QUICK_SECONDS,
        quick_depth: int = HINT_QUICK_DEPTH,
        exact_seconds: float = HINT_SECONDS,
    ) -> Analysis:
        """The perfect player's search of ``position`` for the game's hint: exact when
        ``exact_seconds`` allow, else the quick search's (``quick_depth`` deep, within
        ``quick_seconds``). A bare perfect search that runs out of time knows nothing and falls
        back to the biggest pair, so the depth-limited search goes first as the fallback."""
        quick = self.search(position, Limits(time=quick_seconds, depth=quick_depth))
        if quick.exact or (cancelled is not None and cancelled()):
            return quick
        full = self.search(position, Limits(time=exact_seconds))
        return full if full.exact else quick

    def refute(self, position: Position, seconds: float = REFUTE_SECONDS) -> Move | None:
        """The best reply in ``position`` (a puzzle's position after a wrong move), or None when the
        game ends there."""
        if position.is_over():
            return None
        analysis = self.search(position, Limits(time=seconds))
        return analysis.best_moves[0] if analysis.best_moves else None


class PlainOpponent:
    """The moves of the levels in ``PLAIN_LEVELS`` in plain Python (``solver.plain_search``), for a
    window whose kernels still compile: the same values as the ``Opponent``'s search from an empty
    table, so with the same random numbers the same move. A level up to expert searches to its depth
    (about a second at most, expert's on a quiet core); master deepens within its time limit, and a
    search that is cancelled or told to ``stop`` ends within about 10 ms (``CLOCK_EVERY`` nodes)."""

    def __init__(self) -> None:
        self._stop = threading.Event()

    def move(
        self, position: Position, *, level: str | Level, rng: random.Random, cancelled: Cancelled | None = None
    ) -> Move | None:
        """The level's move in ``position`` (a ValueError for a level not in ``PLAIN_LEVELS``)."""
        chosen = level if isinstance(level, Level) else get_level(level)
        if chosen.name not in PLAIN_LEVELS or chosen.depth is None:
            raise ValueError(f"the {chosen.name} level searches too deep for plain Python")
        every = chosen.temperature > 0
        if chosen.name in TIMED_PLAIN_LEVELS:

            def stopped() -> bool:
                return self._stop.is_set() or (cancelled is not None and cancelled())

            seconds = max(0.0, chosen.time_limit - TIMED_MARGIN)
            analysis = plain_within(position, chosen.depth, seconds, all_exact=every, stopped=stopped)
        else:
            analysis = plain_analysis(position, chosen.depth, all_exact=every)
        if cancelled is not None and cancelled():
            return None
        return choose_from(analysis, chosen, rng)

    def search(
        self,
        position: Position,
        limits: Limits = Limits(),
        *,
        all_exact: bool = False,
        progress: ProgressCallback | None = None,
    ) -> Analysis:
        """The moves' values ``limits.depth`` deep (at most ``PLAIN_MAX_DEPTH``, the default): every
        move's with ``all_exact``, else the best ones'."""
        return plain_analysis(position, min(limits.depth or PLAIN_MAX_DEPTH, PLAIN_MAX_DEPTH), all_exact=all_exact)

    def stop(self) -> None:
        """End a timed search (master's) now; a level's search to its depth ends within a second, and a
        cancelled task's answer is dropped."""
        self._stop.set()

    def clear_stop(self) -> None:
        """Forget a stop that came after the search it was meant for."""
        self._stop.clear()


def solver_player(level: str, seed: int | None = None) -> Callable[[Position], Move]:
    """A function choosing moves at the named level (raises ValueError for an unknown level)."""
    opponent = Opponent(level, seed=seed)

    def choose(position: Position) -> Move:
        move = opponent.move(position)
        assert move is not None  # nothing cancels it
        return move

    return choose


# -- the advisor -----------------------------------------------------------------------------


HINT_TABLE_MEGABYTES = 256


class Advisor(_Service):
    """Searches positions for a person: values, best moves, every move's value.

    The table carries over from one position to the next (the positions of one game, or of
    one analysis, share most of their subtrees).
    """

    def analyse(self, position: Position, every_move: bool, seconds: float = HINT_SECONDS) -> Analysis:
        """``position`` searched for ``seconds`` at most: every move's value with ``every_move``,
        else the best moves."""
        return self.search(position, Limits(time=seconds), all_exact=every_move)

    def deepen(
        self,
        position: Position,
        depths: Sequence[int | None],
        *,
        cancelled: Cancelled,
        report: Callable[[Analysis, int | None], None],
    ) -> Analysis | None:
        """Search ``position`` with every move's value at each of ``depths`` in turn (None: the full
        depth), until one is exact; ``report(analysis, next depth)`` after each, the next depth None
        when it is the last. A search cut short by ``cancelled`` is not reported."""
        latest = None
        for index, depth in enumerate(depths):
            if cancelled():
                break
            analysis = self.search(position, Limits(depth=depth), all_exact=True)
            if cancelled():
                break
            latest = analysis
            final = analysis.exact or index + 1 == len(depths)
            report(analysis, None if final else depths[index + 1])
            if final:
                break
        return latest


def solver_advisor(seconds: float = HINT_SECONDS) -> Callable[[Position, bool], Analysis]:
    """A function that searches a position for ``seconds`` at most (every move's value
    with ``True``, else the best moves), for the terminal's ``hint`` and ``eval``.

    The engine is made at the first call, fitted to that position, and kept."""
    advisor = Advisor(fit=True, max_megabytes=HINT_TABLE_MEGABYTES, threads=None)

    def advise(position: Position, every_move: bool) -> Analysis:
        return advisor.analyse(position, every_move, seconds)

    return advise


# -- the reviewer ----------------------------------------------------------------------------


class Reviewer(_Service):
    """Grades every move of a game against perfect play, one engine for the whole game.

    On one search thread: the budget is counted in nodes, and helper threads would make what a
    count of nodes reaches depend on their timing, so a repeat would grade differently."""

    def __init__(
        self,
        *,
        megabytes: int | None = None,
        fit: bool = False,
        max_megabytes: int | None = None,
        expected: Limits = Limits(),
    ) -> None:
        super().__init__(megabytes=megabytes, fit=fit, max_megabytes=max_megabytes, threads=1, expected=expected)

    def review(
        self,
        game: Game | Record,
        *,
        seconds: float | None = REVIEW_SECONDS,
        progress: Callable[[ReviewStep], None] | None = None,
        should_stop: Cancelled | None = None,
        known_start: KnownStart | None = None,
    ) -> Review:
        """The review of ``game`` with a budget of ``seconds`` a move, counted in nodes
        (``REVIEW_NODES_PER_SECOND`` a second; None: exact). ``progress`` after each
        move; ``should_stop`` polled between moves (``stop`` cuts the running search short too);
        ``known_start``: a catalogued start's exact value and best moves (see ``battle.players.review``)."""
        start = game.start
        return review_game(
            game,
            time_per_move=seconds,
            engine=self._engine_for(start),
            progress=progress,
            should_stop=should_stop,
            known_start=known_start,
        )


def solver_reviewer(seconds: float = REVIEW_SECONDS) -> Callable[[Game], Review]:
    """A function that grades every move of a game against perfect play, a budget of ``seconds`` a move."""

    def review(game: Game) -> Review:
        return Reviewer().review(game, seconds=seconds)

    return review


# -- the survey's deal solver ----------------------------------------------------------------


class DealSolver(_Service):
    """Solves deals exactly for the survey and ``par``, the table fitted to each start (up to
    ``max_megabytes``) and kept while the next start wants the same one, so a worker allocates it
    once. ``threads`` None: one per core, at most 4."""

    def __init__(self, *, max_megabytes: int | None = None, threads: int | None = 1) -> None:
        super().__init__(fit=True, max_megabytes=max_megabytes, threads=threads or default_threads())
        self._bits: int | None = None

    def solve(self, position: Position, stop_after: float | None = None) -> Analysis:
        """The exact value and every best first move, unless ``stop_after`` seconds stop the search
        first (then the estimate of its preview). The limit guards against a runaway search
        without making it deepen step by step, which costs a whole deal about 2.7x the nodes."""
        return self.search(position, Limits(stop_after=stop_after))

    def _engine_for(self, position: Position | None) -> Engine:
        if position is not None:
            bits = engine_table_bits(
                position.tiles_left(), max_megabytes=self._max_megabytes, threads=self._threads or 1
            )
            if bits != self._bits:
                self._engine = None  # the old table goes before the new one is allocated
                self._bits = bits
        return super()._engine_for(position)
