"""Sentences about players and tiles: the player called "you", plurals, tiles named in words.

A player's name is often "You" (the window's default for the human side), so a sentence
about a player comes in two whole forms, one for "you" and one for any other name
(``about``): "You win 140-130." and "{name} wins 140-130.", each translated as a whole
("Du gewinnst", "Alice gewinnt"), because no rule can build one from the other in every
language. Counted nouns go through the catalogue's plural rule (``plural``: "1 pair",
"2 Paare"); a count inside a sentence whose noun changes with the case (German "mit 8
Punkten") is a whole ``ngettext`` sentence of its own.

Tiles in prose are named in words ("5-circles", German "Münzen-Fünf"), because the
notation ``1s`` reads as "one second" in a sentence such as "took 1s". The notation
itself stays in move lists, files and JSON (see the notation contract); only sentences
use these words.

The solver's side of a record is named ``Solver (LEVEL)`` with the level in English
(``solver_name``, read back by ``solver_level``); only the screen shows the level in the
reader's language (``shown_name``).
"""

from __future__ import annotations

import unicodedata

from battle.i18n import N_, NN_, NP_, _, ngettext, pgettext
from battle.rules.tiles import KIND_COUNT

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

SOLVER_PREFIX, SOLVER_SUFFIX = "Solver (", ")"
"""The name a record gives the solver's side is ``Solver (LEVEL)``, with the level in English."""

_TILE_NAMES: tuple[str, ...] = (
    N_("1-characters"),
    N_("2-characters"),
    N_("3-characters"),
    N_("4-characters"),
    N_("5-characters"),
    N_("6-characters"),
    N_("7-characters"),
    N_("8-characters"),
    N_("9-characters"),
    N_("1-circles"),
    N_("2-circles"),
    N_("3-circles"),
    N_("4-circles"),
    N_("5-circles"),
    N_("6-circles"),
    N_("7-circles"),
    N_("8-circles"),
    N_("9-circles"),
    N_("1-bamboo"),
    N_("2-bamboo"),
    N_("3-bamboo"),
    N_("4-bamboo"),
    N_("5-bamboo"),
    N_("6-bamboo"),
    N_("7-bamboo"),
    N_("8-bamboo"),
    N_("9-bamboo"),
)
"""The 27 kinds in words, in kind order (``m``, ``p``, ``s``; values 1-9): each a whole word of the
catalogue, since a language may name the suit first and the value in letters (German
"Münzen-Sieben", "Bambus-Eins", as the rule sheet and its sources name the tiles)."""
assert len(_TILE_NAMES) == KIND_COUNT


def is_you(name: str) -> bool:
    """Whether a player's name is the second person "you" (in any case, spaces ignored)."""
    return name.strip().casefold() == "you"


def solver_name(level: str) -> str:
    """The name a record gives the solver's side: ``Solver (club)``, in English in every language."""
    return f"{SOLVER_PREFIX}{level}{SOLVER_SUFFIX}"


LOOKALIKES = str.maketrans(
    {
        "0": "o",
        "1": "l",
        "|": "l",
        "\u0455": "s",  # Cyrillic dze
        "\ua731": "s",  # small capital s
        "\u043e": "o",  # Cyrillic o
        "\u03bf": "o",  # Greek omicron
        "\u1d0f": "o",  # small capital o
        "\u04cf": "l",  # Cyrillic palochka
        "\u029f": "l",  # small capital l
        "i": "l",  # a capital I reads as an l in sans-serif type: "SoIver" (folded to "soiver")
        "\u0456": "l",  # Cyrillic i, the same
        "\u03bd": "v",  # Greek nu
        "\u1d20": "v",  # small capital v
        "\u0435": "e",  # Cyrillic ie
        "\u03b5": "e",  # Greek epsilon
        "\u1d07": "e",  # small capital e
        "\u0280": "r",  # small capital r
        "\u0433": "r",  # Cyrillic ghe, as r in italic
    }
)
"""Letters that read as one of "solver"'s in a list of names."""


def reads_as_solver(name: str) -> bool:
    """Whether a person's ``name`` would read as the solver's side (``Solver (club)``, "SOLVER",
    "S0lver", "Ѕolver" in Cyrillic, spaced out): such a name would pass for the solver wherever
    names are listed, so a server takes none for a person."""
    folded = unicodedata.normalize("NFKC", name).casefold().translate(LOOKALIKES)
    return "".join(ch for ch in folded if ch.isalnum()).startswith("solver")


def solver_level(name: str) -> str | None:
    """The level in a name ``solver_name`` gives ("club" of ``Solver (club)``), else None."""
    if name.startswith(SOLVER_PREFIX) and name.endswith(SOLVER_SUFFIX):
        level = name[len(SOLVER_PREFIX) : -len(SOLVER_SUFFIX)]
        return level or None
    return None


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
    """A player's name as shown: the default "You", "Player 1" and the solver's ``Solver (club)`` in
    the player's language, any other name as given. A record keeps the name as stored; only the
    screen changes."""
    if is_you(name):
        return _("You")
    if name in _DEFAULT_NAMES:
        return _(_DEFAULT_NAMES[name])
    return shown_solver_name(name)


def shown_solver_name(name: str) -> str:
    """``Solver (club)`` in the player's language ("Solver (Verein)"), as the page's ``shownName``
    shows it; any other name, one of an unknown level too, as given."""
    level = solver_level(name)
    if level is None or level not in _LEVELS:
        return name
    return _("Solver ({level})").format(level=level_word(level))


def about(name: str, you: str, other: str, /, **values: object) -> str:
    """The sentence about the player ``name``: ``you`` (a whole sentence of the catalogue, already
    looked up) when the name is "you", else ``other`` with the name as shown in ``{name}``.

    ``about(name, _("You win {score}."), _("{name} wins {score}."), score="140-130")``
    """
    if is_you(name):
        return you.format(**values)
    return other.format(name=shown_name(name), **values)


def plural(count: int, noun: str) -> str:
    """A count and its noun, as a label or in the nominative: "1 pair", "2 pairs", "0 pairs"."""
    return ngettext(*_NOUNS[noun], abs(count)).format(count=count)


def tile_words(kind: int) -> str:
    """A tile kind named in words for a sentence: "5-circles", "1-bamboo", "9-characters"."""
    return _(_TILE_NAMES[kind])


def pair_words(kind: int) -> str:
    """A pair of a kind in words: "a pair of 1-bamboo"."""
    return _("a pair of {tiles}").format(tiles=tile_words(kind))


def took_sentence(name: str, move: str, kind: int, points: int) -> str:
    """What a move took, as the window says it: "You took a pair of 9-characters, a1-a2, for 9 points."."""
    return about(
        name,
        ngettext("You took {pair}, {move}, for {count} point.", "You took {pair}, {move}, for {count} points.", points),
        ngettext(
            "{name} took {pair}, {move}, for {count} point.", "{name} took {pair}, {move}, for {count} points.", points
        ),
        pair=pair_words(kind),
        move=move,
        count=points,
    )


def to_move_sentence(name: str, pairs: int) -> str:
    """Whose turn it is and how many pairs there are to take: "Ann to move: 8 pairs to choose from."."""
    return about(
        name,
        ngettext("You to move: {count} pair to choose from.", "You to move: {count} pairs to choose from.", pairs),
        ngettext(
            "{name} to move: {count} pair to choose from.", "{name} to move: {count} pairs to choose from.", pairs
        ),
        count=pairs,
    )
