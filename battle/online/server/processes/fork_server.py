"""The game processes of ``serve --processes N`` forked from one process that has already imported
the server (a fork server, as gunicorn's ``--preload`` and multiprocessing's ``forkserver`` do).

A game process started as a program of its own imports the whole server first: 0.35 s of CPU, and
with two of them a supervised start cost 0.98 s of CPU against 0.36 s for one process. Forked from
a process that holds those modules, a game process starts at the cost of its own work (its
database, its socket) and shares the imported pages with its siblings.

The fork server is forked from the supervisor before the supervisor starts its event loop or any
thread (a fork of a process with threads can copy a lock some thread holds), imports the server,
and then does nothing but this, on one thread: on a request from the supervisor (a JSON datagram
on a ``SOCK_SEQPACKET`` pair, with the write end of the new process's standard output passed along)
it forks a game process, which runs the ``serve`` command line it was given and exits; it says
each process's id when started and its exit status when reaped; it sends a process a signal only
while that process is its unreaped child, so a process id used again by another program is never
signalled. When the supervisor's end closes (a stop, or a ``kill -9`` of the supervisor) it ends
its game processes with SIGTERM, waits for them and exits. It dies with the supervisor, and its
game processes with it (``PR_SET_PDEATHSIG``, checked once set: ``die_with``).

A fork server that dies while the server runs (a ``kill -9`` of it) is replaced by one started as
a program (its ``replacement`` command), which costs one import of the server; the game processes
it had end with it and are started again like any dead ones.

What a game process runs is the caller's (``run``, and the modules to import first): this module
knows processes, not commands (``battle.cli.serve_forks`` gives it ``serve``).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from typing import Any

Run = Callable[[list[str]], int]
"""What a game process runs: its command line's words to its exit code."""
MESSAGE_BYTES = 65_536
"""The longest request or answer on the control pair: a command line of a few hundred bytes."""
STOP_WAIT = 30.0
"""Seconds the fork server gives its game processes to end after SIGTERM before it kills them:
a game process commits its last moves and closes its connections in well under a second."""
NAME_PREFIX = "battle-game-"
"""A game process's name (``/proc/PID/comm``, what ``ps -o comm`` and ``top`` show) is this and its
index: a forked process keeps its parent's command line, which says nothing of which one it is."""
FORK_SERVER_NAME = "battle-forks"
"""The fork server's name, beside its game processes'."""


def game_process_name(index: int) -> str:
    return f"{NAME_PREFIX}{index}"


class ForkServerGone(Exception):
    """The fork server ended before it answered."""


class ForkFailed(Exception):
    """The fork server could not fork a game process (the system's limit of processes, or memory)."""


class ForkedProcess:
    """A game process the fork server started, as the supervisor sees it (the calls of an
    ``asyncio.subprocess.Process`` it uses): its id, its standard output, its exit."""

    def __init__(self, server: ForkServer, pid: int, stdout: asyncio.StreamReader) -> None:
        self._server = server
        self.pid = pid
        self.stdout = stdout
        self.returncode: int | None = None
        self._exited: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def _ended(self, code: int) -> None:
        if not self._exited.done():
            self.returncode = code
            self._exited.set_result(code)

    async def wait(self) -> int:
        return await asyncio.shield(self._exited)

    def send_signal(self, number: int) -> None:
        if self.returncode is None:
            self._server.signal(self.pid, number)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class ForkServer:
    """The supervisor's side: ``start`` a game process with a ``serve`` command line (the words after
    ``python -m battle``), ``close`` at the end. Made with ``forked`` before the event loop starts."""

    def __init__(
        self,
        control: socket.socket,
        pid: int,
        replacement: Sequence[str],
        child: subprocess.Popen[bytes] | None = None,
    ) -> None:
        self._control = control
        self.pid = pid
        """The fork server's process id (its game processes are its children)."""
        self.started_at = time.monotonic()
        """When it started: one that dies soon after counts as failing to start (``supervisor``)."""
        self.replacement_command = list(replacement)
        """The program that serves forks as this one does (``replacement``)."""
        self._child = child
        """The fork server as a program (``replacement``), else None: a forked one is reaped by ``close``."""
        self._starting: dict[int, asyncio.Future[int]] = {}
        self._running: dict[int, ForkedProcess] = {}
        self._ended_unseen: dict[int, int] = {}
        """Exit codes of processes that ended before ``start`` had their handle made."""
        self._listening = False

    @classmethod
    def forked(
        cls, run: Run, preload: Sequence[str], replacement: Sequence[str], closing: Iterable[Any] = ()
    ) -> ForkServer:
        """Fork the fork server from this process: it imports ``preload`` and its game processes
        ``run`` their command lines. ``replacement`` is a program that does the same given the
        control socket's descriptor and this process's id (a fork server that dies is replaced by
        it). ``closing`` (the listening socket, the database's claim) is closed in the fork server,
        so it holds none of the supervisor's own. A process with a thread besides the main one starts
        ``replacement`` instead."""
        if threading.active_count() > 1:
            return cls.spawned(replacement)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        supervisor = os.getpid()
        for stream in (sys.stdout, sys.stderr):  # what is buffered is written once, by the supervisor
            stream.flush()
        pid = os.fork()
        if pid == 0:  # the fork server
            code = 1
            try:
                ours.close()
                for held in closing:
                    held.close()
                die_with(supervisor, signal.SIGKILL)
                code = serve_forks(theirs, run, preload)
            except BaseException:  # nothing may unwind into the supervisor's frames: they are its
                traceback.print_exc()
            finally:
                os._exit(code)
        theirs.close()
        return cls(ours, pid, replacement)

    @classmethod
    def spawned(cls, command: Sequence[str]) -> ForkServer:
        """A fork server started as the program ``command``, given the descriptor of its end of the
        control socket and this process's id."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        child = subprocess.Popen([*command, str(theirs.fileno()), str(os.getpid())], pass_fds=[theirs.fileno()])
        theirs.close()
        return cls(ours, child.pid, command, child)

    def replacement(self) -> ForkServer:
        """A fork server in place of this one, which has died: started as its replacement program."""
        self.close(wait=False)
        return ForkServer.spawned(self.replacement_command)

    def alive(self) -> bool:
        return self._control.fileno() >= 0

    async def start(self, arguments: Sequence[str], index: int) -> ForkedProcess:
        """Fork a game process that runs ``serve``'s ``arguments``, named for ``index``; its standard
        output is a pipe read here. ``ForkServerGone`` when the fork server is not there to do it,
        ``ForkFailed`` (with the system's reason) when it could not fork."""
        loop = asyncio.get_running_loop()
        self._listen(loop)
        reading, writing = os.pipe()
        started: asyncio.Future[int] = loop.create_future()
        self._starting[index] = started
        try:
            try:
                message = json.dumps({"start": index, "arguments": list(arguments)}).encode()
                socket.send_fds(self._control, [message], [writing])
            except OSError as error:
                raise ForkServerGone(str(error)) from None
            finally:
                os.close(writing)
            pid = await started
        except BaseException:
            os.close(reading)
            raise
        finally:
            self._starting.pop(index, None)
        stdout = asyncio.StreamReader()
        pipe = open(reading, "rb", buffering=0)  # noqa: SIM115 -- the transport owns it and closes it at its end
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stdout), pipe)
        process = ForkedProcess(self, pid, stdout)
        if pid in self._ended_unseen:
            process._ended(self._ended_unseen.pop(pid))
        elif not self.alive():
            process._ended(-signal.SIGTERM)  # it ended with the fork server
        else:
            self._running[pid] = process
        return process

    def signal(self, pid: int, number: int) -> None:
        with contextlib.suppress(OSError):  # gone: its processes are ending with it
            self._control.send(json.dumps({"signal": pid, "number": int(number)}).encode())

    def _listen(self, loop: asyncio.AbstractEventLoop) -> None:
        if not self._listening and self.alive():
            self._control.setblocking(False)
            loop.add_reader(self._control.fileno(), self._read)
            self._listening = True

    def _read(self) -> None:
        try:
            message = self._control.recv(MESSAGE_BYTES)
        except BlockingIOError:
            return
        except OSError:
            message = b""
        if not message:
            self._gone()
            return
        said = json.loads(message)
        if "started" in said:
            waiting = self._starting.get(said["started"])
            if waiting is not None and not waiting.done():
                waiting.set_result(said["pid"])
        elif "failed" in said:
            waiting = self._starting.get(said["failed"])
            if waiting is not None and not waiting.done():
                waiting.set_exception(ForkFailed(said["reason"]))
        elif "exited" in said:
            process = self._running.pop(said["exited"], None)
            if process is not None:
                process._ended(said["code"])
            else:
                self._ended_unseen[said["exited"]] = said["code"]

    def _gone(self) -> None:
        """The fork server ended: its game processes ended with it (their parent-death signal)."""
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(self._control.fileno())
        self._control.close()
        for waiting in self._starting.values():
            if not waiting.done():
                waiting.set_exception(ForkServerGone("the fork server ended"))
        for process in self._running.values():
            process._ended(-signal.SIGTERM)
        self._running.clear()
        self._reap()

    def close(self, *, wait: bool = True) -> None:
        """Tell the fork server to end (it ends any game process still running) and wait for it
        (``wait`` False: a thread of the loop's executor waits)."""
        if self.alive():
            with contextlib.suppress(ValueError, OSError, RuntimeError):
                asyncio.get_running_loop().remove_reader(self._control.fileno())
            self._control.close()
        if wait:
            self._reap(wait=True)
        else:
            asyncio.get_running_loop().run_in_executor(None, self._reap, True)

    def _reap(self, wait: bool = False) -> None:
        if self._child is not None:
            if wait:
                self._child.wait()
            else:
                self._child.poll()
            return
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0 if wait else os.WNOHANG)


def serve_forks(control: socket.socket, run: Run, preload: Sequence[str]) -> int:
    """The fork server's loop: import ``preload``, then fork game processes that ``run`` the command
    lines ``control`` asks for, until it closes; end them, and return 0."""
    name_this_process(FORK_SERVER_NAME)
    for module in preload:
        importlib.import_module(module)
    for number in (signal.SIGINT, signal.SIGTERM):
        # Ctrl-C and a service manager's SIGTERM reach every process of the group: the game processes
        # stop on them, and this one waits for the supervisor, which waits for their ends through it
        signal.signal(number, signal.SIG_IGN)
    woken, waking = os.pipe()
    os.set_blocking(woken, False)
    os.set_blocking(waking, False)
    signal.signal(signal.SIGCHLD, lambda _number, _frame: None)
    signal.set_wakeup_fd(waking)
    children: set[int] = set()
    while True:
        readable, _, _ = select.select([control.fileno(), woken], [], [])
        if woken in readable:
            with contextlib.suppress(BlockingIOError):
                while os.read(woken, 512):
                    pass
        _reap_children(control, children, wait=False)
        if control.fileno() not in readable:
            continue
        try:
            message, fds, _flags, _address = socket.recv_fds(control, MESSAGE_BYTES, 1)
        except OSError:
            message, fds = b"", []
        if not message:
            break
        asked = json.loads(message)
        if "start" in asked:
            closing = [control.fileno(), woken, waking]
            try:
                pid = _fork_game_process(run, asked["arguments"], asked["start"], fds[0], closing)
            except OSError as error:  # EAGAIN at the limit of processes, ENOMEM
                answer = {"failed": asked["start"], "reason": os.strerror(error.errno or 0)}
            else:
                children.add(pid)
                answer = {"started": asked["start"], "pid": pid}
            with contextlib.suppress(OSError):
                control.send(json.dumps(answer).encode())
        elif "signal" in asked and asked["signal"] in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(asked["signal"], asked["number"])
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGTERM)
    given_up = time.monotonic() + STOP_WAIT
    while children and time.monotonic() < given_up:
        _reap_children(control, children, wait=False)
        time.sleep(0.02)
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    _reap_children(control, children, wait=True)
    return 0


def _reap_children(control: socket.socket, children: set[int], *, wait: bool) -> None:
    """Reap the game processes that ended and tell the supervisor their exit codes."""
    while children:
        try:
            pid, status = os.waitpid(-1, 0 if wait else os.WNOHANG)
        except ChildProcessError:
            children.clear()
            return
        if pid == 0:
            return
        children.discard(pid)
        with contextlib.suppress(OSError):
            control.send(json.dumps({"exited": pid, "code": os.waitstatus_to_exitcode(status)}).encode())


def _fork_game_process(run: Run, arguments: list[str], index: int, stdout: int, closing: Sequence[int]) -> int:
    """Fork a game process that runs ``arguments`` with ``stdout`` as its standard output; its id.
    The child never returns: it exits with ``run``'s code."""
    pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        sys.argv = [sys.argv[0], *arguments]  # what this process runs, for whoever reads it
        for fd in closing:
            os.close(fd)
        signal.set_wakeup_fd(-1)
        for number in (signal.SIGCHLD, signal.SIGTERM):
            signal.signal(number, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.dup2(stdout, 1)
        os.close(stdout)
        name_this_process(game_process_name(index))
        code = run(arguments)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)


def die_with(parent: int | None, number: int) -> None:
    """End this process with ``number`` when its parent ends (Linux's parent-death signal), and now
    when ``parent`` (None: not checked) is not its parent any more: it ended before the request."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, number)  # PR_SET_PDEATHSIG
    if parent is not None and os.getppid() != parent:
        os._exit(0)  # nobody reads this process's exit any more, nor its output


def name_this_process(name: str) -> None:
    """Set this process's name (``PR_SET_NAME``: 15 bytes, what ``ps -o comm`` shows); Linux only."""
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(15, name.encode()[:15])  # PR_SET_NAME
