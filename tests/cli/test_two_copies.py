"""Two copies of the program on one unfinished game, as two terminals (and a kill) meet it: the
second is refused in one line naming the first, and no confirmed move is lost."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from battle.rules.board import move_name
from battle.rules.game import Game
from tests.cli.terminal_process import TerminalProcess, run

PROMPT = "to move> "


def unfinished_game(home: Path) -> Game:
    """A hot-seat game of deal 5 with one move, left unfinished by the real program."""
    game = Game.new(5)
    first = game.position.legal_moves()[0]
    made = run(["play", "--deal", "5"], home, f"{move_name(first)}\nquit\n")
    assert made.returncode == 0, made.stderr
    game.play(first)
    return game


def records(home: Path) -> list[Game]:
    folder = home / "data" / "mahjong-battle" / "unfinished"
    return [Game.from_text(path.read_text()) for path in sorted(folder.glob("*.mbg"))]


def play_moves(player: TerminalProcess, game: Game, count: int, at: int) -> int:
    for _ in range(count):
        move = game.position.legal_moves()[0]
        player.type(move_name(move))
        game.play(move)
        at = player.wait_for(PROMPT, player.wait_for(" plays ", at))
    return at


def test_a_second_terminal_is_refused_the_game_the_first_plays_and_no_move_is_lost(tmp_path) -> None:
    game = unfinished_game(tmp_path)
    first = TerminalProcess(["play", "--resume"], tmp_path)
    at = play_moves(first, game, 2, first.wait_for(PROMPT))  # two moves, both confirmed on screen
    second = run(["play", "--resume"], tmp_path, "quit\n")
    assert second.returncode == 2
    line = f"this game is open in another copy of Mahjong Battle (pid {first.process.pid})"
    assert line in second.stderr and len(second.stderr.strip().splitlines()) == 1, second.stderr
    assert "to move>" not in second.stdout
    first.type("quit")
    first.wait_for("The game is kept", at)
    assert first.finish()[0] == 0
    [kept] = records(tmp_path)
    assert kept.moves == game.moves and kept.ply == 3
    # with the first copy gone, the game opens again, with every move
    third = run(["play", "--resume"], tmp_path, "quit\n")
    assert third.returncode == 0, third.stderr
    assert "The game is kept" in third.stdout


def test_a_game_whose_copy_was_killed_opens_at_once(tmp_path) -> None:
    game = unfinished_game(tmp_path)
    first = TerminalProcess(["play", "--resume"], tmp_path)
    play_moves(first, game, 1, first.wait_for(PROMPT))
    os.kill(first.process.pid, signal.SIGKILL)
    first.process.wait(60)
    second = TerminalProcess(["play", "--resume"], tmp_path)
    at = play_moves(second, game, 1, second.wait_for(PROMPT))
    second.type("quit")
    second.wait_for("The game is kept", at)
    assert second.finish()[0] == 0
    assert [kept.moves for kept in records(tmp_path)] == [game.moves]
    assert not list((tmp_path / "data" / "mahjong-battle" / "unfinished").glob("*.lock"))  # nothing left behind


def test_plain_resume_lists_the_free_games_when_the_newest_is_open_elsewhere(tmp_path) -> None:
    older = unfinished_game(tmp_path)
    newer = TerminalProcess(["play", "--deal", "9"], tmp_path)
    play_moves(newer, Game.new(9), 1, newer.wait_for(PROMPT))  # the newest game, open in this copy
    listed = run(["play", "--resume"], tmp_path, "quit\n")
    assert listed.returncode == 2, listed.stdout
    assert f"(pid {newer.process.pid})" in listed.stderr
    assert "1. deal 9" in listed.stdout and "(open in another copy, pid" in listed.stdout
    assert "2. deal 5" in listed.stdout
    picked = run(["play", "--resume", "2"], tmp_path, "quit\n")
    assert picked.returncode == 0, picked.stderr
    assert "deal 5" in picked.stdout and older.ply == 1
    newer.type("quit")
    assert newer.finish()[0] == 0
    # a lock file no copy holds (a window closed, a copy killed) goes at the next listing
    stale = tmp_path / "data" / "mahjong-battle" / "unfinished" / "20200101-000000-abcdef.lock"
    stale.write_text(" 999999\n")
    assert run(["play", "--resume", "1"], tmp_path, "quit\n").returncode == 0
    assert not stale.exists()
