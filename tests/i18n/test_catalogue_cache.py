"""The compiled catalogue in the cache folder is read as any file the program did not write this run:
a damaged, special or huge file there never stops, hangs or fills a start; it is compiled again
from the ``.po`` with one line on stderr. A translation that names a field its English text lacks
is never shown (it would raise where the text is formatted): it is dropped when its catalogue loads.

The commands run as a player runs them (``python -m battle``, German locale, a private cache
folder); the window's start is in ``tests/ui/test_ui_language.py``.
"""

from __future__ import annotations

import io
import os
import random
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from battle import i18n

ROOT = Path(__file__).resolve().parents[2]
GERMAN_PO = i18n.LOCALE_DIR / "de" / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
MO_MAGIC = b"\xde\x12\x04\x95"


def cached_catalogue(cache_home: Path) -> Path:
    """Where a start with ``XDG_CACHE_HOME=cache_home`` keeps the compiled German catalogue."""
    import hashlib

    digest = hashlib.sha256(GERMAN_PO.read_bytes()).hexdigest()[:20]
    return cache_home / "mahjong-battle" / "locale" / f"de-{digest}.mo"


def german_mo(change: Callable[[object], None] | None = None) -> bytes:
    """The German catalogue compiled with Babel, after ``change`` (given the Babel catalogue) if any."""
    with open(GERMAN_PO, "rb") as handle:
        messages = read_po(handle, locale="de", domain=i18n.DOMAIN)
    if change is not None:
        change(messages)
    compiled = io.BytesIO()
    write_mo(compiled, messages, use_fuzzy=False)
    return compiled.getvalue()


def with_unknown_field(messages) -> None:  # noqa: ANN001 - a Babel catalogue
    """argparse's "unrecognized arguments: %s" and the rules page's text size, each naming a field
    their English text lacks: well-formed, and a ``KeyError`` (a ``TypeError``) where shown."""
    messages.get("unrecognized arguments: %s").string = "unbekannte Argumente: %(xargs)s"
    messages.get("Text size {percent}%").string = "Schriftgröße {xpercent} %"


def flipped_charset(path: Path) -> None:
    path.write_bytes(german_mo().replace(b"charset=utf-8", b"charset=utf-9", 1))


def fifo(path: Path) -> None:
    os.mkfifo(path)


def device_by_link(path: Path) -> None:
    path.symlink_to("/dev/zero")


def sparse_file(path: Path) -> None:
    """Far over the cap and no disk used: refused by its size, never read (256 MiB: a start that
    reads it whole takes a moment, not the machine's memory)."""
    with open(path, "wb") as handle:
        handle.truncate(256 << 20)


def unknown_field(path: Path) -> None:
    path.write_bytes(german_mo(with_unknown_field))


def folder(path: Path) -> None:
    path.mkdir()


MEMORY_LIMIT = 1 << 30
"""Address space a start may take here (it needs about 0.3 GB): a start that reads ``/dev/zero`` fails
at this, not at the machine's memory."""


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def german_start(cache_home: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``python -m battle ARGV`` on a German system with its cache folder at ``cache_home``."""
    env = {name: value for name, value in os.environ.items() if name not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(LANG="de_DE.UTF-8", NO_COLOR="1", XDG_CACHE_HOME=str(cache_home), PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "battle", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
        preexec_fn=_limit_memory,
    )


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (flipped_charset, ": LookupError: unknown encoding: utf-9"),
        (fifo, " is not a regular file (a FIFO, a device or a socket): nothing is read from it"),
        (device_by_link, " is not a regular file (a FIFO, a device or a socket): nothing is read from it"),
        (sparse_file, f": {256 << 20} bytes, larger than the {i18n.CATALOGUE_LIMIT} a file of this kind has"),
        (unknown_field, ": the translation of "),
        (folder, " is a folder: nothing is read from it"),
    ],
    ids=lambda value: getattr(value, "__name__", ""),
)
def test_a_damaged_cached_catalogue_is_compiled_again_with_one_line(
    tmp_path: Path, damage: Callable[[Path], None], said: str
) -> None:
    cached = cached_catalogue(tmp_path / "cache")
    cached.parent.mkdir(parents=True)
    damage(cached)
    started = german_start(tmp_path / "cache", "deal", "1", "--bogus")
    assert started.returncode == 2, started.stderr[-2000:]
    line, error = started.stderr.splitlines()
    assert line.startswith(f"mahjong-battle: {cached}{said}"), line
    assert line.endswith(f"; der Katalog wird neu aus {GERMAN_PO} kompiliert"), line
    assert error == "mahjong-battle: deal: unbekannte Argumente: '--bogus' (siehe mahjong-battle deal --help)"
    if damage is folder:  # nothing to write over: every start compiles it, and says so
        return
    assert cached.is_file() and not cached.is_symlink() and cached.read_bytes()[:4] == MO_MAGIC
    again = german_start(tmp_path / "cache", "--help")
    assert again.returncode == 0 and again.stderr == "" and again.stdout.startswith("Aufruf: mahjong-battle")


def test_a_translation_naming_a_field_its_english_lacks_is_shown_in_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / f"{i18n.DOMAIN}.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\n'
        'msgid "Text size {percent}%"\nmsgstr "Schriftgröße {xpercent} %"\n\n'
        'msgid "{count} pair"\nmsgid_plural "{count} pairs"\n'
        'msgstr[0] "ein Paar"\nmsgstr[1] "{count} Paare {extra}"\n\n'
        'msgid "expected %s argument"\nmsgid_plural "expected %s arguments"\n'
        'msgstr[0] "%s Argument erwartet"\nmsgstr[1] "%d Argumente erwartet"\n\n'
        'msgid "Quit"\nmsgstr "Beenden"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_catalogues", {})
    i18n.set_language("de")
    assert i18n._("Text size {percent}%").format(percent=120) == "Text size 120%"
    assert i18n.ngettext("{count} pair", "{count} pairs", 3).format(count=3) == "3 pairs"
    assert i18n.ngettext("expected %s argument", "expected %s arguments", 2) % "2" == "expected 2 arguments"
    assert i18n._("Quit") == "Beenden"
    [line] = capsys.readouterr().err.splitlines()
    assert line == (
        f"mahjong-battle: {tmp_path / 'de' / 'LC_MESSAGES' / 'mahjong_battle.po'}: 3 translations name a field "
        "their English text lacks ('Text size {percent}%', ...): shown in English"
    )
    monkeypatch.setattr(i18n, "_catalogues", {})  # the next start reads the cache: the same words, silently
    assert i18n._("Quit") == "Beenden" and i18n._("Text size {percent}%") == "Text size {percent}%"
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(
    ("translation", "english", "fits"),
    [
        ("Schriftgröße {percent} %", "Text size {percent}%", True),
        ("Schriftgröße {xpercent} %", "Text size {percent}%", False),
        ("ein Paar", "{count} pair", True),  # a field left out
        ("{count:.0f} Punkte", "{count:.1f} points", False),  # another format: a ValueError waiting
        ("{name!r} fehlt", "{name!r} is missing", True),
        ("{name} fehlt", "{name!r} is missing", True),
        ("{name!s} fehlt", "{name!r} is missing", True),
        ("{name!x} fehlt", "{name!r} is missing", False),  # a conversion str.format does not know
        ("{name!r:>9} fehlt", "{name!r} is missing", False),
        ("{count:.1f} Punkte", "{count:.1f} points", True),
        ("{} und {}", "{} and {}", True),
        ("{} und {} und {}", "{} and {}", False),  # an IndexError waiting
        ("Klammer { offen", "Quit", False),  # str.format refuses a lone brace
        ("{ offen", "{ open", True),  # neither is a format text
        ("%(prog)s: Fehler: %(message)s\n", "%(prog)s: error: %(message)s\n", True),
        ("%(prog)s: Fehler: %(text)s\n", "%(prog)s: error: %(message)s\n", False),
        ("%s Argument erwartet", "expected %s argument", True),
        ("%d Argument erwartet", "expected %s argument", False),
        ("Argument erwartet", "expected %s argument", False),  # a TypeError waiting: not all converted
        ("95%% davon", "95%% of it", True),
        ("95% davon", "95%% of it", False),  # argparse's help is a % text
        ("({percent} % passen)", "({percent}% fits)", True),  # in a {field} text a % is a percent sign
        ("Aufgabenwertung (95-%-Band)", "Puzzle rating (its 95% band)", True),
    ],
)
def test_a_translation_fits_where_its_english_is_formatted(translation: str, english: str, fits: bool) -> None:
    assert i18n.fits(translation, english) is fits


def test_every_shipped_translation_fits_and_a_plural_names_its_singulars_fields() -> None:
    """No shipped entry is dropped; and the check of a cached catalogue, which knows a plural by its
    singular only, holds each form to the singular: the English plural names the same fields."""
    source = GERMAN_PO.read_bytes()
    compiled, unfit = i18n._compiled_mo(source, "de")
    assert unfit == []
    assert i18n.CheckedTranslations(io.BytesIO(compiled)).unfit == []
    with open(GERMAN_PO, "rb") as handle:
        plurals = [message.id for message in read_po(handle) if isinstance(message.id, tuple)]
    assert len(plurals) > 20
    for singular, plural in plurals:
        assert i18n.fits(plural, singular) and i18n.fits(singular, plural), (singular, plural)


def test_damaged_copies_of_the_compiled_catalogue_are_refused_never_raised(tmp_path: Path) -> None:
    """Bits flipped anywhere, and in the header (charset, plural rule), and cut short: each copy loads
    or is refused as ``CatalogueDamaged`` with one line (200 copies; 50,000 gave the same kinds of error)."""
    original = german_mo()
    header = original.index(b"Project-Id-Version")
    header_end = original.index(b"\x00", header)
    rng = random.Random(51)
    path = tmp_path / "de.mo"
    refused = 0
    for number in range(200):
        data = bytearray(original)
        if number % 4 == 3:
            data = data[: rng.randrange(len(data))]
        else:
            low, high = (header, header_end) if number % 2 else (0, len(data))
            for _flip in range(1 + number % 3):
                data[rng.randrange(low, high)] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))
        try:
            found = i18n._read_compiled(path)
        except i18n.CatalogueDamaged as error:
            refused += 1
            assert "\n" not in str(error) and str(path) in str(error)
            continue
        found.ngettext("{count} pair", "{count} pairs", 2)
    assert refused > 50
    path.write_bytes(original.replace(b"plural=(n != 1)", b"plural=(n %  0)", 1))
    with pytest.raises(i18n.CatalogueDamaged, match="ZeroDivisionError"):
        i18n._read_compiled(path)
