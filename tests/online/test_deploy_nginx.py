"""docs/deploy.md's other path, end to end on loopback: a real ``mahjong-battle serve`` with
``--trust-proxy`` behind a real nginx running the page's own site block, with the lines certbot
adds (``listen ... ssl`` and the certificate) written in by the test, and a certificate from a
certificate authority made for the test instead of Let's Encrypt. Over ``https://`` and
``wss://``: ``/healthz``, the page and a whole game.

nginx comes from Debian (``apt-get install nginx``; ``.ci/run`` installs it). Without it the test
skips, except on CI (``CI`` set), where a missing proxy is a failure of the set-up. certbot itself
needs a public name and Let's Encrypt, so it is the one step not run here.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.online.test_deploy_caddy import DEPLOY, certificates, proxy_program, running, through_the_proxy
from tests.online_server import ServerProcess, free_port


def the_site_block() -> str:
    found = re.search(r"```nginx\n(.*?)```", DEPLOY.read_text(encoding="utf-8"), re.S)
    assert found is not None, "docs/deploy.md has no nginx site block"
    return found.group(1)


def configuration(site: str, folder: Path, port: int, certificate: Path, key: Path) -> str:
    """A whole nginx.conf around the page's site block: what certbot adds (TLS on the port), and
    what running outside /etc needs (every file in ``folder``, the foreground, no other site)."""
    assert "listen 80;" in site and "listen [::]:80;" in site, site
    site = site.replace("listen [::]:80;", "", 1)
    site = site.replace(
        "listen 80;",
        f"listen 127.0.0.1:{port} ssl;\n    ssl_certificate {certificate};\n    ssl_certificate_key {key};",
        1,
    )
    site = site.replace("server_name games.example.org;", "server_name localhost;", 1)
    temporary = "\n".join(
        f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""  # its workers read the test's folder
    return (
        f"{user}daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        f"events {{ worker_connections 64; }}\n"
        f"http {{\n    access_log {folder / 'access.log'};\n{temporary}\n{site}}}\n"
    )


@pytest.fixture
def nginx() -> str:
    return proxy_program("nginx")


@pytest.fixture
def proxied(tmp_path: Path, nginx: str) -> Iterator[tuple[str, Path]]:
    """The game server behind nginx: the https:// base address and the authority to trust."""
    authority, certificate, key = certificates(tmp_path)
    port = free_port()
    folder = tmp_path / "nginx"
    folder.mkdir()
    with ServerProcess(tmp_path, "--trust-proxy") as server:
        site = the_site_block().replace("127.0.0.1:8765", f"127.0.0.1:{server.port}")
        (folder / "nginx.conf").write_text(configuration(site, folder, port, certificate, key), encoding="utf-8")
        checked = subprocess.run(
            [nginx, "-t", "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert checked.returncode == 0, checked.stderr  # the step "nginx -t" of the page
        command = [nginx, "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")]
        with running(command, folder / "nginx.out", port):
            yield f"https://localhost:{port}", authority


def test_a_game_and_healthz_through_nginx_over_tls(proxied: tuple[str, Path]) -> None:
    through_the_proxy(*proxied)
