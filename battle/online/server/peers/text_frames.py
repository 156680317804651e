"""WebSocket text frames built once and written as they are: the bytes a server puts on the wire.

A server's frames are not masked (RFC 6455, 5.1) and this server negotiates no extension
(``serve(compression=None)``), so a message's frame is the same bytes for every connection:
``text_frame`` builds it once for all the receivers of a ``moved``, where websockets' own
``send`` and ``broadcast`` frame it again for each. ``write_frames`` hands one or more frames to a
connection's transport in one write: the mover's ``moved`` and ``ack`` leave in one system call,
where a write each made 3.3 ``send`` calls a move instead of 2.1.
"""

from __future__ import annotations

import struct

from websockets.asyncio.connection import Connection
from websockets.protocol import State

_FIN_TEXT = 0x81
"""The first byte of a text frame that is a whole message: FIN set, opcode 1."""


def text_frame(payload: bytes) -> bytes:
    """The unmasked text frame that carries ``payload`` (UTF-8 text) as one whole message."""
    length = len(payload)
    if length < 126:
        head = struct.pack("!BB", _FIN_TEXT, length)
    elif length < 65536:
        head = struct.pack("!BBH", _FIN_TEXT, 126, length)
    else:
        head = struct.pack("!BBQ", _FIN_TEXT, 127, length)
    return head + payload


def write_frames(connection: Connection, frames: bytes) -> None:
    """``frames`` (whole frames, one after the other) to ``connection`` in one write; nothing unless
    it is open, as websockets' ``broadcast`` skips one that is closing.

    Every frame websockets itself sends is written before its call returns, so nothing of its
    own waits in the connection to come before or after these bytes."""
    if connection.protocol.state is State.OPEN:
        connection.transport.write(frames)
