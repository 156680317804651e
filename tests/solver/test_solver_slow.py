"""Long cross-checks of the solver, run by hand before a solver change is committed:

    python -m pytest -m slow tests/solver/test_solver_slow.py -q -o addopts=""

Thousands of random positions of up to 20 tiles and 600 of up to 24 (mostly 22 to 24) against
``tests/naive.py`` (value, complete best-move set, every move's value, the best
line), and the 64-tile benchmark positions against the values that the C
reference solver found (``../shared/bench``, skipped when that folder is absent).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from battle.rules.board import move_name
from solver import Engine
from tests.solver.solver_cases import (
    MAX_NAIVE_TILES,
    check_against_naive,
    check_line,
    composed,
    load,
    played_down,
    small_position,
)

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SHARED_BENCH = ROOT.parent / "shared" / "bench"
BATCHES = 30
BATCH_SIZE = 100
"""3000 positions of up to 20 tiles, in batches so that a failure names a small range of seeds."""
FIRST_SEED = 100_000
"""Seeds the default suite does not use."""


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine(table_bits=20)


@pytest.mark.parametrize("batch", range(BATCHES))
def test_many_small_positions(engine: Engine, batch: int) -> None:
    for seed in range(FIRST_SEED + batch * BATCH_SIZE, FIRST_SEED + (batch + 1) * BATCH_SIZE):
        check_against_naive(engine, small_position(seed))


@pytest.mark.parametrize("batch", range(10))
def test_positions_of_up_to_24_tiles(engine: Engine, batch: int) -> None:
    rng = random.Random(200_000 + batch)
    for index in range(60):
        position = composed(rng, 24) if index % 3 == 2 else played_down(rng, 24, min_tiles=MAX_NAIVE_TILES + 2)
        check_against_naive(engine, position)


def bench_rows(tiles: int) -> list[dict]:
    path = SHARED_BENCH / "positions.jsonl"
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [row for row in rows if row["tiles_left"] == tiles]


@pytest.mark.skipif(not SHARED_BENCH.is_dir(), reason=f"no benchmark positions at {SHARED_BENCH}")
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("row", bench_rows(64) + bench_rows(72)[1:3], ids=lambda row: row["id"])
def test_bench_positions(row: dict, threads: int) -> None:
    """The 64-tile shared positions and two quick 72-tile ones, on one thread and on two."""
    position = load(SHARED_BENCH / "positions" / f"{row['id']}.mbp")
    analysis = Engine(table_bits=22, threads=threads).search(position)
    assert analysis.exact
    assert analysis.value == row["value"]
    assert sorted(move_name(m) for m in analysis.best_moves) == sorted(row["best_moves"])
    check_line(position, analysis)


@pytest.mark.skipif(not SHARED_BENCH.is_dir(), reason=f"no benchmark positions at {SHARED_BENCH}")
def test_the_bench_has_64_tile_positions() -> None:
    assert len(bench_rows(64)) >= 4
