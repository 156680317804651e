"""docs/deploy.md's default path, end to end on loopback: a real ``mahjong-battle serve`` with
``--trust-proxy`` behind a real Caddy running the page's own Caddyfile, with a certificate from a
certificate authority made for the test instead of Let's Encrypt. Over ``https://`` and
``wss://`` with that authority trusted: ``/healthz``, the page, and a whole game.

Caddy comes from Debian (``apt-get install caddy``; ``.ci/run`` installs it as it installs
Chromium). Without it the test skips, except on CI (``CI`` set), where a missing proxy is a
failure of the set-up.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.online_server import Client, ServerProcess, free_port, play_to_the_end
from tests.witnesses import log_tail, witness

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
WAIT = 30.0
"""Seconds a proxy may take to listen on a loaded machine."""


def the_caddyfile() -> str:
    text = DEPLOY.read_text(encoding="utf-8")
    found = re.search(r"```caddyfile\n(.*?)```", text, re.S)
    assert found is not None, "docs/deploy.md has no Caddyfile"
    return found.group(1)


def openssl(*arguments: str, folder: Path) -> None:
    subprocess.run(["openssl", *arguments], cwd=folder, check=True, capture_output=True, timeout=60)


def certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A certificate authority and a certificate it signed for localhost and 127.0.0.1: (ca, cert, key)."""
    curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl(
        "req",
        "-x509",
        *curve,
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=Test CA",
        folder=folder,
    )
    openssl("req", "-new", *curve, "-keyout", "site.key", "-out", "site.csr", "-subj", "/CN=localhost", folder=folder)
    (folder / "site.ext").write_text(
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
    )
    openssl(
        "x509", "-req", "-in", "site.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-out", "site.pem", "-days", "2", "-extfile", "site.ext", folder=folder,
    )  # fmt: skip
    return folder / "ca.pem", folder / "site.pem", folder / "site.key"


def wait_for_port(port: int, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        assert process.poll() is None, f"{process.args[0]} stopped at its start"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{process.args[0]} did not listen on {port} within {WAIT} s")


@contextmanager
def running(command: list[str], log: Path, port: int, env: dict[str, str] | None = None) -> Iterator[None]:
    """A proxy started with ``command`` (its output in ``log``) once it listens on ``port``, stopped at the end."""
    with log.open("w") as output:
        proxy = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, env=env, cwd=log.parent)
    witness(lambda: f"{' '.join(command)} (pid {proxy.pid}, on 127.0.0.1:{port}), log {log}:\n{log_tail(log)}")
    try:
        wait_for_port(port, proxy)
        yield
    finally:
        proxy.terminate()
        try:
            proxy.wait(10)
        except subprocess.TimeoutExpired:
            proxy.kill()
            proxy.wait()


def through_the_proxy(base: str, authority: Path) -> None:
    """``/healthz`` and the page over ``https://``, then a whole game over ``wss://``, at ``base``."""
    context = ssl.create_default_context(cafile=str(authority))
    with urllib.request.urlopen(f"{base}/healthz", context=context, timeout=10) as answer:
        assert (answer.status, answer.read()) == (200, b"ok\n")
    with urllib.request.urlopen(f"{base}/", context=context, timeout=10) as answer:
        assert answer.status == 200 and b"<html" in answer.read().lower()
    play_a_whole_game(base.replace("https://", "wss://"), socket_tls(authority))


def socket_tls(authority: Path) -> ssl.SSLContext:
    """TLS for the test's WebSocket clients, which trusts ``authority``, at most TLS 1.2.

    The synchronous client reads its socket on a thread of its own while the test's thread writes,
    both on one OpenSSL connection, which OpenSSL does not support. Under TLS 1.3 the proxy sends
    session tickets just after the handshake: the poll wakes the reader, which then waits inside
    OpenSSL's read while the upgrade request is written. Once in a full CI run a guest's upgrade got
    no answer in 30 s with its reader in that read, where the client's close cannot reach it, and
    pytest-timeout ended the test at 300 s. TLS 1.2 sends nothing after its handshake, so the reader
    enters OpenSSL only with data to read. The page's own TLS 1.3 is the browsers' part."""
    context = ssl.create_default_context(cafile=str(authority))
    context.maximum_version = ssl.TLSVersion.TLSv1_2
    return context


def proxy_program(name: str) -> str:
    """The proxy's program (also in /usr/sbin, outside a user's PATH); skipped where it is missing,
    except on CI (``CI`` set), where a missing proxy is a failure of the set-up."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail(f"no {name} on CI: .ci/run installs it (apt-get install {name})")
        pytest.skip(f"no {name} here (apt-get install {name}): the deployment page's {name} is not tested")
    return found


@pytest.fixture
def caddy() -> str:
    return proxy_program("caddy")


@pytest.fixture
def proxied(tmp_path: Path, caddy: str) -> Iterator[tuple[str, Path]]:
    """The game server behind Caddy: the https:// base address and the authority to trust."""
    authority, certificate, key = certificates(tmp_path)
    port, redirect_port = free_port(), free_port()
    site = the_caddyfile().replace("games.example.org", f"https://localhost:{port}", 1)
    with ServerProcess(tmp_path, "--trust-proxy") as server:
        site = site.replace("127.0.0.1:8765", f"127.0.0.1:{server.port}")
        # the page's Caddyfile as it stands, with what loopback needs instead of a public name: the
        # test's certificate, no admin endpoint (its fixed port 2019 is shared), free ports
        site = site.replace("{\n", f"{{\n    tls {certificate} {key}\n", 1)
        options = f"{{\n    admin off\n    http_port {redirect_port}\n    https_port {port}\n}}\n"
        (tmp_path / "Caddyfile").write_text(options + site, encoding="utf-8")
        home = tmp_path / "caddy-home"
        env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home), "XDG_CONFIG_HOME": str(home)}
        command = [caddy, "run", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"]
        with running(command, tmp_path / "caddy.log", port, env=env):
            yield f"https://localhost:{port}", authority


def test_a_game_and_healthz_through_caddy_over_tls(proxied: tuple[str, Path]) -> None:
    through_the_proxy(*proxied)


def play_a_whole_game(url: str, tls: ssl.SSLContext | None = None) -> None:
    """Ann hosts deal 5 at ``url``, Bob joins with her code, and they play it to its end."""
    host = Client(url, "Ann", tls=tls)
    host.send({"type": "create", "deal": {"number": 5}, "first": "creator", "name": "Ann"})
    created = host.expect("created")
    state = host.expect("state")
    guest = Client(url, "Bob", tls=tls)
    guest.send({"type": "join", "code": created["invite"], "name": "Bob"})
    guest.expect("joined")
    players = {1: host, 2: guest}
    state = guest.expect("state")
    state = play_to_the_end(players, state)
    assert state["status"] == "finished", f"{len(state['moves'])} moves and not finished"
    for client in (host, guest):
        client.close()
