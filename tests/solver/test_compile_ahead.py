"""A first run's compile happens in child processes: this process only loads what they cached, the
next run loads the cache and compiles nothing, a closing program ends them at once, and with no
child to be had the kernels compile here."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from solver import compile_ahead
from tests.solver.solver_cases import cache_files

ROOT = Path(__file__).resolve().parents[2]

FIRST_RUN = """
import json
from battle.rules.notation import parse_position
from solver import engine
from solver.compile_ahead import prepare_kernels_apart
from solver.limits import Limits
cached_before = engine.kernels_cached()
prepare_kernels_apart()
compiled_here = engine._kernels_compiled()
position = parse_position(open({path!r}).read())
value = engine.Engine(table_bits=engine.MIN_TABLE_BITS).search(position, Limits()).value
print(json.dumps({{"cached_before": cached_before, "compiled_here": compiled_here,
                  "cached_after": engine.kernels_cached(), "value": value}}))
"""


def _compiling_processes(parent: int | None = None) -> set[int]:
    """Every process running ``solver.compile_ahead`` (those ``parent`` started, when given), from
    /proc. A test that starts a compile looks only at its own children: beside it, another pytest-xdist
    worker's test (or another test run on the machine) may be compiling too."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if b"solver.compile_ahead" not in (entry / "cmdline").read_bytes():
                    continue
                if parent is not None and int((entry / "stat").read_bytes().rsplit(b")", 1)[1].split()[1]) != parent:
                    continue
            except (OSError, ValueError, IndexError):
                continue
            found.add(int(entry.name))
    return found


def test_a_first_run_compiles_in_children_and_only_loads_the_kernels_here(tmp_path: Path) -> None:
    bench = ROOT.parent / "shared" / "bench"
    if not (bench / "positions.jsonl").exists():
        pytest.skip("the shared bench positions are not here")
    row = json.loads((bench / "positions.jsonl").read_text().splitlines()[4])  # a 40-tile position
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba"), "PYTHONPATH": str(ROOT)}
    # run from a folder holding another ``solver`` (as a source checkout does): the children must not take it
    (tmp_path / "solver").mkdir()
    (tmp_path / "solver" / "__init__.py").write_text("raise ImportError('not the solver the program runs')\n")
    script = tmp_path / "program" / "first_run.py"
    script.parent.mkdir()
    script.write_text(FIRST_RUN.format(path=str(bench / "positions" / f"{row['id']}.mbp")))
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["cached_before"] is False and result["cached_after"] is True
    assert result["compiled_here"] == 0  # every kernel the warm-up touches came from the children's cache
    assert result["value"] == row["value"]
    # the next run finds the cache warm, and loads it without compiling or writing anything again
    written = cache_files(tmp_path / "numba")
    again = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path
    )
    assert again.returncode == 0, again.stderr[-2000:]
    result = json.loads(again.stdout.strip().splitlines()[-1])
    assert result["cached_before"] is True and result["compiled_here"] == 0 and result["value"] == row["value"]
    assert cache_files(tmp_path / "numba") == written, "the second run compiled again"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the children through /proc")
def test_a_stop_ends_the_children_at_once_and_loads_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))  # the children start from nothing
    monkeypatch.setattr(compile_ahead, "kernels_cached", lambda: False)
    loaded: list[bool] = []
    monkeypatch.setattr(compile_ahead, "prepare_kernels", lambda: loaded.append(True))
    stop = threading.Event()
    before = _compiling_processes(os.getpid())
    worker = threading.Thread(target=compile_ahead.prepare_kernels_apart, args=(stop,))
    worker.start()
    deadline = time.monotonic() + 10
    while len(children := _compiling_processes(os.getpid()) - before) < len(compile_ahead.PARTS):
        assert time.monotonic() < deadline, "the compiling children never started"
        time.sleep(0.02)
    time.sleep(0.5)  # well into their imports and compiles
    stopped = time.monotonic()
    stop.set()
    worker.join(5)
    assert not worker.is_alive() and time.monotonic() - stopped < 1.0
    assert not children & _compiling_processes()
    assert loaded == []


def test_with_no_child_to_be_had_the_kernels_compile_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compile_ahead, "kernels_cached", lambda: False)
    monkeypatch.setattr(compile_ahead.sys, "executable", "/nonexistent/python")
    loaded: list[bool] = []
    monkeypatch.setattr(compile_ahead, "prepare_kernels", lambda: loaded.append(True))
    compile_ahead.prepare_kernels_apart()
    assert loaded == [True]


@contextlib.contextmanager
def _terminal_game_compiling(tmp_path: Path) -> Iterator[tuple[subprocess.Popen, set[int]]]:
    """A real ``play --vs beginner --first`` on an empty numba cache, once its compiling children
    are running: the game's process and the children's pids. The game is killed on the way out."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    game = subprocess.Popen(
        [sys.executable, "-m", "battle", "play", "--deal", "5", "--vs", "beginner", "--first"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 20
        while not (children := _compiling_processes(game.pid)):
            assert game.poll() is None and time.monotonic() < deadline, "no compile started behind the first board"
            time.sleep(0.05)
        yield game, children
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the children through /proc")
def test_a_terminal_game_quit_during_a_first_run_compile_ends_the_compile(tmp_path: Path) -> None:
    """The quit ends the compile rather than waiting for it: once the game and its children are gone,
    the search kernel is still not in the cache (a compile let run would have put it there)."""
    with _terminal_game_compiling(tmp_path) as (game, children):
        assert game.stdin is not None
        game.stdin.write(b"quit\n")
        game.stdin.close()
        assert game.wait(60) == 0, game.stderr.read() if game.stderr else ""
        deadline = time.monotonic() + 60  # an event to wait for: a child the quit missed ends with its parent
        while children & _compiling_processes():
            assert time.monotonic() < deadline, "the compile outlived the game"
            time.sleep(0.05)
    cached = subprocess.run(
        [sys.executable, "-c", "from solver.engine import kernels_cached; print(kernels_cached())"],
        env={**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(tmp_path / "numba")},
        capture_output=True,
        text=True,
        check=True,
    )
    assert cached.stdout.strip() == "False", "the game waited for the compile to end before it quit"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the children through /proc")
def test_a_killed_program_takes_its_compile_with_it(tmp_path: Path) -> None:
    with _terminal_game_compiling(tmp_path) as (game, children):
        game.kill()  # no atexit, no cleanup: only the children's own watch can end them
        game.wait()
    deadline = time.monotonic() + 60  # an event to wait for: a loaded machine takes its time
    while children & _compiling_processes():
        assert time.monotonic() < deadline, "the compile outlived the killed game"
        time.sleep(0.05)


def _priorities(pids: set[int]) -> dict[int, int]:
    found = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            found[pid] = os.getpriority(os.PRIO_PROCESS, pid)
    return found


@contextlib.contextmanager
def _window_compile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, waited_on: threading.Event) -> Iterator[set[int]]:
    """A window's compile (niceness ``WINDOW_NICENESS``) from an empty cache, until its children run:
    their pids. It is stopped on the way out."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setattr(compile_ahead, "kernels_cached", lambda: False)
    monkeypatch.setattr(compile_ahead, "prepare_kernels", lambda: None)
    stop = threading.Event()
    before = _compiling_processes(os.getpid())
    worker = threading.Thread(
        target=compile_ahead.prepare_kernels_apart, args=(stop, compile_ahead.WINDOW_NICENESS, waited_on)
    )
    worker.start()
    try:
        deadline = time.monotonic() + 60
        while len(children := _compiling_processes(os.getpid()) - before) < len(compile_ahead.PARTS):
            assert time.monotonic() < deadline, "the compiling children never started"
            time.sleep(0.02)
        yield children
    finally:
        stop.set()
        worker.join(10)


def _wait_for(check, what: str) -> None:  # noqa: ANN001
    deadline = time.monotonic() + 60
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="niceness is a Unix thing")
def test_a_waiting_player_raises_the_compile_to_the_programs_priority(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = os.getpriority(os.PRIO_PROCESS, 0)
    waited_on = threading.Event()
    with _window_compile(tmp_path, monkeypatch, waited_on) as children:
        if compile_ahead._can_raise_back():
            _wait_for(
                lambda: set(_priorities(children).values()) == {own + compile_ahead.WINDOW_NICENESS},
                "the children were never niced below the window",
            )
        waited_on.set()  # the player waits for the solver's reply
        _wait_for(lambda: set(_priorities(children).values()) <= {own}, "the children stayed below the window")


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="niceness is a Unix thing")
def test_where_the_system_would_not_raise_them_back_the_children_are_never_niced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    own = os.getpriority(os.PRIO_PROCESS, 0)
    monkeypatch.setattr(compile_ahead, "_can_raise_back", lambda: False)  # an ordinary user's RLIMIT_NICE of 0
    with _window_compile(tmp_path, monkeypatch, threading.Event()) as children:
        # each child nices itself by the last word of its command line, once its imports are done
        niceness = {Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[-2] for pid in children}
        assert niceness == {b"0"}
        assert set(_priorities(children).values()) <= {own}
