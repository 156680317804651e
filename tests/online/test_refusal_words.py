"""The refusals' table (``battle/web/refusal_words.json``), which the page, the window and the terminal
all word a refused message from: it words every code of the protocol, each of its cases is reached
by the params it names, its sentences name only fields it knows, and each reads in German from the
catalogue's one entry in the page's context. The page reads the same table: tests/web/test_web_refusal_words.py."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from battle import i18n
from battle.online.client.wording import RESERVED_KEYS, refusal_text, refusal_words
from battle.online.protocol.messages import ErrorCode
from battle.online.protocol.server_messages import Error, State
from battle.online.protocol.server_reader import parse_server_message
from tests.online.refusal_samples import STATE, fitting, samples

READ_ERRORS = {ErrorCode.BAD_JSON, ErrorCode.TOO_BIG, ErrorCode.UNKNOWN_TYPE, ErrorCode.HELLO_FIRST, ErrorCode.NO_GAME}
"""Codes a client causes only by a message the server cannot take at all, which the table words with
its ``otherwise`` ("could not read a message from this program") and the code."""
KINDS = {"plural", "number", "text", "seat", "code"}
"""The kinds of field both readers fill (``wording._field``, ``server_words.js``)."""


@pytest.fixture
def language() -> Iterator[None]:
    yield
    i18n.set_language("en")


def _state() -> State:
    state = parse_server_message(json.dumps(STATE))
    assert isinstance(state, State)
    return state


def test_the_table_words_every_code_of_the_protocol() -> None:
    codes = set(refusal_words().codes)
    assert codes <= {code.value for code in ErrorCode}, codes - {code.value for code in ErrorCode}
    unworded = {code for code in ErrorCode if code.value not in codes}
    assert unworded == READ_ERRORS, "a new error code wants its sentence in battle/web/refusal_words.json"
    for code in READ_ERRORS:
        said = refusal_text(Error(code, "", {}))
        assert said == f"The server could not read a message from this program ({code.value})."


def test_each_sentence_names_only_fields_the_table_knows_and_a_plural_has_two_forms() -> None:
    words = refusal_words()
    assert set(words.fields.values()) <= KINDS
    for code, cases in [*words.codes.items(), ("otherwise", [words.otherwise])]:
        for case in cases:
            say = case["say"]
            forms = [say] if isinstance(say, str) else say
            fields = [set(re.findall(r"\{(\w+)\}", form)) for form in forms]
            assert all(found <= set(words.fields) for found in fields), (code, say)
            assert all(isinstance(value, str) for key, value in case.items() if key not in RESERVED_KEYS), case
            if "plural" in case:
                assert len(forms) == 2 and fields[0] == fields[1] and "count" in fields[0], (code, say)
            else:
                assert isinstance(say, str) and "count" not in fields[0], (code, say)


def test_each_case_is_the_one_said_for_the_params_it_names() -> None:
    """No case is hidden behind an earlier one of its code: an error that fits it is worded by it."""
    state = _state()
    for code, cases in refusal_words().codes.items():
        for case in cases:
            for count in (1, 3):
                params, with_state = fitting(case, count)
                said = refusal_text(Error(ErrorCode(code), "", params), state if with_state else None)
                say = case["say"]
                english = say if isinstance(say, str) else say[0 if count == 1 else 1]
                worded = english.format(count=count, ply=4, move="c2-d9", name="Solver (club)", code=code)
                assert said == worded, (code, case)


@pytest.mark.usefixtures("language")
def test_every_refusal_reads_in_german_from_the_pages_entries() -> None:
    state = _state()
    errors = [
        (Error(ErrorCode(code), "", params), state if with_state else None) for code, params, with_state in samples()
    ]
    english = [refusal_text(error, seat) for error, seat in errors]
    i18n.set_language("de")
    german = [refusal_text(error, seat) for error, seat in errors]
    untranslated = sorted({en for en, de in zip(english, german, strict=True) if en == de})
    assert not untranslated, untranslated
    said = dict(zip(english, german, strict=True))
    assert said["No game has this invite code."] == "Keine Partie hat diesen Einladungscode."
    assert said["Your address starts games faster than this server allows: try again in 1 second."] == (
        "Deine Adresse beginnt Partien schneller, als dieser Server erlaubt: versuch es in 1 Sekunde wieder."
    )
    assert said["It is not your turn: Solver (club) is to move."] == "Du bist nicht am Zug: Solver (Verein) ist am Zug."
