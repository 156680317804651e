/* What a batch of table probes costs a core on this machine, outside the solver.
 *
 * The solver's node issues one prefetch per child (a burst of 6-12 random lines
 * in the table), does some work, then reads the lines. This loop does the same
 * with a table of TOTAL MiB: BATCH random lines, each within a random WINDOW KiB
 * of the table, prefetched (or not), then WORK steps of a dependent arithmetic
 * chain, then the BATCH reads. AHEAD > 0 prefetches that many batches early.
 * It prints the cycles per batch (rdtsc). If the prefetches only hid latency,
 * the cost would be max(work, latency); if they stall the core, work + stall.
 *
 *   gcc -O2 -o /tmp/prefetch_probe benchmarks/prefetch_probe.c
 *   /tmp/prefetch_probe TOTAL_MIB WINDOW_KIB BATCH WORK PREFETCH AHEAD
 *   /tmp/prefetch_probe 2048 2097152 8 400 1 0    # a 2 GiB table, as a complete deal's
 *   /tmp/prefetch_probe 64 65536 8 400 1 0        # a 64 MiB one
 *   /tmp/prefetch_probe 1 1024 8 400 1 0          # the work alone (all in the caches)
 *
 * Its standing table is in benchmarks/README.md; what it ruled out is in docs/solver-notes.md
 * ("Memory: prefetching, table size and page faults").
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <x86intrin.h>

#define MAX_BATCH 64
#define RING 8

static uint64_t state = 88172645463325252ULL;

static inline uint64_t next_random(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s TOTAL_MIB WINDOW_KIB BATCH WORK PREFETCH AHEAD\n", argv[0]);
        return 2;
    }
    size_t total = (size_t)atol(argv[1]) << 20;
    size_t window = (size_t)atol(argv[2]) << 10;
    int batch = atoi(argv[3]), work = atoi(argv[4]), prefetch = atoi(argv[5]), ahead = atoi(argv[6]);
    if (batch < 1 || batch > MAX_BATCH || ahead < 0 || ahead >= RING || window < 64 || window > total) {
        fprintf(stderr, "batch 1-%d, ahead 0-%d, window 64 B to the table's size\n", MAX_BATCH, RING - 1);
        return 2;
    }
    uint64_t *table = mmap(0, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (table == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    madvise(table, total, MADV_HUGEPAGE);  /* as solver/engine.py asks for the table */
    for (size_t i = 0; i < total / 8; i += 512) table[i] = i;
    size_t lines = total / 64, window_lines = window / 64;
    static uint64_t where[RING][MAX_BATCH];
    uint64_t sum = 0;
    long rounds = 2000000;
    for (int r = 0; r < RING; r++)
        for (int b = 0; b < batch; b++) where[r][b] = (next_random() % lines) * 8;
    uint64_t start = __rdtsc();
    for (long round = 0; round < rounds; round++) {
        int now = round % RING, early = (round + ahead) % RING;
        uint64_t base = (next_random() % (lines / window_lines)) * window_lines;
        for (int b = 0; b < batch; b++) {
            where[early][b] = (base + next_random() % window_lines) * 8;
            if (prefetch) __builtin_prefetch(&table[where[early][b]]);
        }
        volatile uint64_t x = sum;
        for (int w = 0; w < work; w++) x = x * 3 + 1;
        sum += x;
        for (int b = 0; b < batch; b++) sum += table[where[now][b]];
    }
    uint64_t cycles = __rdtsc() - start;
    printf("table %zu MiB, window %zu KiB, batch %d, work %d, prefetch %d, ahead %d: %.0f cycles a batch (%d)\n",
           total >> 20, window >> 10, batch, work, prefetch, ahead, (double)cycles / rounds, (int)(sum & 1));
    return 0;
}
