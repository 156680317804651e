"""Screenshots of the page's solver screens for docs/, from real games against the solver.

    python tools/web_solver_screenshots.py [--out docs] [--chromium /usr/bin/chromium]

Starts ``mahjong-battle serve`` with one solver worker on a free port of 127.0.0.1 (as
``tools/web_screenshots.py`` does), and writes each screen on a desktop (1280 x 800) and a phone
held upright (390 x 844 at 2 device pixels a pixel):

- ``web-solver-desktop.png``, ``web-solver-phone.png``: a game against club from deal 8, four
  moves in, with the hint shown;
- ``web-analysis-desktop.png``, ``web-analysis-phone.png``: the analysis board on an endgame of
  deal 21, its values exact;
- ``web-review-desktop.png``, ``web-review-phone.png``: the review of a short game against
  beginner (from an endgame of deal 8).

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
from web_screenshots import PAIR, screenshot_arguments  # noqa: E402 - a pair to click, as the friend's screens find it
from websockets.sync.client import connect  # noqa: E402

from battle.rules.board import biggest_pair  # noqa: E402
from battle.rules.deal import deal  # noqa: E402
from battle.rules.notation import format_position  # noqa: E402

SCREENS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True},
}


def endgame(number: int, left: int) -> str:
    position = deal(number)
    while position.has_moves() and sum(kind >= 0 for kind in position.cells) > 2 * left:
        position.push(biggest_pair(position))
    return format_position(position)


def move(page: Any) -> None:
    """The player takes a pair once it is their turn, and waits for the solver's answer (or the end)."""
    page.wait_for_selector("#board.your-turn, body[data-status=finished]")
    if page.get_attribute("body", "data-status") == "finished":
        return
    ply = int(page.get_attribute("body", "data-ply") or 0)
    for cell in page.evaluate(PAIR):
        page.click(f'#board .cell[data-cell="{cell}"]')
    page.wait_for_function(
        f"() => Number(document.body.dataset.ply) >= {ply + 2} || document.body.dataset.status === 'finished'"
    )


def seat_from(base: str, page: Any, start: str, level: str) -> None:
    """A game against the solver from ``start``, its seat put into the page's browser and opened."""
    with connect(base.replace("http://", "ws://") + "/") as line:
        line.send(json.dumps({"type": "hello", "version": 1, "name": "Ann"}))
        line.send(json.dumps({"type": "solver_game", "level": level, "deal": {"position": start}, "first": "creator"}))
        while (created := json.loads(line.recv(60)))["type"] != "solver_created":
            pass
    seat = {"token": created["token"], "game": created["game"], "seat": created["seat"], "pending": []}
    page.goto(base + "/")
    page.evaluate("seat => localStorage.setItem('mahjong-battle.seats', JSON.stringify([seat]))", seat)
    page.goto(f"{base}/play/{created['game']}")
    page.wait_for_selector("body[data-playable]")


def shoot(page: Any, path: Path) -> None:
    """The screen from its top, as it opens (a click may have scrolled the page)."""
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    page.screenshot(path=str(path))


def main(argv: list[str] | None = None) -> int:
    args = screenshot_arguments(__doc__, argv)
    with served_browser(args.chromium, solver_workers=1) as (base, browser):
        for screen, options in SCREENS.items():
            page = browser.new_context(**options).new_page()
            page.goto(base + "/")
            page.select_option("#solver-form select[name=level]", "club")
            page.fill("#solver-form input[name=number]", "8")
            page.select_option("#solver-form select[name=first]", "creator")
            page.click("#solver-button")
            page.wait_for_selector("body[data-playable]")
            for _ in range(4):
                move(page)
            page.wait_for_selector("#board.your-turn")
            page.click("#hint")
            page.wait_for_selector("#hint-result:not([hidden])")
            shoot(page, args.out / f"web-solver-{screen}.png")

            page.goto(base + "/analysis/")
            page.fill("#analysis-text", endgame(21, left=10))
            page.click("#analysis-button")
            page.wait_for_selector("body[data-analysis$=':final']")
            shoot(page, args.out / f"web-analysis-{screen}.png")

            seat_from(base, page, endgame(8, left=9), "beginner")
            while page.get_attribute("body", "data-status") != "finished":
                move(page)
            page.click("#review-game")
            page.wait_for_selector("body[data-review=done]")
            shoot(page, args.out / f"web-review-{screen}.png")
            print(f"wrote the {screen} screens in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
