"""The game server's port answers the browser client's files over plain HTTP: the page at ``/``
and at every invite or watch link, each file with its type, ``no-cache`` with an ETag, and a
content security policy that allows nothing from elsewhere; nothing outside ``battle/web``."""

from __future__ import annotations

import gzip
import http.client
import re
import socket

import pytest

from battle.online.protocol.codes import invite_link
from battle.online.server.shell import web_files
from tests.online_server import Client, ServerThread

WEB = web_files.WEB_ROOT


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    with ServerThread(tmp_path_factory.mktemp("web") / "games.sqlite3") as running:
        yield running


def get(server: ServerThread, path: str, headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    connection.close()
    return response


def raw_get(server: ServerThread, target: str) -> bytes:
    """A request line written as is (http.client would tidy ``/../``)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


@pytest.mark.parametrize("path", ["/", "/join/4KQ7-M2XD", "/watch/9T3PWQ0R", "/play/3f9a0c1d2e4b5a69", "/?x=1"])
def test_the_page_answers_at_home_and_at_every_link(server: ServerThread, path: str) -> None:
    response = get(server, path)
    assert response.status == 200
    assert response.getheader("Content-Type") == "text/html; charset=utf-8"
    assert response.body == (WEB / "index.html").read_bytes()  # type: ignore[attr-defined]
    assert response.getheader("Cache-Control") == "no-cache"
    policy = response.getheader("Content-Security-Policy")
    assert "default-src 'none'" in policy and "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert response.getheader("X-Content-Type-Options") == "nosniff"


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("app.js", "text/javascript; charset=utf-8"),
        ("rules.js", "text/javascript; charset=utf-8"),
        ("style.css", "text/css; charset=utf-8"),
        ("tiles.png", "image/png"),
        ("refusal_words.json", "application/json"),  # a JSON module: the browser loads it only with a JSON type
    ],
)
def test_each_file_comes_with_its_type_and_an_etag_that_revalidates(server: ServerThread, name: str, kind: str) -> None:
    response = get(server, f"/{name}")
    assert response.status == 200 and response.getheader("Content-Type") == kind
    assert response.body == (WEB / name).read_bytes()  # type: ignore[attr-defined]
    again = get(server, f"/{name}", {"If-None-Match": response.getheader("ETag")})
    assert again.status == 304 and again.body == b""  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "path", ["/", "/join/4KQ7-M2XD", "/app.js", "/style.css", "/refusal_words.json", "/locale/de.json"]
)
def test_a_browser_that_takes_gzip_gets_the_text_gzipped_with_an_etag_of_its_own(
    server: ServerThread, path: str
) -> None:
    plain = get(server, path)
    packed = get(server, path, {"Accept-Encoding": "gzip, deflate, br, zstd"})  # as Chromium asks
    assert packed.status == 200 and packed.getheader("Content-Encoding") == "gzip"
    assert plain.getheader("Content-Encoding") is None
    assert packed.getheader("Vary") == plain.getheader("Vary") == "Accept-Encoding"  # for the caches between
    assert gzip.decompress(packed.body) == plain.body  # type: ignore[attr-defined]
    assert len(packed.body) * 2 < len(plain.body)  # type: ignore[attr-defined]
    assert packed.getheader("Content-Type") == plain.getheader("Content-Type")
    tag = packed.getheader("ETag")
    assert tag != plain.getheader("ETag")
    again = get(server, path, {"Accept-Encoding": "gzip", "If-None-Match": tag})
    assert again.status == 304 and again.getheader("ETag") == tag and again.body == b""  # type: ignore[attr-defined]


@pytest.mark.parametrize("accepted", ["identity", "gzip;q=0", "br", "*;q=0", "gzip;q=soon"])
def test_a_browser_that_does_not_take_gzip_gets_the_file_as_written(server: ServerThread, accepted: str) -> None:
    response = get(server, "/app.js", {"Accept-Encoding": accepted})
    assert response.status == 200 and response.getheader("Content-Encoding") is None
    assert response.body == (WEB / "app.js").read_bytes()  # type: ignore[attr-defined]


def test_the_tile_sheet_goes_as_it_is_to_any_browser(server: ServerThread) -> None:
    """A PNG is compressed already: gzip would add bytes and work."""
    response = get(server, "/tiles.png", {"Accept-Encoding": "gzip"})
    assert response.getheader("Content-Encoding") is None and response.getheader("Vary") is None
    assert response.body == (WEB / "tiles.png").read_bytes()  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "target",
    [
        "/nothing.js",
        "/../pyproject.toml",
        "/%2e%2e/pyproject.toml",
        "/web/../../pyproject.toml",
        "/..%2fserver.py",
        "/__init__.py",
        "//etc/passwd",
    ],
)
def test_nothing_outside_the_web_folder_is_served(server: ServerThread, target: str) -> None:
    answer = raw_get(server, target)
    assert answer.startswith(b"HTTP/1.1 404"), answer[:200]
    assert b"[project]" not in answer and b"root:" not in answer


def test_the_websocket_still_answers_on_the_same_port(server: ServerThread) -> None:
    client = Client(server.url)
    client.send({"type": "ping", "t": 1})
    assert client.expect("pong")["t"] == 1
    client.close()
    assert get(server, "/healthz").body == b"ok\n"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("url", "code", "purpose", "link"),
    [
        ("ws://127.0.0.1:8765", "4KQ7M2XD", "join", "http://127.0.0.1:8765/join/4KQ7-M2XD"),
        ("wss://battle.example.org", "9T3PWQ0R", "watch", "https://battle.example.org/watch/9T3P-WQ0R"),
        ("ws://192.168.1.20:8765/", "ABCDEFGH", "join", "http://192.168.1.20:8765/join/ABCD-EFGH"),
    ],
)
def test_an_invite_link_is_the_server_address_over_http(url: str, code: str, purpose: str, link: str) -> None:
    assert invite_link(url, code, purpose) == link


def test_the_page_is_plain_modules_all_preloaded() -> None:
    """No build step: each module the page imports is a file of the folder (the scripts, and the
    refusals' table, a JSON module), each one is preloaded by ``index.html`` (so the browser fetches
    them side by side, not import after import) but the screens app.js loads when an address names
    them (an invite link never does). What the whole folder weighs as sent is docs/page.md's bound
    (``tests/project/test_readme.py``)."""
    files = {path.name for path in WEB.iterdir() if path.is_file()}
    imports = {
        module.name: set(
            re.findall(
                r'^import .* from "\./([\w.]+)"(?: with \{ type: "json" \})?;$',
                module.read_text(encoding="utf-8"),
                re.M,
            )
        )
        for module in WEB.glob("*.js")
    }
    for name, imported in imports.items():
        assert imported <= files, f"{name} imports {imported - files}"
    modules = set(imports).union(*imports.values())
    assert "refusal_words.json" in modules
    page = (WEB / "index.html").read_text(encoding="utf-8")
    preloaded = set(re.findall(r'<link rel="modulepreload" href="/([\w.]+)"(?: as="json")?>', page))
    later = set(re.findall(r'import\("\./([\w.]+)"\)', (WEB / "app.js").read_text(encoding="utf-8")))
    assert later == {"analysis_screen.js", "review_screen.js", "stats_screen.js", "puzzle_screen.js"}
    assert preloaded | {"app.js"} | later == modules and not preloaded & later
