"""Plain HTTP on the game port as a stranger sends it: ``mahjong-battle serve`` as a process on
127.0.0.1, requests written byte for byte on raw sockets (``tests.online.strangers``) and
handshakes by websockets' own client. Pipelined requests, foreign pages' scripts, methods other
than GET, the headers of every answer, links put into the web folder, the counting of
connections behind a trusted proxy, and the host names a request may give (DNS rebinding)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.online.strangers import WAIT, handshake_head, head_and_body, http, request
from tests.online_server import Client, ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    with ServerProcess(tmp_path_factory.mktemp("http")) as running:
        yield running


def test_pipelined_requests_get_the_first_answered_and_write_no_traceback(server: ServerProcess) -> None:
    for _ in range(50):
        answer = http(server.port, request("GET", "/healthz") * 3)
        status, headers, body = head_and_body(answer)
        assert status == "HTTP/1.1 200 OK" and body == b"ok\n"  # the first; the others are for a new connection
        assert ("connection", "close") in headers and answer.count(b"HTTP/1.1") == 1
    log = "\n".join(server.log_lines())
    assert "Traceback" not in log and "AssertionError" not in log, log[-2000:]


def test_head_gets_the_headers_alone_and_other_methods_405(server: ServerProcess) -> None:
    status, headers, body = head_and_body(http(server.port, request("HEAD", "/healthz")))
    assert status == "HTTP/1.1 200 OK" and body == b"" and ("content-length", "3") in headers
    status, headers, body = head_and_body(http(server.port, request("HEAD", "/")))
    assert status == "HTTP/1.1 200 OK" and body == b"" and int(dict(headers)["content-length"]) > 500
    for method in ("POST", "PUT", "DELETE", "OPTIONS", "BREW"):
        status, headers, body = head_and_body(http(server.port, request(method, "/healthz", "Content-Length: 0")))
        assert status == "HTTP/1.1 405 Method Not Allowed" and ("allow", "GET, HEAD") in headers, method
        assert body == f"{method} is not answered here\n".encode()


@pytest.mark.parametrize("path", ["/healthz", "/stats", "/", "/app.js", "/nothing"])
def test_every_answer_has_one_content_type_and_nosniff(server: ServerProcess, path: str) -> None:
    status, headers, _ = head_and_body(http(server.port, request("GET", path)))
    names = [name for name, _ in headers]
    assert names.count("content-type") == 1, headers
    assert ("x-content-type-options", "nosniff") in headers


def test_a_page_elsewhere_may_not_connect_but_the_servers_own_and_the_allowed_may(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--allow-origin", "https://Friends.example.org:443/") as server:
        with pytest.raises(InvalidStatus) as refused:
            connect(server.url, origin="http://evil.example", open_timeout=WAIT)  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        assert b"may not connect here" in refused.value.response.body
        with pytest.raises(InvalidStatus):
            connect(server.url, origin="null", open_timeout=WAIT)  # type: ignore[arg-type]
        for origin in (server.base, "https://friends.example.org", None):  # its own page, the allowed, a program
            with connect(server.url, origin=origin, open_timeout=WAIT) as allowed:  # type: ignore[arg-type]
                allowed.send('{"type": "ping", "t": 1}')
                assert allowed.recv(WAIT) == '{"type":"pong","t":1}'


def test_allow_origin_refuses_what_is_no_origin_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from battle.cli import entry_point; entry_point()",
            "serve",
            "--allow-origin",
            "ftp://x/y",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and "'ftp://x/y' is not a web origin like https://games.example.org" in done.stderr
    assert "Traceback" not in done.stderr


def test_links_in_the_web_folder_are_not_served(tmp_path: Path) -> None:
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>page</title>\n")
    (web / "app.js").write_text("export const kept = 1;\n")
    (tmp_path / "secret.js").write_text("the server's own secrets\n")
    os.symlink(tmp_path / "secret.js", web / "outside.js")
    os.symlink(web / "app.js", web / "inside.js")
    prelude = (
        "import battle.online.server.shell.web_files as files; "
        f"files.WEB_ROOT = __import__('pathlib').Path({str(web)!r})"
    )
    with ServerProcess(tmp_path / "server", prelude=prelude) as server:
        status, _, body = head_and_body(http(server.port, request("GET", "/app.js")))
        assert status == "HTTP/1.1 200 OK" and body == b"export const kept = 1;\n"
        for path in ("/outside.js", "/inside.js"):
            status, _, body = head_and_body(http(server.port, request("GET", path)))
            assert status == "HTTP/1.1 404 Not Found" and b"secrets" not in body, path


def test_behind_a_proxy_a_connection_counts_once_and_one_without_the_header_is_capped(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--trust-proxy", "--max-connections-per-address", "2") as server:

        def connections() -> int:
            _, _, body = head_and_body(http(server.port, request("GET", "/stats")))
            return int(dict(line.split(" ", 1) for line in body.decode().splitlines())["connections"])

        alone = connections()  # the request for the counts is a connection too
        forwarded = Client(server.url, forwarded_for="192.0.2.7")
        assert connections() == alone + 1
        unnamed = [Client(server.url) for _ in range(2)]  # no X-Forwarded-For: the proxy's own address, capped
        with pytest.raises(InvalidStatus) as refused:
            Client(server.url)
        assert refused.value.response.status_code == 429
        assert connections() == alone + 3
        for client in (forwarded, *unnamed):
            client.close()


# -- the names a request may give --------------------------------------------------------------------

MISDIRECTED = "HTTP/1.1 421 Misdirected Request"
SWITCHING = "HTTP/1.1 101 Switching Protocols"


def test_a_rebinding_page_gets_no_handshake_and_no_page(server: ServerProcess) -> None:
    """A page at evil.example whose name the stranger's DNS now points at this machine: its requests
    name evil.example in ``Host`` and, from its script, in ``Origin``."""
    evil = f"evil.example:{server.port}"
    head = handshake_head(server.port, evil, f"Origin: http://{evil}")
    assert head.startswith(MISDIRECTED) and "upgrade" not in head.lower(), head
    for method in ("GET", "HEAD"):
        status, headers, body = head_and_body(http(server.port, request(method, "/", host=evil)))
        assert status == MISDIRECTED and ("content-type", "text/plain; charset=utf-8") in headers
    _, _, body = head_and_body(http(server.port, request("GET", "/stats", host="EVIL.example")))
    assert body == (
        b"'EVIL.example' is no name of this server: it answers to its own address, localhost, "
        b"--public-url and --allow-host\n"
    )
    status, _, _ = head_and_body(http(server.port, b"GET / HTTP/1.1\r\n\r\n"))  # no Host at all
    assert status == "HTTP/1.1 400 Bad Request"
    said = [line for line in server.log_lines() if "refused a request naming the server" in line]
    assert len(said) == 1 and f"'{evil}'" in said[0] and "--allow-host" in said[0], said  # once in 10 s


def test_its_address_localhost_its_name_and_the_names_it_is_given_are_answered(tmp_path: Path) -> None:
    flags = ("--public-url", "https://Games.example.org/play", "--allow-host", "friends.lan")
    with ServerProcess(tmp_path, *flags) as server:
        port = server.port
        for host in (
            f"127.0.0.1:{port}",
            f"localhost:{port}",
            f"[::1]:{port}",
            f"198.51.100.7:{port}",  # an address it was dialled at through a router's port forward
            f"{socket.gethostname()}:{port}",
            f"FRIENDS.lan.:{port}",
        ):
            head = handshake_head(port, host, f"Origin: http://{host}")
            assert head.startswith(SWITCHING), (host, head)
            status, _, _ = head_and_body(http(port, request("GET", "/healthz", host=host)))
            assert status == "HTTP/1.1 200 OK", host
        assert handshake_head(port, "games.example.org", "Origin: https://games.example.org").startswith(SWITCHING)
        evil = f"evil.example:{port}"
        assert handshake_head(port, evil, f"Origin: http://{evil}").startswith(MISDIRECTED)  # --public-url or not
        assert handshake_head(port, "friends.lan.evil.example").startswith(MISDIRECTED)


def test_behind_a_proxy_the_host_it_forwards_is_checked_too(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--trust-proxy") as server:
        own = f"127.0.0.1:{server.port}"  # a proxy that names the server by its address, the page's host apart
        head = handshake_head(server.port, own, "X-Forwarded-Host: evil.example", "Origin: http://evil.example")
        assert head.startswith(MISDIRECTED), head
        head = handshake_head(server.port, own, "X-Forwarded-Host: localhost:443", "Origin: https://localhost")
        assert head.startswith(SWITCHING), head


def test_allow_host_refuses_what_is_no_host_name_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from battle.cli import entry_point; entry_point()",
            "serve",
            "--allow-host",
            "x.org:80",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 2 and "'x.org:80' is not a host name like games.example.org" in done.stderr
    assert "Traceback" not in done.stderr
