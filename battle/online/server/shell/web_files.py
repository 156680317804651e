"""The browser client's files, answered over plain HTTP on the game server's own port.

``GET /`` (and ``/join/CODE``, ``/watch/CODE``, ``/play/GAME``: the page reads its own address) is
``battle/web/index.html``; every other file of ``battle/web/`` is served under its name
(``/app.js``, ``/tiles.png``), and ``/locale/<code>.json`` is a language's words for the page, from the
game's catalogue. Nothing else is: the names are the folder's regular files, read once (a
symbolic link is none, even to a file inside it), so no path a client writes (``/../``,
``%2e%2e``) and no link put in the folder can reach outside it, and an unknown name is a
404. A WebSocket handshake on any path is left to the game server.

Caching: every answer is ``Cache-Control: no-cache`` with an ``ETag`` (the SHA-256 of the
file), and a matching ``If-None-Match`` gets an empty 304. The files have no build step and
so no hashed names; revalidating costs one small round trip per file (under 1 ms each on a
LAN) and a server upgrade can never leave a browser mixing old and new modules.

Compression: a browser that accepts gzip gets the text files (the page, its modules, its style
and words) gzipped, compressed once when the files are read: the folder's text is 257 KB as
written and 85 KB so, and the home screen's 28 files 323 KB and 183 KB (112 KB of it the tiles'
picture, a PNG, compressed already). Such an answer names ``Content-Encoding: gzip`` and an
ETag of its own, and every answer of a file that has two forms says ``Vary: Accept-Encoding``
for the caches between.

Every answer carries a content security policy that allows nothing from elsewhere and no
inline script or style, ``nosniff`` and ``no-referrer`` (an invite link is a secret of sorts).
"""

from __future__ import annotations

import email.utils
import gzip
import hashlib
import json
import stat
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from battle.i18n import available_languages, web_messages, web_plural_forms

WEB_ROOT = Path(__file__).resolve().parents[3] / "web"
"""The package folder ``battle/web`` (shipped as package data)."""

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".png": "image/png",
    ".svg": "image/svg+xml",
    ".json": "application/json",
}
"""The file types the folder holds; a file of any other type is not served."""

COMPRESSED_TYPES = frozenset({".html", ".js", ".css", ".svg", ".json"})
"""Text, which gzip shrinks to a third; a PNG is compressed already."""

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)

PAGE_PREFIXES = ("/join/", "/watch/", "/play/", "/analysis/", "/review/", "/stats/", "/puzzles/")
"""Addresses that are the page itself: an invite link, a watch link, a seat held in this browser, the
analysis board (its position in the fragment), a review's link, this browser's statistics, the puzzles
(one puzzle by its id)."""


@dataclass(frozen=True)
class WebFile:
    body: bytes
    content_type: str
    etag: str
    gzipped: bytes | None = None
    """The body gzipped, for a browser that accepts it; None for a file that stays as it is."""

    @property
    def gzip_etag(self) -> str:
        return self.etag[:-1] + '-gzip"'


def web_file(body: bytes, content_type: str, *, compress: bool) -> WebFile:
    """A file as this port answers it: its ETag, and its gzipped form (level 9, no timestamp, so a
    restart gives the same bytes) when ``compress`` and smaller."""
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    packed = gzip.compress(body, compresslevel=9, mtime=0) if compress else None
    return WebFile(body, content_type, etag, packed if packed is not None and len(packed) < len(body) else None)


def _load(root: Path) -> dict[str, WebFile]:
    files: dict[str, WebFile] = {}
    if not root.is_dir():
        return files
    inside = root.resolve()
    for path in sorted(root.iterdir()):
        content_type = CONTENT_TYPES.get(path.suffix)
        if content_type is None or not _regular_file_inside(path, inside):
            continue
        files["/" + path.name] = web_file(path.read_bytes(), content_type, compress=path.suffix in COMPRESSED_TYPES)
    return files


def _regular_file_inside(path: Path, root: Path) -> bool:
    """Whether ``path`` is a regular file, not a link, that resolves inside ``root``."""
    try:
        return not path.is_symlink() and stat.S_ISREG(path.lstat().st_mode) and path.resolve().parent == root
    except OSError:
        return False


_files: dict[str, WebFile] | None = None


def web_files() -> dict[str, WebFile]:
    """Every servable file by its address, read on first use."""
    global _files
    if _files is None:
        _files = _load(WEB_ROOT)
    return _files


def locale_file(path: str) -> WebFile | None:
    """``/locale/<code>.json``: a language's words for the page (the texts of ``battle/web``) from the
    game's own catalogue, so the page and the window say the same thing; None for an unknown code."""
    code = path.removeprefix("/locale/").removesuffix(".json")
    if not path.startswith("/locale/") or not path.endswith(".json") or code not in available_languages():
        return None
    found = _locale_files.get(code)
    if found is None:
        catalogue = {"language": code, "plural_forms": web_plural_forms(code), "messages": web_messages(code)}
        body = json.dumps(catalogue, ensure_ascii=False).encode("utf-8")
        found = web_file(body, CONTENT_TYPES[".json"], compress=True)
        _locale_files[code] = found
    return found


_locale_files: dict[str, WebFile] = {}


def file_for(path: str) -> WebFile | None:
    """The file an address names: the page for ``/`` and each of ``PAGE_PREFIXES``."""
    files = web_files()
    if path == "/" or path.startswith(PAGE_PREFIXES):
        return files.get("/index.html")
    if path.startswith("/locale/"):
        return locale_file(path)
    return files.get(path)


def is_websocket(request: Request) -> bool:
    return request.headers.get("Upgrade", "").strip().lower() == "websocket"


def answer(request: Request) -> Response | None:
    """The HTTP answer to ``request``, or None for a WebSocket handshake (the game server's)."""
    if is_websocket(request):
        return None
    path = request.path.split("?", 1)[0].split("#", 1)[0]
    found = file_for(path)
    if found is None:
        return response(HTTPStatus.NOT_FOUND, b"not found\n", TEXT)
    gzipped = found.gzipped if accepts_gzip(request.headers.get("Accept-Encoding", "")) else None
    body, etag = (found.body, found.etag) if gzipped is None else (gzipped, found.gzip_etag)
    vary = found.gzipped is not None
    if etag in {tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")}:
        return response(HTTPStatus.NOT_MODIFIED, b"", None, etag, vary=vary)
    encoding = None if gzipped is None else "gzip"
    return response(HTTPStatus.OK, body, found.content_type, etag, encoding=encoding, vary=vary)


def accepts_gzip(accepted: str) -> bool:
    """Whether an ``Accept-Encoding`` takes gzip: named, or ``*``, with a weight above 0 (``gzip;q=0``
    refuses it)."""
    weights: dict[str, float] = {}
    for item in accepted.split(","):
        coding, _, parameters = item.strip().lower().partition(";")
        weight = 1.0
        name, _, value = parameters.strip().partition("=")
        if name.strip() == "q":
            try:
                weight = float(value)
            except ValueError:
                weight = 0.0
        weights[coding.strip()] = weight
    return weights.get("gzip", weights.get("x-gzip", weights.get("*", 0.0))) > 0


TEXT = "text/plain; charset=utf-8"


def response(
    status: HTTPStatus,
    body: bytes,
    content_type: str | None,
    etag: str | None = None,
    cache: str = "no-cache",
    *,
    encoding: str | None = None,
    vary: bool = False,
) -> Response:
    """An answer with every header this port sends: one ``Content-Type``, ``nosniff``, the content
    security policy, ``no-referrer``, and ``Connection: close`` (one request a connection); the
    body's ``Content-Encoding``, and ``Vary: Accept-Encoding`` where the answer depends on it."""
    headers = Headers()
    headers["Date"] = email.utils.formatdate(usegmt=True)
    headers["Connection"] = "close"
    if content_type is not None:
        headers["Content-Type"] = content_type
    if encoding is not None:
        headers["Content-Encoding"] = encoding
    if vary:
        headers["Vary"] = "Accept-Encoding"
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = cache
    if etag is not None:
        headers["ETag"] = etag
    headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "no-referrer"
    return Response(status.value, status.phrase, headers, body)
