"""The pure parts of several server groups: a group's name, the ``at`` of an address, what the shared
directory is asked for a request, and where the request goes (``server_groups``, ``group_routes``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from battle.online.protocol.codes import hash_token
from battle.online.protocol.messages import ErrorCode, Join, Resume, Watch
from battle.online.protocol.server_groups import check_group_name, group_of_url, url_at
from battle.online.server.processes.group_routes import DirectoryDown, directory_key, directory_refusal, route

SECRET = "ABCDEFGH" + "0123456789ABCDEFGHJKMNPQ"


@pytest.mark.parametrize("name", ["a", "b", "eu-2", "x" * 32, "0"])
def test_a_group_name_is_a_short_lower_case_word(name: str) -> None:
    assert check_group_name(name) == name


@pytest.mark.parametrize("name", ["", "A", "-a", "a-", "a b", "a.b", "x" * 33, "ü", "a/b"])
def test_a_wrong_group_name_is_refused_quoting_it(name: str) -> None:
    with pytest.raises(ValueError, match="is not a group name"):
        check_group_name(name)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("wss://games.example.org", "wss://games.example.org/?at=b"),
        ("wss://games.example.org/", "wss://games.example.org/?at=b"),
        ("wss://games.example.org/?at=a", "wss://games.example.org/?at=b"),
        ("ws://127.0.0.1:8765/?lang=de&at=a", "ws://127.0.0.1:8765/?lang=de&at=b"),
    ],
)
def test_an_address_names_one_group_and_keeps_the_rest(url: str, expected: str) -> None:
    assert url_at(url, "b") == expected
    assert group_of_url(expected) == "b"


def test_an_address_without_at_names_no_group() -> None:
    assert group_of_url("wss://games.example.org/") is None


def test_the_directory_is_asked_for_a_code_a_links_code_and_a_tokens_hash() -> None:
    assert directory_key(Join("ABCDEFGH")) == ("join", "ABCDEFGH")
    assert directory_key(Watch("ABCDEFGH")) == ("watch", "ABCDEFGH")
    assert directory_key(Join(SECRET)) == ("join", "ABCDEFGH")  # the group that holds it checks the MAC
    assert directory_key(Resume("t" * 32)) == ("token", hash_token("t" * 32))  # never the token itself


@pytest.mark.parametrize(
    ("holder", "expected"),
    [("b", "b"), ("a", None), (None, None)],
)
def test_a_request_goes_on_only_to_another_group_that_holds_it(holder: str | None, expected: str | None) -> None:
    assert route("a", holder) == expected


def test_a_directory_down_is_refused_busy_with_the_whole_seconds_to_wait() -> None:
    refusal = directory_refusal(DirectoryDown(4.2))
    assert refusal.code == ErrorCode.BUSY
    assert refusal.params == {"why": "directory", "seconds": 5}
    assert refusal.reason == "the game directory is unavailable; try again in 5 s"


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--group", "A"], "'A' is not a group name: 1 to 32 lower-case letters, digits and inner dashes"),
        (["--shared", "mysql://db/x"], "'mysql://db/x' is not a PostgreSQL address like postgresql://"),
        (["--group", "a"], "--group and --shared go together: a machine among several needs both"),
        (["--shared", "postgresql://db/x"], "--group and --shared go together"),
        (["--group", "a", "--shared", "postgresql://battle:s3cret@db/x"], "give it in PGPASSWORD or a pgpass file"),
        (["--group", "a", "--shared", "postgresql://db/x?password=s3cret"], "the address holds a password"),
    ],
)
def test_serve_refuses_a_wrong_group_or_shared_database_in_one_line(
    tmp_path: Path, flags: list[str], said: str
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "battle", "serve", "--db", str(tmp_path / "games.sqlite3"), *flags],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "en"},
    )
    assert done.returncode != 0 and said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) <= 2, done.stderr
    assert "s3cret" not in done.stderr  # a refusal never shows the password it refuses
    assert not (tmp_path / "games.sqlite3").exists()  # refused before any database is made
