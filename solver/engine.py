"""The solver's Python side: validate, encode, run the kernels, decode.

``Engine`` owns the transposition table and reuses it between searches of
positions from the same layout (a game's positions, the children of an
analysed position), which is where most of the solver's speed comes from.

The parallel search (lazy SMP with ABDADA-style deferral) has two halves. This
module has the threads: ``Engine._helping`` starts the helpers, each on
``Engine._root_values`` with the root moves in another order and with its own
``_Searcher`` (counters, scratch buffers) and copy of the runs and keys, while
the main search runs ``Engine._root_values`` on the caller's thread; results
come from the main search alone. ``solver/_search.py`` has what the threads
share inside ``negamax``: the lockless table and the deferral table ``busy``
(its module docstring maps where).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from battle.rules.board import CELL_COUNT, COLS, ROWS, Move, Position, biggest_pair
from battle.rules.tiles import EMPTY, kind_value
from solver import _search as k
from solver.limits import FULL_DEPTH, ITERATION_DEPTHS, Limits, depth_schedule
from solver.results import Analysis, Bound, MoveValue, Progress, ProgressCallback, SearchStatus
from solver.table_size import (
    MAX_TABLE_BITS,
    MIN_TABLE_BITS,
    allocate_table,
    default_table_megabytes,
    default_threads,
    table_bits_for,
)

DEFAULT_TABLE_BITS = 23
"""2**23 table entries of 16 bytes: 128 MiB."""
KEY_TABLE_SEED = 20261122


HELPER_MIN_TILES = 52
"""Helpers join searches of positions with at least this many tiles. Below, a solve takes
a few milliseconds and starting the threads costs more than they save (48 tiles: up to 3x
slower with a helper; docs/solver-notes.md, "Figures behind the code's comments")."""
BUSY_SLOTS = 1 << 14
"""Subtrees in progress that threads can see (a handful per thread at a time)."""


MAX_THREADS = 64


MAX_NODE_LIMIT = 1 << 62
"""The largest node limit the kernels' counters hold; a larger one means no limit (2**62
nodes would take a thread tens of thousands of years)."""

PREVIEW_MIN_TILES = 88
"""From this many tiles on, a search without limits deepens step by step for a moment
(``PREVIEW_NODES``) before its exact search, which on a complete deal runs for minutes as one
iteration: stopped meanwhile, it answers from that preview's deepest completed iteration
instead of a two-move search. Below, an exact solve takes a few seconds at most."""
PREVIEW_NODES = 1_000_000
"""The preview's budget: depth 20 on a complete deal in about 0.6 s on one thread. The exact
search after it gets the same value and best moves, at -10% to +8% of its time on 88-tile
positions that take 5-18 s (docs/solver-notes.md, "Figures behind the code's comments")."""


@dataclass
class _Root:
    """Kernel-side encoding of a position."""

    cells: np.ndarray
    runs: np.ndarray
    keys: np.ndarray
    points: int

    @classmethod
    def unfilled(cls, cells: np.ndarray, points: int = 0) -> _Root:
        """A root whose runs and keys are still to be written, in the dtypes every kernel call
        is compiled for (another dtype would make numba compile the kernels again)."""
        return cls(cells, np.empty(2 * COLS, dtype=np.int8), np.zeros(k.KEY_WORDS, dtype=np.int64), points)


def _tiles(root: _Root) -> int:
    """Tiles left on the board (a column runs from its top row to its bottom row)."""
    heights = root.runs[COLS:].astype(np.int64) - root.runs[:COLS] + 1
    return int(np.maximum(heights, 0).sum())


class _Searcher:
    """What one thread's kernel calls own: counters (with its stop flag) and scratch space.

    Only the table, the key table, the kinds and the deferral table are shared between threads.
    """

    def __init__(self) -> None:
        self.counters = np.zeros(k.COUNTERS, dtype=np.int64)
        self.workspace = k.make_workspace()


_kernels_loaded: list[bool] = []
"""Set once ``negamax`` has run in this process (see ``Engine._load_kernels``)."""


WARM_UP_TILES = 12
"""The warm-up searches a deal played down to this many tiles: every kernel of the search path
runs (and so loads), and the search itself takes a millisecond."""


def prepare_kernels() -> float:
    """Load every kernel a game's searches use, compiling them on a first run, so that the first
    real search starts at once; returns the seconds it took. Safe from any thread (numba
    compiles a kernel once per process), and a no-op once a search has run."""
    from battle.rules.deal import deal

    started = time.monotonic()
    if not _kernels_loaded:
        position = deal(1)
        while position.tiles_left() > WARM_UP_TILES and position.has_moves():
            position.push(biggest_pair(position))
        Engine(table_bits=MIN_TABLE_BITS).search(position, Limits(), all_exact=True)
    return time.monotonic() - started


def compile_search_kernel() -> None:
    """Compile negamax (with every kernel it calls) for the one signature all searches use,
    without running a kernel first: the larger part of a first run's compile (8 of 10 s),
    which ``solver.compile_ahead`` runs beside ``compile_other_kernels``."""
    import numba

    engine = Engine(table_bits=MIN_TABLE_BITS)
    root = _Root.unfilled(engine.layout.copy())
    k.negamax.compile(tuple(numba.typeof(argument) for argument in engine._loading_call(root)))


def compile_other_kernels() -> None:
    """Compile the kernels a search runs besides negamax (encoding a position, the best line,
    a move and its undo), without running negamax."""
    from battle.rules.deal import deal

    position = deal(1)
    engine = Engine(table_bits=MIN_TABLE_BITS)
    engine._load_other_kernels(engine._encode(position), position.legal_moves())


def kernels_cached() -> bool:
    """Whether the search kernel is in numba's cache, so the first search loads it (about a
    second) rather than compiles it (10-20 s once after an install): a front end can say which
    before it starts. Reads the cache's index file, never the kernel."""
    try:
        index = k.negamax._cache._cache_file._index_path
    except AttributeError:  # a numba without this layout: say nothing rather than guess
        return True
    return os.path.exists(index)


def _kernels_compiled() -> int:
    """How many kernel signatures numba has compiled in this process (cache misses), so
    that a search can tell a one-time compile from loading the cached kernels."""
    return sum(
        sum(kernel.stats.cache_misses.values())
        for kernel in vars(k).values()
        if hasattr(kernel, "stats") and hasattr(kernel.stats, "cache_misses")
    )


def _stop_timer(seconds: float, stop: Callable[[], None]) -> threading.Timer | None:
    """A started daemon timer calling ``stop`` after ``seconds``; None when that is beyond
    what a thread can wait for (``threading.TIMEOUT_MAX``, centuries): no limit in practice."""
    seconds = max(0.0, seconds)
    if not seconds < threading.TIMEOUT_MAX:
        return None
    timer = threading.Timer(seconds, stop)
    timer.daemon = True
    timer.start()
    return timer


def _cancel(timer: threading.Timer | None) -> None:
    """Cancel ``timer`` and wait out a stop it has already begun, so that the stop lands
    before the caller clears it rather than after, on the next search."""
    if timer is not None:
        timer.cancel()
        if timer.is_alive() and timer is not threading.current_thread():
            timer.join()


@dataclass
class _Iteration:
    value: int
    values: dict[Move, tuple[int, Bound]] = field(default_factory=dict)
    exact: bool = False


class Engine:
    """A solver with its own transposition table. Not thread-safe: one search at a time.

    ``stop()`` may be called from any thread; the running search ends within
    milliseconds and returns what it has.
    """

    def __init__(
        self, table_bits: int = DEFAULT_TABLE_BITS, threads: int = 1, helper_min_tiles: int = HELPER_MIN_TILES
    ) -> None:
        """``threads`` > 1 adds helper threads to searches of positions with at
        least ``helper_min_tiles`` tiles (lazy SMP): they search the same root in
        other orders and share the table, so the main search finds more of its
        subtrees already solved. Results come from the main search alone;
        helpers only make it faster.

        The table has 2**``table_bits`` entries of 16 bytes, but at least
        2**``MIN_TABLE_BITS`` (32 MiB).
        """
        if not 10 <= table_bits <= MAX_TABLE_BITS:
            raise ValueError(f"table_bits must be 10..{MAX_TABLE_BITS}, not {table_bits}")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be 1..{MAX_THREADS}, not {threads}")
        self.tt = allocate_table(1 << max(table_bits, MIN_TABLE_BITS))
        self.key_table = k.make_key_table(KEY_TABLE_SEED)
        self._main = _Searcher()
        self.counters = self._main.counters
        self.layout = np.full(CELL_COUNT, EMPTY, dtype=np.int8)
        self.exposed = np.zeros(k.TAKES, dtype=np.int16)
        """What each column take uncovers in this layout (``_search.fill_exposures``)."""
        self._parity = -1
        self._helpers = [_Searcher() for _ in range(threads - 1)]
        self._helper_min_tiles = helper_min_tiles
        self.busy = np.zeros(BUSY_SLOTS if threads > 1 else 1, dtype=np.int64)
        self._helper_nodes = 0
        self._lock = threading.Lock()
        self._stopping = threading.RLock()  # re-entrant: a signal handler may stop its own thread's search
        self._answering = False
        """Set while a stopped or finished search works out its answer (``_answer_now``)."""
        self._started = time.perf_counter()
        self._loading = False
        self._root_state: tuple[int, int, int, Move | None, int | None, Move | None] = (0, 0, 0, None, None, None)
        self._proved: int | None = None
        """The least the root's value can be, proved by the running (or last) search so far."""

    # -- table management --------------------------------------------------------------

    def clear(self) -> None:
        """Forget everything (the next search starts cold)."""
        self.tt[:] = 0
        self.layout[:] = EMPTY
        self.exposed[:] = 0
        self._parity = -1

    def agrees(self, position: Position) -> bool:
        """Whether a search of ``position`` keeps this table (``_adopt_layout``): its tiles are where the
        table's layout has them, with the same parities of the kinds' counts. A pool worker keeps an
        engine per layout and sends each position to the one it agrees with."""
        cells = np.asarray(position.cells, dtype=np.int8)
        present = cells != EMPTY
        both = present & (self.layout != EMPTY)
        counts = np.bincount(cells[present], minlength=k.KINDS)
        parity = int(np.dot(counts & 1, 1 << np.arange(k.KINDS, dtype=np.int64)))
        return not np.any(self.layout[both] != cells[both]) and self._parity in (-1, parity)

    def _adopt_layout(self, cells: np.ndarray) -> None:
        """Keep the table if the new position's tiles agree with what it was built on.

        Entries are keyed on column runs alone, which is sound only while every
        cell holds the same kind in all positions searched with this table; and on
        the counts of each kind halved, which is sound only while the counts'
        parities stay the same (a search only takes pairs; an editor's position
        may have odd counts).
        """
        present = cells != EMPTY
        known = self.layout != EMPTY
        both = present & known
        counts = np.bincount(cells[present], minlength=k.KINDS)
        parity = int(np.dot(counts & 1, 1 << np.arange(k.KINDS, dtype=np.int64)))
        if np.any(self.layout[both] != cells[both]) or self._parity not in (-1, parity):
            self.clear()
        self._parity = parity
        if np.any(self.layout[present] != cells[present]):
            self.layout[present] = cells[present]
            k.fill_exposures(self.layout, self.exposed)

    def _encode(self, position: Position) -> _Root:
        cells = np.asarray(position.cells, dtype=np.int8)
        self._adopt_layout(cells)
        # The kernels read kinds from the layout, which also covers removed cells.
        root = _Root.unfilled(self.layout.copy(), position.points_on_board())
        for col in range(COLS):
            top, bottom = position.column_run(col)
            if top > bottom:
                top, bottom = ROWS, ROWS - 1
            root.runs[col], root.runs[COLS + col] = top, bottom
        k.compute_keys(self.layout, root.runs, self.key_table, root.keys)
        return root

    # -- stopping ----------------------------------------------------------------------

    def stop(self) -> None:
        """Ask the running search to end now (safe from any thread). Once it has ended and works out
        its answer (a two-move search, the best line: milliseconds), a stop changes nothing; the
        search clears it at its end, as it does one that came while it ran."""
        with self._stopping:
            if self._answering:
                return
            self.counters[k.C_STOP] = 1
            for helper in self._helpers:
                helper.counters[k.C_STOP] = 1

    def _answer_now(self) -> None:
        """The search proper is over: what follows (the answer's short searches) runs to its end.
        The kernel reads the stop at every node, so a second Ctrl-C or a stop timer firing during
        the answer would otherwise leave it without one."""
        with self._stopping:
            self._answering = True
            self.clear_stop()

    def clear_stop(self) -> None:
        """Forget a stop that came after the search it was meant for (a search keeps one that came
        just before it began, so a caller that runs searches for others clears it between them)."""
        self.counters[k.C_STOP] = 0
        for helper in self._helpers:
            helper.counters[k.C_STOP] = 0

    @property
    def threads(self) -> int:
        return 1 + len(self._helpers)

    def status(self) -> SearchStatus:
        """The running search's state, safe to read from another thread (the last
        search's, when none runs)."""
        depth, number, count, move, best, best_move = self._root_state
        return SearchStatus(
            self._nodes(),
            time.perf_counter() - self._started,
            depth,
            number,
            count,
            move,
            best,
            best_move,
            self._loading,
            self._proved,
        )

    def _nodes(self) -> int:
        """Nodes of this search, helpers' included."""
        return (
            int(self.counters[k.C_NODES])
            + self._helper_nodes
            + sum(int(helper.counters[k.C_NODES]) for helper in self._helpers)
        )

    # -- kernel calls ------------------------------------------------------------------

    def _child_value(
        self, root: _Root, move: Move, depth: int, alpha: int, beta: int, searcher: _Searcher | None = None
    ) -> int:
        """The move's score for the mover, searched with window (alpha, beta)."""
        searcher = searcher or self._main
        a, b = move
        gain = kind_value(int(root.cells[a]))
        saved = k.apply_move(root.cells, root.runs, root.keys, self.key_table, a, b)
        child = k.negamax(
            root.cells,
            self.exposed,
            root.runs,
            root.keys,
            self.key_table,
            self.tt,
            self.busy,
            searcher.counters,
            *searcher.workspace,
            1,
            depth - 1,
            gain - beta,
            gain - alpha,
            root.points - gain,
        )
        k.undo_move(root.cells, root.runs, root.keys, self.key_table, a, b, saved)
        return gain - int(child)

    def _order(self, root: _Root, moves: list[Move], previous: _Iteration | None) -> list[Move]:
        """Best first: the previous iteration's values, else points."""
        if previous is not None:
            return sorted(moves, key=lambda m: -previous.values.get(m, (-k.INF, ""))[0])
        entry = k.tt_probe(self.tt, root.keys)
        tt_move = -1 if entry == 0 else int(k.entry_move(entry))
        return sorted(moves, key=lambda m: (m[0] * 128 + m[1] != tt_move, -kind_value(int(root.cells[m[0]]))))

    def _iterate(
        self, root: _Root, moves: list[Move], depth: int, all_exact: bool, previous: _Iteration | None
    ) -> _Iteration | None:
        """One full-width root iteration; None if it was stopped."""
        inexact0 = int(self.counters[k.C_INEXACT])
        ordered = self._order(root, moves, previous)
        with self._helping(root, ordered, depth, all_exact):
            values = self._root_values(root, ordered, depth, all_exact, self._main)
        if values is None:
            return None
        best = max(value for value, _ in values.values())
        exact = int(self.counters[k.C_INEXACT]) == inexact0
        # A value found below the best is only a bound, exact or not.
        return _Iteration(best, values, exact)

    def _root_values(
        self, root: _Root, ordered: list[Move], depth: int, all_exact: bool, searcher: _Searcher
    ) -> dict[Move, tuple[int, Bound]] | None:
        """Each root move's score, exact for the best ones; None if stopped."""
        values: dict[Move, tuple[int, Bound]] = {}
        best = -k.INF
        best_move: Move | None = None
        bound_window = root.points + 9
        for index, move in enumerate(ordered):
            if searcher is self._main:
                self._root_state = (
                    depth,
                    index + 1,
                    len(ordered),
                    move,
                    None if best_move is None else best,
                    best_move,
                )
            if all_exact or index == 0:
                score = self._child_value(root, move, depth, -bound_window, bound_window, searcher)
                values[move] = (score, "exact")
            else:
                # Is it at least as good as the best so far? A tie must be found
                # too, since every best move is reported.
                score = self._child_value(root, move, depth, best - 1, best, searcher)
                if score >= best:
                    score = self._child_value(root, move, depth, best - 1, bound_window, searcher)
                    values[move] = (score, "exact") if score >= best else (score, "upper")
                else:
                    values[move] = (score, "upper")
            if searcher.counters[k.C_ABORTED]:
                return None
            if score > best:
                best, best_move = score, move
                if (
                    searcher is self._main
                    and depth >= _tiles(root) // 2
                    and (self._proved is None or self._proved < score)
                ):
                    self._proved = score  # an iteration that reaches the game's end proves its best so far
        return values

    @contextlib.contextmanager
    def _helping(self, root: _Root, ordered: list[Move], depth: int, all_exact: bool) -> Iterator[None]:
        """Run the helpers on the same iteration while the main search does it.

        The first helper searches the first root move alongside the main
        search (the shared table and the busy marks split that subtree, which
        is most of the work), then the other moves from the last one back, so
        that the two meet in the middle. Having the first move's value, it
        tests the others with null windows as the main search does (taking all
        moves in reverse order would make it prove the worst moves' values with a
        full window first: 18% more nodes). Further helpers take other rotations. Each works on its own copy of the
        runs and keys.
        """
        if not self._helpers or len(ordered) < 2 or _tiles(root) < self._helper_min_tiles:
            yield
            return
        threads = []
        for number, helper in enumerate(self._helpers, start=1):
            helper.counters[:] = 0
            helper.counters[k.C_STOP] = self.counters[k.C_STOP]
            if number == 1:
                order = ordered[:1] + ordered[:0:-1]
            else:
                rotation = (number // 2) % len(ordered)
                order = ordered[rotation:] + ordered[:rotation]
                if number % 2:
                    order.reverse()
            copy = _Root(root.cells, root.runs.copy(), root.keys.copy(), root.points)
            thread = threading.Thread(
                target=self._root_values,
                args=(copy, order, depth, all_exact, helper),
                name=f"solver-helper-{number}",
                daemon=True,
            )
            thread.start()
            threads.append(thread)
        try:
            yield
        finally:
            for helper in self._helpers:
                helper.counters[k.C_STOP] = 1
            for thread in threads:
                thread.join()
            self._helper_nodes += sum(int(helper.counters[k.C_NODES]) for helper in self._helpers)
            for helper in self._helpers:
                helper.counters[:] = 0

    # -- public searches ---------------------------------------------------------------

    def search(
        self,
        position: Position,
        limits: Limits = Limits(),
        *,
        all_exact: bool = False,
        progress: ProgressCallback | None = None,
    ) -> Analysis:
        """Iterative deepening until the value is proved or one of ``limits`` is reached.

        With ``all_exact`` every move's value is searched with a full window
        (what ``analyse`` shows); otherwise moves that cannot be best get an
        upper bound only, which is much cheaper.

        ``limits.time`` counts from the start of the search proper, once the
        kernels are loaded; ``limits.deadline`` and ``limits.stop_after`` are
        described on ``Limits``. A limit too large to wait for is no limit.
        ``stop()`` from another thread ends the search as a limit does.
        """
        with self._lock:
            return self._search(position, limits, all_exact, progress)

    def _load_kernels(self, root: _Root, moves: list[Move]) -> None:
        """Load the search kernel (on a new machine: compile it, 10-20 s) before any clock starts.

        Otherwise the first search with a time limit spends its seconds on that and
        answers from a shallow search. A call with no points on the board returns at once.
        """
        k.negamax(*self._loading_call(root))
        self._load_other_kernels(root, moves)
        _kernels_loaded.append(True)

    def _loading_call(self, root: _Root) -> tuple:
        """The arguments of a negamax call at the root that returns at once (depth 1, window -1..1)."""
        return (
            root.cells,
            self.exposed,
            root.runs,
            root.keys,
            self.key_table,
            self.tt,
            self.busy,
            self._main.counters,
            *self._main.workspace,
            0,
            1,
            -1,
            1,
            0,
        )

    def _load_other_kernels(self, root: _Root, moves: list[Move]) -> None:
        k.line_candidates(
            root.cells, root.runs, root.keys, self.tt, self._main.workspace[0], np.empty(k.MAX_MOVES, dtype=np.int64)
        )
        if moves:  # a move and its undo: the position is left as it was
            a, b = moves[0]
            saved = k.apply_move(root.cells, root.runs, root.keys, self.key_table, a, b)
            k.undo_move(root.cells, root.runs, root.keys, self.key_table, a, b, saved)

    def _search(
        self, position: Position, limits: Limits, all_exact: bool, progress: ProgressCallback | None
    ) -> Analysis:
        deadline = limits.deadline
        if not _kernels_loaded:
            self._started = time.perf_counter()
            self._loading = True
            loading_since, compiled = time.monotonic(), _kernels_compiled()
            try:
                self._load_kernels(self._encode(position), position.legal_moves())
            finally:
                self._loading = False
            if deadline is not None and _kernels_compiled() > compiled:
                deadline += time.monotonic() - loading_since
        started = time.perf_counter()
        self._started = started
        self._root_state = (0, 0, 0, None, None, None)
        self._proved = None
        # Every counter starts at 0 but the stop: one that arrived just before the search began, or
        # arrives while the others are zeroed, was meant for it (read and written back, it could be lost).
        self.counters[: k.C_STOP] = 0
        self.counters[k.C_STOP + 1 :] = 0
        self._helper_nodes = 0
        if limits.nodes:
            self.counters[k.C_NODE_LIMIT] = min(limits.nodes, MAX_NODE_LIMIT)
        elif limits.stop_after_nodes:
            self.counters[k.C_NODE_LIMIT] = min(limits.stop_after_nodes, MAX_NODE_LIMIT)
        seconds = [
            limit
            for limit in (limits.time, None if deadline is None else deadline - time.monotonic())
            if limit is not None
        ]
        stops = seconds if limits.stop_after is None else [*seconds, limits.stop_after]
        timer = None
        if stops and min(stops) <= 0:
            # The time is up before the search began (a command whose start-up took its whole
            # --time): stopped here, not by a timer thread, which a loaded machine starts late
            # while the iterations run on; the answer is the two-move search below, in milliseconds.
            self.stop()
        elif stops:
            timer = _stop_timer(min(stops), self.stop)
        try:
            root = self._encode(position)
            moves = position.legal_moves()
            if not moves:
                return Analysis(0, [], [], [], (position.scores[0], position.scores[1]), True, 0, 0.0, FULL_DEPTH)
            max_depth = FULL_DEPTH if limits.depth is None else max(1, min(limits.depth, FULL_DEPTH))
            limited = limits.limited
            done: _Iteration | None = None
            done_depth = 0

            def report(iteration: _Iteration, depth: int) -> None:
                if progress is not None:
                    progress(
                        Progress(
                            FULL_DEPTH if iteration.exact else depth,
                            iteration.value,
                            self._best_of(iteration)[0] if iteration.values else None,
                            self._nodes(),
                            time.perf_counter() - started,
                            iteration.exact,
                        )
                    )

            # A search stopped before it began goes straight to the answer below: each iteration's
            # kernel would end at its first node, and the root's Python would still walk every move.
            stopped = bool(self.counters[k.C_STOP])
            if not stopped and not limited and max_depth == FULL_DEPTH and _tiles(root) >= PREVIEW_MIN_TILES:
                done, done_depth = self._preview(root, moves, all_exact, report)
            if not stopped and (done is None or not (done.exact or self.counters[k.C_STOP])):
                done, done_depth = self._deepen(
                    root, moves, depth_schedule(max_depth, limited=limited), all_exact, done, done_depth, report
                )
            if done is not None and done.exact:
                done_depth = FULL_DEPTH
            # The search proper is over: the answer's short searches (a two-move search, the best
            # line read from the table) run to their end, whatever limit or stop comes.
            _cancel(timer)
            self._answer_now()
            if done is None:
                # Stopped before any iteration finished: answer from a two-move
                # search, which takes milliseconds, rather than with nothing.
                self.counters[k.C_ABORTED] = 0
                self.counters[k.C_NODE_LIMIT] = 0
                done = self._iterate(root, moves, min(2, max_depth), all_exact, None)
                done_depth = min(2, max_depth)
                assert done is not None
                done.exact = done.exact and done_depth == max_depth
            return self._finish(position, root, moves, done, done_depth, started)
        finally:
            _cancel(timer)
            with self._stopping:
                self._answering = False
                self.counters[k.C_STOP] = 0

    def _preview(
        self, root: _Root, moves: list[Move], all_exact: bool, report: Callable[[_Iteration, int], None]
    ) -> tuple[_Iteration | None, int]:
        """Deepen step by step within ``PREVIEW_NODES``: the deepest completed iteration and its depth.

        What a search stopped during the exact search that follows answers with. The
        budget is a node limit, not the stop flag, so that a stop from the caller meanwhile
        stays set and ends the whole search.
        """
        stop_after = int(self.counters[k.C_NODE_LIMIT])  # ``Limits.stop_after_nodes``, else 0
        self.counters[k.C_NODE_LIMIT] = PREVIEW_NODES if not stop_after else min(PREVIEW_NODES, stop_after)
        done, done_depth = self._deepen(root, moves, ITERATION_DEPTHS, all_exact, None, 0, report)
        self.counters[k.C_NODE_LIMIT] = stop_after
        self.counters[k.C_ABORTED] = 0
        return done, done_depth

    def _deepen(
        self,
        root: _Root,
        moves: list[Move],
        depths: Iterable[int],
        all_exact: bool,
        done: _Iteration | None,
        done_depth: int,
        report: Callable[[_Iteration, int], None],
    ) -> tuple[_Iteration | None, int]:
        """Search ``depths`` in turn from ``done`` until one is cut short or proves the value:
        the deepest completed iteration and its depth (``done`` and ``done_depth`` if none)."""
        for depth in depths:
            iteration = self._iterate(root, moves, depth, all_exact, done)
            if iteration is None:
                break
            done, done_depth = iteration, depth
            report(iteration, depth)
            if iteration.exact:
                break
        return done, done_depth

    def _best_of(self, iteration: _Iteration) -> list[Move]:
        return sorted(m for m, (v, bound) in iteration.values.items() if v == iteration.value and bound != "upper")

    def _finish(self, position, root, moves, done: _Iteration, depth: int, started: float) -> Analysis:
        exact = done.exact and depth == FULL_DEPTH
        move_values = []
        for move in moves:
            value, bound = done.values.get(move, (-k.INF, "estimate"))
            if value == -k.INF:
                continue
            if not exact:
                bound = "estimate" if bound == "exact" else bound
            move_values.append(MoveValue(move, value, bound, FULL_DEPTH if exact else depth))
        move_values.sort(key=lambda mv: (-mv.value, mv.bound != "exact" and mv.bound != "estimate", mv.move))
        best_moves = self._best_of(done)
        pv = self._principal_variation(root, best_moves[0], done.value, depth) if best_moves else []
        final = _play_out(position, pv)
        return Analysis(
            value=done.value,
            best_moves=best_moves,
            pv=pv,
            move_values=move_values,
            final_score=final,
            exact=exact,
            nodes=self._nodes(),
            seconds=time.perf_counter() - started,
            depth=FULL_DEPTH if exact else depth,
        )

    def _principal_variation(self, root: _Root, first: Move, value: int, depth: int) -> list[Move]:
        """Follow moves that keep the value, using the (warm) table to find them.

        Works on the kernel's arrays throughout: a Position copied, encoded and
        asked for its legal moves at every ply cost more than the searches.
        Beyond the depth of a limited search the values shift with what the table
        holds; there the line follows the table's move when no move keeps the value.
        The stop is clear here and stays so (``_answer_now``).
        """
        self.counters[k.C_ABORTED] = 0
        self.counters[k.C_NODE_LIMIT] = 0
        node = _Root(root.cells, root.runs.copy(), root.keys.copy(), root.points)
        candidates = np.empty(k.MAX_MOVES, dtype=np.int64)
        line: list[Move] = []
        move: Move | None = first
        remaining = depth
        while move is not None and remaining > 0:
            gain = kind_value(int(node.cells[move[0]]))
            k.apply_move(node.cells, node.runs, node.keys, self.key_table, *move)
            node.points -= gain
            line.append(move)
            value = gain - value  # the new mover's value
            remaining -= 1
            if remaining <= 0:
                break
            count = k.line_candidates(node.cells, node.runs, node.keys, self.tt, self._main.workspace[0], candidates)
            if count == 0:
                break
            found = [(int(c) >> 7, int(c) & 127) for c in candidates[:count]]
            move = next(
                (m for m in found if self._child_value(node, m, remaining, value - 1, value + 1) == value),
                found[0] if depth < FULL_DEPTH else None,
            )
        return line


def _play_out(position: Position, line: list[Move]) -> tuple[int, int]:
    """The scores once the line is played: each move's points to the players in turn.

    Counted, not played: the line's moves come from the kernel's own move lists,
    and a copied Position validating each move took a tenth of a 40-tile solve.
    """
    scores = [position.scores[0], position.scores[1]]
    player = position.to_move - 1
    for a, _ in line:
        scores[player] += kind_value(position.cells[a])
        player = 1 - player
    return (scores[0], scores[1])


def engine_for(
    tiles: int, *, max_megabytes: int | None = None, threads: int | None = None, limits: Limits = Limits()
) -> Engine:
    """An engine sized for a position of ``tiles`` tiles: the table that size needs (or that a
    search within ``limits``' time or nodes can fill), up to ``max_megabytes`` (default:
    ``default_table_megabytes``), and ``threads`` threads (default: ``default_threads``).
    What the command line's solve, analyse and review use."""
    threads = threads or default_threads()
    return Engine(
        engine_table_bits(tiles, max_megabytes=max_megabytes, threads=threads, limits=limits), threads=threads
    )


def engine_table_bits(
    tiles: int, *, max_megabytes: int | None = None, threads: int = 1, limits: Limits = Limits()
) -> int:
    """The table ``engine_for`` gives a position of ``tiles`` tiles, as a power of two: for a
    caller that keeps an engine between positions and must know when it wants another one."""
    return table_bits_for(tiles, max_megabytes or default_table_megabytes(), limits=limits, threads=threads)


def solve(
    position: Position,
    limits: Limits = Limits(),
    *,
    all_exact: bool = False,
    threads: int | None = None,
    progress: ProgressCallback | None = None,
) -> Analysis:
    """Solve one position with an engine of its own: the scripting entry point.

    Exact (``exact`` true, the complete set of best moves) unless one of ``limits``
    (``Limits(time=2)``: seconds, nodes, depth) stops the search first, in which case
    the best move found so far and estimated values.
    With ``all_exact`` every move gets its exact value, as in ``mahjong-battle
    analyse``. A caller solving many positions of one game should keep an
    ``Engine`` instead: its table carries over from one position to the next.
    """
    engine = engine_for(position.tiles_left(), threads=threads, limits=limits)
    return engine.search(position, limits, all_exact=all_exact, progress=progress)
