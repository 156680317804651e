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

import numpy as np
import pytest
from numba import njit

from battle.rules.board import Position, move_name
from battle.rules.tiles import EMPTY
from solver import FULL_DEPTH, Engine, Limits
from solver import _search as k
from solver.engine import HELPER_MIN_TILES
from tests import naive
from tests.solver.solver_cases import BIG, DATA, assert_usable, check_line, known_values, load, played_down


def column_position(columns: dict[int, list[int]]) -> Position:
    """Columns (by index) of kinds from the top row down; everything else empty."""
    cells = [EMPTY] * 108
    for col, kinds in columns.items():
        for row, kind in enumerate(kinds):
            cells[col * 9 + row] = kind
    return Position(cells, 1, (0, 0))


def key_of(engine: Engine, position: Position) -> tuple[int, int]:
    root = engine._encode(position)
    return int(root.keys[k.K_CODES]), int(root.keys[k.K_MIX])


# 1m lone in columns a and b, 1m on top of c (over 2m 2m) and of d (over 3m 3m).
START = {0: [0], 1: [0], 2: [0, 1, 1], 3: [0, 2, 2]}


def test_the_depth_of_a_proof_is_the_kernels_own() -> None:
    assert FULL_DEPTH == k.FULL_DEPTH  # the limits give it without loading the kernels


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
    """The key holds each kind's count halved (a search only takes pairs), so positions
    whose counts differ in parity (odd counts come from the editor) may share a key; the
    engine keeps such positions apart by clearing its table when the parities change."""
    engine = Engine(table_bits=10)
    keys = {}
    for lone in ([], [5, 5], [5, 5, 5, 5], [26, 26], [20, 20], [21, 21], [5, 5, 26, 26]):
        columns = {0: [1, 2, 3]} | {4 + i: [kind] for i, kind in enumerate(lone)}
        keys[key_of(engine, column_position(columns))] = lone
    assert len(keys) == 7

    even = column_position({0: [1, 2, 3], 4: [5], 5: [5]})
    odd = column_position({0: [1, 2, 3], 4: [5], 5: [5], 6: [5]})
    assert key_of(engine, even) == key_of(engine, odd)
    engine.clear()
    cleared = []
    clear = engine.clear
    engine.clear = lambda: (cleared.append(True), clear())[1]  # type: ignore[method-assign]
    engine.search(even)
    engine.search(even)
    assert not cleared
    assert engine.search(odd).value == naive.value(odd.copy())
    assert cleared == [True]  # another parity: the table started afresh


def test_the_key_names_the_position_one_to_one() -> None:
    """Distinct column states and halved counts give distinct keys: the two words are the
    position's code (base 29 per column; counts mixed by a bijection), not a hash."""
    engine = Engine(table_bits=10)
    code_part, mix_part, pair_part = k.key_parts(engine.key_table)
    codes = {int(code_part[col, code]) for col in range(k.COLS) for code in range(k.COLUMN_CODES)}
    assert len(codes) == 1 + k.COLS * (k.COLUMN_STATES - 1)  # every settled code is 0
    rng = random.Random(4)
    state_codes = [0] + [k.column_code.py_func(top, bottom) for top in range(9) for bottom in range(top + 2, 9)]
    seen: dict[tuple[int, int], tuple] = {}
    for _ in range(3000):
        halves = tuple(rng.randrange(3) for _ in range(k.KINDS))
        columns = tuple(rng.randrange(k.COLUMN_STATES) for _ in range(k.COLS))
        codes_word = sum(int(code_part[col, state_codes[s]]) for col, s in enumerate(columns))
        mix = (
            sum(h * int(pair_part[kind]) for kind, h in enumerate(halves))
            + sum(int(mix_part[col, state_codes[s]]) for col, s in enumerate(columns))
        ) % (1 << k.MIX_BITS)
        assert seen.setdefault((codes_word, mix), (halves, columns)) == (halves, columns)


def test_the_incremental_keys_match_keys_computed_afresh() -> None:
    rng = random.Random(5)
    engine = Engine(table_bits=10)
    for _ in range(30):
        position = played_down(rng, 100, min_tiles=40)
        root = engine._encode(position)
        while position.legal_moves():
            move = rng.choice(position.legal_moves())
            k.apply_move(root.cells, root.runs, root.keys, engine.key_table, *move)
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
        expected = sorted(
            (kind % 9 + 1 for kind, cells in by_kind.items() for _ in range(len(cells) // 2)), reverse=True
        )
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
            saved = k.apply_move(root.cells, root.runs, root.keys, engine.key_table, a, b)
            pairs, settled = k._masks_after(root.cells, root.runs, free, words, 0, a, b, saved)
            expected = k.free_masks(root.cells, root.runs, scan)
            assert (pairs, settled) == expected
            assert list(free[words : words + k.KINDS]) == list(scan[: k.KINDS])
            assert (free[words + k.F_PAIRS], free[words + k.F_SETTLED]) == expected
            k.undo_move(root.cells, root.runs, root.keys, engine.key_table, a, b, saved)
            checked += 1
    assert checked > 200


def _move_word(root, move: tuple[int, int]) -> int:
    """The search's move word for a legal move (``_add_move``), from its cells' column ends."""
    ends = []
    for cell in move:
        col, row = divmod(cell, k.ROWS)
        top, bottom = int(root.runs[col]), int(root.runs[k.COLS + col])
        ends.append(2 * col + (1 if row == bottom and bottom != top else 0))
    words = np.zeros(1, dtype=np.int64)
    assert k._add_move(words, 0, 0, root.runs, ends[0], ends[1]) == 1
    assert int(words[0]) & k.MOVE_MASK == min(move) * 128 + max(move)
    return int(words[0])


def test_the_takes_give_each_childs_key_words_and_uncovered_kinds() -> None:
    """The move ordering reads a child's key words and the kinds a move uncovers off two
    tables indexed by the move's column takes (``make_key_table``, ``fill_exposures``);
    they must equal playing the move (``apply_move``) and asking the model which tiles
    became free, for every legal move of random boards: one column or two, runs of every
    length, columns emptied, settled or left as lone tiles."""
    rng = random.Random(13)
    engine = Engine(table_bits=10)
    checked = 0
    for _ in range(60):
        position = played_down(rng, 108, min_tiles=2)
        root = engine._encode(position)
        codes, mix = int(root.keys[k.K_CODES]), int(root.keys[k.K_MIX])
        for a, b in position.legal_moves():
            word = _move_word(root, (a, b))
            kind = int(root.cells[a])
            saved = k.apply_move(root.cells, root.runs, root.keys, engine.key_table, a, b)
            assert k.child_key_words(codes, mix, engine.key_table, kind, word) == (
                root.keys[k.K_CODES],
                root.keys[k.K_MIX],
            )
            k.undo_move(root.cells, root.runs, root.keys, engine.key_table, a, b, saved)
            after = position.copy()
            after.push((a, b))
            uncovered = set(after.free_cells()) - set(position.free_cells())
            first, second = k.exposed_kinds(engine.exposed, word)
            assert sorted(kind for kind in (first, second) if kind >= 0) == sorted(
                position.cells[cell] for cell in uncovered
            )
            checked += 1
    assert checked > 300


def test_bit_intrinsics() -> None:
    @njit
    def bits(x: int) -> tuple[int, int, int]:
        return k.popcount(x), k.lowest_bit(x) if x != 0 else -1, k.highest_bit(x) if x != 0 else -1

    for value in (0, 1, 2, 3, 0b1011000, (1 << 40) | (1 << 3), (1 << 62) | 1):
        assert bits(np.int64(value)) == (
            bin(value).count("1"),
            (value & -value).bit_length() - 1,
            value.bit_length() - 1,
        )


def small_table() -> np.ndarray:
    return np.zeros((1 << k.MIN_TABLE_BITS) * k.ENTRY_WORDS, dtype=np.int64)


def some_keys(codes: int, mix: int) -> np.ndarray:
    keys = np.zeros(k.KEY_WORDS, dtype=np.int64)
    keys[k.K_CODES], keys[k.K_MIX] = codes, mix
    return keys


def test_a_torn_entry_reads_as_a_miss() -> None:
    tt = small_table()
    keys = some_keys(11, 22 + (5 << 30))
    k.tt_store(tt, keys, -7, k.EXACT, FULL_DEPTH, 5 * 128 + 9, 3)
    entry = k.tt_probe(tt, keys)
    assert (k.entry_lower(entry), k.entry_upper(entry), k.entry_move(entry)) == (-7, -7, 5 * 128 + 9)

    (used,) = np.nonzero(tt)[0][1::2]
    # Another writer got one of its two words in, but not the other.
    for word in (used - 1, used):
        for bit in (3, 12, 50, 62):
            torn = tt.copy()
            torn[word] ^= 1 << bit
            assert k.tt_probe(torn, keys) == 0, f"word {word}, bit {bit}"
    # Keys that differ only in the bits an entry keeps, or only in the line's bits, miss.
    for other in (
        some_keys(12, keys[k.K_MIX]),
        some_keys(11, keys[k.K_MIX] ^ 1),
        some_keys(11, keys[k.K_MIX] ^ (1 << 20)),
        some_keys(11, keys[k.K_MIX] ^ (1 << 42)),
    ):
        assert k.tt_probe(tt, other) == 0


def test_a_line_keeps_four_positions_then_evicts_the_least_worthy() -> None:
    tt = small_table()
    line = 77 << (k.MIX_BITS - k.MIN_LINE_BITS)  # K_MIX values on one line, told apart by q
    keys = [some_keys(3, line + q) for q in range(5)]
    for index, work in enumerate((20, 6, 30, 12)):
        k.tt_store(tt, keys[index], index, k.EXACT, FULL_DEPTH, 0, work)
    assert [k.entry_lower(k.tt_probe(tt, key)) for key in keys[:4]] == [0, 1, 2, 3]
    k.tt_store(tt, keys[4], 4, k.LOWER, FULL_DEPTH, 0, 0)
    assert k.tt_probe(tt, keys[1]) == 0  # the least work, evicted
    assert [k.entry_lower(k.tt_probe(tt, key)) for key in (keys[0], keys[2], keys[3], keys[4])] == [0, 2, 3, 4]


def test_an_entry_keeps_both_bounds_and_the_move_of_a_cut() -> None:
    """A position proved >= 3 by a cut and then <= 5 by a fail-low holds both facts, and the cut's move."""
    tt = small_table()
    keys = some_keys(11, 22)
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
    assert 0.25 < elapsed < 10.0  # stopped: the whole search takes minutes; a loaded machine is slow to stop
    assert_usable(position, analysis)
    assert not [t for t in threading.enumerate() if t.name.startswith("solver-helper")]


def test_helpers_count_their_nodes(pair: tuple[Engine, Engine]) -> None:
    _, threaded = pair
    threaded.clear()
    analysis = threaded.search(load(BIG), Limits(nodes=200_000))
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
