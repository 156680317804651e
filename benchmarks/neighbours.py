"""Two other networks beside an attack, as their players feel it: one pings from each home (process 0
and process 1 of a two-process server; one process serves both of a one-process server), and the
network at process 1's home plays games against the solver (its moves go to the pool in process 0).

Used by ``network_caps.py``: every cap's row is measured with the neighbours playing, and its
``stopped`` row stops process 0 (SIGSTOP) under them.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from battle.online.server.rooms.shards import home_of
from benchmarks.percentiles import percentile
from tests.online_server import Client, ServerProcess, a_legal_move

WAIT = 60.0
"""The longest one answer is waited for: a stopped process 0 holds the solver's move for its stop."""
PING_EVERY = 0.06
"""Seconds between two pings of a neighbour (under the 20 messages a second a connection may send)."""
LEVEL = "club"


def address_at_home(home: int, taken: set[str]) -> str:
    """A loopback address, not in ``taken``, whose network's home of two processes is ``home``."""
    for last in range(4, 250):
        address = f"127.0.0.{last}"
        if address not in taken and home_of(address, 2) == home:
            return address
    raise AssertionError(f"no loopback address has home {home}")


@dataclass
class Felt:
    """What the neighbours measured: ping round trips (ms) by home, the seconds from each of the
    solver player's moves to the solver's, and how often it was told the solver is unavailable."""

    pings: dict[int, list[float]] = field(default_factory=lambda: {0: [], 1: []})
    replies: list[float] = field(default_factory=list)
    told: int = 0
    errors: list[str] = field(default_factory=list)

    def cell(self) -> str:
        """``ping p99 a / b ms, solver n replies median m s, max x s``, a home's pings apart."""
        ping = " / ".join(f"{percentile(self.pings[home], 0.99):.1f}" for home in (0, 1))
        solver = (
            f"{len(self.replies)} replies, median {percentile(self.replies, 0.5):.2f} s, max {max(self.replies):.2f} s"
            if self.replies
            else "no reply"
        )
        told = f", told unavailable {self.told}x" if self.told else ""
        failed = f", errors: {'; '.join(self.errors)}" if self.errors else ""
        return f"ping p99 {ping} ms; solver {solver}{told}{failed}"


class Neighbours:
    """The neighbours' threads, from ``with`` to its end; ``felt`` is what they measured. ``taken``:
    the attacking networks' addresses, which the neighbours' must not share."""

    def __init__(self, server: ServerProcess, taken: set[str], solver: bool = True) -> None:
        self.url = server.url
        self.homes = {home: address_at_home(home, taken) for home in (0, 1)}
        self.player = address_at_home(1, {*taken, *self.homes.values()})
        self.felt = Felt()
        self._stop = threading.Event()
        targets = [(self._ping, (home,)) for home in (0, 1)]
        if solver:
            targets.append((self._play, ()))
        self._threads = [threading.Thread(target=target, args=args, daemon=True) for target, args in targets]

    def __enter__(self) -> Neighbours:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(WAIT * 2)

    def wait_for_a_reply(self) -> None:
        """Back once the solver player has had one more reply and each home a pong: the neighbours
        play (a row's attack begins after their first reply, and ends after the stop's)."""
        replies = len(self.felt.replies)
        pongs = {home: len(pings) for home, pings in self.felt.pings.items()}
        deadline = time.monotonic() + WAIT * 2
        while len(self.felt.replies) <= replies or any(len(self.felt.pings[home]) <= pongs[home] for home in pongs):
            assert not self.felt.errors, self.felt.errors
            assert time.monotonic() < deadline, "the neighbours had no answer"
            time.sleep(0.05)

    def _guarded(self, work: Any, *args: Any) -> None:  # noqa: ANN401
        try:
            work(*args)
        except Exception as error:  # noqa: BLE001 - a neighbour's failure is a figure of the row
            self.felt.errors.append(f"{type(error).__name__}: {error}"[:120])

    def _ping(self, home: int) -> None:
        self._guarded(self._pings, home)

    def _pings(self, home: int) -> None:
        client = Client(self.url, source=self.homes[home])
        number = 0
        while not self._stop.is_set():
            number += 1
            sent = time.perf_counter()
            client.send({"type": "ping", "t": number})
            client.expect("pong", WAIT)
            self.felt.pings[home].append((time.perf_counter() - sent) * 1000)
            time.sleep(PING_EVERY)
        client.close()

    def _play(self) -> None:
        self._guarded(self._games)

    def _games(self) -> None:
        client = Client(self.url, source=self.player)
        number = 0
        while not self._stop.is_set():
            number += 1
            client.send({"type": "solver_game", "level": LEVEL, "deal": {"number": number}, "first": "creator"})
            client.expect("solver_created", WAIT)
            self._one_game(client, client.expect("state", WAIT))
        client.close()

    def _one_game(self, client: Client, state: dict[str, Any]) -> None:
        """The player's moves, each as soon as the solver's has come, until the game ends or the row does."""
        you = state["you"]
        moves = list(state["moves"])
        while not self._stop.is_set() and state["status"] != "finished":
            sent = time.perf_counter()
            client.send({"type": "move", "move": a_legal_move({**state, "moves": moves}), "id": f"m{len(moves)}"})
            while True:
                message = client.read(WAIT)
                if message["type"] == "solver_refused":
                    self.felt.told += 1
                elif message["type"] == "moved":
                    moves.append(message["move"])
                    state = {**state, "status": message.get("status", state["status"])}
                    if message["seat"] != you or state["status"] == "finished":
                        break
                elif message["type"] == "error":
                    raise AssertionError(f"move refused: {message}")
            if message["seat"] != you:
                self.felt.replies.append(time.perf_counter() - sent)
