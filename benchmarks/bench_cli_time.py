"""How well ``solve --time S`` keeps its promise, printed as a Markdown table.

    python benchmarks/bench_cli_time.py                 deal 5, S = 0.5, 1 and 3, five runs each
    python benchmarks/bench_cli_time.py --times 1 --runs 10 --deal 7
    python benchmarks/bench_cli_time.py --busy 0,4       also with four busy processes on the machine

``--time S`` promises the answer S seconds after the command starts, start-up
included (Python, numba, the cached kernels, the table): the search gets what is
left. Each run starts ``python -m battle solve --time S --quiet`` on a numbered
deal, as a user's shell would, and measures from just before the process is
created to the last line of its answer and to its exit. The overshoot is that
time minus S (negative: early). One run before the table warms the numba cache, so
the figures are for a warm start; a first run after an install compiles the
kernels (10-20 s), which the promise does not count.

``--busy N`` runs the table again beside N processes that keep a core busy each (a test
suite on a 2-core machine is about four): the command's own start-up (Python, numba, the
cached kernels) then takes seconds of the budget, the search gets what is left, and a start-up
longer than S answers at once from a two-move search (depth 2), said on stderr.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_once(seconds: float, position: Path, extra: list[str]) -> tuple[float, float, str]:
    """Seconds from the start to the answer's last line and to the exit, and the answer's depth."""
    command = [sys.executable, "-m", "battle", "solve", str(position), "--time", f"{seconds:g}", "--quiet", *extra]
    started = time.monotonic()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert child.stdout is not None
    answered = started
    lines = []
    for line in child.stdout:
        answered = time.monotonic()
        lines.append(line)
    child.wait()
    exited = time.monotonic()
    if child.returncode != 0:
        reason = child.stderr.read() if child.stderr else ""
        raise SystemExit(f"{shlex.join(command)} exited {child.returncode}: {reason}")
    first = lines[0] if lines else ""
    depth = "exact" if "; exact)" in first else first.split("(depth ", 1)[-1].split(";", 1)[0]
    return answered - started, exited - started, depth


def busy_processes(count: int) -> list[subprocess.Popen]:
    """``count`` processes that each keep a core busy until ended (or for ten minutes at most)."""
    spin = "import time\nend = time.monotonic() + 600\nwhile time.monotonic() < end: pass\n"
    return [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(count)]


def end_all(processes: list[subprocess.Popen]) -> None:
    for process in processes:
        process.kill()
        process.wait()


def git_description() -> str:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "solver", "battle"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return f"{commit or 'unknown'}{' + uncommitted changes in solver/ or battle/' if dirty else ''}"


def milliseconds(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:+.0f} / {max(values) * 1000:+.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deal", type=int, default=5, help="the deal to solve (default 5, a complete deal)")
    parser.add_argument("--times", default="0.5,1,3", help="values of --time, comma-separated (default 0.5,1,3)")
    parser.add_argument("--runs", type=int, default=5, help="runs for each value (default 5)")
    parser.add_argument("--threads", help="passed on to solve as --threads")
    parser.add_argument(
        "--busy",
        default="0",
        help="busy processes beside the runs, comma-separated: one table row set each (default 0)",
    )
    args = parser.parse_args()
    extra = ["--threads", args.threads] if args.threads else []
    times = [float(text) for text in args.times.split(",")]
    loads = [int(text) for text in args.busy.split(",")]

    with tempfile.TemporaryDirectory() as folder:
        position = Path(folder) / f"deal-{args.deal}.mbp"
        dealt = subprocess.run(
            [sys.executable, "-m", "battle", "deal", str(args.deal)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        position.write_text(dealt.stdout, encoding="utf-8")
        run_once(0.2, position, extra)  # warms the numba cache: the table is for warm starts
        rows = []
        for busy in loads:
            burners = busy_processes(busy)
            try:
                for seconds in times:
                    runs = [run_once(seconds, position, extra) for _ in range(args.runs)]
                    answers = ", ".join(f"{answer:.3f}s" for answer, _, _ in runs)
                    print(f"busy {busy}, --time {seconds:g}: {answers}", file=sys.stderr)
                    rows.append((busy, seconds, runs))
            finally:
                end_all(burners)

    print("## `solve --time S`: the answer's time against S\n")
    print(f"Command: `{shlex.join([sys.executable, *sys.argv])}`  ")
    print(
        f"Commit: {git_description()}; {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, {time.strftime('%Y-%m-%d %H:%M')}; deal {args.deal}, warm numba cache\n"
    )
    print("Overshoot = seconds from the process's creation minus S, in ms (negative: early).\n")
    print(
        "| busy processes | S | runs | answer: median / max overshoot | exit: median / max overshoot | depth reached |"
    )
    print("|---|---|---|---|---|---|")
    for busy, seconds, runs in rows:
        answers = [answer - seconds for answer, _, _ in runs]
        exits = [exit_ - seconds for _, exit_, _ in runs]
        depths = ", ".join(sorted({depth for _, _, depth in runs}, key=lambda depth: (len(depth), depth)))
        print(f"| {busy} | {seconds:g} | {len(runs)} | {milliseconds(answers)} | {milliseconds(exits)} | {depths} |")


if __name__ == "__main__":
    main()
