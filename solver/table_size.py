"""How big a transposition table a search gets, and how it is allocated: what the position
needs, what a time or node limit can fill, and what the machine's memory allows.

The table is the solver's one large allocation (16 bytes an entry, 32 MiB to 2 GiB for a
complete deal); these functions only size it, ``Engine`` owns it.
"""

from __future__ import annotations

import math
import mmap
import os

import numpy as np

from solver import _search as k
from solver.limits import Limits

ENTRY_BYTES = 16
MAX_TABLE_BITS = 31
BIG_TABLE_TILES = 100
"""From this many tiles on (complete deals and their first moves) a table may pass 512 MiB."""
MIN_DEFAULT_TABLE_MB = 256
MAX_DEFAULT_TABLE_MB = 2048
STORES_PER_THREAD_SECOND = 2_000_000
"""More table stores a second than one search thread makes here (a node stores at most
one entry; a thread makes 1-1.5 M nodes a second on the benchmark machine), so that a
faster machine's time-limited search still finds room."""
MIN_TABLE_BITS = k.MIN_TABLE_BITS
"""The smallest table: 2**21 entries, 32 MiB (an entry keeps only the key bits its line does not imply)."""


def table_bits_for(tiles: int, max_megabytes: int = 256, *, limits: Limits = Limits(), threads: int = 1) -> int:
    """A table size that fits the position: small solves should not pay for a big table.

    A fresh table costs time to touch (zero pages on first write), so a
    40-tile solve with a 256 MiB table spent most of its time in page faults.
    Searches grow about 4x per 8 tiles; two bits per 8 tiles keeps the table a
    few times larger than the positions visited, from the smallest table
    (``MIN_TABLE_BITS``, 32 MiB, which a 60-tile solve fills) up to the memory the
    user allows; but at most 2**25 entries (512 MiB) below ``BIG_TABLE_TILES``:
    each probe costs more as the table grows past the caches' reach of its pages,
    which only complete deals, whose searches are four times bigger, win back (a
    96-tile position: 32 s with 512 MiB against 38.5-41.9 s with 1 GiB;
    docs/solver-notes.md, "Figures behind the code's comments").

    A search with a time or node limit needs no more entries than it can store
    in that budget. Its table is capped there, because touching a fresh table is
    slow on a virtual machine (the host backs the memory anew in each process).
    """
    wanted = max(MIN_TABLE_BITS, min(MAX_TABLE_BITS if tiles >= BIG_TABLE_TILES else 25, 15 + (tiles - 40) // 4))
    stores = min(
        limits.time * STORES_PER_THREAD_SECOND * max(1, threads) if limits.time is not None else math.inf,
        limits.nodes if limits.nodes is not None else math.inf,
    )
    if stores < math.inf:
        wanted = min(wanted, max(MIN_TABLE_BITS, math.ceil(math.log2(max(stores, 2)))))
    allowed = max(MIN_TABLE_BITS, (max(1, max_megabytes) * (1 << 20) // ENTRY_BYTES).bit_length() - 1)
    return min(wanted, allowed)


def allocate_table(entries: int) -> np.ndarray:
    """A zeroed int64[2 * entries] table (two words an entry), on huge pages where the system offers them.

    Every probe lands on a random line, so with 4 KiB pages nearly every probe
    of a table larger than the caches also misses the TLB; with 2 MiB pages it
    rarely does (Linux: transparent huge pages in ``madvise`` mode need asking).
    """
    try:
        memory = mmap.mmap(-1, entries * ENTRY_BYTES, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # zero-filled
        if hasattr(mmap, "MADV_HUGEPAGE"):
            memory.madvise(mmap.MADV_HUGEPAGE)
        return np.frombuffer(memory, dtype=np.int64)
    except (OSError, ValueError, AttributeError):  # no MAP_PRIVATE on Windows
        pass
    return np.zeros(entries * k.ENTRY_WORDS, dtype=np.int64)


def default_table_megabytes() -> int:
    """The table a command-line solve may grow to: a quarter of the machine's memory, 256 MiB to 2 GiB.

    ``table_bits_for`` only takes what the position needs (a 40-tile solve still gets
    the smallest table, 32 MiB), so this cap matters for big positions alone: a complete deal searches
    over a billion nodes, which a 256 MiB table would thrash, and is solved a little
    faster with 2 GiB than with 1 GiB (deal 140891: 356 s against 364 s). A quarter
    leaves the rest of a small machine alone.
    """
    try:
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return MIN_DEFAULT_TABLE_MB
    return max(MIN_DEFAULT_TABLE_MB, min(MAX_DEFAULT_TABLE_MB, memory // 4 >> 20))


def default_threads() -> int:
    """Threads for a solve that may use the whole machine: every core, up to 4."""
    return max(1, min(4, os.cpu_count() or 1))
