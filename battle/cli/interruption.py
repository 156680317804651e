"""A Ctrl-C before a command has begun its work: one line and exit code 130, as a Ctrl-C during
its work gives (``battle.cli.command_line``), not the traceback of the import it stopped.

Loading the command's modules takes 0.1 s on a quiet machine and seconds on a busy one, and a
Ctrl-C in a pipeline reaches every command of it: each says "interrupted" once and ends.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Iterator
from typing import NoReturn

PROG = "mahjong-battle"
EXIT_INTERRUPTED = 130
"""The exit code after Ctrl-C, as a shell gives a command killed by SIGINT (128 + 2)."""


def end_interrupted() -> NoReturn:
    """Say "interrupted" in the language the command line asks for and exit with code 130. A second
    Ctrl-C meanwhile is ignored: the line takes milliseconds and the process ends after it, at once
    (``os._exit``): nothing has begun that needs ending, and through Python's own exit a Ctrl-C that
    stopped an import ended the process by SIGINT instead (exit -2 after the line, 4 of 40 times beside
    two busy loops; 0 of 40 this way)."""
    with contextlib.suppress(ValueError):  # not the main thread: the signal is not ours to set
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    from battle.i18n import _, set_language

    set_language(_language_asked(sys.argv[1:]))
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            print(f"{PROG}: {_('interrupted')}", file=sys.stderr, flush=True)
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stdout.flush()
    os._exit(EXIT_INTERRUPTED)


def _language_asked(argv: list[str]) -> str | None:
    """The value of the last ``--lang CODE`` or ``--lang=CODE`` before a ``--``, if any (checked
    by ``set_language``, which falls back to the system's language for an unknown one)."""
    language = None
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and index + 1 < len(argv):
            language = argv[index + 1]
        elif word.startswith("--lang="):
            language = word.partition("=")[2]
    return language


@contextlib.contextmanager
def signals_handled(handler: Callable[[int, object], None], *numbers: int) -> Iterator[None]:
    """``handler`` answers each of the signals ``numbers`` in this block, and the handlers before come
    back after it. A signal the process ignores (``nohup``, a background job's Ctrl-C) stays
    ignored; off the main thread, where no handler can be set, every signal stays as it was."""
    before: dict[int, object] = {}
    try:
        for number in numbers:
            if signal.getsignal(number) != signal.SIG_IGN:
                before[number] = signal.signal(number, handler)
    except ValueError:  # not the main thread: nothing was set
        before = {}
    try:
        yield
    finally:
        for number, previous in before.items():
            signal.signal(number, previous)  # type: ignore[arg-type]
