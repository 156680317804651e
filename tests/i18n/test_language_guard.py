"""The language guard itself: it finds the other language's words, and passes over what is the same
in every language (notation, names, and the random characters of a game's codes)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from battle.online.protocol.codes import ALPHABET, CODE_LENGTH
from tests.i18n.language_guard import Screen, report

GERMAN_LINE = "Einladungscode {invite} (Beitreten im Fenster oder im Terminal) · Zuschauercode {watch}"


def test_an_english_word_on_a_german_screen_is_found() -> None:
    found = report([Screen("invite card", "Einladungscode BE42-7YMT: the link is copied")], "de")
    assert "'the'" in found and "'is'" in found and "'BE'" not in found
    assert report([Screen("invite card", GERMAN_LINE.format(invite="BE42-7YMT", watch="6GNM-XSAG"))], "de") == ""


@given(st.lists(st.text(alphabet=ALPHABET, min_size=CODE_LENGTH, max_size=CODE_LENGTH), min_size=2, max_size=2))
def test_no_code_reads_as_an_english_word(codes: list[str]) -> None:
    """A code's letters are random ("BE42-7YMT" holds "BE"): a German screen that shows one is German."""
    invite, watch = (f"{code[:4]}-{code[4:]}" for code in codes)
    assert report([Screen("invite card", GERMAN_LINE.format(invite=invite, watch=watch))], "de") == ""
