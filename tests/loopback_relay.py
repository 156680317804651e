"""A TCP relay on 127.0.0.1 whose connections reach a server from a chosen loopback address.

A browser cannot pick the address it connects from, and a header it is told to add may or may not
reach a WebSocket handshake (Chromium 150 leaves Playwright's ``extra_http_headers`` off it, 156
sends them). A test that needs a page to come from a given network (``shards.home_of``) points the
page at a relay instead: the server sees each of the page's connections come from ``source``, as
it would see a player's own address, whatever the browser's build. Bytes pass unchanged both ways.
"""

from __future__ import annotations

import selectors
import socket
import threading
from types import TracebackType

CHUNK = 65536


class LoopbackRelay:
    """``with LoopbackRelay(("127.0.0.1", port), "127.0.0.3") as relay:`` then ``relay.port``."""

    def __init__(self, target: tuple[str, int], source: str) -> None:
        self.target = target
        self.source = source
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.setblocking(False)
        self.port = int(self._listener.getsockname()[1])
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._listener, selectors.EVENT_READ, None)
        self._waker, self._wake = socket.socketpair()
        self._selector.register(self._waker, selectors.EVENT_READ, None)
        self._pairs: dict[socket.socket, socket.socket] = {}
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name=f"relay-{source}", daemon=True)

    def base(self, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}"

    def __enter__(self) -> LoopbackRelay:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._stopping = True
        self._wake.send(b"x")
        self._thread.join(10)
        for end in [self._listener, self._waker, self._wake, *self._pairs]:
            end.close()
        self._selector.close()

    def _run(self) -> None:
        while not self._stopping:
            for key, _events in self._selector.select():
                end = key.fileobj
                assert isinstance(end, socket.socket)
                if end is self._listener:
                    self._accept()
                elif end is not self._waker:
                    self._pass(end)

    def _accept(self) -> None:
        try:
            incoming, _peer = self._listener.accept()
        except BlockingIOError:
            return
        outgoing = socket.socket()
        try:
            outgoing.bind((self.source, 0))
            outgoing.connect(self.target)
        except OSError:
            outgoing.close()
            incoming.close()
            return
        for end, other in ((incoming, outgoing), (outgoing, incoming)):
            end.setblocking(True)
            self._pairs[end] = other
            self._selector.register(end, selectors.EVENT_READ, None)

    def _pass(self, end: socket.socket) -> None:
        other = self._pairs.get(end)
        if other is None:
            return
        try:
            data = end.recv(CHUNK)
            if data:
                other.sendall(data)
                return
        except OSError:
            pass
        for closing in (end, other):  # one side ended: so does the other
            self._selector.unregister(closing)
            self._pairs.pop(closing, None)
            closing.close()
