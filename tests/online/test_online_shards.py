"""The pure parts of ``serve --processes``: which process holds a game, the frames a connection has not
handled yet, the notes between processes and ``/stats`` added up."""

from __future__ import annotations

import os

import pytest
from websockets.frames import Frame, Opcode

from battle.online.server.handoff import FrameTail, Picked, Released, decode, encode
from battle.online.server.process_link import merged_stats
from battle.online.server.shards import Shard, parse_shard, shard_of
from battle.online.server.supervisor import forwarded_by


def client_frame(opcode: Opcode, payload: bytes, fin: bool = True) -> bytes:
    """A frame as a client sends it: masked."""
    return Frame(opcode, payload, fin).serialize(mask=True, extensions=[])


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


def test_the_tail_keeps_the_frames_not_handled_across_any_split_of_the_bytes() -> None:
    frames = [
        client_frame(Opcode.TEXT, b'{"type":"join","code":"ABCD2345"}'),
        client_frame(Opcode.PING, b"keepalive"),
        client_frame(Opcode.TEXT, b'{"type":"move","move":"a1-b2","id":"m1"}' * 10),  # a 2-byte length
        client_frame(Opcode.TEXT, os.urandom(70_000)),  # an 8-byte length
    ]
    stream = b"".join(frames)
    for cut in (1, 2, 3, 7, 100, len(stream) - 5):
        tail = FrameTail()
        for start in range(0, len(stream), cut):
            tail.feed(stream[start : start + cut])
        tail.read_one()  # the handler took the join
        assert tail.unread() == frames[2] + frames[3]  # the ping is answered where it arrived
        assert tail.whole


def test_a_half_read_frame_goes_with_the_connection() -> None:
    frame = client_frame(Opcode.TEXT, b'{"type":"ping","t":1}')
    tail = FrameTail()
    tail.feed(frame[:5])
    assert tail.unread() == frame[:5]


def test_a_fragmented_message_or_a_close_keeps_the_connection_where_it_is() -> None:
    for frames in (
        [client_frame(Opcode.TEXT, b"half", fin=False), client_frame(Opcode.CONT, b"rest")],
        [client_frame(Opcode.CLOSE, b"\x03\xe8")],
    ):
        tail = FrameTail()
        for frame in frames:
            tail.feed(frame)
        assert not tail.whole


def test_a_note_between_processes_reads_back_as_it_was_written() -> None:
    picked = Picked(0, "192.0.2.7", "/", [("Host", "example.org")], "Ann", '{"type":"watch"}', "AAEC", 1, ["g1"])
    assert decode(encode(picked)) == picked
    assert decode(encode(Released("192.0.2.7", 1))) == Released("192.0.2.7", 1)
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
