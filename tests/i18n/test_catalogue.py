"""The catalogues: every text of the game is in the template and translated in every language,
no text a player sees bypasses the catalogue, and a new language is one ``.po`` file.

The template is extracted afresh from the code (``tools/extract_messages.py``, Babel's extractor)
and each ``.po`` is read with Babel, as the game reads it.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from battle import i18n
from tests.i18n.visible_texts import scanned_files, unshown_texts

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sdr]|%[sdr]")


def _extract_tool():  # noqa: ANN202 - the tool's module
    spec = importlib.util.spec_from_file_location("extract_messages", ROOT / "tools" / "extract_messages.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def game_messages(tmp_path_factory: pytest.TempPathFactory) -> list:
    """The texts of the game's own files, extracted from the code as it is now."""
    template = tmp_path_factory.mktemp("pot") / "fresh.pot"
    _extract_tool().extract(template)
    with open(template, "rb") as handle:
        catalogue = read_po(handle)
    return [
        message
        for message in catalogue
        if message.id and any(path.startswith("battle/") for path, _ in message.locations)
    ]


def test_the_template_is_extracted_from_the_code(game_messages) -> None:  # noqa: ANN001
    ids = {message.id for message in game_messages}
    assert "Start game" in ids and ("{count} pair", "{count} pairs") in ids
    assert len(ids) > 900
    assert _extract_tool().main(["--check"]) == 0, "battle/locale/mahjong_battle.pot is out of date"


@pytest.mark.parametrize("language", [code for code in i18n.available_languages() if code != i18n.SOURCE_LANGUAGE])
def test_every_text_is_translated_and_none_is_fuzzy(game_messages, language: str) -> None:  # noqa: ANN001
    path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with open(path, "rb") as handle:
        catalogue = read_po(handle, locale=language)
    problems = []
    for wanted in game_messages:
        found = catalogue.get(wanted.id, context=wanted.context)
        shown = wanted.id if isinstance(wanted.id, str) else wanted.id[0]
        if found is None:
            problems.append(f"missing: {shown!r}")
            continue
        strings = found.string if isinstance(found.string, tuple) else (found.string,)
        if found.fuzzy or not all(strings):
            problems.append(f"{'fuzzy' if found.fuzzy else 'empty'}: {shown!r}")
            continue
        originals = wanted.id if isinstance(wanted.id, tuple) else (wanted.id,)
        if sorted(PLACEHOLDER.findall(strings[0])) != sorted(PLACEHOLDER.findall(originals[0])):
            problems.append(f"placeholders differ: {shown!r} -> {strings[0]!r}")
    assert not problems, f"{language}: {len(problems)} problems, e.g.\n" + "\n".join(problems[:20])


def test_a_fuzzy_entry_counts_as_untranslated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As with msgfmt, a fuzzy entry is not used: the player reads the English text, not a guess."""
    folder = tmp_path / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / f"{i18n.DOMAIN}.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        '#, fuzzy\nmsgid "Start game"\nmsgstr "Spiel starten"\n\nmsgid "Quit"\nmsgstr "Beenden"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_catalogues", {})
    i18n.set_language("de")
    assert i18n._("Quit") == "Beenden"
    assert i18n._("Start game") == "Start game"


def test_a_third_language_is_one_po_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new folder with a .po: the language is offered, chosen from the system, and its words are used,
    plural forms by its own rule (French counts 0 as singular)."""
    shutil.copytree(i18n.LOCALE_DIR, tmp_path, dirs_exist_ok=True)
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / f"{i18n.DOMAIN}.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n'
        '"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        'msgid "Start game"\nmsgstr "Commencer"\n\n'
        'msgid "{count} pair"\nmsgid_plural "{count} pairs"\nmsgstr[0] "{count} paire"\nmsgstr[1] "{count} paires"\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    monkeypatch.setattr(i18n, "_catalogues", {})
    assert i18n.available_languages() == ("de", "en", "fr")
    assert i18n.system_language({"LANG": "fr_FR.UTF-8"}) == "fr"
    i18n.set_language("fr")
    assert i18n._("Start game") == "Commencer"
    assert i18n.ngettext("{count} pair", "{count} pairs", 0).format(count=0) == "0 paire"
    assert i18n.ngettext("{count} pair", "{count} pairs", 2).format(count=2) == "2 paires"


@pytest.mark.parametrize(
    ("environment", "language"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANGUAGE": "fr:de:en", "LANG": "en_US.UTF-8"}, "de"),
        ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LC_MESSAGES": "de_AT", "LANG": "en_GB.UTF-8"}, "de"),
        ({"LANG": "pt_BR.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_language_follows_the_system(environment: dict[str, str], language: str) -> None:
    assert i18n.system_language(environment) == language


def test_numbers_and_dates_are_written_the_languages_way() -> None:
    import datetime

    i18n.set_language("de")
    assert i18n.format_number(1234.5, 1) == "1.234,5"
    assert i18n.format_number(0.8) == "0,8"
    assert (i18n.format_percent(58.33), i18n.format_percent(40), i18n.format_percent(57.6, 0)) == (
        "58,3 %",
        "40,0 %",
        "58 %",
    )
    assert i18n.format_date(datetime.date(2031, 3, 9), i18n._("d MMMM")) == "9. März"
    i18n.set_language("en")
    assert i18n.format_number(1234.5, 1) == "1,234.5"
    assert (i18n.format_percent(58.33), i18n.format_percent(40), i18n.format_percent(57.6, 0)) == (
        "58.3%",
        "40.0%",
        "58%",
    )
    assert i18n.format_date(datetime.date(2031, 3, 9), i18n._("d MMMM")) == "9 March"


def test_sentences_about_players_follow_the_language() -> None:
    from battle.rules.tiles import parse_kind
    from battle.rules.wording import pair_words, plural, took_sentence

    i18n.set_language("de")
    assert (
        took_sentence("You", "c1-c9", parse_kind("7p"), 7)
        == "Du hast ein Paar Münzen-Sieben genommen, c1-c9, für 7 Punkte."
    )
    assert (
        took_sentence("Alice", "c1-c9", parse_kind("1s"), 1)
        == "Alice hat ein Paar Bambus-Eins genommen, c1-c9, für 1 Punkt."
    )
    assert plural(2, "pair") == "2 Paare" and plural(1, "point") == "1 Punkt"
    assert pair_words(parse_kind("5p")) == "ein Paar Münzen-Fünf"
    i18n.set_language("en")
    assert took_sentence("You", "c1-c9", parse_kind("5p"), 5) == "You took a pair of 5-circles, c1-c9, for 5 points."


def test_a_counted_text_is_looked_up_in_its_context() -> None:
    """``npgettext``: the German forms of the page's entry, chosen by the count; a text the catalogue
    lacks in that context is its English form."""
    singular = "The site's game directory does not answer: try again in {count} second."
    plural = "The site's game directory does not answer: try again in {count} seconds."
    i18n.set_language("de")
    try:
        assert i18n.npgettext(i18n.WEB_CONTEXT, singular, plural, 1).endswith("in {count} Sekunde wieder.")
        assert i18n.npgettext(i18n.WEB_CONTEXT, singular, plural, 2).endswith("in {count} Sekunden wieder.")
        assert i18n.npgettext("elsewhere", singular, plural, 2) == plural
    finally:
        i18n.set_language("en")
    assert i18n.npgettext(i18n.WEB_CONTEXT, singular, plural, 1) == singular


def test_what_a_move_opens_follows_the_language_and_an_empty_text_stays_empty() -> None:
    from battle.rules.deal import deal
    from battle.rules.opens import describe_opening, what_opens

    position = deal(1)
    move = position.legal_moves()[0]
    i18n.set_language("de")
    try:
        assert " frei" in describe_opening(what_opens(position, move))
        assert i18n._("") == ""  # not the catalogue's header, "Project-Id-Version: ..."
    finally:
        i18n.set_language("en")
    assert " frees " in describe_opening(what_opens(position, move))


def test_the_review_boards_chips_follow_the_language() -> None:
    from battle.rules.board import parse_move
    from battle.ui.review.review_view import move_marks

    best, played = parse_move("c1-c9"), parse_move("d1-d9")
    i18n.set_language("de")
    try:
        labels = {label for marks in move_marks(played, "good", [best]).values() for _colour, label in marks}
    finally:
        i18n.set_language("en")
    assert labels == {"bester", "gespielt · gut"}, labels


# -- no visible text outside the catalogue ---------------------------------------------------


def test_every_text_a_player_sees_goes_through_the_catalogue() -> None:
    files = scanned_files()
    assert len(files) > 120
    found = [line for path in files for line in unshown_texts(path)]
    assert not found, "texts shown that are not whole catalogue sentences:\n" + "\n".join(found[:40])


SAMPLE = """\
def draw(fonts, error, names):
    fonts.text("Game over", 12)
    fonts.text(_("Game over"), 12)
    print(f"{name} wins")
    fonts.text("5p", 12)
    print(_("best: {value}").format(value=error or "none"))
    status = _("Fields reset: ") + ", ".join(names)
    label = _("Analysis").lower()
    raise PuzzleFormatError(f"line {number}: expected a list")
    raise PuzzleFormatError(N_("line {number}: expected a list"), number=number)
    versus = "  " + _("vs") + "  "
"""


def test_the_scan_finds_every_kind_of_unwrapped_text() -> None:
    sample = ROOT / "tests" / "i18n" / "sample_unwrapped.py"
    sample.write_text(SAMPLE, encoding="utf-8")
    try:
        found = unshown_texts(sample)
    finally:
        sample.unlink()
    assert [line.split(": ", 1)[1] for line in found] == [
        "'Game over'",
        "' wins'",
        "glued into a sentence: 'none'",
        "a fragment glued to a translation with +",
        "case changed on a translation: .lower()",
        "'line : expected a list'",
    ]


def test_the_compiled_catalogue_is_cached_and_a_broken_cache_is_compiled_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(i18n, "_catalogues", {})
    i18n.set_language("de")
    assert i18n._("Start game") == "Spiel starten"
    cached = list((tmp_path / "mahjong-battle" / "locale").glob("de-*.mo"))
    assert len(cached) == 1 and cached[0].stat().st_size > 10_000
    cached[0].write_bytes(b"not a catalogue")
    monkeypatch.setattr(i18n, "_catalogues", {})
    assert i18n._("Start game") == "Spiel starten"
    assert cached[0].read_bytes()[:4] == b"\xde\x12\x04\x95", "written again as a .mo"


def test_levels_classes_themes_and_default_names_are_shown_in_the_language() -> None:
    from battle.puzzles.themes import theme_word
    from battle.rules.wording import grade_word, level_word, shown_name

    i18n.set_language("de")
    assert [level_word(level) for level in ("beginner", "club", "master")] == ["Anfänger", "Verein", "Meister"]
    assert shown_name("Solver (club)") == "Solver (Verein)" and shown_name("You") == "Du"
    assert shown_name("Player 2") == "Spieler 2" and shown_name("Ann") == "Ann"
    assert shown_name("Solver (expert)") == "Solver (Experte)"
    assert grade_word("mistake") == "Fehler" and theme_word("sacrifice") == "Opfer"
    i18n.set_language("en")
    assert shown_name("Solver (club)") == "Solver (club)" and grade_word("mistake") == "mistake"
