"""The page words every refusal as the window and the terminal do, in English and in German: both
read one table (``battle/web/refusal_words.json``), the page through its JSON module and the
catalogue the server serves it, the window through ``battle.online.client.wording``. Every case of
the table and every code of the protocol (``tests/online/refusal_samples.py``), the page in headless
Chromium against a real ``serve``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from battle import i18n
from battle.online.client.wording import refusal_text
from battle.online.protocol.messages import ErrorCode
from battle.online.protocol.server_messages import Error, State
from battle.online.protocol.server_reader import parse_server_message
from tests.online.refusal_samples import STATE, samples
from tests.web.conftest import Served
from tests.web.game_pages import new_page

PAGE_WORDS = """async ([errors, state]) => {
  const { refusalText } = await import("/server_words.js");
  return errors.map(([code, params, withState]) =>
    refusalText({ type: "error", code, params }, withState ? state : null));
}"""
"""Each sample worded by the page's own module."""


@pytest.fixture
def language() -> Iterator[None]:
    yield
    i18n.set_language("en")


@pytest.mark.usefixtures("language")
def test_the_page_words_every_refusal_as_the_window_does(browser: Any, served: Served) -> None:
    state = parse_server_message(json.dumps(STATE))
    assert isinstance(state, State)
    errors = samples()
    said: dict[str, list[str]] = {}
    for code in ("en", "de"):
        i18n.set_language(code)
        window = [
            refusal_text(Error(ErrorCode(kind), "", params), state if with_state else None)
            for kind, params, with_state in errors
        ]
        page = new_page(browser)
        page.goto(f"{served.base}/?lang={code}")
        page.wait_for_selector("#home:not([hidden])")
        said[code] = page.evaluate(PAGE_WORDS, [errors, STATE])
        differ = [
            (error, mine, theirs)
            for error, mine, theirs in zip(errors, window, said[code], strict=True)
            if mine != theirs
        ]
        assert not differ, f"{code}: {len(differ)} of {len(errors)} differ, e.g. {differ[:3]}"
        assert page.errors == []
    assert len(errors) > 150 and all(en != de for en, de in zip(said["en"], said["de"], strict=True))
