"""The online setup form's choices and how its fields are read: the server address, the invite
code, and the ``create`` message a host sends (docs/protocol.md).

Pure functions, no pygame: each reader returns the value the protocol wants or raises
``FormProblem`` with the one line the screen shows, naming the field and what is wrong.
"""

from __future__ import annotations

import time
from urllib.parse import urlsplit

from battle.i18n import N_, _, ngettext
from battle.online.client.seats import Seat
from battle.online.protocol.codes import normalise_code
from battle.online.protocol.messages import Create, First, Join, NumberedDeal, RandomDeal, Watch
from battle.rules.deal import parse_deal_number
from battle.rules.errors import BattleError, quote
from battle.rules.wording import is_you
from battle.ui.files.settings import DEFAULT_SERVER
from battle.ui.online.online_state import server_label

FIRST_CHOICES: dict[str, First] = {
    N_("You move first"): "creator",
    N_("Opponent moves first"): "joiner",
    N_("Random order"): "random",
}
"""The form's labels for the protocol's ``first``."""
TIME_CHOICES: dict[str, int | None] = {
    N_("No time limit"): None,
    N_("30 s a move"): 30,
    N_("1 min a move"): 60,
    N_("5 min a move"): 300,
    N_("1 day a move"): 86400,
}
"""The form's labels for ``move_seconds``: a quick game to a correspondence game. The labels of both
lists are English keys, shown and read back through the catalogue (``_(label)``)."""
MAX_NAME = 40
"""The server keeps 40 characters of a name."""


class FormProblem(ValueError):
    """A field that does not read; the message is one line for the status."""


def read_address(text: str) -> str:
    """A server address as typed, checked: ``ws://`` or ``wss://``, a host, a port if any that is one."""
    typed = text.strip()
    if not typed:
        raise FormProblem(
            _("Server: type the server's address, such as {DEFAULT_SERVER}.").format(DEFAULT_SERVER=DEFAULT_SERVER)
        )
    try:
        parts = urlsplit(typed)
        port = parts.port
    except ValueError as error:
        raise FormProblem(
            _("Server: {quote} is not an address ({error}).").format(quote=quote(typed, 60), error=error)
        ) from None
    if parts.scheme.lower() not in ("ws", "wss"):
        raise FormProblem(
            _("Server: {quote} is not a ws:// or wss:// address (such as {DEFAULT_SERVER}).").format(
                quote=quote(typed, 60), DEFAULT_SERVER=DEFAULT_SERVER
            )
        )
    if not parts.hostname:
        raise FormProblem(
            _("Server: {quote} names no host (such as {DEFAULT_SERVER}).").format(
                quote=quote(typed, 60), DEFAULT_SERVER=DEFAULT_SERVER
            )
        )
    if port == 0:
        raise FormProblem(_("Server: {quote} has port 0, which no server listens on.").format(quote=quote(typed, 60)))
    return typed


def read_code(text: str, what: str = N_("Invite code")) -> str:
    """An invite (or watch) code as typed (any case, with or without its dash, I/L for 1 and O
    for 0), canonical; ``what`` names it in a problem."""
    if not text.strip():
        whose = _("your opponent gave you") if what == "Invite code" else _("a player gave you")
        raise FormProblem(_("{what}: type the code {whose}, such as K7QM-2XPD.").format(what=_(what), whose=whose))
    try:
        return normalise_code(text)
    except ValueError as error:
        raise FormProblem(f"{what}: {error}.") from None


def name_to_send(text: str) -> str | None:
    """The name the server gets: the typed one, or none ("Player 1") for an empty one or "You",
    which would read as the opponent themself on their screen."""
    name = " ".join(text.split())[:MAX_NAME]
    return None if not name or is_you(name) else name


def read_deal(text: str) -> NumberedDeal | RandomDeal:
    """The ``deal`` of a ``create``: a numbered deal, or a random one for an empty field."""
    if not text.strip():
        return RandomDeal()
    try:
        return NumberedDeal(parse_deal_number(text))
    except BattleError as error:
        raise FormProblem(_("Deal number: {error}.").format(error=error)) from None


def create_message(deal_text: str, first_label: str, time_label: str, lose_on_time: bool, name: str | None) -> Create:
    """The ``create`` a host sends for the form's values."""
    move_seconds = TIME_CHOICES.get(time_label)
    return Create(
        deal=read_deal(deal_text),
        first=FIRST_CHOICES.get(first_label, "random"),
        move_seconds=move_seconds,
        lose_on_time=lose_on_time and move_seconds is not None,
        name=name or None,
    )


def join_message(code: str, name: str | None) -> Join:
    return Join(code, name or None)


def watch_message(code: str) -> Watch:
    return Watch(code)


def kept_game_line(seat: Seat, now: float | None = None) -> str:
    """One kept game in a line: "Bob · 127.0.0.1:8765 · in play, 2 days ago"."""
    return f"{kept_game_title(seat)} · {kept_game_details(seat, now)}"


def kept_game_title(seat: Seat) -> str:
    """Whom the kept game is against."""
    return seat.opponent or _("no opponent yet")


def kept_game_details(seat: Seat, now: float | None = None) -> str:
    """Where the kept game is and how it stands: "127.0.0.1:8765 · in play, 2 days ago"."""
    if seat.finished:
        status = _("finished")
    elif seat.opponent:
        status = _("in play")
    else:
        status = _("waiting for an opponent")
    age = age_text(seat.updated, now)
    return f"{server_label(seat.url)} · {status}" + (f", {age}" if age else "")


def age_text(updated: float, now: float | None = None) -> str:
    """ "3 h ago" for the last time a kept game was seen; "" for just now or never."""
    if updated <= 0:
        return ""
    seconds = (time.time() if now is None else now) - updated
    if seconds >= 86400:
        count = int(seconds // 86400)
        return ngettext("{count} day ago", "{count} days ago", count).format(count=count)
    if seconds >= 3600:
        return _("{count} h ago").format(count=int(seconds // 3600))
    if seconds >= 60:
        return _("{count} min ago").format(count=int(seconds // 60))
    return ""
