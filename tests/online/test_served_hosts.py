"""The host names a server answers to (``served_hosts``), on their own: how a ``Host`` header reads,
and that no name gets through unless the server was given it, whatever the case, port or dot."""

from __future__ import annotations

import ipaddress
import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battle.online.server.shell.served_hosts import ServedHosts, check_host_name, host_name, machine_names

LABEL = st.from_regex(r"[a-z][a-z0-9-]{0,10}[a-z0-9]", fullmatch=True)
NAMES = st.lists(LABEL, min_size=1, max_size=4).map(".".join)
PORTS = st.one_of(st.just(""), st.integers(0, 65535).map(lambda port: f":{port}"))


@pytest.mark.parametrize(
    ("header", "name"),
    [
        ("Games.Example.org.:443", "games.example.org"),
        ("127.0.0.1:8765", "127.0.0.1"),
        ("[::1]:8765", "::1"),
        ("[2001:DB8::7]", "2001:db8::7"),
        ("localhost", "localhost"),
        (" mybox.local ", "mybox.local"),
    ],
)
def test_a_host_header_names_its_host_without_port_brackets_or_dot(header: str, name: str) -> None:
    assert host_name(header) == name


@pytest.mark.parametrize(
    "header", ["", "evil@127.0.0.1", "127.0.0.1/x", "a b", "[not-an-address]", "::1", "x:port", "..", "-x.org"]
)
def test_a_host_header_that_names_no_host_reads_as_none(header: str) -> None:
    assert host_name(header) is None


def test_the_server_answers_its_names_and_any_address() -> None:
    hosts = ServedHosts.of_server("0.0.0.0", "https://Games.example.org/play", ["friends.lan"])
    for header in ("games.example.org", "FRIENDS.LAN:8765", "localhost:443", "192.168.1.5:8765", "[fe80::1]"):
        assert hosts.serves(header), header
    assert hosts.serves(socket.gethostname())
    for header in ("evil.example", "games.example.org.evil.example", "localhost.evil.example", "x@localhost", ""):
        assert not hosts.serves(header), header


@given(NAMES, st.lists(NAMES, max_size=3), PORTS)
def test_no_name_is_served_unless_given(name: str, allowed: list[str], port: str) -> None:
    hosts = ServedHosts.of_server("127.0.0.1", None, allowed)
    expected = name in {*allowed, "localhost", *machine_names()}
    assert hosts.serves(f"{name.upper()}.{port}") == expected == hosts.serves(name + port)


@given(st.ip_addresses(), PORTS)
def test_an_address_is_served_whatever_it_is(address: ipaddress.IPv4Address | ipaddress.IPv6Address, port: str) -> None:
    """A rebinding needs a name the stranger's DNS answers for; an address is what a friend dialled."""
    shown = f"[{address}]" if address.version == 6 else str(address)
    assert ServedHosts.of_server("127.0.0.1", None, ()).serves(shown + port)


@pytest.mark.parametrize("text", ["https://x.org", "x.org:80", "x.org/", "a b", ""])
def test_allow_host_takes_a_name_alone(text: str) -> None:
    with pytest.raises(ValueError, match="is not a host name like games.example.org"):
        check_host_name(text)


def test_allow_host_takes_a_name_in_any_case() -> None:
    assert check_host_name("Friends.LAN.") == "friends.lan"
