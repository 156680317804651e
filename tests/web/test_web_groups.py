"""The page on a site of two server groups (docs/deploy.md, "Two machines"): an invite link opened at
the group that does not hold the game is sent on (``elsewhere``), the page joins at the group that
does, and its address keeps that group, so a reload connects straight to it; a challenge made on one
group is listed on the other's home page and taken there with a click, at its group. The cluster is
``tests/online/test_online_groups.py``'s: a real PostgreSQL, two ``serve --group`` and a real nginx."""

from __future__ import annotations

from typing import Any

from battle.online.protocol.server_groups import group_of_url
from tests.online.test_online_groups import Cluster, cluster  # noqa: F401  (the fixture)
from tests.online_server import Client, a_legal_move, create, following
from tests.web.game_pages import join, new_page, wait_ply


def test_the_page_follows_a_game_to_its_group_and_a_reload_goes_straight_there(
    browser: Any,
    cluster: Cluster,  # noqa: F811
) -> None:
    host = Client(f"{cluster.url}?at=a", source="127.0.6.1")
    created = create(host)
    base = cluster.url.replace("ws://", "http://").rstrip("/")
    page = new_page(browser)
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    join(page, f"{base}/join/{created['invite_secret']}?at=b")
    groups = [str(group_of_url(url)).split(".")[0] for url in sockets]  # a group of several names its process
    assert groups[:2] == ["b", "a"] and set(groups[1:]) == {"a"}, sockets  # sent on to the group holding it
    page.wait_for_function("() => new URLSearchParams(location.search).get('at') === 'a'")
    assert page.evaluate("() => location.pathname") == f"/play/{created['game']}"
    state = host.expect("state")
    host.send({"type": "move", "move": a_legal_move(state), "id": "m0"})
    wait_ply(page, 1)
    sockets.clear()
    page.reload()
    wait_ply(page, 1)
    assert [group_of_url(url) for url in sockets] == ["a"]  # the seat's resume, at its group at once
    assert page.errors == []
    host.close()


def test_a_challenge_made_on_one_group_is_taken_with_a_click_on_the_others_lobby(
    browser: Any,
    cluster: Cluster,  # noqa: F811
) -> None:
    base = cluster.url.replace("ws://", "http://").rstrip("/")
    page = new_page(browser)
    page.goto(f"{base}/?at=b")
    page.wait_for_selector("#challenge-empty:not([hidden])")  # b's lobby answered: nothing open yet
    offer = {"type": "challenge", "deal": {"number": 3}, "first": "creator", "name": "Ann"}
    ann = following(f"{cluster.url}?at=a", offer, source="127.0.6.2", timeout=30)
    ann.expect("created", 30)
    ann.expect("state")
    offered = page.locator("#challenge-list button", has_text="Play Ann")
    sockets: list[str] = []
    page.on("websocket", lambda socket: sockets.append(socket.url))
    offered.click()  # listed on b as news, held by a
    page.wait_for_selector("body[data-playable]")
    groups = [str(group_of_url(url)).split(".")[0] for url in sockets]  # a group of several names its process
    assert groups[:2] == ["b", "a"] and set(groups[1:]) == {"a"}, sockets  # sent on to the group holding it
    assert ann.expect("state")["status"] == "playing"
    assert page.errors == []
    ann.close()
