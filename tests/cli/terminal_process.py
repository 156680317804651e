"""A terminal game run as a real process with pipes, read as a user reads it: wait for a prompt,
type a line. No pty: the program reads lines from a pipe as it does from a terminal."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tests.witnesses import witness

WAIT = 300.0
"""How long a wait for the program's next words may take before the test fails: a first
start compiles nothing here, but two loaded cores can make an import take seconds."""


def home_env(home: Path) -> dict[str, str]:
    return dict(os.environ, XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"), NO_COLOR="1")


class TerminalProcess:
    """``mahjong-battle ARGS`` with its standard streams on pipes."""

    def __init__(
        self,
        args: list[str],
        home: Path,
        env: dict[str, str] | None = None,
        preexec_fn: Callable[[], None] | None = None,
    ) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "battle", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=home_env(home) if env is None else env,
            cwd=home,
            preexec_fn=preexec_fn,
        )
        self.args = args
        self.seen = ""
        witness(self.story, lambda: self.process.poll() is None)
        self._chunks: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        while chunk := os.read(self.process.stdout.fileno(), 4096):
            self._chunks.put(chunk)
        self._chunks.put(b"")

    def wait_for(self, text: str, after: int = 0) -> int:
        """Read until ``text`` appears past offset ``after``; returns the offset just past it."""
        deadline = time.monotonic() + WAIT
        while (found := self.seen.find(text, after)) < 0:
            try:
                chunk = self._chunks.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {text!r} in {self.seen[-600:]!r}") from None
            if not chunk:
                raise AssertionError(f"the program ended before {text!r}: {self.seen[-600:]!r}")
            self.seen += chunk.decode()
        return found + len(text)

    def story(self) -> str:
        """What a failing test prints of this program: how it ran and the last words it wrote."""
        code = self.process.poll()
        state = "running" if code is None else f"exited {code}"
        command = " ".join(self.args)
        return f"mahjong-battle {command} (pid {self.process.pid}, {state}); its last output:\n{self.seen[-1500:]}"

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def __enter__(self) -> TerminalProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        """The process ends with the test, whatever the test found."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for stream in (self.process.stdin, self.process.stderr):  # stdout is the reading thread's, at its end
            if stream is not None:
                stream.close()

    def finish(self) -> tuple[int, str]:
        """Close the input, wait for the end; the exit code and standard error."""
        assert self.process.stdin is not None and self.process.stderr is not None
        self.process.stdin.close()
        code = self.process.wait(WAIT)
        return code, self.process.stderr.read().decode()


def run(args: list[str], home: Path, script: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "battle", *args],
        input=script,
        capture_output=True,
        text=True,
        env=home_env(home),
        cwd=home,
        timeout=WAIT,
    )
