"""The shared directory of the server groups against a real PostgreSQL (``tests/postgres_server.py``):
a code names one game of one group, a token's hash its group, a network's games count on the other
groups until its group sweeps them, the codes and tokens of games a group no longer keeps leave, and a
PostgreSQL that stops answering is ``DirectoryDown`` at once, then tried again."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from battle.online.server.processes import shared_directory
from battle.online.server.processes.group_routes import RETRY_SECONDS, DirectoryDown
from battle.online.server.processes.shared_directory import SharedDirectory
from tests.loop_apart import run_apart
from tests.online.test_online_groups import psycopg_installed
from tests.postgres_server import RunningPostgres, postgres


@pytest.fixture
def database() -> Iterator[RunningPostgres]:
    psycopg_installed()
    with postgres() as running:
        yield running


def test_codes_tokens_and_counts_are_kept_across_groups(database: RunningPostgres) -> None:
    async def check() -> None:
        a, b = SharedDirectory(database.url, "a"), SharedDirectory(database.url, "b")
        try:
            assert await a.claim("g1", "INVITE01", "WATCH001")
            assert not await b.claim("g2", "INVITE01", "WATCH002")  # the invite is a's game's
            assert not await b.claim("g2", "INVITE02", "INVITE01")  # nor may it be another's watch code
            assert await b.claim("g2", "INVITE02", "WATCH002")
            assert (await a.holder("join", "INVITE02"), await b.holder("watch", "WATCH001")) == ("b", "a")
            assert await a.holder("watch", "INVITE02") is None  # an invite code does not watch
            assert await a.holder("join", "NOGAME00") is None
            await a.add_seat("hash-1", "g1")
            assert await b.holder("token", "hash-1") == "a"
            network = await a.network_tag("192.0.2.7")
            assert network == await b.network_tag("192.0.2.7") != await a.network_tag("192.0.2.8")
            await a.hold("g1", [network], solver=False)
            await a.hold("g3", [network], solver=True)
            await a.carry("g1", "g1-rematch")
            assert await b.held_elsewhere(network, solver=False) == 2
            assert await b.held_elsewhere(network, solver=True) == 1
            assert await a.held_elsewhere(network, solver=False) == 0  # its own are counted at home
            assert await a.sweep(lambda game: game == "g1-rematch") == 2
            assert await b.held_elsewhere(network, solver=False) == 1
        finally:
            await a.close()
            await b.close()

    run_apart(check())


def test_the_codes_and_tokens_of_games_gone_leave_once_settled(
    database: RunningPostgres, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def check() -> None:
        a = SharedDirectory(database.url, "a")
        try:
            for number in range(3):
                assert await a.claim(f"g{number}", f"INVITE0{number}", f"WATCH00{number}")
                await a.add_seat(f"hash-{number}", f"g{number}")
            assert await a.forget_gone("games", "", lambda games: set()) == ""
            assert await a.holder("join", "INVITE00") == "a"  # too fresh: its game may be on its way to disk
            monkeypatch.setattr(shared_directory, "SETTLE_SECONDS", 0)
            monkeypatch.setattr(shared_directory, "SWEEP_BATCH", 2)
            after = await a.forget_gone("games", "", lambda games: {"g1"} & set(games))
            assert after == "g1"  # a whole batch: the next sweep goes on after it
            assert await a.forget_gone("games", after, lambda games: set()) == ""
            kept = {"INVITE01", "WATCH001"}
            for code in ("INVITE00", "INVITE01", "INVITE02"):
                assert (await a.holder("join", code) == "a") == (code in kept), code
            await a.forget_gone("tokens", "", lambda tokens: {"hash-2"} & set(tokens))
            await a.forget_gone("tokens", "hash-1", lambda tokens: {"hash-2"} & set(tokens))
            assert [await a.holder("token", f"hash-{n}") for n in range(3)] == [None, None, "a"]
        finally:
            await a.close()

    run_apart(check())


def test_a_directory_that_stops_answering_is_down_at_once_then_tried_again(database: RunningPostgres) -> None:
    now = [1000.0]

    async def check() -> None:
        a = SharedDirectory(database.url, "a", clock=lambda: now[0])
        try:
            assert await a.claim("g1", "INVITE01", "WATCH001")
            database.stop()
            with pytest.raises(DirectoryDown) as failed:
                await a.holder("join", "INVITE01")
            assert failed.value.seconds == RETRY_SECONDS
            now[0] += 1.5
            with pytest.raises(DirectoryDown) as waiting:  # not tried: refused at once, with the seconds left
                await a.holder("join", "INVITE01")
            assert waiting.value.seconds == pytest.approx(RETRY_SECONDS - 1.5)
            now[0] += RETRY_SECONDS
            with pytest.raises(DirectoryDown, match="did not answer"):  # tried again, and down still
                await a.holder("join", "INVITE01")
        finally:
            await a.close()

    run_apart(check())


def test_a_directory_that_hangs_is_down_after_its_answer_time(
    database: RunningPostgres, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared_directory, "ANSWER_SECONDS", 0.5)

    async def check() -> None:
        a = SharedDirectory(database.url, "a")
        try:
            with pytest.raises(DirectoryDown, match="no answer in 0.5 s"):
                await a.holder("join", "INVITE01")
        finally:
            await a.close()

    database.server.send_signal(signal.SIGSTOP)  # it takes the connection and says nothing
    try:
        run_apart(check())
    finally:
        database.server.send_signal(signal.SIGCONT)
