"""benchmarks/kernel_profile.py reads three tools' output; those readers are checked here
on small samples of each format, so a profile that maps nothing fails here rather than
in a long run. The search process itself runs too (no profiler needed for it)."""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from tests.benchmark_scripts import load_script

OBJDUMP = """
/tmp/code.bin:     file format binary

Disassembly of section .data:

0000000000000000 <.data>:
       0:\t55                   \tpush   %rbp
       1:\t41 57                \tpush   %r15
    2963:\t48 39 d0             \tcmp    %rdx,%rax
    2966:\t0f 18 0c 33          \tprefetcht0 (%rbx,%rsi,1)
    296a:\t00\x20
"""

CALLGRIND = """positions: instr line
events: Ir
fn=0x0000000000001000
0x1000 0 5
0x1001 0 7
cfn=tt_store_bounds
calls=3 0x2000 0
0x1004 0 999
0x1004 0 2
0x9999 0 50
"""


def test_objdump_listing_gives_offsets_and_instructions() -> None:
    rows = load_script("kernel_profile").parse_objdump(OBJDUMP)
    assert rows == [
        (0, "push   %rbp"),
        (1, "push   %r15"),
        (0x2963, "cmp    %rdx,%rax"),
        (0x2966, "prefetcht0 (%rbx,%rsi,1)"),
    ]


def test_samples_map_onto_the_function_and_the_rest_is_counted_outside() -> None:
    profile = load_script("kernel_profile")
    addresses = profile.parse_perf_script("  7f0000002963\n7f0000002963\n\n ffffffff82256000\n7f0000000001\n")
    inside, outside = profile.samples_in(addresses, 0x7F0000000000, profile.CODE_BYTES)
    assert inside == collections.Counter({0x2963: 2, 1: 1})
    assert outside == 1


def test_callgrind_counts_skip_a_calls_inclusive_cost() -> None:
    counts = load_script("kernel_profile").parse_callgrind(CALLGRIND, 0x1000, 0x100)
    assert counts == collections.Counter({0: 5, 1: 7, 4: 2})


def test_report_shows_blocks_and_the_hottest_instruction() -> None:
    profile = load_script("kernel_profile")
    rows = profile.parse_objdump(OBJDUMP)
    lines = profile.report(rows, collections.Counter({0x2963: 30, 0x2966: 10, 1: 60}), "samples", 0.5, "ns", 2)
    text = "\n".join(lines)
    assert lines[0] == "100 samples inside negamax: 50.0 ns a node"
    assert "| 0x2900 | 40.0% | 20.0 |" in text
    assert "| 0x0001 | 60.0% | 60 | `push   %r15` |" in text
    assert "| 0x2963 | 30.0% | 30 | `cmp    %rdx,%rax` |" in text


def test_the_search_process_dumps_the_code_and_reports_its_run(tmp_path: Path) -> None:
    profile = load_script("kernel_profile")
    args = argparse.Namespace(table_bits=21, deal=888598, file=None, nodes=20_000)
    profile.run_search(args, tmp_path)
    run = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert run["nodes"] >= 20_000 and run["seconds"] > 0 and run["address"] > 0
    assert len((tmp_path / "code.bin").read_bytes()) == profile.CODE_BYTES
