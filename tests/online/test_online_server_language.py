"""The server states facts: a refusal is a code and its params, with a reason in fixed English for
logs and old clients, whatever the locale the server runs under (each client words the code in
its reader's language)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.online_server import LOCALES, Client, ServerProcess, host_and_join


def refusals(url: str) -> list[dict[str, Any]]:
    """The ``error`` frames a script of refused actions gets: moving out of turn, an illegal move, an
    early takeback and rematch, a spectator resigning, an unknown invite code, a position the
    notation cannot read."""
    host, guest, created, _joined = host_and_join(url, deal=5)
    got = []
    guest.send({"type": "move", "move": "a1-a9", "id": "g1"})  # Ann (the host) moves first
    got.append(guest.expect("error"))
    host.send({"type": "move", "move": "a2-a3", "id": "h1"})  # not free: inside a column
    got.append(host.expect("error"))
    host.send({"type": "takeback_request"})
    got.append(host.expect("error"))
    host.send({"type": "rematch_offer"})
    got.append(host.expect("error"))
    watcher = Client(url)
    watcher.send({"type": "watch", "code": created["watch"]})
    watcher.expect("state")
    watcher.send({"type": "resign"})
    got.append(watcher.expect("error"))
    stranger = Client(url)
    stranger.send({"type": "join", "code": "ZZZZ-ZZZZ"})
    got.append(stranger.expect("error"))
    stranger.send({"type": "analyse", "id": "a1", "position": "not a position"})  # the notation's words
    got.append(stranger.expect("error"))
    for client in (host, guest, watcher, stranger):
        client.close()
    return got


def test_a_server_under_a_german_locale_refuses_in_english_with_the_same_codes_and_params(tmp_path: Path) -> None:
    with (
        ServerProcess(tmp_path / "de", env=LOCALES["de"]) as german,
        ServerProcess(tmp_path / "en", env=LOCALES["en"]) as english,
    ):
        assert german.page_line.startswith("Im Browser spielen:")  # the locale took: its console is German
        assert english.page_line.startswith("Play in a browser:")
        from_german, from_english = refusals(german.url), refusals(english.url)
    assert [(e["code"], e["params"], e["reason"]) for e in from_german] == [
        (e["code"], e["params"], e["reason"]) for e in from_english
    ]
    assert [(e["code"], e["params"]) for e in from_german] == [
        ("not_your_turn", {"seat": 1}),
        ("illegal_move", {"move": "a2-a3", "why": "illegal"}),
        ("not_allowed", {"why": "takeback_not_last"}),
        ("not_allowed", {"why": "rematch_early"}),
        ("not_a_player", {"action": "resign"}),
        ("not_found", {"what": "join"}),
        ("bad_message", {}),
    ]
    reasons = [e["reason"] for e in from_german]
    assert reasons[0] == "not your turn: seat 1 is to move"
    assert reasons[1].startswith("a2-a3: a2 is not free")
    assert reasons[4] == "only a player can resign; you watch this game"
