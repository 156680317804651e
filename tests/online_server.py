"""A real game server for tests, on 127.0.0.1 and a free port with a temporary database: either
``battle.online.server.shell.game_server`` on an event loop of its own thread (``ServerThread``), or
``mahjong-battle serve`` as a process (``ServerProcess``); and a small blocking client over real
sockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psutil
from websockets.asyncio.server import Server
from websockets.sync.client import ClientConnection, connect

from battle.cli import run_folders
from battle.online.protocol.server_groups import FOLLOWS_IN_A_ROW, url_at
from battle.online.server.limits.server import ServerLimits
from battle.online.server.processes.fork_server import game_process_name
from battle.online.server.rooms.shards import shard_of
from battle.online.server.rooms.store import GameStore
from battle.online.server.shell.game_server import GameServer, bound_port, running_server
from battle.rules.board import move_name
from battle.rules.notation import parse_position
from tests.witnesses import log_tail, witness

ROOT = Path(__file__).resolve().parents[1]
REPLY_WAIT = 30.0
"""The longest a client waits for one answer unless a test says otherwise: a bound against a hang,
not a figure of speed (a quiet machine answers in milliseconds, one at load 30 took over 5 s for
a fresh connection's handshake and welcome)."""


PROCESSES_VARIABLE = "MAHJONG_BATTLE_TEST_PROCESSES"
"""The ``--processes`` of a test's server that names none: 2 unless this variable says otherwise.
Two is ``serve``'s default on the two cores CI has, and the fewest that run every feature through
the supervisor, the fork server and a second process; a fixed count keeps a test's cost the same
on a machine of 64 cores (``MAHJONG_BATTLE_TEST_PROCESSES=1`` runs them as one process)."""
DEFAULT_PROCESSES = "2"
LOCALES = {
    "en": {"LANG": "C.UTF-8", "LANGUAGE": "en", "LC_ALL": "", "LC_MESSAGES": ""},
    "de": {"LANG": "de_DE.UTF-8", "LANGUAGE": "de", "LC_ALL": "", "LC_MESSAGES": ""},
}
"""A server's environment in each language (``ServerProcess(env=...)``), whatever the machine's locale."""
DAY_SECONDS = 86_400.0


def midday_offset() -> float:
    """Seconds that move this moment to noon UTC of its day: a server whose wall clock is shifted by
    them (``ServerProcess(clock_offset=...)``) keeps one day for twelve hours, so a test of the day's
    table holds when it runs across midnight (the new day's deal starts with an empty table)."""
    return DAY_SECONDS / 2 - time.time() % DAY_SECONDS


def shifted_clock(offset: float) -> str:
    """A prelude that shifts the process's ``time.time`` by ``offset`` seconds: it runs before the
    server's modules are imported, so their clocks (``serve``'s ``clock``) read the shifted time."""
    return f"import time as _time\n_wall = _time.time\n_time.time = lambda: _wall() + {offset!r}\n"


def free_port() -> int:
    """A port of 127.0.0.1 nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess:
    """``mahjong-battle serve`` as a process, its database (``games.sqlite3``) and log in ``folder``;
    every ``start`` uses the same port and database, so a stop or a kill -9 and a start is a restart.
    ``open_files`` lowers the process's open-files limit. ``with ServerProcess(...) as server:`` starts it
    and stops it at the end. ``pid`` is the process's id while it runs. Without a ``--solver-...``
    flag it runs no solver (``--solver-workers 0``): a friends' server starts in a second, without
    worker processes importing numba; without ``--processes`` it runs two game processes
    (``PROCESSES_VARIABLE``)."""

    def __init__(
        self,
        folder: Path,
        *flags: str,
        port: int | None = None,
        open_files: int | None = None,
        prelude: str = "",
        env: dict[str, str] | None = None,
        clock_offset: float | None = None,
    ) -> None:
        self.folder = folder
        self.env = env or {}
        """Variables set for the server's process on top of this one's (a locale)."""
        solver_flags = ("--solver-workers", "--solver-scheduler")
        self.flags = flags if any(flag in flags for flag in solver_flags) else (*flags, "--solver-workers", "0")
        if "--processes" not in self.flags:
            self.flags = (*self.flags, "--processes", os.environ.get(PROCESSES_VARIABLE, DEFAULT_PROCESSES))
        self.clock_offset = clock_offset
        """Seconds the server's wall clock runs ahead of this one's (``midday_offset``); None: none."""
        self.prelude = prelude if clock_offset is None else shifted_clock(clock_offset) + prelude
        """Python run in each of the server's processes as it starts (a test's change to a module's
        setting; ``_prelude_folder``)."""
        self.port = port if port is not None else free_port()
        self.open_files = open_files
        self.process: subprocess.Popen[str] | None = None
        self._witnessed = False
        self._signalled: set[psutil.Process] = set()
        """Every process ``signal_all`` has reached."""
        self.page_line = ""
        """The second line the server printed: where its page is, in the language of its locale."""
        self.log = folder / f"server-{self.port}.log"
        self.host = self.flags[self.flags.index("--host") + 1] if "--host" in self.flags else "127.0.0.1"
        """The address it listens on (``--host``, a loopback one in tests)."""

    def _prelude_folder(self) -> str:
        """A folder whose ``sitecustomize.py`` is the prelude, first on the server's ``PYTHONPATH``: every
        process of the server runs it as it starts (the game processes of ``--processes N`` are forked
        from the supervisor's fork server, which has run it), or "" without a prelude."""
        if not self.prelude:
            return ""
        folder = self.folder / "prelude"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "sitecustomize.py").write_text(self.prelude + "\n", encoding="utf-8")
        return str(folder)

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def now(self) -> float:
        """The server's wall clock now (``clock_offset``)."""
        return time.time() + (self.clock_offset or 0.0)

    def log_lines(self) -> list[str]:
        return self.log.read_text(encoding="utf-8", errors="replace").splitlines()

    def start(self) -> ServerProcess:
        """Start the server; back once it names its address and its page (its first two lines)."""
        limit = self.open_files

        def limit_files() -> None:
            if limit is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (limit, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

        self.folder.mkdir(parents=True, exist_ok=True)
        if not self._witnessed:  # a restart is the same server's story
            witness(self.story, self.running)
            self._witnessed = True
        with self.log.open("a", encoding="utf-8") as sink:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    "from battle.cli import entry_point; entry_point()",
                    "serve",
                    "--port",
                    str(self.port),
                    "--db",
                    str(self.folder / "games.sqlite3"),
                    *self.flags,
                ],
                stdout=subprocess.PIPE,
                stderr=sink,
                text=True,
                # the checkout first, then what the test's own path adds (an extra installed beside the venv)
                env={
                    **os.environ,
                    "PYTHONPATH": os.pathsep.join(
                        filter(None, [self._prelude_folder(), str(ROOT), os.environ.get("PYTHONPATH")])
                    ),
                    **self.env,
                },
                preexec_fn=limit_files if limit is not None else None,
            )
        assert self.process.stdout is not None
        try:
            line = self.process.stdout.readline()
            assert f"{self.host}:{self.port}" in line, line + self.log.read_text()
            flags = self.flags
            page = flags[flags.index("--public-url") + 1].rstrip("/") if "--public-url" in flags else self.base
            self.page_line = self.process.stdout.readline()
            assert f" {page}/ " in self.page_line, self.page_line  # in the server's language
        except AssertionError:
            self.stop()  # a server that did not say what it should is not left running
            raise
        return self

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stats(self) -> dict[str, str]:
        """``/stats`` as its lines' names and values."""
        with urllib.request.urlopen(f"{self.base}/stats", timeout=REPLY_WAIT) as answer:
            return dict(line.split(" ", 1) for line in answer.read().decode().splitlines() if " " in line)

    def story(self) -> str:
        """What a failing test prints of this server: how it ran, where, and its log's last lines."""
        state = "running" if self.running() else f"exited {self.process.returncode}" if self.process else "not started"
        pid = self.process.pid if self.process is not None else "-"
        flags = " ".join(self.flags)
        return (
            f"mahjong-battle serve on {self.base} (pid {pid}, {state}) {flags}\n  log {self.log}:\n{log_tail(self.log)}"
        )

    def signal(self, number: signal.Signals) -> None:
        """Send the process a signal and wait for it to end (``SIGKILL``: no chance to close anything)."""
        assert self.process is not None
        self.process.send_signal(number)
        self.process.wait(30)

    def signal_all(self, number: signal.Signals) -> None:
        """Send ``number`` to the server and every process it started (game processes, solver
        workers): ``SIGSTOP`` is a machine that stops answering, whatever ``--processes`` says."""
        assert self.process is not None
        tree = psutil.Process(self.process.pid)
        with contextlib.suppress(psutil.NoSuchProcess):
            self._signalled.update([tree, *tree.children(recursive=True)])
        for process in self._signalled:
            # the processes signalled before too: a SIGCONT after a kill -9 of the supervisor reaches
            # the game processes it froze, no longer the supervisor's once it is gone
            with contextlib.suppress(psutil.NoSuchProcess):
                process.send_signal(number)

    def game_process(self, index: int) -> psutil.Process | None:
        """Game process ``index`` of a server of several (by its name, ``fork_server.game_process_name``),
        or None while it is not running."""
        assert self.process is not None
        wanted = game_process_name(index)
        for process in psutil.Process(self.process.pid).children(recursive=True):
            with contextlib.suppress(psutil.NoSuchProcess):
                if process.name() == wanted and process.status() != psutil.STATUS_ZOMBIE:
                    return process
        return None

    def run_folder(self) -> Path:
        """The folder where a server of several keeps its processes' sockets and counts (the run folder
        whose ``supervisor.pid`` names this server)."""
        for folder in Path(tempfile.gettempdir()).glob(run_folders.PREFIX + "*"):
            with contextlib.suppress(OSError):
                if (folder / run_folders.PID_FILE).read_text(encoding="ascii").strip() == str(self.pid):
                    return folder
        raise AssertionError(f"no run folder names the server's process {self.pid}")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.signal(signal.SIGKILL)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class ServerThread:
    """``with ServerThread(db) as server:`` a listening server; ``server.url`` to connect to."""

    def __init__(
        self, database: Path, limits: ServerLimits = ServerLimits(), port: int = 0, gather_seconds: float | None = None
    ) -> None:
        self.database = database
        self.limits = limits
        self.port = port
        self.gather_seconds = gather_seconds
        """The writer's wait for more writes after the first (None: the server's own)."""
        self.offset = 0.0
        """Seconds added to the server's clock: a test moves time on without waiting."""
        self.games: GameServer | None = None
        self.listening: Server | None = None
        """websockets' server: its ``connections`` are the open ones, as the server sees them."""
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
            gathering = {} if self.gather_seconds is None else {"gather_seconds": self.gather_seconds}
            async with running_server(
                store, "127.0.0.1", self.port, self.limits, clock=lambda: time.time() + self.offset, **gathering
            ) as (server, games):
                self.port = bound_port(server)
                self.games, self.listening = games, server
                self._ready.set()
                await self._stop.wait()
        finally:
            store.close()


class Client:
    """A blocking client over a real socket: send dicts, read dicts, wait for a kind. ``source``: the
    loopback address it connects from (any 127.x: another network to the server)."""

    def __init__(
        self,
        url: str,
        name: str | None = None,
        hello: bool = True,
        forwarded_for: str | None = None,
        source: str | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else None
        bound = None
        if source is not None:
            bound = socket.socket()
            bound.bind((source, 0))
            bound.settimeout(REPLY_WAIT)
            bound.connect(("127.0.0.1", int(urlsplit(url).port or 80)))
        self.socket: ClientConnection = connect(
            url, open_timeout=REPLY_WAIT, max_size=2**20, additional_headers=headers, sock=bound, ssl=tls
        ).__enter__()
        self.seen: list[dict[str, Any]] = []
        self.unread: list[dict[str, Any]] = []
        """Messages read ahead (``following``), handed out first."""
        if hello:
            self.send({"type": "hello", "version": 1, **({"name": name} if name else {})})
            self.expect("welcome")

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send(json.dumps(message))

    def send_text(self, text: str | bytes) -> None:
        self.socket.send(text)

    def read(self, timeout: float = REPLY_WAIT) -> dict[str, Any]:
        message = self.unread.pop(0) if self.unread else json.loads(self.socket.recv(timeout=timeout))
        self.seen.append(message)
        return message

    def expect(self, kind: str, timeout: float = REPLY_WAIT) -> dict[str, Any]:
        """The next message of this kind (others before it are kept in ``seen``); a wait that runs out
        fails naming the kind and the last messages that came instead (a refusal, an error)."""
        deadline = time.monotonic() + timeout
        first = len(self.seen)
        while True:
            try:
                message = self.read(max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                instead = [
                    message.get("type") if message.get("type") == "state" else message for message in self.seen[first:]
                ]
                raise AssertionError(f"no {kind!r} within {timeout} s; came instead: {instead[-5:]}") from None
            if message.get("type") == kind:
                return message

    def error(self, timeout: float = REPLY_WAIT) -> dict[str, Any]:
        return self.expect("error", timeout)

    def close(self) -> None:
        self.socket.close()


def following(
    url: str,
    message: dict[str, Any],
    name: str | None = None,
    source: str | None = None,
    timeout: float = REPLY_WAIT,
    forwarded_for: str | None = None,
) -> Client:
    """A client that sent ``message`` (a ``join``, ``watch``, ``resume``, a lobby request) where the
    server holds what it picks: an ``elsewhere`` answer is followed as the page follows it (the
    connection closed, another opened at its ``?at=``, ``hello`` and ``message`` sent again), up to
    ``FOLLOWS_IN_A_ROW`` times. The first answer that is not ``elsewhere`` is left for ``read``."""
    for _follow in range(FOLLOWS_IN_A_ROW + 1):
        client = Client(url, name, source=source, forwarded_for=forwarded_for)
        client.send(message)
        answer = client.read(timeout)
        if answer.get("type") != "elsewhere":
            client.seen.pop()
            client.unread.append(answer)
            return client
        client.close()
        url = url_at(url, answer["group"])
    raise AssertionError(f"{message['type']} was sent elsewhere {FOLLOWS_IN_A_ROW + 1} times in a row")


def create(client: Client, deal: int = 5, timeout: float = 30.0) -> dict[str, Any]:
    """``client`` hosts a game of ``deal`` and moves first; the ``created`` message (its state is read too)."""
    client.send({"type": "create", "deal": {"number": deal}, "first": "creator"})
    created = client.expect("created", timeout)
    client.expect("state", timeout)
    return created


def started(url: str, deal: int = 5, timeout: float = 30.0) -> tuple[Client, Client, dict[str, Any], dict[str, Any]]:
    """A game that began: its host, its guest, the ``created`` message and the guest's first state."""
    host = Client(url)
    created = create(host, deal, timeout)
    guest = Client(url)
    guest.send({"type": "join", "code": created["invite"]})
    state = guest.expect("state", timeout)
    host.expect("state", timeout)
    return host, guest, created, state


def with_an_unproved_par(folder: Path, text: str, least: int) -> None:
    """The game database in ``folder``, made as a server makes it, holding a row of ``pars`` for the
    deal from ``text`` (.mbp) whose search ran out of its nodes having proved ``least`` (the solver's
    value of the start)."""
    with ServerProcess(folder, "--solver-workers", "1"):
        pass
    with sqlite3.connect(folder / "games.sqlite3") as database:
        database.execute(
            "INSERT INTO pars (start, status, value, best, found_at) VALUES (?, 'unproved', ?, '', 1.0)", (text, least)
        )


def nothing_but_pong(client: Client, timeout: float = 30.0) -> None:
    """The next message ``client`` gets after a ping is its pong: nothing came in between."""
    client.send({"type": "ping", "t": 7})
    assert client.read(timeout) == {"type": "pong", "t": 7}


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


def process_that_makes(url: str, source: str, processes: int = 2) -> int:
    """The process of a server of ``processes`` that makes a game for a player from ``source``: it
    creates one and calls it off (the network's cap on waiting games holds no try)."""
    player = Client(url, source=source)
    try:
        player.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
        made_in = shard_of(player.expect("created")["game"], processes)
        player.expect("state")
        player.send({"type": "abort"})
        assert player.expect("state")["result"]["reason"] == "aborted"
    finally:
        player.close()
    return made_in


def a_legal_move(state: dict[str, Any]) -> str:
    position = parse_position(state["start"])
    for move in state["moves"]:
        from battle.rules.board import parse_move

        position.push(parse_move(move))
    return move_name(position.legal_moves()[0])


def play_to_the_end(players: dict[int, Client], state: dict[str, Any]) -> dict[str, Any]:
    """The players (by seat) take the first legal pair in turn from ``state`` until the game ends or
    200 moves; returns the last state, as each mover's ``moved`` told it."""
    for number in range(200):  # a whole deal is about 50 moves
        if state["status"] == "finished":
            break
        mover = players[state["to_move"]]
        mover.send({"type": "move", "move": a_legal_move(state), "id": f"m{number}"})
        moved = mover.expect("moved", timeout=10)
        while moved["ply"] != len(state["moves"]) + 1:  # the opponent's move, still unread here
            moved = mover.expect("moved", timeout=10)
        state = {**state, "moves": [*state["moves"], moved["move"]], "to_move": moved["to_move"]}
        state["status"] = moved.get("status", state["status"])
    return state
