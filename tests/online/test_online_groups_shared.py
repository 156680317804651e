"""One lobby and one day's table across the two groups of docs/deploy.md's "Two machines", end to end:
a real PostgreSQL, two real ``serve --group`` (a on 127.0.0.2, b on 127.0.0.3) and the page's nginx
(``test_online_groups.running_cluster``). A challenge made on one group is listed and told to the
other's followers and taken through it (``elsewhere``); a network's challenges count on both; without
PostgreSQL each lobby lists its own, and all again once it is back; a day's result entered on either
group is in the table read from both, and without PostgreSQL each group ranks its own."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from battle.online.protocol.server_groups import url_at
from tests.online.test_online_groups import Cluster, running_cluster, stats_until
from tests.online_server import Client, create, following, midday_offset, play_to_the_end

DEVICE = "0123456789abcdef0123456789abcdef"
DAILY = (
    "import battle.cli.online_commands as commands\n"
    "commands._deal_book = lambda solver: commands._CatalogueDeals()"  # the deal of the day without a solver
)
"""A friends' server with the catalogue a solver's server reads: it has a deal of the day and its par."""
TOLD = 15.0
"""Seconds a change may take to reach the other group on a busy machine (it takes milliseconds)."""


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(tmp_path) as running:
        yield running


@pytest.fixture
def daily_cluster(tmp_path: Path) -> Iterator[Cluster]:
    with running_cluster(tmp_path, prelude=DAILY, clock_offset=midday_offset()) as running:
        yield running


def follower(cluster: Cluster, group: str, source: str) -> tuple[Client, dict[str, Any]]:
    client = following(url_at(cluster.url, group), {"type": "lobby_follow"}, source=source)
    return client, client.expect("lobby")


def challenge(cluster: Cluster, group: str, source: str, name: str) -> tuple[Client, dict[str, Any]]:
    offer = {"type": "challenge", "deal": {"number": 5}, "first": "creator", "name": name}
    client = following(url_at(cluster.url, group), offer, source=source, timeout=30)
    created = client.expect("created", 30)
    client.expect("state")
    return client, created


def news_until(client: Client, done: Any) -> dict[str, Any]:
    """The first ``lobby_news`` for which ``done`` holds (each read within ``TOLD``)."""
    while True:
        news = client.expect("lobby_news", TOLD)
        if done(news):
            return news


def test_a_challenge_on_one_group_is_listed_told_and_taken_on_the_other(cluster: Cluster) -> None:
    watcher, listing = follower(cluster, "b", "127.0.6.1")
    assert listing["challenges"] == []
    ann, created = challenge(cluster, "a", "127.0.6.2", "Ann")
    (entry,) = news_until(watcher, lambda news: news["added"])["added"]
    assert (entry["code"], entry["name"], entry["deal"]) == (created["invite"], "Ann", 5)
    late, listing = follower(cluster, "b", "127.0.6.3")  # a page opened now lists it too
    assert [listed["code"] for listed in listing["challenges"]] == [created["invite"]]
    stats_until(cluster.servers["a"], lambda counts: counts["lobby_challenges"] == "1")  # made on a
    assert cluster.servers["b"].stats()["lobby_challenges"] == "0"

    cid, withdrawn = challenge(cluster, "a", "127.0.6.4", "Cid")
    news_until(watcher, lambda news: news["added"])
    cid.send({"type": "abort"})
    assert news_until(watcher, lambda news: news["removed"])["removed"] == [withdrawn["invite"]]

    bob = Client(url_at(cluster.url, "b"), source="127.0.6.3")  # takes it from b's list: sent on to a
    bob.send({"type": "join", "code": entry["code"], "name": "Bob"})
    assert bob.expect("elsewhere") == {"type": "elsewhere", "group": "a", "request": "join"}
    bob.close()
    bob = following(
        url_at(cluster.url, "a"), {"type": "join", "code": entry["code"], "name": "Bob"}, source="127.0.6.3"
    )
    bob.expect("joined")
    assert bob.expect("state")["status"] == "playing"
    assert ann.expect("state")["status"] == "playing"
    for client in (watcher, late):  # the later follower saw Cid's withdrawal first
        taken = news_until(client, lambda news: created["invite"] in news["removed"])
        assert taken["removed"] == [created["invite"]]
    for client in (watcher, late, ann, bob, cid):
        client.close()


def test_a_networks_challenges_count_on_both_groups(cluster: Cluster) -> None:
    watcher, _ = follower(cluster, "b", "127.0.7.1")
    first, _ = challenge(cluster, "a", "127.0.7.2", "Ann")
    second, _ = challenge(cluster, "a", "127.0.7.2", "Ann")
    seen = 0
    while seen < 2:
        seen += len(watcher.expect("lobby_news", TOLD)["added"])
    third = Client(url_at(cluster.url, "b"), source="127.0.7.2")
    third.send({"type": "challenge", "deal": {"random": True}, "first": "random"})
    refusal = third.error()
    assert (refusal["code"], refusal["params"]) == ("busy", {"why": "challenges", "count": 2})
    for client in (watcher, first, second, third):
        client.close()


def test_without_postgresql_each_lobby_lists_its_own_and_all_again_once_it_is_back(cluster: Cluster) -> None:
    watcher, _ = follower(cluster, "b", "127.0.8.1")
    ann, on_a = challenge(cluster, "a", "127.0.8.2", "Ann")
    bob, on_b = challenge(cluster, "b", "127.0.8.3", "Bob")
    listed: set[str] = set()
    while listed != {on_a["invite"], on_b["invite"]}:
        listed |= {entry["code"] for entry in watcher.expect("lobby_news", TOLD)["added"]}
    cluster.database.stop()
    assert news_until(watcher, lambda news: news["removed"])["removed"] == [on_a["invite"]]
    late, listing = follower(cluster, "b", "127.0.8.4")
    assert [entry["code"] for entry in listing["challenges"]] == [on_b["invite"]]
    said = [line for line in cluster.servers["b"].log_lines() if "the shared lobby is unavailable" in line]
    assert len(said) == 1 and said[0].endswith("; this group's lobby lists its own challenges"), said  # one line
    cluster.database.start_again()  # the lobby comes back: a's challenge is listed on b again
    news_until(watcher, lambda news: on_a["invite"] in {entry["code"] for entry in news["added"]})
    for client in (watcher, late, ann, bob):
        client.close()


def daily(cluster: Cluster, group: str, source: str) -> dict[str, Any]:
    asker = Client(url_at(cluster.url, group), source=source)
    asker.send({"type": "daily", "device": DEVICE})
    table = asker.expect("daily_table", 30)
    asker.close()
    return table


def played_on(cluster: Cluster, group: str, deal: int, sources: tuple[str, str], device: str | None) -> None:
    """A friends' game on ``deal`` held by ``group``, played to its end; the host files it under ``device``."""
    host = Client(url_at(cluster.url, group), name="Host " + group, source=sources[0])
    created = create(host, deal)
    guest = Client(url_at(cluster.url, group), name="Guest " + group, source=sources[1])
    guest.send({"type": "join", "code": created["invite"]})
    guest.expect("joined")
    state = guest.expect("state")
    host.expect("state")
    if device is not None:
        host.send({"type": "device", "device": device})
    players = {created["seat"]: host, 3 - created["seat"]: guest}
    assert play_to_the_end(players, state)["status"] == "finished"
    host.close()
    guest.close()


def test_the_days_results_of_both_groups_make_one_table_read_from_either(daily_cluster: Cluster) -> None:
    table = daily(daily_cluster, "a", "127.0.9.1")
    assert isinstance(table["deal"], int) and isinstance(table["par"], int) and table["rows"] == []
    played_on(daily_cluster, "a", table["deal"], ("127.0.9.2", "127.0.9.3"), DEVICE)
    played_on(daily_cluster, "b", table["deal"], ("127.0.9.4", "127.0.9.5"), None)
    names = {"Host a", "Guest a", "Host b", "Guest b"}
    for group in ("a", "b"):
        deadline = time.monotonic() + TOLD
        rows = daily(daily_cluster, group, "127.0.9.6")["rows"]
        while {row["name"] for row in rows} != names:  # the other group's results come within seconds
            assert time.monotonic() < deadline, rows
            time.sleep(0.2)
            rows = daily(daily_cluster, group, "127.0.9.6")["rows"]
        assert [row["place"] for row in rows] == [1, 2, 3, 4]
        assert [row["name"] for row in rows if row["yours"]] == ["Host a"], rows  # the device's, on either group
    daily_cluster.database.stop()  # each group ranks its own results then, and says so once
    deadline = time.monotonic() + TOLD
    rows = daily(daily_cluster, "b", "127.0.9.6")["rows"]
    while {row["name"] for row in rows} != {"Host b", "Guest b"}:
        assert time.monotonic() < deadline, rows
        time.sleep(0.2)
        rows = daily(daily_cluster, "b", "127.0.9.6")["rows"]
    said = [line for line in daily_cluster.servers["b"].log_lines() if "this group ranks its own results alone" in line]
    assert len(said) == 1, said


def test_a_group_writes_each_networks_best_of_the_day_not_every_result(daily_cluster: Cluster) -> None:
    """Two games of the same two networks, then one of two more: six results, one row a network in
    PostgreSQL (the first pair's second game, the same moves to the same scores, beats neither best),
    the rows a table can show, however many results the day has."""
    import psycopg

    number = daily(daily_cluster, "a", "127.0.9.1")["deal"]
    for _ in range(2):
        played_on(daily_cluster, "a", number, ("127.0.9.2", "127.0.9.3"), None)
    # the last game ends after this, on the server's clock: once its rows are written, every result was read
    third = daily_cluster.servers["a"].now()
    played_on(daily_cluster, "a", number, ("127.0.9.4", "127.0.9.5"), None)
    deadline = time.monotonic() + TOLD
    written: list[tuple[Any, ...]] = []
    while not any(finished >= third for _, _, finished in written):
        assert time.monotonic() < deadline, written
        time.sleep(0.2)
        with psycopg.connect(daily_cluster.database.url) as connection:
            written = connection.execute(
                "SELECT game, seat, finished_at FROM battle_day_results WHERE grp = 'a'"
            ).fetchall()
    assert len(written) == 4, written  # every result: 6
    assert len({game for game, _, _ in written}) == 2
