"""The command line's promise, checked on the real command in a child process: bad input
or a missing stream ends with exit code 2 and one line on stderr starting with
``mahjong-battle: ``, never a traceback; ``--time`` holds for the whole command; Ctrl-C
answers with the deepest result so far.

Streams are really closed in the child (``<&-``, ``>&-``), not redirected to the null
device, which a program cannot tell from an empty file.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from battle.rules.board import move_name
from battle.rules.deal import deal
from battle.rules.game import Game
from battle.rules.notation import format_position
from tests.online_server import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = Path(__file__).parents[1] / "data" / "positions"
SMALL = Path(__file__).parents[1] / "data" / "solver" / "n024_s500001.mbp"
PROMPT = "mahjong-battle: "
FULL_WIDTH_PORT = "\uff18\uff17\uff16\uff15"
"""8765 in full-width digits, which int() reads and a port number must not."""
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="closing a child's streams and SIGINT are POSIX")


def closing(*descriptors: int):  # noqa: ANN201 - a preexec_fn
    """A ``preexec_fn`` that closes the child's standard streams given, as a shell's ``<&-`` does."""

    def close() -> None:
        # A shell's background job starts with SIGINT ignored; the command must see Ctrl-C.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        for descriptor in descriptors:
            os.close(descriptor)

    return close


def command(
    *argv: str,
    closed: Sequence[int] = (),
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 60,
) -> subprocess.CompletedProcess[bytes]:
    """``python -m battle ARGV`` in a child process, its output as bytes."""
    return subprocess.run(
        [sys.executable, "-m", "battle", *argv],
        input=stdin,
        stdin=subprocess.DEVNULL if stdin is None and 0 not in closed else None,
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        timeout=timeout,
        preexec_fn=closing(*closed) if closed else None,
    )


def the_error_line(done: subprocess.CompletedProcess[bytes]) -> str:
    """The one error line of a command that kept the promise (exit 2, nothing on stdout)."""
    err = done.stderr.decode("utf-8")
    assert done.returncode == 2, err
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    line = err[:-1]
    assert line.startswith(PROMPT), line
    assert line.isprintable(), f"a control character in {line!r}"
    assert done.stdout == b""
    return line


# -- 1. closed streams and limits beyond reach ------------------------------------------


@POSIX
@pytest.mark.parametrize(
    "argv",
    [["show", "-"], ["moves", "-"], ["replay", "-"], ["solve", "-"], ["analyse", "-"], ["review", "-"], ["play"]],
    ids=lambda argv: " ".join(argv),
)
def test_closed_standard_input(argv: list[str], tmp_path: Path) -> None:
    line = the_error_line(command(*argv, closed=[0], env={"XDG_DATA_HOME": str(tmp_path)}))
    assert "standard input is closed" in line


@POSIX
@pytest.mark.parametrize(
    "argv", [["deal", "1"], ["show", str(POSITIONS / "deal-0.mbp")], ["solve", str(SMALL)]], ids=lambda argv: argv[0]
)
def test_closed_standard_output(argv: list[str]) -> None:
    line = the_error_line(command(*argv, closed=[1]))
    assert line == f"{PROMPT}standard output is closed: {argv[0]} has nowhere to print"


@POSIX
def test_a_full_disk_for_standard_output() -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "battle", "deal", "1"],
            stdout=full,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=60,
        )
    err = done.stderr.decode()
    assert (done.returncode, err) == (2, f"{PROMPT}cannot write to standard output: No space left on device\n")


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["solve", "--time", "1e10"], "'1e10' is too long: at most 604800 seconds (a week)"),
        (["analyse", "--time", "inf"], "'inf' must be a positive number of seconds"),
        (["review", "--time", "1e10"], "'1e10' is too long: at most 604800 seconds (a week)"),
        (
            ["solve", "--nodes", "99999999999999999999999"],
            "'99999999999999999999999' is too many: at most 4611686018427387904 (2**62)",
        ),
    ],
    ids=["solve time", "analyse time", "review time", "solve nodes"],
)
def test_limits_beyond_reach_are_refused(argv: list[str], reason: str) -> None:
    line = the_error_line(command(*argv, str(SMALL)))
    assert reason in line and f"argument {argv[1]}" in line


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["serve", "--port", "70000"], "argument --port: 70000 is not a port number (0 to 65535)"),
        (["serve", "--port", "eighty"], "argument --port: 'eighty' is not a port number"),
        (["serve", "--max-games", "0"], "argument --max-games: 0 is not 1 or more"),
        (["deal", "--fair", "--margin", "300"], "argument --margin: 300 is not 0 to 270"),
        (["puzzles", "make", "--count", "1.5"], "argument --count: '1.5' is not a whole number"),
        (["survey", "1-3", "--workers", "2000"], "argument --workers: 2000 is not 1 to 1024"),
        (["serve", "--port", FULL_WIDTH_PORT], f"argument --port: '{FULL_WIDTH_PORT}' is not a port number"),
    ],
    ids=["port range", "port word", "max games", "margin", "count", "workers", "full-width digits"],
)
def test_a_whole_number_flag_out_of_bounds_gets_one_line_naming_it(argv: list[str], reason: str) -> None:
    assert reason in the_error_line(command(*argv))


def test_a_host_name_no_resolver_can_encode_gets_one_line(tmp_path: Path) -> None:
    done = command("serve", "--host", "\u00e9\u202e", "--port", "0", "--db", str(tmp_path / "games.sqlite3"))
    assert "--host: '\u00e9\\u202e' is not an address or a host name" in the_error_line(done)


def test_a_puzzle_file_nested_too_deeply_gets_one_line(tmp_path: Path) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "\n", encoding="utf-8")
    done = command("puzzles", "play", "--file", str(deep), stdin=b"")
    assert "deep.jsonl, line 1: not a puzzle (JSON nested too deeply)" in the_error_line(done)


def test_the_engine_takes_limits_beyond_reach_as_no_limit() -> None:
    """The API does what the command line refuses: a timer cannot wait 1e10 s, nor a counter hold 10**23."""
    from battle.rules.notation import parse_position
    from solver import Engine, Limits

    position = parse_position(SMALL.read_text(encoding="utf-8"))
    engine = Engine(table_bits=16)
    for limits in (Limits(time=1e10), Limits(nodes=10**23)):
        analysis = engine.search(position, limits)
        assert analysis.exact, limits
    assert engine.search(position, Limits(deadline=time.monotonic() + 1e12)).exact


# -- 2. one error, one line -------------------------------------------------------------


@POSIX
def test_a_file_name_with_a_newline_and_an_escape_stays_on_one_line(tmp_path: Path) -> None:
    name = tmp_path / "two\nlines\x1b[31mred.mbp"
    line = the_error_line(command("show", str(name)))
    assert line == f"{PROMPT}{tmp_path}/two\\nlines\\x1b[31mred.mbp: No such file or directory"
    name.write_text("to-move: 3\n", encoding="utf-8")
    line = the_error_line(command("moves", str(name)))
    assert line.startswith(f"{PROMPT}{tmp_path}/two\\nlines\\x1b[31mred.mbp: line 1: ")


LONG = "x" * 10_000


@pytest.mark.parametrize(
    "argv",
    [
        ["deal", LONG],
        ["show", LONG],
        ["solve", "--time", LONG, "f"],
        ["solve", "--depth", "9" * 10_000, "f"],
        ["play", "--vs", LONG],
        ["play", "--deal", LONG],
        [LONG],
        ["show", "a", LONG],
    ],
    ids=["deal", "show", "solve --time", "solve --depth", "play --vs", "play --deal", "command", "extra argument"],
)
def test_a_long_bad_argument_is_quoted_short(argv: list[str], tmp_path: Path) -> None:
    line = the_error_line(command(*argv, env={"XDG_DATA_HOME": str(tmp_path)}))
    assert len(line) <= 420, len(line)
    assert "..." in line
    quoted = re.findall(r"'(?:x{20,}|9{20,})[^']*'", line)
    assert all(len(text) <= 90 for text in quoted), quoted


def test_a_long_bad_line_in_a_file_is_quoted_short(tmp_path: Path) -> None:
    text = format_position(deal(0)).splitlines()
    text[3] = " ".join(["5q"] * 3000)  # the first grid row: a tile kind that does not exist, 3000 times
    path = tmp_path / "long.mbp"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    line = the_error_line(command("show", str(path)))
    assert line.startswith(f"{PROMPT}{path}: line 4: ") and len(line) <= 420, line


# -- 3. --time counts from the command's start ------------------------------------------


def test_solve_answers_within_its_time(tmp_path: Path) -> None:
    """``solve --time 1`` on a complete deal answers with an estimate about a second after the
    same command stopped after a few nodes; without its limit the search would run for minutes.

    Both commands run in the same minute, so a loaded machine slows both alike, and the margin
    (5 s) is one a machine with both cores busy keeps; the precise figure (the answer within
    S + 50 ms of the start) is for a quiet machine: ``python benchmarks/bench_cli_time.py``.
    """
    position = tmp_path / "deal-5.mbp"
    dealt = command("deal", "5")
    position.write_bytes(dealt.stdout)
    command("solve", str(SMALL), "--quiet")  # the numba cache is warm, as the promise assumes
    started = time.monotonic()
    quick = command("solve", str(position), "--nodes", "1000", "--quiet", "--hash", "256")
    start_up = time.monotonic() - started
    started = time.monotonic()
    done = command("solve", str(position), "--time", "1", "--quiet", "--hash", "256")
    elapsed = time.monotonic() - started
    assert quick.returncode == 0 and done.returncode == 0, done.stderr
    assert b"not exact (depth " in done.stdout
    assert elapsed < start_up + 1.0 + 5.0, f"{elapsed:.2f} s against {start_up:.2f} s to start and stop"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the process's start is read from /proc on Linux")
def test_time_counts_from_the_process_start_not_from_the_import(tmp_path: Path) -> None:
    """A process that spent 1.5 s before the command loaded (``exec`` keeps the process, and so its
    start time): with ``--time 1`` nothing is left for the search, which answers at once from two
    moves and says why. A clock started at the import would give the search its whole second.
    No clock is read here: the 1.5 s are the sleep's, before the command even started."""
    position = tmp_path / "deal-5.mbp"
    position.write_text(format_position(deal(5)), encoding="utf-8")
    command = [sys.executable, "-m", "battle", "solve", str(position), "--time", "1"]
    late = f"import os, sys, time; time.sleep(1.5); os.execv(sys.executable, {command!r})"
    done = subprocess.run(
        [sys.executable, "-c", late],
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, err
    said = re.search(r"the start-up took ([\d.]+) s of --time 1: the answer comes from a two-move search", err)
    assert said is not None, err
    assert float(said.group(1)) >= 1.5
    assert "not exact (depth 2;" in out and " depth 1 " not in err  # no iteration ran


def test_the_help_says_what_time_counts() -> None:
    for name in ("solve", "analyse"):
        done = command(name, "--help")
        assert done.returncode == 0
        text = " ".join(done.stdout.decode().split())
        assert "seconds after the command started" in text and "one-time compile (10-20 s) comes on top" in text


# -- 4. Ctrl-C during an exact solve ----------------------------------------------------


@POSIX
@POSIX
def test_ctrl_c_at_the_prompt_of_a_game_keeps_it_and_exits_130(tmp_path: Path) -> None:
    """docs/command-line.md promises 130 after Ctrl-C; a game left that way is kept, as after ``quit``."""
    child = subprocess.Popen(
        [sys.executable, "-m", "battle", "play", "--vs", "beginner", "--first", "--deal", "3"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data")},
        preexec_fn=closing(),
    )
    try:
        assert child.stdout is not None and child.stdin is not None

        def read_to_prompt() -> None:
            seen = b""
            while not seen.endswith(b"to move> "):  # the prompt ends no line: read it byte by byte
                byte = child.stdout.read(1)
                assert byte, f"the game ended before its prompt: {seen[-500:]!r}"
                seen += byte

        read_to_prompt()
        child.stdin.write(move_name(deal(3).legal_moves()[0]).encode() + b"\n")  # a move, so there is a game
        child.stdin.flush()
        read_to_prompt()  # after the solver's reply
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err.decode()[-1000:]
    assert b"Traceback" not in err
    assert list((tmp_path / "data" / "mahjong-battle" / "unfinished").glob("*.mbg"))  # the game is kept


def test_ctrl_c_during_an_exact_solve_answers_from_a_deep_search(tmp_path: Path) -> None:
    position = tmp_path / "deal-5.mbp"
    position.write_text(format_position(deal(5)), encoding="utf-8")
    child = subprocess.Popen(
        [sys.executable, "-m", "battle", "solve", str(position), "--hash", "256"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=closing(),
    )
    try:
        assert child.stderr is not None
        progress = b""
        while b"depth 16 " not in progress:  # the search deepens first, then goes for the exact value
            line = child.stderr.readline()
            assert line, "the solve ended before reaching depth 16"
            progress += line
        time.sleep(1.0)  # into the exact search, which on a complete deal takes minutes
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
    text, err_text = out.decode(), err.decode()
    assert child.returncode == 130, err_text
    assert "Traceback" not in err_text and "interrupted: stopping with the best result so far" in err_text
    depth = re.search(r"not exact \(depth (\d+); Ctrl-C stopped the search\)", text)
    assert depth is not None, text
    assert int(depth.group(1)) >= 16
    assert "best line: " in text and "an estimate, not the final score" in text


@POSIX
@pytest.mark.parametrize(("stop", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 0)], ids=["ctrl-c", "sigterm"])
def test_serve_stopped_by_ctrl_c_exits_130_and_by_sigterm_0(tmp_path: Path, stop: signal.Signals, code: int) -> None:
    """Ctrl-C ends ``serve`` as it ends every command (130); SIGTERM is a service manager's stop
    (``systemctl stop``), a clean end (0). Either way the server says every game is kept."""
    server = ServerProcess(tmp_path).start()
    try:
        assert server.process is not None and server.process.stdout is not None
        server.signal(stop)
        said = server.process.stdout.read()
    finally:
        server.kill()
    assert server.process.returncode == code, server.log.read_text()
    assert "Server stopped; every game is kept." in said
    assert "Traceback" not in server.log.read_text()


# -- 5. --version, play's options, moves of a finished game -----------------------------


def test_version() -> None:
    done = command("--version")
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.decode() == f"mahjong-battle {importlib.metadata.version('mahjong-battle')}\n"


def test_play_help_lists_the_levels() -> None:
    from solver.levels import LEVELS

    done = command("play", "--help")
    assert done.returncode == 0
    levels = done.stdout.decode().split("levels for --vs")[1].split("\n\n")[0]  # then a game's commands
    listed = [line.split()[0] for line in levels.splitlines()[1:] if line]
    assert listed == list(LEVELS)


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["--first"], "--first goes with --vs LEVEL"),
        (["--vs", "club", "--player2", "Ann"], "with --vs, --player1 is your name on either side"),
    ],
    ids=["first without vs", "player2 with vs"],
)
def test_play_options_that_do_not_go_together(argv: list[str], reason: str, tmp_path: Path) -> None:
    line = the_error_line(command("play", "--deal", "5", *argv, env={"XDG_DATA_HOME": str(tmp_path)}))
    assert reason in line


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["--hint-seconds", "0"], "--hint-seconds: 0 is not a number above 0 (and at most 600)"),
        (["--hint-seconds", "601"], "--hint-seconds: 601 is not a number above 0 (and at most 600)"),
        (["--hint-seconds", "soon"], "--hint-seconds: 'soon' is not a number"),
        (["--online", "ws://127.0.0.1:9", "--hint-seconds", "2"], "an online game has no hint or eval"),
    ],
    ids=["zero", "past ten minutes", "a word", "online"],
)
def test_a_hint_time_out_of_bounds_gets_one_line(argv: list[str], reason: str, tmp_path: Path) -> None:
    line = the_error_line(command("play", *argv, env={"XDG_DATA_HOME": str(tmp_path)}))
    assert reason in line


def test_a_short_hint_time_answers_a_full_board_with_an_estimate(tmp_path: Path) -> None:
    game = ["play", "--deal", "5", "--hint-seconds", "0.1"]
    done = command(*game, stdin=b"hint\neval\nquit\n", env={"XDG_DATA_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert "Hint: " in out and out.count("an estimate: a ") == 2, out  # the hint's margin and eval's
    assert "* best." in out, out


def test_with_vs_player1_names_you_on_the_second_side_too(tmp_path: Path) -> None:
    done = command(
        "play",
        "--deal",
        "5",
        "--vs",
        "beginner",
        "--player1",
        "Ann",
        stdin=b"quit\n",
        env={"XDG_DATA_HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    assert "Mahjong Battle: Solver (beginner) vs Ann, deal 5." in done.stdout.decode()


def test_moves_of_a_finished_game_says_so(tmp_path: Path) -> None:
    game = Game.new(4, "Alice", "Bob")
    while not game.is_over():
        game.play(game.position.legal_moves()[0])
    record = tmp_path / "over.mbg"
    record.write_text(game.to_text(), encoding="utf-8")
    for path in (record, POSITIONS / "over-with-tiles-left.mbp"):
        done = command("moves", str(path))
        assert (done.returncode, done.stdout, done.stderr) == (0, b"no pair left: the game is over\n", b"")
