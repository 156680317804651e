"""``battle.cli.standard_input``: standard input read to its end or a line at a time, by a wait
that a signal ends.

The race it closes (a Ctrl-C that lands just before ``read`` blocks) cannot be timed from outside,
so the test makes its effect certain: the signal reaches a thread other than the main one, whose
blocking wait the kernel then does not interrupt, as it does not interrupt a read entered just
after the signal. A plain ``read`` then waits for ever; the wakeup pipe ends the wait.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from battle.cli.standard_input import read_standard_input
from tests.cli.terminal_process import WAIT

LINUX = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads a thread's state from /proc")

SIGNALLED_ELSEWHERE = """
import signal, sys, threading
from battle.cli.standard_input import read_standard_input
from battle.cli.typed_lines import TypedLines, typed_input

def unblocked():
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
    threading.Event().wait()

threading.Thread(target=unblocked, daemon=True).start()
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGINT])  # the main thread never takes it from the kernel
print("ready", flush=True)
try:
    {wait}
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""
WAITS = {
    "to its end": "read_standard_input(sys.stdin.buffer, 1000)",  # show -, analyse -
    "a line": "TypedLines(sys.stdin).next(None)",  # puzzles play's moves, play --online's lines
    "a move": "typed_input()",  # play's moves from a pipe
}


def main_thread_waits(pid: int) -> bool:
    """Whether the process's main thread sleeps in the kernel (its state ``S``)."""
    stat = Path(f"/proc/{pid}/task/{pid}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0] == "S"


@LINUX
@pytest.mark.parametrize("wait", list(WAITS))
def test_a_signal_that_reaches_another_thread_ends_the_wait_for_input(wait: str) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", SIGNALLED_ELSEWHERE.format(wait=WAITS[wait])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "ready\n"
        deadline = time.monotonic() + WAIT
        while not main_thread_waits(child.pid):  # in the wait for input, stdin open and empty
            assert time.monotonic() < deadline, "the child never waited for its input"
            time.sleep(0.01)
        child.send_signal(signal.SIGINT)
        assert child.stdout.read() == "interrupted\n"
        assert child.wait(WAIT) == 0
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        for stream in (child.stdin, child.stdout):
            if stream is not None:
                stream.close()


def test_input_is_read_to_its_end_or_to_the_most_asked(tmp_path: Path) -> None:
    source = tmp_path / "input"
    source.write_bytes(b"x" * 200_000)
    reading, writing = os.pipe()
    os.write(writing, b"ab" * 10)
    os.close(writing)
    with os.fdopen(reading, "rb") as stream:
        assert read_standard_input(stream, 1000) == b"ab" * 10  # a pipe to its end
    with source.open("rb") as stream:
        assert read_standard_input(stream, 150_001) == b"x" * 150_001  # a file, to the most asked
    assert read_standard_input(io.BytesIO(b"no descriptor"), 5) == b"no de"
