"""What the survey's Dask machinery costs, and what its configuration buys: a Markdown table.

    python benchmarks/survey_overhead.py                      deals 1-12 from 80 tiles in
    python benchmarks/survey_overhead.py --deals 1-6 --tiles 88
    python benchmarks/survey_overhead.py --deals 1-2 --tiles 100 --only-tables --memory 1,2.5


The same deals (each started ``--tiles`` tiles in, so a run takes minutes rather than hours)
are solved

- one after another in one process on one engine (``solve_deal``, what a worker runs): the
  baseline;
- one after another by ``mahjong-battle solve`` (a process per deal, as a user would);
- by ``run_survey`` on a local cluster: 1 worker x 1 thread (against the baseline: the
  overhead), 2 workers x 1 thread, and 1 worker x 2 threads;
- with ``--memory GB,...``, by 1 worker x 2 threads given each memory (``--memory-per-worker``),
  which sizes its table. Only starts of ``BIG_TABLE_TILES`` (100) tiles or more grow a table
  past 512 MiB, so table rows want ``--tiles 100`` or more (minutes a deal).

Deals an hour counts from the first task handed out to the last result stored; the
cluster's start-up with every worker's kernels loaded (a few seconds, once per run) is its
own column. The baseline runs again last: the gap between its two runs is the machine's
drift, against which the overhead is judged. Every run stores into a fresh temporary
database. Noisy machines: compare the ratios within one run of the script.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from battle.atlas.deal_list import parse_deal_list  # noqa: E402
from battle.atlas.solve_deal import solve_deal, start_position  # noqa: E402
from battle.atlas.survey_db import SurveyDatabase  # noqa: E402
from battle.atlas.survey_run import SurveyPlan, local_cluster, run_survey, table_megabytes  # noqa: E402
from battle.rules.notation import format_position  # noqa: E402
from solver.engine import engine_table_bits  # noqa: E402
from solver.table_size import ENTRY_BYTES  # noqa: E402


def sequential(deals: list[int], tiles: int) -> float:
    solve_deal(deals[0], tiles=min(tiles, 40))  # kernels loaded before the clock starts
    started = time.perf_counter()
    for deal in deals:
        solve_deal(deal, tiles=tiles)
    return time.perf_counter() - started


def by_solve_command(deals: list[int], tiles: int, folder: Path) -> float:
    started = time.perf_counter()
    for deal in deals:
        path = folder / f"start-{deal}.mbp"
        path.write_text(format_position(start_position(deal, tiles)))
        subprocess.run(
            [
                sys.executable,
                "-c",
                "from battle.cli import entry_point; entry_point()",
                "solve",
                "--threads",
                "1",
                str(path),
            ],
            check=True,
            capture_output=True,
            cwd=ROOT,
            timeout=3600,
        )
    return time.perf_counter() - started


def on_cluster(
    deals: list[int], tiles: int, workers: int, threads: int, folder: Path, memory: float | None = None
) -> tuple[float, float]:
    """(seconds from the first task to the last result, on workers that have loaded their
    kernels; seconds to start the cluster and load them, which a run pays once)."""
    from dask.distributed import Client

    started = time.perf_counter()
    plan = SurveyPlan(deals, tiles=tiles, workers=workers, threads_per_worker=threads, memory_per_worker=memory)
    marks: dict[str, float] = {}

    def note(progress, result) -> None:  # noqa: ANN001 - SurveyProgress, DealResult | None
        if result is None and "first" not in marks:
            marks["first"] = time.perf_counter()
        if result is not None:
            marks["last"] = time.perf_counter()

    with local_cluster(plan) as cluster, Client(cluster) as client:
        client.run(solve_deal, deals[0], tiles=min(tiles, 40), threads=threads)  # on every worker
        start_up = time.perf_counter() - started
        name = f"{workers}-{threads}-{memory}"
        with SurveyDatabase(folder / f"survey-{name}.sqlite3") as database:
            run_survey(replace(plan, scheduler=cluster.scheduler_address), database, report=note)
    return marks["last"] - marks["first"], start_up


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="1-12")
    parser.add_argument("--tiles", type=int, default=80)
    parser.add_argument("--skip-solve-command", action="store_true")
    parser.add_argument(
        "--memory",
        default="",
        metavar="GB,...",
        help="rows of 1 worker x 2 threads with each memory per worker (its table)",
    )
    parser.add_argument(
        "--only-tables",
        action="store_true",
        help="the --memory rows alone; the first is the baseline of the last column",
    )
    args = parser.parse_args()
    deals = parse_deal_list(args.deals)
    memories = [float(text) for text in args.memory.split(",") if text.strip()]
    if args.only_tables and not memories:
        parser.error("--only-tables needs --memory")
    folder = Path(tempfile.mkdtemp(prefix="survey-bench-"))
    rows: list[tuple[str, float, float | None]] = []
    if not args.only_tables:
        rows.append(("one process, one engine (baseline)", sequential(deals, args.tiles), None))
        if not args.skip_solve_command:
            rows.append(("`solve` per deal, a process each", by_solve_command(deals, args.tiles, folder), None))
        for workers, threads in ((1, 1), (2, 1), (1, 2)):
            seconds, start_up = on_cluster(deals, args.tiles, workers, threads, folder)
            rows.append(
                (
                    f"survey, {workers} worker{'s' if workers > 1 else ''} x {threads} thread"
                    f"{'s' if threads > 1 else ''}",
                    seconds,
                    start_up,
                )
            )
    for memory in memories:
        seconds, start_up = on_cluster(deals, args.tiles, 1, 2, folder, memory)
        bits = engine_table_bits(args.tiles, max_megabytes=table_megabytes(memory), threads=2)
        rows.append(
            (
                f"survey, 1 worker x 2 threads, {memory:g} GB (a {(ENTRY_BYTES << bits) >> 20} MiB table)",
                seconds,
                start_up,
            )
        )
    if not args.only_tables:  # the machine's drift over the run, the yardstick for the overhead
        rows.append(("one process, one engine (again, last)", sequential(deals, args.tiles), None))
    base = rows[0][1]
    print(f"{len(deals)} deals ({args.deals}), each from {args.tiles} tiles in\n")
    print("| how | seconds | deals an hour | against the baseline | cluster start-up s |")
    print("|---|---:|---:|---:|---:|")
    for name, seconds, up_seconds in rows:
        ratio = f"{100 * (seconds / base - 1):+.1f}%"
        up = "" if up_seconds is None else f"{up_seconds:.1f}"
        print(f"| {name} | {seconds:.1f} | {3600 * len(deals) / seconds:,.0f} | {ratio} | {up} |")


if __name__ == "__main__":
    main()
