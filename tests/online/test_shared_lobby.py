"""The groups' shared lobby and day's table, their pure parts (the notes, the rows, the board's swap),
and the lobby's adapter against a real PostgreSQL (``tests/postgres_server.py``): another group's
challenges are listed, and those of a group gone quiet, or past their time, leave the table and the board."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from battle.online.protocol.codes import hash_token
from battle.online.protocol.lobby_messages import ChallengeEntry
from battle.online.server.days.shared import BadResultRow, hashed_device, read_result_row, result_row
from battle.online.server.days.table import DayResult
from battle.online.server.limits.server import ServerLimits
from battle.online.server.lobby.board import LobbyBoard, LobbyLimits, OpenOffer
from battle.online.server.lobby.desk import LobbyDesk
from battle.online.server.lobby.shared import SharedLobby
from battle.online.server.lobby.shared_notes import (
    NOTE_ITEMS,
    BadNote,
    LobbyNote,
    SharedOffer,
    notes,
    offer_row,
    read_note,
    read_offer_row,
    reload_note,
    remote_key,
)
from battle.online.server.peers.fan_out import Audiences
from battle.online.server.processes.shared_directory import SharedDirectory
from battle.online.server.rooms.group_commit import EachCommit
from battle.online.server.rooms.live_games import LiveGames
from battle.online.server.rooms.shards import ONE_PROCESS
from battle.online.server.rooms.store import GameStore
from tests.loop_apart import run_apart
from tests.online.test_online_groups import psycopg_installed
from tests.postgres_server import RunningPostgres, postgres


def entry(number: int, opened: float = 0.0, name: str = "Ann") -> ChallengeEntry:
    return ChallengeEntry(f"CODE{number:04}", name, "number", number, "creator", 60, opened)


# -- pure ------------------------------------------------------------------------------------


def test_notes_read_back_as_written_and_stay_small() -> None:
    offers = [SharedOffer(entry(number, name="N" * 100), f"net{number}") for number in range(NOTE_ITEMS + 3)]
    written = list(notes("a", offers, ["GONE0001"]))
    assert len(written) == 2 and all(len(note.encode()) < 8000 for note in written)
    first, second = (read_note(note) for note in written)
    assert first == LobbyNote("a", tuple(offers[:NOTE_ITEMS]), ("GONE0001",))
    assert second == LobbyNote("a", tuple(offers[NOTE_ITEMS:]), ())
    assert read_note(reload_note("b")) == LobbyNote("b", reload=True)
    assert read_offer_row(offer_row(offers[0])) == offers[0]


@pytest.mark.parametrize(
    "payload",
    [
        "not json",
        "[1]",
        '{"open": []}',
        '{"grp": "a", "open": {}}',
        '{"grp": "a", "gone": [1]}',
        '{"grp": "a", "open": [{"entry": {"code": "X"}, "network": "n"}]}',
        '{"grp": "a", "open": [{"entry": {}}]}',
        json.dumps({"grp": "a", "gone": ["X" * 9000]}),
        '{"grp": "a", "open": ' + "[" * 3500 + "]" * 3500 + "}",  # under the 8,000 bytes NOTIFY carries
        '{"grp": "a", "open": [], "gone": [], "at": Infinity}',
        '{"grp": "a", "open": [], "gone": [], "at": NaN}',
    ],
)
def test_a_note_no_group_wrote_is_refused_in_one_line(payload: str) -> None:
    with pytest.raises(BadNote) as refused:
        read_note(payload)
    assert "\n" not in str(refused.value)


def test_another_groups_key_is_never_a_game_id() -> None:
    assert remote_key("b", "CODE0001") == "@b/CODE0001"
    assert not remote_key("bc", "X").startswith(remote_key("b", ""))


def test_the_boards_swap_is_one_piece_of_news() -> None:
    board = LobbyBoard()
    board.open(OpenOffer("game1", "net", entry(1)))
    board.open(OpenOffer(remote_key("b", "CODE0002"), "net", entry(2)))
    news = board.swap([remote_key("b", "CODE0002")], [OpenOffer(remote_key("b", "CODE0003"), "net", entry(3))])
    assert news.removed == ("CODE0002",) and [added.code for added in news.added] == ["CODE0003"]
    assert list(board.offers) == ["game1", remote_key("b", "CODE0003")]
    assert board.swap([], []).added == ()


def test_a_days_result_reads_back_named_with_its_group() -> None:
    result = DayResult("g1", 2, "Ann", (40, 36), 1, "friend", 1.5e9, "net", "device-key", other_network="far")
    hashed = hashed_device(result)
    assert hashed.device == hash_token("device-key")
    back = read_result_row("b", result_row(hashed))
    assert back == DayResult("b/g1", 2, "Ann", (40, 36), 1, "friend", 1.5e9, "b:net", hashed.device, "b:far")
    with pytest.raises(BadResultRow):
        read_result_row("b", '{"game": "g1"}')
    with pytest.raises(BadResultRow):
        read_result_row("b", result_row(DayResult("g1", 3, "Ann", (40, 36), 1, "friend", 0.0, "net")))


@pytest.mark.parametrize(
    "row",
    [
        '{"game": "g1", "seat": 1, "name": "A", "scores": [Infinity, 3], "first": 1, "opponent": "friend", '
        '"finished_at": 0, "network": "n", "device": null}',
        '{"game": "g1", "seat": 1, "name": "A", "scores": [1e999, 3], "first": 1, "opponent": "friend", '
        '"finished_at": 0, "network": "n", "device": null}',
        '{"game": "g1", "scores": ' + "[" * 10_000 + "]" * 10_000 + "}",
        "[1, 2]",
    ],
)
def test_a_shared_result_row_of_any_text_is_left_out_in_one_line(row: str) -> None:
    """Whatever another group (or anyone with the database's password) wrote, a bad row is the one
    line of ``BadResultRow``, never an exception that closes every ``daily`` of every group."""
    with pytest.raises(BadResultRow) as refused:
        read_result_row("b", row)
    assert "\n" not in str(refused.value)


@contextmanager
def a_desk(folder: Path, limits: LobbyLimits | None = None) -> Iterator[LobbyDesk]:
    """A lobby desk over a real (empty) game store, with no followers."""
    store = GameStore(folder / "games.sqlite3")
    server_limits = ServerLimits()
    live = LiveGames(store, EachCommit(store), server_limits, ONE_PROCESS)
    try:
        yield LobbyDesk(Audiences(live, server_limits, time.time), time.time, limits)
    finally:
        store.close()


def test_the_other_groups_challenges_are_listed_while_the_board_has_room(tmp_path: Path) -> None:
    with a_desk(tmp_path, LobbyLimits(open_challenges=3)) as desk:
        desk.shared_changed(LobbyNote("b", tuple(SharedOffer(entry(number), "n") for number in range(2))))
        desk.shared_changed(LobbyNote("bc", tuple(SharedOffer(entry(number), "n") for number in range(2, 5))))
        assert list(desk.board.offers) == ["@b/CODE0000", "@b/CODE0001", "@bc/CODE0002"]
        desk.shared_changed(LobbyNote("b", gone=("CODE0000",)))
        desk.shared_reset("b", [("b", SharedOffer(entry(number), "n")) for number in range(5, 9)])
        assert list(desk.board.offers) == ["@bc/CODE0002", "@b/CODE0007", "@b/CODE0008"]  # the newest of b's
        desk.shared_reset(None, ())
        assert desk.board.offers == {}
        assert desk.own_challenges == 0


# -- against PostgreSQL ----------------------------------------------------------------------


@pytest.fixture
def database() -> Iterator[RunningPostgres]:
    psycopg_installed()
    with postgres() as running:
        yield running


async def until(done: Callable[[], bool], seconds: float = 15.0) -> None:
    """Wait for ``done`` (the adapter works in its own tasks), at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "not within the time allowed"
        await asyncio.sleep(0.05)


async def made_tables(url: str) -> None:
    setup = SharedDirectory(url, "setup")
    await setup.network_tag("192.0.2.1")  # its connection makes the tables
    await setup.close()


def test_a_quiet_groups_challenges_and_old_ones_leave(database: RunningPostgres, tmp_path: Path) -> None:
    import psycopg

    async def check() -> None:
        await made_tables(database.url)
        now = time.time()
        async with await psycopg.AsyncConnection.connect(database.url, autocommit=True) as connection:
            await connection.execute(
                "INSERT INTO battle_lobby_groups (grp, alive) VALUES ('quiet', now() - interval '1 minute'), "
                "('live', now())"
            )
            rows = [
                ("quiet", SharedOffer(entry(1, now), "n1")),
                ("live", SharedOffer(entry(2, now), "n2")),
                ("live", SharedOffer(entry(3, now - 16 * 60), "n3")),  # open past its 15 minutes
            ]
            for group, offer in rows:
                await connection.execute(
                    "INSERT INTO battle_challenges (code, grp, entry, opened) VALUES (%s, %s, %s, %s)",
                    (offer.entry.code, group, offer_row(offer), offer.entry.opened),
                )
            with a_desk(tmp_path) as desk:
                lobby = SharedLobby(database.url, "a", desk)
                running = asyncio.create_task(lobby.run())
                try:
                    live = remote_key("live", "CODE0002")
                    await until(lambda: list(desk.board.offers) == [live])
                    cursor = await connection.execute("SELECT code FROM battle_challenges ORDER BY code")
                    assert [row[0] for row in await cursor.fetchall()] == ["CODE0002"]
                finally:
                    running.cancel()
                    await asyncio.gather(running, return_exceptions=True)
                    await lobby.close()

    run_apart(check())


def test_a_group_taken_for_gone_writes_its_challenges_again_and_takes_them_away_as_it_stops(
    database: RunningPostgres, tmp_path: Path
) -> None:
    import psycopg

    async def codes(connection: psycopg.AsyncConnection[tuple[object, ...]]) -> list[object]:
        cursor = await connection.execute("SELECT code FROM battle_challenges WHERE grp = 'a'")
        return [row[0] for row in await cursor.fetchall()]

    async def check() -> None:
        await made_tables(database.url)
        with a_desk(tmp_path) as desk:
            lobby = SharedLobby(database.url, "a", desk)
            running = asyncio.create_task(lobby.run())
            async with await psycopg.AsyncConnection.connect(database.url, autocommit=True) as connection:
                try:
                    assert desk.on_open is not None
                    desk.on_open(SharedOffer(entry(1, time.time()), "n1"))  # as the desk tells a challenge opened
                    seen: list[object] = []

                    async def written() -> bool:
                        seen[:] = await codes(connection)
                        return seen == ["CODE0001"]

                    deadline = time.monotonic() + 15
                    while not await written():
                        assert time.monotonic() < deadline, seen
                        await asyncio.sleep(0.05)
                    await connection.execute(  # another group took it for gone: its stamp is old, its rows deleted
                        "UPDATE battle_lobby_groups SET alive = now() - interval '1 minute' WHERE grp = 'a'"
                    )
                    await connection.execute("DELETE FROM battle_challenges WHERE grp = 'a'")
                    deadline = time.monotonic() + 15
                    while not await written():  # its next stamp finds it so and writes its rows again
                        assert time.monotonic() < deadline, seen
                        await asyncio.sleep(0.05)
                finally:
                    running.cancel()
                    await asyncio.gather(running, return_exceptions=True)
                    await lobby.close()
                assert await codes(connection) == []

    run_apart(check())
