"""What the window reads from an online game's ``state`` (docs/protocol.md) beyond the Game
itself (``battle.online.client.state_game``): who is who, who is there, whose question is open, and
how the game ended, in the window's words.

Pure functions of the typed ``State``: no pygame and no network, so the waiting room, the
game screen and its result card say the same things, and the tests check them alone.
"""

from __future__ import annotations

import contextlib
from urllib.parse import urlsplit

from battle.i18n import _, ngettext
from battle.online.client.offer_news import OfferNews
from battle.online.client.state_game import name_of, server_moves
from battle.online.client.wording import end_sentence
from battle.online.protocol.server_messages import Presence, State
from battle.rules.board import Move, parse_move
from battle.rules.errors import BattleError
from battle.rules.game import Game
from battle.rules.wording import pair_words, plural, took_sentence

# -- who is who ------------------------------------------------------------------------------


def seat_of(state: State) -> int | None:
    """The window's seat, 1 or 2 (None for a spectator)."""
    return state.you if isinstance(state.you, int) else None


def opponent_of(state: State) -> int:
    """The other seat (seat 2 for a spectator, who sees seat 1 as the near side)."""
    return 3 - (seat_of(state) or 1)


def presence_of(state: State, seat: int) -> Presence:
    """``connected``, ``away`` or ``open`` (nobody holds the seat yet)."""
    return state.presence(seat)


# -- the game --------------------------------------------------------------------------------


def expected_moves(state: State, pending: list[tuple[str, str]]) -> list[Move]:
    """The moves the window shows: the server's, and the player's own move while it is on its way.

    At most one move can be on its way (the turn passes with it). The server's ``state`` still has
    the player to move until it applies that move, so the move counts only then: afterwards the
    server's moves hold it already, and a refused move leaves ``pending`` (and the board) again.
    """
    moves = server_moves(state)
    if pending and state.status == "playing" and state.to_move == seat_of(state):
        with contextlib.suppress(BattleError):  # not a move: the server refuses it, the board ignores it
            moves.append(parse_move(pending[0][1]))
    return moves


def common_prefix(first: list[Move], second: list[Move]) -> int:
    """How many moves two histories share from the start."""
    count = 0
    for a, b in zip(first, second, strict=False):
        if a != b:
            break
        count += 1
    return count


def last_mover(state: State, game: Game) -> int | None:
    """The seat that made the server's last move (``game`` gives who moved first), or None before any."""
    ply = state.ply
    return game.mover_of(ply - 1) if ply else None


# -- questions and the end -------------------------------------------------------------------


def open_question(state: State) -> str | None:
    """What the opponent asks of the window's player: ``"takeback"``, ``"rematch"`` or None."""
    you = seat_of(state)
    offers = state.offers
    if you is None:
        return None
    if offers.takeback == 3 - you and state.status == "playing":
        return "takeback"
    if offers.rematch == 3 - you and state.status == "finished" and state.rematch is None:
        return "rematch"
    return None


def describe_end(state: State, called_off_here: bool = False) -> str:
    """The end in a sentence: "Bob resigned; you win, 40-62." or "You win 140-130 (by 10)."
    (``called_off_here``: this window sent the game's ``abort``)."""
    return end_sentence(state, called_off_here)


def took_text(state: State, mover: int, move: str, kind: int, points: int) -> str:
    """What a move took, the window's own ("You took ...") told by seat, never by name."""
    if mover == seat_of(state):
        return took_sentence("You", move, kind, points)
    return ngettext(
        "{name} took {pair}, {move}, for {count} point.", "{name} took {pair}, {move}, for {count} points.", points
    ).format(name=name_of(state, mover), pair=pair_words(kind), move=move, count=points)


# -- words for the screens -------------------------------------------------------------------


def server_label(url: str) -> str:
    """``host:port`` of a server address, for the panel and the lists."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or url
        port = parts.port
    except ValueError:
        return url
    return f"{host}:{port}" if port else host


def clock_text(seconds: float) -> str:
    """Time left on a move: "0:41", "4:05", "23:59:10"."""
    whole = max(0, int(seconds + 0.999))  # 0.2 s left still shows 0:01: the move is not yet late
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def game_terms(state: State) -> str:
    """What was agreed for the game: "Deal 5 · 1 min a move, lose on time", "a composed start · no time limit"."""
    deal = state.deal
    start = _("Deal {deal}").format(deal=deal) if deal is not None else _("a composed start")
    return f"{start} · {time_option_text(state.move_seconds, state.lose_on_time)}"


def time_option_text(move_seconds: object, lose_on_time: object) -> str:
    """The game's time limit in words: "1 min a move, lose on time", "no time limit"."""
    if not isinstance(move_seconds, int) or move_seconds <= 0:
        return _("no time limit")
    if move_seconds % 86400 == 0:
        limit = plural(move_seconds // 86400, "day")
    elif move_seconds % 3600 == 0:
        limit = f"{move_seconds // 3600} h"
    elif move_seconds % 60 == 0:
        limit = _("{value} min").format(value=move_seconds // 60)
    else:
        limit = f"{move_seconds} s"
    if lose_on_time:
        return _("{limit} a move, lose on time").format(limit=limit)
    return _("{limit} a move").format(limit=limit)


# -- news ------------------------------------------------------------------------------------


def news_line(item: OfferNews, state: State) -> tuple[str, str] | None:
    """The status line's words for ``item`` and their kind, or None for news the window does not
    word: its own questions and answers (it said them when sent), and a granted takeback (the
    game screen words it with the moves it takes off). A spectator hears who comes and goes."""
    if not _worded_here(item, state):
        return None
    coming_and_going = item.kind in ("away", "back", "joined")
    name = name_of(state, item.seat if coming_and_going else opponent_of(state))
    return {
        "takeback_asked": (
            _("{name} asks to take back their last move: Y lets them, N says no.").format(name=name),
            "warn",
        ),
        "takeback_refused": (_("{name} said no to the takeback.").format(name=name), "info"),
        "takeback_overtaken": (_("{name} moved instead: no takeback.").format(name=name), "info"),
        "rematch_offered": (
            _("{name} offers a rematch, the same deal with the sides swapped: Y accepts.").format(name=name),
            "warn",
        ),
        "rematch_declined": (_("{name} turned down the rematch.").format(name=name), "info"),
        "away": (_("{name} is away: the game waits for them.").format(name=name), "quiet"),
        "back": (_("{name} is back.").format(name=name), "info"),
        "joined": (_("{name} joined.").format(name=name), "info"),
    }.get(item.kind)


def _worded_here(item: OfferNews, state: State) -> bool:
    you = seat_of(state)
    if item.kind in ("away", "back", "joined"):
        return you is None or item.seat == opponent_of(state)
    if you is None or item.kind == "takeback_granted":
        return False
    return item.seat == (opponent_of(state) if item.kind in ("takeback_asked", "rematch_offered") else you)
