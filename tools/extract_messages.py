"""Extract every translatable text into ``battle/locale/mahjong_battle.pot`` and merge it into
each language's ``.po`` with Babel: run after adding or changing a ``_("...")``.

    python tools/extract_messages.py           # extract, then update every .po
    python tools/extract_messages.py --check   # exit 1 when a text of the game is missing from the .pot

The sources are the game (``battle/``) and the standard library's ``argparse``, whose own
words (``usage:``, ``options``, its error lines) the command line shows through the same
catalogue. New entries arrive empty in each ``.po`` (never guessed: no fuzzy matching), and a
test fails until they are translated.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
import tempfile
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "battle" / "locale"
TEMPLATE = LOCALE_DIR / "mahjong_battle.pot"
DOMAIN = "mahjong_battle"
KEYWORDS = ("_", "N_", "ngettext:1,2", "pgettext:1c,2", "NP_:1c,2", "NN_:1,2")


def extract_args(output: Path) -> list[str]:
    """The ``pybabel extract`` command line, in one place so the check and the update agree."""
    keywords = [arg for keyword in KEYWORDS for arg in ("-k", keyword)]
    return ["pybabel", "-q", "extract", "--no-default-keywords", *keywords, "--sort-by-file", "--omit-header",
            "--no-wrap", "--add-comments=TRANSLATORS:", "--project=mahjong-battle", "-o", str(output),
            "battle", argparse.__file__]


def _relative(text: str) -> str:
    """The template with argparse named by its file's name alone, the same on every machine."""
    return re.sub(r"^#: \S*argparse\.py:", "#: argparse.py:", text, flags=re.MULTILINE)


def extract(output: Path) -> str:
    """Write the template of the texts in the code to ``output`` and return it."""
    previous = os.getcwd()
    os.chdir(ROOT)  # locations relative to the checkout
    try:
        CommandLineInterface().run(extract_args(output))
    finally:
        os.chdir(previous)
    text = _relative(output.read_text(encoding="utf-8"))
    output.write_text(text, encoding="utf-8")
    return text


def _game_messages(template: str) -> set[object]:
    """The message ids of the game's own files (argparse's differ from one Python to the next)."""
    messages = read_po(io.StringIO(template))
    return {message.id for message in messages
            if message.id and any(path.startswith("battle/") for path, _ in message.locations)}


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
    extract(TEMPLATE)
    for po in sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        CommandLineInterface().run(["pybabel", "-q", "update", "--no-fuzzy-matching", "--no-wrap", "--omit-header",
                                    "-i", str(TEMPLATE), "-o", str(po), "-l", po.parent.parent.name, "-D", DOMAIN])
    print(f"wrote {TEMPLATE.relative_to(ROOT)} and updated "
          f"{len(list(LOCALE_DIR.glob(f'*/LC_MESSAGES/{DOMAIN}.po')))} catalogue(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
