"""The numba search kernels: negamax alpha-beta over flat arrays.

Every kernel here is ``@njit(cache=True, nogil=True, _nrt=False)`` on plain numpy
arrays and scalars, so kernels compile once per machine and run without the GIL
(the window keeps drawing while the solver thinks; ``_nrt`` is explained at the
end). No exceptions, no I/O: the Python wrapper in ``solver.engine`` validates
input and decodes results. All kernels live in this one file on purpose: numba's
on-disk cache is invalidated only by changes to the file of the cached function,
so a kernel calling jitted helpers from another module would keep stale code
after they change.

Kernels call each other with int64 arguments only (``np.int64(...)`` around an
int8 cell or a literal constant): numba compiles a kernel once for each distinct
set of argument types, literals included, and mixed types made 63 compiles of what
are 42, 2.8 s of a first run's 13 s (``solver.compile_ahead``).

Map of this file: its parts, in this order, each under a banner comment of the
same name.

* **constants**: board sizes, bound kinds, the counters shared with the caller,
  the search's thresholds (``EXACT_BELOW_POINTS``, ``ETC_MIN_POINTS``,
  ``CHEAP_ORDER_POINTS``), the key words (``K_CODES``, ``K_MIX``, ``K_COUNTS``).
* **bit intrinsics and small helpers**: ``prefetch_line``, ``popcount``,
  ``lowest_bit``, ``highest_bit``, ``_ix``, ``_points``, ``_log2``.
* **keys**: the key table (``make_key_table``), column codes and takes
  (``column_code``, ``take_index``, ``run_taken``), what a take uncovers
  (``fill_exposures``), the key words from scratch (``compute_keys``) and
  updated (``_update_key``).
* **making and taking back moves**: ``apply_move`` and ``undo_move`` (the key
  updated column by column), ``_move_runs`` and ``_restore_runs`` (the search's
  own, when the ordering has already worked out the child's key words).
* **free masks**: which tiles of each kind are free (``free_masks``,
  ``_free_masks_at``; a child's from its parent's, ``_masks_after``), which is
  what move generation reads.
* **greedy all-free evaluation**: ``greedy_alternation``, exact when every tile
  is free, the estimate at a depth-limited search's horizon.
* **transposition table**: the entry layout; the probe (``tt_probe_keys``,
  ``tt_probe``, and ``_probe_node``, a node's probe of its own entry); the
  bounds an entry holds (``entry_lower`` ... ``entry_answer``); the store and
  what it evicts (``tt_store``, ``tt_store_bounds``, ``_worth``).
* **move generation**: the move words (``_add_move``; ``MOVE_MASK`` and the
  fields above it), one move per settled copy and per tempo pair
  (``_generate_moves``), a move's child's key words (``child_key_words``) and
  the kinds it uncovers (``exposed_kinds``).
* **move ordering**: the weights of the ordering score (``POINTS_WEIGHT`` to
  ``TABLE_MOVE_SCORE``), the score itself (``_order_score``), the cells the
  opponent's last move uncovered (``_uncovered``), the killers
  (``_set_killer``).
* **search stack and deferral table**: the frame fields (``F_*``), the scratch
  buffers (``make_workspace``), the helpers' deferral (``SPLIT_MIN_POINTS``,
  ``DEFERRED``).
* **negamax: the node loop**: one ``while`` loop over an explicit stack of
  frames, a state machine whose states are banners inside the function:

  - *ENTER* a node: the stop check; the leaves (every tile free, or the
    horizon: ``greedy_alternation``); the node's table probe (``_probe_node``);
    move generation (``_masks_after``, ``_generate_moves``); the children's key
    words, their table lines prefetched; the ordering (``_order_score``); ETC,
    the enhanced transposition cutoffs: every child's entry read
    (``tt_probe_keys``), which may settle the node with no child searched;
  - *NEXT* move: when every move is done, the node's entry stored
    (``tt_store``, ``tt_store_bounds``); else the best-scored move left picked
    (a selection-sort step), answered by the entry ETC read if that settles
    it, put off while another thread searches it (the helpers' deferral), or
    played and its child entered;
  - *RETURN* a value: the move taken back, its deferral slot freed, the best
    value and alpha raised, a cut at beta (the move becomes the killer).
* **the best line**: ``line_candidates`` (every move, the table move first),
  which ``Engine._principal_variation`` follows one search call at a time.

The parallel search (lazy SMP: helper threads search the same root in other
orders and share the table, with ABDADA-style deferral) has two halves.
``solver/engine.py`` has the threads: ``Engine._helping`` starts the helpers,
each with its own counters, scratch buffers and copy of the runs and keys, on
``Engine._root_values`` in other root orders, while the main search runs
``Engine._root_values`` on the caller's thread; results come from the main
search alone. This file has what they share: the table, whose entries are safe
to write without locks (see "transposition table"), and ``busy``, the deferral
table, which ``negamax`` fills and reads in its NEXT and RETURN states ("the
helpers' deferral" there).

State of a search (all int arrays, owned by the caller):

* ``cells``  int8[108]  kind in each cell, column-major (``col*9+row``); kinds
  never change during a search, only the column runs do;
* ``runs``   int8[24]   top row of each column, then bottom row; a column is
  empty when top > bottom;
* ``keys``   int64[29]  the position's key, two words that name it one-to-one
  (the column codes, and the counts mixed with the columns; see
  ``compute_keys``), then how many tiles of each kind are left (27 counts);
* ``key_table`` int64[...] what the key words are made and updated from
  (``make_key_table``: per column state its base-29 digit and a random number,
  per kind what a pair adds to the mixed word, and per "take" what it changes
  in both key words);
* ``exposed`` int16[TAKES]  per take, the kinds of the tiles it uncovers
  (``fill_exposures``; it depends on the layout, as ``cells`` does).

A "take" is what a move does to one column: its top tile taken, its bottom
tile taken, or both (a move of two copies in one column), from a given run.
There are fewer than ``TAKES`` of them, and both tables are indexed by them
(``take_index``), so the move ordering finds a child's key words and the tiles
a move uncovers with two reads per column instead of working them out from
the runs.

Positions are keyed up to an equivalence that the rules make exact. A tile in a
column of at most two tiles is free and covers nothing, and stays so until it
is taken: such "settled" tiles differ only in their kind. So the key holds the
exact run of every column of three or more tiles (settled columns code 0),
plus how many tiles of each kind are left; from those the multiset of settled
tiles follows. Two positions with the same key have the same value, and the
search treats settled tiles of one kind as one: of the moves that differ only
in which settled copy they take, it searches one.

The value of a position is what the side to move will still score minus what
the opponent will (negamax). It depends on the board only, never on scores or
on who is to move, so the table is keyed on the runs alone.

The transposition table stores the full key (no false hits; part of it is
implied by where the entry sits), a lower and an upper bound on the value
(equal when it is exact), the depth they are valid for
(``FULL_DEPTH`` when the subtree was searched to the end, so they are bounds on
the exact value), the best move and the work spent.

Contract of ``negamax(alpha, beta)`` (fail-soft within the window): if the true
value v <= alpha the result r satisfies v <= r <= alpha; if v >= beta then
beta <= r <= v; otherwise r == v. Requires alpha < beta.

``_nrt=False`` is a private numba option: the function is compiled without the
NRT, numba's reference-counted memory manager. A kernel then cannot allocate an
array (none does: the caller allocates them all, ``make_workspace``), and numba
emits no reference counting of the arrays it hands to the helpers it calls, which
makes the search 22-27% faster (docs/solver-notes.md, "Figures behind the code's
comments"). Small helpers are ``inline="always"``: numba puts them into the
caller's IR, where LLVM would sometimes leave a call.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

# -- constants --------------------------------------------------------------------------

ROWS = 9
COLS = 12
CELLS = 108
KINDS = 27

EXACT = 0
LOWER = 1
UPPER = 2

INF = 10_000
FULL_DEPTH = 127
"""Depth stored for an exact (completely searched) entry; no game is this long."""

# counters: shared int64 array between the kernel and its caller.
C_NODES = 0
C_STOP = 1
C_NODE_LIMIT = 2
C_INEXACT = 3
C_ABORTED = 4
C_TT_HITS = 5
COUNTERS = 8

NODE_LIMIT_CHECK_MASK = 1023
"""The node limit is read every 1,024 nodes (the stop flag at every node)."""
ETC_MIN_POINTS = 25
"""Enhanced transposition cutoffs only where the subtree is worth a table probe per move."""
CHEAP_ORDER_POINTS = 20
"""Below this many points on the board, order by points alone: the threat scan
costs more than it saves there (same node counts on the 64/72-tile bench set)."""
assert CHEAP_ORDER_POINTS <= ETC_MIN_POINTS, "the cutoffs read the children's keys, which the full ordering computes"
EXACT_BELOW_POINTS = 40
"""Nodes with fewer points on the board are searched with the whole range as their window,
so they end with an exact value: see ``negamax``."""

K_CODES = 0
"""Key word: the column codes as one base-29 number (``COLUMN_STATES`` codes a column)."""
K_MIX = 1
"""Key word: the counts and the columns mixed into ``MIX_BITS`` bits (see ``compute_keys``)."""
K_COUNTS = 2
KEY_WORDS = K_COUNTS + KINDS
COLUMN_STATES = 29
"""A column's states in the key: settled, or one of the 28 runs of three or more rows."""
MIX_BITS = 43
"""3**27 < 2**43: the halved counts, a base-3 number, fit; so does their mix."""
MIX_MASK = (np.int64(1) << MIX_BITS) - 1
MIX_ODD = np.int64(0x5DEECE66D1B)
"""An odd multiplier: the counts times it (mod 2**MIX_BITS) spread over the high bits, which index the table."""


# -- bit intrinsics and small helpers ---------------------------------------------------


@intrinsic
def prefetch_line(typingctx, table, line):  # noqa: ANN001, ANN201, ARG001 - numba intrinsic protocol
    """Start loading table line ``line`` (``table[LINE_WORDS*line]``) into the cache without waiting (LLVM's prefetch).

    A table probe is a cache miss; issuing the probes of all of a node's
    children before reading any lets the misses overlap instead of queueing.
    """
    if not isinstance(table, types.Array) or table.ndim != 1 or not isinstance(line, types.Integer):
        return None

    def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202
        table_type, line_type = signature.args
        array = context.make_array(table_type)(context, builder, args[0])
        index = builder.mul(
            context.cast(builder, args[1], line_type, types.intp), context.get_constant(types.intp, LINE_WORDS)
        )
        pointer = cgutils.get_item_pointer(context, builder, table_type, array, [index], wraparound=False)
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32]), "llvm.prefetch.p0"
        )
        builder.call(function, [pointer, i32(0), i32(3), i32(1)])  # read, keep in all caches, data
        return context.get_dummy_value()

    return types.void(table, line), codegen


def _bit_intrinsic(name, doc, emit):  # noqa: ANN001, ANN202
    """A numba intrinsic of one integer argument, cast to 64 bits and handed to ``emit(builder, value)``."""

    def typer(typingctx, x):  # noqa: ANN001, ANN202, ARG001 - numba intrinsic protocol
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202
            return emit(builder, context.cast(builder, args[0], signature.args[0], types.int64))

        return types.int64(x), codegen

    typer.__name__ = typer.__qualname__ = name
    typer.__doc__ = doc
    return intrinsic(typer)


popcount = _bit_intrinsic(
    "popcount",
    "Set bits of a 64-bit integer (one instruction: LLVM's ctpop).",
    lambda builder, value: builder.ctpop(value),
)
lowest_bit = _bit_intrinsic(
    "lowest_bit",
    "Index of the lowest set bit of a nonzero 64-bit integer (LLVM's cttz).",
    lambda builder, value: builder.cttz(value, ir.Constant(ir.IntType(1), 1)),
)
highest_bit = _bit_intrinsic(
    "highest_bit",
    "Index of the highest set bit of a nonzero 64-bit integer (63 - LLVM's ctlz).",
    lambda builder, value: builder.sub(
        ir.Constant(ir.IntType(64), 63), builder.ctlz(value, ir.Constant(ir.IntType(1), 1))
    ),
)


@njit(cache=True, nogil=True, _nrt=False)
def _ix(i):
    """An index as unsigned: numba then skips the negative-index fix-up it adds to every
    signed index (two instructions and a register each; the kernel's indices are never
    negative). Same nodes; about 10% less time on one thread (shared 56-72-tile positions)."""
    return np.uint64(i)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _points(kind):
    """What a pair of ``kind`` (0-26) scores: its value, 1-9.

    The remainder is taken unsigned: on the signed int8 kinds of ``cells``
    numba's ``kind % 9`` adds Python's fix-up for negative operands, a dozen
    instructions at each of the hot loop's several uses."""
    return np.int64(np.uint64(kind) % np.uint64(9)) + 1


@njit(cache=True, nogil=True, _nrt=False)
def _log2(x):
    """floor(log2(x)) for x >= 1 (0 below): the work an entry records (``tt_store_bounds``)."""
    n = 0
    while x > 1:
        x >>= 1
        n += 1
    return n


# -- keys -------------------------------------------------------------------------------

COLUMN_CODES = 82
"""Column codes 0-81 (``column_code``)."""
KINDS_AT = 2 * COLS * COLUMN_CODES
"""Where the kinds' part starts in the key table (``make_key_table``)."""
TAKE_TOP, TAKE_BOTTOM, TAKE_BOTH = 0, 1, 2
"""What a move takes from one column: its top tile (also a lone tile), its bottom tile, or both."""
TAKES = 4096
"""Room for every ``take_index`` (at most 2915), 12 bits; the last one is ``NO_TAKE``."""
NO_TAKE = TAKES - 1
"""The second column of a move that takes both tiles from one column: changes nothing."""
TAKES_AT = (KINDS_AT + KINDS + 7) // 8 * 8
"""Where the takes' key changes start in the key table: two words per take, on a 64-byte line boundary."""


def make_key_table(seed: int) -> np.ndarray:
    """The key table the kernels update keys with: int64[TAKES_AT + 2 * TAKES], flat.

    For each column and column code, two adjacent words (one cache line serves a
    column's update of both key words): the code's digit times 29**col (the digit
    is the code's rank among the 29 column states), and a random number below
    2**MIX_BITS. Then per kind 3**kind * MIX_ODD mod 2**MIX_BITS, what taking a
    pair of the kind subtracts from K_MIX. Then, from ``TAKES_AT``, per take
    (``take_index``) what it adds to K_CODES and to K_MIX (mod 2**MIX_BITS): a
    move's child has the parent's key words plus its one or two takes' (a column
    code depends on the run alone, not on the tiles, so this part holds for every
    layout). Random parts from ``seed``.
    """
    digits = np.zeros(COLUMN_CODES, dtype=np.int64)
    rank = 1
    for top in range(ROWS):
        for bottom in range(top + 2, ROWS):
            digits[column_code.py_func(top, bottom)] = rank  # the plain function: no compile at start-up
            rank += 1
    assert rank == COLUMN_STATES
    columns = np.zeros((COLS, COLUMN_CODES, 2), dtype=np.int64)
    for col in range(COLS):
        columns[col, :, 0] = digits * COLUMN_STATES**col
    rng = np.random.default_rng(seed)
    columns[:, :, 1] = rng.integers(0, 1 << MIX_BITS, size=(COLS, COLUMN_CODES), dtype=np.int64)
    kinds = np.array([(3**kind * int(MIX_ODD)) % (1 << MIX_BITS) for kind in range(KINDS)], dtype=np.int64)
    takes = np.zeros((TAKES, 2), dtype=np.int64)
    for col, top, bottom, which in _all_takes():
        old = column_code.py_func(top, bottom)
        new = column_code.py_func(*run_taken.py_func(top, bottom, which))
        take = take_index.py_func(col, top, bottom, which)
        takes[take, 0] = columns[col, new, 0] - columns[col, old, 0]
        takes[take, 1] = (columns[col, new, 1] - columns[col, old, 1]) % (1 << MIX_BITS)
    gap = np.zeros(TAKES_AT - KINDS_AT - KINDS, dtype=np.int64)
    return np.concatenate([columns.reshape(-1), kinds, gap, takes.reshape(-1)])


def _all_takes() -> list[tuple[int, int, int, int]]:
    """Every (column, top, bottom, which) a move can take from: a run of at least one
    tile, and for its bottom tile or both tiles, of at least two."""
    return [
        (col, top, bottom, which)
        for col in range(COLS)
        for top in range(ROWS)
        for bottom in range(top, ROWS)
        for which in (TAKE_TOP, TAKE_BOTTOM, TAKE_BOTH)
        if which == TAKE_TOP or bottom > top
    ]


def key_parts(table: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``make_key_table``'s parts as arrays: K_CODES's [col, code], K_MIX's [col, code], a pair's [kind]."""
    columns = table[:KINDS_AT].reshape(COLS, COLUMN_CODES, 2)
    return columns[:, :, 0], columns[:, :, 1], table[KINDS_AT:]


@njit(cache=True, nogil=True, _nrt=False)
def column_code(top: int, bottom: int) -> int:
    """The column's part of the key: 1 + top*9 + bottom (at most 81: 7 bits) for a
    run of three or more tiles, 0 for a settled column (two tiles or fewer). Branch-free,
    as ``_update_key``."""
    return (1 + top * 9 + bottom) * np.int64(bottom - top >= 2)


@njit(cache=True, nogil=True, _nrt=False)
def take_index(col, top, bottom, which):
    """A take's index in the ``TAKES`` tables (column, run, which tile or tiles): 0-2915."""
    return ((np.int64(col) * ROWS + top) * ROWS + bottom) * 3 + which


@njit(cache=True, nogil=True, _nrt=False)
def run_taken(top, bottom, which):
    """The run (top, bottom) once a take (``TAKE_TOP``, ``TAKE_BOTTOM`` or ``TAKE_BOTH``) has
    removed its tile or tiles."""
    return top + (1 if which != TAKE_BOTTOM else 0), bottom - (1 if which != TAKE_TOP else 0)


@njit(cache=True, nogil=True, _nrt=False)
def fill_exposures(cells, exposed):
    """Set ``exposed`` (int16[TAKES]) for the layout ``cells``: per take, the kinds of the
    tiles it uncovers (tiles that were not free before and are after), each as kind + 1
    in five bits, a second one (only ever from taking both ends) in bits 5-9; 0 for none.

    Taking an end of a run of three or more tiles uncovers the tile behind it; taking
    both ends of a run of four or more, the two tiles behind them, and of a run of
    three, its middle tile; a run of two covers nothing. A cell the layout has no kind
    for (never on the board while this layout is used) uncovers nothing.
    """
    for i in range(TAKES):
        exposed[i] = 0
    for col in range(COLS):
        for top in range(ROWS):
            for bottom in range(top, ROWS):
                for which in range(3):
                    if which != TAKE_TOP and bottom == top:
                        continue
                    new_top, new_bottom = run_taken(top, bottom, which)
                    first = -1
                    second = -1
                    if new_top <= new_bottom:
                        if new_top != top and new_top != bottom:
                            first = cells[col * ROWS + new_top]
                        if new_bottom != new_top and new_bottom != bottom and new_bottom != top:
                            if first < 0:
                                first = cells[col * ROWS + new_bottom]
                            else:
                                second = cells[col * ROWS + new_bottom]
                    packed = 0
                    if first >= 0:
                        packed = first + 1
                    if second >= 0:
                        packed |= (second + 1) << 5
                    exposed[take_index(col, top, bottom, which)] = packed


@njit(cache=True, nogil=True, _nrt=False)
def _code_part(key_table, col, code):
    """What column ``col`` with code ``code`` adds to K_CODES (``make_key_table``)."""
    return key_table[_ix(2 * (col * COLUMN_CODES + code))]


@njit(cache=True, nogil=True, _nrt=False)
def _mix_part(key_table, col, code):
    """What column ``col`` with code ``code`` adds to K_MIX."""
    return key_table[_ix(2 * (col * COLUMN_CODES + code) + 1)]


@njit(cache=True, nogil=True, _nrt=False)
def _pair_part(key_table, kind):
    """What a pair of ``kind`` adds to K_MIX."""
    return key_table[_ix(KINDS_AT + kind)]


@njit(cache=True, nogil=True, _nrt=False)
def compute_keys(cells, runs, key_table, keys):
    """Set ``keys`` from scratch (the search then updates them incrementally).

    ``keys`` is int64[KEY_WORDS]; ``key_table`` is ``make_key_table``'s. The key is two
    words that together are a one-to-one code of the position (up to settled copies):

    * ``K_CODES``: each column's state as a base-29 digit (0: settled), 59 bits;
    * ``K_MIX``: (c * MIX_ODD + z) mod 2**43, where c is the base-3 number of the halved
      counts (count // 2 of each kind: a search only ever takes pairs, and the engine
      keeps one table per parity of the counts) and z a random number per column state.
      Given the columns, c and K_MIX determine each other, so the two words name the
      position exactly; and the multiplication and z scatter K_MIX's high bits, which
      pick the table line. The bits below them are all a table entry has to keep of it.
    """
    for kind in range(KINDS):
        keys[K_COUNTS + kind] = 0
    for col in range(COLS):
        for row in range(runs[col], runs[COLS + col] + 1):
            keys[K_COUNTS + cells[col * ROWS + row]] += 1
    codes = np.int64(0)
    mix = np.int64(0)
    for kind in range(KINDS):
        mix += (keys[K_COUNTS + kind] >> 1) * _pair_part(key_table, np.int64(kind))
    for col in range(COLS):
        code = column_code(np.int64(runs[col]), np.int64(runs[COLS + col]))
        codes += _code_part(key_table, col, code)
        mix += _mix_part(key_table, col, code)
    keys[K_CODES] = codes
    keys[K_MIX] = mix & MIX_MASK


@njit(cache=True, nogil=True, _nrt=False)
def _update_key(codes, mix, key_table, col, old, new):
    """The key words with column ``col``'s code changed from ``old`` to ``new`` (two
    additions: no branch on which column, which the processor could not predict)."""
    return (
        codes + _code_part(key_table, col, new) - _code_part(key_table, col, old),
        (mix + _mix_part(key_table, col, new) - _mix_part(key_table, col, old)) & MIX_MASK,
    )


# -- making and taking back moves -------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def _set_column(runs, keys, key_table, col, top, bottom):
    """Change a column's run and update the key incrementally."""
    old = column_code(np.int64(runs[col]), np.int64(runs[COLS + col]))
    new = column_code(top, bottom)
    runs[col] = top
    runs[COLS + col] = bottom
    keys[K_CODES], keys[K_MIX] = _update_key(keys[K_CODES], keys[K_MIX], key_table, col, old, new)


@njit(cache=True, nogil=True, _nrt=False)
def _take_pair(keys, key_table, kind, delta):
    """Count a pair of ``kind`` off the board (delta -1) or back on (delta +1)."""
    keys[K_COUNTS + kind] += 2 * delta
    keys[K_MIX] = (keys[K_MIX] + delta * _pair_part(key_table, kind)) & MIX_MASK


@njit(cache=True, nogil=True, _nrt=False)
def _pack_runs(runs, ca, cb):
    """The runs of columns ca and cb, one byte each (top, bottom, top, bottom, all + 1)."""
    return (
        (np.int64(runs[_ix(ca)]) + 1)
        | ((np.int64(runs[_ix(COLS + ca)]) + 1) << 8)
        | ((np.int64(runs[_ix(cb)]) + 1) << 16)
        | ((np.int64(runs[_ix(COLS + cb)]) + 1) << 24)
    )


@njit(cache=True, nogil=True, _nrt=False, inline="always")  # its calls pass literal fields: one compile each
def _packed(saved, field):
    """Field 0-3 of ``_pack_runs``: ca's top, ca's bottom, cb's top, cb's bottom."""
    return ((saved >> (8 * field)) & 255) - 1


@njit(cache=True, nogil=True, _nrt=False)
def apply_move(cells, runs, keys, key_table, a, b):
    """Remove the free tiles in cells a and b (a < b). Returns the saved runs of
    both columns packed into one int, for ``undo_move``."""
    saved = _pack_runs(runs, a // ROWS, b // ROWS)
    for cell in (a, b):
        col = cell // ROWS
        row = cell % ROWS
        top = runs[col]
        bottom = runs[COLS + col]
        if row == top:
            _set_column(runs, keys, key_table, col, np.int64(top + 1), np.int64(bottom))
        else:
            _set_column(runs, keys, key_table, col, np.int64(top), np.int64(bottom - 1))
    _take_pair(keys, key_table, np.int64(cells[a]), np.int64(-1))
    return saved


@njit(cache=True, nogil=True, _nrt=False)
def undo_move(cells, runs, keys, key_table, a, b, saved):
    ca = a // ROWS
    cb = b // ROWS
    if cb != ca:
        _set_column(runs, keys, key_table, cb, _packed(saved, 2), _packed(saved, 3))
    _set_column(runs, keys, key_table, ca, _packed(saved, 0), _packed(saved, 1))
    _take_pair(keys, key_table, np.int64(cells[a]), np.int64(1))


@njit(cache=True, nogil=True, _nrt=False)
def _move_runs(cells, runs, keys, a, ends):
    """``apply_move`` for the runs and the tile count only, when the caller already has
    the child's key words (the move ordering worked them out from the move's column
    ends, ``ends`` as in ``_move_ends``, which is therefore also what moves the runs
    here). Returns the saved runs."""
    ea = ends & 31
    eb = ends >> 5
    saved = _pack_runs(runs, ea >> 1, eb >> 1)
    for end in (ea, eb):
        col = end >> 1
        if end & 1:
            runs[_ix(COLS + col)] -= 1
        else:
            runs[_ix(col)] += 1
    keys[_ix(K_COUNTS + cells[_ix(a)])] -= 2
    return saved


@njit(cache=True, nogil=True, _nrt=False)
def _restore_runs(cells, runs, keys, a, b, saved):
    """Undo ``_move_runs`` (the key words are restored by the caller)."""
    ca = a // ROWS
    cb = b // ROWS
    runs[_ix(cb)] = _packed(saved, 2)
    runs[_ix(COLS + cb)] = _packed(saved, 3)
    runs[_ix(ca)] = _packed(saved, 0)
    runs[_ix(COLS + ca)] = _packed(saved, 1)
    keys[_ix(K_COUNTS + cells[_ix(a)])] += 2


# -- free masks -------------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def free_masks(cells, runs, free):
    """Each kind's free tiles as a mask of column ends (``free[kind]``; bit 2*col for
    the top tile, 2*col+1 for the bottom one, a lone tile counting as a top).

    Returns (the kinds with a pair free, as a mask; the column ends whose column
    holds at most two tiles, which cover nothing: the settled ones).
    """
    return _free_masks_at(cells, runs, free, np.int64(0))


F_PAIRS = 27
F_SETTLED = 28
"""Words of a ply's free-mask block after the 27 kinds' masks: ``free_masks``' two results."""


@njit(cache=True, nogil=True, _nrt=False)
def _free_masks_at(cells, runs, free, base):
    """``free_masks`` into ``free[base:base + FREE_WORDS]``, its results also kept there."""
    for kind in range(KINDS):
        free[_ix(base + kind)] = 0
    pairs = np.int64(0)
    settled = np.int64(0)
    for col in range(COLS):
        top = runs[col]
        bottom = runs[COLS + col]
        if top > bottom:
            continue
        kind = cells[_ix(col * ROWS + top)]
        m = free[_ix(base + kind)] | (np.int64(1) << (2 * col))
        free[_ix(base + kind)] = m
        if (m & (m - 1)) != 0:
            pairs |= np.int64(1) << kind
        if bottom != top:
            kind = cells[_ix(col * ROWS + bottom)]
            m = free[_ix(base + kind)] | (np.int64(2) << (2 * col))
            free[_ix(base + kind)] = m
            if (m & (m - 1)) != 0:
                pairs |= np.int64(1) << kind
            if bottom - top < 2:
                settled |= np.int64(3) << (2 * col)
        else:
            settled |= np.int64(1) << (2 * col)
    free[_ix(base + F_PAIRS)] = pairs
    free[_ix(base + F_SETTLED)] = settled
    return pairs, settled


@njit(cache=True, nogil=True, _nrt=False)
def _end_bits(free, base, cells, col, top, bottom, sign):
    """Add (sign 1) or remove (sign 0) the free-mask bits of a column's ends; returns the
    kinds touched, as a mask."""
    if top > bottom:
        return np.int64(0)
    kind = cells[_ix(col * ROWS + top)]
    bit = np.int64(1) << (2 * col)
    if sign:
        free[_ix(base + kind)] |= bit
    else:
        free[_ix(base + kind)] &= ~bit
    touched = np.int64(1) << kind
    if bottom != top:
        kind = cells[_ix(col * ROWS + bottom)]
        if sign:
            free[_ix(base + kind)] |= bit << 1
        else:
            free[_ix(base + kind)] &= ~(bit << 1)
        touched |= np.int64(1) << kind
    return touched


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _masks_after(cells, runs, free, base, parent, a, b, saved):
    """The free masks of the position after the move a, b, from those of the position
    before it (at ``parent``): only the move's one or two columns change.

    Same result as ``_free_masks_at``, for a copy of 29 words and a few bit
    operations instead of a pass over all twelve columns: 5-7% less time (same
    nodes; ten 64-80-tile shared positions at 2^22, one thread, five pairs of
    simultaneous runs), for about 2 s more of cold compile.
    """
    for i in range(F_SETTLED + 1):
        free[_ix(base + i)] = free[_ix(parent + i)]
    pairs = free[_ix(base + F_PAIRS)]
    settled = free[_ix(base + F_SETTLED)]
    ca = a // ROWS
    cb = b // ROWS
    touched = np.int64(0)
    for j in range(2):
        col = ca if j == 0 else cb
        if j == 1 and cb == ca:
            break
        touched |= _end_bits(free, base, cells, col, _packed(saved, 2 * j), _packed(saved, 2 * j + 1), np.int64(0))
        top = runs[_ix(col)]
        bottom = runs[_ix(COLS + col)]
        touched |= _end_bits(free, base, cells, col, np.int64(top), np.int64(bottom), np.int64(1))
        settled &= ~(np.int64(3) << (2 * col))
        if top == bottom:
            settled |= np.int64(1) << (2 * col)
        elif top < bottom and bottom - top < 2:
            settled |= np.int64(3) << (2 * col)
    while touched != 0:
        kind = lowest_bit(touched)
        touched &= touched - 1
        m = free[_ix(base + kind)]
        if (m & (m - 1)) != 0:
            pairs |= np.int64(1) << kind
        else:
            pairs &= ~(np.int64(1) << kind)
    free[_ix(base + F_PAIRS)] = pairs
    free[_ix(base + F_SETTLED)] = settled
    return pairs, settled


@njit(cache=True, nogil=True, _nrt=False)
def _end_cell(runs, end):
    """The cell of a column end (bit index of ``free_masks``)."""
    col = end >> 1
    return col * ROWS + runs[_ix(col + COLS * (end & 1))]


# -- greedy all-free evaluation ---------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def greedy_alternation(free, base=0):
    """The pairs free now taken greedily in turn, highest value first.

    The mover gets the 1st, 3rd, ... and the opponent the 2nd, 4th, ...; the
    result is the mover's margin. Exact when every tile is free (nothing can be
    exposed any more, so taking the biggest pair left is optimal); at the
    horizon of a depth-limited search it is the estimate: it counts what both
    sides can take without exposing anything and the tempo of who gets the best
    of it, while everything still buried counts as even.
    """
    total = 0
    turn = 1
    for value_index in range(9):
        value = 9 - value_index
        for suit in range(3):
            pairs = popcount(free[_ix(base + suit * 9 + value - 1)]) >> 1
            for _ in range(pairs):
                total += turn * value
                turn = -turn
    return total


# -- transposition table ----------------------------------------------------------------

# The table: int64[2 * entries], one 16-byte entry of two words, four entries (a bucket)
# to a 64-byte cache line, so a probe reads one line. The key's top bits pick the line:
# K_MIX >> shift, shift = MIX_BITS - log2(lines). As K_CODES and K_MIX name the position
# one-to-one, an entry keeps K_CODES and only q, the bits of K_MIX below the line's (at
# most MIX_BITS - MIN_LINE_BITS = 24): the full key in at most 83 bits, no false hits.
# Words: B = the packed entry | q's low Q_LOW_BITS bits << ENTRY_BITS, and
# A = (K_CODES | q's other bits << CODES_BITS) ^ B. Entry bits: lower bound + 512 (10) |
# upper bound + 512 (10) << 10 | depth (7) << 20 | best move a*128+b (14) << 27 |
# work (4) << 41. An exact value has lower == upper; a missing bound is NO_LOWER or
# NO_UPPER. A used entry's B is never 0 (the upper field is at least 512 - 270), so 0
# marks an empty entry.
#
# Sixteen bytes an entry, against 32 for an entry that keeps three key words and the
# packed entry, means twice the entries in the same memory, and four-way buckets in one
# line instead of two-way ones. Past 1 GiB every probe costs more on the benchmark
# machine, so a bigger table is no way to get more entries (see ``table_size.table_bits_for``).
#
# Both bounds are kept because a position comes back with other windows: the
# window moves with the points taken on the way, and the same tiles taken in
# another order reach the position with another score. With one bound an
# entry, 40% of the stores replace the other kind of bound for the same
# position (shared 64+72 set), so the next visit searches again what an
# earlier visit proved.
#
# The XOR makes the table safe to share between threads without locks (Hyatt's
# lockless hashing): an entry torn by two writers decodes to no key at all,
# so a reader sees a miss, never another position's entry. A probe therefore
# returns the entry word B itself, read once, not the entry, which may change.
NO_LOWER = -512
NO_UPPER = 511
NO_ANSWER = INF
"""``entry_answer``'s result when the entry does not settle the window (no value is this big)."""
ENTRY_WORDS = 2
WAYS = 4
LINE_WORDS = ENTRY_WORDS * WAYS
LINE_WORDS_LOG2 = 3
CODES_BITS = 59
"""29**12 < 2**59: K_CODES fits; the word's top five bits hold q's high bits."""
ENTRY_BITS = 45
Q_LOW_BITS = 64 - ENTRY_BITS
Q_LOW_MASK = (np.int64(1) << Q_LOW_BITS) - 1
MIN_LINE_BITS = MIX_BITS - Q_LOW_BITS - (64 - CODES_BITS)
"""A table needs at least 2**19 lines (32 MiB), or q would not fit in an entry."""
MIN_TABLE_BITS = MIN_LINE_BITS + 2
"""log2 of the fewest entries a table may have."""
WORK_MAX = 15
assert 3**KINDS < 1 << MIX_BITS and COLUMN_STATES**COLS < 1 << CODES_BITS and 1 << LINE_WORDS_LOG2 == LINE_WORDS


@njit(cache=True, nogil=True, _nrt=False)
def _shift(tt):
    """How far K_MIX shifts right to give its line in this table (the bits below are q)."""
    return MIX_BITS - highest_bit(tt.shape[0] >> LINE_WORDS_LOG2)


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _line_of(codes, mix, shift):
    """Where a key's entry may sit and what it holds of the key: the first word of its
    line, the word A its entry XORs with B, and the bits of q that B keeps."""
    q = mix & ((np.int64(1) << shift) - 1)
    return (mix >> shift) << LINE_WORDS_LOG2, codes | ((q >> Q_LOW_BITS) << CODES_BITS), q & Q_LOW_MASK


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _holds(tt, at, b, want_a, want_q):
    """Whether the entry at word ``at``, whose B word is ``b``, is the key's (``_line_of``)."""
    return ((b >> ENTRY_BITS) & Q_LOW_MASK) == want_q and (tt[_ix(at)] ^ b) == want_a


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def tt_probe_keys(tt, codes, mix, shift):
    """The entry for this key (a nonzero int64), or 0.

    Inlined by numba (``inline="always"``): otherwise LLVM leaves it as a call in the
    cutoffs' loop, passing the table as seven words on the stack; inlined, the search
    takes 3-10% less time (same nodes; docs/solver-notes.md, "The kernel's cost per
    node")."""
    base, want_a, want_q = _line_of(codes, mix, shift)
    for way in range(WAYS):
        at = base + ENTRY_WORDS * way
        b = tt[_ix(at + 1)]
        # (An empty entry, b == 0, that matched would still read as a miss.)
        if _holds(tt, at, b, want_a, want_q):
            return b
    return np.int64(0)


@njit(cache=True, nogil=True, _nrt=False)
def tt_probe(tt, keys):
    """The entry for this position, or 0."""
    return tt_probe_keys(tt, keys[K_CODES], keys[K_MIX], _shift(tt))


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _probe_node(tt, keys, counters, depth, alpha, beta):
    """A node's probe of its own entry, for ``negamax``: (the entry or 0, its move or -1, the
    value it gives the window (alpha, beta) or ``NO_ANSWER``, and the window narrowed by
    its bounds).

    Only an entry searched at least ``depth`` deep answers or narrows the window; a
    shallower one still gives its move, which the ordering tries first. An entry short of
    ``FULL_DEPTH`` that answers or narrows makes the search's result inexact
    (``C_INEXACT``)."""
    hash_move = -1
    answer = NO_ANSWER
    entry = tt_probe(tt, keys)
    if entry != 0:
        counters[C_TT_HITS] += 1
        hash_move = entry_move(entry)
        if entry_depth(entry) >= depth:
            if entry_depth(entry) < FULL_DEPTH:
                counters[C_INEXACT] += 1
            answer = entry_answer(entry, alpha, beta)
            if answer == NO_ANSWER:
                alpha = max(alpha, entry_lower(entry))
                beta = min(beta, entry_upper(entry))
    return entry, hash_move, answer, alpha, beta


@njit(cache=True, nogil=True, _nrt=False)
def entry_lower(e):
    """The value is at least this (NO_LOWER: no lower bound known)."""
    return (e & 1023) - 512


@njit(cache=True, nogil=True, _nrt=False)
def entry_upper(e):
    """The value is at most this (NO_UPPER: no upper bound known)."""
    return ((e >> 10) & 1023) - 512


@njit(cache=True, nogil=True, _nrt=False)
def entry_depth(e):
    return (e >> 20) & 127


@njit(cache=True, nogil=True, _nrt=False)
def entry_move(e):
    return (e >> 27) & 16383


@njit(cache=True, nogil=True, _nrt=False)
def entry_work(e):
    """log2 of the nodes its search took, halved (0-15)."""
    return (e >> 41) & WORK_MAX


@njit(cache=True, nogil=True, _nrt=False)
def entry_answer(e, alpha, beta):
    """The result the entry gives a search with window (alpha, beta), fail-soft: its exact
    value, a lower bound at or above beta, or an upper bound at or below alpha; else
    NO_ANSWER (the entry only narrows the window)."""
    lower = entry_lower(e)
    upper = entry_upper(e)
    if lower >= beta or lower == upper:
        return lower
    if upper <= alpha:
        return upper
    return NO_ANSWER


TWO_BOUND_WORTH = 4
"""What holding both bounds adds to an entry's worth (its work: half the log2 of its
subtree's nodes) when a store must evict one of a bucket's entries."""


@njit(cache=True, nogil=True, _nrt=False)
def _worth(e):
    """How much an entry is worth keeping: the work it saves, more if it holds both bounds.

    A two-bound entry answers every window a one-bound entry of the position would, and
    more; such entries come from exact searches and from positions met with windows on
    both sides of their value. Preferring them takes 18-22% fewer nodes when the table
    is small for the search (docs/solver-notes.md, "Figures behind the code's comments").
    """
    if entry_lower(e) != NO_LOWER and entry_upper(e) != NO_UPPER:
        return entry_work(e) + TWO_BOUND_WORTH
    return entry_work(e)


@njit(cache=True, nogil=True, _nrt=False)
def tt_store(tt, keys, value, bound, depth, move, work):
    """Record that the value is ``value`` (EXACT), at least it (LOWER) or at most
    it (UPPER), merged with what the table knows of the position at this depth."""
    tt_store_bounds(
        tt, keys, NO_LOWER if bound == UPPER else value, NO_UPPER if bound == LOWER else value, depth, move, work
    )


@njit(cache=True, nogil=True, _nrt=False)
def tt_store_bounds(tt, keys, lower, upper, depth, move, work):
    """Record that the value lies in [lower, upper] (NO_LOWER, NO_UPPER: not known), merged
    with what the table knows of the position at this depth. ``work``: log2 of the nodes."""
    base, want_a, want_q = _line_of(keys[K_CODES], keys[K_MIX], _shift(tt))
    # The entry of this position if the line has one; else the least worthy (an empty one first).
    held = np.int64(0)
    slot = base
    least = WORK_MAX + TWO_BOUND_WORTH + 1
    for way in range(WAYS):
        at = base + ENTRY_WORDS * way
        b = tt[_ix(at + 1)]
        if b != 0 and _holds(tt, at, b, want_a, want_q):
            held = b
            slot = at
            break
        worth = -1 if b == 0 else _worth(b)
        if worth < least:
            least = worth
            slot = at
    if lower == NO_LOWER:
        # A fail-low node's best move is noise: the highest of values that are
        # only upper bounds. Tried first when the node is searched again, it
        # so often fails to cut that storing it costs 46% more nodes (shared
        # 64+72 set, one thread, 2^22: 36.6M against 25.1M). Such an entry
        # keeps the move this position had (from a cut or an exact search), or
        # none.
        move = entry_move(held)
    if held != 0 and entry_depth(held) == depth:
        merged_lower = max(lower, entry_lower(held))
        merged_upper = min(upper, entry_upper(held))
        if merged_lower <= merged_upper:  # else an estimate contradicts an older one: keep the new
            lower = merged_lower
            upper = merged_upper
    if move < 0:
        move = 0
    b = (
        np.int64(lower + 512)
        | (np.int64(upper + 512) << 10)
        | (np.int64(depth) << 20)
        | (np.int64(move) << 27)
        | (np.int64(min(work >> 1, WORK_MAX)) << 41)
        | (want_q << ENTRY_BITS)
    )
    tt[_ix(slot)] = want_a ^ b
    tt[_ix(slot + 1)] = b


# -- move generation --------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def _add_move(ws_moves, base, n, runs, x, y):
    """Append the move taking column ends x and y (as ``a*128 + b``, lower cell first,
    with the ends and the takes above, see ``_move_ends`` and ``_move_takes``); returns
    the new count."""
    cx = x >> 1
    cy = y >> 1
    top_x = np.int64(runs[_ix(cx)])
    bottom_x = np.int64(runs[_ix(COLS + cx)])
    top_y = np.int64(runs[_ix(cy)])
    bottom_y = np.int64(runs[_ix(COLS + cy)])
    a = cx * ROWS + (bottom_x if x & 1 else top_x)
    b = cy * ROWS + (bottom_y if y & 1 else top_y)
    if cx == cy:
        take_a = take_index(cx, top_x, bottom_x, np.int64(TAKE_BOTH))
        take_b = np.int64(NO_TAKE)
    else:
        take_a = take_index(cx, top_x, bottom_x, x & 1)
        take_b = take_index(cy, top_y, bottom_y, y & 1)
    if a > b:
        a, b = b, a
        x, y = y, x
        take_a, take_b = take_b, take_a
    ws_moves[base + n] = (
        a * 128 + b | (np.int64(x | (y << 5)) << ENDS_SHIFT) | (take_a << TAKE_A_SHIFT) | (take_b << TAKE_B_SHIFT)
    )
    return n + 1


MOVE_BITS = 14
MOVE_MASK = (1 << MOVE_BITS) - 1
"""A move ``a*128 + b`` in the low bits of a ``ws_moves`` word."""
ENDS_SHIFT = 14
"""Bits 14-23 of a ``ws_moves`` word: the column ends (5 bits each, a's then b's) the move takes."""
TAKE_A_SHIFT = 24
TAKE_B_SHIFT = 36
"""Bits 24-35 and 36-47 of a ``ws_moves`` word: the move's takes (``take_index``), of a's column
then of b's (``NO_TAKE`` when b is in a's column)."""
INDEX_SHIFT = 56
"""Bits 56-61 of a ``ws_moves`` word: the move's place in generation order, which
finds its child's key words (``ws_child``) after the ordering has moved it."""
MAX_PLY = 64
MAX_MOVES = 64
"""At most 24 tiles are free, at most four of a kind: fewer than 64 pairs."""
assert (
    MOVE_BITS <= ENDS_SHIFT
    and ENDS_SHIFT + 10 <= TAKE_A_SHIFT
    and TAKE_A_SHIFT + 12 <= TAKE_B_SHIFT
    and TAKE_B_SHIFT + 12 <= INDEX_SHIFT
    and MAX_MOVES <= 1 << (63 - INDEX_SHIFT)
    and TAKES == 1 << 12
), "a ws_moves word holds the move, its column ends and takes, and the generation index"


@njit(cache=True, nogil=True, _nrt=False)
def _move_ends(word):
    """The column ends of a ``ws_moves`` word's move, a's in bits 0-4 and b's in 5-9."""
    return (word >> ENDS_SHIFT) & 1023


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _move_takes(word):
    """A ``ws_moves`` word's two takes (``take_index``): a's column's, then b's or ``NO_TAKE``."""
    return (word >> TAKE_A_SHIFT) & NO_TAKE, (word >> TAKE_B_SHIFT) & NO_TAKE


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _generate_moves(runs, keys, ws_free, fb, pairs, settled, ws_moves, mb):
    """The node's moves into ``ws_moves[mb:mb + n]``, kind by kind, from its free masks
    (``ws_free[fb:]``, ``pairs`` and ``settled`` as ``free_masks`` returns them); returns n.

    Settled copies of a kind (in columns of at most two tiles) are interchangeable (see
    the module docstring): a settled copy is only ever taken as the kind's first (lowest)
    settled one. Pure tempo pairs: every copy of a kind left is free and settled. Such a
    pair is an item either player can take at any time that touches nothing else; the
    value is 1-Lipschitz in an item's points, so taking the biggest such item dominates
    taking a smaller one: only one tempo move is searched.
    """
    best_tempo = -1
    tempo = np.int64(0)
    rest = pairs
    while rest != 0:
        kind = lowest_bit(rest)
        rest &= rest - 1
        free = ws_free[_ix(fb + kind)]
        if (free & ~settled) == 0 and popcount(free) == keys[_ix(K_COUNTS + kind)]:
            tempo |= np.int64(1) << kind
            if best_tempo < 0 or _points(kind) > _points(best_tempo):
                best_tempo = kind
    n = np.int64(0)  # not the literal 0: _add_move compiles for one signature
    rest = pairs
    while rest != 0:
        kind = lowest_bit(rest)
        rest &= rest - 1
        if (tempo >> kind) & 1 and kind != best_tempo:
            continue
        free = ws_free[_ix(fb + kind)]
        unsettled = free & ~settled
        calm = free & settled
        first_calm = -1 if calm == 0 else lowest_bit(calm)
        u = unsettled
        while u != 0:
            x = lowest_bit(u)
            u &= u - 1
            later = u
            while later != 0:
                n = _add_move(ws_moves, mb, n, runs, x, lowest_bit(later))
                later &= later - 1
            if first_calm >= 0:
                n = _add_move(ws_moves, mb, n, runs, x, first_calm)
        second = calm & (calm - 1)
        if second != 0:
            n = _add_move(ws_moves, mb, n, runs, first_calm, lowest_bit(second))
    return n


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def child_key_words(codes, mix, key_table, kind, word):
    """The key words of the position after a ``ws_moves`` word's move (of a pair of
    ``kind``), from the position's: its takes' changes and the pair taken off the counts."""
    take_a, take_b = _move_takes(word)
    at_a = TAKES_AT + 2 * take_a
    at_b = TAKES_AT + 2 * take_b
    return (
        codes + key_table[_ix(at_a)] + key_table[_ix(at_b)],
        (mix - _pair_part(key_table, np.int64(kind)) + key_table[_ix(at_a + 1)] + key_table[_ix(at_b + 1)]) & MIX_MASK,
    )


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def exposed_kinds(exposed, word):
    """The kinds of the at most two tiles a ``ws_moves`` word's move uncovers (``fill_exposures``),
    each -1 where there is none (either may be the one missing)."""
    take_a, take_b = _move_takes(word)
    both = np.int64(exposed[_ix(take_a)]) | (np.int64(exposed[_ix(take_b)]) << 5)
    return (both & 31) - 1, ((both >> 5) & 31) - 1


# -- move ordering ----------------------------------------------------------------------

# A move's ordering score (higher: searched earlier; ``_order_score``):
#
#   ORDER_SCALE * (POINTS_WEIGHT * points - THREAT_WEIGHT * threat) + TIE_WEIGHT * points
#   - REPLY_SCALE // n * replies  + KILLER_BONUS for a killer
#   - EXPOSED_REPLY_MALUS for taking a tile the opponent's last move uncovered,
#
# and TABLE_MOVE_SCORE for the table's move. ``points``: what the move's pair scores;
# ``threat``: the best pair a tile it uncovers makes with a free copy (what it hands the
# opponent); ``replies``: how many pairs it adds to the opponent's choice (negative when it
# takes some away); ``n``: the node's number of moves. Below CHEAP_ORDER_POINTS the score is
# the points alone (and TABLE_MOVE_SCORE). What each weight bought is in
# docs/solver-notes.md ("Move ordering").

POINTS_WEIGHT = 5
"""What each point of the move's own pair adds, against ``THREAT_WEIGHT`` for each point of
the threat: weighing the threat less than the points takes 15% fewer nodes than points
minus threat on the 80-tile bench."""
THREAT_WEIGHT = 1
"""What each point of the best pair a move hands the opponent costs it, against
``POINTS_WEIGHT`` for each point of its own pair."""
ORDER_SCALE = 16
"""The score counts in sixteenths of a weighted point, so that the terms after it can be
fractions of one: a point of the move's own pair is ``ORDER_SCALE * POINTS_WEIGHT`` = 80."""
TIE_WEIGHT = 1
"""The move's points once more, unscaled: of two moves that score the same, the bigger pair first."""
REPLY_SCALE = 48 * ORDER_SCALE
"""What each pair a move adds to the opponent's choice costs it, divided by the node's
number of moves n (48 / n points): fewer replies, a smaller subtree to refute when the move
cuts; in proportion to the moves there are, as a subtree's size goes with the product of
its nodes' move counts. A third to a half fewer nodes at 96 tiles."""
KILLER_BONUS = 112
"""What the ordering adds to either of the two moves that last cut at the same ply, the
killers (1.4 points of the move's own pair). The refutation of one opponent move often
refutes its siblings too, and the same refutation after two different opponent moves makes
positions that transpose further down (X Y X' Y' and X' Y X Y' meet), so its subtree is
partly in the table already: 6.8% fewer nodes than no killers on four 96-tile positions
(docs/solver-notes.md, "Figures behind the code's comments")."""
EXPOSED_REPLY_MALUS = 64
"""What the ordering takes off a move that takes a tile the opponent's last move uncovered
(0.8 of a point of the move's own pair, 4 points of the threat's). Tried first, such replies
cut with bigger subtrees than moves elsewhere, most likely because a move elsewhere commutes
with the opponent's, so its positions are also reached in the other order and are met in
the table (the killers' reason). 7.3% fewer nodes than none over two 88-tile sets and a
complete deal (docs/solver-notes.md, "Figures behind the code's comments")."""
TABLE_MOVE_SCORE = np.int64(1) << 40
"""The table move's score: above every other move's, so it is searched first."""


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _order_score(cells, exposed, ws_free, fb, word, reply_weight, hash_move, killer, killer2, u1, u2):
    """The ordering score of a ``ws_moves`` word's move (see above), at a node of
    ``CHEAP_ORDER_POINTS`` or more whose free masks are at ``ws_free[fb:]``;
    ``reply_weight`` is ``REPLY_SCALE // n``, (u1, u2) the cells the opponent's last move
    uncovered (``_uncovered``; -1: none)."""
    move = word & MOVE_MASK
    a = move >> 7
    kind = cells[_ix(a)]
    gain = _points(kind)
    # The opponent's pairs after the move, against now: the move's kind
    # loses the pairs of its two copies with the others (2f - 3 of them,
    # f free copies); an exposed tile pairs with every other free copy of
    # its kind, the other exposed tile included. (Pairs counted per copy,
    # settled copies too.) The threat: the best pair an exposed tile makes.
    replies = 3 - 2 * popcount(ws_free[_ix(fb + kind)])
    threat = 0
    first, second = exposed_kinds(exposed, word)
    same = 1 if first == second else 0
    if first >= 0:
        free_after = popcount(ws_free[_ix(fb + first)]) + 1 + same - (2 if first == kind else 0)
        replies += free_after - 1
        if free_after >= 2:
            threat = _points(first)
    if second >= 0:
        free_after = popcount(ws_free[_ix(fb + second)]) + 1 + same - (2 if second == kind else 0)
        replies += free_after - 1
        if free_after >= 2 and _points(second) > threat:
            threat = _points(second)
    score = ORDER_SCALE * (POINTS_WEIGHT * gain - THREAT_WEIGHT * threat) + TIE_WEIGHT * gain - reply_weight * replies
    if (move == killer) | (move == killer2):
        score += KILLER_BONUS
    if u1 >= 0 and ((a == u1) | (a == u2) | ((move & 127) == u1) | ((move & 127) == u2)):
        score -= EXPOSED_REPLY_MALUS
    if move == hash_move:
        score = TABLE_MOVE_SCORE
    return score


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _uncovered(col, old_top, old_bottom, top, bottom, x1, x2):
    """(x1, x2) with the cells added that column ``col`` uncovered when its run went from
    (old_top, old_bottom) to (top, bottom): its new ends that were not ends before. -1
    marks a free place; a move uncovers at most two cells."""
    if top <= bottom:
        if top != old_top and top != old_bottom:
            if x1 < 0:
                x1 = col * ROWS + top
            else:
                x2 = col * ROWS + top
        if bottom != top and bottom != old_bottom and bottom != old_top:
            if x1 < 0:
                x1 = col * ROWS + bottom
            else:
                x2 = col * ROWS + bottom
    return x1, x2


@njit(cache=True, nogil=True, _nrt=False, inline="always")
def _set_killer(frames, fr, move):
    """Make ``move`` the ply's first killer; the old first one, if another move, becomes the second."""
    if frames[fr + F_KILLER] != move:
        frames[fr + F_KILLER2] = frames[fr + F_KILLER]
        frames[fr + F_KILLER] = move


# -- search stack and deferral table ----------------------------------------------------

# Frame fields of the explicit search stack (one row of FRAME_FIELDS per ply).
F_ALPHA, F_BETA, F_ALPHA0, F_DEPTH, F_POINTS, F_N, F_M, F_BEST, F_BEST_MOVE = 0, 1, 2, 3, 4, 5, 6, 7, 8
F_INEXACT0, F_NODES0, F_GAIN, F_SAVED, F_A, F_B, F_BUSY = 9, 10, 11, 12, 13, 14, 15
F_KEYS = 16
"""Two fields from here: the node's key words, restored when a move is taken back."""
F_ETC_LOWER = 18
"""The best lower bound the children's entries gave when the node was expanded (-INF: none), kept
for the node's own entry if it fails low (see ``negamax``), and the move that gave it."""
F_ETC_MOVE = 19
F_KILLER = 20
"""The move that last cut a node at this ply (its killer), or -1: kept across the ply's nodes;
then the one that cut before it (another move), or -1."""
F_KILLER2 = 21
FRAME_FIELDS = 22

# The helpers' deferral (ABDADA-style): ``busy``, shared by the threads of one search, holds
# the hashes (K_MIX ^ K_CODES) of the subtrees being searched now, each at hash & (size - 1).
# A thread about to search a move whose child another thread is on puts the move off
# (``DEFERRED`` off its score) until its other moves are done, when that subtree is likely
# in the table; never a node's first move, and each move once at most. The slot is cleared
# when the child's search returns. ``solver/engine.py`` starts the threads.
SPLIT_MIN_POINTS = 30
"""Threads share out subtrees worth at least this many points (the helpers' deferral in ``negamax``)."""
DEFERRED = np.int64(1) << 50
"""Subtracted from a move's order score when it is put off because another thread is on it."""
ENTER, NEXT, RETURN = 0, 1, 2
CHILD_WORDS = 3
"""Per move and ply: the child's two key words, for the ETC probes and then for playing the move,
and the child's table entry if the probe found one that is deep enough (else 0)."""
C_ENTRY = 2
FREE_WORDS = 32
"""Free-mask scratch per ply: one word per kind, then ``F_PAIRS`` and ``F_SETTLED`` (padded)."""


@njit(cache=True, nogil=True, _nrt=False)
def _take_back(cells, runs, keys, frames, fr, a, b):
    """Undo the move the frame at ``fr`` played: its runs, tile count and key words."""
    _restore_runs(cells, runs, keys, a, b, frames[fr + F_SAVED])
    keys[K_CODES] = frames[fr + F_KEYS]
    keys[K_MIX] = frames[fr + F_KEYS + 1]


def make_workspace():
    """Scratch buffers, flat so that every index is a constant-stride sum, allocated once
    so that the search allocates nothing while it runs: free masks of the node being
    expanded, and per ply the children's keys (for the transposition cutoffs, then for
    playing the moves), the moves and their order scores, and the frames of the
    explicit stack."""
    return (
        np.empty(MAX_PLY * FREE_WORDS, dtype=np.int64),
        np.empty(MAX_PLY * MAX_MOVES * CHILD_WORDS, dtype=np.int64),
        np.empty(MAX_PLY * MAX_MOVES, dtype=np.int64),
        np.empty(MAX_PLY * MAX_MOVES, dtype=np.int64),
        np.empty(MAX_PLY * FRAME_FIELDS, dtype=np.int64),
    )


# -- negamax: the node loop -------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def negamax(
    cells,
    exposed,
    runs,
    keys,
    key_table,
    tt,
    busy,
    counters,
    ws_free,
    ws_child,
    ws_moves,
    ws_scores,
    frames,
    ply,
    depth,
    alpha,
    beta,
    points,
):
    """Fail-soft alpha-beta; see the module docstring for the contract.

    ``points`` is what the tiles on the board are worth, so |value| <= points.
    The recursion is unrolled onto an explicit stack of frames: a numba call
    per node costs more than the node itself (a dozen arrays passed, seven
    words each), so the whole search runs in this one loop, a state machine:
    ENTER a node, pick its NEXT move, RETURN a value to the parent (the
    module docstring maps the parts of each).
    Every scratch array is flat with constant strides: numba reads a 2-D
    array's strides from memory at each index, and they crowd the registers.

    ``busy`` is shared by the threads of one search (int64[2**k]; int64[1]
    for a lone thread turns the sharing off): the hashes of the subtrees being
    searched now, so that threads spread out instead of duplicating work.
    """
    root_ply = ply
    for killer_ply in range(ply, MAX_PLY):
        frames[killer_ply * FRAME_FIELDS + F_KILLER] = -1
        frames[killer_ply * FRAME_FIELDS + F_KILLER2] = -1
    fr = ply * FRAME_FIELDS
    frames[fr + F_ALPHA] = alpha
    frames[fr + F_BETA] = beta
    frames[fr + F_DEPTH] = depth
    frames[fr + F_POINTS] = points
    shift = _shift(tt)
    state = ENTER
    ret = 0
    while True:
        fr = ply * FRAME_FIELDS
        if state == ENTER:
            # -- ENTER: the stop check and the leaves -----------------------------------
            alpha = frames[fr + F_ALPHA]
            beta = frames[fr + F_BETA]
            depth = frames[fr + F_DEPTH]
            points = frames[fr + F_POINTS]
            state = RETURN
            fb = ply * FREE_WORDS
            counters[C_NODES] += 1
            # The stop flag at every node (a load from the line the count was just written to): under
            # load a fresh table's page faults slow the first nodes to about a millisecond each, so a
            # check every 1,024 nodes heard a stop up to 3.4 s late. The node limit keeps its stride.
            if counters[C_STOP] != 0 or (
                (counters[C_NODES] & NODE_LIMIT_CHECK_MASK) == 0
                and counters[C_NODE_LIMIT] > 0
                and counters[C_NODES] >= counters[C_NODE_LIMIT]
            ):
                counters[C_ABORTED] = 1
            if counters[C_ABORTED] != 0 or points == 0:
                ret = 0
                continue

            # Some column of three or more tiles (a nonzero column code) has a
            # buried tile. The key says so without a look at the board, so a
            # node that the table answers never scans its columns.
            if keys[K_CODES] == 0:
                # Every tile is free: greedy alternation is exact.
                _free_masks_at(cells, runs, ws_free, fb)
                ret = greedy_alternation(ws_free, fb)
                continue
            if depth <= 0:
                # The horizon: greedy alternation, an estimate here (and 0,
                # exactly, when no pair is left).
                pairs, _ = _free_masks_at(cells, runs, ws_free, fb)
                ret = greedy_alternation(ws_free, fb)
                if pairs != 0:
                    counters[C_INEXACT] += 1
                continue

            # -- ENTER: the window and the node's table probe ---------------------------
            # The value never leaves [-points, points], but a window outside that
            # range is searched, not answered with the range's end: such nodes are
            # small (few points left), and what their search returns is a far
            # tighter bound than -points or points. The same position keeps coming
            # back with other windows, and a parent that is told only "at most
            # points" stores a bound that answers none of them. Returning the end
            # of the range costs 13-15% more nodes (docs/solver-notes.md).

            # A small node is searched for its exact value, whatever its window: the
            # same position keeps coming back with its window shifted by the points
            # taken on the way, and an exact entry answers every later window, where
            # a bound answers only some. Below 40 points the subtree is cheap enough
            # that this pays (2.0% fewer nodes on a complete deal; docs/solver-notes.md).
            if points < EXACT_BELOW_POINTS:
                alpha = min(alpha, -points - 1)
                beta = max(beta, points + 1)
            alpha0 = alpha
            inexact0 = counters[C_INEXACT]

            entry, hash_move, ret, alpha, beta = _probe_node(tt, keys, counters, depth, alpha, beta)
            if ret != NO_ANSWER:
                continue

            # -- ENTER: move generation -------------------------------------------------
            # Only now: a table cutoff above needs no moves.
            if ply > root_ply:
                # The parent's masks and its move (and the runs it saved) give these.
                parent = fr - FRAME_FIELDS
                pairs, settled = _masks_after(
                    cells,
                    runs,
                    ws_free,
                    fb,
                    fb - FREE_WORDS,
                    frames[parent + F_A],
                    frames[parent + F_B],
                    frames[parent + F_SAVED],
                )
            else:
                pairs, settled = _free_masks_at(cells, runs, ws_free, fb)
            mb = ply * MAX_MOVES
            n = _generate_moves(runs, keys, ws_free, fb, pairs, settled, ws_moves, mb)
            if n == 0:
                ret = 0
                continue

            # -- ENTER: the children's keys, their table lines prefetched ---------------
            # The children's key words first, all of them, then their table lines
            # prefetched in one burst, and only then the ordering's scan below: the
            # lines load while the scan runs, and the enhanced transposition cutoffs
            # further down read them. A prefetch issued inside the scan, as each key
            # is ready, stalls the scan's own loads once the table outgrows 512 MiB;
            # this separate pass serves small and big tables alike (docs/solver-notes.md,
            # "Memory: prefetching, table size and page faults").
            if points >= CHEAP_ORDER_POINTS:
                codes = keys[K_CODES]
                mix = keys[K_MIX]
                for m in range(n):
                    word = ws_moves[_ix(mb + m)]
                    k0, k1 = child_key_words(codes, mix, key_table, cells[_ix((word & MOVE_MASK) >> 7)], word)
                    c = CHILD_WORDS * (mb + m)
                    ws_child[_ix(c)] = k0
                    ws_child[_ix(c + 1)] = k1
                    ws_child[_ix(c + C_ENTRY)] = 0
                if points >= ETC_MIN_POINTS:
                    for m in range(n):
                        prefetch_line(tt, ws_child[_ix(CHILD_WORDS * (mb + m) + 1)] >> shift)

            # -- ENTER: move ordering ---------------------------------------------------
            # The scores (``_order_score``; the weights and their figures are in the
            # "move ordering" section), and with them each move's place in
            # generation order (INDEX_SHIFT), which finds its child's key words.
            reply_weight = REPLY_SCALE // n if points >= CHEAP_ORDER_POINTS else 0
            killer = frames[fr + F_KILLER]
            killer2 = frames[fr + F_KILLER2]
            u1 = -1
            u2 = -1
            if ply > root_ply and points >= CHEAP_ORDER_POINTS:
                # The opponent's move: its cells, and its columns' runs before it (F_SAVED).
                parent = fr - FRAME_FIELDS
                pa = frames[parent + F_A] // ROWS
                pb = frames[parent + F_B] // ROWS
                before = frames[parent + F_SAVED]
                u1, u2 = _uncovered(
                    pa, _packed(before, 0), _packed(before, 1), runs[_ix(pa)], runs[_ix(COLS + pa)], u1, u2
                )
                if pb != pa:
                    u1, u2 = _uncovered(
                        pb, _packed(before, 2), _packed(before, 3), runs[_ix(pb)], runs[_ix(COLS + pb)], u1, u2
                    )
            for m in range(n):
                word = ws_moves[_ix(mb + m)]
                if points < CHEAP_ORDER_POINTS:
                    move = word & MOVE_MASK
                    ws_scores[_ix(mb + m)] = TABLE_MOVE_SCORE if move == hash_move else _points(cells[_ix(move >> 7)])
                    continue
                ws_moves[_ix(mb + m)] = word | (np.int64(m) << INDEX_SHIFT)
                ws_scores[_ix(mb + m)] = _order_score(
                    cells, exposed, ws_free, fb, word, reply_weight, hash_move, killer, killer2, u1, u2
                )

            # -- ENTER: ETC, the enhanced transposition cutoffs -------------------------
            cut = False
            best_lower = -INF
            best_move = np.int64(0)
            best_shallow = False
            if points >= ETC_MIN_POINTS:
                # Every move bounded from above by its child's entry, none above
                # alpha: the node fails low without a child searched.
                high = -INF
                all_low = True
                shallow = False
                for m in range(n):
                    c = CHILD_WORDS * (mb + m)
                    child = tt_probe_keys(tt, ws_child[_ix(c)], ws_child[_ix(c + 1)], shift)
                    if child == 0 or entry_depth(child) < depth - 1:
                        all_low = False
                        continue
                    # Kept with the move: it may answer the child without a visit (see NEXT).
                    ws_child[_ix(c + C_ENTRY)] = child
                    move = ws_moves[_ix(mb + m)] & MOVE_MASK
                    gain = _points(cells[_ix(move >> 7)])
                    if entry_upper(child) != NO_UPPER:
                        # The child's value is at most u, so this move scores at least gain - u.
                        lower = gain - entry_upper(child)
                        if lower > best_lower:
                            best_lower = lower
                            best_move = move
                            best_shallow = entry_depth(child) < FULL_DEPTH
                    if entry_lower(child) != NO_LOWER:
                        # The child's value is at least l, so this move scores at most gain - l.
                        high = max(high, gain - entry_lower(child))
                        shallow = shallow or entry_depth(child) < FULL_DEPTH
                    else:
                        all_low = False
                if best_lower >= beta:
                    # A cutoff. Every child's entry is read, so the lower bound stored is
                    # the best they give, not the first that cuts, and when every child is
                    # bounded both ways the node's upper bound is stored with it: the same
                    # position keeps coming back with its window shifted by the points taken
                    # on the way, and a tighter entry answers more of those windows. As the
                    # prefetches load the lines in one burst, reading them all takes 4-6%
                    # fewer nodes and 2-7% less time at 96 and 108 tiles than stopping at
                    # the first entry that cuts, the same time at 88.
                    if best_shallow:
                        counters[C_INEXACT] += 1
                    # (A shallow upper bound must not join a complete-depth lower one.)
                    upper = high if all_low and (best_shallow or not shallow) else NO_UPPER
                    if upper != NO_UPPER and shallow:
                        counters[C_INEXACT] += 1
                    tt_store_bounds(
                        tt,
                        keys,
                        best_lower,
                        upper,
                        FULL_DEPTH if counters[C_INEXACT] == inexact0 else depth,
                        best_move,
                        np.int64(0),
                    )
                    ret = best_lower
                    cut = True
                    _set_killer(frames, fr, best_move)
                if not cut and all_low and high <= alpha:
                    if shallow:
                        counters[C_INEXACT] += 1
                    tt_store(
                        tt,
                        keys,
                        high,
                        np.int64(UPPER),
                        FULL_DEPTH if counters[C_INEXACT] == inexact0 else depth,
                        np.int64(0),
                        np.int64(0),
                    )
                    ret = high
                    cut = True
            if cut:
                continue

            frames[fr + F_ETC_LOWER] = -INF if best_shallow else best_lower
            frames[fr + F_ETC_MOVE] = best_move
            frames[fr + F_ALPHA] = alpha
            frames[fr + F_BETA] = beta
            frames[fr + F_ALPHA0] = alpha0
            frames[fr + F_INEXACT0] = inexact0
            frames[fr + F_NODES0] = counters[C_NODES]
            frames[fr + F_N] = n
            frames[fr + F_M] = 0
            frames[fr + F_BEST] = -INF
            frames[fr + F_BEST_MOVE] = -1
            state = NEXT
            continue

        if state == NEXT:
            # -- NEXT: every move done, the node's entry stored -------------------------
            m = frames[fr + F_M]
            n = frames[fr + F_N]
            if m >= n:
                best = frames[fr + F_BEST]
                if best <= frames[fr + F_ALPHA0]:
                    bound = UPPER
                elif best >= frames[fr + F_BETA]:
                    bound = LOWER
                else:
                    bound = EXACT
                stored_depth = FULL_DEPTH if counters[C_INEXACT] == frames[fr + F_INEXACT0] else frames[fr + F_DEPTH]
                work = _log2(counters[C_NODES] - frames[fr + F_NODES0] + 1)
                if bound == UPPER and stored_depth == FULL_DEPTH and frames[fr + F_ETC_LOWER] > -INF:
                    # A fail-low node also keeps the lower bound its children's entries
                    # gave (and the move that gave it): a two-bound entry answers the
                    # windows on both sides of the value when the position comes back
                    # (shared 64-80-tile set, one thread, 2^22: 24.5 M nodes against
                    # 25.3 M with the upper bound alone).
                    tt_store_bounds(
                        tt, keys, frames[fr + F_ETC_LOWER], best, stored_depth, frames[fr + F_ETC_MOVE], work
                    )
                else:
                    tt_store(tt, keys, best, bound, stored_depth, frames[fr + F_BEST_MOVE], work)
                ret = best
                state = RETURN
                continue

            # -- NEXT: the best-scored move left ----------------------------------------
            # selection sort step: bring the best-scored remaining move to m
            mb = ply * MAX_MOVES
            top_index = m
            top_score = ws_scores[_ix(mb + m)]
            for q in range(m + 1, n):
                if ws_scores[_ix(mb + q)] > top_score:
                    top_index = q
                    top_score = ws_scores[_ix(mb + q)]
            if top_index != m:
                ws_scores[_ix(mb + top_index)] = ws_scores[_ix(mb + m)]
                ws_scores[_ix(mb + m)] = top_score
                moved = ws_moves[_ix(mb + top_index)]
                ws_moves[_ix(mb + top_index)] = ws_moves[_ix(mb + m)]
                ws_moves[_ix(mb + m)] = moved
            move = ws_moves[_ix(mb + m)] & MOVE_MASK
            a = move >> 7
            b = move & 127
            gain = _points(cells[_ix(a)])
            frames[fr + F_A] = a
            frames[fr + F_B] = b
            frames[fr + F_GAIN] = gain

            # -- NEXT: the child answered by the entry ETC read -------------------------
            # The ordering worked out the child's key words (from CHEAP_ORDER_POINTS
            # up) at ws_child[c:c + 2], and ETC put its entry, if any, at c + C_ENTRY.
            c = -1
            known = np.int64(0)
            if frames[fr + F_POINTS] >= CHEAP_ORDER_POINTS:
                c = CHILD_WORDS * (mb + (ws_moves[_ix(mb + m)] >> INDEX_SHIFT))
                known = ws_child[_ix(c + C_ENTRY)]
            if known != 0:
                # The child's entry, read for the transposition cutoffs, may
                # answer it within its window: no need to play the move. (An
                # entry is a fact about the position, so one read earlier is still
                # true, only perhaps less tight than what the table holds now.)
                value = entry_answer(known, gain - frames[fr + F_BETA], gain - frames[fr + F_ALPHA])
                if value != NO_ANSWER:
                    if entry_depth(known) < FULL_DEPTH:
                        counters[C_INEXACT] += 1
                    frames[fr + F_SAVED] = -1
                    frames[fr + F_BUSY] = 0
                    ret = value
                    ply += 1
                    state = RETURN
                    continue

            # -- NEXT: the move played --------------------------------------------------
            frames[fr + F_KEYS] = keys[K_CODES]
            frames[fr + F_KEYS + 1] = keys[K_MIX]
            if c >= 0:
                # The child's key words are known: only the runs change here.
                frames[fr + F_SAVED] = _move_runs(cells, runs, keys, a, _move_ends(ws_moves[_ix(mb + m)]))
                keys[K_CODES] = ws_child[_ix(c)]
                keys[K_MIX] = ws_child[_ix(c + 1)]
            else:
                frames[fr + F_SAVED] = apply_move(cells, runs, keys, key_table, a, b)
            frames[fr + F_BUSY] = 0

            # -- NEXT: the helpers' deferral --------------------------------------------
            if busy.shape[0] > 1 and frames[fr + F_POINTS] >= SPLIT_MIN_POINTS:
                # Shared work (simplified ABDADA): a younger move whose subtree
                # another thread is searching right now is put off until the
                # others are done, when that subtree is likely in the table.
                # The slot is freed on RETURN.
                h = keys[K_MIX] ^ keys[K_CODES]
                where = h & (busy.shape[0] - 1)
                if m > 0 and top_score > -(DEFERRED >> 1) and busy[where] == h:
                    _take_back(cells, runs, keys, frames, fr, a, b)
                    ws_scores[_ix(mb + m)] -= DEFERRED
                    continue
                busy[where] = h
                frames[fr + F_BUSY] = h

            # -- NEXT: the child entered ------------------------------------------------
            child = fr + FRAME_FIELDS
            frames[child + F_ALPHA] = gain - frames[fr + F_BETA]
            frames[child + F_BETA] = gain - frames[fr + F_ALPHA]
            frames[child + F_DEPTH] = frames[fr + F_DEPTH] - 1
            frames[child + F_POINTS] = frames[fr + F_POINTS] - gain
            ply += 1
            state = ENTER
            continue

        # -- RETURN: ret is the value of the node at ply --------------------------------
        if ply == root_ply:
            return ret
        ply -= 1
        fr = ply * FRAME_FIELDS
        a = frames[fr + F_A]
        b = frames[fr + F_B]
        if frames[fr + F_SAVED] >= 0:
            _take_back(cells, runs, keys, frames, fr, a, b)
        if frames[fr + F_BUSY] != 0:
            # The helpers' deferral: the subtree is no longer in progress.
            h = frames[fr + F_BUSY]
            where = h & (busy.shape[0] - 1)
            if busy[where] == h:
                busy[where] = 0
        if counters[C_ABORTED] != 0:
            ret = 0
            continue
        value = frames[fr + F_GAIN] - ret
        if value > frames[fr + F_BEST]:
            frames[fr + F_BEST] = value
            frames[fr + F_BEST_MOVE] = a * 128 + b
            if value > frames[fr + F_ALPHA]:
                frames[fr + F_ALPHA] = value
                if value >= frames[fr + F_BETA]:
                    _set_killer(frames, fr, a * 128 + b)
                    frames[fr + F_M] = frames[fr + F_N]
                    state = NEXT
                    continue
        frames[fr + F_M] += 1
        state = NEXT


# -- the best line ----------------------------------------------------------------------


@njit(cache=True, nogil=True, _nrt=False)
def _line_rank(cells, move, hash_move):
    """Where ``_all_pairs`` puts a move: lower first (the table move, then more points)."""
    return -10 if move == hash_move else -_points(cells[_ix(move >> 7)])


@njit(cache=True, nogil=True, _nrt=False)
def _all_pairs(cells, runs, ws_free, pairs, ws_moves, hash_move):
    """Every move here (all copies, unlike the search's one per settled copy) into
    ``ws_moves[0:n]``: the table move first, then by points; returns n."""
    n = np.int64(0)  # not the literal 0: _add_move compiles for one signature
    rest = pairs
    while rest != 0:
        kind = lowest_bit(rest)
        rest &= rest - 1
        u = ws_free[_ix(kind)]
        while u != 0:
            x = lowest_bit(u)
            u &= u - 1
            later = u
            while later != 0:
                n = _add_move(ws_moves, np.int64(0), n, runs, x, lowest_bit(later))
                ws_moves[_ix(n - 1)] &= MOVE_MASK
                later &= later - 1
    # insertion sort: table move first, then more points first (stable otherwise)
    for i in range(1, n):
        move = ws_moves[_ix(i)]
        rank = _line_rank(cells, move, hash_move)
        j = i
        while j > 0:
            other = ws_moves[_ix(j - 1)]
            if rank >= _line_rank(cells, other, hash_move):
                break
            ws_moves[_ix(j)] = other
            j -= 1
        ws_moves[_ix(j)] = move
    return n


@njit(cache=True, nogil=True, _nrt=False)
def line_candidates(cells, runs, keys, tt, ws_free, out):
    """The moves of a position on the best line, to try in turn: every move (all
    copies), the table move first, then by points. Returns how many (``out[0:n]``).

    The line itself is followed from Python, one search call per candidate: a kernel
    that calls ``negamax`` would compile the whole search a second time (6 s more on
    a cold start)."""
    pairs, _ = free_masks(cells, runs, ws_free)
    if pairs == 0:
        return 0
    entry = tt_probe(tt, keys)
    return _all_pairs(cells, runs, ws_free, pairs, out, entry_move(entry) if entry != 0 else -1)
