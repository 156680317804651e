"""Positions and checks shared by the solver's test modules: random small positions
(numbered deals played down, composed positions with three or four free copies of a
kind, lone tiles), the known values, and the cross-check against ``tests/naive.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from battle.rules.board import COLS, ROWS, Move, Position, cell_index, move_name
from battle.rules.deal import deal
from battle.rules.notation import format_position, parse_position
from battle.rules.tiles import EMPTY, KIND_COUNT
from solver import FULL_DEPTH, Analysis, Engine
from tests import naive

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parents[1] / "data" / "solver"
KNOWN_VALUES = DATA / "known_values.jsonl"
BIG = DATA / "n080_s500020.mbp"
"""80 tiles: the C reference needs 15 s, far beyond every limit used here."""
MAX_NAIVE_TILES = 20
CROSS_CHECKS = 300


# -- positions --------------------------------------------------------------------------


def played_down(rng: random.Random, max_tiles: int, min_tiles: int = 4) -> Position:
    """A numbered deal played by uniformly random legal moves down to a random size.

    A game may get stuck (no pair left) on the way; it is kept only if it is
    small enough, so every result has at most ``max_tiles`` tiles.
    """
    while True:
        position = deal(rng.randrange(1 << 32))
        target = rng.randrange(min_tiles, max_tiles + 1, 2)
        while position.tiles_left() > target and not position.is_over():
            position.push(rng.choice(position.legal_moves()))
        if position.tiles_left() <= max_tiles:
            return position.copy()


def composed(rng: random.Random, max_tiles: int) -> Position:
    """A composed position: few kinds, so three or four free copies are common.

    Columns of random height (1 to 9, many of them lone tiles) at random rows,
    either player to move, random scores.
    """
    kinds = rng.sample(range(KIND_COUNT), rng.randint(2, 7))
    tiles = [kind for kind in kinds for _ in range(rng.choice((1, 2, 2, 3, 4, 4)))]
    rng.shuffle(tiles)
    tiles = tiles[:max_tiles]
    cells = [EMPTY] * (COLS * ROWS)
    columns = list(range(COLS))
    rng.shuffle(columns)
    placed = 0
    for col in columns:
        if placed == len(tiles):
            break
        height = min(len(tiles) - placed, rng.choice((1, 1, 2, 2, 3, 4, 5, 9)))
        start = rng.randint(0, ROWS - height)
        for row in range(start, start + height):
            cells[cell_index(col, row)] = tiles[placed]
            placed += 1
    return Position(cells, rng.choice((1, 2)), (rng.randrange(120), rng.randrange(120)))


def small_position(seed: int, max_tiles: int = MAX_NAIVE_TILES) -> Position:
    """Case ``seed`` of the cross-check: odd seeds composed, even ones played down."""
    rng = random.Random(seed)
    return composed(rng, max_tiles) if seed % 2 else played_down(rng, max_tiles)


def free_counts(position: Position) -> dict[int, int]:
    counts: dict[int, int] = {}
    for cell in position.free_cells():
        counts[position.cells[cell]] = counts.get(position.cells[cell], 0) + 1
    return counts


def has_lone_tile(position: Position) -> bool:
    return any(top == bottom for top, bottom in (position.column_run(col) for col in range(COLS)))


def load(path: Path) -> Position:
    return parse_position(path.read_text(encoding="utf-8"))


def known_values() -> list[dict]:
    return [json.loads(line) for line in KNOWN_VALUES.read_text(encoding="utf-8").splitlines() if line.strip()]


# -- checks -----------------------------------------------------------------------------


def replay(position: Position, line: list[Move]) -> Position:
    """The position after the line (``push`` raises on an illegal move)."""
    node = position.copy()
    for move in line:
        node.push(move)
    return node


def mover_margin(before: Position, after: Position) -> int:
    """Points the player to move in ``before`` took on the way to ``after``, minus the opponent's."""
    me, other = before.to_move - 1, 2 - before.to_move
    return (after.scores[me] - before.scores[me]) - (after.scores[other] - before.scores[other])


def check_line(position: Position, analysis: Analysis) -> None:
    """An exact analysis's best line is legal, ends the game and realises the value."""
    end = replay(position, analysis.pv)
    assert end.is_over(), f"the best line {[move_name(m) for m in analysis.pv]} stops before the end"
    assert mover_margin(position, end) == analysis.value
    assert analysis.final_score == (end.scores[0], end.scores[1])
    if analysis.pv:
        assert analysis.pv[0] in analysis.best_moves


def check_against_naive(engine: Engine, position: Position) -> None:
    """Everything ``search`` says about a small position agrees with the naive solver."""
    expected = naive.move_values(position.copy())
    value = max(expected.values(), default=0)
    best = sorted(move for move, v in expected.items() if v == value)
    shown = format_position(position)

    analysis = engine.search(position)
    assert (analysis.value, analysis.best_moves, analysis.exact) == (value, best, True), shown
    assert analysis.depth == FULL_DEPTH
    check_line(position, analysis)

    full = engine.search(position, all_exact=True)
    got = {mv.move: (mv.value, mv.bound) for mv in full.move_values}
    assert len(full.move_values) == len(expected), shown
    assert got == {move: (v, "exact") for move, v in expected.items()}, shown
    assert [mv.value for mv in full.move_values] == sorted(expected.values(), reverse=True), "best first"
    assert (full.value, full.best_moves, full.exact) == (value, best, True), shown
    check_line(position, full)


def assert_usable(position: Position, analysis: Analysis) -> None:
    """An inexact answer still names legal moves and a legal line."""
    legal = set(position.legal_moves())
    assert not analysis.exact
    assert analysis.best_moves and set(analysis.best_moves) <= legal
    replay(position, analysis.pv)


def cache_files(folder: Path) -> dict[str, float]:
    """Every file of a numba cache and when it was last written: a run that compiles writes one."""
    return {str(path.relative_to(folder)): path.stat().st_mtime for path in folder.rglob("*") if path.is_file()}
