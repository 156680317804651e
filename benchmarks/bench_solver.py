"""Measured figures of the solver, printed as Markdown tables.

    python benchmarks/bench_solver.py --vs-python   numba Engine vs the same algorithm in plain Python
    python benchmarks/bench_solver.py --bench       the shared benchmark positions vs the C reference
    python benchmarks/bench_solver.py --startup     wall time of `python -m battle solve`, cold and warm cache
    python benchmarks/bench_solver.py --levels      the playing levels against each other and against perfect play
    python benchmarks/bench_solver.py --big         96-tile positions and complete deals, each within a time limit

Every table starts with the command line that produced it, the commit and the
machine, so a figure quoted in a note can be reproduced. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for folder in (ROOT, ROOT / "benchmarks"):  # run as a script from a checkout
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import pyref  # noqa: E402

from battle.rules.board import Move, Position, move_name  # noqa: E402
from battle.rules.deal import deal  # noqa: E402
from battle.rules.notation import parse_position  # noqa: E402
from solver import Engine, Limits  # noqa: E402
from solver.engine import FULL_DEPTH  # noqa: E402
from solver.levels import LEVELS, Level, analyse_for_level, choose_from  # noqa: E402
from solver.results import SearchStatus  # noqa: E402
from solver.table_size import MIN_TABLE_BITS, default_threads, table_bits_for  # noqa: E402

SHARED_BENCH = ROOT.parent / "shared" / "bench"
STARTUP_FILE = ROOT / "tests" / "data" / "solver" / "n040_s500004.mbp"
WARM_UP_FILE = ROOT / "tests" / "data" / "solver" / "n024_s500001.mbp"


# -- output -----------------------------------------------------------------------------


def header(title: str) -> None:
    """Title, the exact command, and where it ran."""
    print(f"## {title}\n")
    print(f"Command: `{shlex.join([sys.executable, *sys.argv])}`  ")
    print(
        f"Commit: {git_description()}; {platform.python_implementation()} {platform.python_version()}, "
        f"numba {numba_version()}, {os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d %H:%M')}\n"
    )


def git_description() -> str:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "solver", "battle", ":!battle/ui"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{commit or 'unknown'}{' + uncommitted changes in solver/ or battle/' if dirty else ''}"


def numba_version() -> str:
    import numba

    return numba.__version__


def table(columns: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A Markdown table; numbers right-aligned."""
    print("| " + " | ".join(columns) + " |")
    print(
        "|"
        + "|".join("---:" if rows and isinstance(rows[0][i], (int, float)) else "---" for i in range(len(columns)))
        + "|"
    )
    for row in rows:
        print("| " + " | ".join(cell(value) for value in row) + " |")
    print()


def cell(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "**NO**"
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) < 1 else f"{value:.2f}" if abs(value) < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def percent(fraction: float) -> str:
    return f"{100 * fraction:.0f}%"


def ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator > 0 else float("inf")


# -- positions --------------------------------------------------------------------------


def played_down(number: int, tiles: int, seed: int) -> Position | None:
    """Deal ``number`` played by seeded uniformly random moves until ``tiles`` are left (None if it gets stuck)."""
    rng = random.Random(seed)
    position = deal(number)
    while position.tiles_left() > tiles:
        moves = position.legal_moves()
        if not moves:
            return None
        position.push(rng.choice(moves))
    return position.copy()


OPENING_DEPTH = 6
"""How deep the search that plays an opening (``--big --opening``) looks: a fair player's moves, in milliseconds."""


def opened(number: int, tiles: int, engine: Engine) -> Position:
    """Deal ``number`` played from its first move by a depth-``OPENING_DEPTH`` search's best
    move (the first in notation order: deterministic) until ``tiles`` are left, or the game ends.

    Positions reached by random moves (the shared bench, ``played_down``) are far easier
    than those of real openings with as many tiles: every column still tall, nothing
    settled, the values close. At 96 tiles on two threads, the four random-move positions
    of ``--big --seed 1`` take 2.8-21.9 s and the four openings 11.8-82.4 s, and the
    openings' median grows x13 from 96 tiles to a complete deal (benchmarks/README.md). So
    complete deals are better tracked on openings than on random positions.
    """
    position = deal(number)
    while position.tiles_left() > tiles and position.legal_moves():
        analysis = engine.search(position, Limits(depth=OPENING_DEPTH))
        position.push(analysis.best_moves[0] if analysis.best_moves else analysis.move_values[0].move)
    return position.copy()


def generated_positions(counts: Sequence[int], per_count: int, seed: int) -> list[tuple[str, Position]]:
    """``per_count`` positions of each size, from numbered deals chosen by ``seed``."""
    rng = random.Random(seed)
    found = []
    for tiles in counts:
        made = 0
        while made < per_count:
            number = rng.randrange(1_000_000)
            move_seed = rng.randrange(1_000_000)
            position = played_down(number, tiles, move_seed)
            if position is not None and not position.is_over():
                found.append((f"deal {number} / moves {move_seed}", position))
                made += 1
    return found


def bench_rows(folder: Path, counts: Sequence[int], limit: int | None) -> list[dict]:
    path = folder / "positions.jsonl"
    if not path.exists():
        sys.exit(f"bench_solver: no {path} (give the folder with --bench-dir)")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    chosen = []
    for tiles in counts:
        matching = [row for row in rows if row["tiles_left"] == tiles]
        chosen += matching[:limit] if limit else matching
    return chosen


def load(path: Path) -> Position:
    return parse_position(path.read_text(encoding="utf-8"))


def warm_engine(hash_bits: int, threads: int = 1) -> Engine:
    """An engine whose kernels are loaded (or compiled), so no timing includes that."""
    engine = Engine(table_bits=hash_bits, threads=threads)
    engine.search(load(WARM_UP_FILE), all_exact=True)
    engine.clear()
    return engine


def timed_search(engine: Engine, position: Position, repeat: int = 1):  # noqa: ANN201 - (Analysis, seconds)
    """The fastest of ``repeat`` searches, each from an empty table."""
    best = None
    for _ in range(repeat):
        engine.clear()
        started = time.perf_counter()
        analysis = engine.search(position)
        seconds = time.perf_counter() - started
        if best is None or seconds < best[1]:
            best = (analysis, seconds)
    assert best is not None
    return best


# -- --big ------------------------------------------------------------------------------


class FirstMoveClock:
    """When the exact search finished its first root move, read off ``Engine.status``.

    The first root move is proved with a full window, the others only tested against
    its value, and on complete deals the first proof is most of the time (53-98% over
    the seven deals of benchmarks/README.md). This clock puts that share in every
    ``--big`` row. It polls every ``interval`` seconds from its own
    thread, which costs the search nothing measurable. A status left over from the
    previous search is told apart by waiting for move 1 first.
    """

    def __init__(self, status: Callable[[], SearchStatus], interval: float = 0.01) -> None:
        self._status = status
        self._interval = interval
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._started = 0.0
        self.seconds: float | None = None
        self.nodes: int | None = None

    def __enter__(self) -> FirstMoveClock:
        self._started = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        self._thread.join()

    def _poll(self) -> None:
        seen_first = False
        while not self._done.wait(self._interval):
            status = self._status()
            if status.depth != FULL_DEPTH:
                continue
            if status.move_number == 1:
                seen_first = True
            elif seen_first and status.move_number >= 2:
                self.seconds = time.perf_counter() - self._started
                self.nodes = status.nodes
                return

    def share(self, seconds: float) -> str:
        """The first root move's time and its share of the whole search's ``seconds``;
        "-" when the clock did not see it end (one root move, or a first move over
        before the first poll)."""
        if self.seconds is None:
            return "-"
        return f"{self.seconds:.1f} s ({percent(self.seconds / seconds)})"


def run_big(args: argparse.Namespace) -> None:
    """Exact solves beyond the shared bench: positions made the same way (a numbered
    deal, then uniformly random moves), and complete deals from the first move."""
    counts = args.tiles or [96]
    limit = args.time_limit
    threads = args.threads or default_threads()
    hash_bits = args.hash_bits or table_bits_for(max(counts), 2048)  # what `solve` would use
    if counts == [108]:
        made = "complete deals"
    elif args.opening:
        made = f"openings: deals played by a depth-{OPENING_DEPTH} search"
    else:
        made = "random-move positions"
    header(f"Exact solves within {limit:g} s ({made}; table 2^{hash_bits} entries, {threads} threads)")
    positions = []
    opener = Engine(MIN_TABLE_BITS) if args.opening else None
    for tiles in counts:
        if tiles == 108 or opener is not None:
            rng = random.Random(args.seed)
            numbers = args.deals or [rng.randrange(1_000_000) for _ in range(args.limit or (2 if tiles == 108 else 4))]
            if tiles == 108:
                positions += [(f"deal {number}", deal(number)) for number in numbers]
            else:
                positions += [(f"deal {number} opening", opened(number, tiles, opener)) for number in numbers]
        else:
            positions += generated_positions([tiles], args.limit or 4, args.seed)
    engine = warm_engine(hash_bits, threads)
    rows = []
    for name, position in positions:
        engine.clear()
        started = time.perf_counter()
        with FirstMoveClock(engine.status) as first:
            analysis = engine.search(position, Limits(stop_after=limit))  # full depth, stopped at the limit
        seconds = time.perf_counter() - started
        solved = analysis.exact
        rows.append(
            [
                name,
                position.tiles_left(),
                solved,
                seconds if solved else f"> {limit:g}",
                first.share(seconds) if solved else "-",
                f"{analysis.value:+d}" if solved else "-",
                " ".join(move_name(m) for m in analysis.best_moves) if solved else "-",
                analysis.nodes,
            ]
        )
        print(f"  {name}: {'solved' if solved else 'not solved'} in {seconds:.1f}s", file=sys.stderr, flush=True)
    table(["position", "tiles", "solved", "seconds", "first root move", "value", "best moves", "nodes"], rows)


# -- --vs-python ------------------------------------------------------------------------


def run_vs_python(args: argparse.Namespace) -> None:
    counts = args.tiles or [48, 56, 64]
    if args.shared:
        rows = bench_rows(args.bench_dir, counts, args.limit)
        positions = [(row["id"], load(args.bench_dir / "positions" / f"{row['id']}.mbp")) for row in rows]
    else:
        positions = generated_positions(counts, args.limit or 3, args.seed)
    threads = args.threads or 1
    header(
        f"numba Engine ({threads} thread{'s' if threads > 1 else ''}) vs the same search in plain Python "
        "(benchmarks/pyref.py)"
    )
    engine = warm_engine(args.hash_bits or MIN_TABLE_BITS, threads)
    rows_out = []
    python_total = numba_total = 0.0
    ratios = []
    for name, position in positions:
        reference = pyref.solve(position)
        analysis, seconds = timed_search(engine, position, args.repeat or 3)
        agree = analysis.value == reference.value and analysis.best_moves == reference.best_moves
        python_total += reference.seconds
        numba_total += seconds
        ratios.append(ratio(reference.seconds, seconds))
        rows_out.append(
            [
                name,
                position.tiles_left(),
                analysis.value,
                agree,
                reference.seconds,
                seconds,
                ratios[-1],
                reference.nodes,
                analysis.nodes,
                ratio(analysis.nodes / seconds, reference.nodes / reference.seconds),
            ]
        )
        print(f"  {name}: python {reference.seconds:.2f}s, numba {seconds:.4f}s", file=sys.stderr, flush=True)
    table(
        [
            "position",
            "tiles",
            "value",
            "agree",
            "python s",
            "numba s",
            "speed-up",
            "python nodes",
            "numba nodes",
            "per-node speed-up",
        ],
        rows_out,
    )
    print(
        f"Median speed-up {statistics.median(ratios):.1f}x; overall (total python / total numba) "
        f"{ratio(python_total, numba_total):.1f}x over {len(positions)} positions "
        f"(numba: fastest of {args.repeat or 3}, from an empty table, after a warm-up; includes the best line)."
    )
    if not all(row[3] for row in rows_out):
        print("\n**Disagreement: the two solvers differ on some position.**")


# -- --bench ----------------------------------------------------------------------------


def run_bench(args: argparse.Namespace) -> None:
    counts = args.tiles or [64, 72, 80, 88]
    rows = bench_rows(args.bench_dir, counts, args.limit)
    hash_bits = args.hash_bits or 24
    threads = args.threads or default_threads()
    header(f"Shared benchmark positions vs the C reference (table 2^{hash_bits} entries, {threads} threads)")
    engine = warm_engine(hash_bits, threads)
    results = []
    for row in rows:
        position = load(args.bench_dir / "positions" / f"{row['id']}.mbp")
        analysis, seconds = timed_search(engine, position, args.repeat or 1)
        ok_value = analysis.exact and analysis.value == row["value"]
        ok_best = sorted(move_name(m) for m in analysis.best_moves) == sorted(row["best_moves"])
        results.append((row, seconds, analysis.nodes, ok_value, ok_best))
        print(f"  {row['id']}: {seconds:.3f}s (reference {row['reference_seconds']}s)", file=sys.stderr, flush=True)
    table(
        [
            "position",
            "tiles",
            "value",
            "value ok",
            "best set ok",
            "ours s",
            "reference s",
            "ours/ref",
            "ours nodes",
            "reference nodes",
        ],
        [
            [
                row["id"],
                row["tiles_left"],
                row["value"],
                ok_value,
                ok_best,
                seconds,
                float(row["reference_seconds"]),
                ratio(seconds, row["reference_seconds"]),
                nodes,
                row["reference_nodes"],
            ]
            for row, seconds, nodes, ok_value, ok_best in results
        ],
    )
    summary = []
    for tiles in counts:
        mine = [r for r in results if r[0]["tiles_left"] == tiles]
        if not mine:
            continue
        ours = [r[1] for r in mine]
        refs = [float(r[0]["reference_seconds"]) for r in mine]
        summary.append(
            [
                tiles,
                len(mine),
                sum(ours),
                sum(refs),
                statistics.median(ours),
                statistics.median(refs),
                ratio(sum(ours), sum(refs)),
                sum(ours) <= 0.5 * sum(refs),
                all(r[3] and r[4] for r in mine),
            ]
        )
    table(
        [
            "tiles",
            "positions",
            "ours total s",
            "ref total s",
            "ours median s",
            "ref median s",
            "total ours/ref",
            "goal: ours <= ref/2",
            "all correct",
        ],
        summary,
    )


# -- --startup --------------------------------------------------------------------------


def run_startup(args: argparse.Namespace) -> None:
    header("Start-up: `python -m battle solve` on a 40-tile position, in a fresh process")
    path = args.file or STARTUP_FILE
    command = [sys.executable, "-m", "battle", "solve", str(path), "--quiet"]
    baseline = [sys.executable, "-m", "battle", "moves", str(path)]
    cold, warm, plain = [], [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
            cold.append(wall_time(command, cache))
            warm.append(wall_time(command, cache))
            plain.append(wall_time(baseline, cache))
    rows = [
        ("cold: empty NUMBA_CACHE_DIR (compiles the kernels)", cold),
        ("warm: second run, kernels loaded from the cache", warm),
        ("baseline: `python -m battle moves` (no solver)", plain),
    ]
    table(
        ["run", "median s", "min s", "max s", "runs"],
        [[name, statistics.median(times), min(times), max(times), len(times)] for name, times in rows],
    )
    print(f"Command timed: `{shlex.join(command)}`, with NUMBA_CACHE_DIR set to a new temporary folder per cold run.")


def wall_time(command: list[str], cache: str) -> float:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"bench_solver: {shlex.join(command)} failed:\n{done.stderr}")
    return seconds


# -- --levels ---------------------------------------------------------------------------


def capped(level: Level, cap: float | None) -> Level:
    return level if cap is None else dataclasses.replace(level, time_limit=min(level.time_limit, cap))


def level_chooser(level: Level, engine: Engine, rng: random.Random) -> Callable[[Position], Move]:
    def choose(position: Position) -> Move:
        return choose_from(analyse_for_level(engine, position, level), level, rng)

    return choose


def play(position: Position, first: Callable[[Position], Move], second: Callable[[Position], Move]) -> Position:
    while not position.is_over():
        position.push((first if position.to_move == 1 else second)(position))
    return position


def run_levels(args: argparse.Namespace) -> None:
    names = list(LEVELS)
    cap = None if args.move_time_cap <= 0 else args.move_time_cap
    header(
        f"Levels: adjacent levels against each other, and points lost against perfect play"
        f"{f' (thinking time capped at {cap:g} s a move)' if cap else ''}"
    )
    hash_bits = args.hash_bits or MIN_TABLE_BITS
    engines = (Engine(table_bits=hash_bits), Engine(table_bits=hash_bits))
    rng = random.Random(args.seed)
    deals = [rng.randrange(1_000_000) for _ in range(args.games)]
    match_rows = []
    for weaker_name, stronger_name in zip(names, names[1:], strict=False):
        weaker, stronger = capped(LEVELS[weaker_name], cap), capped(LEVELS[stronger_name], cap)
        wins = draws = losses = 0
        margins = []
        started = time.perf_counter()
        for game, number in enumerate(deals):
            for stronger_side in (1, 2):
                seed = args.seed * 1_000_003 + game * 2 + stronger_side
                strong = level_chooser(stronger, engines[0], random.Random(seed))
                weak = level_chooser(weaker, engines[1], random.Random(-seed))
                end = play(deal(number), *((strong, weak) if stronger_side == 1 else (weak, strong)))
                margin = end.scores[stronger_side - 1] - end.scores[2 - stronger_side]
                margins.append(margin)
                wins += margin > 0
                draws += margin == 0
                losses += margin < 0
        seconds = time.perf_counter() - started
        match_rows.append(
            [
                f"{stronger_name} vs {weaker_name}",
                len(margins),
                wins,
                draws,
                losses,
                percent((wins + draws / 2) / len(margins)),
                float(statistics.mean(margins)),
                seconds,
            ]
        )
        print(
            f"  {stronger_name} vs {weaker_name}: {wins}-{draws}-{losses} in {seconds:.0f}s",
            file=sys.stderr,
            flush=True,
        )
    print(
        f"Games: deals {', '.join(map(str, deals))}; each played twice, the stronger level once as player 1 "
        f"and once as player 2.\n"
    )
    table(["stronger vs weaker", "games", "wins", "draws", "losses", "score rate", "avg margin", "seconds"], match_rows)

    endgames = generated_positions([rng.choice(range(30, 42, 2)) for _ in range(args.endgames)], 1, args.seed + 1)
    judge = Engine(table_bits=hash_bits)
    exact = []
    for _, position in endgames:
        analysis = judge.search(position, all_exact=True)
        assert analysis.exact
        exact.append((position, {mv.move: mv.value for mv in analysis.move_values}, analysis.value))
    loss_rows = []
    for name in names:
        level = capped(LEVELS[name], cap)
        choose = level_chooser(level, engines[0], random.Random(args.seed))
        losses_here = []
        for position, values, best in exact:
            for _ in range(args.samples):
                losses_here.append(best - values[choose(position)])
        loss_rows.append(
            [
                name,
                level.depth if level.depth is not None else "exact",
                level.temperature,
                len(losses_here),
                float(statistics.mean(losses_here)),
                percent(sum(loss == 0 for loss in losses_here) / len(losses_here)),
                max(losses_here),
            ]
        )
    print(
        f"Points lost per move against perfect play: {len(exact)} positions of 30 to 40 tiles (numbered deals "
        f"played down by random moves), {args.samples} choices per level and position; loss = best move's "
        f"exact value - chosen move's exact value.\n"
    )
    table(["level", "depth", "temperature", "moves", "avg points lost", "best-move rate", "worst loss"], loss_rows)


# -- command line -----------------------------------------------------------------------


def parse_counts(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of tile counts") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--vs-python", action="store_true", help="numba Engine vs plain-Python pyref, same positions")
    mode.add_argument("--bench", action="store_true", help="shared benchmark positions vs the C reference")
    mode.add_argument("--startup", action="store_true", help="cold and warm start of `python -m battle solve`")
    mode.add_argument("--levels", action="store_true", help="levels against each other and against perfect play")
    mode.add_argument("--big", action="store_true", help="96-tile positions (--tiles 108: complete deals), timed out")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        metavar="S",
        help="--big: give up on a position after S seconds (default 60)",
    )
    parser.add_argument(
        "--tiles",
        type=parse_counts,
        metavar="N,N,...",
        help="tile counts (default: 48,56,64 for --vs-python, 64,72,80,88 for --bench)",
    )
    parser.add_argument(
        "--limit", type=int, metavar="N", help="positions per tile count (default: all for --bench, 3 for --vs-python)"
    )
    parser.add_argument(
        "--shared", action="store_true", help="--vs-python on the shared benchmark positions instead of generated ones"
    )
    parser.add_argument(
        "--bench-dir",
        type=Path,
        default=SHARED_BENCH,
        metavar="DIR",
        help=f"folder with positions.jsonl and positions/ (default {SHARED_BENCH})",
    )
    parser.add_argument(
        "--hash-bits",
        type=int,
        metavar="B",
        help="transposition table of 2^B entries of 16 bytes (default: 24 for --bench, what `solve` gives "
        "the largest position for --big, otherwise the smallest table, 21)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="search threads (default: 1 for --vs-python, one per core up to 4 for --bench)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        metavar="R",
        help="numba searches per position, fastest counts (default: 3 for --vs-python, 1 for --bench)",
    )
    parser.add_argument(
        "--deals",
        type=lambda text: [int(n) for n in text.split(",")],
        metavar="N,N,...",
        help="--big --tiles 108 or --opening: these deals instead of --limit deals chosen by --seed",
    )
    parser.add_argument(
        "--opening",
        action="store_true",
        help=f"--big: positions from deals played down to --tiles by a depth-{OPENING_DEPTH} search "
        "(openings), not by random moves",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed for generated positions and level choices")
    parser.add_argument("--runs", type=int, default=3, help="--startup: runs of each kind (default 3)")
    parser.add_argument("--file", type=Path, help=f"--startup: position to solve (default {STARTUP_FILE.name})")
    parser.add_argument(
        "--games", type=int, default=10, help="--levels: deals per pair of levels, each played twice (default 10)"
    )
    parser.add_argument(
        "--endgames", type=int, default=40, help="--levels: endgame positions for the points-lost table (default 40)"
    )
    parser.add_argument(
        "--samples", type=int, default=3, help="--levels: choices per level and endgame position (default 3)"
    )
    parser.add_argument(
        "--move-time-cap",
        type=float,
        default=1.0,
        metavar="S",
        help="--levels: cap every level's thinking time at S seconds a move, 0 for none "
        "(default 1; with the full limits a game between the top levels takes minutes)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.vs_python:
        run_vs_python(args)
    elif args.bench:
        run_bench(args)
    elif args.startup:
        run_startup(args)
    elif args.big:
        run_big(args)
    else:
        run_levels(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
