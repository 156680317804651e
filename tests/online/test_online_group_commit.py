"""Group commit in the running server, over real sockets on 127.0.0.1: moves of many games stored in
one transaction, a write that fails failing only its own move, and nothing told before it is stored.

The writer is held by another connection's open transaction (as another program's write would hold
it), so the moves sent meanwhile queue up and go to disk as one group once it lets go. The tests wait
for events (the queue's length, the messages), never for a time.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from battle.online.server.rooms.group_commit import GroupCommit
from battle.online.server.rooms.store import GameStore
from tests.online_server import Client, ServerThread, a_legal_move, host_and_join

WAIT = 10.0


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting: {what}"
        time.sleep(0.005)


def committer(server: ServerThread) -> GroupCommit:
    assert server.games is not None
    assert isinstance(server.games.live.committer, GroupCommit)
    return server.games.live.committer


def test_a_write_that_fails_fails_only_its_own_move_in_the_group(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    # no wait for more writes after the first: with it, a loaded machine can keep the writer in its wait
    # until the three later moves arrive, and all four go as one group, not the first alone at the lock
    with ServerThread(database, gather_seconds=0) as server:
        games = [host_and_join(server.url, deal=deal) for deal in (3, 4, 5, 6)]
        writer = committer(server)
        holder = sqlite3.connect(database, isolation_level=None, timeout=5)
        holder.execute("BEGIN IMMEDIATE")  # the writer's next BEGIN waits for this
        holder.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON moves WHEN NEW.move_id = 'doomed' "
            "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )
        first_host = games[0][0]
        first_host.send({"type": "move", "move": a_legal_move(first_host.seen[-1]), "id": "m1"})
        wait_for(
            lambda: writer._queue.qsize() == 0 and games[0][2]["game"] in server.games.live.in_flight,
            "the writer took the first move and waits for the lock",
        )
        for (host, _, _, _), move_id in zip(games[1:], ("doomed", "m1", "m1"), strict=True):
            host.send({"type": "move", "move": a_legal_move(host.seen[-1]), "id": move_id})
        wait_for(lambda: writer._queue.qsize() == 3, "three moves queued behind the held writer")
        for host, guest, _, _ in games:
            assert not [m for m in host.seen + guest.seen if m["type"] in ("moved", "ack")]  # nothing told yet
        holder.execute("COMMIT")
        holder.close()
        for index, (host, guest, _created, _) in enumerate(games):
            if index == 1:
                error = host.error()
                assert error["code"] == "internal", error
                continue
            assert host.expect("ack")["id"] == "m1"
            assert guest.expect("moved")["ply"] == 1
        assert writer.batch_sizes[3] >= 1, writer.batch_sizes  # the three waiting moves went as one group
        host, guest, created, _ = games[1]
        host.send({"type": "move", "move": a_legal_move(host.seen[-2]), "id": "m2"})  # the game was reloaded
        assert host.expect("ack")["ply"] == 1
        assert guest.expect("moved")["ply"] == 1
        for host, guest, _, _ in games:
            host.close()
            guest.close()
    with GameStore(database) as store:
        rooms = [store.load_game(created["game"]) for _, _, created, _ in games]
    assert [room.ply if room else None for room in rooms] == [1, 1, 1, 1]
    assert rooms[1] is not None and [receipt.move_id for receipt in rooms[1].receipts] == ["m2"]


def test_a_newcomer_sees_no_move_that_is_not_stored(tmp_path: Path) -> None:
    """A spectator who arrives while a move waits for its commit gets a state without it, then the
    state and ``moved`` with it once it is stored."""
    database = tmp_path / "games.sqlite3"
    with ServerThread(database) as server:
        host, guest, created, _ = host_and_join(server.url)
        writer = committer(server)
        holder = sqlite3.connect(database, isolation_level=None, timeout=5)
        holder.execute("BEGIN IMMEDIATE")
        host.send({"type": "move", "move": a_legal_move(host.seen[-1]), "id": "m1"})
        wait_for(
            lambda: writer._queue.qsize() == 0 and created["game"] in server.games.live.in_flight,
            "the move is in flight",
        )
        watcher = Client(server.url, "Watcher")
        watcher.send({"type": "watch", "code": created["watch"]})
        with pytest.raises(TimeoutError):  # the watch is read while the move is in flight: its state waits
            watcher.read(timeout=0.3)
        holder.execute("COMMIT")
        holder.close()
        state = watcher.expect("state")
        assert len(state["moves"]) == 1
        assert host.expect("ack")["ply"] == 1
        for client in (host, guest, watcher):
            client.close()


def test_the_writer_goes_on_after_a_group_fails_unexpectedly(tmp_path: Path) -> None:
    """A group whose commit raises something other than an SQLite error (here: the disk's sync is
    cut short, with its transaction left open) fails its own moves; the writer thread goes on
    and the next move is stored."""
    database = tmp_path / "games.sqlite3"
    with ServerThread(database) as server:
        host, guest, created, _ = host_and_join(server.url)
        writer = committer(server)
        store = writer.store
        calls = []

        def failing_once(writes, connection, failed_games):  # type: ignore[no-untyped-def]
            calls.append(len(writes))
            if len(calls) == 1:
                connection.execute("BEGIN IMMEDIATE")
                raise OSError("the sync was cut short")
            return GameStore.commit_group(store, writes, connection, failed_games)

        store.commit_group = failing_once  # type: ignore[method-assign]
        state = host.seen[-1]
        host.send({"type": "move", "move": a_legal_move(state), "id": "m1"})
        assert host.error()["code"] == "internal"
        host.send({"type": "move", "move": a_legal_move(state), "id": "m2"})
        assert host.expect("ack")["ply"] == 1
        assert guest.expect("moved")["ply"] == 1
        host.close()
        guest.close()
    with GameStore(database) as store:
        room = store.load_game(created["game"])
    assert room is not None and [receipt.move_id for receipt in room.receipts] == ["m2"]
