"""How the Python clients (the terminal and the window) word what the server states as facts:
how a game ended (from the ``result``) and why a message was refused (from the ``error``'s
``code`` and ``params``), in the reader's language through the catalogue. The page words a game's
end in JavaScript (``battle/web/server_words.js``); a refusal's sentences are one table that the
page and this module both read (``battle/web/refusal_words.json``).

"You" is decided by seat, never by name: a player named "You" is the opponent's "You", not
the reader. Every text is a whole sentence of the catalogue with named placeholders.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from importlib import resources

from battle.i18n import WEB_CONTEXT, _, npgettext, pgettext
from battle.online.client.state_game import name_of
from battle.online.protocol.server_messages import Error, GameResult, ParamValue, State
from battle.rules.game import result_of


def your_seat(state: State | None) -> int | None:
    """The reader's seat, or None for a spectator (or no state yet)."""
    return state.you if state is not None and isinstance(state.you, int) else None


def score_text(result: GameResult, you: int | None) -> str:
    """The scores from the reader's side: their own first; seat order for a spectator."""
    first, second = result.scores
    return f"{second}-{first}" if you == 2 else f"{first}-{second}"


# -- how a game ended ------------------------------------------------------------------------


def unplayed_end(state: State, called_off_here: bool = False) -> str | None:
    """How a game that counts for nothing ended, in a sentence for the player; None for any other.
    ``called_off_here``: this client sent the ``abort`` (the server's result says only "aborted",
    so the player who pressed Abort is told it was them, the other that their opponent did or
    nobody moved in time)."""
    result = state.result
    if result is None or not result.unplayed:
        return None
    if result.reason == "expired":
        return _("Nobody joined in time: the game expired and counts for nothing.")
    if called_off_here:
        return _("You called the game off before its second move: it counts for nothing.")
    if your_seat(state) is not None:
        return _("Your opponent called the game off, or nobody moved in time: it counts for nothing.")
    return _("The game was called off (by a player, or because nobody moved in time); it counts for nothing.")


def end_cause(state: State) -> str | None:
    """How the game ended when not by the rules' end, as a sentence: "Bob resigned.", "You ran out
    of time."; None for the rules' end (no pair left) and for a game still going."""
    result = state.result
    if result is None or result.winner is None or result.reason not in ("resign", "time", "abandoned"):
        return None
    loser = 3 - result.winner
    you = your_seat(state)
    if result.reason == "resign":
        if loser == you:
            return _("You resigned.")
        return _("{name} resigned.").format(name=name_of(state, loser))
    if result.reason == "abandoned":
        if loser == you:
            return _("You did not move for too long: the game was given up for you.")
        return _("{name} did not move for too long and left the game.").format(name=name_of(state, loser))
    if loser == you:
        return _("You ran out of time.")
    return _("{name} ran out of time.").format(name=name_of(state, loser))


def end_sentence(state: State, called_off_here: bool = False) -> str:
    """The end of the game in a sentence: "You resigned; Bob wins, 40-62.", "Bob ran out of time;
    you win, 20-50.", "You win 140-130 (by 10).", "Draw, 135-135.", or how it counted for nothing."""
    result = state.result
    if result is None:
        return _("The game is over.")
    unplayed = unplayed_end(state, called_off_here)
    if unplayed is not None:
        return unplayed
    you = your_seat(state)
    score = score_text(result, you)
    winner = result.winner
    if winner is None:
        return _("Draw, {score}.").format(score=score)
    loser = 3 - winner
    names = {"winner": name_of(state, winner), "loser": name_of(state, loser), "score": score}
    if result.reason == "resign":
        if you == loser:
            return _("You resigned; {winner} wins, {score}.").format(**names)
        if you == winner:
            return _("{loser} resigned; you win, {score}.").format(**names)
        return _("{loser} resigned; {winner} wins, {score}.").format(**names)
    if result.reason == "abandoned":
        if you == loser:
            return _("You did not move for too long; {winner} wins, {score}.").format(**names)
        if you == winner:
            return _("{loser} did not move for too long; you win, {score}.").format(**names)
        return _("{loser} did not move for too long; {winner} wins, {score}.").format(**names)
    if result.reason == "time":
        if you == loser:
            return _("You ran out of time; {winner} wins, {score}.").format(**names)
        if you == winner:
            return _("{loser} ran out of time; you win, {score}.").format(**names)
        return _("{loser} ran out of time; {winner} wins, {score}.").format(**names)
    margin = result_of(list(result.scores)).margin
    if you == winner:
        return _("You win {score} (by {margin}).").format(score=score, margin=margin)
    return _("{name} wins {score} (by {margin}).").format(name=names["winner"], score=score, margin=margin)


# -- why the server refused ------------------------------------------------------------------

REFUSAL_WORDS = "refusal_words.json"
"""The table of the refusals' sentences, a file of the page (``battle/web``) that the page imports:
one table for every front end, so the page, the window and the terminal word a refusal alike."""
RESERVED_KEYS = ("say", "plural")
"""The keys of a case that are not params it asks for: its sentence, and the param that counts it."""
_FIELD = re.compile(r"\{(\w+)\}")

Case = dict[str, str | list[str]]
"""A case of the table: ``say`` (a sentence, or a singular and its plural), ``plural`` (the param
whose number picks the form and fills ``{count}``), and each param it asks for with its value."""


@dataclass(frozen=True)
class RefusalWords:
    """The table: by code, the cases tried in order; ``otherwise`` for a code none fits; ``fields``
    names each field's kind (``plural``, ``number``, ``text``, ``seat``, ``code``)."""

    fields: dict[str, str]
    codes: dict[str, list[Case]]
    otherwise: Case


@functools.cache
def refusal_words() -> RefusalWords:
    """The table as the package holds it, read once."""
    table = json.loads((resources.files("battle") / "web" / REFUSAL_WORDS).read_text(encoding="utf-8"))
    return RefusalWords(table["fields"], table["codes"], table["otherwise"])


def _number(params: dict[str, ParamValue], key: str) -> int:
    """A whole number of the refusal (a count, or seconds to wait: a wait of 2.4 s is "3 seconds", never
    a time at which asking again is refused again), as the page's ``number`` reads it."""
    value = params.get(key)
    return math.ceil(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _text(params: dict[str, ParamValue], key: str) -> str:
    value = params.get(key)
    return value if isinstance(value, str) else ""


def _field(kind: str | None, field: str, case: Case, error: Error, state: State | None) -> str | int | None:
    """A field of a case's sentence, by its kind; None when this refusal cannot fill it (a move the
    error does not name, a seat the reader's game does not)."""
    params = error.params
    if kind == "plural":
        return _number(params, str(case.get("plural", "")))
    if kind == "number":
        return _number(params, field)
    if kind == "text":
        return _text(params, field) or None
    if kind == "seat":
        seat = _number(params, "seat")
        return name_of(state, seat) if state is not None and seat in (1, 2) else None
    return error.code.value if kind == "code" else None


def _sentence(case: Case, error: Error, state: State | None) -> str | None:
    """A case's sentence in the reader's language; None when the case does not fit: a param it asks
    for has another value, or a field of its sentence cannot be filled."""
    if any(error.params.get(key) != value for key, value in case.items() if key not in RESERVED_KEYS):
        return None
    say = case["say"]
    forms = [say] if isinstance(say, str) else say
    kinds = refusal_words().fields
    values: dict[str, str | int] = {}
    for field in _FIELD.findall(" ".join(forms)):
        value = _field(kinds.get(field), field, case, error, state)
        if value is None:
            return None
        values[field] = value
    if "plural" in case:
        count = _number(error.params, str(case["plural"]))
        return npgettext(WEB_CONTEXT, forms[0], forms[1], count).format(**values)
    return pgettext(WEB_CONTEXT, forms[0]).format(**values)


def refusal_text(error: Error, state: State | None = None) -> str:
    """Why the server refused a message, in a sentence in the reader's language: the first case of
    its code in the table that fits, else the table's ``otherwise`` (``state`` names the seat to
    move for ``not_your_turn``). The sentences are the page's catalogue entries (context ``web``),
    so each has one translation."""
    words = refusal_words()
    for case in [*words.codes.get(error.code.value, []), words.otherwise]:
        said = _sentence(case, error, state)
        if said is not None:
            return said
    return error.code.value  # ``otherwise`` always fits
