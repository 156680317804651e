"""Narrow error types: each subclasses ``ValueError`` so callers that only care
that the input was bad can catch one thing, while tests and the UI can tell
what kind of bad it was. Messages quote the offending input (``quote``: at most
80 characters of it, control characters escaped), and ``one_line`` is what every
front end passes a message through before printing it, so that one error is one line.

The model states a problem as a ``Phrase``: a whole English sentence of the catalogue with
named values (``Phrase("{cell} is empty", cell="a1")``). It is worded in the reader's
language each time it is shown (``str``), so an error raised while the window is English
reads German after the language button, and a German sentence never carries an English
reason: a phrase inside a phrase is worded in the same language.
"""

from __future__ import annotations

import re
from typing import Any

from battle.i18n import _, ngettext


class Phrase:
    """A sentence of the rules model: an English catalogue message (marked with ``N_`` where it is
    written) and the values of its ``{named}`` places, worded in the current language by ``str``.

    A sentence whose words change with a number gives its plural too (marked with ``NN_``), and
    the number as ``count``: ``Phrase(*NN_("{count} row kept", "{count} rows kept"), count=3)``."""

    __slots__ = ("message", "plural", "values")

    def __init__(self, message: str, plural: str | None = None, /, **values: object) -> None:
        self.message = message
        """The English sentence, the catalogue's key; the same in every language, for tests and logs."""
        self.plural = plural
        """The English plural of a counted sentence (its number in ``values["count"]``), else None."""
        self.values = values
        """The named values, each shown with ``str`` (a ``Phrase`` among them in the same language)."""

    def __str__(self) -> str:
        if self.plural is not None:
            count = self.values["count"]
            worded = ngettext(self.message, self.plural, count if isinstance(count, int) else 0)
        else:
            worded = _(self.message)
        return worded.format(**{name: str(value) for name, value in self.values.items()}) if self.values else worded

    def __repr__(self) -> str:
        plural = "" if self.plural is None else f", {self.plural!r}"
        return f"Phrase({self.message!r}{plural}, **{self.values!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Phrase) and (self.message, self.plural, self.values) == (
            other.message,
            other.plural,
            other.values,
        )

    def __hash__(self) -> int:
        return hash(self.message)


class BattleError(ValueError):
    """Base class of every error the model raises about bad input: a ``Phrase`` worded when shown."""

    def __init__(self, message: str, /, **values: object) -> None:
        super().__init__(message)
        self.phrase = Phrase(message, **values)
        """The problem as the model states it; ``str(error)`` words it in the reader's language."""

    def __str__(self) -> str:
        return str(self.phrase)

    def __reduce__(self) -> tuple[Any, ...]:
        # an error sent to another process (the survey's workers) keeps its values
        return (_rebuilt, (type(self), self.phrase.message, self.phrase.values))


def _rebuilt(kind: type[BattleError], message: str, values: dict[str, object]) -> BattleError:
    return kind(message, **values)


class NotationError(BattleError):
    """Text that does not follow the notation: a tile, cell, move or file."""


class PositionError(NotationError):
    """A position that breaks the rules of the board (gap in a column, fifth copy)."""


class IllegalMoveError(BattleError):
    """A well-formed move that the rules do not allow in this position."""


class RecordError(NotationError):
    """A game record that does not replay (illegal move, wrong points, wrong result)."""


# -- showing input in a message ---------------------------------------------------------

QUOTE_LIMIT = 80
"""Characters of the offending input a message quotes; longer input ends in an ellipsis."""
NAME_LIMIT = 160
"""Characters of a file name a message shows; a longer one keeps its start and its end."""
LINE_LIMIT = 400
"""Characters of a whole error line: a backstop for input no message shortened."""

_CONTROLS = {code: repr(chr(code))[1:-1] for code in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)}
"""Control characters (and the Unicode line and paragraph separators) as the escapes
``repr`` writes for them: ``\\n``, ``\\x1b``, ``\\x00``, ``\\u2028``."""
_QUOTED = re.compile(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*\"""")


def printable(text: str) -> str:
    """``text`` with every control character escaped, so that it stays on one line and
    cannot steer a terminal (ESC sequences); other characters, accents included, stay."""
    return text.translate(_CONTROLS)


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for a message as ``repr`` does (control characters escaped), at
    most ``limit`` characters of it, with ``...`` after the last one shown if cut."""
    return repr(text) if len(text) <= limit else repr(text[:limit] + "...")


def shorten_name(name: str, limit: int = NAME_LIMIT) -> str:
    """A file name for a message: control characters escaped and, if longer than
    ``limit``, its middle replaced by ``...`` (the folder starts it, the file's own name ends it)."""
    name = printable(name)
    if len(name) <= limit:
        return name
    keep = (limit - 3) // 2
    return name[:keep] + "..." + name[-keep:]


def one_line(message: str) -> str:
    """An error message made safe to print as one line, whatever input it quotes.

    Quoted input (a ``repr`` in the message) longer than ``QUOTE_LIMIT`` characters is
    cut there, control characters anywhere are escaped, and a line still longer than
    ``LINE_LIMIT`` keeps its start and its end, which say where and what went wrong.
    """
    message = _QUOTED.sub(_shorten_quoted, message)
    message = printable(message)
    if len(message) > LINE_LIMIT:
        keep = (LINE_LIMIT - 5) // 2
        message = message[:keep] + " ... " + message[-keep:]
    return message


def _shorten_quoted(match: re.Match[str]) -> str:
    quoted = match.group()
    if len(quoted) <= QUOTE_LIMIT + 2:
        return quoted
    import ast

    try:
        text = ast.literal_eval(quoted)
    except (ValueError, SyntaxError):  # quotes of prose, not a repr: leave them alone
        return quoted
    return quote(text) if isinstance(text, str) else quoted
