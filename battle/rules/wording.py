"""Sentences about players and tiles: verb agreement, plurals, and tiles named in words.

A player's name is often "You" (the window's default for the human side), so a
sentence built as ``f"{name} wins"`` reads "You wins". These helpers put the verb
in the second person for "you" (in any case) and the third person for every
other name, and count nouns correctly ("1 pair", "2 pairs"). In another language the
verbs, nouns and suits the game uses come from its catalogue (``_VERBS``, ``_NOUNS``,
``_SUITS``: German "Du nimmst", "2 Paare", "5-Münze"), the others stay as written.

Tiles in prose are named in words ("5-circles"), because the notation ``1s``
reads as "one second" in a sentence such as "took 1s". The notation itself stays
in move lists, files and JSON (see the notation contract); only sentences use
these words.
"""

from __future__ import annotations

from battle.i18n import N_, NN_, NP_, _, ngettext, pgettext
from battle.rules.tiles import kind_suit, kind_value

_SECOND_PERSON_VERBS: dict[str, str] = {"is": "are", "was": "were", "has": "have", "does": "do", "goes": "go"}
"""Third-person verbs whose second-person form the regular rule below does not give."""

_SIBILANT_ENDINGS: tuple[str, ...] = ("sses", "shes", "ches", "xes", "zes", "oes")

_VERBS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "is": (NP_("you", "are"), NP_("he or she", "is")),
    "plays": (NP_("you", "play"), NP_("he or she", "plays")),
    "takes": (NP_("you", "take"), NP_("he or she", "takes")),
    "took": (NP_("you", "took"), NP_("he or she", "took")),
    "wins": (NP_("you", "win"), NP_("he or she", "wins")),
}
"""The verbs the game's sentences use, each for "you" and for another name, through the catalogue."""

_NOUNS: dict[str, tuple[str, str]] = {
    "point": NN_("{count} point", "{count} points"),
    "pair": NN_("{count} pair", "{count} pairs"),
    "tile": NN_("{count} tile", "{count} tiles"),
    "move": NN_("{count} move", "{count} moves"),
    "other move": NN_("{count} other move", "{count} other moves"),
    "game": NN_("{count} game", "{count} games"),
    "reviewed game": NN_("{count} reviewed game", "{count} reviewed games"),
    "puzzle": NN_("{count} puzzle", "{count} puzzles"),
    "deal": NN_("{count} deal", "{count} deals"),
    "catalogued deal": NN_("{count} catalogued deal", "{count} catalogued deals"),
    "day": NN_("{count} day", "{count} days"),
    "more point": NN_("{count} more point", "{count} more points"),
    "fewer point": NN_("{count} fewer point", "{count} fewer points"),
}
"""The counted nouns of the game's sentences, whose plural the catalogue's plural rule picks."""

_SUITS: dict[str, str] = {"m": N_("characters"), "p": N_("circles"), "s": N_("bamboo")}
"""The suits in words (the rule sheet's "Zahl", "Münze", "Bambus" in German)."""

_LEVELS: dict[str, tuple[str, str]] = {
    "beginner": NP_("solver level", "beginner"),
    "casual": NP_("solver level", "casual"),
    "club": NP_("solver level", "club"),
    "expert": NP_("solver level", "expert"),
    "master": NP_("solver level", "master"),
    "perfect": NP_("solver level", "perfect"),
}
"""The solver's levels in words; ``--vs``/``--level`` values, JSON and files keep the English names."""

_GRADES: dict[str, tuple[str, str]] = {
    "best": NP_("move class", "best"),
    "good": NP_("move class", "good"),
    "inaccuracy": NP_("move class", "inaccuracy"),
    "mistake": NP_("move class", "mistake"),
    "blunder": NP_("move class", "blunder"),
}
"""A review's move classes in words (``battle.players.CLASS_NAMES``); the review's JSON keeps the English."""

_DEFAULT_NAMES: dict[str, str] = {"Player 1": N_("Player 1"), "Player 2": N_("Player 2")}
"""The names a game gets when nobody types one (the terminal's, the window's in English)."""

SOLVER_NAME = "Solver ({level})"
"""The name a record gives the solver's side, with the level in English: ``Solver (club)``."""


def is_you(name: str) -> bool:
    """Whether a player's name is the second person "you" (in any case, spaces ignored)."""
    return name.strip().casefold() == "you"


def level_word(level: str) -> str:
    """A solver level's name in the player's language ("club" is "Verein" in German); an unknown
    level as given."""
    marked = _LEVELS.get(level)
    return pgettext(*marked) if marked is not None else level


def grade_word(name: str) -> str:
    """A review's class of a move ("mistake") in the player's language; an unknown class as given."""
    marked = _GRADES.get(name)
    return pgettext(*marked) if marked is not None else name


def shown_name(name: str) -> str:
    """A player's name as shown: the default "You" and the solver's ``Solver (club)`` in the player's
    language, any other name as given. A record keeps the name as stored; only the screen changes."""
    if is_you(name):
        return _("You")
    if name in _DEFAULT_NAMES:
        return _(_DEFAULT_NAMES[name])
    prefix, suffix = SOLVER_NAME.split("{level}")
    if name.startswith(prefix) and name.endswith(suffix) and len(name) > len(prefix) + len(suffix):
        return _("Solver ({level})").format(level=level_word(name[len(prefix) : -len(suffix)]))
    return name


def mention(name: str, *, start: bool = True) -> str:
    """The name as written in a sentence: "You" at the start, "you" inside, the solver with its
    level in the player's language, other names as given."""
    if is_you(name):
        return _("You") if start else pgettext("inside a sentence", "you")
    return shown_name(name)


def conjugate(name: str, third_person: str) -> str:
    """A present-tense verb, given in the third person ("takes"), agreeing with ``name``.

    Only the first word changes, so "takes back" gives "take back"; a verb that does
    not end in "s" (a past tense such as "took") is the same for every name.
    """
    forms = _VERBS.get(third_person)
    if forms is not None:
        return pgettext(*forms[0 if is_you(name) else 1])
    if not is_you(name):
        return third_person
    word, space, rest = third_person.partition(" ")
    lower = word.lower()
    if lower in _SECOND_PERSON_VERBS:
        base = _SECOND_PERSON_VERBS[lower]
    elif lower.endswith("ies") and len(lower) > 4:  # tries -> try, but dies -> die
        base = lower[:-3] + "y"
    elif lower.endswith(_SIBILANT_ENDINGS):
        base = lower[:-2]
    elif lower.endswith("s") and not lower.endswith("ss"):
        base = lower[:-1]
    else:
        base = lower
    if word[:1].isupper():
        base = capital(base)
    return base + space + rest


def verb(name: str, third_person: str, *, start: bool = True) -> str:
    """The name and its verb: ``verb("You", "takes")`` is "You take", ``verb("Alice", "takes")`` "Alice takes"."""
    return f"{mention(name, start=start)} {conjugate(name, third_person)}"


def possessive(name: str, *, start: bool = True) -> str:
    """The possessive: "Your" ("your" inside a sentence) for you, "Alice's" for Alice."""
    if is_you(name):
        return _("Your") if start else pgettext("inside a sentence", "your")
    return _("{name}'s").format(name=name)


def capital(text: str) -> str:
    """``text`` with a capital first letter, the rest as it is: the rules model's reasons and
    the network's details start in lower case, and a sentence of them does not."""
    return text[:1].upper() + text[1:]


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """A count and its noun: "1 pair", "2 pairs", "0 pairs", "-1 point"."""
    forms = _NOUNS.get(noun)
    if forms is not None and plural_form is None:
        return ngettext(*forms, abs(count)).format(count=count)
    if abs(count) == 1:
        return f"{count} {noun}"
    return f"{count} {plural_form if plural_form is not None else _plural_noun(noun)}"


def _plural_noun(noun: str) -> str:
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return noun[:-1] + "ies"
    return noun + "s"


def tile_words(kind: int) -> str:
    """A tile kind named in words for a sentence: "5-circles", "1-bamboo", "9-characters"."""
    return _("{value}-{suit}").format(value=kind_value(kind), suit=_(_SUITS[kind_suit(kind)]))


def pair_words(kind: int) -> str:
    """A pair of a kind in words: "a pair of 1-bamboo"."""
    return _("a pair of {tiles}").format(tiles=tile_words(kind))
