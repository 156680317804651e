"""The address a friend can reach the server at: ``serve --public-url`` behind a proxy, one of the
machine's LAN addresses for a client that came in over loopback while the server listens on the
network, else none (the client's own address is the one to share, and a loopback one says it works
here only). Pure cases first, then a real server's ``welcome``."""

from __future__ import annotations

import ipaddress
from dataclasses import replace
from pathlib import Path

import pytest

from battle.online.client.share_link import friend_link, friend_server, here_only_note
from battle.online.protocol.addresses import is_loopback_host, is_loopback_url
from battle.online.server.limits.server import ServerLimits
from battle.online.server.rooms.share_address import ShareAddress, check_public_url, lan_addresses
from tests.online_server import LOCALES, Client, ServerProcess, ServerThread

LAN = ("192.168.1.20",)


@pytest.mark.parametrize(
    ("share", "host_header", "forwarded", "expected"),
    [
        (
            ShareAddress("https://games.example.org", ("127.0.0.1",), 8765),
            "127.0.0.1:8765",
            False,
            "https://games.example.org",
        ),
        (
            ShareAddress("https://games.example.org", ("127.0.0.1",), 8765),
            "games.example.org",
            True,
            "https://games.example.org",
        ),
        (ShareAddress(None, ("0.0.0.0",), 8765, LAN), "127.0.0.1:8765", False, "http://192.168.1.20:8765"),
        (ShareAddress(None, ("0.0.0.0",), 8765, LAN), "localhost:8765", False, "http://192.168.1.20:8765"),
        (ShareAddress(None, ("::",), 8765, LAN), "[::1]:8765", False, "http://192.168.1.20:8765"),
        (ShareAddress(None, ("0.0.0.0",), 8765, LAN), "desk.lan:8765", False, None),  # its own name works
        (ShareAddress(None, ("0.0.0.0",), 8765, LAN), "127.0.0.1:8765", True, None),  # a proxy's public name
        (ShareAddress(None, ("0.0.0.0",), 8765, ()), "127.0.0.1:8765", False, None),  # no network here
        (ShareAddress(None, ("127.0.0.1",), 8765, LAN), "127.0.0.1:8765", False, None),  # loopback only
        (ShareAddress(None, ("127.0.0.1", "10.0.0.5"), 8000), "localhost:8000", False, "http://10.0.0.5:8000"),
        (ShareAddress(None, ("0.0.0.0",), 8765, LAN), None, False, None),
    ],
)
def test_the_address_to_share_for_each_way_in(
    share: ShareAddress, host_header: str | None, forwarded: bool, expected: str | None
) -> None:
    assert share.for_request(host_header, forwarded) == expected


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.4.5.6", True),
        ("::1", True),
        ("[::1]", True),
        ("localhost", True),
        ("LOCALHOST.", True),
        ("game.localhost", True),
        ("192.168.1.20", False),
        ("desk.lan", False),
        ("localhost.example.org", False),
        ("", False),
    ],
)
def test_which_hosts_are_this_machine_only(host: str, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback


def test_a_public_url_is_checked_and_kept_without_its_slash() -> None:
    assert check_public_url("https://games.example.org/") == "https://games.example.org"
    assert check_public_url(" http://desk.lan:8765/battle/ ") == "http://desk.lan:8765/battle"
    for wrong, reason in (
        ("games.example.org", "http or https"),
        ("wss://games.example.org", "http or https"),
        ("https://", "with a host"),
        ("https://games.example.org:99999", "is not a URL"),
        ("https://games.example.org/?x=1", r"no \?query"),
    ):
        with pytest.raises(ValueError, match=reason):
            check_public_url(wrong)


def test_the_machines_lan_addresses_are_ipv4_a_neighbour_can_reach() -> None:
    for address in lan_addresses():
        parsed = ipaddress.ip_address(address)
        assert parsed.version == 4 and not parsed.is_loopback and not parsed.is_link_local


def test_a_link_on_loopback_says_it_works_here_only() -> None:
    assert friend_link("ws://127.0.0.1:8765", None, "4KQ7M2XD") == "http://127.0.0.1:8765/join/4KQ7-M2XD"
    assert friend_link("ws://127.0.0.1:8765", "http://192.168.1.20:8765", "4KQ7M2XD", "watch") == (
        "http://192.168.1.20:8765/watch/4KQ7-M2XD"
    )
    assert friend_server("ws://127.0.0.1:8765", "https://games.example.org") == "wss://games.example.org"
    assert friend_server("ws://127.0.0.1:8765", None) == "ws://127.0.0.1:8765"
    assert "this machine only" in (here_only_note("http://localhost:8765/join/4KQ7-M2XD") or "")
    assert here_only_note("http://192.168.1.20:8765/join/4KQ7-M2XD") is None
    assert not is_loopback_url("http://[bad/join/x")


def test_the_server_says_its_public_url_in_welcome(tmp_path: Path) -> None:
    limits = replace(ServerLimits(), public_url="https://games.example.org")
    with ServerThread(tmp_path / "public.sqlite3", limits) as server:
        client = Client(server.url, hello=False)
        client.send({"type": "hello", "version": 1})
        assert client.expect("welcome")["share_url"] == "https://games.example.org"
        client.close()
    with ServerThread(tmp_path / "plain.sqlite3") as server:  # 127.0.0.1 only: nothing better to say
        client = Client(server.url, hello=False)
        client.send({"type": "hello", "version": 1})
        assert client.expect("welcome")["share_url"] is None
        client.close()


def test_serve_takes_a_public_url_and_refuses_a_wrong_one_in_one_line(tmp_path: Path) -> None:
    with ServerProcess(tmp_path, "--public-url", "https://games.example.org/") as server:
        client = Client(server.url, hello=False)
        client.send({"type": "hello", "version": 1})
        assert client.expect("welcome")["share_url"] == "https://games.example.org"
        client.close()
    wrong = ServerProcess(tmp_path, "--public-url", "games.example.org")
    with pytest.raises(AssertionError):
        wrong.start()
    assert wrong.process is not None and wrong.process.wait(10) == 2
    assert "--public-url: 'games.example.org' is not a URL like https://games.example.org" in wrong.log.read_text()


def test_a_wrong_public_url_is_refused_in_the_readers_language(tmp_path: Path) -> None:
    wrong = ServerProcess(tmp_path, "--public-url", "https://games.example.org:99999", env=LOCALES["de"])
    with pytest.raises(AssertionError):
        wrong.start()
    assert wrong.process is not None and wrong.process.wait(10) == 2
    said = wrong.log.read_text().strip().splitlines()[-1]
    expected = "--public-url: 'https://games.example.org:99999' ist keine URL: ihr Port ist keine Zahl von 0 bis 65535"
    assert expected in said, said
    assert "Port out of range" not in said
