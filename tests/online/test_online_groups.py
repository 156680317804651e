"""docs/deploy.md's two machines, end to end on loopback: a real PostgreSQL, two real ``serve --group``
(a on 127.0.0.2, b on 127.0.0.3) sharing it, and a real nginx on 127.0.0.1 running the page's own
"Two machines" site block (its machines' addresses replaced by the loopback ones). Clients connect
through nginx from many loopback addresses, so ``hash $remote_addr consistent`` spreads their games
over both groups; each game is joined from the group that does not hold it, which answers
``elsewhere``, and played there.

nginx and PostgreSQL come from Debian (``.ci/run`` installs them), psycopg from the ``test`` extra;
without them the tests skip, except on CI (``CI`` set), where that is a failure of the set-up.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from battle.online.client.session import OnlineSession
from battle.online.protocol.messages import Join
from battle.online.protocol.server_groups import group_of_url, url_at
from battle.online.protocol.server_messages import State
from tests.online.test_deploy_caddy import DEPLOY, proxy_program, running
from tests.online_server import (
    Client,
    ServerProcess,
    a_legal_move,
    create,
    following,
    free_port,
    play_to_the_end,
)
from tests.postgres_server import RunningPostgres, postgres

GROUPS = {"a": "127.0.0.2", "b": "127.0.0.3"}
"""Each group's loopback address: another machine to nginx."""
PER_NETWORK = 2
"""The servers' ``--max-games-per-address``: small, so the cap across groups is reached at once."""


def the_two_machine_site() -> str:
    """The nginx block of docs/deploy.md's "Two machines" section."""
    text = DEPLOY.read_text(encoding="utf-8")
    section = text[text.index("## Two machines") :]
    found = re.search(r"```nginx\n(.*?)```", section, re.S)
    assert found is not None, 'docs/deploy.md\'s "Two machines" has no nginx block'
    return found.group(1)


def configuration(site: str, folder: Path, port: int, ports: dict[str, int]) -> str:
    """A whole nginx.conf around the page's block: the groups on their loopback addresses, plain HTTP
    on ``port`` (TLS is step 4b's, tested in test_deploy_nginx.py), every file in ``folder``."""
    machines = {"10.0.0.1:8765": "a", "10.0.0.2:8765": "b"}
    for machine, group in machines.items():
        assert machine in site, machine
        site = site.replace(machine, f"{GROUPS[group]}:{ports[group]}")
    assert "listen 80;" in site and "listen [::]:80;" in site, site
    site = site.replace("listen [::]:80;", "", 1).replace("listen 80;", f"listen 127.0.0.1:{port};", 1)
    site = site.replace("server_name games.example.org;", "server_name localhost;", 1)
    temporary = "\n".join(
        f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        f"events {{ worker_connections 256; }}\n"
        f"http {{\n    access_log {folder / 'access.log'};\n{temporary}\n{site}}}\n"
    )


@dataclass
class Cluster:
    url: str
    """nginx's ``ws://`` address."""
    servers: dict[str, ServerProcess]
    database: RunningPostgres


def psycopg_installed() -> None:
    try:
        import psycopg  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("no psycopg on CI: the test extra installs it")
        pytest.skip("no psycopg here (pip install '.[cluster]'): the two-machine set-up is not tested")


@contextmanager
def running_cluster(tmp_path: Path, prelude: str = "", clock_offset: float | None = None) -> Iterator[Cluster]:
    """PostgreSQL, the two groups (each running ``prelude`` first, their wall clocks shifted by
    ``clock_offset``) and nginx, stopped at the end."""
    nginx = proxy_program("nginx")
    psycopg_installed()
    folder = tmp_path / "nginx"
    folder.mkdir()
    port = free_port()
    with postgres() as database:
        servers = {
            group: ServerProcess(
                tmp_path / group,
                *("--host", address, "--group", group, "--shared", database.url, "--trust-proxy"),
                *("--max-games-per-address", str(PER_NETWORK), "--allow-origin", f"http://127.0.0.1:{port}"),
                prelude=prelude,
                clock_offset=clock_offset,
            )
            for group, address in GROUPS.items()
        }
        with servers["a"], servers["b"]:
            ports = {group: server.port for group, server in servers.items()}
            (folder / "nginx.conf").write_text(
                configuration(the_two_machine_site(), folder, port, ports), encoding="utf-8"
            )
            command = [nginx, "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")]
            checked = subprocess.run([nginx, "-t", *command[1:]], capture_output=True, text=True, timeout=60)
            assert checked.returncode == 0, checked.stderr
            with running(command, folder / "nginx.out", port):
                yield Cluster(f"ws://127.0.0.1:{port}/", servers, database)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(tmp_path) as running_two:
        yield running_two


def holder_of(cluster: Cluster, invite: str) -> str:
    """The group the directory names for an invite code."""
    import psycopg

    with psycopg.connect(cluster.database.url) as connection:
        row = connection.execute("SELECT grp FROM battle_codes WHERE code = %s", (invite,)).fetchone()
    assert row is not None, invite
    return str(row[0])


def other(group: str) -> str:
    return "b" if group == "a" else "a"


def joined_from_the_other_group(cluster: Cluster, invite: str, holder: str, source: str) -> tuple[Client, Any]:
    """A guest from ``source`` asks the group that does not hold the game, is sent on, and joins there."""
    lost = Client(url_at(cluster.url, other(holder)), source=source)
    lost.send({"type": "join", "code": invite})
    assert lost.expect("elsewhere") == {"type": "elsewhere", "group": holder, "request": "join"}
    lost.close()
    guest = following(url_at(cluster.url, holder), {"type": "join", "code": invite}, source=source)
    guest.expect("joined")
    return guest, guest.expect("state")


def stats_until(
    server: ServerProcess, shown: Callable[[dict[str, str]], bool], seconds: float = 30.0
) -> dict[str, str]:
    """``/stats`` once ``shown`` holds of it: with several game processes each one's counts reach the
    others' within a second (``processes.link``), so one read may come before them."""
    deadline = time.monotonic() + seconds
    while not shown(counts := server.stats()):
        assert time.monotonic() < deadline, counts
        time.sleep(0.1)
    return counts


def stored_games(server: ServerProcess) -> int:
    with sqlite3.connect(f"file:{server.folder / 'games.sqlite3'}?mode=ro", uri=True) as connection:
        return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])


def test_games_land_on_both_groups_and_are_joined_through_the_other(cluster: Cluster) -> None:
    games: dict[str, list[tuple[Client, dict[str, Any]]]] = {"a": [], "b": []}
    for number in range(10, 60):  # each address a network of its own, which nginx hashes to one group
        host = Client(cluster.url, source=f"127.0.0.{number}")
        created = create(host)
        games[holder_of(cluster, created["invite"])].append((host, created))
        if all(len(held) >= 2 for held in games.values()):
            break
    assert all(len(held) >= 2 for held in games.values()), {group: len(held) for group, held in games.items()}
    for group, held in games.items():
        for index, (host, created) in enumerate(held):
            guest, state = joined_from_the_other_group(cluster, created["invite"], group, f"127.0.1.{10 + index}")
            players = {created["seat"]: host, 3 - created["seat"]: guest}
            if index == 0:  # one game of each group to its end, through nginx to the group that holds it
                assert play_to_the_end(players, state)["status"] == "finished"
            else:
                host.expect("state")
                host.send({"type": "move", "move": a_legal_move(state), "id": "m0"})
                host.expect("ack")
                assert guest.expect("moved")["ply"] == 1
        playing = len(held) - 1  # the one played to its end is over
        stats_until(cluster.servers[group], lambda counts, playing=playing: int(counts["games_playing"]) == playing)
        assert stored_games(cluster.servers[group]) == len(held)
        for host, _created in held:
            host.close()


def test_the_python_client_follows_elsewhere_and_keeps_the_group(cluster: Cluster) -> None:
    host = Client(url_at(cluster.url, "a"), source="127.0.3.1")
    created = create(host)
    session = OnlineSession(url_at(cluster.url, "b"), Join(created["invite"]), "Bob")
    try:
        while not isinstance(session.wait_event(10), State):
            assert session.link.state != "closed", session.link
        assert group_name(group_of_url(session.url)) == "a"  # (its process too, ``a.1``, with several)
        seat = session.seat
        assert seat is not None and group_of_url(seat.url) == group_of_url(session.url)  # a saved seat resumes there
    finally:
        session.close()
        host.close()


def test_a_networks_cap_counts_its_games_on_both_groups(cluster: Cluster) -> None:
    clients = [Client(url_at(cluster.url, group), source="127.0.4.1") for group in ("a", "b", "a")]
    for client in clients[:PER_NETWORK]:
        create(client)
    clients[PER_NETWORK].send({"type": "create", "deal": {"number": 5}, "first": "creator"})
    refusal = clients[PER_NETWORK].error()
    assert (refusal["code"], refusal["params"]) == ("busy", {"why": "network_games", "count": PER_NETWORK})
    for client in clients:
        client.close()


def test_without_the_directory_games_play_on_and_creates_are_refused_until_it_is_back(cluster: Cluster) -> None:
    host = Client(url_at(cluster.url, "b"), source="127.0.5.1")
    created = create(host)
    guest, state = joined_from_the_other_group(cluster, created["invite"], "b", "127.0.5.2")
    host.expect("state")
    cluster.database.stop()
    host.send({"type": "move", "move": a_legal_move(state), "id": "m0"})
    host.expect("ack")
    assert guest.expect("moved")["ply"] == 1
    newcomer = Client(cluster.url, source="127.0.5.3")
    newcomer.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
    refusal = newcomer.error()
    assert refusal["code"] == "busy" and refusal["params"]["why"] == "directory", json.dumps(refusal)
    assert re.fullmatch(r"the game directory is unavailable; try again in \d+ s", refusal["reason"]), refusal
    cluster.database.start_again()
    for _ in range(3):  # PostgreSQL is back: a create asked when the refusal says is served
        time.sleep(refusal["params"]["seconds"])  # the wait the server told, as a client keeps it
        newcomer.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
        while (answer := newcomer.read(30))["type"] not in ("created", "error"):
            pass
        if answer["type"] == "created":
            break
        refusal = answer
    assert answer["type"] == "created", answer
    for client in (host, guest, newcomer):
        client.close()


def group_name(at: str | None) -> str:
    """The group an ``at`` names, without the process a group of several adds (``a.1`` is group a)."""
    return str(at).split(".")[0]
