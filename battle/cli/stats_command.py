"""``mahjong-battle stats``: the history's statistics as text, or one stored game as a record."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from battle.cli.inputs import InputError, add_history_option, database_file
from battle.i18n import _, pgettext
from battle.rules.errors import BattleError, one_line

if TYPE_CHECKING:
    from battle.history.store import History

PROG = "mahjong-battle"


def add_commands(commands: argparse._SubParsersAction) -> None:
    """``stats``."""
    sub = commands.add_parser(
        "stats",
        help=_("your games, results per level, rating against the solver, puzzles"),
        description=_(
            "Statistics from the history of finished games and puzzle attempts: results per opponent "
            "level, average margin, review accuracy over time, best and worst games, a rating against "
            "the solver's levels and the puzzle rating."
        ),
    )
    sub.add_argument(
        "--record",
        type=_game_number,
        metavar="N",
        help=_("print stored game #N as a .mbg record instead (e.g. to pipe into review -)"),
    )
    add_history_option(sub)
    sub.set_defaults(run=cmd_stats)


def _game_number(text: str) -> int:
    if not text.isdigit() or len(text) > 18:
        raise argparse.ArgumentTypeError(
            _("{value} is not a game number (the #N of the report)").format(value=repr(text[:20]))
        )
    return int(text)


def cmd_stats(args: argparse.Namespace) -> int:
    # here, not at the top: the history's database and its figures (15-25 ms of imports) are this command's
    from battle.history.stats import compute_stats
    from battle.history.stats_report import format_stats
    from battle.history.store import History

    with History(database_file(args.db)) as history:
        if args.record is not None:
            entry = history.game(args.record)
            _notices(history)
            if entry is None:
                raise InputError(_("--record: no game #{record} in the history").format(record=args.record))
            sys.stdout.write(entry.record)
            return 0
        games, attempts = history.games(), history.attempts()
        _notices(history)
    sys.stdout.write(format_stats(compute_stats(games, attempts)))
    return 0


def _notices(history: History) -> None:
    for notice in history.take_notices():
        print(one_line(f"{PROG}: {notice}"), file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m battle.cli.stats_command stats ...``: the command without the rest of the command line."""
    parser = argparse.ArgumentParser(prog=PROG)
    add_commands(parser.add_subparsers(dest="command", metavar=pgettext("metavar", "COMMAND")))
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.error(_("choose a command: stats"))
    try:
        return int(args.run(args))
    except (InputError, BattleError) as error:
        print(one_line(f"{PROG}: {error}"), file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
