"""How ``play`` ends after a quick ``quit``, printed as a Markdown table: the seconds from its last line
to its exit, and the runs that never exit.

    python benchmarks/play_exit.py                       20 runs each way, a busy loop on each core
    python benchmarks/play_exit.py --runs 80 --code DIR  another checkout (DIR/battle, DIR/solver)

Two ways to quit ``play --deal 3``: ``quit`` typed before the first prompt, as a script does; and the
same with the solver's warm-up made to start its work only once ``play`` has begun to quit (a shim
in the child holds it until the main thread is in ``TerminalPlay._quit``, then ``--delay`` seconds
more), which puts numba's import and the kernels' load where a quick quit on a busy machine puts it
by chance. A run still alive after ``--limit`` seconds counts as hung: its stacks are printed
(``py-spy dump``, when installed) and it is killed. The busy loops (``--busy``, one per core by
default) load the machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SHIM = """
import os, random, sys, threading, time, types

def main_thread_quits() -> bool:
    frame = sys._current_frames().get(threading.main_thread().ident)
    while frame is not None:
        if frame.f_code.co_name in ("_quit", "join", "_wait_for_tstate_lock"):
            return True
        frame = frame.f_back
    return False

def prepare_kernels(closing=None, **options):
    while not main_thread_quits():
        time.sleep(0.001)
    time.sleep(random.uniform(*map(float, os.environ["PLAY_EXIT_DELAY"].split(","))))
    del sys.modules["battle.players"]  # the real one from here on
    import battle.players
    return battle.players.prepare_kernels(closing, **options)

sys.modules["battle.players"] = types.SimpleNamespace(prepare_kernels=prepare_kernels)
sys.argv = ["mahjong-battle", "play", "--deal", "3"]
from battle.cli.command_line import entry_point
entry_point()
"""


LAST_LINE = b"No move was played, so there is nothing to keep."


def run_once(code: Path, forced: bool, delay: str, limit: float) -> float | None:
    """Seconds from ``play``'s last line to its exit, or None when the run hung (it is killed)."""
    home = Path(tempfile.mkdtemp(prefix="play-exit-"))
    env = dict(
        os.environ,
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        PYTHONPATH=str(code),
        PLAY_EXIT_DELAY=delay,
    )
    command = [sys.executable, "-c", SHIM] if forced else [sys.executable, "-m", "battle", "play", "--deal", "3"]
    child = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd=code
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(b"quit\n")
    child.stdin.close()
    try:
        for line in child.stdout:
            if LAST_LINE in line:
                break
        said = time.monotonic()
        child.wait(limit)
        return time.monotonic() - said
    except subprocess.TimeoutExpired:
        spy = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(sys.executable).parent))
        if spy:
            dump = subprocess.run([spy, "dump", "--native", "--pid", str(child.pid)], capture_output=True, text=True)
            print(dump.stdout, file=sys.stderr)
        child.kill()
        child.wait()
        return None
    finally:
        child.stdout.close()
        shutil.rmtree(home, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each way to quit (default 20)")
    parser.add_argument("--busy", type=int, default=os.cpu_count() or 1, help="busy loops beside (default: one a core)")
    parser.add_argument("--delay", default="0.2,0.8", help="the forced warm-up's extra wait, seconds FROM,TO")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds after which a run counts as hung")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout to run (default: this one)")
    args = parser.parse_args()
    code = args.code.resolve()
    run_once(code, False, args.delay, args.limit)  # the numba cache of that checkout, filled once
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    rows = []
    try:
        for forced in (False, True):
            times = [run_once(code, forced, args.delay, args.limit) for _ in range(args.runs)]
            exited = [seconds for seconds in times if seconds is not None]
            rows.append((forced, len(times) - len(exited), exited))
    finally:
        for loop in busy:
            loop.kill()
            loop.wait()
    print(f"`play --deal 3`, `quit` at once; {code}; {args.busy} busy loops on {os.cpu_count()} cores\n")
    print("| quit | runs | hung | median s from the last line to the exit | slowest s |")
    print("|---|---:|---:|---:|---:|")
    for forced, hung, exited in rows:
        way = f"warm-up starts as play quits (+{args.delay} s)" if forced else "before the first prompt"
        median = f"{statistics.median(exited):.2f}" if exited else "-"
        slowest = f"{max(exited):.2f}" if exited else "-"
        print(f"| {way} | {args.runs} | {hung} | {median} | {slowest} |")


if __name__ == "__main__":
    main()
