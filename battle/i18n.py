"""The words a player reads, in the player's language: one gettext catalogue per language.

The English text in the code is the source (the ``msgid``); every other language is a
``battle/locale/<code>/LC_MESSAGES/mahjong_battle.po`` file kept in the repository, and a
new language is one more such file and nothing else. A catalogue is compiled from its
``.po`` with Babel the first time it is used and kept in the user's cache folder under the
``.po``'s hash, so an installed package, an editable one and a fresh checkout always read
the ``.po`` as it is; fuzzy entries are left out, as ``msgfmt`` leaves them out.

A translation is shown only if it names no field its English text lacks (``fits``): a
``{xpercent}`` in a translation would raise ``KeyError`` where the text is formatted, so such
an entry is left out when its ``.po`` is compiled, said in one line on stderr, and the English
text is shown. A compiled catalogue in the cache folder is read as every file the program did not
write this run (``battle.regular_file``: a regular file, a size cap, no FIFO left hanging) and
checked as it loads (its header, its plural rule, every entry's fields); one that fails is
compiled again from its ``.po``, with one line on stderr, and a ``.po`` that cannot be read
leaves the texts in English, with one line.

Texts are looked up when they are shown (``_("Undo")`` in a draw call), never at import,
so a change of language in the window takes effect on the next frame. A module-level
constant is marked with ``N_`` for the extractor and looked up with ``_`` where it is
drawn. Notation (cells, moves, ``5p``), file formats, ``--json`` and protocol messages
are never translated.

This module is pure (no pygame) and sits below the rules model, which words its
sentences through it.
"""

from __future__ import annotations

import contextlib
import datetime
import gettext
import hashlib
import io
import os
import re
import string
import struct
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from battle.regular_file import FileTooLarge, NotAFileToRead, read_regular_file

DOMAIN = "mahjong_battle"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE_LANGUAGE = "en"
"""The language the code is written in: its catalogue is the messages themselves."""

_ENVIRONMENT_ORDER = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""GNU gettext's order: the first of these that is set names the language."""

CATALOGUE_LIMIT = 8 << 20
"""Bytes a ``.po`` or a compiled catalogue may have: the German ``.po`` is 201 KB and its ``.mo``
136 KB, so 8 MiB is 40 times the larger; a bigger file (a sparse 3 GB one) is refused unread."""
PLURAL_PROBES = 1000
"""Counts a loaded plural rule is tried on: a damaged rule (``n%0``) fails here, not in a sentence."""
_DAMAGE = (OSError, ValueError, LookupError, IndexError, SyntaxError, ArithmeticError, struct.error)
"""What ``gettext`` raises on a damaged ``.mo`` (50,000 damaged copies of the German one gave each):
a bad magic number or table (``OSError``, ``struct.error``), text that is not its charset
(``UnicodeDecodeError``), an unknown charset (``LookupError``: ``charset=utf-9``), a broken header
or plural rule (``ValueError``, ``IndexError``, ``SyntaxError``); ``PLURAL_PROBES`` adds a rule
that divides by zero (``ArithmeticError``)."""

_catalogues: dict[str, gettext.NullTranslations] = {}
_language = SOURCE_LANGUAGE
_listeners: list = []


def available_languages() -> tuple[str, ...]:
    """English and every language with a catalogue, in alphabetical order."""
    found = {SOURCE_LANGUAGE}
    if LOCALE_DIR.is_dir():
        found.update(path.parent.parent.name for path in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return tuple(sorted(found))


def language_code(value: str) -> str | None:
    """The language of a locale name, if the game has it: ``de_DE.UTF-8`` -> ``de``, ``C`` -> ``en``."""
    name = value.strip().split(".")[0].split("@")[0].replace("-", "_")
    if name in ("C", "POSIX"):
        return SOURCE_LANGUAGE
    languages = available_languages()
    for candidate in (name, name.split("_")[0].lower()):
        if candidate in languages:
            return candidate
    return None


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the system asks for: ``LANGUAGE`` (a colon list), ``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``, else the desktop's setting on Windows and macOS; English when none is known here."""
    environ = os.environ if environ is None else environ
    for variable in _ENVIRONMENT_ORDER:
        value = environ.get(variable, "")
        if not value:
            continue
        for part in value.split(":") if variable == "LANGUAGE" else [value]:
            code = language_code(part) if part else None
            if code is not None:
                return code
        if variable != "LANGUAGE":
            return SOURCE_LANGUAGE  # the first locale set decides, as in gettext
    return _desktop_language() or SOURCE_LANGUAGE


def _desktop_language() -> str | None:
    """The user's interface language on Windows (GetUserDefaultUILanguage) or macOS (the locale
    Python reads from the system); None on other systems, which say it in the environment."""
    if sys.platform == "win32":
        import ctypes
        import locale

        language_id = ctypes.windll.kernel32.GetUserDefaultUILanguage()  # type: ignore[attr-defined]
        name = locale.windows_locale.get(language_id)
        return language_code(name) if name else None
    if sys.platform == "darwin":
        import locale

        name = locale.getlocale()[0]
        return language_code(name) if name else None
    return None


def catalogue(language: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``language`` (the messages themselves for English or an unknown code)."""
    found = _catalogues.get(language)
    if found is None:
        path = _po_path(language)
        found = _compile(path, language) if language != SOURCE_LANGUAGE and path.is_file() else NULL_CATALOGUE
        _catalogues[language] = found
    return found


NULL_CATALOGUE = gettext.NullTranslations()
"""English: the messages themselves."""


def cached_gettext(message: str, language: str | None = None) -> str:
    """``message`` in ``language`` (None: the system's) if its catalogue is compiled already, else as
    written: for the window's first frame, which comes before Babel could compile a catalogue (0.3 s
    and 0.1 s of imports once after an install); the cached ``.mo`` reads with the stdlib alone.
    A cached catalogue that does not load leaves the first frame in English, silently: the start
    that follows compiles it again and says so."""
    code = (language_code(language) if language else None) or system_language()
    found = _catalogues.get(code)
    if found is None and code != SOURCE_LANGUAGE:
        try:
            found = _read_compiled(_cached_mo(_read_po(_po_path(code)), code))
        except (OSError, ValueError):  # not compiled yet, or not to use: the start goes on to say why
            return message
        _catalogues[code] = found
    return found.gettext(message) if found is not None else message


class CatalogueDamaged(ValueError):
    """A compiled catalogue that does not load as it should; the message says why, in one line."""


class CheckedTranslations(gettext.GNUTranslations):
    """A compiled catalogue read by ``gettext`` and checked as it loads: its plural rule works for
    every count tried, and ``unfit`` names the English texts whose translation does not ``fits``."""

    _catalog: dict[str | tuple[str, int], str]
    plural: Callable[[int], int]
    unfit: list[str]

    def _parse(self, fp) -> None:  # noqa: ANN001 - gettext's reader
        super()._parse(fp)
        for count in range(PLURAL_PROBES):
            self.plural(count)
        unfit = set()
        for key, text in self._catalog.items():
            english = _english(key)
            if not fits(text, english):
                unfit.add(english)
        self.unfit = sorted(unfit)


def _english(key: str | tuple[str, int]) -> str:
    """The English text of a catalogue key: a plural's singular, without a ``pgettext`` context."""
    text = key[0] if isinstance(key, tuple) else key
    return text.rpartition(gettext.GNUTranslations.CONTEXT)[2]


# -- placeholders ------------------------------------------------------------------------------

_PERCENT = re.compile(r"%(?:\(([^()]*)\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?([diouxXeEfFgGcrsa%])")
"""A ``%`` conversion: ``%s``, ``%(prog)s``, ``%5.1f``, ``%%``."""


_FORMATTER = string.Formatter()
_FORMAT_MARK = re.compile(r"[{}%]")


def fits(translation: str, english: str) -> bool:
    """The translation can stand where ``english`` is formatted: each ``{field}`` it names is one of
    ``english``'s, with a conversion ``str.format`` knows and no format ``english`` does not give
    that field, and it has as many ``{}`` as ``english``; when ``english`` is a ``%`` text (argparse's
    words) it names no ``%(key)s`` that ``english`` lacks and has the same ``%s``/``%d`` in the same
    order. A field may be left out (German writes "ein Stein" for one). A plural's forms are held
    to its singular, which names the fields its plural names (``tests/i18n``)."""
    if _FORMAT_MARK.search(translation) is None and _FORMAT_MARK.search(english) is None:
        return True  # plain words: nothing to format
    wanted = _brace_fields(english)
    if wanted is not None:
        found = _brace_fields(translation)
        if found is None or found[1] != wanted[1]:
            return False
        for name, conversion, spec in found[0]:
            if conversion not in (None, "r", "s", "a") or not any(
                name == known and (not spec or (conversion, spec) == (known_conversion, known_spec))
                for known, known_conversion, known_spec in wanted[0]
            ):
                return False
        if wanted[0] or wanted[1]:  # a {field} text: a % in it is only a percent sign
            return True
    wanted_percent = _percent_fields(english) if "%" in english else None
    if wanted_percent is None:  # not a % text: never formatted with %
        return True
    found_percent = _percent_fields(translation)
    return found_percent is not None and found_percent[0] <= wanted_percent[0] and found_percent[1] == wanted_percent[1]


def _brace_fields(text: str) -> tuple[frozenset[tuple[str, str | None, str]], int] | None:
    """The named ``{fields}`` of a ``str.format`` text (name, conversion, format) and the number of
    ``{}``; None when ``str.format`` would refuse the text (a lone brace)."""
    if "{" not in text and "}" not in text:
        return frozenset(), 0
    try:
        parsed = [(name, conversion, spec or "") for _text, name, spec, conversion in _FORMATTER.parse(text)]
    except ValueError:
        return None
    fields = [field for field in parsed if field[0] is not None]
    named = frozenset((name, conversion, spec) for name, conversion, spec in fields if name)
    return named, sum(1 for field in fields if field[0] == "")


def _percent_fields(text: str) -> tuple[frozenset[tuple[str, str]], tuple[str, ...]] | None:
    """The ``%(key)s`` conversions of a ``%`` text and its unnamed ones in order; None when a ``%``
    in it starts no conversion, so the text is not one that ``%`` formats."""
    named: set[tuple[str, str]] = set()
    unnamed: list[str] = []
    rest = _PERCENT.sub("", text)
    if "%" in rest:
        return None
    for match in _PERCENT.finditer(text):
        key, conversion = match.group(1), match.group(2)
        if conversion == "%":
            continue
        if key is None:
            unnamed.append(conversion)
        else:
            named.add((key, conversion))
    return frozenset(named), tuple(unnamed)


# -- compiling and the cache -------------------------------------------------------------------


def _po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def _read_po(path: Path) -> bytes:
    return read_regular_file(path, CATALOGUE_LIMIT, str(path))


def _cached_mo(source: bytes, language: str) -> Path:
    """Where the compiled catalogue of a ``.po`` (its bytes) is kept: named by the ``.po``'s SHA-256."""
    return _cache_folder() / f"{language}-{hashlib.sha256(source).hexdigest()[:20]}.mo"


def _read_compiled(path: Path) -> CheckedTranslations:
    """The compiled catalogue at ``path``, checked: ``OSError`` when there is none (not compiled yet,
    a folder that cannot be read), ``CatalogueDamaged`` naming why it is not one to use."""
    try:
        data = read_regular_file(path, CATALOGUE_LIMIT, str(path))
    except (NotAFileToRead, FileTooLarge) as error:
        raise CatalogueDamaged(str(error)) from None
    try:
        found = CheckedTranslations(io.BytesIO(data))
    except _DAMAGE as error:
        raise CatalogueDamaged(_problem(error, path)) from None
    if found.unfit:
        raise CatalogueDamaged(
            f"{path}: the translation of {found.unfit[0][:60]!r} names a field its English text lacks"
        )
    return found


def _compile(path: Path, language: str) -> gettext.NullTranslations:
    """A ``.po`` file compiled as ``msgfmt`` would (fuzzy entries left out), read into gettext.

    Babel takes about 0.3 s for the 1,200 German entries, so the compiled ``.mo`` is kept in the
    user's cache folder under the ``.po``'s SHA-256: the next start reads it in a few
    milliseconds, and a changed ``.po`` is compiled afresh. A cache that cannot be written only
    costs the compile; one that does not load is compiled again, said in one line; a ``.po``
    that cannot be read or compiled leaves the texts in English, said in one line."""
    try:
        source = _read_po(path)
    except (OSError, FileTooLarge) as error:
        return _in_english(_problem(error, path))
    cached = _cached_mo(source, language)
    damage: str | None = None
    try:
        return _read_compiled(cached)
    except CatalogueDamaged as error:
        damage = str(error)
    except OSError:  # not compiled yet, or the cache folder cannot be read: compile it
        pass
    try:
        compiled, unfit = _compiled_mo(source, language)
        found = CheckedTranslations(io.BytesIO(compiled))
    except _DAMAGE as error:  # a .po whose header or plural rule gettext refuses
        return _in_english(_problem(error, path))
    _keep(cached, compiled)
    if damage is not None:
        _say(
            found.gettext(N_("{damage}; the catalogue is compiled again from {path}")).format(damage=damage, path=path)
        )
    if unfit:
        _say(
            found.ngettext(
                *NN_(
                    "{path}: {count} translation names a field its English text lacks ({example}): shown in English",
                    "{path}: {count} translations name a field their English text lacks ({example}, ...): "
                    "shown in English",
                ),
                len(unfit),
            ).format(path=path, count=len(unfit), example=repr(unfit[0][:60]))
        )
    return found


def _keep(cached: Path, compiled: bytes) -> None:
    """Write the compiled catalogue to the cache, whole or not at all (two windows may start at once,
    and a rename replaces a FIFO or a link there, never what a link names); a cache that cannot be
    written (a folder in the way, a read-only disk) only costs the next start the compile."""
    partial = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(compiled)
        os.replace(partial, cached)
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink()


def _in_english(problem: str) -> gettext.NullTranslations:
    """English, said in one line in English: the catalogue that would word it is the one that failed."""
    _say(f"{problem}: the texts are shown in English")
    return NULL_CATALOGUE


def _compiled_mo(source: bytes, language: str) -> tuple[bytes, list[str]]:
    """The ``.mo`` of a ``.po`` (its bytes) without fuzzy entries and without the translations that do
    not ``fits`` their English text; those are returned too, by English text."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    messages = read_po(io.BytesIO(source), locale=language, domain=DOMAIN)
    unfit: list[str] = []
    for message in list(messages):
        english = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
        forms = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        if english and not all(fits(form, english) for form in forms if form):
            unfit.append(english)
            messages.delete(message.id, context=message.context)
    compiled = io.BytesIO()
    write_mo(compiled, messages, use_fuzzy=False)
    return compiled.getvalue(), sorted(unfit)


def _problem(error: BaseException, path: Path) -> str:
    """Why a file is not read, naming it: the reader's own words name it already."""
    if isinstance(error, (NotAFileToRead, FileTooLarge)):
        return str(error)
    if isinstance(error, OSError):
        return f"{path}: {error.strerror or error}"
    return f"{path}: {type(error).__name__}: {error}"


def _say(line: str) -> None:
    """One line on stderr about a catalogue."""
    print(f"mahjong-battle: {line}".replace("\n", "\\n").replace("\r", "\\r"), file=sys.stderr, flush=True)


def _cache_folder() -> Path:
    """Where compiled catalogues are kept: ``$XDG_CACHE_HOME`` (``~/.cache``), or ``%LOCALAPPDATA%``."""
    base = os.environ.get("XDG_CACHE_HOME") or (os.environ.get("LOCALAPPDATA") if sys.platform == "win32" else None)
    return (Path(base) if base else Path.home() / ".cache") / "mahjong-battle" / "locale"


def language_name(code: str) -> str:
    """A language's name in that language, for the window's language button: "Deutsch", "English"."""
    try:
        from babel import Locale

        name = Locale.parse(code).get_display_name(code) or code
    except (ValueError, ImportError):  # an unknown code names itself
        return code
    return name[:1].upper() + name[1:]


WEB_CONTEXT = "web"
"""The context (``msgctxt``) of every text of the browser page in the catalogue (tools/extract_messages.py),
the refusals' table too (``battle/web/refusal_words.json``), which the window and the terminal read
in this context so that each of its sentences has one translation."""


def web_messages(language: str) -> dict[str, str | list[str]]:
    """The translations of the browser client's texts (``battle/web``) in ``language``, for its
    ``/locale/<code>.json``: each English text to its translation, a plural's singular to every form."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if language == SOURCE_LANGUAGE or not path.is_file():
        return {}
    from babel.messages.pofile import read_po

    with open(path, "rb") as handle:
        messages = read_po(handle, locale=language, domain=DOMAIN)
    found: dict[str, str | list[str]] = {}
    for message in messages:
        if not message.id or message.fuzzy or message.context != WEB_CONTEXT:
            continue
        if isinstance(message.id, (tuple, list)) and isinstance(message.string, (tuple, list)):
            found[str(message.id[0])] = [str(form) for form in message.string]
        elif isinstance(message.id, str) and isinstance(message.string, str) and message.string:
            found[message.id] = message.string
    return found


def web_plural_forms(language: str) -> str:
    """The catalogue's ``Plural-Forms`` header for ``language`` ("nplurals=2; plural=(n != 1);"),
    which the page applies to every counted text; English's for a language without a catalogue."""
    path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    english = "nplurals=2; plural=(n != 1);"
    if language == SOURCE_LANGUAGE or not path.is_file():
        return english
    from babel.messages.pofile import read_po

    with open(path, "rb") as handle:
        forms = read_po(handle, locale=language, domain=DOMAIN).plural_forms
    return forms or english


def set_language(language: str | None) -> str:
    """Use ``language`` (a code or locale name; None or unknown: the system's) from now on;
    returns the code in use. Listeners (pygame_gui's own widgets) are told."""
    global _language
    code = language_code(language) if language else None
    _language = code or system_language()
    for listener in list(_listeners):
        listener(_language)
    return _language


def current_language() -> str:
    return _language


def on_language_change(listener) -> None:  # noqa: ANN001 - Callable[[str], None]
    """Call ``listener(code)`` after every ``set_language``."""
    _listeners.append(listener)


def _(message: str) -> str:
    """``message`` in the current language; an empty text stays empty (gettext would answer
    the empty msgid with the catalogue's header, "Project-Id-Version: ...")."""
    return catalogue(_language).gettext(message) if message else message


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or the plural in the current language, as its catalogue's plural rule chooses."""
    return catalogue(_language).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language where the same English word means two things."""
    return catalogue(_language).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, count: int) -> str:
    """The singular or the plural of a text with its context, as the current language's plural rule
    chooses: for a counted sentence of the page's context that the window reads too."""
    return catalogue(_language).npgettext(context, singular, plural, count)


def N_(message: str) -> str:  # noqa: N802 - the name the extractor and translators know
    """Mark a constant for the catalogue without looking it up: ``_`` looks it up where it is shown."""
    return message


def NP_(context: str, message: str) -> tuple[str, str]:  # noqa: N802
    """Mark a word with its context for the catalogue: ``pgettext(*NP_("you", "take"))`` looks it up."""
    return context, message


def NN_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802
    """Mark a singular and its plural for the catalogue: ``ngettext(*NN_(...), count)`` looks them up."""
    return singular, plural


def format_number(value: float, decimals: int | None = None) -> str:
    """A number as the current language writes it: ``1,234.5`` in English, ``1.234,5`` in German."""
    if decimals is not None:
        value = round(value, decimals)
    if _language == SOURCE_LANGUAGE:
        return f"{value:,.{decimals}f}" if decimals is not None else f"{value:,}"
    from babel.numbers import format_decimal

    pattern = None if decimals is None else "#,##0" + ("." + "0" * decimals if decimals else "")
    return format_decimal(value, format=pattern, locale=_language)


def format_percent(value: float, decimals: int = 1) -> str:
    """A percentage the language's way: ``58.3%`` in English, ``58,3 %`` in German (as the page's
    ``percent`` writes it)."""
    return _("{percent}%").format(percent=format_number(value, decimals))


def format_short(value: float) -> str:
    """A number as short as it reads, the language's way: ``0.5`` and ``2`` in English (as ``:g``
    writes them), ``0,5`` and ``2`` in German; for seconds and hours in a sentence."""
    if _language == SOURCE_LANGUAGE:
        return f"{value:g}"
    from babel.numbers import format_decimal

    return format_decimal(value, locale=_language)


def format_signed(value: float, decimals: int = 1) -> str:
    """A signed number with ``decimals`` places, the language's way: ``+3.5`` in English, ``+3,5`` in German."""
    return ("+" if value >= 0 else "-") + format_number(abs(value), decimals)


def format_date(day: datetime.date, pattern: str = "medium") -> str:
    """A date as the current language writes it: ``Nov 27, 2026`` in English, ``27.11.2026`` in German;
    ``pattern`` is a Babel width or a pattern taken from the catalogue (``_("d MMMM")``: "9 March",
    "9. März")."""
    from babel.dates import format_date as babel_format_date

    return babel_format_date(day, format=pattern, locale=_language)


def format_list(items: Iterable[str], style: str = "standard") -> str:
    """Words joined as the current language joins a list: ``a9 or c3`` and ``a9, c3 or d1`` with
    ``style="or"``, ``Ann and Ben`` with the standard style (Babel's list patterns, CLDR's)."""
    shown = list(items)
    from babel.lists import format_list as babel_format_list

    return babel_format_list(shown, style=style, locale=_language)  # type: ignore[arg-type]


@contextlib.contextmanager
def source_language() -> Iterator[None]:
    """The code's own English while the block runs: for the words a file keeps (a comment of a
    position the command line prints), which read the same in every language."""
    global _language
    kept, _language = _language, SOURCE_LANGUAGE
    try:
        yield
    finally:
        _language = kept
