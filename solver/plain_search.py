"""The levels' search in plain Python, for the moves played while the kernels compile.

A fresh install compiles the numba kernels once (``solver.compile_ahead``: 20-25 s of a quiet
core, 142 s on a loaded 2-core machine). The levels with a fixed depth up to expert's 8
(beginner 1, casual 2, club 4, expert 8) need so few nodes that plain Python answers in
milliseconds to a third of a second (expert: 62 ms median, 294 ms at most on 32 positions;
``benchmarks/plain_search.py``), so their first moves need not wait for the compile. Master's
depth 16 takes 2.5 s median, 19 s at most (2-5 times the kernel's nodes, at about 100,000 a
second): its moves deepen step by step within its 5 s, as the kernel's search under a time limit
does, and answer from the deepest depth completed (``plain_within``). Perfect searches to the end
and waits for the kernels.

It is the kernel's search at the same depth, node for node in what it values:

* a position's value is the mover's points to come minus the opponent's (negamax);
* a leaf is a board with no points left (0), a board whose every column holds at most two
  tiles (every tile free: ``greedy_alternation`` is exact there), or the horizon (depth 0:
  ``greedy_alternation`` as the estimate);
* of the "tempo" kinds (every copy left free, in columns of at most two tiles) only the one
  with the most points is played below the root, as ``_generate_moves`` does;
* alpha-beta with a table of bounds by runs (a position always lies the same number of moves
  below the root, so an entry is always for the depth asked), which changes no value;
* with ``all_exact`` the root's every legal move gets its value; without, the best ones do and
  the others an upper bound, as ``Engine`` probes them, so the best moves are the same set.

So a level choosing from it with the same random numbers plays the move the kernel would
(``tests/solver/test_plain_search.py`` compares them on a set of positions). Nothing is shared
with the kernel's table: it answers the first moves of a game, from an empty table as the
kernel's first searches do.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

from battle.rules.board import COLS, ROWS, Move, Position
from battle.rules.tiles import EMPTY, kind_value
from solver.levels import LEVELS
from solver.limits import depth_schedule
from solver.results import Analysis, Bound, MoveValue

PLAIN_MAX_DEPTH = 8
"""The deepest level searched to its depth here (expert): depth 8 takes at most 0.3 s a move in plain
Python on 32 positions, depth 16 (master) up to 19 s (``benchmarks/README.md``)."""
PLAIN_LEVELS: tuple[str, ...] = tuple(name for name, level in LEVELS.items() if level.depth is not None)
"""The levels whose moves plain Python finds without the kernels: beginner, casual, club and expert
to their depth (1, 2, 4 and 8), master within its time (``TIMED_PLAIN_LEVELS``)."""
TIMED_PLAIN_LEVELS: tuple[str, ...] = tuple(
    name for name in PLAIN_LEVELS if (LEVELS[name].depth or 0) > PLAIN_MAX_DEPTH
)
"""The levels whose plain Python search stops at the level's time limit, before its depth when the
time is short (master: depth 16 within 5 s)."""
TIMED_MARGIN = 0.25
"""Seconds of a timed level's limit kept for choosing and showing its move: beside two busy loops
master's reply came 5.1 s after the player's move with the whole 5 s searched."""
CLOCK_EVERY = 1024
"""Nodes between two readings of the clock in a timed search: about 10 ms of plain Python."""

_INFINITY = 1 << 20
"""Beyond any value (a board holds 270 points)."""

_Runs = tuple[tuple[int, int], ...]


class _OutOfTime(Exception):
    """A timed search's deadline passed, or its caller stopped it: the iteration is dropped."""


"""Each column's (top row, bottom row); empty when top > bottom."""


class _Board:
    """The kinds in their cells (fixed) and a table of bounds by runs: (lower, upper, best move)."""

    def __init__(self, position: Position) -> None:
        self.cells = list(position.cells)
        self.rows_of: list[dict[int, list[int]]] = [{} for _ in range(COLS)]
        """Each column's rows of each kind, to find a kind's copies inside a column (not free)."""
        for cell, kind in enumerate(self.cells):
            if kind != EMPTY:
                self.rows_of[cell // ROWS].setdefault(kind, []).append(cell % ROWS)
        self.table: dict[_Runs, tuple[int, int, Move | None]] = {}
        self.nodes = 0
        self.deadline: float | None = None
        """A ``time.monotonic()`` reading the search stops at (``_OutOfTime``), if any."""
        self.stopped: Callable[[], bool] | None = None
        """Read with the clock: True stops the search (a cancelled move)."""

    def check(self) -> None:
        """Stop the search (``_OutOfTime``) once its deadline passed or its caller said so."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise _OutOfTime
        if self.stopped is not None and self.stopped():
            raise _OutOfTime

    def runs_of(self, position: Position) -> _Runs:
        runs = []
        for col in range(COLS):
            rows = [row for row in range(ROWS) if self.cells[col * ROWS + row] != EMPTY]
            runs.append((rows[0], rows[-1]) if rows else (ROWS, -1))
        return tuple(runs)

    def free_by_kind(self, runs: _Runs) -> tuple[dict[int, list[int]], set[int]]:
        """The free cells of each kind, and the settled cells (in columns of at most two tiles)."""
        cells = self.cells
        free: dict[int, list[int]] = {}
        settled: set[int] = set()
        for col, (top, bottom) in enumerate(runs):
            if top > bottom:
                continue
            ends = (col * ROWS + top,) if top == bottom else (col * ROWS + top, col * ROWS + bottom)
            for cell in ends:
                free.setdefault(cells[cell], []).append(cell)
            if bottom - top < 2:
                settled.update(ends)
        return free, settled

    def tempo_kinds(self, runs: _Runs, free: dict[int, list[int]], settled: set[int]) -> list[int]:
        """The kinds whose every copy left is free and settled: none inside a column."""
        return [
            kind
            for kind, cells in free.items()
            if len(cells) >= 2
            and all(cell in settled for cell in cells)
            and not any(
                top < row < bottom
                for col, (top, bottom) in enumerate(runs)
                if bottom - top >= 2
                for row in self.rows_of[col].get(kind, ())
            )
        ]

    def greedy(self, free: dict[int, list[int]]) -> int:
        """``greedy_alternation``: the free pairs taken in turn, biggest first; the mover's margin."""
        values = sorted(
            (kind_value(kind) for kind, cells in free.items() for _ in range(len(cells) // 2)), reverse=True
        )
        return sum(values[0::2]) - sum(values[1::2])

    def value(self, runs: _Runs, depth: int, alpha: int, beta: int, points: int) -> int:
        """The mover's value ``depth`` moves deep (``points``: what is left on the board), fail-soft
        within (alpha, beta): at most alpha if the value is, at least beta if the value is, else
        the value itself. Requires alpha < beta."""
        self.nodes += 1
        if not self.nodes % CLOCK_EVERY:
            self.check()
        if points == 0:
            return 0
        free, settled = self.free_by_kind(runs)
        if depth <= 0 or all(bottom - top < 2 for top, bottom in runs):
            return self.greedy(free)
        known = self.table.get(runs)
        first = None
        if known is not None:
            lower, upper, first = known
            if lower >= beta or lower == upper:
                return lower
            if upper <= alpha:
                return upper
            alpha, beta = max(alpha, lower), min(beta, upper)
        moves = self.moves(free, settled, self.tempo_kinds(runs, free, settled))
        if not moves:
            return 0
        cells = self.cells
        # the table's move first, then the biggest pairs: 2-5 times the kernel's nodes at depth 8-16
        moves.sort(key=lambda move: (move != first, -kind_value(cells[move[0]])))
        floor = alpha
        best, best_move = -_INFINITY, None
        for a, b in moves:
            gain = kind_value(cells[a])
            score = gain - self.value(self.after(runs, a, b), depth - 1, gain - beta, gain - alpha, points - gain)
            if score > best:
                best, best_move = score, (a, b)
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        self.table[runs] = (
            best if best > floor else -_INFINITY,
            best if best < beta else _INFINITY,
            best_move,
        )
        return best

    def moves(self, free: dict[int, list[int]], settled: set[int], tempo: list[int]) -> list[Move]:
        """The node's moves as the kernel generates them: one per settled copy, one tempo kind."""
        best_tempo = max(tempo, key=lambda kind: (kind_value(kind), -kind)) if tempo else None
        moves: list[Move] = []
        for kind, cells in free.items():
            if len(cells) < 2 or (kind in tempo and kind != best_tempo):
                continue
            calm = sorted(cell for cell in cells if cell in settled)
            loose = sorted(cell for cell in cells if cell not in settled)
            for index, a in enumerate(loose):
                moves.extend((a, b) for b in loose[index + 1 :])
                if calm:
                    moves.append((min(a, calm[0]), max(a, calm[0])))
            if len(calm) >= 2:
                moves.append((calm[0], calm[1]))
        return moves

    def after(self, runs: _Runs, a: int, b: int) -> _Runs:
        """The runs once the tiles in cells ``a`` and ``b`` (free ones: column ends) are taken."""
        changed = list(runs)
        for cell in (a, b):
            col, row = divmod(cell, ROWS)
            top, bottom = changed[col]
            changed[col] = (top + 1, bottom) if row == top else (top, bottom - 1)
        return tuple(changed)


def plain_within(
    position: Position,
    depth: int,
    seconds: float,
    *,
    all_exact: bool = True,
    stopped: Callable[[], bool] | None = None,
) -> Analysis:
    """The deepest of ``plain_analysis``'s answers at the kernel's limited depths (1, 2, 3, 4, 6, 8,
    ... ``depth``) completed within ``seconds`` (or before ``stopped`` says so), as the kernel's
    ``Engine.search(position, Limits(time=seconds, depth=depth))`` answers from its deepest
    completed iteration. Depth 1 is always searched (milliseconds)."""
    started = time.perf_counter()
    deadline = time.monotonic() + seconds
    done: Analysis | None = None
    nodes = 0
    for step in depth_schedule(depth, limited=True):
        try:
            found = plain_analysis(position, step, all_exact=all_exact, deadline=deadline, stopped=stopped)
        except _OutOfTime as out:
            nodes += out.args[0] if out.args else 0
            break
        done, nodes = found, nodes + found.nodes
    if done is None:
        done = plain_analysis(position, 1, all_exact=all_exact)
        nodes += done.nodes
    return dataclasses.replace(done, nodes=nodes, seconds=time.perf_counter() - started)


def plain_analysis(
    position: Position,
    depth: int,
    *,
    all_exact: bool = True,
    deadline: float | None = None,
    stopped: Callable[[], bool] | None = None,
) -> Analysis:
    """The legal moves' values ``depth`` moves deep, as the kernel's ``Engine.search(position,
    Limits(depth=depth), all_exact=all_exact)`` gives them from an empty table: every move's with
    ``all_exact``, else the best moves' and an upper bound for the others. Any depth from 1 is
    searched, though beyond ``PLAIN_MAX_DEPTH`` a move takes seconds to minutes. Past ``deadline``
    (a ``time.monotonic()`` reading) or once ``stopped()`` is true, ``_OutOfTime`` carrying the
    nodes searched."""
    if depth < 1:
        raise ValueError(f"plain search depth must be 1 or more: {depth!r}")
    started = time.perf_counter()
    board = _Board(position)
    board.deadline, board.stopped = deadline, stopped
    try:
        return _root_analysis(position, board, depth, all_exact, started)
    except _OutOfTime:
        raise _OutOfTime(board.nodes) from None


def _root_analysis(position: Position, board: _Board, depth: int, all_exact: bool, started: float) -> Analysis:
    runs = board.runs_of(position)
    points = position.points_on_board()
    window = points + 9
    values: dict[Move, tuple[int, Bound]] = {}
    best = -_INFINITY
    for index, (a, b) in enumerate(sorted(position.legal_moves(), key=lambda m: -kind_value(board.cells[m[0]]))):
        gain = kind_value(board.cells[a])
        child = board.after(runs, a, b)
        if all_exact or index == 0:
            score = gain - board.value(child, depth - 1, gain - window, gain + window, points - gain)
            values[(a, b)] = (score, "estimate")
        else:
            # as the kernel's root: a null window asks whether it ties or beats the best so far
            score = gain - board.value(child, depth - 1, gain - best, gain - best + 1, points - gain)
            if score >= best:
                score = gain - board.value(child, depth - 1, gain - window, gain - best + 1, points - gain)
            values[(a, b)] = (score, "estimate" if score >= best else "upper")
        best = max(best, score)
    # "estimate" as the kernel's depth-limited answers are; a level's choice reads only the values
    move_values = sorted(
        (MoveValue(move, value, bound, depth) for move, (value, bound) in values.items()),
        key=lambda mv: (-mv.value, mv.bound != "estimate", mv.move),
    )
    best = move_values[0].value if move_values else 0
    best_moves = sorted(mv.move for mv in move_values if mv.value == best and mv.bound != "upper")
    pv = best_moves[:1]
    scores = list(position.scores)
    if pv:
        scores[position.to_move - 1] += kind_value(board.cells[pv[0][0]])
    return Analysis(
        best,
        best_moves,
        pv,
        move_values,
        (scores[0], scores[1]),
        False,
        board.nodes,
        time.perf_counter() - started,
        depth,
    )
