"""A real Dask cluster as a host runs one: a ``dask scheduler`` process on 127.0.0.1 and ``dask worker``
processes against it, each logging to a file in a test's folder. ``stop`` ends them (a host restarting
its cluster, or a machine going down) and ``start`` starts them again on the same port, so a pool or a
``serve`` connected to the address sees its scheduler go away and come back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.online_server import ROOT, free_port

WAIT = 60.0
"""Seconds a scheduler or a worker may take to start on a busy 2-core machine."""


class DaskProcesses:
    """A scheduler on ``127.0.0.1:port`` and ``workers`` worker processes of one thread each (no nanny: the
    worker is the process, so its pid is the one that searches); ``with DaskProcesses(folder) as cluster:``
    starts them and ends every process at the end."""

    def __init__(self, folder: Path, workers: int = 1) -> None:
        self.folder = folder
        self.workers = workers
        self.port = free_port()
        self.scheduler: subprocess.Popen[bytes] | None = None
        self.worker_processes: list[subprocess.Popen[bytes]] = []
        self.starts = 0

    @property
    def address(self) -> str:
        return f"tcp://127.0.0.1:{self.port}"

    @property
    def worker_pids(self) -> list[int]:
        return [process.pid for process in self.worker_processes]

    def start(self) -> DaskProcesses:
        """Start the scheduler, then the workers; back once each has said it is serving (its log's line)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.starts += 1
        scheduler_log = self.folder / f"scheduler-{self.starts}.log"
        self.scheduler = self._spawn(
            "distributed.cli.dask_scheduler",
            ["--host", "127.0.0.1", "--port", str(self.port), "--dashboard-address", ":0"],
            scheduler_log,
        )
        _wait_for_line(scheduler_log, "Scheduler at:", self.scheduler)
        for number in range(self.workers):
            worker_log = self.folder / f"worker-{self.starts}-{number}.log"
            worker = self._spawn(
                "distributed.cli.dask_worker",
                [
                    self.address,
                    *("--host", "127.0.0.1", "--nthreads", "1", "--no-nanny", "--no-dashboard"),
                    *("--local-directory", str(self.folder / "scratch")),
                ],
                worker_log,
            )
            self.worker_processes.append(worker)
            _wait_for_line(worker_log, "Registered to:", worker)
        return self

    def stop(self) -> None:
        """End the workers (killed: a machine gone) and the scheduler (stopped as a host stops it)."""
        for worker in self.worker_processes:
            _end(worker, signal.SIGKILL)
        self.worker_processes = []
        if self.scheduler is not None:
            _end(self.scheduler, signal.SIGTERM)
            self.scheduler = None

    def __enter__(self) -> DaskProcesses:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _spawn(self, module: str, arguments: list[str], log: Path) -> subprocess.Popen[bytes]:
        with log.open("ab") as sink:
            return subprocess.Popen(
                [sys.executable, "-m", module, *arguments],
                stdout=sink,
                stderr=sink,
                cwd=self.folder,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
                start_new_session=True,  # its own group: ending it ends whatever it started
            )


def _wait_for_line(log: Path, text: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + WAIT
    while text not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            _end(process, signal.SIGKILL)
            raise AssertionError(f"{log.name} never said {text!r}:\n{log.read_text(errors='replace')[-2000:]}")
        time.sleep(0.05)


def _end(process: subprocess.Popen[bytes], sign: signal.Signals) -> None:
    """Send ``sign`` to the process's group, and kill the group if it has not ended in 10 s."""
    if process.poll() is None:
        os.killpg(process.pid, sign)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
