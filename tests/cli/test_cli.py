"""The command line and terminal play, run in-process (plus one real pipe between two processes).

Bad input must end with exit code 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from battle.cli import main
from battle.cli.command_line import _Parser
from battle.cli.terminal import TerminalPlay
from battle.rules.board import COLUMN_LETTERS, move_name
from battle.rules.deal import deal
from battle.rules.game import Game
from battle.rules.notation import format_position, parse_position, parse_record
from battle.storage.saved_games import Shelf
from tests.game_cases import opening_moves

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parents[1] / "data" / "positions"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def set_stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """Standard input as both text (for input()) and bytes (for '-' files)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


def finished_game(number: int) -> Game:
    game = Game.new(number, "Alice", "Bob")
    while not game.is_over():
        game.play(game.position.legal_moves()[0])
    return game


# -- deal, moves, show, replay ------------------------------------------------------------


@pytest.mark.parametrize("number", ["0", "1", "123456789", "9223372036854775807"])
def test_deal_prints_the_numbered_deal(capsys: pytest.CaptureFixture[str], number: str) -> None:
    code, out, err = run(capsys, "deal", number)
    assert (code, err) == (0, "")
    assert out.startswith(f"# deal {number}\n")
    assert parse_position(out) == deal(int(number))


def test_deal_without_a_number_prints_some_deal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal")
    assert code == 0
    number = int(out.splitlines()[0].removeprefix("# deal "))
    assert parse_position(out) == deal(number)


def test_moves_from_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    position = deal(1)
    set_stdin(monkeypatch, format_position(position))
    code, out, err = run(capsys, "moves", "-")
    assert (code, err) == (0, "")
    expected = [f"{move_name(move)} ({position.move_points(move)})" for move in position.legal_moves()]
    assert out.splitlines() == expected
    assert out.splitlines()[0] == "a1-i9 (9)"  # deal 1: 9m on a1 and i9, the first in board order


def test_moves_of_a_record_are_the_moves_of_its_final_position(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = Game.new(2)
    for _ in range(5):
        game.play(game.position.legal_moves()[0])
    path = tmp_path / "g.mbg"
    path.write_text(game.to_text(), encoding="utf-8")
    code, out, _ = run(capsys, "moves", str(path))
    assert code == 0
    assert out.splitlines() == [
        f"{move_name(move)} ({game.position.move_points(move)})" for move in game.position.legal_moves()
    ]


def test_moves_of_a_finished_position_says_the_game_is_over(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "moves", str(DATA / "over-with-tiles-left.mbp")) == (0, "no pair left: the game is over\n", "")


def test_show_draws_the_grid_with_column_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", str(DATA / "lone-tiles.mbp"))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == list(COLUMN_LETTERS)
    assert [line.split()[0] for line in lines[1:10]] == [str(row) for row in range(1, 10)]
    assert lines[1].split() == ["1", "[1m]"] + ["."] * 11
    assert "(7s)" in lines[4] and "(8m)" in lines[7]  # free, but no twin
    assert lines[10].split() == ["1", "1", "1", "0", "1", "0", "1", "0", "1", "0", "0", "1", "tiles", "per", "column"]
    assert "Player 2 to move" in lines[11] and "4 pairs playable" in lines[11]
    assert "7 tiles" in lines[11]


def test_show_of_a_deal_marks_free_and_blocked_tiles(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "d.mbp"
    path.write_text(format_position(deal(1)), encoding="utf-8")
    code, out, _ = run(capsys, "show", str(path))
    assert code == 0
    lines = out.splitlines()
    assert lines[1].split()[1] == "[9m]" and lines[2].split()[1] == "4p"  # a1 playable, a2 blocked
    assert lines[10].split()[:12] == ["9"] * 12
    assert "108 tiles, 270 points on the board" in lines[11]


def test_replay_prints_the_final_position_and_result(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = finished_game(4)
    result = game.result()
    assert result is not None
    path = tmp_path / "g.mbg"
    path.write_text(game.to_text(), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"# Alice vs Bob, from deal 4, {game.ply} moves"
    assert lines[1] == f"# result: {result.scores[0]}-{result.scores[1]}, {result.describe(game.names)}"
    assert parse_position(out) == game.position


def test_replay_of_an_unfinished_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game.new(4, "Alice", "Bob")
    game.play(game.position.legal_moves()[0])
    set_stdin(monkeypatch, game.to_text())
    code, out, _ = run(capsys, "replay", "-")
    assert code == 0
    assert out.splitlines()[:2] == ["# Alice vs Bob, from deal 4, 1 move", "# not finished: Bob to move"]
    assert parse_position(out) == game.position


def test_a_real_pipe_between_two_processes() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "battle"]
    dealt = subprocess.run([*command, "deal", "1"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert dealt.returncode == 0, dealt.stderr
    listed = subprocess.run(
        [*command, "moves", "-"], input=dealt.stdout, capture_output=True, text=True, env=env, cwd=ROOT, timeout=60
    )
    assert listed.returncode == 0, listed.stderr
    position = deal(1)
    assert listed.stdout.splitlines() == [
        f"{move_name(move)} ({position.move_points(move)})" for move in position.legal_moves()
    ]


# -- bad input: exit code 2, one line on stderr ------------------------------------------


def bad_input(tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    """argv and the exact message for each kind of bad input."""
    not_utf8 = tmp_path / "latin1.mbp"
    not_utf8.write_bytes(
        format_position(deal(0)).replace("score: 0 0", "# Spielstand für Jörg\nscore: 0 0").encode("latin-1")
    )
    malformed = tmp_path / "gap.mbp"
    malformed.write_text(format_position(deal(0)).replace("5p 1p 5p", "5p .. 5p", 1), encoding="utf-8")
    illegal = tmp_path / "illegal.mbg"
    illegal.write_text("player1: A\nplayer2: B\ndeal: 0\n1. a5-b5\n", encoding="utf-8")
    missing = tmp_path / "missing.mbp"
    return {
        "missing file": (["show", str(missing)], f"{missing}: No such file or directory"),
        "not UTF-8": (["moves", str(not_utf8)], f"{not_utf8}: not UTF-8 text (byte 25)"),
        "malformed position": (
            ["show", str(malformed)],
            f"{malformed}: line 6: column b has a gap between b2 and b4",
        ),
        "bad deal number": (
            ["deal", "abc"],
            "'abc' is not a deal number (expected a whole number from 0 to 9223372036854775807)",
        ),
        "huge deal number": (
            ["deal", "9" * 5000],
            f"{'9' * 27 + '...'!r} is not a deal number (expected a whole number from 0 to 9223372036854775807)",
        ),
        "illegal move in a record": (
            ["replay", str(illegal)],
            f"{illegal}: line 4: move 1: a5-b5: a5 is not free "
            "(only the top-most and bottom-most tile of a column are)",
        ),
        "position given to replay": (
            ["replay", str(DATA / "deal-0.mbp")],
            f"{DATA / 'deal-0.mbp'}: missing 'deal:' or 'layout:' line: the record must say where the game started",
        ),
        "bad deal for play": (
            ["play", "--deal", "-3"],
            "'-3' is not a deal number (expected a whole number from 0 to 9223372036854775807)",
        ),
        "unknown level for play": (
            ["play", "--vs", "godlike"],
            "--vs: unknown level 'godlike' (choose one of: beginner, casual, club, expert, master, perfect)",
        ),
    }


@pytest.mark.parametrize(
    "case",
    [
        "missing file",
        "not UTF-8",
        "malformed position",
        "bad deal number",
        "huge deal number",
        "illegal move in a record",
        "position given to replay",
        "bad deal for play",
        "unknown level for play",
    ],
)
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str) -> None:
    argv, message = bad_input(tmp_path)[case]
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err == f"mahjong-battle: {message}\n"
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--bogus"], "unrecognized arguments: '--bogus' (see mahjong-battle --help)"),
        (["stats", "--bogus"], "stats: unrecognized arguments: '--bogus' (see mahjong-battle stats --help)"),
        (
            ["puzzles", "play", "--bogus", "x"],
            "puzzles play: unrecognized arguments: '--bogus' 'x' (see mahjong-battle puzzles play --help)",
        ),
        (["solve", "a", "b", "c"], "solve: unrecognized arguments: 'b' 'c' (see mahjong-battle solve --help)"),
        (["show", "--bogus"], "show: unrecognized arguments: '--bogus' (see mahjong-battle show --help)"),
        (
            ["--lang", "en", "solve", "--thr", "2", "--bogus=3", "-5", "-x"],
            "solve: unrecognized arguments: '--bogus=3' '-x' (see mahjong-battle solve --help)",
        ),
        (
            ["solve", "--thr", "2"],
            "solve: the following arguments are required: file (see mahjong-battle solve --help)",
        ),
    ],
    ids=[
        "no command",
        "command",
        "nested command",
        "extra files",
        "a flag before a missing file",
        "flags the program and the command know, a number, two unknown",
        "a flag's abbreviation is no unknown flag",
    ],
)
def test_an_unknown_argument_points_to_the_help_of_its_command(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    """The help to read is the one of the command the argument came with, where its flags are listed."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert capsys.readouterr() == ("", f"mahjong-battle: {said}\n")


def test_the_package_function_main_stays_a_function_after_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    """``battle.cli.main`` runs a command line each time it is called: loading the commands' module
    (which a call does) leaves the package's function in its place."""
    import battle.cli

    for _ in range(2):
        assert battle.cli.main(["deal", "1"]) == 0
        assert capsys.readouterr().out.startswith("# deal 1\n")


def test_a_flag_of_a_command_between_is_no_unknown_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """A missing file is told as missing when every flag given belongs to the program, the command or a
    command between them (``--set`` of ``puzzles`` in ``puzzles --set x play``), and an unknown flag is
    named instead of it."""
    root = _Parser(prog="mahjong-battle")
    root.add_argument("--lang")
    middle = root.add_subparsers(dest="command").add_parser("puzzles")
    middle.add_argument("--set")
    middle.add_subparsers(dest="action").add_parser("play").add_argument("file")
    for argv, said in (
        (["--lang", "en", "puzzles", "--set", "x", "play"], "the following arguments are required: file"),
        (["puzzles", "--set", "x", "play", "--bogus"], "unrecognized arguments: '--bogus'"),
    ):
        with pytest.raises(SystemExit) as stopped:
            root.parse_args(argv)
        assert stopped.value.code == 2
        expected = f"mahjong-battle: puzzles play: {said} (see mahjong-battle puzzles play --help)\n"
        assert capsys.readouterr() == ("", expected)


def test_bad_standard_input_is_named_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    set_stdin(monkeypatch, "to-move: 1\nscore: 0 0\n")
    code, _, err = run(capsys, "moves", "-")
    assert code == 2
    assert err == "mahjong-battle: <stdin>: line 2: expected 9 grid rows, got 0\n"


# -- terminal play -----------------------------------------------------------------------


def scripted(lines: list[str], play_moves: Callable[[], str]) -> Callable[[str], str]:
    """A read_line that answers with the given lines, then with play_moves() until the game ends."""
    pending = list(lines)
    calls = []

    def read_line(prompt: str) -> str:
        calls.append(prompt)
        assert len(calls) < 500, "the game does not end"
        return pending.pop(0) if pending else play_moves()

    return read_line


def test_terminal_play_to_the_end(tmp_path: Path) -> None:
    game = Game.new(5, "Ann", "Ben")
    first = game.position.legal_moves()[0]
    a, b = move_name(first).split("-")
    saved = tmp_path / "middle.mbg"
    out = io.StringIO()

    shelf = Shelf(tmp_path / "data")

    def next_move() -> str:
        if play.game.is_over():
            return ""  # leave at the end's "save FILE, review, or Enter" prompt
        # saved after every move, so a crash at this prompt loses nothing
        record = shelf.record_path(play.saved.game_id)
        assert Game.from_text(record.read_text(encoding="utf-8")).moves == play.game.moves
        moves = play.game.position.legal_moves()
        move = moves[play.game.ply * 5 % len(moves)]
        x, y = move_name(move).split("-")
        return f"{y} {x}" if play.game.ply % 2 else f"{x}-{y}"  # both notations, both orders

    lines = [
        "e5-k9",
        "hello",
        "",
        "moves",
        "undo",
        "redo",
        f"{b} {a}",
        "undo",
        "redo",
        "board",
        "help",
        f"save {saved}",
    ]
    play = TerminalPlay(game, read_line=scripted(lines, next_move), out=out, shelf=shelf)
    assert play.run() == 0
    text = out.getvalue()
    assert "Mahjong Battle: Ann vs Ben, deal 5." in text
    assert "Not a legal move: e5-k9: e5 is not free" in text
    assert "Not a legal move: 'hello' is not a move (expected two cells, e.g. c1-c9)." in text
    assert "Nothing to undo." in text and "Nothing to redo." in text
    assert f"Took back {move_name(first)}." in text and f"Replayed {move_name(first)}." in text
    assert f"{move_name(first)}: a pair of " in text
    assert "Commands:" in text
    assert f"Saved to {saved}." in text
    assert game.is_over()
    result = game.result()
    assert result is not None
    kept = shelf.finished_path(play.saved.game_id)
    # deal 5's par (+4 for the first player, shipped) and each player's result against it, then the record
    assert f"Game over: {result.describe(game.names)}.\nPar: +4 for Ann under perfect play.\n  Ann: " in text
    assert f"\nThe record is kept in {kept}." in text
    assert not shelf.record_path(play.saved.game_id).exists()  # off the unfinished list
    assert parse_record(saved.read_text(encoding="utf-8")).moves == [first]
    autosaved = Game.from_text(kept.read_text(encoding="utf-8"))
    assert autosaved.position.key() == game.position.key()
    assert autosaved.moves == game.moves and autosaved.moves[0] == first
    assert autosaved.names == ("Ann", "Ben")


def test_terminal_save_without_a_file_name_and_to_a_bad_place(tmp_path: Path) -> None:
    out = io.StringIO()
    lines = ["save", f"save {tmp_path / 'no-such-dir' / 'g.mbg'}", "quit"]
    play = TerminalPlay(Game.new(8), read_line=scripted(lines, lambda: "quit"), out=out)
    assert play.run() == 0
    text = out.getvalue()
    assert "Usage: save FILE" in text
    assert "Could not save to" in text and "No such file or directory" in text


def test_terminal_save_to_a_folder_or_over_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken.mbg").write_text("keep me\n")
    out = io.StringIO()
    lines = [
        "save .",
        "save /",
        f"save {tmp_path}/",
        "save taken",
        "no",
        "save taken.mbg",
        "yes",
        "save bad\x1b[31mname\x00",
        "quit",
    ]
    play = TerminalPlay(Game.new(8), read_line=scripted(lines, lambda: "quit"), out=out)
    assert play.run() == 0
    text = out.getvalue()
    assert "Could not save to .: it is a folder; give a file name, e.g. save ./game.mbg" in text
    assert "Could not save to /: it is a folder" in text
    assert "Not saved." in text and "Saved to taken.mbg." in text
    assert Game.from_text((tmp_path / "taken.mbg").read_text()).deal_number == 8
    assert "\x1b" not in text and "bad\\x1b[31mname\\x00" in text  # one printable line, not a colour change


def unfinished_games(tmp_path: Path) -> list:
    return Shelf(tmp_path / "mahjong-battle").unfinished()[0]


def test_quit_keeps_the_game_for_resume(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    first, second = opening_moves(5, 2)
    set_stdin(monkeypatch, f"{first}\n{second}\nquit\n")
    code, out, _ = run(capsys, "play", "--deal", "5", "--player1", "Ann")
    assert code == 0
    assert "kept in the list of unfinished games; continue with 'mahjong-battle play --resume'." in out
    [saved] = unfinished_games(tmp_path)
    game = saved.game
    assert (game.deal_number, [move_name(move) for move in game.moves], game.player1) == (5, [first, second], "Ann")

    set_stdin(monkeypatch, "undo\n")  # then end of input, which quits as well
    code, out, _ = run(capsys, "play", "--resume")
    assert code == 0
    assert "Mahjong Battle: Ann vs Player 2, deal 5." in out
    [saved] = unfinished_games(tmp_path)
    assert [move_name(move) for move in saved.game.moves] == [first]  # the resumed game had both moves


def test_a_new_game_never_replaces_an_unfinished_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    moves = opening_moves(3, 4)
    set_stdin(monkeypatch, "\n".join(moves) + "\nquit\n")
    assert run(capsys, "play", "--deal", "3")[0] == 0
    set_stdin(monkeypatch, "quit\n")
    code, out, _ = run(capsys, "play", "--deal", "3")  # quit at once: nothing new to keep
    assert "nothing to keep" in out
    set_stdin(monkeypatch, f"{opening_moves(7, 1)[0]}\nquit\n")
    assert run(capsys, "play", "--deal", "7")[0] == 0
    games = unfinished_games(tmp_path)
    assert sorted(saved.game.ply for saved in games) == [1, 4]

    set_stdin(monkeypatch, "quit\n")
    code, out, _ = run(capsys, "play", "--resume")
    assert "1. deal 7" in out and "2. deal 3" in out and "Mahjong Battle: Player 1 vs Player 2, deal 7." in out
    set_stdin(monkeypatch, "discard\nyes\n")
    code, out, _ = run(capsys, "play", "--resume", "2")
    assert "deal 3" in out and "Discarded." in out
    assert [saved.game.deal_number for saved in unfinished_games(tmp_path)] == [7]
    code, _, err = run(capsys, "play", "--resume", "5")
    assert code == 2 and "--resume: '5' is not a number from 1 to 1" in err


def test_resume_without_a_saved_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, out, err = run(capsys, "play", "--resume")
    assert (code, out) == (2, "")
    assert err == "mahjong-battle: no unfinished game to resume (start one with 'mahjong-battle play')\n"


def test_a_corrupt_saved_game_is_set_aside_not_destroyed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "mahjong-battle" / "unfinished"
    folder.mkdir(parents=True)
    (folder / "20261126-101010-abcdef.mbg").write_text("player1: A\nplayer2: B\ndeal: 3\n1. a1-a2 (3)\n")
    code, _, err = run(capsys, "play", "--resume")
    assert code == 2 and "A saved game could not be read: line 4" in err
    assert (folder / "20261126-101010-abcdef.mbg.corrupt").read_text().startswith("player1: A")


def test_play_loads_a_position_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    set_stdin(monkeypatch, "a1-a9\nb2 b1\n")
    code, out, _ = run(capsys, "play", "--load", str(DATA / "same-column-pairs.mbp"))
    assert code == 0
    assert "composed position" in out
    assert "Game over: Player 1 wins 56-64" not in out  # player 1 took 6, player 2 took 3: 56-64
    assert "Game over: Player 2 wins 56-64 (by 8)." in out
    kept = out.split("The record is kept in ")[1].split("\n")[0].rstrip(".")
    game = Game.from_text(Path(kept).read_text(encoding="utf-8"))
    assert game.deal_number is None and game.is_over() and game.position.scores == [56, 64]


def test_a_player_name_from_the_command_line_cannot_break_the_saved_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    set_stdin(monkeypatch, f"{opening_moves(5, 1)[0]}\nquit\n")
    assert run(capsys, "play", "--deal", "5", "--player1", "Ann\nwinner: Ann", "--player2", "B#2")[0] == 0
    set_stdin(monkeypatch, "quit\n")
    code, out, err = run(capsys, "play", "--resume")
    assert (code, err) == (0, "")
    [saved] = unfinished_games(tmp_path)
    game = saved.game
    assert game.player1.startswith("Ann") and "\n" not in game.player1
    assert game.player2 in ("B2", "B 2")
    assert f"Mahjong Battle: {game.player1} vs {game.player2}, deal 5." in out


def test_resume_plays_on_against_the_solver_named_in_the_record(tmp_path, monkeypatch, capsys) -> None:
    """A terminal save of an earlier version, against the solver, resumes against it without --vs again."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    save = tmp_path / "mahjong-battle" / "terminal-autosave.mbg"
    save.parent.mkdir(parents=True)
    first = opening_moves(3, 1)[0]
    save.write_text(f"player1: Solver (beginner)\nplayer2: You\ndeal: 3\n1. {first}\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "--resume"]) == 0
    out = capsys.readouterr().out
    assert "Solver (beginner)" in out
    [saved] = unfinished_games(tmp_path)
    assert saved.solver_side == 1 and saved.level == "beginner"
    assert not save.exists()


def test_terminal_hint_and_eval_ask_the_solver() -> None:
    """``hint`` names a best move and the value it keeps; ``eval`` lists every pair with its value."""
    import json

    from battle.players import solver_advisor

    solver_data = Path(__file__).parents[1] / "data" / "solver"
    row = json.loads((solver_data / "known_values.jsonl").read_text(encoding="utf-8").splitlines()[0])
    position = parse_position((solver_data / f"{row['id']}.mbp").read_text(encoding="utf-8"))
    game = Game(position, "Ann", "Ben")
    out = io.StringIO()
    play = TerminalPlay(game, read_line=scripted(["hint", "eval"], lambda: "quit"), out=out, advisor=solver_advisor())
    assert play.run() == 0
    text = out.getvalue()
    best = row["best_moves"][0]
    assert f"Hint: {best}, a pair of " in text
    assert f"Ann takes {row['value']} more points than the opponent from here (exact)." in text
    listed = [line.split()[1] for line in text.splitlines() if line.startswith("* ") and "-" in line.split()[1]]
    assert listed == row["best_moves"]
    for move in position.legal_moves():
        assert f" {move_name(move)} " in text
    assert game.ply == 0  # asking changes nothing


def test_play_hint_seconds_is_what_hint_and_eval_think(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import battle.players
    from battle.players import solver_advisor
    from battle.search_times import HINT_SECONDS

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    asked: list[float] = []

    def advisor(seconds: float):  # noqa: ANN202 - the door's own type
        asked.append(seconds)
        return solver_advisor(0.1)  # what was asked is recorded; the search itself is kept short

    monkeypatch.setattr(battle.players, "solver_advisor", advisor)
    set_stdin(monkeypatch, "hint\nquit\n")
    code, out, _ = run(capsys, "play", "--deal", "5", "--hint-seconds", "0.25")
    assert code == 0 and "Hint: " in out
    set_stdin(monkeypatch, "hint\nquit\n")
    code, out, _ = run(capsys, "play", "--deal", "5")
    assert code == 0 and "Hint: " in out
    assert asked == [0.25, HINT_SECONDS]  # the flag, else the window's three seconds


def test_terminal_hint_without_a_solver_or_a_move() -> None:
    out = io.StringIO()
    play = TerminalPlay(Game.new(8), read_line=scripted(["hint"], lambda: "quit"), out=out)
    assert play.run() == 0
    assert "No solver here to ask." in out.getvalue()
    finished = Game(parse_position((DATA / "same-column-pairs.mbp").read_text(encoding="utf-8")))
    while not finished.is_over():
        finished.play(finished.position.legal_moves()[0])
    out = io.StringIO()
    play = TerminalPlay(
        finished,
        read_line=scripted([], lambda: "quit"),
        out=out,
        advisor=lambda position, every: pytest.fail("no search for a finished game"),
    )
    assert play.handle("eval") and "No pair left to take." in out.getvalue()


def test_ctrl_c_during_a_hint_returns_to_the_prompt() -> None:
    def interrupted(position, every_move):  # noqa: ANN001, ANN202
        raise KeyboardInterrupt

    out = io.StringIO()
    play = TerminalPlay(
        Game.new(8), read_line=scripted(["hint", "moves"], lambda: "quit"), out=out, advisor=interrupted
    )
    assert play.run() == 0
    text = out.getvalue()
    assert "Stopped." in text and " (" in text.split("Stopped.")[1]  # the game went on: 'moves' answered
