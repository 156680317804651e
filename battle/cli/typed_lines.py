"""Lines typed into standard input, waited for with a timeout and never held back.

``select`` on ``sys.stdin`` followed by ``sys.stdin.readline()`` loses track of lines: the
text layer reads everything the pipe or terminal holds into its buffer, hands back the first
line, and ``select`` then sees an empty descriptor, so lines typed or pasted together wait
unread until more input comes. These lines are read from the descriptor with ``os.read``
into this reader's own buffer, so each line is handed out as soon as it is whole. The wait
also ends on a signal (``wait_readable``), so a Ctrl-C is never held until the next line.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import sys
from typing import TextIO

from battle.cli.standard_input import wait_readable

NOTHING_YET = object()
"""``TypedLines.next`` found no whole line within its timeout."""

CHUNK = 4096


class TypedLines:
    """Whole lines from ``stream``: ``next(timeout)`` is a line (with its newline), None once the
    input has ended, or ``NOTHING_YET`` (with ``timeout`` None, only when a signal ended the wait).
    A stream with no descriptor to watch (a test's StringIO) is read with its own blocking
    ``readline``; no stream at all (a program started with its standard input closed) has ended."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.buffered = ""
        self.ended = stream is None
        self.descriptor: int | None = None
        if stream is not None:
            try:
                self.descriptor = stream.fileno()
            except (OSError, ValueError):  # io.UnsupportedOperation is an OSError
                self.descriptor = None
        encoding = getattr(stream, "encoding", None) or "utf-8"
        self.decoder = codecs.getincrementaldecoder(encoding)(errors="replace")

    def next(self, timeout: float | None) -> str | None | object:
        line = self._take_line()
        if line is not None:
            return line
        if self.ended:
            return None
        if self.descriptor is None:
            return self._read_line_blocking()
        try:
            ready = wait_readable(self.descriptor, timeout)
        except (OSError, ValueError):  # a descriptor select cannot watch
            return self._read_line_blocking()
        if not ready:
            return NOTHING_YET
        try:
            chunk = os.read(self.descriptor, CHUNK)
        except BlockingIOError:
            return NOTHING_YET
        except OSError:  # a closed or broken stream reads as the end of input
            chunk = b""
        if chunk:
            self.buffered += self.decoder.decode(chunk)
        else:
            self.buffered += self.decoder.decode(b"", final=True)
            self.ended = True
        line = self._take_line()
        if line is not None:
            return line
        return None if self.ended else NOTHING_YET

    def wait_line(self) -> str | None:
        """The next whole line however long it takes, None once the input has ended; a signal's
        handler that raises (Ctrl-C) ends the wait, one that returns does not."""
        while (line := self.next(None)) is NOTHING_YET:
            pass
        return line if isinstance(line, str) else None

    def _take_line(self) -> str | None:
        """The first whole line buffered; at the end of input the unfinished rest counts as one."""
        end = self.buffered.find("\n")
        if end < 0:
            if self.ended and self.buffered:
                line, self.buffered = self.buffered, ""
                return line
            return None
        line, self.buffered = self.buffered[: end + 1], self.buffered[end + 1 :]
        return line

    def _read_line_blocking(self) -> str | None:
        try:
            line = self.stream.readline() if self.stream is not None else ""
        except (OSError, ValueError):  # closed under us
            line = ""
        if not line:
            self.ended = True
            return None
        return line


_piped_lines: TypedLines | None = None
"""Standard input's lines for ``typed_input``, made at its first call (one buffer for the run)."""


def typed_input(prompt: str = "") -> str:
    """``input(prompt)`` for a game at the terminal, whose wait a Ctrl-C always ends. At a terminal it
    is ``input`` itself, with readline's line editing; from a pipe or a file ``input`` reads with
    ``readline``, where a Ctrl-C that lands just before the read blocks waits for the next line, so
    the line comes through ``TypedLines`` instead. ``EOFError`` at the end of input, as ``input``."""
    global _piped_lines
    stdin = sys.stdin
    try:
        at_terminal = stdin is not None and stdin.isatty()
    except ValueError:  # closed
        at_terminal = False
    if at_terminal:
        with contextlib.suppress(ImportError):  # Windows has no readline
            # input() at a terminal then edits the line: arrows, Home and End, the up arrow's earlier moves
            import readline  # noqa: F401
        return input(prompt)
    if _piped_lines is None or _piped_lines.stream is not stdin:
        _piped_lines = TypedLines(stdin)
    if prompt and sys.stdout is not None:
        sys.stdout.write(prompt)
        sys.stdout.flush()
    line = _piped_lines.wait_line()
    if line is None:
        raise EOFError
    return line.removesuffix("\n")
