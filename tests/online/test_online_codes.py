"""Invite and watch codes read the way people type them; tokens are long, random and stored only as hashes."""

from __future__ import annotations

import hashlib
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battle.online.protocol.codes import (
    ALPHABET,
    CODE_LENGTH,
    LINK_SECRET_LENGTH,
    format_code,
    hash_token,
    new_game_id,
    new_invite_code,
    new_token,
    new_watch_code,
    normalise_code,
)
from battle.online.server.rooms.link_secrets import LinkSecrets, is_link_secret

SETTINGS = settings(max_examples=300, deadline=None, derandomize=True, database=None)
codes = st.text(st.sampled_from(ALPHABET), min_size=CODE_LENGTH, max_size=CODE_LENGTH)


def test_the_alphabet_is_crockfords_base_32() -> None:
    assert len(ALPHABET) == len(set(ALPHABET)) == 32
    assert set(ALPHABET) == set(string.digits + string.ascii_uppercase) - set("ILOU")


def test_new_codes_are_eight_characters_of_the_alphabet_and_differ() -> None:
    made = [new_invite_code() for _ in range(500)] + [new_watch_code() for _ in range(500)]
    for code in made:
        assert len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)
    # 1000 draws of 40 bits: a repeat has odds of about 1000^2 / 2^41, under one in a million
    assert len(set(made)) == len(made)
    # every character of the alphabet turns up: the codes use all 32 (5 bits each)
    assert set("".join(made)) == set(ALPHABET)


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("ABCDEFGH", "ABCDEFGH"),
        ("abcd-efgh", "ABCDEFGH"),
        ("  ab cd - ef gh ", "ABCDEFGH"),
        ("iLo0-1234", "11001234"),
        ("O0O0-I1l1", "00001111"),
        ("\tZZZZ-9999", "ZZZZ9999"),
    ],
)
def test_normalise_reads_what_people_type(typed: str, code: str) -> None:
    assert normalise_code(typed) == code


@pytest.mark.parametrize(
    ("typed", "fragment"),
    [
        ("ABCDEFG", "expected 8 characters, got 7"),
        ("ABCD-EFGHJ", "expected 8 characters (or 32 from a link), got 9"),
        ("", "expected 8 characters, got 0"),
        ("ABCDEFGU", "'U' is not one of"),
        ("ABCD_EFG", "'_' is not one of"),
        ("ABCDEFGß", "'ß' is not one of"),  # not read as "SS", which would make 9 characters of it
        ("ABCD\nEFGH", "'\\n' is not one of"),
    ],
)
def test_normalise_names_what_is_wrong_in_one_line(typed: str, fragment: str) -> None:
    with pytest.raises(ValueError) as caught:
        normalise_code(typed)
    message = str(caught.value)
    assert fragment in message
    assert "\n" not in message


def test_normalise_refuses_what_is_not_text() -> None:
    with pytest.raises(ValueError, match="not int"):
        normalise_code(12345678)  # type: ignore[arg-type]


@SETTINGS
@given(codes)
def test_a_displayed_code_reads_back_as_itself(code: str) -> None:
    shown = format_code(code)
    assert shown == f"{code[:4]}-{code[4:]}"
    assert normalise_code(shown) == code
    assert normalise_code(shown.lower()) == code


@SETTINGS
@given(codes, st.binary(min_size=16, max_size=64))
def test_a_link_secret_holds_its_code_checks_under_its_key_only_and_reads_back_as_shown(code: str, key: bytes) -> None:
    links = LinkSecrets(key)
    secret = links.make("join", code)
    assert len(secret) == LINK_SECRET_LENGTH and secret.startswith(code) and set(secret) <= set(ALPHABET)
    assert is_link_secret(secret) and not is_link_secret(code)
    assert links.code_of("join", secret) == code
    assert links.code_of("watch", secret) is None  # an invite link's secret is no watch link's
    assert LinkSecrets(key + b"!").code_of("join", secret) is None
    changed = secret[:-1] + ("0" if secret[-1] != "0" else "1")
    assert links.code_of("join", changed) is None
    shown = format_code(secret)
    assert shown == f"{code[:4]}-{code[4:]}-{secret[8:]}"
    assert normalise_code(shown.lower()) == secret


def test_a_link_key_shorter_than_16_bytes_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 16 bytes, not 8"):
        LinkSecrets(b"12345678")


@SETTINGS
@given(st.text(max_size=30))
def test_any_text_is_a_code_or_a_value_error(typed: str) -> None:
    try:
        code = normalise_code(typed)
    except ValueError as error:
        assert "\n" not in str(error)
    else:
        assert len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)


def test_tokens_are_32_url_safe_characters_and_differ() -> None:
    tokens = {new_token() for _ in range(200)}
    assert len(tokens) == 200
    for token in tokens:
        assert len(token) == 32
        assert set(token) <= set(string.ascii_letters + string.digits + "-_")


def test_a_token_is_stored_as_its_sha256() -> None:
    assert hash_token("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    token = new_token()
    hashed = hash_token(token)
    assert hashed == hashlib.sha256(token.encode()).hexdigest()
    assert len(hashed) == 64 and token not in hashed
    assert hash_token(token) == hashed != hash_token(new_token())


def test_game_ids_are_16_hex_digits() -> None:
    ids = {new_game_id() for _ in range(100)}
    assert len(ids) == 100
    assert all(len(game_id) == 16 and set(game_id) <= set("0123456789abcdef") for game_id in ids)
