"""The ``mahjong-battle`` command: subcommands for scripts, the window without one.

Every command exits 0 on success and 2 on bad input, with a one-line reason on
stderr that names the file and the line; tracebacks are for bugs only.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from collections.abc import Sequence

from battle.board import move_name
from battle.deal import deal, parse_deal_number, random_deal_number
from battle.errors import BattleError
from battle.game import Game
from battle.notation import format_position, parse_any, parse_record
from battle.textboard import LEGEND, render_board, render_status
from battle.textfile import TextFileError, decode_limited, read_text_file

PROG = "mahjong-battle"
EXIT_OK, EXIT_BAD_INPUT = 0, 2


class InputError(Exception):
    """Bad input from the command line; the message is shown as it is."""


def read_input(name: str) -> str:
    """The text of a file, or of standard input for ``-``, with clear errors."""
    try:
        if name == "-":
            return decode_limited(sys.stdin.buffer, name)
        return read_text_file(name, name)
    except TextFileError as error:
        raise InputError(str(error)) from None


def load_position(name: str):  # noqa: ANN201 - Position, imported lazily by callers
    """The current position of a ``.mbp`` or ``.mbg`` file (``-`` for stdin)."""
    text = read_input(name)
    try:
        return parse_any(text)
    except BattleError as error:
        raise InputError(f"{_label(name)}: {error}") from None


def load_game(name: str) -> Game:
    """A game from a record, or a fresh game from a position file."""
    text = read_input(name)
    try:
        return Game.from_file_text(text)[0]
    except BattleError as error:
        raise InputError(f"{_label(name)}: {error}") from None


def _label(name: str) -> str:
    return "<stdin>" if name == "-" else name


def use_colour(stream) -> bool:  # noqa: ANN001
    return hasattr(stream, "isatty") and stream.isatty() and "NO_COLOR" not in os.environ


# -- commands ---------------------------------------------------------------------------


def cmd_deal(args: argparse.Namespace) -> int:
    number = random_deal_number() if args.number is None else _deal_number(args.number)
    sys.stdout.write(format_position(deal(number), f"deal {number}"))
    return EXIT_OK


def _deal_number(text: str) -> int:
    try:
        return parse_deal_number(text)
    except BattleError as error:
        raise InputError(str(error)) from None


def cmd_show(args: argparse.Namespace) -> int:
    position = load_position(args.file)
    print(render_board(position, use_colour(sys.stdout)))
    print(render_status(position))
    print(LEGEND)
    return EXIT_OK


def cmd_moves(args: argparse.Namespace) -> int:
    position = load_position(args.file)
    for move in position.legal_moves():
        print(f"{move_name(move)} ({position.move_points(move)})")
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    text = read_input(args.file)
    try:
        game = Game.from_record(parse_record(text))
    except BattleError as error:
        raise InputError(f"{_label(args.file)}: {error}") from None
    result = game.result()
    start = f"deal {game.deal_number}" if game.deal_number is not None else "a composed layout"
    summary = [f"{game.player1} vs {game.player2}, from {start}, {game.ply} moves"]
    if result is None:
        summary.append(f"not finished: {game.names[game.position.to_move - 1]} to move")
    else:
        summary.append(f"result: {result.scores[0]}-{result.scores[1]}, {result.describe(game.names)}")
    sys.stdout.write(format_position(game.position, "\n".join(summary)))
    return EXIT_OK


def cmd_play(args: argparse.Namespace) -> int:
    from battle.terminal import TerminalPlay, autosave_path

    if args.vs:
        # Checked before anything is loaded or dealt: a typo gets one line, not a traceback.
        from battle.players import get_level

        try:
            args.vs = get_level(args.vs).name
        except ValueError as error:
            raise InputError(f"--vs: {error}") from None
    if args.resume:
        path = autosave_path()
        if not path.exists():
            raise InputError(f"no saved game to resume ({path} does not exist)")
        game = load_game(str(path))
    elif args.load:
        game = load_game(args.load)
    else:
        number = None if args.deal is None else _deal_number(args.deal)
        game = Game.new(number)
    if args.player1:
        game.player1 = args.player1
    if args.player2:
        game.player2 = args.player2
    computers = {}
    if not args.vs and (args.resume or args.load):
        # A record remembers the solver by its name, "Solver (LEVEL)": resume against it.
        for side, name in ((1, game.player1), (2, game.player2)):
            match = re.fullmatch(r"Solver \((\w+)\)", name)
            if match:
                from battle.players import LEVELS, solver_player

                if match.group(1) in LEVELS:
                    computers[side] = solver_player(match.group(1))
    if args.vs:
        from battle.players import solver_player

        computer_side = 2 if args.first else 1
        if not (args.resume or args.load):
            game.player1, game.player2 = (
                (args.player1 or "You", f"Solver ({args.vs})")
                if args.first
                else (f"Solver ({args.vs})", args.player2 or "You")
            )
        computers[computer_side] = solver_player(args.vs)
    play = TerminalPlay(game, computers=computers, colour=use_colour(sys.stdout), autosave=autosave_path(),
                        advisor=_lazy_advisor())
    return play.run()


def _lazy_advisor():  # noqa: ANN202 - battle.terminal.Advisor
    """The terminal's hint and eval, importing the solver (numba) only when first asked:
    two people playing each other never wait for it."""
    made = []

    def advise(position, every_move):  # noqa: ANN001, ANN202
        if not made:
            from battle.players import solver_advisor

            made.append(solver_advisor())
        return made[0](position, every_move)

    return advise


def cmd_window(args: argparse.Namespace) -> int:
    try:
        from battle.ui.app import main as run_window
    except ImportError as error:
        raise InputError(f"the window needs pygame-ce ({error}); the subcommands work without it") from None
    return run_window(args)


# -- parser -----------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Mahjong Battle: a two-player mahjong pair game with a perfect-play solver. "
        "Without a subcommand, opens the game window.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    sub = commands.add_parser("deal", help="print a numbered deal as a position file")
    sub.add_argument("number", nargs="?", help="deal number (random if left out)")
    sub.set_defaults(run=cmd_deal)

    sub = commands.add_parser("show", help="draw a position or game in the terminal")
    sub.add_argument("file", help=".mbp or .mbg file, or - for standard input")
    sub.set_defaults(run=cmd_show)

    sub = commands.add_parser("moves", help="list the legal moves with their points")
    sub.add_argument("file", help=".mbp or .mbg file, or - for standard input")
    sub.set_defaults(run=cmd_moves)

    sub = commands.add_parser("replay", help="check a game record; print its final position and result")
    sub.add_argument("file", help=".mbg file, or - for standard input")
    sub.set_defaults(run=cmd_replay)

    sub = commands.add_parser("play", help="play in the terminal (two people, or --vs the solver)")
    start = sub.add_mutually_exclusive_group()
    start.add_argument("--deal", metavar="N", help="deal number (random if left out)")
    start.add_argument("--load", metavar="FILE", help="continue a .mbg record or start from a .mbp position")
    start.add_argument("--resume", action="store_true", help="continue the last unfinished terminal game")
    sub.add_argument("--player1", metavar="NAME", help="name of player 1")
    sub.add_argument("--player2", metavar="NAME", help="name of player 2")
    sub.add_argument("--vs", metavar="LEVEL", help="play against the solver at this level")
    sub.add_argument("--first", action="store_true", help="with --vs: you move first")
    sub.set_defaults(run=cmd_play)

    _add_solver_commands(commands)
    return parser


def _add_solver_commands(commands: argparse._SubParsersAction) -> None:
    """Solver subcommands live in their own module; the model never imports the solver."""
    try:
        from battle.cli_solver import add_commands
    except ImportError:
        return
    add_commands(commands)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "run", None)
    try:
        if run is None:
            return cmd_window(args)
        return run(args)
    except InputError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BattleError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # `mahjong-battle moves f | head -1`: the reader left, nothing went wrong.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return EXIT_OK
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


def entry_point() -> None:
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    entry_point()
