"""The door to the solver (``battle.players``): services that own their engine, and what it hands on."""

from __future__ import annotations

import random

import pytest

import battle.players as players
from battle.players import SMALLEST_TABLE_MEGABYTES, Advisor, Limits, Opponent
from battle.rules.board import Position, biggest_pair
from battle.rules.deal import deal


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
    assert SMALLEST_TABLE_MEGABYTES == 32


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
