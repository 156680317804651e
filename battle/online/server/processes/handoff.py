"""Sockets the supervisor passes to the server's processes (``serve --processes N``).

Each game process listens on a Unix socket of its own in the run's folder (``process-I.sock``);
the supervisor keeps a link to each (``Outbox``). One packet carries one file descriptor and a
small JSON note, ``Fresh``: a TCP connection the supervisor accepted, before its first byte is
read (its head peeked at, never taken).

A packet on a Unix socket is never lost nor reordered, and a descriptor in flight keeps its
connection open, so the sender closes its own copy as soon as it is sent. Nothing here is
pickled: the notes are JSON of strings and numbers.
"""

from __future__ import annotations

import array
import json
import socket
from dataclasses import asdict, dataclass
from pathlib import Path

MAX_NOTE_BYTES = 150_000
"""The largest note sent: under the 208 KiB a Unix socket buffers by default."""


@dataclass(frozen=True)
class Fresh:
    """A connection as accepted, for the process its ``?at=`` names or its network's home."""

    KIND = "fresh"


Note = Fresh
_KINDS: dict[str, type[Note]] = {kind.KIND: kind for kind in (Fresh,)}


def encode(note: Note) -> bytes:
    return json.dumps({"kind": note.KIND, **asdict(note)}, separators=(",", ":")).encode()


def decode(data: bytes) -> Note:
    """The note in ``data``; ``ValueError`` for anything else (only the server's processes write here)."""
    fields = json.loads(data)
    kind = _KINDS.get(fields.pop("kind", None))
    if kind is None:
        raise ValueError(f"not a note between the server's processes: {data[:60]!r}")
    return kind(**fields)


def process_socket(folder: Path, index: int) -> Path:
    """Where process ``index`` of the run in ``folder`` takes its sockets."""
    return folder / f"process-{index}.sock"


def late_marker(folder: Path, index: int) -> Path:
    """A file that is there while process ``index`` misses its beats (``supervisor``): a client sent
    there would wait unanswered, so the others say so in words instead of sending it there."""
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
