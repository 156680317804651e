"""The server's own text frames: the bytes websockets would write, a move's ``moved`` and ``ack`` in
order from the real ``serve`` on each event loop it runs on."""

from __future__ import annotations

from pathlib import Path

import pytest
from websockets.frames import Frame, Opcode

from battle.online.server.peers.text_frames import text_frame
from battle.online.server.processes.tuning import serving_loop
from tests.online_server import ServerProcess, a_legal_move, started


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_text_frame_is_the_bytes_websockets_writes(size: int) -> None:
    payload = ("é" * size).encode()[:size]  # the length fields count bytes, not characters
    assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False)


@pytest.mark.parametrize("loop", ["auto", "asyncio"])
def test_moves_reach_both_players_in_order_on_each_event_loop(tmp_path: Path, loop: str) -> None:
    with ServerProcess(tmp_path, "--event-loop", loop) as server:
        host, guest, _created, state = started(server.url)
        try:
            players = {1: host, 2: guest}
            for number in range(1, 7):
                mover = players[state["to_move"]]
                move = a_legal_move(state)
                mover.send({"type": "move", "move": move, "id": f"m{number}"})
                moved = mover.expect("moved")
                assert mover.read() == {
                    "type": "ack",
                    "id": f"m{number}",
                    "ply": number,
                    "move": move,
                    "taken_back": False,
                }
                assert (moved["move"], moved["ply"]) == (move, number)
                assert players[3 - moved["seat"]].expect("moved") == moved  # the same frame to the other
                state["moves"].append(move)
                state["to_move"] = moved["to_move"]
        finally:
            host.close()
            guest.close()


def test_the_server_runs_on_uvloop_when_it_is_installed() -> None:
    uvloop = pytest.importorskip("uvloop")
    assert serving_loop() is uvloop.new_event_loop
    assert serving_loop("asyncio") is None
