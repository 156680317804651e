"""Server groups: the machines one game service spreads over, each holding its own games.

A group is one machine's ``serve --group NAME`` (its processes, its database, its solver pool). A
connection's address names the group it wants with the query parameter ``at``
(``wss://games.example.org/?at=b``); the proxy in front sends it to that group, and a connection
without it to any. A group that is asked for a game another group holds answers ``elsewhere``
with that group's name, and the client connects again with ``?at=NAME`` and asks again.

The processes of one group (``serve --processes N``) are places of the same kind: ``at`` names one
as ``NAME.I`` (``I`` from 0), or as ``I`` alone on a server of no group, and the server's supervisor
sends a connection that names one to it. So a game another process holds is answered ``elsewhere``
just the same: the clients follow ``at`` without looking inside it.

Shared by the server (which checks its ``--group``) and the clients (which follow ``elsewhere``).
Pure: no sockets.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from battle.rules.errors import quote

GROUP_PARAMETER = "at"
"""The query parameter of a connection's address that names its group."""
GROUP_NAME_LENGTH = 32
"""Characters a group's name has at most: a word in an nginx ``map`` and a URL."""
_GROUP_NAME = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?")
FOLLOWS_IN_A_ROW = 3
"""``elsewhere`` answers a client follows before a state: two groups that each name the other (a
directory being changed) end the attempt instead of bouncing the client between them."""


def check_group_name(text: str) -> str:
    """``text`` as a group's name (lower-case letters, digits and inner dashes, 1 to 32); ``ValueError``
    quoting it otherwise."""
    if len(text) > GROUP_NAME_LENGTH or _GROUP_NAME.fullmatch(text) is None:
        raise ValueError(
            f"{quote(text, 40)} is not a group name: 1 to {GROUP_NAME_LENGTH} lower-case letters, digits "
            "and dashes inside, like b or eu-2"
        )
    return text


PROCESS_MARK = "."
"""What parts a group's name from its process's index in ``at`` (``b.1``): never in a group's name."""


def place_at(group: str | None, process: int) -> str:
    """The ``at`` that names process ``process`` of group ``group`` (None: a server of no group)."""
    return f"{group}{PROCESS_MARK}{process}" if group else str(process)


def process_at(at: str | None, group: str | None, count: int) -> int | None:
    """The process (0 to ``count`` - 1) that ``at`` names on a server of group ``group`` (None: of no
    group) and ``count`` processes; None when it names none of them (a group alone, another group's,
    a number past the last, nonsense)."""
    if at is None:
        return None
    if group:
        name, mark, index = at.rpartition(PROCESS_MARK)
        if not mark or name != group:
            return None
    else:
        index = at
    if not index.isascii() or not index.isdigit() or len(index) > 4:
        return None
    number = int(index)
    return number if number < count else None


def url_at(url: str, group: str) -> str:
    """``url`` (``ws://``, ``wss://``, ``http(s)://``) with its ``at`` parameter naming ``group``; the
    other parameters and the path are kept."""
    parts = urlsplit(url)
    query = [(key, value) for key, value in parse_qsl(parts.query, keep_blank_values=True) if key != GROUP_PARAMETER]
    query.append((GROUP_PARAMETER, group))
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/", urlencode(query), parts.fragment))


def group_of_url(url: str) -> str | None:
    """The group ``url`` names with ``at``, or None."""
    for key, value in parse_qsl(urlsplit(url).query, keep_blank_values=True):
        if key == GROUP_PARAMETER:
            return value
    return None
