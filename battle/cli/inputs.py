"""Input the subcommands share: files and standard input read with clear errors, the
positions and games in them, whole numbers in flags, and whether to colour the output.

Both the plain subcommands (``battle.cli.command_line``) and the solver's
(``battle.cli.solver_commands``) read their input here, so neither imports the other.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from battle.cli.standard_input import read_standard_input
from battle.i18n import _, format_short, pgettext
from battle.rules.board import Position
from battle.rules.errors import BattleError, quote, shorten_name
from battle.rules.game import Game
from battle.rules.notation import Record, is_record_text, parse_any, parse_record
from battle.storage.paths import error_reason
from battle.storage.textfile import MAX_BYTES, TextFileError, decode_limited, read_text_file

T = TypeVar("T")


class InputError(Exception):
    """Bad input from the command line; the message is shown as it is."""


def whole_number(
    low: int, high: int | None = None, *, not_one: str | None = None, outside: str | None = None
) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` to ``high`` (no upper bound with None).
    A wrong one gets one line naming it and what was expected: "'x' is not a whole number",
    "0 is not 1 or more", "2000 is not 1 to 1024"; ``not_one`` and ``outside`` are sentences of
    the catalogue (marked ``N_``) that name the kind instead: "'x' is not a port number" with
    ``{text}``, "70000 is not a port number (0 to 65535)" with ``{value}``, ``{low}`` and ``{high}``."""

    def parse(text: str) -> int:
        try:
            if not text.isascii():  # int() reads other scripts' digits too: "８７６５" is no port here
                raise ValueError(text)
            value = int(text)
        except ValueError:
            wrong = _(not_one) if not_one else _("{text} is not a whole number")
            raise argparse.ArgumentTypeError(wrong.format(text=quote(text))) from None
        if value < low or (high is not None and value > high):
            if outside:
                words = _(outside)
            else:
                words = _("{value} is not {low} or more") if high is None else _("{value} is not {low} to {high}")
            raise argparse.ArgumentTypeError(words.format(value=value, low=low, high=high))
        return value

    return parse


def checked_argument(
    check: Callable[[str], T], text: str, wrong: str | None = None, *, width: int = 60, **values: object
) -> T:
    """``check(text)`` as an argparse ``type`` gives it: a ``ValueError`` becomes the one line argparse
    prints, the check's own message, or ``wrong`` (a sentence of the catalogue, marked ``N_``) with
    the text quoted as ``{quote}`` (cut to ``width`` characters) and ``values``. The checks that
    raise it belong to modules a command loads only when it runs, so each caller imports its own."""
    try:
        return check(text)
    except ValueError as error:
        said = str(error) if wrong is None else _(wrong).format(quote=quote(text, width), **values)
        raise argparse.ArgumentTypeError(said) from None


def positive_number(high: float) -> Callable[[str], float]:
    """An argparse ``type``: a number above 0 and at most ``high`` (decimals allowed), or one line
    naming what is wrong."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(_("{text} is not a number").format(text=repr(text[:20]))) from None
        if not 0 < value <= high:
            raise argparse.ArgumentTypeError(
                _("{text} is not a number above 0 (and at most {high})").format(text=text[:20], high=format_short(high))
            )
        return value

    return parse


def output_file(name: str, flag: str, *, force: bool) -> Path:
    """The file an option names for the program to write (``--out``), checked before any work:
    one line naming what is wrong for a folder, a FIFO or a device, a name the system refuses
    (too long, say), or a file that exists already without ``force``."""
    from battle.storage.paths import NotAFileToWrite, writable_target

    path = Path(name)
    try:
        target = writable_target(path)
    except NotAFileToWrite as error:
        raise InputError(_("{flag}: {error}").format(flag=flag, error=error)) from None
    except OSError as error:
        raise InputError(
            _("{flag}: cannot write {quote} ({value})").format(
                flag=flag, quote=quote(name, 60), value=error_reason(error)
            )
        ) from None
    if target.exists() and not force:
        raise InputError(
            _("{flag}: {quote} exists already; --force replaces it").format(flag=flag, quote=quote(name, 60))
        )
    return path


def add_db_option(parser: argparse.ArgumentParser, words: str) -> None:
    """``--db FILE``: the database a command reads and keeps, ``words`` its help (``database_file``
    checks the name the command is given)."""
    parser.add_argument("--db", metavar=pgettext("metavar", "FILE"), help=words)


def add_history_option(parser: argparse.ArgumentParser) -> None:
    """``--db FILE``: the history database (``stats``, and ``puzzles play``, which rates the puzzles there)."""
    add_db_option(parser, _("the history database (default: history.sqlite3 in the user's data folder)"))


def database_file(name: str | None, flag: str = "--db") -> Path | None:
    """The database file an option names (None when it names none), checked before any work: its
    folder must exist. A new file is made in an existing folder, but a folder is never made for
    one: a mistyped ``/nonexistent/history.sqlite3`` would leave a folder at the root."""
    if name is None:
        return None
    path = Path(name)
    if not path.parent.is_dir():
        raise InputError(
            _("{flag} {name}: there is no folder {folder} (a database is made only in a folder that exists)").format(
                flag=flag, name=file_label(name), folder=file_label(str(path.parent))
            )
        )
    return path


def read_input(name: str) -> str:
    """The text of a file, or of standard input for ``-``, with clear errors."""
    label = file_label(name)
    try:
        if name == "-":
            # None when the command started with standard input closed (`<&-`).
            stdin = getattr(sys.stdin, "buffer", None)
            if stdin is None:
                raise InputError(
                    _("{label}: standard input is closed (give a file name instead of -)").format(label=label)
                )
            try:
                return decode_limited(read_standard_input(stdin, MAX_BYTES + 1), label)
            except OSError as error:
                raise InputError(
                    _("{label}: cannot read standard input ({value})").format(label=label, value=error_reason(error))
                ) from None
        return read_text_file(name, label)
    except TextFileError as error:
        raise InputError(str(error)) from None


def load_position(name: str) -> Position:
    """The current position of a ``.mbp`` or ``.mbg`` file (``-`` for stdin)."""
    text = read_input(name)
    try:
        return parse_any(text)
    except BattleError as error:
        raise InputError(f"{file_label(name)}: {error}") from None


def load_game(name: str) -> Game:
    """A game from a record, or a fresh game from a position file."""
    text = read_input(name)
    try:
        return Game.from_file_text(text)[0]
    except BattleError as error:
        raise InputError(f"{file_label(name)}: {error}") from None


def load_record(name: str) -> Record:
    """A game record (``review`` needs its moves), or an ``InputError`` naming the file and the problem."""
    label = file_label(name)
    text = read_input(name)
    if not is_record_text(text):
        raise InputError(
            _(
                "{label}: not a game record (expected a .mbg file with deal: or layout: and the moves; for "
                "a single position use analyse)"
            ).format(label=label)
        )
    try:
        return parse_record(text)
    except BattleError as error:
        raise InputError(f"{label}: {error}") from None


def file_label(name: str) -> str:
    """A file as messages name it: control characters escaped, a very long name shortened."""
    return "<stdin>" if name == "-" else shorten_name(name)


def is_yes(answer: str) -> bool:
    """Whether a typed answer to a yes/no question says yes: ``y`` or ``yes``, or the player's
    language's own (German ``j``, ``ja``), as the question offers them."""
    typed = answer.strip().lower()
    return typed in ("y", "yes", pgettext("a typed answer", "y"), pgettext("a typed answer", "yes"))


def use_colour(stream: object) -> bool:
    return hasattr(stream, "isatty") and stream.isatty() and "NO_COLOR" not in os.environ
