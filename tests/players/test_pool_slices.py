"""A pool worker's long units in slices (``battle.players.pool.unit_search``): each run searches at most a
slice's nodes and answers ``Continued`` until the unit is done; the answers equal the unsliced
searches' where those are exact, and a slice of another layout between two of a unit's keeps its table."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battle.players import Advisor, Limits, Reviewer
from battle.players.pool.jobs import (
    AnalysisJob,
    AnalysisResult,
    Continued,
    HintJob,
    MoveJob,
    MoveResult,
    ParJob,
    ReviewResult,
    SearchProgress,
    StepJob,
    position_data,
    position_of,
)
from battle.players.pool.unit_search import ENGINES, PoolServices
from battle.rules.board import move_name, parse_move
from battle.rules.game import Game
from solver.levels import get_level
from tests.players.conftest import greedy_down, short_review

SMALL = 20_000
"""Nodes a slice in these tests: small enough that every search here takes several."""


def sliced(services: PoolServices, job: StepJob, slice_nodes: int = SMALL) -> tuple[Any, int]:
    """Run ``job`` slice by slice as a pool does, to its answer: the answer and the runs it took."""
    progress = None
    for runs in range(1, 10_000):
        outcome = services.run(job, kernels=True, cancelled=lambda: False, progress=progress, slice_nodes=slice_nodes)
        if not isinstance(outcome, Continued):
            return outcome, runs
        progress = outcome.progress
    raise AssertionError("the job never answered")


@pytest.fixture(scope="module")
def services() -> PoolServices:
    return PoolServices(megabytes=32).open()


def test_a_sliced_analysis_answers_what_one_search_proves(services: PoolServices) -> None:
    position = greedy_down(4, 56)
    job = AnalysisJob(position_data(position), every_move=True, nodes=20_000_000)
    result, runs = sliced(services, job)
    expected = Advisor(megabytes=32).search(position, Limits(), all_exact=True)
    assert isinstance(result, AnalysisResult) and expected.exact and result.exact
    assert runs > 1  # it was sliced
    assert result.value == expected.value
    assert {(mv.move, mv.value) for mv in result.moves} == {
        (mv.notation, mv.value) for mv in expected.move_values
    }  # every move's exact value


def test_a_sliced_analysis_ends_at_its_node_budget_with_its_deepest_answer(services: PoolServices) -> None:
    job = AnalysisJob(position_data(greedy_down(6, 108)), every_move=False, nodes=10 * SMALL)
    result, runs = sliced(services, job)
    assert isinstance(result, AnalysisResult) and not result.exact and result.depth >= 2
    assert runs == 10  # ten slices of its budget, not the clock


def test_a_perfect_move_in_slices_is_a_best_move(services: PoolServices) -> None:
    position = greedy_down(7, 48)
    result, runs = sliced(services, MoveJob(position_data(position), "perfect", seed=3))
    expected = Advisor(megabytes=32).search(position, Limits())
    assert isinstance(result, MoveResult) and runs > 1
    assert result.move in {move_name(move) for move in expected.best_moves}


def test_a_short_level_moves_in_one_run_as_it_always_did(services: PoolServices) -> None:
    job = MoveJob(position_data(greedy_down(2, 108)), "club", seed=5)
    assert not job.sliced and get_level("expert").time_limit > 2
    result, runs = sliced(services, job)
    assert isinstance(result, MoveResult) and runs == 1


def test_a_sliced_hint_proves_what_the_windows_hint_proves(services: PoolServices) -> None:
    position = greedy_down(8, 52)
    result, _ = sliced(services, HintJob(position_data(position)))
    expected = Advisor(megabytes=32).search(position, Limits())
    assert isinstance(result, AnalysisResult) and result.exact and expected.exact
    assert (result.value, set(result.best_moves)) == (expected.value, {move_name(m) for m in expected.best_moves})


def test_a_sliced_review_grades_every_move_as_the_one_piece_review(services: PoolServices) -> None:
    job = replace(short_review(4, tiles=64, moves=5), seconds_per_move=2.0)
    result, runs = sliced(services, job)
    assert isinstance(result, ReviewResult) and runs > len(job.moves) + 1  # several slices a position
    game = Game(position_of(job.start), *job.players)
    for move in job.moves:
        game.play(parse_move(move))
    whole = Reviewer(megabytes=32).review(game, seconds=job.seconds_per_move).to_json()

    def grades(report: Any) -> list[tuple[Any, ...]]:
        keys = ("move", "value", "best_value", "loss", "class", "exact", "eval_after")
        return [tuple(move[key] for key in keys) for move in report["moves"]]

    assert all(move["exact"] for move in whole["moves"])  # 64 tiles: every position proved
    assert grades(result.report) == grades(whole)


def test_slices_of_other_layouts_between_a_units_slices_keep_its_table() -> None:
    """A worker keeps an engine per layout: the unit's next slice finds its table as it left it, and the
    layout used longest ago gives its table up when one more comes."""
    services = PoolServices(megabytes=32).open()
    deals = [greedy_down(number, 96) for number in range(20, 21 + ENGINES)]
    job = AnalysisJob(position_data(deals[0]), every_move=False, nodes=50 * SMALL)
    first = services.run(job, kernels=True, cancelled=lambda: False, slice_nodes=SMALL)
    assert isinstance(first, Continued)
    engine = services._opponent_for(deals[0])
    for other in deals[1:ENGINES]:  # as many other layouts as leave it its table
        services.run(AnalysisJob(position_data(other), nodes=SMALL), kernels=True, cancelled=lambda: False)
    assert services._opponent_for(deals[0]) is engine
    for other in deals[1:]:  # one more than that: the table used longest ago goes to the newest layout
        services.run(AnalysisJob(position_data(other), nodes=SMALL), kernels=True, cancelled=lambda: False)
    assert len(services._opponents) == ENGINES


def test_a_stop_mid_slice_ends_a_search_with_its_answer_so_far(services: PoolServices) -> None:
    """The watchdog's stop: the unit answers from what it has instead of going on in another slice."""
    job = AnalysisJob(position_data(greedy_down(9, 108)), every_move=False, nodes=100 * SMALL)
    outcome = services.run(job, kernels=True, cancelled=lambda: True, slice_nodes=SMALL)
    assert isinstance(outcome, AnalysisResult) and not outcome.exact


def test_a_slice_told_to_end_early_counts_the_nodes_it_searched_and_the_search_goes_on(services: PoolServices) -> None:
    """A waiting move's ``yield``: the slice stops as at its node limit (here before it starts) and answers
    its progress with the nodes it searched, not a whole slice's; the next slices answer what one
    search proves."""
    position = greedy_down(4, 56)
    job = AnalysisJob(position_data(position), every_move=True, nodes=20_000_000)
    whole = 5_000_000
    """A slice far beyond what a stopped search's first iterations take (20,659 nodes here)."""
    services.stop()  # the worker's listening thread: told to yield as the slice begins
    outcome = services.run(job, kernels=True, cancelled=lambda: False, slice_nodes=whole, yielded=lambda: True)
    services.clear_stop()
    assert isinstance(outcome, Continued)
    assert outcome.progress.spent < whole  # type: ignore[union-attr]
    progress = outcome.progress
    for _ in range(10_000):
        outcome = services.run(job, kernels=True, cancelled=lambda: False, progress=progress, slice_nodes=SMALL)
        if not isinstance(outcome, Continued):
            break
        progress = outcome.progress
    expected = Advisor(megabytes=32).search(position, Limits(), all_exact=True)
    assert isinstance(outcome, AnalysisResult) and outcome.exact and outcome.value == expected.value


def test_a_par_in_slices_proves_the_whole_searchs_value_and_says_the_least_it_can_be_meanwhile(
    services: PoolServices,
) -> None:
    """Each slice of a par goes straight to the exact search from the table the slices before filled;
    once a root move is searched to the game's end, every slice's progress says the least the value
    can be, never more than the value proved at the end, and never less than it said before."""
    position = greedy_down(7, 72)
    expected = Advisor(megabytes=32).search(position)
    job = ParJob(position_data(position), slice_nodes=SMALL)
    progress = None
    bounds: list[int | None] = []
    for _ in range(2_000):
        outcome = services.run(job, kernels=True, cancelled=lambda: False, progress=progress)
        if not isinstance(outcome, Continued):
            break
        progress = outcome.progress
        assert isinstance(progress, SearchProgress)
        bounds.append(progress.at_least)
    assert isinstance(outcome, AnalysisResult) and outcome.exact and expected.exact
    assert (outcome.value, set(outcome.best_moves)) == (
        expected.value,
        {move_name(move) for move in expected.best_moves},
    )
    known = [bound for bound in bounds if bound is not None]
    assert known, bounds  # the slices said a bound before the last one proved the value
    assert bounds[len(bounds) - len(known) :] == known  # once said, said in every later slice
    assert known == sorted(known) and known[-1] <= expected.value
