"""Where the test suite's CPU goes: every test's CPU seconds (pytest's own and its children's), as tables.

    python tools/suite_cpu.py                      the default run (``-m "not slow" -n 2``), then the tables
    python tools/suite_cpu.py --report cpu-folder  the tables of a run already made
    python tools/suite_cpu.py -- tests/online      any pytest arguments after ``--``

The suite is CPU-bound on 2 cores (the busy CPU seconds of a run are most of twice its wall time), so
what a test costs is its CPU, not its wall time, which the other worker's load stretches. Each pytest
worker writes a line a test (its node id, its own CPU seconds, the CPU seconds of its children reaped
while it ran, its wall seconds) to ``--out`` (this file is also the pytest plugin, loaded with
``-p suite_cpu``). A child is counted when it is reaped: a server started and stopped by a test is
that test's; a browser kept for a worker's whole session is counted at the worker's last test that
used it (a test whose children's CPU is many times its wall time).

Prints the totals, the CPU by folder and the files that cost most.
"""

from __future__ import annotations

import argparse
import collections
import os
import resource
import subprocess
import sys
import time
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any, TextIO

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDER_VARIABLE = "SUITE_CPU_FOLDER"
"""Where the plugin in each worker writes its lines."""

_sink: TextIO | None = None


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, Any, None]:
    """One line a test: its node id, own CPU s, children's CPU s, wall s (its set-up and tear-down too)."""
    global _sink
    folder = os.environ.get(FOLDER_VARIABLE)
    if folder is None:
        yield
        return
    if _sink is None:
        _sink = open(Path(folder) / f"cpu-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.tsv", "a")  # noqa: SIM115
    own, children = _cpu()
    began = time.monotonic()
    yield
    own_after, children_after = _cpu()
    _sink.write(
        f"{item.nodeid}\t{own_after - own:.2f}\t{children_after - children:.2f}\t{time.monotonic() - began:.2f}\n"
    )
    _sink.flush()


def lines(folder: Path) -> Iterator[tuple[str, float, float, float]]:
    for path in sorted(folder.glob("cpu-*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            node, own, children, wall = line.split("\t")
            yield node, float(own), float(children), float(wall)


def report(folder: Path, top: int) -> str:
    """The totals, the CPU by folder and the ``top`` files by CPU."""
    tests = own_total = children_total = wall_total = 0.0
    by_folder: collections.Counter[str] = collections.Counter()
    by_file: collections.Counter[str] = collections.Counter()
    wall_of: collections.Counter[str] = collections.Counter()
    count_of: collections.Counter[str] = collections.Counter()
    for node, own, children, wall in lines(folder):
        path = node.split("::", 1)[0]
        parts = path.split("/")
        by_folder["/".join(parts[:2]) if len(parts) > 2 else path] += own + children
        by_file[path] += own + children
        wall_of[path] += wall
        count_of[path] += 1
        tests += 1
        own_total, children_total, wall_total = own_total + own, children_total + children, wall_total + wall
    out = [
        f"{tests:.0f} tests: CPU {own_total + children_total:.0f} s ({own_total:.0f} in pytest, "
        f"{children_total:.0f} in its children), {wall_total:.0f} worker-seconds of wall time\n",
        "| folder | CPU s | share |",
        "|---|---:|---:|",
    ]
    total = max(own_total + children_total, 1e-9)
    out += [f"| {name} | {cpu:.1f} | {100 * cpu / total:.0f}% |" for name, cpu in by_folder.most_common()]
    out += ["", "| file | tests | CPU s | wall s |", "|---|---:|---:|---:|"]
    out += [
        f"| {name} | {count_of[name]} | {cpu:.1f} | {wall_of[name]:.1f} |" for name, cpu in by_file.most_common(top)
    ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    extra: list[str] = []
    if "--" in arguments:
        cut = arguments.index("--")
        arguments, extra = arguments[:cut], arguments[cut + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("build/suite-cpu"),
        help="where the lines go (default build/suite-cpu, which git ignores)",
    )
    parser.add_argument("--report", type=Path, help="print the tables of the lines in this folder, run nothing")
    parser.add_argument("--top", type=int, default=30, help="files in the last table (default 30)")
    options = parser.parse_args(arguments)
    if options.report is not None:
        if not any(options.report.glob("cpu-*.tsv")):
            parser.error(f"--report: no cpu-*.tsv lines in {options.report}")
        print(report(options.report, options.top))
        return 0
    options.out.mkdir(parents=True, exist_ok=True)
    for old in options.out.glob("cpu-*.tsv"):
        old.unlink()
    here = str(Path(__file__).resolve().parent)
    environment = {
        **os.environ,
        FOLDER_VARIABLE: str(options.out.resolve()),
        "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])),
    }
    command = [sys.executable, "-m", "pytest", "-p", "suite_cpu", *(extra or ["-q"])]
    finished = subprocess.run(command, cwd=ROOT, env=environment, check=False)
    print(report(options.out, options.top))
    return finished.returncode


if __name__ == "__main__":
    sys.exit(main())
