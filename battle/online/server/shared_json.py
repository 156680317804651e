"""JSON that other groups wrote to the shared PostgreSQL (a day's result, a lobby note or row), read
as a stranger's message is: a row or a note another machine (or anyone with the database's password)
wrote can hold anything, and one that nests 10,000 deep or holds ``Infinity`` must cost its own
reader one line in the log, never the daily table of every group or the lobby's listening task."""

from __future__ import annotations

import json


class NotSharedJson(ValueError):
    """Text that is not JSON this server reads from another group; the message says why, in one line."""


def _refuse_constant(name: str) -> object:
    raise NotSharedJson(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def read_shared_json(text: str) -> object:
    """The JSON value of ``text``; ``NotSharedJson`` for text that is not JSON, nests too deeply for
    Python's parser, or holds NaN or Infinity."""
    try:
        return _DECODER.decode(text)
    except NotSharedJson:
        raise
    except RecursionError:
        raise NotSharedJson("nested too deeply") from None
    except ValueError as error:  # json.JSONDecodeError, and int() of too many digits
        raise NotSharedJson(f"not JSON: {error}") from None
