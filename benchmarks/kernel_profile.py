"""Where the search kernel's time or instructions go, instruction by instruction.

numba's compiled ``negamax`` has no symbols a profiler could name, so this script
finds it itself: the search process writes the function's address and machine code
to a folder, and the samples (or counts) are mapped onto its disassembly.

    python benchmarks/kernel_profile.py --deal 888598 --table-bits 27 --nodes 40000000
    python benchmarks/kernel_profile.py --mode instructions --file position.mbp --nodes 1000000

``--mode time`` (default) samples with ``perf record -e cpu-clock``: the timer, not a
hardware counter, so it works on virtual machines without counters (this project's
machine has none). A stall shows on the instruction after the one that waits, so a
prefetch burst that waits for page walks shows as a hot ``cmp`` after ``prefetcht0``
(23% of a complete deal's time with a 2 GiB table). ``--mode instructions`` counts
executed instructions with ``valgrind --tool=callgrind``: deterministic, for judging a
change of the code by its instructions per node when the machine's noise (10-20%
between runs here) hides a few percent of time. numba compiles the kernels again
under valgrind (it reports another CPU); they are cached in their own folder
(``--valgrind-cache``), so only the first such run takes 10-15 minutes.

Needs ``perf`` (Debian: linux-perf) or ``valgrind``, and ``objdump`` (binutils).
Prints the share of the samples (or instructions) per 256-byte block of the
function and its hottest instructions; the search runs from the position's root
with the whole window, one thread, from an empty table, until ``--nodes``.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CODE_BYTES = 0x4000
"""How much of ``negamax``'s machine code to dump: more than the function (about 14 KiB)."""
BLOCK = 0x100
PACKAGES = {"perf": "linux-perf", "valgrind": "valgrind", "objdump": "binutils"}
"""The Debian package that brings each tool this script runs."""
WARM_UP_FILE = ROOT / "tests" / "data" / "solver" / "n024_s500001.mbp"


# -- the search process -----------------------------------------------------------------


def run_search(args: argparse.Namespace, out: Path) -> None:
    """Load the kernels, dump ``negamax``'s code, then search until the node cap; writes
    ``code.bin`` and ``run.json`` (address, nodes, seconds) into ``out``."""
    from battle.rules.deal import deal
    from battle.rules.notation import parse_position
    from solver import _search as k
    from solver.engine import Engine

    engine = Engine(table_bits=args.table_bits, threads=1)
    engine.search(parse_position(WARM_UP_FILE.read_text(encoding="utf-8")))
    engine.clear()  # touches the whole table now, so its page faults are not in the search
    compiled = next(iter(k.negamax.overloads.values()))
    address = compiled.library.get_pointer_to_function(compiled.fndesc.llvm_func_name)
    (out / "code.bin").write_bytes(ctypes.string_at(address, CODE_BYTES))
    position = deal(args.deal) if args.file is None else parse_position(Path(args.file).read_text(encoding="utf-8"))
    root = engine._encode(position)
    counters = engine.counters
    counters[:] = 0
    counters[k.C_NODE_LIMIT] = args.nodes
    started = time.perf_counter()
    k.negamax(
        root.cells,
        engine.exposed,
        root.runs,
        root.keys,
        engine.key_table,
        engine.tt,
        engine.busy,
        counters,
        *engine._main.workspace,
        0,
        k.FULL_DEPTH,
        -root.points - 9,
        root.points + 9,
        root.points,
    )
    seconds = time.perf_counter() - started
    run = {"address": address, "nodes": int(counters[k.C_NODES]), "seconds": seconds}
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")


# -- reading the tools' output ------------------------------------------------------------


def disassemble(code: Path) -> list[tuple[int, str]]:
    """(offset, instruction text) for each instruction of a raw x86-64 code dump."""
    listing = subprocess.run(
        ["objdump", "-D", "-b", "binary", "-mi386:x86-64", str(code)], capture_output=True, text=True, check=True
    ).stdout
    return parse_objdump(listing)


def parse_objdump(listing: str) -> list[tuple[int, str]]:
    """The instructions of ``objdump -D`` output: offset and mnemonic with operands (bytes dropped)."""
    rows = []
    for line in listing.splitlines():
        match = re.match(r"^\s*([0-9a-f]+):\t(?:[0-9a-f]{2} )+\s*\t(.+)$", line)
        if match:
            rows.append((int(match.group(1), 16), match.group(2).strip()))
    return rows


def samples_in(addresses: Iterable[int], start: int, size: int) -> tuple[collections.Counter, int]:
    """Per offset into [start, start + size), how many of the addresses fall there; and how many fell outside."""
    inside: collections.Counter = collections.Counter()
    outside = 0
    for address in addresses:
        if start <= address < start + size:
            inside[address - start] += 1
        else:
            outside += 1
    return inside, outside


def parse_perf_script(text: str) -> list[int]:
    """The sampled instruction addresses of ``perf script -F ip`` output."""
    return [int(line, 16) for line in (line.strip() for line in text.splitlines()) if line]


def parse_callgrind(text: str, start: int, size: int) -> collections.Counter:
    """Instructions executed per offset into [start, start + size), from a callgrind file
    written with ``--dump-instr=yes --compress-pos=no`` (lines ``address line count``; the
    line after ``calls=`` is a call's inclusive cost, not the caller's own, and is skipped)."""
    counts: collections.Counter = collections.Counter()
    after_call = False
    for line in text.splitlines():
        if line.startswith("calls="):
            after_call = True
            continue
        match = re.match(r"^(0x[0-9a-f]+) \d+ (\d+)", line)
        if not match:
            continue
        if after_call:
            after_call = False
            continue
        address = int(match.group(1), 16)
        if start <= address < start + size:
            counts[address - start] += int(match.group(2))
    return counts


def report(
    rows: list[tuple[int, str]], counts: collections.Counter, unit: str, scale: float, per_node: str, top: int
) -> list[str]:
    """Lines of the profile: each 256-byte block's share, then the hottest instructions.

    A count times ``scale`` is its amount per node, in the unit ``per_node`` names
    (instructions; for samples, nanoseconds: the run's time a node spread by the samples)."""
    total = sum(counts.values())
    if total == 0:
        return [f"no {unit} inside negamax"]
    lines = [
        f"{total:,} {unit} inside negamax: {total * scale:,.1f} {per_node} a node",
        "",
        f"| block | share | {per_node} a node |",
        "|---|---:|---:|",
    ]
    blocks: collections.Counter = collections.Counter()
    for offset, count in counts.items():
        blocks[offset // BLOCK * BLOCK] += count
    for block in sorted(blocks):
        if blocks[block] >= total * 0.005:
            lines.append(f"| {block:#06x} | {100 * blocks[block] / total:.1f}% | {blocks[block] * scale:,.1f} |")
    text = dict(rows)
    lines += ["", f"| offset | share | {unit} | instruction |", "|---|---:|---:|---|"]
    for offset, count in counts.most_common(top):
        lines.append(f"| {offset:#06x} | {100 * count / total:.1f}% | {count:,} | `{text.get(offset, '?')}` |")
    return lines


# -- the two modes --------------------------------------------------------------------------


def inner_command(args: argparse.Namespace, out: Path) -> list[str]:
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--inner",
        str(out),
        "--table-bits",
        str(args.table_bits),
        "--nodes",
        str(args.nodes),
    ]
    return command + (["--file", args.file] if args.file else ["--deal", str(args.deal)])


def profile(args: argparse.Namespace) -> int:
    tool = "perf" if args.mode == "time" else "valgrind"
    for program in (tool, "objdump"):
        if shutil.which(program) is None:
            print(f"kernel_profile: {program} is not installed (Debian: {PACKAGES[program]})", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory(prefix="kernel-profile-") as folder:
        out = Path(folder)
        env = dict(os.environ)
        if args.mode == "time":
            data = out / "perf.data"
            command = ["perf", "record", "-q", "-e", "cpu-clock", "-F", str(args.frequency), "-o", str(data)]
        else:
            data = out / "callgrind.out"
            env["NUMBA_CACHE_DIR"] = args.valgrind_cache
            command = [
                "valgrind",
                "--tool=callgrind",
                "--dump-instr=yes",
                "--compress-pos=no",
                "--compress-strings=no",
                f"--callgrind-out-file={data}",
            ]
        result = subprocess.run([*command, *inner_command(args, out)], env=env, capture_output=True, text=True)
        if result.returncode != 0 or not (out / "run.json").exists():
            print(f"kernel_profile: the search process failed:\n{result.stderr[-2000:]}", file=sys.stderr)
            return 1
        run = json.loads((out / "run.json").read_text(encoding="utf-8"))
        rows = disassemble(out / "code.bin")
        if args.mode == "time":
            script = subprocess.run(
                ["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True, check=True
            ).stdout
            counts, outside = samples_in(parse_perf_script(script), run["address"], CODE_BYTES)
            unit, per_node = "samples", "ns"
            # The search's own samples: its seconds at the sampling frequency, most of them inside negamax.
            scale = run["seconds"] * 1e9 / run["nodes"] / max(1, sum(counts.values()))
            note = (
                f"{outside:,} samples outside negamax (start-up, the table's clearing, the kernel, the"
                " functions negamax calls); the nanoseconds spread the search's time over its samples inside"
            )
        else:
            counts = parse_callgrind(data.read_text(encoding="utf-8"), run["address"], CODE_BYTES)
            unit, per_node = "instructions", "instructions"
            scale = 1 / run["nodes"]
            note = "instructions of the functions negamax calls (the table store, a move's key update) not counted"
    what = f"deal {args.deal}" if args.file is None else args.file
    print(
        f"## Kernel profile ({args.mode}): {what}, table 2^{args.table_bits}, {run['nodes']:,} nodes in "
        f"{run['seconds']:.2f} s ({run['seconds'] / run['nodes'] * 1e9:.0f} ns a node)\n"
    )
    print(f"Command: `{' '.join(sys.argv)}`; {note}.\n")
    print("\n".join(report(rows, counts, unit, scale, per_node, args.top)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--deal", type=int, default=888598, help="complete deal to search from its first move")
    what.add_argument("--file", help="a .mbp position to search instead")
    parser.add_argument("--mode", choices=("time", "instructions"), default="time")
    parser.add_argument("--table-bits", type=int, default=27, help="log2 of the table's entries (default 27: 2 GiB)")
    parser.add_argument("--nodes", type=int, default=20_000_000, help="stop after about this many nodes")
    parser.add_argument("--frequency", type=int, default=2000, help="perf samples per second")
    parser.add_argument("--top", type=int, default=25, help="how many of the hottest instructions to list")
    parser.add_argument(
        "--valgrind-cache",
        default=str(Path(tempfile.gettempdir()) / "mahjong-battle-valgrind-cache"),
        help="NUMBA_CACHE_DIR for runs under valgrind",
    )
    parser.add_argument("--inner", help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.nodes < 1 or not 21 <= args.table_bits <= 31:
        parser.error("--nodes must be positive and --table-bits 21-31")
    if args.file is not None and not Path(args.file).is_file():
        parser.error(f"--file {args.file}: no such file")
    if args.inner:
        run_search(args, Path(args.inner))
        return 0
    return profile(args)


if __name__ == "__main__":
    sys.exit(main())
