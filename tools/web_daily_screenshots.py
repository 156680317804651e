"""Screenshots of the deal of the day and a browser's statistics for docs/, from real games.

    python tools/web_daily_screenshots.py [--out docs] [--chromium /usr/bin/chromium]

Starts ``mahjong-battle serve`` with one solver worker on a free port of 127.0.0.1 (as
``tools/web_solver_screenshots.py`` does). Four players play the deal of the day against
beginner or casual (each move the biggest pair), Ann's game filed under the page's device key and
reviewed, and Ann plays deal 8 against beginner too; then each screen is written on a desktop
(1280 x 800) and a phone held upright (390 x 844 at 2 device pixels a pixel):

- ``web-daily-desktop.png``, ``web-daily-phone.png``: the home screen's deal of the day with the
  day's table;
- ``web-stats-desktop.png``, ``web-stats-phone.png``: Ann's statistics (the whole page).

Needs Playwright (``pip install '.[browser]'``) and a Chromium. Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))
from web_page import served_browser  # noqa: E402 - the benchmark's server and browser
from web_screenshots import screenshot_arguments  # noqa: E402 - the options of every screenshot tool
from web_solver_screenshots import SCREENS  # noqa: E402 - the same screens as the solver's pictures
from websockets.sync.client import connect  # noqa: E402

from battle.rules.board import biggest_pair, move_name, parse_move  # noqa: E402
from battle.rules.notation import parse_position  # noqa: E402

DEVICE = "5eed0000000000000000000000d0c5a1"
"""The page's device key, put into its local storage before it opens."""


def play(base: str, name: str, level: str, deal: dict[str, Any], device: str | None = None) -> None:
    """A whole game against ``level`` on ``deal``, the player taking the biggest pair; reviewed when
    filed under ``device``."""
    with connect(base.replace("http://", "ws://") + "/") as line:
        line.send(json.dumps({"type": "hello", "version": 1, "name": name}))
        line.send(json.dumps({"type": "solver_game", "level": level, "deal": deal, "first": "creator", "name": name}))
        while (state := json.loads(line.recv(60)))["type"] != "state":
            pass
        if device is not None:
            line.send(json.dumps({"type": "device", "device": device}))
        position = parse_position(state["start"])
        you, status, ply = state["you"], state["status"], 0
        while status == "playing":
            if position.to_move == you:
                move = biggest_pair(position)
                line.send(json.dumps({"type": "move", "move": move_name(move), "id": f"m{ply}"}))
            while (message := json.loads(line.recv(60)))["type"] != "moved":
                pass
            position.push(parse_move(message["move"]))
            status, ply = message["status"], ply + 1
        if device is not None:
            line.send(json.dumps({"type": "review"}))
            while (news := json.loads(line.recv(120)))["type"] != "review_result" or news["status"] == "queued":
                pass


def main(argv: list[str] | None = None) -> int:
    args = screenshot_arguments(__doc__, argv)
    with served_browser(args.chromium, solver_workers=1) as (base, browser):
        play(base, "Ann", "beginner", {"daily": True}, DEVICE)
        for name, level in (("Bob", "casual"), ("Cleo", "beginner"), ("Dev", "casual")):
            play(base, name, level, {"daily": True})
        play(base, "Ann", "beginner", {"number": 8}, DEVICE)
        for screen, options in SCREENS.items():
            page = browser.new_context(**options).new_page()
            page.goto(base + "/")
            page.evaluate(
                "key => { localStorage.setItem('mahjong-battle-device', key);"
                " localStorage.setItem('mahjong-battle.name', 'Ann'); }",
                DEVICE,
            )
            page.reload()
            page.wait_for_selector("#daily-rows tr.yours")
            page.locator("#daily").scroll_into_view_if_needed()
            page.screenshot(path=str(args.out / f"web-daily-{screen}.png"))
            page.goto(base + "/stats/")
            page.wait_for_selector("body[data-stats=shown]")
            # the whole screen in one viewport: the page's background is fixed to the viewport
            height = page.evaluate("() => document.documentElement.scrollHeight")
            page.set_viewport_size({"width": options["viewport"]["width"], "height": height})
            page.goto(base + "/stats/")
            page.wait_for_selector("body[data-stats=shown]")
            page.screenshot(path=str(args.out / f"web-stats-{screen}.png"))
            print(f"wrote the {screen} screens in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
