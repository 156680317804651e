"""A real PostgreSQL for tests: ``initdb`` in a folder of its own, ``postgres`` on 127.0.0.1 and a free
port, a database ``battle`` of the user ``battle`` made with ``createdb``, stopped (and the folder
removed) at the end.

PostgreSQL refuses to run as root: as root the server runs as a system user made for it
(``useradd``) and removed afterwards. Its folder is made with ``tempfile`` in /tmp, not in pytest's
``tmp_path``, whose folders root alone may enter. The binaries are Debian's
(``/usr/lib/postgresql/N/bin``, ``apt-get install postgresql``; ``.ci/run`` installs them); without
them ``postgres_binaries`` skips, except on CI (``CI`` set), where that is a failure of the set-up.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.online_server import free_port
from tests.witnesses import log_tail, witness

WAIT = 60.0
"""Seconds PostgreSQL may take to take connections on a busy machine."""


def postgres_binaries() -> Path:
    """The folder of ``initdb`` and ``postgres``; the test skips without one (fails on CI)."""
    found = shutil.which("initdb")
    if found is not None:
        return Path(found).resolve().parent  # Debian links initdb alone into the PATH
    folders = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda initdb: int(initdb.parts[-3]) if initdb.parts[-3].isdigit() else -1,
        reverse=True,
    )  # the newest version: 17 before 9
    if folders:
        return folders[0].parent
    if os.environ.get("CI"):
        pytest.fail("no PostgreSQL on CI: .ci/run installs it (apt-get install postgresql)")
    pytest.skip("no PostgreSQL here (apt-get install postgresql): the two-machine set-up is not tested")


@contextmanager
def system_user() -> Iterator[tuple[int, int] | None]:
    """As root, a throwaway system user's (uid, gid), removed at the end; else None (this user runs it)."""
    if os.geteuid() != 0:
        yield None
        return
    name = f"battle-pg-{secrets.token_hex(4)}"
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name], check=True, timeout=60
    )
    try:
        entry = pwd.getpwnam(name)
        yield entry.pw_uid, entry.pw_gid
    finally:
        subprocess.run(["userdel", name], check=False, timeout=60)


@dataclass
class RunningPostgres:
    """A PostgreSQL ``postgres`` started: ``url`` of its database ``battle`` (user ``battle``, no password),
    run by ``command`` (its log in ``log``, its tools in ``binaries``) on ``port``."""

    url: str
    server: subprocess.Popen[bytes]
    command: list[str]
    binaries: Path
    port: int
    log: Path

    def stop(self) -> None:
        """Stop it before the end (a test of what goes on without it)."""
        stop(self.server)

    def start_again(self) -> None:
        """Start it again after ``stop``, on the same data and port; back once it takes sessions."""
        with self.log.open("a") as log:
            self.server = subprocess.Popen(self.command, stdout=log, stderr=subprocess.STDOUT)
        wait_for(self.binaries, self.port, self.server, self.log)


@contextmanager
def postgres() -> Iterator[RunningPostgres]:
    """A running PostgreSQL, stopped at the end."""
    binaries = postgres_binaries()
    with system_user() as user:
        folder = Path(tempfile.mkdtemp(prefix="battle-pg-"))
        try:
            as_user: list[str] = []
            if user is not None:
                os.chown(folder, *user)
                as_user = ["setpriv", f"--reuid={user[0]}", f"--regid={user[1]}", "--clear-groups"]
            data = folder / "data"
            subprocess.run(
                [*as_user, str(binaries / "initdb"), "-D", str(data), "-U", "battle", "--auth=trust", "--no-sync"],
                check=True,
                capture_output=True,
                timeout=120,
            )
            port = free_port()
            command = [
                *as_user, str(binaries / "postgres"), "-D", str(data), "-p", str(port), "-h", "127.0.0.1",
                "-k", str(folder), "-c", "fsync=off", "-c", "max_connections=40",
            ]  # fmt: skip
            with (folder / "postgres.log").open("w") as log:
                server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
            witness(lambda: f"PostgreSQL on 127.0.0.1:{port}, log:\n{log_tail(folder / 'postgres.log')}")
            running: RunningPostgres | None = None
            try:
                wait_for(binaries, port, server, folder / "postgres.log")
                subprocess.run(
                    [str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "battle", "battle"],
                    check=True,
                    capture_output=True,
                    timeout=60,
                )
                running = RunningPostgres(
                    f"postgresql://battle@127.0.0.1:{port}/battle",
                    server,
                    command,
                    binaries,
                    port,
                    folder / "postgres.log",
                )
                yield running
            finally:
                stop(running.server if running is not None else server)
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def wait_for(binaries: Path, port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    """Back once ``server`` accepts sessions on ``port`` (``pg_isready``: a listening socket alone may
    still answer "the database system is starting up")."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert server.poll() is None, "postgres stopped at its start:\n" + log.read_text(errors="replace")
        ready = subprocess.run(
            [str(binaries / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(port), "-U", "battle", "-t", "1"],
            check=False,
            timeout=30,
        )
        if ready.returncode == 0:
            return
        time.sleep(0.05)
    raise AssertionError(f"postgres did not take sessions on {port} within {WAIT} s")


def stop(server: subprocess.Popen[bytes]) -> None:
    """PostgreSQL's fast shutdown (SIGINT: every session ended, every child process with it)."""
    if server.poll() is None:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
