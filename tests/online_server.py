"""A real game server for tests: ``battle.online.server.game_server`` on 127.0.0.1, a free port, a temporary
database, its own event loop on a thread; and a small blocking client over real sockets."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

from battle.online.server.game_server import GameServer, bound_port, running_server
from battle.online.server.server_limits import ServerLimits
from battle.online.server.store import GameStore
from battle.rules.board import move_name
from battle.rules.notation import parse_position


class ServerThread:
    """``with ServerThread(db) as server:`` a listening server; ``server.url`` to connect to."""

    def __init__(self, database: Path, limits: ServerLimits = ServerLimits(), port: int = 0) -> None:
        self.database = database
        self.limits = limits
        self.port = port
        self.offset = 0.0
        """Seconds added to the server's clock: a test moves time on without waiting."""
        self.games: GameServer | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="test-server", daemon=True)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def __enter__(self) -> ServerThread:
        self._thread.start()
        assert self._ready.wait(10), "the server did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        store = GameStore(self.database)
        try:
            async with running_server(store, "127.0.0.1", self.port, self.limits,
                                      clock=lambda: time.time() + self.offset) as (server, games):
                self.port = bound_port(server)
                self.games = games
                self._ready.set()
                await self._stop.wait()
        finally:
            store.close()


class Client:
    """A blocking client over a real socket: send dicts, read dicts, wait for a kind."""

    def __init__(self, url: str, name: str | None = None, hello: bool = True, forwarded_for: str | None = None) -> None:
        headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else None
        self.socket: ClientConnection = connect(url, open_timeout=5, max_size=2**20,
                                                additional_headers=headers).__enter__()
        self.seen: list[dict[str, Any]] = []
        if hello:
            self.send({"type": "hello", "version": 1, **({"name": name} if name else {})})
            self.expect("welcome")

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send(json.dumps(message))

    def send_text(self, text: str | bytes) -> None:
        self.socket.send(text)

    def read(self, timeout: float = 5.0) -> dict[str, Any]:
        message = json.loads(self.socket.recv(timeout=timeout))
        self.seen.append(message)
        return message

    def expect(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        """The next message of this kind (others before it are kept in ``seen``)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.read(max(0.01, deadline - time.monotonic()))
            if message.get("type") == kind:
                return message

    def error(self, timeout: float = 5.0) -> dict[str, Any]:
        return self.expect("error", timeout)

    def close(self) -> None:
        self.socket.close()


def host_and_join(url: str, deal: int = 5, **options: Any) -> tuple[Client, Client, dict[str, Any], dict[str, Any]]:
    """Two connected players of a new game (the host moves first); returns both and the two seat messages."""
    host = Client(url, "Ann")
    host.send({"type": "create", "deal": {"number": deal}, "first": "creator", "name": "Ann", **options})
    created = host.expect("created")
    host.expect("state")
    guest = Client(url, "Bob")
    guest.send({"type": "join", "code": created["invite"], "name": "Bob"})
    joined = guest.expect("joined")
    guest.expect("state")
    host.expect("state")
    return host, guest, created, joined


def a_legal_move(state: dict[str, Any]) -> str:
    position = parse_position(state["start"])
    for move in state["moves"]:
        from battle.rules.board import parse_move

        position.push(parse_move(move))
    return move_name(position.legal_moves()[0])
