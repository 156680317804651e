"""The door to the solver (``battle.players``): services that own their engine, and what it hands on."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

import battle.players as players
import battle.players.services as services
from battle.players import SMALLEST_TABLE_MEGABYTES, Advisor, Limits, Opponent
from battle.rules.board import Position, biggest_pair
from battle.rules.deal import deal

ROOT = Path(__file__).resolve().parents[2]
SEARCH = ("numba", "numpy", "llvmlite", "solver.engine", "battle.players.services", "battle.players.pool.unit_search")
"""What a process that searches loads, and a game server's, whose pool's workers search, does not."""


def loaded_for_search(code: str) -> str:
    """Which of ``SEARCH`` a fresh interpreter has loaded after running ``code``."""
    report = f"{code}\nprint(sorted(m for m in {SEARCH!r} if m in sys.modules))"
    done = subprocess.run(
        [sys.executable, "-c", f"import sys\n{report}"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def played_down(tiles: int, seed: int = 5) -> Position:
    position = deal(seed)
    rng = random.Random(seed)
    while position.tiles_left() > tiles and position.has_moves():
        position.push(rng.choice(position.legal_moves()))
    return position


def test_the_door_hands_on_services_not_the_engine_or_its_sizes() -> None:
    for name in (
        "Engine",
        "ENTRY_BYTES",
        "MIN_TABLE_BITS",
        "MAX_NODE_LIMIT",
        "WINDOW_NICENESS",
        "engine_table_bits",
        "prepare_kernels_apart",
        "engine_for",
    ):
        assert name not in players.__all__, name
    assert {"Opponent", "Advisor", "Reviewer", "DealSolver", "prepare_kernels"} <= set(players.__all__)
    assert players.__all__ == services.__all__
    assert SMALLEST_TABLE_MEGABYTES == 32


def test_the_door_loads_the_solver_at_the_first_name_taken_from_it() -> None:
    assert loaded_for_search("import battle.players") == "[]"
    assert "'numba'" in loaded_for_search("from battle.players import Opponent")


def test_the_pools_queue_jobs_and_results_load_no_search() -> None:
    code = """
import battle.players.pool.client, battle.players.pool.opening, battle.players.pool.sharing
from battle.players.pool.jobs import AnalysisJob, MoveJob, ReviewJob, position_data
from battle.rules.deal import deal
start = position_data(deal(3))
MoveJob(start, "club", 1), AnalysisJob(start, seconds=1.0, depth=4), ReviewJob(start, ())
assert MoveJob(start, "expert", 1).plain and not MoveJob(start, "master", 1).plain
"""
    assert loaded_for_search(code) == "[]"


def test_an_opponent_refuses_an_unknown_level_at_once() -> None:
    with pytest.raises(ValueError, match="wizard"):
        Opponent("wizard")


def test_a_service_builds_its_engine_at_the_first_search_and_keeps_it() -> None:
    advisor = Advisor(megabytes=SMALLEST_TABLE_MEGABYTES)
    assert advisor._engine is None
    position = played_down(24)
    first = advisor.search(position, all_exact=True)
    engine = advisor._engine
    again = advisor.search(position, all_exact=True)
    assert advisor._engine is engine and first.exact and again.exact and again.value == first.value


def test_a_stop_before_the_engine_exists_stops_its_first_search_and_clear_stop_forgets_it() -> None:
    position = played_down(48)
    stopped = Advisor(megabytes=SMALLEST_TABLE_MEGABYTES)
    stopped.stop()
    assert not stopped.search(position, Limits()).exact  # answered from a two-move search
    forgotten = Advisor(megabytes=SMALLEST_TABLE_MEGABYTES)
    forgotten.stop()
    forgotten.clear_stop()
    assert forgotten.search(position, Limits()).exact


def test_an_opponent_plays_hints_and_refutes_legal_moves() -> None:
    position = played_down(30)
    opponent = Opponent("perfect", seed=1, megabytes=SMALLEST_TABLE_MEGABYTES)
    move = opponent.move(position)
    assert move in position.legal_moves()
    hint = opponent.hint(position)
    assert hint.exact and move in hint.best_moves
    reply = opponent.refute(position)
    assert reply in hint.best_moves
    assert opponent.move(position, level="beginner", cancelled=lambda: True) is None
    assert biggest_pair(position) in position.legal_moves()
