"""The solver's table keys, its lockless entries, and helper threads sharing it.

Keys identify positions up to settled tiles (free tiles in columns of at most
two, which cover nothing and are told apart only by their kind); entries are
stored so that a slot torn by two writers reads as a miss; and an engine with
helper threads must answer exactly as a single-threaded one does, and stop as
promptly.
"""

from __future__ import annotations

import random
import threading
import time

import naive
import numpy as np
import pytest
from numba import njit
from test_solver import BIG, DATA, assert_usable, check_line, known_values, load, played_down

from battle.board import Position, move_name
from battle.tiles import EMPTY
from solver import FULL_DEPTH, Engine
from solver import _search as k
from solver.engine import HELPER_MIN_TILES


def column_position(columns: dict[int, list[int]]) -> Position:
    """Columns (by index) of kinds from the top row down; everything else empty."""
    cells = [EMPTY] * 108
    for col, kinds in columns.items():
        for row, kind in enumerate(kinds):
            cells[col * 9 + row] = kind
    return Position(cells, 1, (0, 0))


def key_of(engine: Engine, position: Position) -> tuple[int, int, int]:
    root = engine._encode(position)
    return int(root.keys[0]), int(root.keys[1]), int(root.keys[k.K_TALLY])


# 1m lone in columns a and b, 1m on top of c (over 2m 2m) and of d (over 3m 3m).
START = {0: [0], 1: [0], 2: [0, 1, 1], 3: [0, 2, 2]}


def test_positions_that_differ_only_in_settled_copies_share_a_key() -> None:
    engine = Engine(table_bits=10)
    first = column_position(START)
    second = first.copy()
    first.push((0, 18))  # a1 with c1: b1's lone 1m stays
    second.push((9, 18))  # b1 with c1: a1's lone 1m stays
    assert first.cells != second.cells
    assert key_of(engine, first) == key_of(engine, second)
    assert naive.value(first.copy()) == naive.value(second.copy())

    # Taking d1 instead leaves column c long (1m still covers 2m 2m): another position.
    third = column_position(START)
    third.push((0, 27))
    assert key_of(engine, third) != key_of(engine, first)


def test_the_key_counts_every_kind_exactly() -> None:
    """Counts go into the key in full (not in pairs), so odd counts from the editor
    cannot make two different multisets of settled tiles look alike."""
    engine = Engine(table_bits=10)
    keys = set()
    for lone in ([], [5], [5, 5], [5, 5, 5], [26], [26, 26], [20], [21]):
        columns = {0: [1, 2, 3]} | {4 + i: [kind] for i, kind in enumerate(lone)}
        keys.add(key_of(engine, column_position(columns)))
    assert len(keys) == 8


def test_the_incremental_keys_match_keys_computed_afresh() -> None:
    rng = random.Random(5)
    engine = Engine(table_bits=10)
    for _ in range(30):
        position = played_down(rng, 100, min_tiles=40)
        root = engine._encode(position)
        while position.legal_moves():
            move = rng.choice(position.legal_moves())
            k.apply_move(root.cells, root.runs, root.keys, engine.zobrist, *move)
            position.push(move)
            assert np.array_equal(root.keys, engine._encode(position).keys)


def test_the_free_masks_match_the_model() -> None:
    """The kernel's per-kind masks of free column ends, the kinds with a pair free and the
    settled ends (columns of at most two tiles) agree with ``Position`` on random boards."""
    rng = random.Random(11)
    engine = Engine(table_bits=10)
    free = np.zeros(k.FREE_WORDS, dtype=np.int64)
    for _ in range(60):
        position = played_down(rng, 108, min_tiles=2)
        root = engine._encode(position)
        pairs, settled = k.free_masks(root.cells, root.runs, free)
        by_kind: dict[int, set[int]] = {}
        for cell in position.free_cells():
            by_kind.setdefault(position.cells[cell], set()).add(cell)
        for kind in range(k.KINDS):
            ends = [end for end in range(2 * k.COLS) if free[kind] >> end & 1]
            assert {int(k._end_cell(root.runs, end)) for end in ends} == by_kind.get(kind, set())
            assert len(ends) == len(by_kind.get(kind, ()))
            assert bool(pairs >> kind & 1) == (len(ends) >= 2)
            for end in ends:
                top, bottom = position.column_run(end // 2)
                assert bool(settled >> end & 1) == (bottom - top < 2)
        expected = sorted((kind % 9 + 1 for kind, cells in by_kind.items() for _ in range(len(cells) // 2)),
                          reverse=True)
        assert k.greedy_alternation(free) == sum(expected[0::2]) - sum(expected[1::2])


def test_the_masks_after_a_move_match_a_fresh_scan() -> None:
    """The search derives a child's free masks from its parent's and the move's one or two
    columns; that must equal scanning the child's twelve columns, for every legal move
    (tiles from one column or two, columns emptied, settled or left as lone tiles)."""
    rng = random.Random(12)
    engine = Engine(table_bits=10)
    words = k.FREE_WORDS
    free = np.zeros(2 * words, dtype=np.int64)
    scan = np.zeros(words, dtype=np.int64)
    checked = 0
    for _ in range(40):
        position = played_down(rng, 108, min_tiles=2)
        root = engine._encode(position)
        k._free_masks_at(root.cells, root.runs, free, 0)
        for a, b in position.legal_moves():
            saved = k.apply_move(root.cells, root.runs, root.keys, engine.zobrist, a, b)
            pairs, settled = k._masks_after(root.cells, root.runs, free, words, 0, a, b, saved)
            expected = k.free_masks(root.cells, root.runs, scan)
            assert (pairs, settled) == expected
            assert list(free[words:words + k.KINDS]) == list(scan[:k.KINDS])
            assert (free[words + k.F_PAIRS], free[words + k.F_SETTLED]) == expected
            k.undo_move(root.cells, root.runs, root.keys, engine.zobrist, a, b, saved)
            checked += 1
    assert checked > 200


def test_bit_intrinsics() -> None:
    @njit
    def bits(x: int) -> tuple[int, int]:
        return k.popcount(x), k.lowest_bit(x) if x != 0 else -1

    for value in (0, 1, 2, 3, 0b1011000, (1 << 40) | (1 << 3), (1 << 62) | 1):
        assert bits(np.int64(value)) == (bin(value).count("1"), (value & -value).bit_length() - 1)


def test_a_torn_slot_reads_as_a_miss() -> None:
    tt = np.zeros(16 * k.SLOT_WORDS, dtype=np.int64)
    keys = np.zeros(k.KEY_WORDS, dtype=np.int64)
    keys[0], keys[1], keys[k.K_TALLY], keys[k.K_HASH] = 11, 22, 33, 6
    k.tt_store(tt, keys, -7, k.EXACT, FULL_DEPTH, 5 * 128 + 9, 3)
    entry = k.tt_probe(tt, keys)
    assert (k.entry_lower(entry), k.entry_upper(entry), k.entry_move(entry)) == (-7, -7, 5 * 128 + 9)

    slot = 6 if tt[6 * k.SLOT_WORDS + k.E] else 7
    # Another writer got its entry word in, but not its key words (or the reverse).
    for word in range(k.SLOT_WORDS):
        torn = tt.copy()
        torn[slot * k.SLOT_WORDS + word] ^= 1 << 12
        assert k.tt_probe(torn, keys) == 0, f"word {word}"
    other = keys.copy()
    other[k.K_TALLY] = 34
    assert k.tt_probe(tt, other) == 0


def test_an_entry_keeps_both_bounds_and_the_move_of_a_cut() -> None:
    """A position proved >= 3 by a cut and then <= 5 by a fail-low holds both facts, and the cut's move."""
    tt = np.zeros(16 * k.SLOT_WORDS, dtype=np.int64)
    keys = np.zeros(k.KEY_WORDS, dtype=np.int64)
    keys[0], keys[1], keys[k.K_TALLY], keys[k.K_HASH] = 11, 22, 33, 6
    k.tt_store(tt, keys, 3, k.LOWER, FULL_DEPTH, 5 * 128 + 9, 3)
    k.tt_store(tt, keys, 5, k.UPPER, FULL_DEPTH, 7 * 128 + 8, 2)
    entry = k.tt_probe(tt, keys)
    assert (k.entry_lower(entry), k.entry_upper(entry), k.entry_move(entry)) == (3, 5, 5 * 128 + 9)
    k.tt_store(tt, keys, 4, k.LOWER, FULL_DEPTH, 7 * 128 + 8, 2)
    entry = k.tt_probe(tt, keys)
    assert (k.entry_lower(entry), k.entry_upper(entry), k.entry_move(entry)) == (4, 5, 7 * 128 + 8)
    # A bound from a shallower search replaces the entry rather than mixing depths.
    k.tt_store(tt, keys, 9, k.UPPER, 6, 0, 1)
    entry = k.tt_probe(tt, keys)
    assert (k.entry_lower(entry), k.entry_upper(entry), k.entry_depth(entry)) == (k.NO_LOWER, 9, 6)


# -- helper threads ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def pair() -> tuple[Engine, Engine]:
    # Helpers on every search, however small, so that these tests exercise them.
    return Engine(table_bits=18), Engine(table_bits=18, threads=2, helper_min_tiles=0)


@pytest.mark.parametrize("row", known_values(), ids=lambda row: row["id"])
def test_two_threads_find_the_known_values(pair: tuple[Engine, Engine], row: dict) -> None:
    _, threaded = pair
    threaded.clear()
    position = load(DATA / f"{row['id']}.mbp")
    analysis = threaded.search(position)
    assert (analysis.exact, analysis.value) == (True, row["value"])
    assert sorted(move_name(m) for m in analysis.best_moves) == sorted(row["best_moves"])
    check_line(position, analysis)


@pytest.mark.parametrize("seed", range(12))
def test_two_threads_agree_with_one(pair: tuple[Engine, Engine], seed: int) -> None:
    single, threaded = pair
    position = played_down(random.Random(seed), 44, min_tiles=30)
    expected = single.search(position)
    threaded.clear()
    got = threaded.search(position, all_exact=seed % 2 == 0)
    assert (got.value, got.best_moves, got.exact) == (expected.value, expected.best_moves, True)
    check_line(position, got)
    if seed % 2 == 0:
        full = single.search(position, all_exact=True)
        assert [(mv.move, mv.value, mv.bound) for mv in got.move_values] == [
            (mv.move, mv.value, mv.bound) for mv in full.move_values
        ]


def test_two_threads_stop_promptly_and_leave_no_helper_running(pair: tuple[Engine, Engine]) -> None:
    _, threaded = pair
    threaded.clear()
    position = load(BIG)
    timer = threading.Timer(0.3, threaded.stop)
    started = time.perf_counter()
    timer.start()
    analysis = threaded.search(position)
    elapsed = time.perf_counter() - started
    timer.cancel()
    assert 0.25 < elapsed < 1.5
    assert_usable(position, analysis)
    assert not [t for t in threading.enumerate() if t.name.startswith("solver-helper")]


def test_helpers_count_their_nodes(pair: tuple[Engine, Engine]) -> None:
    _, threaded = pair
    threaded.clear()
    analysis = threaded.search(load(BIG), node_limit=200_000)
    assert analysis.nodes >= 200_000
    assert threaded.threads == 2


def test_small_searches_run_without_helpers() -> None:
    """Below HELPER_MIN_TILES the threads would cost more than they save: the main search runs alone."""
    position = played_down(random.Random(3), 40, min_tiles=30)
    assert position.tiles_left() < HELPER_MIN_TILES
    engine = Engine(table_bits=16, threads=2)
    analysis = engine.search(position)
    assert engine._helper_nodes == 0
    assert analysis.nodes == engine._nodes()
    eager = Engine(table_bits=16, threads=2, helper_min_tiles=0)
    eager.search(position)
    assert eager._helper_nodes > 0


def test_thread_count_is_checked() -> None:
    with pytest.raises(ValueError, match="threads"):
        Engine(table_bits=10, threads=0)
