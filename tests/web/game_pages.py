"""Driving the real page the way a player does: fill the host form, open a link, click a tile and
its twin, press the buttons; and reading what the page shows (``data-ply``, ``data-status`` on
the body, the tiles' labels)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import WAIT_MS

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


def new_page(browser: Any, **options: Any) -> Any:
    page = browser.new_context(**(options or DESKTOP)).new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []  # uncaught exceptions and console errors (a CSP refusal is one)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.errors = errors
    return page


def host(
    page: Any, base: str, name: str = "Ann", deal: int | None = 1, first: str = "creator", move_seconds: str = ""
) -> str:
    """Host a game from the home page; returns the invite link it shows."""
    page.goto(base + "/")
    page.fill("#host-form input[name=name]", name)
    if deal is not None:
        page.check("#host-form input[name=deal][value=number]")
        page.fill("#host-form input[name=number]", str(deal))
    page.select_option("#host-form select[name=first]", first)
    page.select_option("#host-form select[name=move_seconds]", move_seconds)
    page.click("#host-button")
    page.wait_for_selector("#invite-link:not(:empty)")
    return str(page.text_content("#invite-link"))


def join(page: Any, link: str, name: str = "Bob") -> None:
    """Open a friend's invite link: the board shows at once, and a browser that never gave a name
    answers the card beside it (asked once in a browser; ``""`` gives none)."""
    page.goto(link)
    page.wait_for_selector("body[data-playable]")
    if page.is_visible("#name-ask"):
        give_name(page, name)


def give_name(page: Any, name: str) -> None:
    """Answer the name card beside the board; the server's state names the seat before this returns."""
    if not name:
        page.click("#name-ask-skip")
        page.wait_for_selector("#name-ask", state="hidden")
        return
    page.fill("#name-ask input[name=name]", name)
    page.click("#name-ask-button")
    page.wait_for_selector("#name-ask", state="hidden")
    page.wait_for_function(
        "name => [...document.querySelectorAll('.player .name')].some((e) => e.textContent.startsWith(name + ' '))",
        arg=name,
    )


def ply(page: Any) -> int:
    return int(page.get_attribute("body", "data-ply") or 0)


def wait_ply(page: Any, count: int) -> None:
    page.wait_for_selector(f'body[data-ply="{count}"]')


def a_pair(page: Any) -> tuple[str, str]:
    """Two playable tiles of one kind, by the cell names the page shows."""
    tiles = page.eval_on_selector_all(
        "#board .cell.playable", "els => els.map(e => [e.dataset.cell, e.getAttribute('aria-label').split(' ')[0]])"
    )
    for index, (cell, kind) in enumerate(tiles):
        twin = next((other for other, other_kind in tiles[index + 1 :] if other_kind == kind), None)
        if twin is not None:
            return cell, twin
    raise AssertionError(f"no playable pair on the page: {tiles}")


def click_pair(page: Any, touch: bool = False) -> str:
    """Pick a tile and its twin (by tap on a touch page); returns the move as notation."""
    page.wait_for_selector("#board.your-turn")
    first, second = a_pair(page)
    for cell in (first, second):
        target = page.locator(f'#board .cell[data-cell="{cell}"]')
        target.tap() if touch else target.click()
    low, high = sorted((first, second), key=lambda cell: (cell[0], int(cell[1:])))  # board order: column first
    return f"{low}-{high}"


def mover(pages: list[Any]) -> Any:
    """The page whose player is to move (every page shows the same ply when this is asked)."""
    pages[0].wait_for_function("() => document.body.dataset.status !== undefined")
    for page in pages:
        if page.locator("#board.your-turn").count():
            return page
    raise AssertionError("nobody is to move: " + " | ".join(str(page.text_content("#turn")) for page in pages))


def what_it_shows(page: Any) -> str:
    """The game screen as a failing wait reports it: its status and ply, the turn line, the line's
    state, a notice, the seats kept in the browser (their moves waiting for an ``ack``) and the
    page's errors."""
    shown = page.evaluate(
        """() => ({
            status: document.body.dataset.status, ply: document.body.dataset.ply,
            turn: document.getElementById('turn')?.textContent, line: document.getElementById('link-text')?.textContent,
            notice: document.getElementById('notice')?.hidden ? '' : document.getElementById('notice')?.textContent,
            board: document.getElementById('board')?.className,
            kept: Object.fromEntries(Object.keys(localStorage).map((key) => [key, localStorage.getItem(key)])),
        })"""
    )
    return f"{shown}; page errors {page.errors}"


def finished(page: Any) -> bool:
    return page.get_attribute("body", "data-status") == "finished"


def play_turns(pages: list[Any], turns: int = 200, touch: tuple[Any, ...] = ()) -> list[str]:
    """Up to ``turns`` moves (a whole game by default), each by whoever is to move and seen by every
    page before the next; returns them."""
    played: list[str] = []
    while len(played) < turns and not finished(pages[0]):
        count = ply(pages[0])
        page = mover(pages)
        played.append(click_pair(page, touch=page in touch))
        for other in pages:
            wait_ply(other, count + 1)
    return played


OUT_OF_SIGHT = """
(() => {
  // headless Chromium shows every tab: the page is told it is hidden, as a browser tells a
  // background tab, through document.hidden, visibilityState and the visibilitychange event
  let hidden = false;
  Object.defineProperty(Document.prototype, "hidden", { get() { return hidden; }, configurable: true });
  Object.defineProperty(Document.prototype, "visibilityState", {
    get() { return hidden ? "hidden" : "visible"; }, configurable: true });
  window.setOutOfSight = (value) => { hidden = value; document.dispatchEvent(new Event("visibilitychange")); };
  // what a person would see or hear: the notifications shown, the tones started
  window.shownNotifications = [];
  window.tonesStarted = 0;
  if (window.Notification) {
    const Shown = window.Notification;
    window.Notification = class extends Shown {
      constructor(title, options) { super(title, options); window.shownNotifications.push(options.body); }
    };
  }
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) { window.tonesStarted += 1; return start.apply(this, args); };
})();
"""
"""An init script for a page whose tab goes to the background (``setOutOfSight(true)``)."""


def out_of_sight(page: Any, hidden: bool) -> None:
    page.evaluate(f"() => setOutOfSight({'true' if hidden else 'false'})")
