"""The solver attack of ``benchmarks/online_attack.py --solver``: a victim's club game against the solver
beside strangers who flood the solver pool, each from addresses of its own (127.x.y.z: loopback
takes any as a source, and the server counts each as a network of its own).

Every client here is a websockets client of the page's own messages, as a stranger's would be; the
attackers run in a process of their own (``python solver_attackers.py ROW PORT``, below), so that
their clients never hold up the victim's event loop:

- the victim (127.0.9.9) plays games against the solver at its level (club unless told), thinking
  ``THINK`` seconds a move;
  its reply runs from sending its move to the solver's ``moved`` (split where its move was told
  stored and where the solver's move was placed in the queue); a ``solver_refused`` of its move is
  counted (the server then asks for the move again itself); a task beside it notes how late its
  process wakes from 10 ms sleeps, the machine's share, so that a reply can be told apart from a
  stall of the victim's own process (``Tally.on_time``);
- ``reviews``: ten addresses each play one-move games against themselves (a host and a guest
  connection, a move, a resignation) and ask each one's review, keeping the host open;
- ``perfect``: one address with ten games against perfect (the solver moves first; the attacker
  answers at once), ``four``: four addresses with one such game each, or ``spread``: eight;
- ``board``: one address with one analysis board on whole deals, ``analysis``: eight addresses with
  two each, each asking for the next deal as soon as one is answered or, when refused, once its
  ``retry_after`` has passed.

At the end every attacker closes, and the seconds until ``/stats`` shows no unit running and none
waiting are measured (the victim has stopped by then).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from battle.rules.board import move_name, parse_move
from battle.rules.deal import deal
from battle.rules.notation import format_position, parse_position

WAIT = 120.0
"""The longest one answer is waited for (a reply of the old server under a flood takes tens of seconds)."""
THINK = 0.5
"""Seconds the victim thinks before each of its moves."""
VICTIM = "127.0.9.9"
GAMES_PER_ADDRESS = 60
"""One-move games an address of the review flood plays at most (each keeps a connection open)."""


@dataclass
class Tally:
    """What one row measured: the victim's replies and refusals, what the attackers were given."""

    replies: list[float] = field(default_factory=list)
    refused_moves: int = 0
    queued_moves: int = 0
    """The victim's moves placed behind other work or waiting for the budget, not run at once."""
    asked: int = 0
    """Units the attackers asked for (reviews, analyses, their games' moves)."""
    refusals: dict[str, int] = field(default_factory=dict)
    """The attackers' refusals by code."""
    answered: int = 0
    """The attackers' answered units (a review ready, an analysis's last step, a solver's move)."""
    splits: list[tuple[float, float, float]] = field(default_factory=list)
    """Each reply's seconds from the victim's move until the server told it stored (its ``moved``), until
    the solver's move was asked (its ``solver_queue``), and until the solver's move arrived."""
    spans: list[tuple[float, float]] = field(default_factory=list)
    """Each reply's send and arrival, ``time.monotonic()``."""
    lags: list[tuple[float, float]] = field(default_factory=list)
    """When the victim's process woke from each 10 ms sleep while it played, and how late: the
    machine's share of its CPU, which no server decides."""

    def on_time(self, late: float) -> list[float]:
        """The replies during which the victim's own process never woke more than ``late`` s late (a
        stall of ``lag`` that ends at ``woke`` began at ``woke - lag``)."""
        stalls = [(woke - lag, woke) for woke, lag in self.lags if lag > late]
        return [
            reply
            for (sent, arrived), reply in zip(self.spans, self.replies, strict=True)
            if not any(began <= arrived and ended >= sent for began, ended in stalls)
        ]

    def refused(self, code: str) -> None:
        self.refusals[code] = self.refusals.get(code, 0) + 1


# -- a client from an address of its own --------------------------------------------------------


class Peer:
    """One websockets connection from ``source`` that says ``hello``; ``expect`` reads until a kind."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection

    @classmethod
    async def open(cls, port: int, source: str) -> Peer:
        raw = socket.socket()
        raw.setblocking(False)
        raw.bind((source, 0))
        await asyncio.get_running_loop().sock_connect(raw, ("127.0.0.1", port))
        connection = await connect(
            f"ws://127.0.0.1:{port}", sock=raw, max_size=2**22, max_queue=None, ping_interval=None, open_timeout=WAIT
        )
        peer = cls(connection)
        await peer.send({"type": "hello", "version": 1})
        await peer.expect("welcome")
        return peer

    async def send(self, message: dict[str, Any]) -> None:
        await self.connection.send(json.dumps(message))

    async def read(self) -> dict[str, Any]:
        return json.loads(await asyncio.wait_for(self.connection.recv(), WAIT))

    async def expect(self, *kinds: str) -> dict[str, Any]:
        while True:
            message = await self.read()
            if message["type"] in kinds:
                return message
            if message["type"] == "error":
                raise RuntimeError(f"refused: {message.get('code')} {message.get('reason')}")

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.connection.close()


def next_move(state: dict[str, Any], moves: list[str]) -> str | None:
    """The first legal move after ``moves`` from ``state``'s start, None at the end."""
    position = parse_position(state["start"])
    for move in moves:
        position.push(parse_move(move))
    legal = position.legal_moves()
    return move_name(legal[0]) if legal else None


# -- the victim ----------------------------------------------------------------------------------


async def victim(port: int, tally: Tally, stop: asyncio.Event, level: str = "club") -> None:
    """Games against the solver at ``level`` until ``stop``: each reply timed, each refusal of a move counted."""
    lagging = asyncio.ensure_future(_lag(tally, stop))
    try:
        await _victim(port, tally, stop, level)
    finally:
        lagging.cancel()


async def _lag(tally: Tally, stop: asyncio.Event) -> None:
    while not stop.is_set():
        began = time.monotonic()
        await asyncio.sleep(0.01)
        woke = time.monotonic()
        tally.lags.append((woke, woke - began - 0.01))


async def _victim(port: int, tally: Tally, stop: asyncio.Event, level: str) -> None:
    peer = await Peer.open(port, VICTIM)
    number = 100
    try:
        while not stop.is_set():
            number += 1
            await peer.send({"type": "solver_game", "level": level, "deal": {"number": number}, "first": "creator"})
            await peer.expect("solver_created")
            state = await peer.expect("state")
            moves: list[str] = list(state["moves"])
            while not stop.is_set():
                move = next_move(state, moves)
                if move is None:
                    break
                await asyncio.sleep(THINK)
                sent = time.monotonic()
                await peer.send({"type": "move", "move": move, "id": f"v{number}-{len(moves)}"})
                ended = False
                stored = asked = float("nan")
                while True:
                    message = await peer.read()
                    if message["type"] == "solver_refused" and message["what"] == "move":
                        tally.refused_moves += 1
                    elif message["type"] == "solver_queue" and message["place"] is not None and asked != asked:
                        asked = time.monotonic() - sent  # placed: not the previous move's news that it ended
                        tally.queued_moves += message["place"] > 0 or message["wait"] is not None
                    elif message["type"] == "moved":
                        moves.append(message["move"])
                        if message["status"] != "playing":
                            ended = True
                            break
                        if len(moves) % 2 == 1:
                            stored = time.monotonic() - sent
                        else:  # the solver's reply
                            tally.replies.append(time.monotonic() - sent)
                            tally.spans.append((sent, sent + tally.replies[-1]))
                            tally.splits.append((stored, asked, tally.replies[-1]))
                            break
                if ended:
                    break
    finally:
        await peer.close()


# -- the attackers ---------------------------------------------------------------------------------


async def review_flood(port: int, source: str, tally: Tally, stop: asyncio.Event, opened: list[Peer]) -> None:
    """One-move games against itself, each one's review asked, until ``stop`` or ``GAMES_PER_ADDRESS``."""
    waiting: list[asyncio.Future[None]] = []
    try:
        await _review_flood(port, source, tally, stop, opened, waiting)
        await asyncio.gather(*waiting)
    finally:
        for task in waiting:
            task.cancel()


async def _review_flood(
    port: int, source: str, tally: Tally, stop: asyncio.Event, opened: list[Peer], waiting: list[asyncio.Future[None]]
) -> None:
    async def done(host: Peer) -> None:
        while (await host.expect("review_result"))["status"] == "queued":
            pass
        tally.answered += 1

    for number in range(GAMES_PER_ADDRESS):
        if stop.is_set():
            return
        host = await Peer.open(port, source)
        opened.append(host)
        await host.send({"type": "create", "deal": {"number": 200 + number}, "first": "creator"})
        created = await host.expect("created")
        state = await host.expect("state")
        guest = await Peer.open(port, source)
        await guest.send({"type": "join", "code": created["invite"]})
        await guest.expect("state")
        await host.send({"type": "move", "move": next_move(state, []), "id": "h1"})
        await host.expect("ack")
        await guest.send({"type": "resign"})
        while (await host.expect("state"))["status"] != "finished":
            pass
        await guest.close()
        await host.send({"type": "review"})
        tally.asked += 1
        answer = await host.expect("review_result", "solver_refused")
        if answer["type"] == "solver_refused":
            tally.refused(answer["code"])
        elif answer["status"] == "queued":
            waiting.append(asyncio.ensure_future(done(host)))
        else:
            tally.answered += 1


async def perfect_games(port: int, source: str, games: int, tally: Tally, opened: list[Peer]) -> None:
    """``games`` games against perfect from ``source``, the solver first, each answered at once, until closed."""

    async def one(number: int) -> None:
        peer = await Peer.open(port, source)
        opened.append(peer)
        await peer.send({"type": "solver_game", "level": "perfect", "deal": {"number": number}, "first": "joiner"})
        await peer.expect("solver_created")
        state = await peer.expect("state")
        moves: list[str] = list(state["moves"])
        you = state["you"]
        tally.asked += 1
        while True:
            message = await peer.read()
            if message["type"] == "solver_refused" and message["what"] == "move":
                tally.refused(message["code"])
            if message["type"] != "moved":
                continue
            moves.append(message["move"])
            if message["status"] != "playing":
                return
            if message["seat"] != you:
                tally.answered += 1
            if message["to_move"] == you:
                move = next_move(state, moves)
                if move is None:
                    return
                await peer.send({"type": "move", "move": move, "id": f"p{len(moves)}"})
                tally.asked += 1

    await asyncio.gather(*(one(300 + index) for index in range(games)), return_exceptions=True)


async def analysis_boards(port: int, source: str, boards: int, tally: Tally, opened: list[Peer]) -> None:
    """``boards`` analysis boards from ``source``, each on one whole deal after another, until closed."""

    async def one(first: int) -> None:
        peer = await Peer.open(port, source)
        opened.append(peer)
        number = first
        while True:
            number += 1
            await peer.send({"type": "analyse", "id": f"d{number}", "position": format_position(deal(number))})
            tally.asked += 1
            while True:
                message = await peer.read()
                if message["type"] == "solver_refused":
                    tally.refused(message["code"])
                    await asyncio.sleep(message.get("retry_after") or 1.0)
                    break
                if message["type"] == "analysis_result" and message["final"]:
                    tally.answered += 1
                    break

    await asyncio.gather(*(one(1000 * index) for index in range(boards)), return_exceptions=True)


Attack = Callable[[int, Tally, asyncio.Event, list[Peer]], Awaitable[Any]]


def attack_of(name: str) -> tuple[str, Attack | None]:
    """A row's load in words, and the coroutine that makes it (None: the victim alone)."""
    if name == "alone":
        return "the victim alone", None
    if name == "reviews":
        return "10 addresses flooding reviews (one-move games, up to 60 each)", (
            lambda port, tally, stop, opened: asyncio.gather(
                *(review_flood(port, f"127.0.1.{index}", tally, stop, opened) for index in range(1, 11)),
                return_exceptions=True,
            )
        )
    if name == "perfect":
        return "1 address with 10 games against perfect", (
            lambda port, tally, stop, opened: perfect_games(port, "127.0.2.1", 10, tally, opened)
        )
    if name == "four":
        return "4 addresses with 1 game against perfect each", (
            lambda port, tally, stop, opened: asyncio.gather(
                *(perfect_games(port, f"127.0.5.{index}", 1, tally, opened) for index in range(1, 5))
            )
        )
    if name == "board":
        return "1 address with 1 analysis board on whole deals", (
            lambda port, tally, stop, opened: analysis_boards(port, "127.0.6.1", 1, tally, opened)
        )
    if name == "spread":
        return "8 addresses with 1 game against perfect each", (
            lambda port, tally, stop, opened: asyncio.gather(
                *(perfect_games(port, f"127.0.3.{index}", 1, tally, opened) for index in range(1, 9))
            )
        )
    if name == "analysis":
        return "8 addresses with 2 analysis boards each on whole deals", (
            lambda port, tally, stop, opened: asyncio.gather(
                *(analysis_boards(port, f"127.0.4.{index}", 2, tally, opened) for index in range(1, 9))
            )
        )
    raise ValueError(f"no such row: {name!r} ({', '.join(ROWS)})")


ROWS = ("alone", "reviews", "perfect", "four", "spread", "board", "analysis")


# -- the attackers as a process of their own --------------------------------------------------------


async def attack_until_told(row: str, port: int) -> Tally:
    """``row``'s attack on ``port`` until a line on stdin; then every attacker closes, and the tally."""
    _, attack = attack_of(row)
    assert attack is not None
    tally = Tally()
    stop = asyncio.Event()
    opened: list[Peer] = []
    attacking = asyncio.ensure_future(attack(port, tally, stop, opened))
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    stop.set()
    attacking.cancel()
    with contextlib.suppress(BaseException):
        await attacking
    await asyncio.gather(*(peer.close() for peer in opened))
    return tally


def main() -> None:
    """``python solver_attackers.py ROW PORT``: the attack in this process (``online_attack.py --solver``
    starts it, so that the attackers' clients do not share the victim's event loop), until a line on
    stdin; then one line of JSON, what the attackers asked, were given and were refused."""
    row, port = sys.argv[1], int(sys.argv[2])
    tally = asyncio.run(attack_until_told(row, port))
    print(json.dumps({"asked": tally.asked, "answered": tally.answered, "refusals": tally.refusals}), flush=True)


if __name__ == "__main__":
    main()
