"""Rebuild ``assets/fonts/NotoSansSC-subset.otf`` from the system Noto Sans CJK.

The full CJK collection is ~20 MB; the tiles need a dozen ideographs, so we ship a
subset of a few kilobytes instead.  Run from anywhere:

    python tools/make_font_subset.py [SOURCE.ttc] [--font-number N]

The defaults match Debian's ``fonts-noto-cjk`` package.  The face is looked up by
name ("Noto Sans CJK SC Bold") so a collection with a different face order still
works; ``--font-number`` overrides that.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")
DEFAULT_OUTPUT = ROOT / "assets" / "fonts" / "NotoSansSC-subset.otf"
WANTED_FACE = "Noto Sans CJK SC Bold"

#: The numerals 1-9, 萬 (characters suit), and the game's name (麻将 / 麻雀) for titles.
CJK_TEXT = "一二三四五六七八九萬麻将雀"
#: Printable ASCII and Latin-1, for corner digits, labels and titles in German ("Schließen",
#: "Übersicht"), with the dashes and quotation marks the catalogues use („ “ ‘ ’ – — …).
LATIN_RANGE = "U+0020-007E,U+00A0-00FF,U+2013,U+2014,U+2018,U+2019,U+201C,U+201D,U+201E,U+2026"
#: Keep copyright, licence and description strings so the OFL notice travels with the file.
NAME_IDS = "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14"


def find_face(source: Path, wanted: str = WANTED_FACE) -> int:
    """Return the index of ``wanted`` in a .ttc, because face order differs by packager."""
    collection = TTCollection(str(source), lazy=True)
    names = []
    for index, font in enumerate(collection.fonts):
        name = font["name"].getDebugName(4)
        names.append(name)
        if name == wanted:
            return index
    raise SystemExit(f"{wanted!r} not found in {source}; faces: {names}")


def subset_args(source: Path, output: Path, font_number: int) -> list[str]:
    """The pyftsubset command line, kept in one place so README and script agree."""
    return [
        str(source),
        f"--font-number={font_number}",
        f"--text={CJK_TEXT}",
        f"--unicodes={LATIN_RANGE}",
        f"--name-IDs={NAME_IDS}",
        "--desubroutinize",
        f"--output-file={output}",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--font-number", type=int, default=None)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    options = parser.parse_args(argv)

    if not options.source.exists():
        raise SystemExit(f"font collection not found: {options.source} (apt-get install fonts-noto-cjk)")
    font_number = options.font_number
    if font_number is None:
        font_number = find_face(options.source) if options.source.suffix.lower() in {".ttc", ".otc"} else 0

    options.output.parent.mkdir(parents=True, exist_ok=True)
    args = subset_args(options.source, options.output, font_number)
    print("pyftsubset " + " ".join(shlex.quote(arg) for arg in args))
    subset.main(args)
    print(f"wrote {options.output} ({options.output.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
