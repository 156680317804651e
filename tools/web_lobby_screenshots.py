"""Screenshots of the lobby on the home page for docs/online.md, from a real server.

    python tools/web_lobby_screenshots.py [--out docs] [--chromium /usr/bin/chromium]

Starts ``mahjong-battle serve`` on a free port of 127.0.0.1 with a fresh database, as
``benchmarks/web_page.py`` does. Ann offers deal 8 in the lobby (she moves first, 5 minutes a move)
and Dan takes it, so it is on show to watch; then Bob offers a random deal with no time limit and
Cleo deal 12 with who moves first drawn. A fifth browser opens the home page, and the lobby card
is written as a PNG at two sizes:

- ``web-lobby-desktop.png``: 1280 x 800, the lobby scrolled into view;
- ``web-lobby-phone.png``: a phone held upright, 390 x 844 (at 2 device pixels a pixel).

Needs Playwright (``pip install '.[browser]'``) and a Chromium. Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from web_page import served_browser  # noqa: E402 - the benchmark's server and browser
from web_screenshots import screenshot_arguments  # noqa: E402 - the options of every screenshot tool

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SCREENS = [
    ("web-lobby-desktop.png", DESKTOP),
    ("web-lobby-phone.png", {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True}),
]


def offer(browser: Any, base: str, name: str, deal: str, first: str, move_seconds: str) -> Any:
    page = browser.new_context(**DESKTOP).new_page()
    page.goto(base + "/")
    page.fill("#host-form input[name=name]", name)
    if deal:
        page.check("#host-form input[name=deal][value=number]")
        page.fill("#host-form input[name=number]", deal)
    page.select_option("#host-form select[name=first]", first)
    page.select_option("#host-form select[name=move_seconds]", move_seconds)
    page.click("#challenge-button")
    page.wait_for_selector("#invite-link:not(:empty)")
    return page


def main(argv: list[str] | None = None) -> int:
    args = screenshot_arguments(__doc__, argv)
    with served_browser(args.chromium) as (base, browser):
        offer(browser, base, "Ann", "8", "creator", "300")
        dan = browser.new_context(**DESKTOP).new_page()
        dan.goto(base + "/")
        dan.locator("#challenge-list button", has_text="Play Ann").click()
        dan.wait_for_selector("#name-ask:not([hidden])")
        dan.fill("#name-ask input[name=name]", "Dan")
        dan.click("#name-ask-button")
        dan.wait_for_selector("#name-ask", state="hidden")
        offer(browser, base, "Bob", "", "joiner", "")
        offer(browser, base, "Cleo", "12", "random", "60")
        args.out.mkdir(parents=True, exist_ok=True)
        for name, options in SCREENS:
            page = browser.new_context(**options).new_page()
            page.goto(base + "/")
            page.locator("#lobby-games button", has_text="Ann against Dan").wait_for()
            page.locator("#challenge-list li").nth(1).wait_for()
            page.locator("#lobby").scroll_into_view_if_needed()
            page.evaluate("() => document.getElementById('lobby').scrollIntoView({block: 'start'})")
            page.screenshot(path=str(args.out / name))
            print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
