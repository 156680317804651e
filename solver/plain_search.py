"""The shallow levels' search in plain Python, for the moves played while the kernels compile.

A fresh install compiles the numba kernels once (``solver.compile_ahead``: 20-25 s of a quiet
core, 142 s on a loaded 2-core machine). The levels that search shallowly (beginner depth 1,
casual 2, club 4) need so few nodes that plain Python answers in milliseconds to a fraction of
a second (``benchmarks/plain_search.py``), so their first moves need not wait for the compile.

It is the kernel's search at the same depth, node for node in what it values:

* a position's value is the mover's points to come minus the opponent's (negamax);
* a leaf is a board with no points left (0), a board whose every column holds at most two
  tiles (every tile free: ``greedy_alternation`` is exact there), or the horizon (depth 0:
  ``greedy_alternation`` as the estimate);
* of the "tempo" kinds (every copy left free, in columns of at most two tiles) only the one
  with the most points is played below the root, as ``_generate_moves`` does;
* the root's every legal move gets its value (``all_exact``), sorted as ``Engine`` sorts them.

So a level choosing from it with the same random numbers plays the move the kernel would
(``tests/solver/test_plain_search.py`` compares them on a set of positions). Nothing is shared
with the kernel's table: it answers the first moves of a game, from an empty table as the
kernel's first searches do.
"""

from __future__ import annotations

import time

from battle.rules.board import COLS, ROWS, Move, Position
from battle.rules.tiles import EMPTY, kind_value
from solver.levels import LEVELS
from solver.results import Analysis, Bound, MoveValue

PLAIN_MAX_DEPTH = 4
"""The deepest level searched here (club): depth 4 takes 30-300 ms a move in plain Python on a
full board, depth 8 (expert) minutes."""
PLAIN_LEVELS: tuple[str, ...] = tuple(
    name for name, level in LEVELS.items() if level.depth is not None and level.depth <= PLAIN_MAX_DEPTH
)
"""The levels whose moves plain Python finds without the kernels (beginner, casual, club: depth 1,
2 and 4, from 0.2 to 24 ms a move on the median position, at most 0.7 s; ``benchmarks/README.md``)."""

_Runs = tuple[tuple[int, int], ...]
"""Each column's (top row, bottom row); empty when top > bottom."""


class _Board:
    """The kinds in their cells (fixed) and a memo of values by (runs, depth)."""

    def __init__(self, position: Position) -> None:
        self.cells = list(position.cells)
        self.memo: dict[tuple[_Runs, int], int] = {}
        self.nodes = 0

    def runs_of(self, position: Position) -> _Runs:
        runs = []
        for col in range(COLS):
            rows = [row for row in range(ROWS) if self.cells[col * ROWS + row] != EMPTY]
            runs.append((rows[0], rows[-1]) if rows else (ROWS, -1))
        return tuple(runs)

    def free_by_kind(self, runs: _Runs) -> tuple[dict[int, list[int]], dict[int, int], set[int]]:
        """The free cells of each kind, how many of each kind are left, and the settled cells
        (in columns of at most two tiles)."""
        free: dict[int, list[int]] = {}
        left: dict[int, int] = {}
        settled: set[int] = set()
        for col, (top, bottom) in enumerate(runs):
            if top > bottom:
                continue
            for row in range(top, bottom + 1):
                kind = self.cells[col * ROWS + row]
                left[kind] = left.get(kind, 0) + 1
            ends = (top,) if top == bottom else (top, bottom)
            for row in ends:
                cell = col * ROWS + row
                free.setdefault(self.cells[cell], []).append(cell)
                if bottom - top < 2:
                    settled.add(cell)
        return free, left, settled

    def greedy(self, free: dict[int, list[int]]) -> int:
        """``greedy_alternation``: the free pairs taken in turn, biggest first; the mover's margin."""
        values = sorted(
            (kind_value(kind) for kind, cells in free.items() for _ in range(len(cells) // 2)), reverse=True
        )
        return sum(values[0::2]) - sum(values[1::2])

    def value(self, runs: _Runs, depth: int, points: int) -> int:
        """The mover's value ``depth`` moves deep (``points``: what is left on the board)."""
        self.nodes += 1
        if points == 0:
            return 0
        free, left, settled = self.free_by_kind(runs)
        if depth <= 0 or all(bottom - top < 2 for top, bottom in runs):
            return self.greedy(free)
        key = (runs, depth)
        known = self.memo.get(key)
        if known is not None:
            return known
        moves = self.moves(free, left, settled)
        best = 0
        if moves:
            best = max(
                kind_value(self.cells[a])
                - self.value(self.after(runs, a, b), depth - 1, points - kind_value(self.cells[a]))
                for a, b in moves
            )
        self.memo[key] = best
        return best

    def moves(self, free: dict[int, list[int]], left: dict[int, int], settled: set[int]) -> list[Move]:
        """The node's moves as the kernel generates them: one per settled copy, one tempo kind."""
        tempo = [
            kind
            for kind, cells in free.items()
            if len(cells) >= 2 and len(cells) == left[kind] and all(cell in settled for cell in cells)
        ]
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


def plain_analysis(position: Position, depth: int) -> Analysis:
    """Every legal move's value ``depth`` moves deep (1 to ``PLAIN_MAX_DEPTH``), as the kernel's
    ``Engine.search(position, Limits(depth=depth), all_exact=True)`` gives them from an empty table."""
    if not 1 <= depth <= PLAIN_MAX_DEPTH:
        raise ValueError(f"plain search depth must be 1 to {PLAIN_MAX_DEPTH}: {depth!r}")
    started = time.perf_counter()
    board = _Board(position)
    runs = board.runs_of(position)
    points = position.points_on_board()
    legal = position.legal_moves()
    values = []
    for a, b in legal:
        gain = kind_value(board.cells[a])
        values.append((a, b, gain - board.value(board.after(runs, a, b), depth - 1, points - gain)))
    # "estimate" as the kernel's depth-limited answers are; a level's choice reads only the values
    bound: Bound = "estimate"
    move_values = sorted(
        (MoveValue((a, b), value, bound, depth) for a, b, value in values), key=lambda mv: (-mv.value, mv.move)
    )
    best = move_values[0].value if move_values else 0
    best_moves = sorted(mv.move for mv in move_values if mv.value == best)
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
