"""Sockets passed between the server's processes (``serve --processes N``), and what comes with them.

Each game process listens on a Unix socket of its own in the run's folder (``process-I.sock``);
the others (and the supervisor) keep a link to it (``Outbox``). One packet carries at most one
file descriptor and a small JSON note:

- ``Fresh``: a TCP connection the supervisor accepted, before its first byte is read;
- ``Picked``: a WebSocket connection whose client picked a game of another process: the
  handshake's request, the name of its ``hello``, the frame that picked the game (done again by
  the receiver) and the bytes of the frames read after it but not yet handled (``FrameTail``);
- ``Released``: a connection ``Picked`` sent has closed (to the process that counts it);
- ``Restarted``: a process was started again: the connections it had been sent are gone.

A packet on a Unix socket is never lost nor reordered, and a descriptor in flight keeps its
connection open, so the sender closes its own copy as soon as it is sent. Nothing here is
pickled: the notes are JSON of strings and numbers.
"""

from __future__ import annotations

import array
import base64
import json
import socket
from collections import deque
from dataclasses import asdict, dataclass, field
from pathlib import Path

MAX_NOTE_BYTES = 150_000
"""The largest note sent: under the 208 KiB a Unix socket buffers by default."""


@dataclass(frozen=True)
class Fresh:
    """A connection as accepted, for its network's home process."""

    KIND = "fresh"


@dataclass(frozen=True)
class Picked:
    """A connection that picked a game of the receiver, in the middle of its WebSocket stream."""

    KIND = "picked"
    home: int
    """The process that counts the connection under its network (told ``Released`` when it closes)."""
    address: str
    """The client's address, the peer's or the one a trusted proxy forwarded."""
    path: str
    headers: list[tuple[str, str]]
    """The handshake's request, checked again by the receiver as its own."""
    name: str | None
    frame: str
    """The message that picked the game, to be done by the receiver."""
    rest: str = ""
    """Base64 of the bytes of the frames that followed it, read by the sender, not yet handled."""
    created: int = 0
    hosted: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Released:
    """A connection ``Picked`` brought has closed: ``address`` is one connection fewer at home."""

    KIND = "released"
    address: str
    by: int
    """The process the connection was in."""


@dataclass(frozen=True)
class Restarted:
    """The process ``index`` was started again: what it held of others' connections is gone."""

    KIND = "restarted"
    index: int


Note = Fresh | Picked | Released | Restarted
_KINDS: dict[str, type[Note]] = {kind.KIND: kind for kind in (Fresh, Picked, Released, Restarted)}


def encode(note: Note) -> bytes:
    return json.dumps({"kind": note.KIND, **asdict(note)}, separators=(",", ":")).encode()


def decode(data: bytes) -> Note:
    """The note in ``data``; ``ValueError`` for anything else (only the server's processes write here)."""
    fields = json.loads(data)
    kind = _KINDS.get(fields.pop("kind", None))
    if kind is None:
        raise ValueError(f"not a note between the server's processes: {data[:60]!r}")
    if kind is Picked:
        fields["headers"] = [tuple(pair) for pair in fields["headers"]]
    return kind(**fields)


def process_socket(folder: Path, index: int) -> Path:
    """Where process ``index`` of the run in ``folder`` takes its sockets."""
    return folder / f"process-{index}.sock"


def late_marker(folder: Path, index: int) -> Path:
    """A file that is there while process ``index`` misses its beats (``supervisor``): a connection
    passed to it would wait in its socket unanswered, so the others keep theirs and say so."""
    return folder / f"process-{index}.late"


class Outbox:
    """This process's connections to the others' sockets, made on first use and made again when
    the other end was started anew."""

    def __init__(self) -> None:
        self._links: dict[Path, socket.socket] = {}

    def send(self, target: Path, note: Note, descriptor: int | None = None) -> None:
        """``note`` (with ``descriptor``) to the process listening at ``target``. ``BlockingIOError``
        when its socket's buffer is full (try again soon); ``ConnectionError`` or ``FileNotFoundError``
        when nobody listens there (not started yet, or dead)."""
        data = encode(note)
        if len(data) > MAX_NOTE_BYTES:
            raise ValueError(f"a note of {len(data)} bytes is over {MAX_NOTE_BYTES}")
        rights = [] if descriptor is None else [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [descriptor]))]
        for attempt in range(2):  # a link to a process that was started again breaks once
            link = self._link(target)
            try:
                link.sendmsg([data], rights)
                return
            except (BrokenPipeError, ConnectionResetError, ConnectionRefusedError):
                self._drop(target)
                if attempt:
                    raise

    def close(self) -> None:
        for target in list(self._links):
            self._drop(target)

    def _link(self, target: Path) -> socket.socket:
        link = self._links.get(target)
        if link is None:
            link = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            try:
                link.connect(str(target))
            except OSError:
                link.close()
                raise
            link.setblocking(False)
            self._links[target] = link
        return link

    def _drop(self, target: Path) -> None:
        link = self._links.pop(target, None)
        if link is not None:
            link.close()


def receive(link: socket.socket) -> tuple[Note, socket.socket | None] | None:
    """The next note waiting on ``link`` (non-blocking) with the connection it carries; None when none
    waits; ``EOFError`` when the sender has gone."""
    try:
        data, fds, _flags, _address = socket.recv_fds(link, MAX_NOTE_BYTES + 1024, 1)
    except BlockingIOError:
        return None
    carried = socket.socket(fileno=fds[0]) if fds else None
    if not data:
        raise EOFError("the other process closed its link")
    try:
        return decode(data), carried
    except (ValueError, TypeError, KeyError):
        if carried is not None:
            carried.close()
        raise


def listen(path: Path) -> socket.socket:
    """A non-blocking listening socket at ``path`` for the others' links (one left by a killed process
    is replaced). Sequenced packets: each note arrives whole and in order, and the queue is bounded by
    bytes (some 200 KiB), not by the 10 datagrams a Unix datagram socket queues."""
    path.unlink(missing_ok=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(str(path))
    listener.listen(256)
    listener.setblocking(False)
    return listener


# -- the frames a connection has not handled ---------------------------------------------------


class FrameTail:
    """The raw bytes of a connection's client frames that its handler has not read yet.

    websockets parses what arrives at once, so when a handler decides to pass its connection on,
    the frames after the one it is handling are parsed already (in websockets' queue, or half in
    its reader). ``feed`` sees the same bytes first and keeps each whole data frame until the
    handler reads its message (``read_one``); ``unread`` is then what the next process must parse.
    A client's ping or pong is answered here and dropped; a fragmented message or a close frame
    makes the connection ``whole`` no more: it is not passed on."""

    __slots__ = ("frames", "partial", "whole")

    def __init__(self) -> None:
        self.frames: deque[bytes] = deque()
        self.partial = bytearray()
        self.whole = True

    def feed(self, data: bytes) -> None:
        self.partial += data
        while (size := _frame_size(self.partial)) is not None and size <= len(self.partial):
            raw = bytes(self.partial[:size])
            del self.partial[:size]
            opcode, final = raw[0] & 0x0F, raw[0] & 0x80
            if opcode in (0x1, 0x2):
                self.frames.append(raw)
                self.whole = self.whole and bool(final)
            elif opcode in (0x0, 0x8):  # a continuation, a close
                self.whole = False

    def read_one(self) -> None:
        """The handler took the next message."""
        if self.frames:
            self.frames.popleft()

    def unread(self) -> bytes:
        return b"".join(self.frames) + bytes(self.partial)


def _frame_size(data: bytearray) -> int | None:
    """The length of the frame ``data`` starts with, once its header is there (RFC 6455, 5.2)."""
    if len(data) < 2:
        return None
    length, header = data[1] & 0x7F, 2
    if length == 126:
        if len(data) < 4:
            return None
        length, header = int.from_bytes(data[2:4], "big"), 4
    elif length == 127:
        if len(data) < 10:
            return None
        length, header = int.from_bytes(data[2:10], "big"), 10
    return header + (4 if data[1] & 0x80 else 0) + length


def rest_of(tail: FrameTail | None) -> str:
    return base64.b64encode(tail.unread()).decode("ascii") if tail is not None else ""


def rest_bytes(picked: Picked) -> bytes:
    return base64.b64decode(picked.rest) if picked.rest else b""
