"""Every line the command line prints is true, checked on the real program where a user meets it:
a data folder on a read-only file system, a save that fails and a later one that works, a survey
file with a damaged page and one surveyed from 60 tiles, the online quit hint, ``play --help``, and
a ``DISPLAY`` nobody answers at."""

from __future__ import annotations

import os
import resource
import shutil
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from battle.atlas.survey_db import DealResult, SurveyDatabase
from battle.rules.board import move_name
from battle.rules.deal import deal
from tests.cli.terminal_process import WAIT, TerminalProcess, home_env, run
from tests.online_server import ServerProcess

LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mount namespaces and prlimit are Linux's")


def first_moves(count: int) -> list[str]:
    """The first ``count`` moves of deal 3, each the first legal one."""
    position, moves = deal(3), []
    for _ in range(count):
        move = position.legal_moves()[0]
        moves.append(move_name(move))
        position.push(move)
    return moves


# -- the data folder on a read-only file system ----------------------------------------------------


def read_only_mounts() -> bool:
    """Whether this process may make a private mount namespace (root, with ``unshare``)."""
    if shutil.which("unshare") is None or os.geteuid() != 0:
        return False
    return subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0


@LINUX
def test_a_game_on_a_read_only_file_system_is_resumed_and_said_not_saved(tmp_path: Path) -> None:
    if not read_only_mounts():
        pytest.skip("needs root and unshare to mount a folder read-only in a namespace of its own")
    kept = run(["play", "--deal", "3"], tmp_path, "\n".join([*first_moves(1), "quit"]) + "\n")
    assert "The game is kept in the list of unfinished games" in kept.stdout, kept.stdout[-600:]
    data = tmp_path / "data"
    # the data folder mounted read-only in a mount namespace of the child's own: nothing leaks out
    script = (
        f"mount --bind {data} {data} && mount -o remount,bind,ro {data} && "
        f"exec {sys.executable} -m battle play --resume"
    )
    done = subprocess.run(
        ["unshare", "-m", "sh", "-c", script],
        input="\n".join([first_moves(2)[1], "quit"]) + "\n",
        capture_output=True,
        text=True,
        env=home_env(tmp_path),
        cwd=tmp_path,
        timeout=WAIT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr.splitlines() == [
        f"mahjong-battle: {data / 'mahjong-battle'} cannot be used: Read-only file system"
    ]
    assert "Permission denied" not in done.stdout and "no unfinished game" not in done.stdout + done.stderr
    assert "Not saved: " in done.stdout and "deal 3" in done.stdout  # resumed, and told it is not saved
    assert "The last moves are not kept: " in done.stdout and "as it was before them" in done.stdout
    assert len(list((data / "mahjong-battle" / "unfinished").glob("*.mbg"))) == 1


# -- a save that fails, then one that works ---------------------------------------------------------


def no_file_may_grow() -> None:  # a preexec_fn
    """Writes to files fail (EFBIG) until the limit is lifted from outside: a full disk, for this process."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))


@LINUX
def test_what_quit_says_is_kept_follows_the_saves_that_failed_and_worked(tmp_path: Path) -> None:
    """A save that fails (no file may grow: a full disk, for this process) and one that works after
    it: ``quit`` says what the list of unfinished games holds, the game as played or as it was."""
    one, two = first_moves(2)
    unlimited = (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
    env = dict(home_env(tmp_path / "first"), PYTHONDONTWRITEBYTECODE="1")
    # the disk is full at the start (the game's claim cannot be written), then has room again
    with TerminalProcess(["play", "--deal", "3"], tmp_path, env=env, preexec_fn=no_file_may_grow) as game:
        mark = game.wait_for("Player 1 to move> ")
        assert "Not saved: " in game.seen and "File too large" in game.seen, game.seen[-600:]
        resource.prlimit(game.process.pid, resource.RLIMIT_FSIZE, unlimited)
        game.type(one)
        mark = game.wait_for("(the game is saved again)", after=mark)
        game.type("quit")
        game.wait_for("The game is kept in the list of unfinished games", after=mark)
        assert game.finish()[0] == 0
    assert "not kept" not in game.seen[mark:]
    # the disk fills after a good save
    env = dict(home_env(tmp_path / "second"), PYTHONDONTWRITEBYTECODE="1")
    with TerminalProcess(["play", "--deal", "3"], tmp_path, env=env) as game:
        game.type(one)
        mark = game.wait_for("Player 2 to move> ")
        resource.prlimit(game.process.pid, resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
        game.type(two)
        mark = game.wait_for("(the game could not be saved: File too large", after=mark)
        game.type("quit")
        game.wait_for("The last moves are not kept: File too large. The list of unfinished games", after=mark)
        assert game.finish()[0] == 0
    [record] = (tmp_path / "second" / "data" / "mahjong-battle" / "unfinished").glob("*.mbg")
    assert one in record.read_text() and two not in record.read_text()  # as it was before the move not kept


# -- a survey's file with hidden damage, and one surveyed from 60 tiles ---------------------------------


def survey_file(path: Path, tiles: int, deals: range) -> Path:
    with SurveyDatabase(path) as database:
        for number in deals:
            database.store(DealResult(number, tiles, True, number % 7 - 3, 40, None, 1000, 1.5, None, "t", "w"), 1.0)
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def test_a_survey_file_whose_table_page_reads_empty_is_said_damaged(tmp_path: Path) -> None:
    """The table's first page overwritten with an empty one: every read succeeds and finds no row,
    and only SQLite's check of the whole file sees the pages nobody accounts for."""
    path = survey_file(tmp_path / "survey.sqlite3", 108, range(1, 200))
    with sqlite3.connect(path) as connection:
        root = connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'results'").fetchone()[0]
        page_size = connection.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    data[(root - 1) * page_size : root * page_size] = bytes([13, 0, 0, 0, 0, page_size >> 8, 0, 0]) + bytes(
        page_size - 8
    )
    path.write_bytes(bytes(data))
    said = (
        f"mahjong-battle: {path} is damaged (SQLite's check of the file fails): deals on its damaged pages are missing"
    )
    report = run(["survey", "--report", "--db", str(path)], tmp_path)
    assert (report.returncode, report.stderr.splitlines()) == (1, [said]), report.stderr
    export = run(["survey", "--export", "out.tsv", "--db", str(path)], tmp_path)
    assert (export.returncode, export.stderr.splitlines()) == (
        2,
        [f"{said.replace(': ', ': --export: ', 1)}; nothing is written"],
    )
    assert export.stdout == "" and not (tmp_path / "out.tsv").exists()
    assert path.read_bytes() == bytes(data)  # read only


def test_an_export_of_a_survey_from_60_tiles_says_why_it_writes_nothing(tmp_path: Path) -> None:
    path = survey_file(tmp_path / "survey.sqlite3", 60, range(1, 21))
    export = run(["survey", "--export", "out.tsv", "--db", str(path)], tmp_path)
    assert export.returncode == 2 and export.stdout == "" and not (tmp_path / "out.tsv").exists()
    assert export.stderr.splitlines() == [
        f"mahjong-battle: --export: nothing is written: the catalogue holds deals solved from all 108 tiles, and "
        f"{path} holds 20 deals surveyed from 60 tiles ('survey --report --tiles 60' reports them)"
    ]


# -- the online quit hint, play --help, a dead DISPLAY ----------------------------------------------


def test_the_online_quit_hint_names_the_server(tmp_path: Path) -> None:
    with (
        ServerProcess(tmp_path / "server") as server,
        TerminalProcess(["play", "--online", server.url], tmp_path) as host,
    ):
        host.wait_for("Invite code")
        host.type("help")
        mark = host.wait_for(f"('mahjong-battle play --online {server.url} --resume')")
        host.type("quit")
        host.wait_for(f"The game waits on the server: 'mahjong-battle play --online {server.url} --resume'", after=mark)
        assert host.finish()[0] == 0
    assert "--online URL" not in host.seen


def test_play_help_lists_the_commands_of_a_game(tmp_path: Path) -> None:
    for language, words in (
        ("en", ["In a game, type:", "  hint ", "  undo, redo ", "  discard "]),
        ("de", ["  hint "]),
    ):
        done = run(["--lang", language, "play", "--help"], tmp_path)
        assert done.returncode == 0, done.stderr
        commands = done.stdout[done.stdout.index("beginner") :]
        assert all(word in commands for word in words), (language, commands)


@LINUX
def test_a_display_nobody_answers_at_gets_the_games_line_alone(tmp_path: Path) -> None:
    """Without ``XDG_RUNTIME_DIR`` (a login over SSH, say), SDL's try of Wayland after X11 prints a
    line of its library's own; the game asks the X server first and says it in its one line."""
    unused = next(number for number in range(90, 200) if not Path(f"/tmp/.X11-unix/X{number}").exists())
    env = {key: value for key, value in home_env(tmp_path).items() if key not in ("XDG_RUNTIME_DIR", "WAYLAND_DISPLAY")}
    env.pop("SDL_VIDEODRIVER", None)
    done = subprocess.run(
        [sys.executable, "-m", "battle"],
        env=dict(env, DISPLAY=f":{unused}"),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f"mahjong-battle: no display answers at DISPLAY=':{unused}', so the window cannot open: type "
        "'mahjong-battle play' to play in this terminal, or 'mahjong-battle serve' to host games for a browser"
    ]


def test_an_x_display_answers_where_something_listens() -> None:
    from battle.cli.x_display import x_server_answers

    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        if port <= 6000:
            pytest.skip(f"the free port {port} is below X's 6000")
        listener.listen()
        assert x_server_answers(f"127.0.0.1:{port - 6000}") is True
        assert x_server_answers(f"127.0.0.1:{port - 6000}.0") is True
    assert x_server_answers(f"127.0.0.1:{port - 6000}") is False
    assert x_server_answers("127.0.0.1:99999") is False
    assert x_server_answers("/private/tmp/com.apple.launchd.x/org.xquartz:0") is None
    assert x_server_answers("nonsense") is None
