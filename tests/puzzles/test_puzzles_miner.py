"""The miner on a small run: what it finds keeps the definition, and a seed gives the same puzzles."""

from __future__ import annotations

import pytest

from battle.puzzles.difficulty import RATING_CEILING, RATING_FLOOR
from battle.puzzles.miner import MINING_LEVELS, GamePlan, Miner, MiningProgress, MiningRun, game_plan, mine
from battle.puzzles.puzzle_file import format_puzzles, parse_puzzles
from solver import Engine
from tests.puzzles.test_puzzles_shipped import check_puzzle


@pytest.fixture(scope="module")
def miner() -> Miner:
    return Miner()


def test_a_game_plan_depends_on_the_seed_and_the_index_alone() -> None:
    assert game_plan(1, 0) == game_plan(1, 0)
    plans = {game_plan(seed, index) for seed in (1, 2) for index in range(20)}
    assert len({(plan.deal, plan.choice_seed) for plan in plans}) == 40
    assert all(set(plan.levels) <= set(MINING_LEVELS) for plan in plans)
    # pinned: the first game of the shipped set's run
    assert game_plan(1, 0) == GamePlan(0, 888508, ("casual", "club"), 2433759247)


def test_the_puzzles_of_a_few_games_keep_the_definition(miner: Miner) -> None:
    found = []
    for index in range(6):
        plan = game_plan(3, index)
        for puzzle in miner.mine_game(plan, 20, 60):
            assert puzzle.source is not None and puzzle.source.deal == plan.deal
            assert puzzle.source.levels == plan.levels
            assert 20 <= puzzle.start().tiles_left() <= 60
            assert RATING_FLOOR < puzzle.rating < RATING_CEILING
            found.append(puzzle)
    assert len(found) >= 3
    for puzzle in found:
        check_puzzle(puzzle, Engine(21))
    assert parse_puzzles(format_puzzles(found)) == found


def test_a_run_is_the_same_every_time_and_stops_at_its_count() -> None:
    progress: list[MiningProgress] = []
    first = mine(MiningRun(count=4, seed=3, min_tiles=30, max_tiles=50), progress.append)
    assert len(first) == 4
    assert progress and progress[-1].puzzles == 4
    assert [puzzle.to_json() for puzzle in mine(MiningRun(count=4, seed=3, min_tiles=30, max_tiles=50))] == [
        puzzle.to_json() for puzzle in first
    ]
