"""What a stranger's client does, written from docs/protocol.md and RFC 6455 rather than with the
project's own client: plain HTTP requests and WebSocket handshakes over raw sockets, frames
masked by hand, and the server process's memory read from ``/proc``. Only 127.0.0.1 is dialled;
every read is bounded in bytes and in time."""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from pathlib import Path
from typing import Any

WAIT = 30.0
"""The longest any one answer is waited for."""
MOST_BYTES = 1 << 20
"""The most any one HTTP answer is read to."""


def http(port: int, request: bytes) -> bytes:
    """Everything the server answers to ``request`` (written as is) until it closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as connection:
        connection.sendall(request)
        answer = b""
        while len(answer) < MOST_BYTES and (chunk := connection.recv(65536)):
            answer += chunk
    return answer


def request(method: str, path: str, *headers: str, host: str = "127.0.0.1") -> bytes:
    """A request's head as a stranger writes it, naming the server ``host`` (its ``Host`` header)."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", *headers, "", ""]
    return "\r\n".join(lines).encode()


def handshake_head(port: int, host: str, *headers: str) -> str:
    """The status line and headers the server answers a WebSocket handshake naming it ``host`` with
    ``headers`` (an ``Origin``, an ``X-Forwarded-Host``), read by hand; the connection is then closed."""
    key = base64.b64encode(os.urandom(16)).decode()
    upgrade = ("Upgrade: websocket", "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13")
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT) as connection:
        connection.sendall(request("GET", "/", *upgrade, *headers, host=host))
        head = b""
        while b"\r\n\r\n" not in head and len(head) < 8192 and (chunk := connection.recv(4096)):
            head += chunk
    return head.partition(b"\r\n\r\n")[0].decode("latin-1")


def head_and_body(answer: bytes) -> tuple[str, list[tuple[str, str]], bytes]:
    """An HTTP answer's status line, its headers in order (names in lower case) and its body."""
    head, _, body = answer.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = [(name.strip().lower(), value.strip()) for name, _, value in (line.partition(":") for line in lines)]
    return status, headers, body


def masked_frame(text: str) -> bytes:
    """A client's text frame: FIN, opcode 1, its length, a random mask and the masked payload."""
    payload = text.encode("utf-8")
    size = len(payload)
    length = bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + size.to_bytes(2, "big")
    mask = os.urandom(4)
    return b"\x81" + length + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


def raw_websocket(
    port: int, *messages: dict[str, Any], receive_buffer: int | None = None, source: str | None = None
) -> socket.socket:
    """A WebSocket opened by hand that sends ``messages`` and is never read again (its receive
    buffer set to ``receive_buffer`` bytes first, as a slow or hostile reader's), from the
    loopback address ``source`` (any 127.x) if given."""
    connection = socket.socket()
    if receive_buffer is not None:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    if source is not None:
        connection.bind((source, 0))
    connection.settimeout(WAIT)
    connection.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    connection.sendall(
        request(
            "GET",
            "/",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
        )
    )
    head = b""
    while b"\r\n\r\n" not in head and len(head) < 8192:
        chunk = connection.recv(1)
        if not chunk:
            break
        head += chunk
    assert head.startswith(b"HTTP/1.1 101"), head[:200]
    send(connection, *messages)
    return connection


def send(connection: socket.socket, *messages: dict[str, Any]) -> None:
    connection.sendall(b"".join(masked_frame(json.dumps(message)) for message in messages))


def resident_mib(pid: int) -> float:
    """The process's resident memory (``VmRSS``) in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def closed_by_server(connection: socket.socket, timeout: float = WAIT) -> bool:
    """Whether the server closes ``connection`` within ``timeout`` s (what it still sends is read and dropped)."""
    connection.settimeout(1.0)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if not connection.recv(65536):
                return True
        except TimeoutError:
            continue
        except OSError:  # reset: dropped without a close frame
            return True
    return False
