"""Screenshots of the browser client for the README and docs/, from a real game.

    python tools/web_screenshots.py [--out docs] [--chromium /usr/bin/chromium]

Starts ``mahjong-battle serve`` on a free port of 127.0.0.1 with a fresh database, as
``benchmarks/web_page.py`` does; Ann hosts deal
8 in a headless Chromium, Bob opens her link in another and gives his name beside the board, and the two
play 14 moves by clicks. Ann's seat is then opened, as a reload would, on four screens and each is
written as a PNG:

- ``web-desktop.png``: 1280 x 800;
- ``web-phone.png``: a phone held upright, 390 x 844 (at 2 device pixels a pixel);
- ``web-phone-sideways.png``: the same phone held sideways, 844 x 390;
- ``web-phone-320.png``: a small phone, 320 x 568;

and a friend's first link (deal 8 again, hosted by Cleo), the board shown at once and the name
asked beside it:

- ``web-join-desktop.png``: 1280 x 800;
- ``web-join-phone.png``: a phone held upright, 390 x 844.

Needs Playwright (``pip install '.[browser]'``) and a Chromium. Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from web_page import served_browser  # noqa: E402 - the benchmark's server and browser

SCREENS = [
    ("web-desktop.png", {"viewport": {"width": 1280, "height": 800}}),
    ("web-phone.png", {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True}),
    (
        "web-phone-sideways.png",
        {"viewport": {"width": 844, "height": 390}, "device_scale_factor": 2, "is_mobile": True},
    ),
    ("web-phone-320.png", {"viewport": {"width": 320, "height": 568}, "device_scale_factor": 2, "is_mobile": True}),
]
JOIN_SCREENS = [
    ("web-join-desktop.png", SCREENS[0][1]),
    ("web-join-phone.png", SCREENS[1][1]),
]
MOVES = 14
KEEP = "(kept) => { for (const [key, value] of Object.entries(kept)) localStorage.setItem(key, value); }"
"""Puts Ann's storage (her seat and name) into another browser: the page there resumes her seat."""
PAIR = """() => {
  const tiles = [...document.querySelectorAll("#board .cell.playable")]
    .map((e) => [e.dataset.cell, e.getAttribute("aria-label").split(" ")[0]]);
  for (const [index, [cell, kind]] of tiles.entries()) {
    const twin = tiles.slice(index + 1).find(([, other]) => other === kind);
    if (twin) return [cell, twin[0]];
  }
  return null;
}"""


def play_a_move(pages: list[Any]) -> None:
    """The page whose player is to move takes a pair; every page waits until it shows the move."""
    ply = int(pages[0].get_attribute("body", "data-ply") or 0)
    mover = next(page for page in pages if page.locator("#board.your-turn").count())
    for cell in mover.evaluate(PAIR):
        mover.click(f'.cell[data-cell="{cell}"]')
    for page in pages:
        page.wait_for_selector(f'body[data-ply="{ply + 1}"]')


def screenshot_arguments(doc: str, argv: list[str] | None) -> argparse.Namespace:
    """The options every screenshot tool takes (``--out``, made if missing; ``--chromium``), its help
    headed by the first line of the tool's ``doc``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="the folder for the PNGs (default docs/)")
    parser.add_argument("--chromium", help="the browser to drive (default: the first Chromium on the PATH)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    return args


def main(argv: list[str] | None = None) -> int:
    args = screenshot_arguments(__doc__, argv)
    with served_browser(args.chromium) as (base, browser):
        ann = browser.new_context(**SCREENS[0][1]).new_page()
        ann.goto(base + "/")
        ann.fill("#host-form input[name=name]", "Ann")
        ann.check("#host-form input[name=deal][value=number]")
        ann.fill("#host-form input[name=number]", "8")
        ann.select_option("#host-form select[name=first]", "creator")
        ann.click("#host-button")
        ann.wait_for_selector("#invite-link:not(:empty)")
        bob = browser.new_context().new_page()
        bob.goto(str(ann.text_content("#invite-link")))
        bob.wait_for_selector("#name-ask:not([hidden])")
        bob.fill("#name-ask input[name=name]", "Bob")
        bob.click("#name-ask-button")
        bob.wait_for_selector("#player-2 .name:text-is('Bob (you)')")
        for _ in range(MOVES):
            play_a_move([ann, bob])
        game = ann.get_attribute("body", "data-game")
        kept = ann.evaluate("() => JSON.stringify({...localStorage})")
        args.out.mkdir(parents=True, exist_ok=True)
        for name, options in SCREENS:
            page = browser.new_context(**options).new_page()
            page.goto(base + "/")
            page.evaluate(KEEP, json.loads(kept))
            page.goto(f"{base}/play/{game}")
            page.wait_for_selector('#link[data-state="connected"]')
            page.wait_for_selector(f'body[data-ply="{MOVES}"]')
            page.screenshot(path=str(args.out / name))
            print(f"wrote {args.out / name}")
        for name, options in JOIN_SCREENS:
            cleo = browser.new_context(**SCREENS[0][1]).new_page()
            cleo.goto(base + "/")
            cleo.fill("#host-form input[name=name]", "Cleo")
            cleo.check("#host-form input[name=deal][value=number]")
            cleo.fill("#host-form input[name=number]", "8")
            cleo.select_option("#host-form select[name=first]", "creator")
            cleo.click("#host-button")
            cleo.wait_for_selector("#invite-link:not(:empty)")
            friend = browser.new_context(**options).new_page()  # a browser that never gave a name
            friend.goto(str(cleo.text_content("#invite-link")))
            friend.wait_for_selector("#name-ask:not([hidden])")
            friend.wait_for_selector('#player-1 .presence:text-is("online")')
            friend.screenshot(path=str(args.out / name))
            print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
