"""Every writer of the program, met through the real program: a FIFO, a device (through a link),
a folder or a name the system refuses gets one line; an existing file is replaced only after a
yes (terminal ``save``) or with ``--force`` (``survey --export``, ``--plot``)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from battle.atlas.survey_db import DealResult, SurveyDatabase
from battle.rules.board import move_name
from battle.rules.game import Game
from tests.cli.terminal_process import run

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")


def test_terminal_save_refuses_what_is_not_a_file_and_asks_before_replacing(tmp_path) -> None:
    os.mkfifo(tmp_path / "pipe.mbg")
    os.symlink(os.devnull, tmp_path / "link.mbg")
    (tmp_path / "folder.mbg").mkdir()
    (tmp_path / "mine.mbg").write_text("my own notes\n")
    long_name = "x" * 300
    game = Game.new(5)
    script = "\n".join(
        [
            move_name(game.position.legal_moves()[0]),
            f"save {long_name}",
            "save pipe.mbg",
            "save link.mbg",
            "save folder.mbg",
            "save mine.mbg",
            "no",
            "save new.mbg",
            "quit",
            "",
        ]
    )
    played = run(["play", "--deal", "5"], tmp_path, script)
    out = played.stdout
    assert played.returncode == 0, played.stderr
    assert "Traceback" not in played.stderr
    assert "File name too long" in out
    assert out.count("it is not a regular file (a FIFO, a device or a socket)") == 2
    assert "folder.mbg: it is a folder" in out
    assert "mine.mbg exists. Replace it? (yes/no) Not saved." in out
    assert out.count("Replace it?") == 1  # asked about the user's file alone
    assert "Saved to new.mbg." in out
    assert stat.S_ISFIFO(os.stat(tmp_path / "pipe.mbg").st_mode)
    assert os.readlink(tmp_path / "link.mbg") == os.devnull and stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert (tmp_path / "mine.mbg").read_text() == "my own notes\n"
    assert "The game is kept" in out


def _survey(home: Path) -> Path:
    path = home / "survey.sqlite3"
    with SurveyDatabase(path) as database:
        database.store(DealResult(5, 108, True, 4, 54, ("a1-b1",), 10, 0.5, None, "test", "here"), 1.0)
    return path


@pytest.mark.parametrize("flag", ["--export", "--plot"])
def test_survey_writes_over_a_file_only_with_force(tmp_path, flag) -> None:
    database = _survey(tmp_path)
    name = "out.tsv" if flag == "--export" else "out.png"
    (tmp_path / name).write_text("the user's own file\n")
    args = ["survey", "--db", str(database), flag, name] + (["--report"] if flag == "--plot" else [])
    refused = run(args, tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.strip() == f"mahjong-battle: {flag}: '{name}' exists already; --force replaces it"
    assert (tmp_path / name).read_text() == "the user's own file\n"
    forced = run([*args, "--force"], tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert (tmp_path / name).read_bytes() != b"the user's own file\n"
    pipe = "pipe" + Path(name).suffix
    os.mkfifo(tmp_path / pipe)
    fifo = run(["survey", "--db", str(database), flag, pipe, "--force"] + args[5:], tmp_path)
    assert fifo.returncode == 2 and "not a regular file" in fifo.stderr, fifo.stderr


def test_review_plot_needs_force_to_replace_a_file(tmp_path) -> None:
    game = Game.new(5)
    game.play(game.position.legal_moves()[0])
    (tmp_path / "game.mbg").write_text(game.to_text())
    (tmp_path / "graph.png").write_text("the user's own file\n")
    refused = run(["review", "game.mbg", "--plot", "graph.png"], tmp_path)
    assert refused.returncode == 2
    assert "'graph.png' exists already; --force replaces it" in refused.stderr
    assert (tmp_path / "graph.png").read_text() == "the user's own file\n"
