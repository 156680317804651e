"""A shared feature's PostgreSQL going away is said in the log once, however many requests find it
away, and said again only after it answered in between; its return is said where the feature has
words for it."""

from __future__ import annotations

import logging

import pytest

from battle.online.server.processes.shared_away import SaidOnce


def test_going_away_is_said_once_and_again_after_a_return(caplog: pytest.LogCaptureFixture) -> None:
    lobby = SaidOnce("the shared lobby is unavailable ({reason}); alone", "the shared lobby answers again")
    pars = SaidOnce("the shared pars are unavailable")
    with caplog.at_level(logging.WARNING, logger="mahjong-battle.server"):
        for _ in range(100):
            lobby.lost("connection refused {0}")  # a reason with braces is words, not a template
            pars.lost()
        assert lobby.down and pars.down
        lobby.answered()
        pars.answered()
        pars.answered()
        lobby.lost("timeout")
    assert [record.getMessage() for record in caplog.records] == [
        "the shared lobby is unavailable (connection refused {0}); alone",
        "the shared pars are unavailable",
        "the shared lobby answers again",
        "the shared lobby is unavailable (timeout); alone",
    ]
    assert lobby.down and not pars.down
