"""The plain-Python search values every move as the kernel does, so a level in ``PLAIN_LEVELS``
picks the same move from either with the same random numbers; master's deepens within its time and
answers from the deepest depth it completed, as the kernel's timed search does."""

from __future__ import annotations

import dataclasses
import random
import threading

import pytest

from battle.players import LEVELS, PLAIN_LEVELS, TIMED_PLAIN_LEVELS, Opponent, PlainOpponent
from battle.rules.board import Position
from battle.rules.deal import deal
from solver.engine import Engine
from solver.levels import choose_from
from solver.limits import Limits
from solver.plain_search import PLAIN_MAX_DEPTH, plain_analysis, plain_within
from tests.game_cases import random_positions


def positions(count: int, seed: int) -> list[Position]:
    """Random deals played 0 to 40 random moves in, each with a move to make."""
    return random_positions(count, seed, most_moves=40)


def test_every_level_with_a_depth_plays_without_the_kernels() -> None:
    assert PLAIN_LEVELS == ("beginner", "casual", "club", "expert", "master")
    assert TIMED_PLAIN_LEVELS == ("master",)
    assert all(LEVELS[name].depth <= PLAIN_MAX_DEPTH for name in PLAIN_LEVELS if name not in TIMED_PLAIN_LEVELS)


@pytest.mark.parametrize("depth", [1, 2, 4, 8])
def test_every_moves_value_is_the_kernels(depth: int) -> None:
    for position in positions(12, seed=depth):
        kernel = Engine(table_bits=16, threads=1).search(position.copy(), Limits(depth=depth), all_exact=True)
        plain = plain_analysis(position, depth)
        assert [(mv.move, mv.value) for mv in plain.move_values] == [(mv.move, mv.value) for mv in kernel.move_values]
        assert plain.value == kernel.value and plain.best_moves == kernel.best_moves


def test_the_best_moves_are_the_kernels_without_every_value() -> None:
    # the kernel's root probes the moves after the first with a null window: the same best moves,
    # and an upper bound at most the best for the others
    for position in positions(8, seed=11):
        kernel = Engine(table_bits=16, threads=1).search(position.copy(), Limits(depth=8))
        plain = plain_analysis(position, 8, all_exact=False)
        assert plain.value == kernel.value and plain.best_moves == kernel.best_moves
        assert all(mv.value <= plain.value for mv in plain.move_values)


@pytest.mark.parametrize("level", ["beginner", "casual", "club", "expert"])
def test_a_level_picks_the_kernels_move(level: str) -> None:
    plain = PlainOpponent()
    for index, position in enumerate(positions(10, seed=45)):
        kernel_move = Opponent(level, seed=index).move(position.copy())
        plain_move = plain.move(position.copy(), level=level, rng=random.Random(index))
        assert plain_move == kernel_move, (index, level)
        # the same tie-break: the values sorted best first, then by move, drawn from with the same numbers
        kernel = Engine(table_bits=16, threads=1).search(position.copy(), LEVELS[level].limits, all_exact=True)
        assert choose_from(kernel, LEVELS[level], random.Random(index)) == plain_move


def test_a_timed_search_answers_from_its_deepest_completed_depth() -> None:
    position = deal(3)  # 108 tiles: depth 16 takes plain Python far longer than a second
    found = plain_within(position, 16, 1.0, all_exact=False)
    assert 4 <= found.depth < 16 and not found.exact
    kernel = Engine(table_bits=18, threads=1).search(position.copy(), Limits(depth=found.depth))
    assert (found.value, found.best_moves) == (kernel.value, kernel.best_moves)
    small = random_positions(1, 7, most_moves=40)[0]
    assert plain_within(small, 4, 60.0).move_values == plain_analysis(small, 4).move_values  # in time: the depth


def test_master_without_the_kernels_stops_when_told() -> None:
    slow_master = dataclasses.replace(LEVELS["master"], time_limit=3600.0)  # only a stop ends it in time
    opponent, chosen = PlainOpponent(), []
    search = threading.Thread(
        target=lambda: chosen.append(opponent.move(deal(3), level=slow_master, rng=random.Random(1)))
    )
    search.start()
    opponent.stop()
    search.join(120)
    assert not search.is_alive() and chosen and chosen[0] in deal(3).legal_moves()
    opponent.clear_stop()
    asked = []
    found = plain_within(deal(3), 16, 3600.0, stopped=lambda: asked.append(1) is None)  # stopped at its first look
    assert found.depth < 16 and len(asked) == 1


def test_a_deep_level_is_refused() -> None:
    with pytest.raises(ValueError, match="perfect"):
        PlainOpponent().move(deal(1), level="perfect", rng=random.Random(1))
    with pytest.raises(ValueError, match="depth must be 1 or more: 0"):
        plain_analysis(deal(1), 0)
