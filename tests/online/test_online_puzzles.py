"""Puzzles through a real server: the line stays on the server until the attempt is over, each
device's rating moves exactly as the window's history moves a player's, and it is kept per device."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from battle.history.puzzle_attempts import rate_attempt as window_rate_attempt
from battle.history.store import History
from battle.online.server.limits.server import ServerLimits
from battle.online.server.puzzles.ledger import NEWCOMER, DeviceStanding, puzzle_rating_for, rate_attempt
from battle.puzzles import load_puzzles
from battle.puzzles.puzzle import Puzzle
from battle.rules.board import move_name
from tests.online_server import Client, ServerThread

DEVICE = "0123456789abcdef0123456789abcdef"
OTHER_DEVICE = "fedcba9876543210fedcba9876543210"


@pytest.fixture(scope="module")
def puzzles() -> dict[str, Puzzle]:
    return {puzzle.id: puzzle for puzzle in load_puzzles()}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with ServerThread(tmp_path / "games.sqlite3") as running:
        yield running


def open_puzzle(client: Client, device: str = DEVICE, **more: Any) -> dict[str, Any]:
    client.send({"type": "puzzle_open", "device": device, **more})
    return client.expect("puzzle_shown")


def solve(client: Client, puzzle: Puzzle) -> list[dict[str, Any]]:
    """Every move of the side that solves, as the line has them; the verdicts."""
    verdicts = []
    for move in puzzle.line[::2]:
        client.send({"type": "puzzle_move", "move": move_name(move)})
        verdicts.append(client.expect("puzzle_judged"))
    return verdicts


def wrong_move(puzzle: Puzzle) -> str:
    return move_name(min(puzzle.losses[0]))


def test_the_ledger_moves_ratings_as_the_window_does(tmp_path: Path, puzzles: dict[str, Puzzle]) -> None:
    history = History(tmp_path / "history.sqlite3")
    rng = random.Random(62)
    chosen = rng.sample(sorted(puzzles), 12)
    standing: DeviceStanding = NEWCOMER
    mine: dict[str, Any] = {}
    for number, ident in enumerate([*chosen, chosen[0], chosen[3]]):  # two puzzles twice: their ratings moved
        puzzle, solved = puzzles[ident], rng.random() < 0.6
        window = window_rate_attempt(history, puzzle, solved, when=1000.0 + number)
        standing, change = rate_attempt(standing, puzzle_rating_for(puzzle.rating, mine, ident), solved)
        mine[ident] = change.puzzle_after
        assert change.player_after == window.player_after
        assert change.puzzle_after == window.puzzle_after
        assert change.streak == window.streak
    history.close()


def test_a_solved_and_a_failed_puzzle_rate_as_the_window_would(
    server: ServerThread, puzzles: dict[str, Puzzle], tmp_path: Path
) -> None:
    solved_puzzle = next(puzzle for puzzle in puzzles.values() if puzzle.length == 2)
    failed_puzzle = next(puzzle for puzzle in puzzles.values() if puzzle.length == 1)
    client = Client(server.url)
    shown = open_puzzle(client, puzzle=solved_puzzle.id)
    assert shown["position"] == solved_puzzle.position_text
    assert shown["standing"]["rating"] == 1500 and shown["standing"]["streak"] == 0
    assert "line" not in shown and "losses" not in shown and "then" not in shown
    verdicts = solve(client, solved_puzzle)
    assert [verdict["correct"] for verdict in verdicts] == [True, True]
    assert verdicts[0]["reply"] == move_name(solved_puzzle.line[1]) and verdicts[0]["change"] is None
    assert verdicts[-1]["solved"] and verdicts[-1]["finished"]
    first = verdicts[-1]["change"]
    solution = client.expect("puzzle_solution")
    assert solution["line"] == [move_name(move) for move in solved_puzzle.line]

    open_puzzle(client, puzzle=failed_puzzle.id)
    client.send({"type": "puzzle_move", "move": wrong_move(failed_puzzle)})
    judged = client.expect("puzzle_judged")
    assert not judged["correct"] and judged["loss"] == failed_puzzle.losses[0][min(failed_puzzle.losses[0])]
    assert judged["refuting"] is False  # a server without a solver: the loss, no refutation
    second = judged["change"]
    client.send({"type": "puzzle_reveal"})
    revealed = client.expect("puzzle_solution")
    assert revealed["rest"] == [move_name(move) for move in failed_puzzle.line] and revealed["change"] is None
    client.close()

    history = History(tmp_path / "window.sqlite3")
    window_first = window_rate_attempt(history, solved_puzzle, True)
    window_second = window_rate_attempt(history, failed_puzzle, False)
    history.close()
    for told, window in ((first, window_first), (second, window_second)):
        assert told["player_after"]["rating"] == pytest.approx(window.player_after.rating, abs=0.01)
        assert told["player_after"]["deviation"] == pytest.approx(window.player_after.deviation, abs=0.01)
        assert told["puzzle_after"]["rating"] == pytest.approx(window.puzzle_after.rating, abs=0.01)
        assert told["streak"] == window.streak

    again = Client(server.url)  # a reload: the device's rating is the server's
    standing = open_puzzle(again)["standing"]
    assert standing["rating"] == pytest.approx(window_second.player_after.rating, abs=0.01)
    assert (standing["streak"], standing["best_streak"], standing["attempts"]) == (0, 1, 2)
    assert open_puzzle(again, OTHER_DEVICE)["standing"]["attempts"] == 0
    again.close()


def test_a_puzzle_rated_again_starts_from_the_devices_rating_of_it(
    server: ServerThread, puzzles: dict[str, Puzzle]
) -> None:
    puzzle = next(iter(puzzles.values()))
    client = Client(server.url)
    assert open_puzzle(client, puzzle=puzzle.id)["rating"] == puzzle.rating
    client.send({"type": "puzzle_reveal"})
    after = client.expect("puzzle_solution")["change"]["puzzle_after"]["rating"]
    assert open_puzzle(client, puzzle=puzzle.id)["rating"] == pytest.approx(after, abs=0.01)
    client.close()


def test_one_decision_per_attempt(server: ServerThread, puzzles: dict[str, Puzzle]) -> None:
    puzzle = next(puzzle for puzzle in puzzles.values() if puzzle.length == 1)
    client = Client(server.url)
    open_puzzle(client, puzzle=puzzle.id)
    client.send({"type": "puzzle_move", "move": wrong_move(puzzle)})
    assert client.expect("puzzle_judged")["change"] is not None
    client.send({"type": "puzzle_move", "move": wrong_move(puzzle)})
    assert client.expect("puzzle_judged")["change"] is None  # tried again: counted once
    [verdict] = solve(client, puzzle)
    assert verdict["correct"] and verdict["finished"] and not verdict["solved"] and verdict["change"] is None
    client.send({"type": "puzzle_move", "move": wrong_move(puzzle)})
    assert client.error()["code"] == "game_over"
    client.close()


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ({"type": "puzzle_open", "device": "ABCDEF0123456789abcdef0123456789"}, '"device"'),
        ({"type": "puzzle_open", "device": DEVICE[:31]}, '"device"'),
        ({"type": "puzzle_open"}, '"device"'),
        ({"type": "puzzle_open", "device": DEVICE, "puzzle": "../../etc"}, '"puzzle"'),
        ({"type": "puzzle_open", "device": DEVICE, "theme": "luck"}, '"theme"'),
        ({"type": "puzzle_move", "move": "z9-z10"}, '"move"'),
    ],
)
def test_bad_requests_are_refused_in_one_line(server: ServerThread, message: dict[str, Any], field: str) -> None:
    client = Client(server.url)
    client.send(message)
    error = client.error()
    assert error["code"] == "bad_message" and field in error["reason"] and "\n" not in error["reason"]
    client.close()


def test_unknown_puzzle_and_no_puzzle_open(server: ServerThread) -> None:
    client = Client(server.url)
    client.send({"type": "puzzle_move", "move": "a1-b2"})
    assert client.error()["code"] == "no_game"
    client.send({"type": "puzzle_open", "device": DEVICE, "puzzle": "0000000000"})
    assert client.error()["code"] == "not_found"
    client.close()


def test_next_by_rating_keeps_to_the_theme(server: ServerThread, puzzles: dict[str, Puzzle]) -> None:
    client = Client(server.url)
    for _ in range(3):
        shown = open_puzzle(client, theme="sacrifice")
        assert "sacrifice" in shown["themes"] and shown["puzzle"] in puzzles
    client.close()


def give_up(client: Client, device: str, ident: str | None = None) -> dict[str, Any]:
    """Open a puzzle and ask for its solution: one rated attempt."""
    open_puzzle(client, device, **({"puzzle": ident} if ident else {}))
    client.send({"type": "puzzle_reveal"})
    return client.expect("puzzle_solution")


OPEN = ServerLimits().puzzles_open_per_network


def with_limits(server: ServerThread, monkeypatch: pytest.MonkeyPatch, **caps: int) -> None:
    """The running server's puzzle desk with ``caps`` for this test (as ``serve``'s options set them)."""
    assert server.games is not None
    desk = server.games.puzzles
    monkeypatch.setattr(desk, "limits", replace(desk.limits, **caps))


def test_a_network_starts_few_devices_and_makes_few_attempts_an_hour(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    with_limits(server, monkeypatch, puzzle_ratings_per_hour=2, puzzle_attempts_per_hour=4)
    client = Client(server.url)
    give_up(client, "1" * 32)
    give_up(client, "2" * 32)
    client.send({"type": "puzzle_open", "device": "3" * 32})
    refused = client.error()
    assert refused["code"] == "busy" and refused["params"] == {"why": "new_devices", "count": 2}
    give_up(client, "1" * 32)  # a device with a row goes on
    give_up(client, "2" * 32)
    client.send({"type": "puzzle_open", "device": "1" * 32})
    refused = client.error()
    assert refused["code"] == "busy" and refused["params"] == {"why": "puzzle_attempts", "count": 4}
    server.offset = 3601.0  # an hour on: both caps count afresh
    give_up(client, "3" * 32)
    client.close()


def test_keys_opened_without_an_attempt_count_as_started_so_the_cap_is_not_raced(
    server: ServerThread, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A device's row comes when its first attempt is decided: keys opened on many connections at once,
    none decided yet, count against the network's new devices all the same (30 were raced to 64)."""
    with_limits(server, monkeypatch, puzzle_ratings_per_hour=3)
    tabs = [Client(server.url) for _ in range(5)]
    answers = []
    for number, tab in enumerate(tabs):
        tab.send({"type": "puzzle_open", "device": f"{number}" * 32})
        answers.append(tab.read())
    assert [answer["type"] for answer in answers] == ["puzzle_shown"] * 3 + ["error"] * 2
    assert answers[3]["params"] == {"why": "new_devices", "count": 3}
    tabs[0].send({"type": "puzzle_reveal"})  # its row comes: counted once, not twice
    tabs[0].expect("puzzle_solution")
    open_puzzle(tabs[1], "1" * 32)  # a key already opened opens again
    tabs[4].send({"type": "puzzle_open", "device": "4" * 32})
    assert tabs[4].error()["params"]["why"] == "new_devices"
    for tab in tabs:
        tab.close()


def test_a_device_keeps_its_latest_attempts(
    server: ServerThread, puzzles: dict[str, Puzzle], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("battle.online.server.puzzles.desk.ATTEMPTS_KEPT", 2)
    monkeypatch.setattr("battle.online.server.puzzles.desk.PRUNE_EVERY", 1)
    first, *others = sorted(puzzles)[:4]
    client = Client(server.url)
    moved = give_up(client, DEVICE, first)["change"]["puzzle_after"]["rating"]
    assert open_puzzle(client, puzzle=first)["rating"] == pytest.approx(moved, abs=0.01)
    for ident in others:
        give_up(client, DEVICE, ident)
    shown = open_puzzle(client, puzzle=first)  # its attempt dropped: the mined rating again
    assert shown["rating"] == puzzles[first].rating and shown["standing"]["attempts"] == 4
    assert server.games is not None
    rows = server.games.live.store.read_rows("SELECT COUNT(*) FROM puzzle_device_attempts WHERE device = ?", (DEVICE,))
    assert rows == [(2,)]
    client.close()


def test_a_network_holds_eight_puzzles_open_and_a_ninth_waits_for_one_to_close(server: ServerThread) -> None:
    """An open puzzle stops its connection's idle clock, as a game does: a network holds at most
    ``puzzles_open_per_network`` of them, so strangers cannot hold the server's connections with puzzles."""
    held = [Client(server.url, source="127.0.4.1") for _ in range(OPEN)]
    for client in held:
        open_puzzle(client)
    extra = Client(server.url, source="127.0.4.1")
    extra.send({"type": "puzzle_open", "device": DEVICE})
    error = extra.error()
    assert (error["code"], error["params"]) == ("busy", {"why": "puzzles_open", "count": OPEN})
    open_puzzle(held[0])  # a connection with one open opens the next in its place
    elsewhere = Client(server.url, source="127.0.4.2")
    open_puzzle(elsewhere)  # another network is not held back
    held[0].close()
    for _ in range(100):  # until the server has seen the close
        extra.send({"type": "puzzle_open", "device": DEVICE})
        reply = extra.read()
        if reply["type"] == "puzzle_shown":
            break
        assert reply["type"] == "error" and reply["params"]["why"] == "puzzles_open", reply
        time.sleep(0.05)
    else:
        raise AssertionError("the ninth puzzle never opened after one of eight closed")
    for client in (*held[1:], extra, elsewhere):
        client.close()
