"""The words a player reads, in the player's language: one gettext catalogue per language.

The English text in the code is the source (the ``msgid``); every other language is a
``battle/locale/<code>/LC_MESSAGES/mahjong_battle.po`` file kept in the repository, and a
new language is one more such file and nothing else. A catalogue is compiled from its
``.po`` with Babel the first time it is used and kept in the user's cache folder under the
``.po``'s hash, so an installed package, an editable one and a fresh checkout always read
the ``.po`` as it is; fuzzy entries are left out, as ``msgfmt`` leaves them out.

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
import struct
import sys
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

DOMAIN = "mahjong_battle"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE_LANGUAGE = "en"
"""The language the code is written in: its catalogue is the messages themselves."""

_ENVIRONMENT_ORDER = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""GNU gettext's order: the first of these that is set names the language."""

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
        path = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
        found = (
            _compile(path, language) if language != SOURCE_LANGUAGE and path.is_file() else (gettext.NullTranslations())
        )
        _catalogues[language] = found
    return found


def cached_gettext(message: str, language: str | None = None) -> str:
    """``message`` in ``language`` (None: the system's) if its catalogue is compiled already, else as
    written: for the window's first frame, which comes before Babel could compile a catalogue (0.3 s
    and 0.1 s of imports once after an install); the cached ``.mo`` reads with the stdlib alone."""
    code = (language_code(language) if language else None) or system_language()
    found = _catalogues.get(code)
    if found is None and code != SOURCE_LANGUAGE:
        path = LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
        try:
            found = gettext.GNUTranslations(io.BytesIO(_cached_mo(path.read_bytes(), code).read_bytes()))
        except (OSError, ValueError, struct.error):  # not compiled yet: the first frame stays English
            return message
        _catalogues[code] = found
    return found.gettext(message) if found is not None else message


def _cached_mo(source: bytes, language: str) -> Path:
    """Where the compiled catalogue of a ``.po`` (its bytes) is kept: named by the ``.po``'s SHA-256."""
    return _cache_folder() / f"{language}-{hashlib.sha256(source).hexdigest()[:20]}.mo"


def _compile(path: Path, language: str) -> gettext.GNUTranslations:
    """A ``.po`` file compiled as ``msgfmt`` would (fuzzy entries left out), read into gettext.

    Babel takes about 0.3 s for the 1,200 German entries, so the compiled ``.mo`` is kept in the
    user's cache folder under the ``.po``'s SHA-256: the next start reads it in a few
    milliseconds, and a changed ``.po`` is compiled afresh. A cache that cannot be written or
    read only costs the compile."""
    source = path.read_bytes()
    cached = _cached_mo(source, language)
    try:
        return gettext.GNUTranslations(io.BytesIO(cached.read_bytes()))
    except (OSError, ValueError, struct.error):  # not cached yet, or not a catalogue: compile it
        pass
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    messages = read_po(io.BytesIO(source), locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, messages, use_fuzzy=False)
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
        partial.write_bytes(compiled.getvalue())
        os.replace(partial, cached)  # whole or not at all, even with two windows starting at once
    except OSError:
        pass
    return gettext.GNUTranslations(io.BytesIO(compiled.getvalue()))


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
        if not message.id or message.fuzzy or message.context:
            continue
        if not any(place.startswith("battle/web/") for place, _line in message.locations):
            continue
        if isinstance(message.id, (tuple, list)) and isinstance(message.string, (tuple, list)):
            found[str(message.id[0])] = [str(form) for form in message.string]
        elif isinstance(message.id, str) and isinstance(message.string, str) and message.string:
            found[message.id] = message.string
    return found


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
