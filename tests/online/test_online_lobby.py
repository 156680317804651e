"""The lobby through a real ``serve``: a follower sees a challenge come and go as diffs, a stranger takes it
and both land in the game, the caps refuse with a reason, and a challenge whose challenger left closes."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from battle.online.server.limits.server import ServerLimits
from tests.online_server import Client, ServerProcess, a_legal_move, following, nothing_but_pong

SHORT_GRACE = (
    "import battle.online.server.lobby.board as lobby; "
    "lobby.LOBBY_LIMITS = lobby.LobbyLimits(grace_seconds=0.5, challenge_seconds=3.0)"
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path, prelude=SHORT_GRACE) as running:
        yield running


def follower(url: str, source: str = "127.0.0.9") -> tuple[Client, dict[str, Any]]:
    """A connection following the lobby (sent to its process when the server has several)."""
    client = following(url, {"type": "lobby_follow"}, source=source)
    return client, client.expect("lobby")


def challenge(url: str, source: str, name: str, **fields: Any) -> tuple[Client, dict[str, Any]]:
    offer = {"type": "challenge", "deal": {"number": 5}, "first": "creator", "name": name, **fields}
    client = following(url, offer, source=source)
    created = client.expect("created")
    client.expect("state")
    return client, created


FOLLOWERS = ServerLimits().lobby_followers_per_network


def test_a_stranger_takes_a_challenge_and_followers_see_each_change(server: ServerProcess) -> None:
    watcher, listing = follower(server.url)
    assert listing == {"type": "lobby", "challenges": [], "more_challenges": 0, "games": [], "more_games": 0}
    ann, created = challenge(server.url, "127.0.0.2", "Ann", move_seconds=60)
    news = watcher.expect("lobby_news")
    (entry,) = news["added"]
    assert entry["code"] == created["invite"] and entry["name"] == "Ann"
    assert (entry["deal_kind"], entry["deal"], entry["first"], entry["move_seconds"]) == ("number", 5, "creator", 60)

    bob = following(server.url, {"type": "join", "code": entry["code"], "name": "Bob"}, source="127.0.0.3")
    bob.expect("joined")
    state = bob.expect("state")
    assert state["status"] == "playing"
    news = watcher.expect("lobby_news")
    assert news["removed"] == [created["invite"]]
    (on_show,) = news["games_added"]
    assert on_show["watch"] == created["watch"] and sorted(on_show["players"]) == ["Ann", "Bob"]

    late, listing = follower(server.url, "127.0.0.4")  # a page opened now sees the game, not the challenge
    assert listing["challenges"] == [] and [game["watch"] for game in listing["games"]] == [created["watch"]]

    ann.expect("state")
    ann.send({"type": "move", "id": "m1", "move": a_legal_move(state)})
    ann.expect("ack")
    ann.send({"type": "resign"})
    for client in (watcher, late):
        assert client.expect("lobby_news")["games_removed"] == [created["watch"]]
    for client in (watcher, late, ann, bob):
        client.close()


def test_the_challenger_withdraws_and_caps_refuse_with_a_reason(server: ServerProcess) -> None:
    watcher, _ = follower(server.url)
    first, created = challenge(server.url, "127.0.0.2", "Ann")
    second, _ = challenge(server.url, "127.0.0.2", "Ann")
    assert len(watcher.expect("lobby_news")["added"]) == 1
    assert len(watcher.expect("lobby_news")["added"]) == 1
    third = Client(server.url, source="127.0.0.2")
    third.send({"type": "challenge", "deal": {"random": True}, "first": "random"})
    error = third.error()
    assert error["code"] == "busy" and error["params"] == {"why": "challenges", "count": 2}

    first.send({"type": "abort"})  # withdrawn
    assert watcher.expect("lobby_news")["removed"] == [created["invite"]]
    third.send({"type": "challenge", "deal": {"random": True}, "first": "random"})
    third.expect("created")
    (entry,) = watcher.expect("lobby_news")["added"]
    assert entry["deal_kind"] == "random" and entry["deal"] is None
    for client in (watcher, first, second, third):
        client.close()


def test_a_challenge_closes_when_its_challenger_is_gone_past_the_grace(server: ServerProcess) -> None:
    watcher, _ = follower(server.url)
    ann, created = challenge(server.url, "127.0.0.2", "Ann")
    watcher.expect("lobby_news")
    ann.close()
    assert watcher.expect("lobby_news", timeout=30)["removed"] == [created["invite"]]
    watcher.close()


def test_a_challenge_untaken_expires(server: ServerProcess) -> None:
    watcher, _ = follower(server.url)
    ann, created = challenge(server.url, "127.0.0.2", "Ann")
    watcher.expect("lobby_news")
    assert watcher.expect("lobby_news", timeout=30)["removed"] == [created["invite"]]  # 3 s in this server
    ann.close()
    watcher.close()


def test_the_lobby_is_followed_on_a_connection_in_no_game(server: ServerProcess) -> None:
    ann, _ = challenge(server.url, "127.0.0.2", "Ann")
    ann.send({"type": "lobby_follow"})
    error = ann.error()
    assert error["code"] == "not_allowed" and error["params"] == {"why": "in_game"}
    ann.close()


def test_a_taker_who_names_the_seat_later_is_named_on_show_and_a_leaver_hears_no_more(
    server: ServerProcess,
) -> None:
    watcher, _ = follower(server.url)
    leaver, _ = follower(server.url, "127.0.0.8")
    ann, created = challenge(server.url, "127.0.0.2", "Ann")
    watcher.expect("lobby_news")
    leaver.expect("lobby_news")
    leaver.send({"type": "lobby_leave"})
    bob = following(server.url, {"type": "join", "code": created["invite"]}, source="127.0.0.3")  # no name yet
    bob.expect("joined")
    (shown,) = watcher.expect("lobby_news")["games_added"]
    assert "" in shown["players"]
    bob.send({"type": "name", "name": "Bob"})
    news = watcher.expect("lobby_news")
    assert news["games_removed"] == [created["watch"]]  # told again in its place, with the name
    assert sorted(news["games_added"][0]["players"]) == ["Ann", "Bob"]
    nothing_but_pong(leaver)
    for client in (watcher, leaver, ann, bob):
        client.close()


def test_a_follower_that_picks_a_game_follows_the_lobby_no_more(server: ServerProcess) -> None:
    page, _ = follower(server.url)
    page.send({"type": "create", "deal": {"number": 5}, "first": "creator"})
    page.expect("created")
    page.expect("state")
    ann, _ = challenge(server.url, "127.0.0.2", "Ann")
    nothing_but_pong(page)  # the challenge opened after the create is not told to it
    for client in (page, ann):
        client.close()


def test_stats_count_the_followers_and_the_challenges(server: ServerProcess) -> None:
    page, _ = follower(server.url)
    ann, _ = challenge(server.url, "127.0.0.2", "Ann")
    page.expect("lobby_news")
    lines = server.stats()
    assert (lines["lobby_followers"], lines["lobby_challenges"]) == ("1", "1")
    for client in (page, ann):
        client.close()


@pytest.mark.parametrize("processes", ["1", "2"])
def test_an_open_challenge_outlives_a_killed_server_and_is_listed_once_its_challenger_is_back(
    tmp_path: Path, processes: str
) -> None:
    """The lobby's challenges are rows of the database: after ``kill -9`` of the server (the supervisor
    and its processes with two) a follower sees none while its challenger is away, then Ann's again
    once she resumes it, and Bob takes it."""
    with ServerProcess(tmp_path, "--processes", processes) as running:
        ann, created = challenge(running.url, "127.0.0.2", "Ann")
        ann.close()
        assert running.process is not None
        running.process.kill()  # the supervisor: its game processes end with it
        running.process.wait()
        running.start()
        watcher, listing = follower(running.url)
        assert listing["challenges"] == []  # Ann is not there to answer for it
        back = following(running.url, {"type": "resume", "token": created["token"]}, source="127.0.0.2")
        back.expect("state")
        news = watcher.expect("lobby_news", timeout=30)
        assert [entry["code"] for entry in news["added"]] == [created["invite"]]
        assert news["added"][0]["name"] == "Ann"
        bob = following(running.url, {"type": "join", "code": created["invite"], "name": "Bob"}, source="127.0.0.3")
        bob.expect("joined")
        assert watcher.expect("lobby_news", timeout=30)["removed"] == [created["invite"]]
        for client in (watcher, back, bob):
            client.close()


def test_a_network_follows_the_lobby_on_eight_connections_and_a_ninth_is_told_why(server: ServerProcess) -> None:
    """A follower has no idle clock: a network holds at most ``lobby_followers_per_network`` of the
    server's follower slots, so a crowd of addresses cannot tell a real visitor the lobby is full."""
    held = [follower(server.url, source="127.0.5.1")[0] for _ in range(FOLLOWERS)]
    extra = following(server.url, {"type": "lobby_follow"}, source="127.0.5.1")
    error = extra.error()
    assert (error["code"], error["params"]) == ("busy", {"why": "network_followers", "count": FOLLOWERS})
    visitor, listing = follower(server.url, source="127.0.5.2")
    assert listing["type"] == "lobby"
    held[0].send({"type": "lobby_leave"})
    for _ in range(100):  # the leave is seen before the next follow of the same network
        extra.send({"type": "lobby_follow"})
        reply = extra.read()
        if reply["type"] == "lobby":
            break
        assert reply["type"] == "error" and reply["params"]["why"] == "network_followers", reply
        time.sleep(0.05)
    else:
        raise AssertionError("a ninth follower was never let in after one of eight left")
    for client in (*held, extra, visitor):
        client.close()
