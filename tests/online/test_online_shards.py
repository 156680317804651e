"""The pure parts of ``serve --processes``: which process holds a game, which one a connection's
``?at=`` names, the notes to the processes and ``/stats`` added up."""

from __future__ import annotations

import pytest

from battle.online.protocol.server_groups import place_at, process_at
from battle.online.server.processes.handoff import Fresh, decode, encode
from battle.online.server.processes.link import merged_stats
from battle.online.server.processes.supervisor import forwarded_by, place_asked
from battle.online.server.rooms.shards import Shard, parse_shard, shard_of


def test_a_process_makes_ids_of_its_own_share_and_holds_only_those() -> None:
    for index in range(3):
        shard = Shard(index, 3)
        ids = [shard.new_game_id() for _ in range(20)]
        assert all(shard_of(game_id, 3) == index and shard.holds(game_id) for game_id in ids)
        assert not Shard((index + 1) % 3, 3).holds(ids[0])
    assert Shard().holds("any id") and Shard().alone


def test_a_process_of_the_command_line_is_read_or_refused_with_the_text() -> None:
    assert parse_shard("1/4") == Shard(1, 4)
    for text in ("4/4", "one/two", "1", "-1/3"):
        with pytest.raises(ValueError, match=repr(text)):
            parse_shard(text)


def test_a_place_names_a_process_of_this_server_and_nothing_else() -> None:
    assert place_at(None, 1) == "1" and place_at("b", 1) == "b.1"
    assert [process_at(at, None, 2) for at in ("0", "1", "2", "b.1", "", "01", "١", None)] == [
        0,
        1,
        None,
        None,
        None,
        1,
        None,
        None,
    ]  # an Arabic-Indic digit is no index
    assert [process_at(at, "b", 2) for at in ("b.0", "b.1", "b", "a.1", "b.2", "b.x", "1")] == [
        0,
        1,
        None,
        None,
        None,
        None,
        None,
    ]
    assert place_asked(b"GET /?at=b.1 HTTP/1.1\r\nHost: x\r\n\r\n") == "b.1"
    assert place_asked(b"GET /?lang=de&at=1 HTTP/1.1\r\n\r\n") == "1"
    assert place_asked(b"GET / HTTP/1.1\r\n\r\n") is None and place_asked(b"") is None
    assert place_asked(b"GET /?at=1") is None  # a request line cut short names nothing


def test_a_note_between_processes_reads_back_as_it_was_written() -> None:
    assert decode(encode(Fresh())) == Fresh()
    with pytest.raises(ValueError, match="not a note"):
        decode(b'{"kind": "pickle", "data": "x"}')


def test_stats_of_the_processes_are_added_up_and_the_worst_commit_times_kept() -> None:
    first = "connections 3\ngames_playing 2\nmoves_per_second 1.5\ncommit_ms_p99 4.00\ncommit_ms_p50 -\n"
    second = "connections 4\ngames_playing 1\nmoves_per_second 0.5\ncommit_ms_p99 9.50\ncommit_ms_p50 1.00\n"
    assert merged_stats([first, second], 2) == (
        "processes 2\nconnections 7\ngames_playing 3\nmoves_per_second 2.0\ncommit_ms_p99 9.50\ncommit_ms_p50 1.00\n"
    )


def test_the_supervisor_reads_a_proxys_forwarded_address_from_the_head_as_the_handshake_does() -> None:
    head = (
        b"GET /?at=b HTTP/1.1\r\nHost: games.example.org\r\nX-Forwarded-For: 10.9.9.9, 198.51.100.7\r\n"
        b"x-forwarded-for: 203.0.113.5\r\nUpgrade: websocket\r\n\r\n"
    )
    assert forwarded_by(head) == "203.0.113.5"  # the last entry: the one the proxy appended
    assert forwarded_by(b"GET / HTTP/1.1\r\nHost: a\r\nX-Real-IP: 192.0.2.1\r\n\r\n") == "192.0.2.1"
    assert forwarded_by(b"GET / HTTP/1.1\r\nHost: a\r\n\r\n") is None  # the proxy's own
    assert forwarded_by(b"GET / HTTP/1.1\r\nX-Forwarded-For: 192.0.2.9") == "192.0.2.9"  # a head cut short
    assert forwarded_by(b"") is None
    assert forwarded_by(b"GET / HTTP/1.1\r\n X-Forwarded-For: 192.0.2.9\r\n\r\n") is None  # a folded line
