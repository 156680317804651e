"""Hunt flaky tests: the whole CI run, several times, in fresh clones, quiet and beside busy loops.

    python tools/flake_hunt.py --quiet 5 --loaded 3 [--busy 2] [--out flake-hunt] [--stop-on-failure]

Each run clones the checkout's ``HEAD`` into a new folder (with ``../shared`` linked beside it, as
CI lays it) and runs ``bash .ci/run`` there with ``CI=true``, exactly as CI does: a fresh virtual
environment, the checks, then the README's test command, whose JUnit report (``PYTEST_ADDOPTS``)
says which tests failed and why. A loaded run keeps ``--busy`` processes spinning on the CPU for
as long as it lasts, like a developer's machine that is doing something else. Quiet runs come
first, then the loaded ones.

Prints a Markdown table a run (its mode, the load average while it ran, its wall time, the counts
and the result) and one a failing test (in how many runs, and each reason's first line); the
logs, the JUnit files and ``summary.json`` stay in ``--out``. The exit code is 0 when every run
was green. A test that fails here is fixed at its cause (a wait for the event instead of a clock,
a budget the test controls, an assertion of what is promised rather than of one interleaving),
never by a retry or a longer timeout alone.

Every run costs the whole CI's time (20 minutes quiet on the 2-core machine of 2026-11-28, 32 beside
two busy loops): eight runs take most of a day. Only 127.0.0.1 is contacted by the tests themselves.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))  # busy_loops: the benchmarks' machine doing something else

from busy_loops import spinning  # noqa: E402

SUMMARY = re.compile(r"^=*\s*(?P<counts>(?:\d+ \w+(?:, )?)+) in (?P<seconds>[\d.]+)s")
"""pytest's closing line: ``2131 passed, 1 failed in 527.30s (0:08:47)``."""
RUN_LIMIT = 5400.0
"""Seconds a run may take before it is stopped and counted red: CI's own limit."""


@dataclass
class Failure:
    test: str
    reason: str


@dataclass
class Run:
    number: int
    mode: str
    busy: int
    seconds: float = 0.0
    pytest_seconds: float | None = None
    counts: dict[str, int] = field(default_factory=dict)
    exit_code: int | None = None
    load_mean: float = 0.0
    load_max: float = 0.0
    failures: list[Failure] = field(default_factory=list)
    log: str = ""

    @property
    def green(self) -> bool:
        return self.exit_code == 0 and not self.failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the whole CI several times in fresh clones and list what failed.")
    parser.add_argument("--quiet", type=int, default=5, help="runs on the machine as it is (default 5)")
    parser.add_argument("--loaded", type=int, default=3, help="runs beside --busy spinning processes (default 3)")
    parser.add_argument("--busy", type=int, default=2, help="spinning processes in a loaded run (default 2)")
    parser.add_argument(
        "--source", type=Path, default=ROOT, help="the checkout whose HEAD is cloned (default: this one)"
    )
    parser.add_argument("--out", type=Path, default=Path("flake-hunt"), help="where logs and reports go")
    parser.add_argument("--stop-on-failure", action="store_true", help="stop after the first red run")
    parser.add_argument(
        "--run-limit", type=float, default=RUN_LIMIT, help="seconds a run may take (default: CI's 5400)"
    )
    options = parser.parse_args(argv)
    for name in ("quiet", "loaded", "busy"):
        if getattr(options, name) < 0:
            parser.error(f"--{name} must be 0 or more, not {getattr(options, name)}")
    if not (options.source / ".git").exists():
        parser.error(f"--source {options.source} is not a git checkout")
    options.out.mkdir(parents=True, exist_ok=True)
    plan = [("quiet", 0)] * options.quiet + [("loaded", options.busy)] * options.loaded
    runs: list[Run] = []
    for number, (mode, busy) in enumerate(plan, start=1):
        print(f"run {number} of {len(plan)}: {mode}", file=sys.stderr, flush=True)
        run = one_run(number, mode, busy, options.source.resolve(), options.out.resolve(), options.run_limit)
        runs.append(run)
        write_summary(options.out / "summary.json", runs)
        print(f"  {'green' if run.green else 'RED'} in {run.seconds:.0f} s", file=sys.stderr, flush=True)
        if options.stop_on_failure and not run.green:
            break
    print(report(runs))
    return 0 if all(run.green for run in runs) else 1


def one_run(number: int, mode: str, busy: int, source: Path, out: Path, limit: float) -> Run:
    """``.ci/run`` in a fresh clone of ``source``'s HEAD, beside ``busy`` spinning processes."""
    run = Run(number, mode, busy, log=str(out / f"run-{number}.log"))
    junit = out / f"run-{number}.xml"
    junit.unlink(missing_ok=True)
    with fresh_clone(source) as clone, spinning(busy), load_watch() as loads:
        env = {**os.environ, "CI": "true", "PYTEST_ADDOPTS": f"--junitxml={junit}"}
        begun = time.monotonic()
        with open(run.log, "w", encoding="utf-8") as log:
            try:
                finished = subprocess.run(
                    ["bash", ".ci/run"], cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT, timeout=limit
                )
                run.exit_code = finished.returncode
            except subprocess.TimeoutExpired:
                log.write(f"\nflake_hunt: stopped after {limit:.0f} s\n")
                run.exit_code = None
        run.seconds = time.monotonic() - begun
    run.load_mean = sum(loads) / len(loads) if loads else 0.0
    run.load_max = max(loads, default=0.0)
    run.counts, run.pytest_seconds = closing_counts(Path(run.log))
    run.failures = junit_failures(junit) if junit.exists() else []
    if run.exit_code != 0 and not run.failures:
        run.failures = [Failure("(outside the tests)", last_words(Path(run.log)))]
    return run


@contextmanager
def fresh_clone(source: Path) -> Iterator[Path]:
    """A clone of ``source``'s HEAD in a new folder, ``shared`` beside it where the source has one."""
    folder = Path(tempfile.mkdtemp(prefix="flake-hunt-"))
    try:
        shared = source.parent / "shared"
        if shared.is_dir():
            (folder / "shared").symlink_to(shared.resolve())
        subprocess.run(["git", "clone", "--quiet", str(source), str(folder / "p")], check=True)
        yield folder / "p"
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def load_watch(every: float = 10.0) -> Iterator[list[float]]:
    """The one-minute load average, read every ``every`` seconds while the block runs."""
    loads: list[float] = []
    done = threading.Event()

    def watch() -> None:
        while not done.wait(every):
            loads.append(os.getloadavg()[0])

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield loads
    finally:
        done.set()
        watcher.join()


def closing_counts(log: Path) -> tuple[dict[str, int], float | None]:
    """pytest's closing counts (``{"passed": 2131, "failed": 1}``) and seconds, from the run's log."""
    counts: dict[str, int] = {}
    seconds = None
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        found = SUMMARY.match(line.strip())
        if found is not None:
            counts = {word: int(number) for number, word in re.findall(r"(\d+) (\w+)", found.group("counts"))}
            seconds = float(found.group("seconds"))
    return counts, seconds


def junit_failures(path: Path) -> list[Failure]:
    """Each failed or erred test case of a JUnit report, with its reason's first line."""
    try:
        tree = ElementTree.parse(path)
    except ElementTree.ParseError as problem:
        return [Failure("(the JUnit report)", f"unreadable: {problem}")]
    found = []
    for case in tree.iter("testcase"):
        for kind in ("failure", "error"):
            for found_problem in case.findall(kind):
                message = (found_problem.get("message") or found_problem.text or kind).strip().splitlines()
                test = f"{case.get('classname', '')}::{case.get('name', '')}"
                found.append(Failure(test, (message[0] if message else kind)[:300]))
    return found


def last_words(log: Path, lines: int = 3) -> str:
    text = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()
    return " / ".join(text[-lines:])[:300] if text else "(no output)"


def report(runs: list[Run]) -> str:
    rows = [
        "| run | mode | busy loops | load mean / max | .ci/run s | pytest s | passed | failed | result |",
        "|---:|---|---:|---|---:|---:|---:|---:|---|",
    ]
    for run in runs:
        pytest_seconds = f"{run.pytest_seconds:.0f}" if run.pytest_seconds is not None else "-"
        failed = run.counts.get("failed", 0) + run.counts.get("error", 0) + run.counts.get("errors", 0)
        rows.append(
            f"| {run.number} | {run.mode} | {run.busy} | {run.load_mean:.1f} / {run.load_max:.1f} | {run.seconds:.0f} "
            f"| {pytest_seconds} | {run.counts.get('passed', 0)} | {failed} | {'green' if run.green else 'red'} |"
        )
    by_test: dict[str, list[tuple[int, str]]] = {}
    for run in runs:
        for failure in run.failures:
            by_test.setdefault(failure.test, []).append((run.number, failure.reason))
    green = sum(run.green for run in runs)
    lines = [*rows, "", f"{green} of {len(runs)} runs green."]
    if by_test:
        lines += ["", "| test | runs | reason (first line) |", "|---|---|---|"]
        for test, seen in sorted(by_test.items(), key=lambda item: -len(item[1])):
            numbers = ", ".join(str(number) for number, _reason in seen)
            reasons = "; ".join(sorted({reason.replace("|", "\\|") for _number, reason in seen}))
            lines.append(f"| `{test}` | {numbers} | {reasons} |")
    return "\n".join(lines)


def write_summary(path: Path, runs: list[Run]) -> None:
    path.write_text(json.dumps([asdict(run) for run in runs], indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
