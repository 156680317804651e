"""The command line in one language, whole: every ``--help``, every error of bad input, the
subcommands' answers and the terminal game (play, hint, eval, undo, save, quit, resume, review,
puzzles), read from real processes under ``LANG=de_DE.UTF-8`` (or ``--lang en``), with no word of
the other language in them (``language_guard``).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from battle.puzzles.puzzle import Puzzle
from battle.rules.board import cell_name, move_name
from battle.rules.deal import deal
from battle.rules.game import Game
from battle.rules.notation import format_position
from tests.cli.terminal_process import TerminalProcess, home_env
from tests.i18n.language_guard import Screen, report

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = ROOT / "tests" / "data" / "positions"
LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
LEVELS = frozenset({"beginner", "casual", "club", "expert", "master", "perfect"})
"""The values of ``--vs``: typed as they are in every language."""
COMMAND_WORDS = frozenset(
    {"moves", "hint", "eval", "board", "undo", "redo", "save", "quit", "discard", "help", "review"}
)
"""The terminal game's commands, which its help lists unquoted."""
SUBCOMMANDS = frozenset(
    {"deal", "show", "moves", "replay", "play", "serve", "survey", "puzzles", "stats", "solve", "analyse", "analyze"}
    | {"review", "make"}
)
"""The command line's subcommands, which its help and its errors name as they are typed."""

THREE_PAIRS = """\
to-move: 1
score: 0 0
9m 1s 5p .. .. .. .. .. .. .. .. ..
9m 1s 5p .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
.. .. .. .. .. .. .. .. .. .. .. ..
"""


def environment(home: Path, language: str) -> dict[str, str]:
    env = {name: value for name, value in home_env(home).items() if name not in LOCALE_VARIABLES}
    env["LANG"] = "de_DE.UTF-8" if language == "de" else "en_US.UTF-8"
    env["XDG_CACHE_HOME"] = str(home / "cache")
    env["PYTHONPATH"] = str(ROOT)
    return env


PUZZLE_KEYS = frozenset(
    {"id", "position", "line", "losses", "then", "value", "themes", "difficulty", "rating", "source"}
    | {"deal", "ply", "levels"}
)
"""The keys of a puzzle file's JSON (``battle.puzzles.puzzle``), which its errors name as they are written."""


def broken_puzzles() -> dict[str, str]:
    """Hand-edited puzzle files, each broken in one way: a line that is not JSON, keys missing, a key of
    the wrong type, a move that is no pair, losses of the wrong length, an unknown theme."""
    from battle.puzzles.puzzle_file import load_puzzles

    puzzle = load_puzzles()[0]
    good, start = puzzle.to_json(), puzzle.start()
    free = start.free_cells()
    no_pair = next(
        f"{cell_name(one)}-{cell_name(two)}" for one in free for two in free if start.cells[one] != start.cells[two]
    )
    changes = {
        "missing_keys": {key: value for key, value in good.items() if key not in ("line", "losses")},
        "wrong_type": {**good, "position": 5},
        "no_pair": {**good, "line": [no_pair]},
        "losses": {**good, "losses": []},
        "theme": {**good, "themes": ["zugzwang"]},
    }
    return {"not_json": "{not json\n"} | {name: json.dumps(data) + "\n" for name, data in changes.items()}


def files(home: Path) -> dict[str, Path]:
    """The input files the commands read, good and bad, under ``home``."""
    home.mkdir(parents=True, exist_ok=True)
    game = Game.new(5, "Ann", "Ben")
    for _ in range(6):
        game.play(game.position.legal_moves()[0])
    written = {
        "game": game.to_text(),
        "small": THREE_PAIRS,
        "notes": "hello\n",
        "short_row": format_position(deal(1)).replace("9m 4m 7m 1s 2m 9p 3p 2s 6m 1m 5p 6m", "9m 4m", 1),
        "illegal": "player1: Ann\nplayer2: Ben\ndeal: 5\n1. a1-b1 (9)\n",
        "wrong_result": game.to_text().replace("deal: 5", "deal: 5") + "result: 1-2\n",
        "deep": "[" * 100_000 + "\n",
    }
    names = {
        "game": "game.mbg",
        "small": "small.mbp",
        "notes": "notes.txt",
        "short_row": "short.mbp",
        "illegal": "illegal.mbg",
        "wrong_result": "result.mbg",
        "deep": "deep.jsonl",
    }
    paths = {}
    for key, text in written.items():
        path = home / names[key]
        path.write_text(text, encoding="utf-8")
        paths[key] = path
    paths["folder"] = home
    paths["missing"] = home / "missing.mbp"
    for name, text in broken_puzzles().items():
        paths[f"puzzles_{name}"] = home / f"{name}.jsonl"
        paths[f"puzzles_{name}"].write_text(text, encoding="utf-8")
    return paths


def help_commands() -> list[list[str]]:
    commands = [["--help"]]
    for name in ("deal", "show", "moves", "replay", "play", "serve", "survey", "puzzles", "stats"):
        commands.append([name, "--help"])
    commands += [["puzzles", "make", "--help"], ["puzzles", "play", "--help"]]
    commands += [["solve", "--help"], ["analyse", "--help"], ["review", "--help"]]
    return commands


def bad_input_commands(paths: dict[str, Path]) -> list[list[str]]:
    """Each a command refused in one line for what the user typed or gave it to read."""
    game, small, folder, missing = (str(paths[key]) for key in ("game", "small", "folder", "missing"))
    return [
        ["deal", "abc"],
        ["deal", "99999999999999999999999"],
        ["deal", "--fair", "--daily"],
        ["deal", "5", "--fair"],
        ["deal", "--margin", "3"],
        ["deal", "--fair", "--margin", "300"],
        ["show", missing],
        ["show", folder],
        ["show", str(paths["notes"])],
        ["moves", str(paths["short_row"])],
        ["replay", str(paths["illegal"])],
        ["replay", str(paths["wrong_result"])],
        ["replay", small],
        ["play", "--vs", "godlike"],
        ["play", "--first"],
        ["play", "--vs", "club", "--player2", "Ann"],
        ["play", "--deal", "x"],
        ["play", "--load", missing],
        ["play", "--resume"],
        ["play", "--join", "ABCD"],
        ["solve", "--time", "inf", small],
        ["solve", "--time", "1e10", small],
        ["solve", "--nodes", "99999999999999999999999", small],
        ["solve", "--depth", "0", small],
        ["solve", "--hash", "1", small],
        ["solve", "--threads", "1000", small],
        ["analyse", missing],
        ["review", small],
        ["review", "--plot", str(paths["folder"] / "graph.txt"), game],
        ["serve", "--port", "70000"],
        ["serve", "--port", "eighty"],
        ["serve", "--max-games", "0"],
        ["survey", "1-3", "--workers", "2000"],
        ["survey", "abc"],
        ["survey", "1-3", "--tiles", "13"],
        ["survey", "1-3", "--memory-per-worker", "0.2"],
        ["survey", "--report", "--db", missing],
        ["puzzles", "make", "--tiles", "x"],
        ["puzzles", "make", "--tiles", "60-20"],
        ["stats", "--record", "abc"],
        ["puzzles"],
        ["puzzles", "make", "--count", "1.5"],
        ["puzzles", "play", "--file", str(paths["deep"])],
        ["puzzles", "play", "--theme", "nosuch"],
        *(["puzzles", "play", "--file", str(path)] for key, path in paths.items() if key.startswith("puzzles_")),
        ["stats", "--record", "999"],
        ["bogus"],
        ["moves", game, "--bogus"],
        ["--lang", "xx", "deal", "1"],
    ]


def answer_commands(paths: dict[str, Path]) -> list[list[str]]:
    """Commands that answer: what each prints is read as well."""
    game, small = str(paths["game"]), str(paths["small"])
    return [
        ["deal", "5"],
        ["show", game],
        ["moves", small],
        ["replay", game],
        ["stats"],
        ["solve", small],
        ["analyse", small],
        ["review", game, "--time", "0.05"],
    ]


def driven(home: Path, language: str, commands: list[list[str]]) -> list[dict]:
    """Every command's answer from one process (``tests.i18n.cli_driver``)."""
    flagged = [["--lang", language, *argv] if argv[:1] != ["--lang"] else argv for argv in commands]
    done = subprocess.run(
        [sys.executable, "-m", "tests.i18n.cli_driver"],
        input=json.dumps(flagged),
        capture_output=True,
        text=True,
        env=environment(home, language),
        cwd=home,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def command_screens(home: Path, language: str) -> list[Screen]:
    paths = files(home / "files")
    screens = []
    for answer in driven(home, language, help_commands()):
        assert answer["code"] == 0, answer
        name = " ".join(answer["argv"][2:])
        # play --help lists the levels and what a game takes: its commands, the online one's too
        online = {"takeback", "rematch", "resign", "abort", "codes"}
        in_play = LEVELS | COMMAND_WORDS | online if answer["argv"][2:4] == ["play", "--help"] else frozenset()
        literals = SUBCOMMANDS | in_play
        screens.append(Screen(name, answer["out"], literals=literals))
    for answer in driven(home, language, bad_input_commands(paths)):
        assert answer["code"] == 2 and answer["err"].count("\n") == 1, answer
        name = " ".join(answer["argv"][2:])
        keys = PUZZLE_KEYS if "--file" in answer["argv"] else frozenset()
        screens.append(Screen(name, answer["err"], names=("Ann",), literals=SUBCOMMANDS | LEVELS | keys))
    for answer in driven(home, language, answer_commands(paths)):
        assert answer["code"] == 0, answer
        text = answer["out"] + answer["err"]
        if answer["argv"][2] in ("deal", "replay"):  # a position file: its comments read the same everywhere
            text = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
        screens.append(Screen(" ".join(answer["argv"][2:]), text, names=("Ann", "Ben"), literals=SUBCOMMANDS))
    return screens


class Player:
    """A terminal game in a real process, played line by line: each line waits for the next prompt
    (every prompt of the game ends in ``"> "``, a yes/no question in ``") "``)."""

    def __init__(self, args: list[str], home: Path, env: dict[str, str]) -> None:
        self.game = TerminalProcess(args, home, env)
        self.read = self.game.wait_for("> ")

    def type(self, line: str, until: str = "> ") -> None:
        self.game.type(line)
        self.read = self.game.wait_for(until, self.read)

    def close(self) -> str:
        code, err = self.game.finish()
        assert code == 0, err
        return self.game.seen + err


def a_wrong_answer(puzzle: Puzzle) -> str:
    """A legal move of the puzzle's first position that is not its answer."""
    return next(move_name(move) for move in puzzle.start().legal_moves() if move != puzzle.line[0])


def game_screens(home: Path, language: str) -> list[Screen]:
    """The terminal game as a player plays it: against the solver with every command; two people;
    both resumed from the list; a short game played to its end, reviewed and saved; a puzzle."""
    env = environment(home, language)
    files(home / "files")
    screens = []
    # a tenth of a second's hint and eval: a full board's answer is an estimate at any length, and
    # the default 3 s of two threads each was 12 of the test's 16 CPU seconds
    first = Player(["play", "--vs", "beginner", "--first", "--deal", "5", "--hint-seconds", "0.1"], home, env)
    position = deal(5)
    biggest = max(position.legal_moves(), key=position.move_points)
    for line in ("help", "moves", "zz", "a1-b1", "board", "hint", "eval", "undo", move_name(biggest), "undo", "redo"):
        first.type(line)
    first.type(f"save {home / 'no-such-folder' / 'x.mbg'}")  # a folder that is not there, whoever runs it
    first.type(f"save {home / 'kept'}")
    first.type(f"save {home / 'kept.mbg'}", until=") ")
    first.type("no")
    first.type(f"save {home}/")
    first.type("discard", until=") ")
    first.type("no")
    first.game.type("quit")
    screens.append(Screen("play --vs beginner", first.close(), literals=COMMAND_WORDS))

    two = Player(["play", "--deal", "3", "--player1", "Ann", "--player2", "Ben"], home, env)
    two.type(move_name(deal(3).legal_moves()[0]))
    two.game.type("quit")
    screens.append(Screen("play Ann Ben", two.close(), names=("Ann", "Ben"), literals=COMMAND_WORDS))

    resumed = Player(["play", "--resume"], home, env)
    resumed.game.type("quit")
    screens.append(Screen("play --resume", resumed.close(), names=("Ann", "Ben"), literals=COMMAND_WORDS))

    short = Player(["play", "--load", str(home / "files" / "small.mbp"), "--vs", "beginner", "--first"], home, env)
    short.type("a1-a2")  # the 9s; the solver takes the 5s, and the 1s are left for you
    short.type("b1-b2")  # the end: the prompt to save, review or leave
    short.type("review")
    short.type(f"save {home / 'short.mbg'}")
    short.game.type("")
    screens.append(Screen("play to the end", short.close(), literals=COMMAND_WORDS))

    from battle.puzzles.puzzle_file import load_puzzles
    from battle.puzzles.selection import next_puzzle
    from battle.ratings.puzzle_ratings import player_puzzle_rating

    puzzle = next_puzzle(load_puzzles(), player_puzzle_rating([]).rating, set(), random.Random(7), {})
    assert puzzle is not None
    script = f"help\nzz\n{a_wrong_answer(puzzle)}\nboard\nsolution\n"
    done = subprocess.run(
        [sys.executable, "-m", "battle", "puzzles", "play", "--count", "1", "--seed", "7"],
        input=script,
        capture_output=True,
        text=True,
        env=env,
        cwd=home,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    screens.append(Screen("puzzles play", done.stdout + done.stderr, literals=COMMAND_WORDS | {"solution"}))
    return screens


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_terminal_game_is_in_one_language(language: str, tmp_path: Path) -> None:
    problems = report(game_screens(tmp_path, language), language)
    assert not problems, problems


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_help_and_every_bad_input_is_in_one_language(language: str, tmp_path: Path) -> None:
    problems = report(command_screens(tmp_path, language), language)
    assert not problems, problems
