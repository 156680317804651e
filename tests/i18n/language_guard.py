"""The guard against a stray language: a German screen with an English word in it, or the reverse.

A screen's text (a terminal's output, the texts a window frame draws, a page's words) is cut
into words after everything that is the same in every language is taken out: the notation
(cells, moves, tiles, ``.mbg`` files), numbers, paths and addresses, command-line options,
quoted input and commands (``'moves'``), the fields of the file formats (``to-move:``, ``to_move``,
``score1``) and the players' names. What is left must hold no word of the other language's list.

The lists are common words of each language that the other does not share ("in", "an",
"was", "will", "die", "am", "Name", "Position" are words of both, so neither list has them), and the words the game
got wrong before ("beginner", "estimate", "Solved"). A test of a new front end collects its
screens as ``Screen`` objects and asserts that ``report(screens, language)`` is empty, as
``test_terminal_language`` and ``test_window_language`` do: the page's test reads each screen's
visible text (``document.body.innerText`` in headless Chromium, ``tests/web/conftest.py``) under
``?lang=de`` and ``?lang=en``, with the players' names in ``Screen.names``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from battle.online.protocol.codes import ALPHABET

_ENGLISH_WORDS_TEXT = """
    the is are not to move moves your you than left here by of with for from on at this that these
    it its be been has have had no yes were can cannot could would should must may of and or game
    games player players pair pairs tile tiles point points free file files line lines deal deals
    score scores result results win wins won lose loses lost loss draw drawn when which what who
    where why how estimate exact beginner casual club expert master perfect inaccuracy mistake
    blunder good best worse better solved unsupported locale setting depth search searching nodes
    value values takes take took play plays played playing over there their them they he she into
    out up down only each every all some any more fewer less first next new old open save
    saved load loaded show shows list error such directory permission denied exists already missing
    expected got number numbers whole give given must between after before again back undo redo
    hint eval quit help usage options optional positional command commands level
    levels unknown invalid cell cells column row rows empty twice none nothing something anything
    keep kept record records puzzle puzzles rating streak solve solution wrong right turn waiting
    wait connected away watching thinking review reviewed reviewing accuracy margin lead leads
    opponent opponents both side sides seat seats yours mine called off resignation resigned time timed
    seconds minutes hours days day week names folder input output
"""
ENGLISH_WORDS = frozenset(_ENGLISH_WORDS_TEXT.split())
"""Common English words, none of them German as well."""

_GERMAN_WORDS_TEXT = """
    der das und ist nicht mit ein eine einen einem einer zu von auf für zug züge zügen spieler
    spielerin paar paare paaren steine stein steinen frei freie freien punkte punkten punkt partie
    partien du dein deine deinen dir dich bist hier noch kein keine keinen oder wenn als datei
    dateien zeile spalte spalten stellung stellungen verteilung verteilungen gewinnt gewinnst
    gewonnen verloren unentschieden spielende reihe nimmst nimmt genommen zurück wieder tipp
    bewertung aufgabe aufgaben wertung serie lösung fehler patzer ungenauigkeit bester beste gut
    gute schätzung tiefe suche sucht knoten wert werte vorsprung gegner gegen beide seiten übrig
    leer zweimal erwartet gespeichert speichern laden geladen zeigen zeigt befehle hilfe aufruf
    optionen ordner nummer ganze zahl sekunden minuten stunden tage woche namen verbindung
    verbunden abgebrochen aufgegeben abgesagt warte wartet zuschauen denke nach nur jede jeder
    jedes alle schon gibt es sind wurde werden kann können muss darf bitte ja nein neu neues neue
"""
GERMAN_WORDS = frozenset(_GERMAN_WORDS_TEXT.split())
"""Common German words, none of them English as well."""

_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|»[^«\n]*«")
"""Quoted text: input, commands, and what another program said (German quotes SQLite's and Python's
English as »...«)."""
_ADDRESS = re.compile(r"\b(?:wss?|https?|tcp)://\S+|\S*[/\\]\S*")
_FILE_NAME = re.compile(r"\S+\.(?:mbg|mbp|png|tsv|jsonl|json|sqlite3|txt|md|po|html|js)\b")
_OPTION = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*")
_NAME_OF_A_VARIABLE = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\bX(?:-[A-Z][a-z]+)+\b")
"""``LC_ALL``, ``XDG_DATA_HOME``, an HTTP header such as ``X-Forwarded-For``: names, the same in every language."""
_IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[a-z]+[0-9]+\b")
"""A file format's key or a table's column with ``_`` or a digit in it (``to_move``, ``score1``)."""
_FIELD = re.compile(r"\b(?:to-move|score|deal|layout|player1|player2|result):")
_NOTATION = re.compile(r"\b[a-l][1-9](?:-[a-l][1-9])?\b|\b[1-9][mps]\b|\.\.|\b\d[\d.,:+\-−×x%]*")
_CODE = re.compile(rf"\b[{ALPHABET}]{{4}}-?[{ALPHABET}]{{4}}\b")
"""An invite or watch code (``BE42-7YMT``): random characters, the same in every language (its "BE"
is no English word)."""
_WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+")


@dataclass(frozen=True)
class Screen:
    """One screen's text as a reader sees it, and what on it is the same in every language."""

    name: str
    text: str
    names: tuple[str, ...] = ()
    """Players' names on the screen (as typed: "Ann", "Bob"), left out of the check."""
    literals: frozenset[str] = field(default_factory=frozenset)
    """Words typed as they are in every language on this screen ("--vs beginner"'s level names)."""


def words_of(text: str, names: Iterable[str] = (), literals: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` in a language: without notation, numbers, paths, options, quotes, names."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    for pattern in (_QUOTED, _ADDRESS, _FILE_NAME, _OPTION, _NAME_OF_A_VARIABLE, _IDENTIFIER, _FIELD, _CODE, _NOTATION):
        text = pattern.sub(" ", text)
    kept = {literal.casefold() for literal in literals}
    return [word for word in _WORD.findall(text) if word.casefold() not in kept]


def stray_words(screen: Screen, language: str) -> list[tuple[str, str]]:
    """The other language's words on a screen meant to be in ``language`` ("de" or "en"), each with
    the line it stands in."""
    foreign = ENGLISH_WORDS if language == "de" else GERMAN_WORDS
    found = []
    for line in screen.text.splitlines():
        for word in words_of(line, screen.names, screen.literals):
            if word.casefold() in foreign:
                found.append((word, line.strip()))
    return found


def report(screens: Iterable[Screen], language: str) -> str:
    """Every stray word of every screen, one line each ("" when there is none)."""
    lines = []
    for screen in screens:
        for word, line in stray_words(screen, language):
            lines.append(f"{screen.name}: {word!r} in {line[:160]!r}")
    return "\n".join(lines)
