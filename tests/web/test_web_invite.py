"""The host's side of a friend's game, as a host meets it: the link names an address the friend can
reach and says when it works on this machine only; Copy link copies on a plain http:// page opened
by a LAN name (no clipboard API there); Share where the browser has it; and while the host looks at
another tab, the friend's join and moves show in the title and the tab's icon, with a chime and a
notification when the host asked for them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.online_server import ServerProcess
from tests.web.conftest import LAN_DOMAIN, Served
from tests.web.game_pages import DESKTOP, OUT_OF_SIGHT, PHONE, click_pair, host, join, new_page, out_of_sight, wait_ply

HERE_ONLY = "This link works on this machine only"


def clipboard(browser: Any, base: str) -> str:
    """What the browser's clipboard holds, read by a page of a secure origin allowed to read it."""
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    reader = context.new_page()
    try:
        reader.goto(base + "/healthz")
        return str(reader.evaluate("() => navigator.clipboard.readText()"))
    finally:
        context.close()


def test_copy_link_on_a_page_opened_by_a_lan_name_puts_the_link_on_the_clipboard(browser: Any, tmp_path: Path) -> None:
    """A name the home router hands out (``mahjong.test`` here) is served once ``--allow-host`` names it."""
    with Served(tmp_path, "--allow-host", f"mahjong.{LAN_DOMAIN}") as served:
        lan = f"http://mahjong.{LAN_DOMAIN}:{served.port}"
        ann = new_page(browser)
        link = host(ann, lan, "Ann")
        assert re.fullmatch(rf"{lan}/join/\w{{4}}-\w{{4}}-\w{{24}}", link)
        assert ann.evaluate("() => isSecureContext") is False  # as on a LAN: no clipboard API
        assert ann.is_hidden("#invite-here-only")  # a friend on the network reaches this name
        ann.click("#copy-link")
        ann.wait_for_selector("#invite-said:has-text('Link copied: paste it to your friend.')")
        assert clipboard(browser, served.base) == link
        assert ann.errors == []


@pytest.mark.parametrize(("locale", "copied"), [("en-US", "Link copied"), ("de-DE", "Link kopiert")])
def test_link_copied_is_said_in_the_card_and_goes_when_the_friend_joins(
    browser: Any, served: Served, locale: str, copied: str
) -> None:
    ann = new_page(browser, **DESKTOP, locale=locale)
    link = host(ann, served.base, "Ann", first="creator")
    ann.click("#copy-link")
    ann.wait_for_selector(f"#invite-said:has-text('{copied}')")
    join(new_page(browser), link)
    ann.wait_for_selector("body[data-playable]")
    ann.wait_for_selector("#invite", state="hidden")
    assert copied not in ann.inner_text("body"), ann.text_content("#turn")
    assert ann.errors == []


def test_a_loopback_link_says_it_works_here_only_and_a_public_url_is_the_link(browser: Any, tmp_path: Path) -> None:
    (tmp_path / "here").mkdir()
    with ServerProcess(tmp_path / "here") as server:
        ann = new_page(browser)
        link = host(ann, server.base, "Ann")
        assert link.startswith(server.base + "/join/")
        assert HERE_ONLY in ann.text_content("#invite-here-only") and ann.is_visible("#invite-here-only")
    (tmp_path / "proxied").mkdir()
    with ServerProcess(tmp_path / "proxied", "--public-url", "https://games.example.org") as server:
        ann = new_page(browser)
        link = host(ann, server.base, "Ann")  # the host came in over loopback; the friend gets the public name
        assert re.fullmatch(r"https://games.example.org/join/\w{4}-\w{4}-\w{24}", link)
        assert ann.get_attribute("#invite-link", "href") == link and ann.is_hidden("#invite-here-only")


def test_share_hands_the_link_to_the_phones_share_sheet(browser: Any, served: Served) -> None:
    phone = browser.new_context(**PHONE)
    phone.add_init_script(
        "navigator.share = (data) => { window.shared = data; return Promise.resolve(); };"  # a phone's Web Share
    )
    ann = phone.new_page()
    link = host(ann, served.base, "Ann")
    ann.click("#share-link")
    assert ann.evaluate("() => window.shared.url") == link
    desktop = new_page(browser, **DESKTOP)  # Chromium on Linux has no share sheet: no button
    host(desktop, served.base, "Ann")
    assert desktop.is_hidden("#share-link")


def test_a_host_in_another_tab_is_told_of_the_join_and_the_move(full_browser: Any, served: Served) -> None:
    """On a Chromium with windows: the headless shell has no desktop notifications."""
    browser = full_browser
    context = browser.new_context(**DESKTOP)
    context.grant_permissions(["notifications"], origin=served.base)
    context.add_init_script(OUT_OF_SIGHT)
    ann = context.new_page()
    ann.on("pageerror", lambda error: (_ for _ in ()).throw(AssertionError(str(error))))
    link = host(ann, served.base, "Ann", first="joiner")
    ann.check("#alert-sound")  # kept in the browser; plays a sample at once
    assert ann.is_hidden("#alert-notify")  # allowed already: nothing to ask
    plain_icon = ann.get_attribute("link[rel=icon]", "href")
    tones = ann.evaluate("() => tonesStarted")
    out_of_sight(ann, True)  # the host switched to a chat app to send the link

    bob = new_page(browser)
    bob.add_init_script("localStorage.setItem('mahjong-battle.name', 'Bob')")  # a friend who joined before
    join(bob, link, "Bob")
    ann.wait_for_function("() => document.title.startsWith('(1) ')")
    assert ann.title() == "(1) Bob joined: the game begins. · Mahjong Battle"
    badge = ann.get_attribute("link[rel=icon]", "href")
    assert badge.startswith("data:image/png") and badge != plain_icon
    assert ann.evaluate("() => shownNotifications") == ["Bob joined: the game begins."]
    assert ann.evaluate("() => tonesStarted") > tones

    click_pair(bob)  # Bob moves first (Ann chose to move second): Ann's turn
    wait_ply(ann, 1)
    ann.wait_for_function("() => document.title.startsWith('(2) ')")
    assert ann.title() == "(2) Bob moved: your turn. · Mahjong Battle"
    out_of_sight(ann, False)
    assert ann.title() == "Mahjong Battle" and ann.get_attribute("link[rel=icon]", "href") == plain_icon
    assert ann.evaluate("() => localStorage.getItem('mahjong-battle.sound')") == "on"


def test_notify_me_asks_the_browser_once(full_browser: Any, served: Served) -> None:
    """On a Chromium with windows: the headless shell has no desktop notifications."""
    browser = full_browser
    context = browser.new_context(**DESKTOP)
    ann = context.new_page()
    host(ann, served.base, "Ann")
    assert ann.is_visible("#alert-notify")  # a secure origin (127.0.0.1) that has not asked yet
    context.grant_permissions(["notifications"], origin=served.base)
    ann.click("#alert-notify")
    ann.wait_for_selector("#alert-notify", state="hidden")
