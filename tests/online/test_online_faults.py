"""Faults of online play: the server killed with -9 mid-game and restarted, clients killed and restarted.

The server runs as a real process (``mahjong-battle serve``) on 127.0.0.1 with a database
in a temporary folder; the players are real ``OnlineSession`` clients playing many games
at once. After the faults every game must finish, and its stored record must hold exactly
the moves its players saw acknowledged, each stored once under the id its player sent it
with: 0 lost, 0 doubled. Loops are bounded in count and
time; the default suite plays 12 games through 3 server kills, ``-m slow`` plays 50 through 7.
"""

from __future__ import annotations

import random
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from battle.online.client.session import OnlineSession
from battle.online.protocol.messages import Create, Join, NumberedDeal
from battle.online.protocol.server_messages import Ack, State
from battle.online.server.rooms.store import GameStore
from battle.rules.board import move_name, parse_move
from battle.rules.notation import parse_position
from tests.online_server import ServerProcess, free_port

GAME_SECONDS = 120.0
IN_FLIGHT_AT_THE_STOP = 5
"""Moves sent and not acknowledged that a frozen server is stopped with: an acknowledgement the
server wrote before the freeze may still be on its way back, but not five of them."""


@contextmanager
def server_process(database: Path, port: int, *options: str) -> Iterator[ServerProcess]:
    """``mahjong-battle serve`` on 127.0.0.1:port with ``database``, stopped at the end. Every
    player here connects from 127.0.0.1, so the caps on one address's connections and games are lifted."""
    lifted = (
        "--max-connections-per-address",
        "1000",
        "--max-games-per-address",
        "1000",
        "--creates-per-hour",
        "3600000",
    )
    with ServerProcess(database.parent, *lifted, *options, port=port) as server:
        yield server


def legal_move(state: State) -> str:
    position = parse_position(state.start)
    for move in state.moves:
        position.push(parse_move(move))
    moves = position.legal_moves()
    return move_name(moves[len(moves) // 2])


class Player:
    """One seat of one game: its session, and every move the server acknowledged to it."""

    def __init__(self, session: OnlineSession, rng: random.Random | None = None) -> None:
        self.session = session
        self.rng = rng or random.Random()
        self.think_until = 0.0
        """A bot thinks 20-100 ms a move, so games are still going when the faults come."""
        self.acked: dict[int, str] = {}
        """Move number -> move, from the acks this player got."""
        self.sent: dict[str, str] = {}
        """Move id -> move, for every move this seat's players sent (a restarted client's too)."""

    def read(self) -> None:
        """Take in what the server sent, recording its acknowledgements."""
        for event in self.session.events():
            if isinstance(event, Ack) and not event.taken_back:
                self.acked[event.ply] = event.move

    def step(self) -> None:
        """Read, then send a move when it is this seat's turn and its thinking time is up."""
        self.read()
        state, seat = self.session.state, self.session.seat
        if (
            state is None
            or seat is None
            or state.status != "playing"
            or state.to_move != seat.seat
            or self.session.pending
            or self.session.link.state != "connected"
        ):
            return
        now = time.monotonic()
        if self.think_until == 0.0:
            self.think_until = now + self.rng.uniform(0.02, 0.1)
        if now < self.think_until:
            return
        self.think_until = 0.0
        move = legal_move(state)
        self.sent[self.session.play(move)] = move

    @property
    def finished(self) -> bool:
        state = self.session.state
        return state is not None and state.status == "finished" and not self.session.pending


def mid_way(player: Player) -> bool:
    state = player.session.state
    return state is not None and state.ply > 0 and not player.finished


def start_games(url: str, count: int) -> list[tuple[Player, Player]]:
    """``count`` games, each joined before the next is created (an address keeps 5 games waiting at most)."""
    games = []
    deadline = time.monotonic() + GAME_SECONDS
    for n in range(count):
        host = Player(OnlineSession(url, Create(NumberedDeal(100 + n), "creator"), f"Host {n}"), random.Random(n))
        while host.session.state is None or not host.session.state.invite:
            assert time.monotonic() < deadline, "a game was not created"
            time.sleep(0.01)
        guest = Player(OnlineSession(url, Join(host.session.state.invite), "Guest"), random.Random(-len(games)))
        while guest.session.state is None:  # joined: the game no longer waits, and the next may be made
            assert time.monotonic() < deadline, "a game was not joined"
            time.sleep(0.01)
        games.append((host, guest))
    return games


def play_until_done(games: list[tuple[Player, Player]], until: float) -> bool:
    while time.monotonic() < until:
        for host, guest in games:
            host.step()
            guest.step()
        if all(host.finished and guest.finished for host, guest in games):
            return True
        time.sleep(0.01)
    return False


def check_records(database: Path, games: list[tuple[Player, Player]]) -> tuple[int, int]:
    """(moves lost, moves doubled) over every game: acknowledged moves missing from the stored
    record, and stored moves that are not one sending of one move id by their seat's player."""
    lost = doubled = 0
    with GameStore(database) as store:
        for host, guest in games:
            seat = host.session.seat
            assert seat is not None
            room = store.load_game(seat.game)
            assert room is not None
            receipts = room.live_receipts
            stored = [receipt.move for receipt in receipts]
            acked = {**host.acked, **guest.acked}
            lost += sum(1 for ply, move in acked.items() if ply > len(stored) or stored[ply - 1] != move)
            sent = {seat.seat: host.sent, 3 - (seat.seat or 1): guest.sent}
            ids = [(receipt.seat, receipt.move_id) for receipt in receipts]
            doubled += len(ids) - len(set(ids))
            doubled += sum(1 for receipt in receipts if sent[receipt.seat].get(receipt.move_id) != receipt.move)
            assert room.status.value == "finished"
    return lost, doubled


def run_server_kills(tmp_path: Path, games_count: int, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    database, port = tmp_path / "games.sqlite3", free_port()
    url = f"ws://127.0.0.1:{port}"
    games: list[tuple[Player, Player]] = []
    mid_game = []
    try:
        with server_process(database, port):
            games = start_games(url, games_count)
            play_until_done(games, time.monotonic() + rng.uniform(0.3, 1.0))
        for _ in range(kills):
            mid_game.append(
                sum(
                    1
                    for host, _ in games
                    if host.session.state is not None and host.session.state.ply and not host.finished
                )
            )
            # down: the clients retry; up on the same database: they resume and resend
            time.sleep(rng.uniform(0.1, 0.5))
            with server_process(database, port) as server:
                play_until_done(games, time.monotonic() + rng.uniform(0.3, 1.0))
                server.signal(signal.SIGKILL)
        with server_process(database, port):
            assert play_until_done(games, time.monotonic() + GAME_SECONDS), "the games did not finish"
    finally:
        for host, guest in games:
            host.session.close()
            guest.session.close()
    lost, doubled = check_records(database, games)
    print(
        f"server_kills: {games_count} games, {kills + 1} kills (games in play at each: {mid_game}), "
        f"{lost} moves lost, {doubled} doubled"
    )
    assert (lost, doubled) == (0, 0)
    assert min(mid_game) > 0, f"a kill came when no game was in play: {mid_game}"


def test_a_server_killed_three_times_mid_game_loses_and_doubles_no_move(tmp_path: Path) -> None:
    run_server_kills(tmp_path, games_count=12, kills=2, seed=1)


@pytest.mark.slow
def test_fifty_games_through_seven_server_kills(tmp_path: Path) -> None:
    run_server_kills(tmp_path, games_count=50, kills=6, seed=2)


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_fifty_games_stopped_with_moves_in_flight_keep_every_acknowledged_move(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """The server's writer commits moves in groups; a sync 20 ms slower than the disk's keeps moves
    waiting for it. The server is frozen (SIGSTOP) once most games are under way, and stopped while
    frozen when five sent moves have no acknowledgement yet (else it goes on and is frozen again), so
    the stop comes with moves in flight however slowly the machine runs the test: each of its
    processes gets the signal, as in a crash or systemd's stop. After a restart every acknowledged
    move is stored once, and the ones in flight are resent and applied once (a SIGTERM's clean stop
    may acknowledge some of them first)."""
    database, port = tmp_path / "games.sqlite3", free_port()
    url = f"ws://127.0.0.1:{port}"
    games: list[tuple[Player, Player]] = []
    in_flight = 0
    try:
        with server_process(database, port, "--slow-sync-ms", "20") as server:
            games = start_games(url, 50)
            deadline = time.monotonic() + GAME_SECONDS
            while not in_flight:
                assert time.monotonic() < deadline, "no freeze of the server caught a move in flight"
                play_until_done(games, time.monotonic() + 0.05)
                if sum(1 for host, _ in games if host.session.state is not None and host.session.state.moves) < 40:
                    continue
                server.signal_all(signal.SIGSTOP)  # what it has not acknowledged now, it cannot before the stop
                in_flight = moves_in_flight(games)
                if in_flight < IN_FLIGHT_AT_THE_STOP:
                    in_flight = 0
                    server.signal_all(signal.SIGCONT)
            assert server.process is not None
            # every process of the server, as a crash or systemd's stop (SIGTERM to its whole control group)
            server.signal_all(stop)
            server.signal_all(signal.SIGCONT)  # a SIGTERM is handled once the process runs again
            server.process.wait(30)
        at_the_stop = in_flight
        in_flight = moves_in_flight(games)  # what the stopped server never acknowledged
        with server_process(database, port):
            assert play_until_done(games, time.monotonic() + GAME_SECONDS), "the games did not finish"
    finally:
        for host, guest in games:
            host.session.close()
            guest.session.close()
    lost, doubled = check_records(database, games)
    print(
        f"stopped with {stop.name}: 50 games, {at_the_stop} moves in flight at the stop, {in_flight} never"
        f" acknowledged before the restart, {lost} lost, {doubled} doubled"
    )
    assert (lost, doubled) == (0, 0)
    if stop == signal.SIGKILL:  # a SIGTERM's clean stop may commit and acknowledge what it holds
        assert in_flight > 0, "no move was in flight at the stop"


def moves_in_flight(games: list[tuple[Player, Player]]) -> int:
    """Moves sent and not acknowledged, once every acknowledgement that has arrived is read (and
    no new move sent)."""
    for host, guest in games:
        host.read()
        guest.read()
    return sum(len(player.session.pending) for game in games for player in game)


def test_a_client_killed_and_started_again_resumes_its_seat(tmp_path: Path) -> None:
    """A player's program dies (its session is dropped without a word) and a new one resumes
    with the kept token: the game goes on from the server's record, nothing lost or doubled."""
    database, port = tmp_path / "games.sqlite3", free_port()
    url = f"ws://127.0.0.1:{port}"
    rng = random.Random(3)
    with server_process(database, port):
        games = start_games(url, 4)
        try:
            for _ in range(3):
                play_until_done(games, time.monotonic() + rng.uniform(0.2, 0.6))
                for index, (host, guest) in enumerate(games):
                    victim = guest if rng.random() < 0.5 else host
                    seat = victim.session.seat
                    assert seat is not None
                    victim.session.close()  # as good as dead: no resign, no goodbye
                    replacement = Player(OnlineSession.resume(seat))
                    replacement.acked, replacement.sent = victim.acked, victim.sent
                    games[index] = (replacement, guest) if victim is host else (host, replacement)
            assert play_until_done(games, time.monotonic() + GAME_SECONDS), "the games did not finish"
        finally:
            for host, guest in games:
                host.session.close()
                guest.session.close()
    assert check_records(database, games) == (0, 0)
