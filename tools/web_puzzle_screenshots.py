"""Screenshots of the page's puzzles screen for docs/, from the shipped set against a real server.

    python tools/web_puzzle_screenshots.py [--out docs] [--chromium /usr/bin/chromium]

Starts ``mahjong-battle serve`` with one solver worker on a free port of 127.0.0.1 (as
``tools/web_solver_screenshots.py`` does) and writes, on a desktop (1280 x 800) and a phone held
upright (390 x 844 at 2 device pixels a pixel), ``web-puzzles-desktop.png`` and
``web-puzzles-phone.png``: puzzle ``RIGHT`` solved (its rating moved), then puzzle ``WRONG`` with a
wrong move shown, what it loses and the solver's refutation framed. ``web-puzzles-de-phone.png``
is the same wrong move on a phone in German.

Needs Playwright (``pip install '.[browser]'``) and a Chromium. Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))
from web_page import served_browser  # noqa: E402 - the benchmark's server and browser
from web_screenshots import screenshot_arguments  # noqa: E402 - the options of every screenshot tool
from web_solver_screenshots import SCREENS, shoot  # noqa: E402 - the same screens as the solver's pictures

from battle.puzzles import load_puzzles  # noqa: E402
from battle.rules.board import Move, cell_name  # noqa: E402

RIGHT = "d4e1700db3"
"""The first puzzle of the shipped set: one move to find."""
WRONG = "acc212af9e"
"""The second: one move to find, and one wrong move, which loses 6 points."""


def click(page: Any, move: Move) -> None:
    for cell in move:
        page.click(f'#puzzle-board [data-cell="{cell_name(cell)}"]')


def main(argv: list[str] | None = None) -> int:
    args = screenshot_arguments(__doc__, argv)
    puzzles = {puzzle.id: puzzle for puzzle in load_puzzles()}
    right, wrong = puzzles[RIGHT], puzzles[WRONG]
    with served_browser(args.chromium, solver_workers=1) as (base, browser):
        shots = [(screen, options, "") for screen, options in SCREENS.items()]
        shots.append(("de-phone", SCREENS["phone"], "?lang=de"))
        for name, options, language in shots:
            context = browser.new_context(**options)
            page = context.new_page()
            page.goto(f"{base}/puzzles/{right.id}{language}")
            page.wait_for_selector(f'body[data-puzzle="{right.id}:step0"]')
            click(page, right.answer)
            page.wait_for_selector(f'body[data-puzzle="{right.id}:solved"]')
            page.click("#puzzle-next")
            page.goto(f"{base}/puzzles/{wrong.id}{language}")
            page.wait_for_selector(f'body[data-puzzle="{wrong.id}:step0"]')
            click(page, min(wrong.losses[0]))
            page.wait_for_selector(f'body[data-puzzle="{wrong.id}:refuted"]')
            shoot(page, args.out / f"web-puzzles-{name}.png")
            context.close()
            print(f"wrote web-puzzles-{name}.png in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
