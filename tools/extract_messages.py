"""Extract every translatable text into ``battle/locale/mahjong_battle.pot`` and merge it into
each language's ``.po`` with Babel: run after adding or changing a text the player reads.

    python tools/extract_messages.py           # extract, then update every .po
    python tools/extract_messages.py --check   # exit 1 when a text of the game is missing from the .pot

The sources are the game's Python (``_``, ``N_``, ``ngettext``, ``pgettext`` and the wording
markers ``NP_``, ``NN_``), the browser client's JavaScript (``t``, ``tn``), its page (every
text and ``placeholder``/``aria-label``/``title`` of ``battle/web/index.html``) and its table of
the server's refusals (``battle/web/refusal_words.json``, which the window reads too), and the standard
library's ``argparse``, whose own words (``usage:``, ``options``, its error lines) the command line
shows through the same catalogue. New entries arrive empty in each ``.po`` (never guessed: no
fuzzy matching), and a test fails until they are translated.
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import sys
import tempfile
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import IO

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "battle" / "locale"
TEMPLATE = LOCALE_DIR / "mahjong_battle.pot"
DOMAIN = "mahjong_battle"
KEYWORDS = {
    "_": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "NP_": ((1, "c"), 2),
    "NN_": (1, 2),
    "t": None,
    "tn": (1, 2),
}
COMMENT_TAGS = ("TRANSLATORS:",)
PAGE_FOLDER = "battle/web/"
PAGE_CONTEXT = "web"
"""Every text of the browser page is its own entry, in this context: the page's words are chosen by
it (``battle.i18n.web_messages``), and a text the page shares with the window can be worded for
each on its own. The refusals' table is the one file of the page that the window reads too, in
this same context, so that its sentences have one translation for every front end."""
PAGE_ATTRIBUTES = ("placeholder", "aria-label", "title")
"""The attributes of the page a reader sees or hears (a screen reader reads ``aria-label``)."""


class _PageTexts(HTMLParser):
    """The texts of an HTML page as (line, text): each text between tags and the read attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[int, str]] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skipping += 1
        for name, value in attrs:
            if name in PAGE_ATTRIBUTES and value and any(letter.isalpha() for letter in value):
                self.found.append((self.getpos()[0], value.strip()))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skipping:
            self._skipping -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skipping and sum(letter.isalpha() for letter in text) >= 2:
            self.found.append((self.getpos()[0], text))


def extract_html(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: object
) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extraction method for the browser client's page (``battle/web/i18n.js`` translates
    the same texts and attributes in the browser)."""
    parser = _PageTexts()
    parser.feed(fileobj.read().decode("utf-8"))
    for line, text in parser.found:
        yield line, "", text, []


def extract_refusal_words(
    fileobj: IO[bytes], keywords: object, comment_tags: object, options: object
) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """Babel's extraction method for the refusals' table (``battle/web/refusal_words.json``): each
    case's ``say``, a sentence or a singular and its plural. The page reads it with ``t`` and ``tn``
    and the window with ``pgettext`` and ``npgettext``, both in the page's context, so each sentence
    is one entry with one translation."""
    text = fileobj.read().decode("utf-8")
    table = json.loads(text)
    rows = text.splitlines()
    for case in [*(case for cases in table["codes"].values() for case in cases), table["otherwise"]]:
        say = case["say"]
        first = json.dumps(say if isinstance(say, str) else say[0], ensure_ascii=False)
        line = next((number for number, row in enumerate(rows, 1) if first in row), 0)
        if isinstance(say, str):
            yield line, "_", say, []
        else:
            yield line, "ngettext", (say[0], say[1]), []


METHODS = [
    ("battle/web/refusal_words.json", extract_refusal_words),
    ("battle/web/**.html", extract_html),
    ("battle/web/**.js", "javascript"),
    ("battle/**.py", "python"),
]


def _kept_creation_date() -> datetime.datetime | None:
    """The kept template's date, so that extracting again changes no header line."""
    if not TEMPLATE.exists():
        return None
    with open(TEMPLATE, "rb") as handle:
        return read_po(handle).creation_date


def _template() -> Catalog:
    """The catalogue of every text in the code, each with where it is."""
    catalogue = Catalog(project="mahjong-battle", domain=DOMAIN, fuzzy=False, creation_date=_kept_creation_date())
    found = [
        (str(Path("battle") / name), line, message, comments, context)
        for name, line, message, comments, context in extract_from_dir(
            str(ROOT / "battle"),
            [(pattern.removeprefix("battle/"), method) for pattern, method in METHODS],
            keywords=KEYWORDS,
            comment_tags=COMMENT_TAGS,
            strip_comment_tags=True,
        )
    ]
    found += [
        ("argparse.py", line, message, comments, context)
        for line, message, comments, context in extract_from_file("python", argparse.__file__, keywords=KEYWORDS)
    ]
    for name, line, message, comments, context in found:
        if name.startswith(PAGE_FOLDER):
            context = PAGE_CONTEXT
        catalogue.add(message, None, [(name, line)], auto_comments=comments, context=context)
    return catalogue


def _write(catalogue: Catalog, path: Path, *, template: bool) -> str:
    """Write ``catalogue`` sorted by message, each with the files it comes from but no line
    numbers, so that a change of code moves no entry and two branches that add texts merge."""
    buffer = io.BytesIO()
    write_po(
        buffer,
        catalogue,
        width=0,
        sort_output=True,
        include_lineno=False,
        omit_header=template,
        ignore_obsolete=True,
    )
    text = buffer.getvalue().decode("utf-8")
    path.write_text(text, encoding="utf-8")
    return text


def extract(output: Path) -> str:
    """Write the template of the texts in the code to ``output`` and return it."""
    return _write(_template(), output, template=True)


def _game_messages(template: str) -> set[object]:
    """The message ids of the game's own files (argparse's differ from one Python to the next)."""
    messages = read_po(io.StringIO(template))
    return {
        message.id
        for message in messages
        if message.id and any(path.startswith("battle/") for path, _ in message.locations)
    }


def _update(catalogue: Catalog, template: Catalog) -> None:
    """Bring ``catalogue`` to ``template``'s messages. Its ``POT-Creation-Date`` moves only when the
    texts do: the template is kept without a header, so its date is the moment of this run, and
    a run that changed no text would otherwise still change the catalogue's header."""
    before = catalogue.creation_date
    texts = {message.id for message in catalogue if message.id}
    catalogue.update(template, no_fuzzy_matching=True)
    if {message.id for message in catalogue if message.id} == texts:
        catalogue.creation_date = before


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the kept .pot; change nothing")
    options = parser.parse_args(argv)
    if options.check:
        with tempfile.TemporaryDirectory() as folder:
            fresh = extract(Path(folder) / "fresh.pot")
        kept = TEMPLATE.read_text(encoding="utf-8") if TEMPLATE.exists() else ""
        if _game_messages(fresh) != _game_messages(kept):
            print(f"{TEMPLATE.relative_to(ROOT)} is out of date: run python tools/extract_messages.py")
            return 1
        return 0
    template = _template()
    _write(template, TEMPLATE, template=True)
    catalogues = sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    for path in catalogues:
        with open(path, "rb") as handle:
            catalogue = read_po(handle, locale=path.parent.parent.name, domain=DOMAIN)
        _update(catalogue, template)
        _write(catalogue, path, template=False)
    print(f"wrote {TEMPLATE.relative_to(ROOT)} and updated {len(catalogues)} catalogue(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
