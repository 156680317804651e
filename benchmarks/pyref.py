"""The numba search's algorithm in plain Python: the baseline for "how much does numba buy?".

``bench_solver.py --vs-python`` runs this and ``solver.Engine`` on the same positions.
It mirrors ``solver/_search.py`` as closely as plain Python sensibly allows, so that
the time ratio measures the implementation, not a difference in algorithm:

* the same value: what the mover will still take minus what the opponent will;
* fail-soft negamax alpha-beta; a window beyond the points left on the board is searched,
  not answered with the range's end (a tighter bound, as in the kernel);
* every tile free (no column longer than two): greedy alternation is exact;
* settled copies of a kind (free, in columns of at most two tiles) are interchangeable:
  only moves with the first settled copy are searched;
* pure tempo pairs (every copy of a kind free, nothing under them): only the biggest
  is searched;
* a transposition table keyed as the numba one (runs of columns of three or more
  tiles, plus how many tiles of each kind are left), storing value, bound and best
  move; always exact depth, since this solver has no depth limit; a plain ``dict``,
  never full, so it is cleared for each ``solve``;
* move order: table move first, then 5 x points - 1 x the best pair the move exposes
  to the opponent - 48 / n x the pairs it adds to the opponent's choice (n moves here;
  ``REPLY_SCALE``) + a bonus for the killers (the two moves that last cut at the same ply,
  ``KILLER_BONUS``; reset for each root move) - a malus for taking a tile the opponent's
  last move uncovered (``EXPOSED_REPLY_MALUS``), ties to the bigger pair, then generation order;
* enhanced transposition cutoffs from children already in the table (``etc=True``),
  both ways: a child bounded from above can cut (the best of those bounds is kept,
  with the node's upper bound when every child is bounded both ways, as in the
  kernel; a node that fails low after a search keeps that best lower bound with its
  upper one), and when every child is bounded from below at or under alpha the node
  fails low without a search; a child whose entry (read then) answers it within its
  window when its turn comes is not played;
* the root as ``Engine.search`` does it (first move with a full window, every other
  move first tested with a null window), so it returns the complete best-move set.

It is correct on its own (checked against ``tests/naive.py`` in ``tests/solver/test_solver.py``),
but slow: use it on positions of 56 tiles or fewer.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

try:
    import battle  # noqa: F401
except ImportError:  # run as a script from a checkout: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from battle.rules.board import COLS, ROWS, Move, Position
from battle.rules.tiles import EMPTY, KIND_COUNT

EXACT, LOWER, UPPER = 0, 1, 2
INF = 10_000
REPLY_SCALE = 768
"""As in solver/_search.py: the ordering's cost of a pair a move adds to the opponent's choice, times n moves."""
KILLER_BONUS = 112
"""As in solver/_search.py: the ordering's bonus for the two moves that last cut at the same ply."""
EXPOSED_REPLY_MALUS = 64
"""As in solver/_search.py: the ordering's malus for a move that takes a tile the opponent's last move uncovered."""
THREAT_WEIGHT = 1
"""As in solver/_search.py: the ordering's cost of each point of the best pair a move exposes."""
EXACT_BELOW_POINTS = 40
"""As in solver/_search.py: smaller nodes are searched with the whole range as their window."""
MAX_PLY = 64

Entry = tuple[int, int, int]
"""A table entry: lower bound, upper bound (equal when exact; -INF or INF when unknown),
best move (``a * 128 + b``, -1 for none)."""


def entry_answer(entry: Entry, alpha: int, beta: int) -> int | None:
    """What the entry answers for window (alpha, beta), fail-soft, or None (the kernel's ``entry_answer``)."""
    lower, upper, _ = entry
    if lower >= beta or lower == upper:
        return lower
    if upper <= alpha:
        return upper
    return None


def column_code(top: int, bottom: int) -> int:
    """0 for a column of at most two tiles, else 1 + top*9 + bottom (the numba key's per-column code)."""
    return 0 if bottom - top < 2 else 1 + top * ROWS + bottom


@dataclass
class Result:
    value: int
    best_moves: list[Move]
    """The complete set of moves that keep the value, sorted."""
    nodes: int
    seconds: float


class ReferenceSolver:
    """Exact alpha-beta over plain lists; one instance may solve many positions."""

    def __init__(self, etc: bool = True) -> None:
        self.etc = etc
        self.table: dict[tuple[int, ...], Entry] = {}
        self.nodes = 0
        self.cells: list[int] = []
        self.tops: list[int] = []
        self.bottoms: list[int] = []
        self.codes: list[int] = []
        self.counts: list[int] = []
        self.killers: list[list[int]] = [[-1, -1] for _ in range(MAX_PLY)]

    # -- state -------------------------------------------------------------------------

    def _load(self, position: Position) -> None:
        self.cells = list(position.cells)
        self.tops = []
        self.bottoms = []
        for col in range(COLS):
            top, bottom = position.column_run(col)
            self.tops.append(top)
            self.bottoms.append(bottom)
        self.codes = [column_code(t, b) for t, b in zip(self.tops, self.bottoms, strict=True)]
        self.counts = [0] * KIND_COUNT
        for kind in self.cells:
            if kind != EMPTY:
                self.counts[kind] += 1

    def _column_after(self, col: int, a: int, b: int) -> tuple[int, int]:
        top, bottom = self.tops[col], self.bottoms[col]
        for cell in (a, b):
            if cell // ROWS == col:
                if cell % ROWS == top:
                    top += 1
                else:
                    bottom -= 1
        return top, bottom

    def _apply(self, a: int, b: int) -> tuple[int, int, int, int]:
        ca, cb = a // ROWS, b // ROWS
        saved = (self.tops[ca], self.bottoms[ca], self.tops[cb], self.bottoms[cb])
        for col in (ca, cb) if ca != cb else (ca,):
            top, bottom = self._column_after(col, a, b)
            self.tops[col], self.bottoms[col] = top, bottom
            self.codes[col] = column_code(top, bottom)
        self.counts[self.cells[a]] -= 2
        return saved

    def _undo(self, a: int, b: int, saved: tuple[int, int, int, int]) -> None:
        ca, cb = a // ROWS, b // ROWS
        self.tops[cb], self.bottoms[cb] = saved[2], saved[3]
        self.codes[cb] = column_code(saved[2], saved[3])
        self.tops[ca], self.bottoms[ca] = saved[0], saved[1]
        self.codes[ca] = column_code(saved[0], saved[1])
        self.counts[self.cells[a]] += 2

    # -- the search --------------------------------------------------------------------

    def negamax(self, alpha: int, beta: int, points: int, ply: int = 1, uncovered: tuple[int, ...] = ()) -> int:
        """Fail-soft: v <= alpha gives v <= r <= alpha, v >= beta gives beta <= r <= v, else r == v.

        ``uncovered``: the cells the opponent's last move uncovered (none at a root move's child)."""
        self.nodes += 1
        if points == 0:
            return 0
        cells, tops, bottoms = self.cells, self.tops, self.bottoms
        free: dict[int, list[int]] = {}
        buried = False
        for col in range(COLS):
            top, bottom = tops[col], bottoms[col]
            if top > bottom:
                continue
            cell = col * ROWS + top
            free.setdefault(cells[cell], []).append(cell)
            if bottom != top:
                cell = col * ROWS + bottom
                free.setdefault(cells[cell], []).append(cell)
                if bottom - top >= 2:
                    buried = True

        if not buried:
            # Every tile is free: both sides take the biggest pair left, in turn.
            pairs = sorted((kind % 9 + 1 for kind, where in free.items() for _ in range(len(where) // 2)), reverse=True)
            return sum(pairs[0::2]) - sum(pairs[1::2])

        # Settled copies first-only; pure tempo pairs: only the biggest (see solver/_search.py).
        unsettled: dict[int, int] = {}
        for kind, where in free.items():
            u = 0  # unsettled first, by the kernel's in-place partition
            for i, cell in enumerate(where):
                if bottoms[cell // ROWS] - tops[cell // ROWS] >= 2:
                    where[i], where[u] = where[u], cell
                    u += 1
            unsettled[kind] = u
        tempo = [
            kind
            for kind, where in free.items()
            if len(where) >= 2 and unsettled[kind] == 0 and len(where) == self.counts[kind]
        ]
        best_tempo = max(tempo, key=lambda kind: (kind % 9, -kind)) if tempo else -1
        moves: list[tuple[int, int]] = []
        for kind, where in free.items():
            if kind in tempo and kind != best_tempo:
                continue
            u = unsettled[kind]
            pairs = [
                (i, j)
                for i in range(len(where))
                for j in range(i + 1, len(where))
                if j < u or (j == u) or (i == u and j == u + 1)
            ]
            for i, j in pairs:
                x, y = where[i], where[j]
                moves.append((x, y) if x < y else (y, x))
        if not moves:
            return 0

        # No clamp of the window to [-points, points]: as in the kernel, a search there
        # gives a tighter bound than the range's end.
        if points < EXACT_BELOW_POINTS:
            alpha = min(alpha, -points - 1)
            beta = max(beta, points + 1)
        alpha0 = alpha

        key = (*self.codes, *self.counts)
        hash_move = -1
        entry = self.table.get(key)
        if entry is not None:
            answer = entry_answer(entry, alpha, beta)
            if answer is not None:
                return answer
            lower, upper, hash_move = entry
            alpha = max(alpha, lower)
            beta = min(beta, upper)

        scored: list[tuple[int, int, int, int, Entry | None, tuple[int, ...]]] = []
        reply_weight = REPLY_SCALE // len(moves)
        killers = self.killers[ply]
        high, all_low = -INF, True  # ETC failing low: the best any move can score, if every child is bounded
        best_lower, best_lower_move = -INF, -1  # ETC cutting: the best lower bound the children's entries give
        for a, b in moves:
            kind = cells[a]
            gain = kind % 9 + 1
            child = None
            ca, cb = a // ROWS, b // ROWS
            exposed: list[int] = []
            child_codes = self.codes[:] if self.etc else None
            for col in (ca, cb) if ca != cb else (ca,):
                old_top, old_bottom = tops[col], bottoms[col]
                top, bottom = self._column_after(col, a, b)
                if child_codes is not None:
                    child_codes[col] = column_code(top, bottom)
                if top <= bottom:
                    if top != old_top and top != old_bottom:
                        exposed.append(col * ROWS + top)
                    if bottom != top and bottom != old_bottom and bottom != old_top:
                        exposed.append(col * ROWS + bottom)
            threat = 0
            replies = 3 - 2 * len(free[kind])  # the opponent's pairs after the move, against now
            for x in exposed:
                other = cells[x]
                free_after = len(free.get(other, ())) + sum(1 for y in exposed if cells[y] == other)
                if other == kind:
                    free_after -= 2
                replies += free_after - 1
                if free_after >= 2 and other % 9 + 1 > threat:
                    threat = other % 9 + 1
            if child_codes is not None:
                child_counts = self.counts[:]
                child_counts[kind] -= 2
                child = self.table.get((*child_codes, *child_counts))
                if child is not None and child[1] != INF:
                    lower = gain - child[1]  # the child's value is at most child[1]
                    if lower > best_lower:
                        best_lower, best_lower_move = lower, a * 128 + b
                if child is not None and child[0] != -INF:
                    high = max(high, gain - child[0])  # the child's value is at least child[0]
                else:
                    all_low = False
            order = (
                1 << 40
                if a * 128 + b == hash_move
                else (5 * gain - THREAT_WEIGHT * threat) * 16
                + gain
                - reply_weight * replies
                + (KILLER_BONUS if a * 128 + b in killers else 0)
                - (EXPOSED_REPLY_MALUS if a in uncovered or b in uncovered else 0)
            )
            scored.append((order, a, b, gain, child, tuple(exposed)))
        if best_lower >= beta:
            # The best cutoff the children's entries give, and the upper bound when every child is bounded.
            self._store(key, best_lower, LOWER, best_lower_move)
            self._set_killer(ply, best_lower_move)
            if all_low:
                self._store(key, high, UPPER, -1)
            return best_lower
        if self.etc and all_low and high <= alpha:
            # Every move is bounded at or below alpha by its child's entry: fail low unsearched.
            self._store(key, high, UPPER, -1)
            return high
        scored.sort(key=lambda item: -item[0])

        best = -INF
        best_move = -1
        for _, a, b, gain, child, exposed_by_move in scored:
            answer = None if child is None else entry_answer(child, gain - beta, gain - alpha)
            if answer is not None:
                value = gain - answer  # the child's entry answers it within its window: not played
            else:
                saved = self._apply(a, b)
                value = gain - self.negamax(gain - beta, gain - alpha, points - gain, ply + 1, exposed_by_move)
                self._undo(a, b, saved)
            if value > best:
                best = value
                best_move = a * 128 + b
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._set_killer(ply, best_move)
                        break

        bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self._store(key, best, bound, best_move)
        if bound == UPPER and best_lower > -INF:
            # As the kernel: a fail-low also keeps the lower bound the children's entries gave.
            self._store(key, best_lower, LOWER, best_lower_move)
        return best

    def _set_killer(self, ply: int, move: int) -> None:
        """The ply's first killer; the old first one, if another move, becomes the second (as the kernel)."""
        killers = self.killers[ply]
        if killers[0] != move:
            killers[1], killers[0] = killers[0], move

    def _store(self, key: tuple[int, ...], value: int, bound: int, move: int) -> None:
        """Merge a bound into the position's entry; a fail-low keeps the move the position had
        (its own best move is noise), as in the kernel's ``tt_store``."""
        lower, upper, kept = self.table.get(key, (-INF, INF, -1))
        if bound != UPPER:
            lower, kept = max(lower, value), move
        if bound != LOWER:
            upper = min(upper, value)
        self.table[key] = (lower, upper, kept)

    # -- the root ----------------------------------------------------------------------

    def _move_value(self, move: Move, alpha: int, beta: int, points: int) -> int:
        a, b = move
        gain = self.cells[a] % 9 + 1
        saved = self._apply(a, b)
        self.killers = [[-1, -1] for _ in range(MAX_PLY)]  # as the kernel: no killers at a root move's start
        child = self.negamax(gain - beta, gain - alpha, points - gain)
        self._undo(a, b, saved)
        return gain - child

    def solve(self, position: Position) -> Result:
        """The exact value and the complete set of best moves, with a fresh table."""
        started = time.perf_counter()
        self.table.clear()
        self.nodes = 0
        self._load(position)
        moves = position.legal_moves()
        if not moves:
            return Result(0, [], 0, time.perf_counter() - started)
        points = position.points_on_board()
        window = points + 9
        best = -INF
        values: dict[Move, tuple[int, bool]] = {}
        for index, move in enumerate(sorted(moves, key=lambda m: -position.move_points(m))):
            if index == 0:
                score = self._move_value(move, -window, window, points)
                values[move] = (score, True)
            else:
                # Is it at least as good as the best so far? Ties count: every best move is wanted.
                score = self._move_value(move, best - 1, best, points)
                if score >= best:
                    score = self._move_value(move, best - 1, window, points)
                values[move] = (score, score >= best)
            best = max(best, score)
        best_moves = sorted(move for move, (value, exact) in values.items() if exact and value == best)
        return Result(best, best_moves, self.nodes, time.perf_counter() - started)


def solve(position: Position, etc: bool = True) -> Result:
    """Solve one position with a fresh solver."""
    return ReferenceSolver(etc=etc).solve(position)


def main(argv: list[str] | None = None) -> int:
    """``python benchmarks/pyref.py FILE...``: value and best moves of each position."""
    from battle.rules.board import move_name
    from battle.rules.notation import parse_any

    for name in sys.argv[1:] if argv is None else argv:
        result = solve(parse_any(Path(name).read_text(encoding="utf-8")))
        moves = " ".join(move_name(m) for m in result.best_moves)
        print(f"{name}: value {result.value:+d}  best {moves}  {result.nodes:,} nodes  {result.seconds:.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
