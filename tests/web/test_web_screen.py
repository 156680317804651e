"""The game screen at every size a friend brings: a desktop, a phone upright and sideways, a 320 px
phone. The last move in sight in the move list; a sideways phone with the whole board on screen and
tiles a finger can take; long names that never push a card off; the board's column letters and row
numbers; the arrow keys jumping between free tiles as the window's cursor does; notes that end with
the game; Take back closed after a "no"; bad links quoted short and clean."""

from __future__ import annotations

import random
from typing import Any

import pytest

from battle.rules.board import move_name
from battle.rules.deal import deal
from battle.rules.notation import parse_position
from battle.ui.widgets.layout import nearest_cell, next_cell
from tests.online_server import Client
from tests.web.conftest import Served
from tests.web.game_pages import DESKTOP, PHONE, a_pair, host, join, new_page, play_turns, wait_ply

SIZES = {
    "desktop": (1280, 800),
    "low desktop": (1280, 600),
    "phone": (390, 844),
    "phone sideways": (844, 390),
    "small phone": (320, 568),
}
SIDEWAYS = {"viewport": {"width": 844, "height": 390}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SMALL = {"viewport": {"width": 320, "height": 568}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}

LAST_MOVE_SEEN = """() => {
  const list = document.getElementById("moves").getBoundingClientRect();
  const last = document.querySelector("#moves li:last-child").getBoundingClientRect();
  const inside = last.top >= list.top - 1 && last.bottom <= list.bottom + 1
    && last.left >= list.left - 1 && last.right <= list.right + 1;
  return inside && last.height > 0;
}"""


def test_the_move_list_shows_the_last_move_at_every_size(browser: Any, served: Served) -> None:
    """A whole game between two programs, watched from a page: after the last move, the list shows it
    on every screen, a window made smaller and a phone turned sideways included."""
    ann = Client(served.url, "Ann")
    ann.send({"type": "create", "deal": {"number": 6}, "first": "creator", "name": "Ann"})
    watch = ann.expect("created")["watch"]
    state = ann.expect("state")
    bob = Client(served.url, "Bob")
    bob.send({"type": "join", "code": state["invite"], "name": "Bob"})
    state = bob.expect("state")
    page = new_page(browser)
    page.goto(f"{served.base}/watch/{watch}")
    page.wait_for_selector("body[data-playable]")
    seats = {1: ann, 2: bob}
    position = parse_position(state["start"])
    total = 0
    while position.legal_moves():
        move = position.legal_moves()[0]
        mover = seats[position.to_move]
        mover.send({"type": "move", "move": move_name(move), "id": f"m{total}"})
        mover.expect("ack")
        position.push(move)
        total += 1
    assert total > 40  # more than the old list showed at 1280 x 800
    wait_ply(page, total)
    assert page.text_content("#moves li:last-child").startswith(f"{total}. ")
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(LAST_MOVE_SEEN)
        if width > height:  # beside the board: on the screen without scrolling the page
            bottom = page.evaluate(
                "() => document.querySelector('#moves li:last-child').getBoundingClientRect().bottom"
            )
            assert bottom <= height, name
    ann.close()
    bob.close()


def tile_box(page: Any, cell: str) -> dict[str, float]:
    return page.evaluate(
        "(cell) => { const r = document.querySelector(`#board .cell[data-cell='${cell}']`).getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; }",
        cell,
    )


@pytest.mark.parametrize(("device", "narrowest"), [(SIDEWAYS, 24), (PHONE, 26), (SMALL, 21), (DESKTOP, 40)])
def test_the_whole_board_is_on_screen_with_tiles_a_finger_can_take(
    browser: Any, served: Served, device: dict[str, Any], narrowest: int
) -> None:
    ann = new_page(browser, **device)
    bob = new_page(browser)
    join(bob, host(ann, served.base, "Ann", deal=1))
    ann.wait_for_selector("body[data-playable]")
    width, height = device["viewport"]["width"], device["viewport"]["height"]
    corner = tile_box(ann, "l9")  # the bottom-right cell: every row and column is on screen
    assert tile_box(ann, "a1")["width"] >= narrowest
    assert corner["right"] <= width
    if width > height:  # sideways: the board fits the screen's height; upright phones scroll below it
        assert corner["bottom"] <= height, corner
    assert ann.evaluate("() => document.scrollingElement.scrollWidth") <= width


def test_long_names_without_spaces_never_push_a_card_off(browser: Any, served: Served) -> None:
    long = "W" * 40
    for device in (PHONE, SMALL):
        ann = new_page(browser, **device)
        bob = new_page(browser)
        join(bob, host(ann, served.base, long, deal=1), "M" * 40)
        ann.wait_for_selector(f"#player-2 .name:text-is('{'M' * 40}')")
        width = device["viewport"]["width"]
        for card in ("#player-1", "#player-2"):
            box = ann.evaluate(f"() => document.querySelector('{card}').getBoundingClientRect().right")
            assert box <= width, (card, box, width)
        assert ann.evaluate("() => document.scrollingElement.scrollWidth") <= width


def test_column_letters_and_row_numbers_name_the_cells(browser: Any, served: Served) -> None:
    page = new_page(browser)
    join(page, host(new_page(browser), served.base, "Ann", deal=1))
    letters = page.eval_on_selector_all("#board .col-label", "els => els.map(e => e.textContent)")
    numbers = page.eval_on_selector_all("#board .row-label", "els => els.map(e => e.textContent)")
    assert letters == list("abcdefghijkl") and numbers == [str(row) for row in range(1, 10)]
    for index, letter in enumerate(letters):
        label = page.locator("#board .col-label").nth(index).bounding_box()
        cell = page.locator(f'#board .cell[data-cell="{letter}1"]').bounding_box()
        assert abs((label["x"] + label["width"] / 2) - (cell["x"] + cell["width"] / 2)) < 1.5  # above its column
        assert label["y"] + label["height"] <= cell["y"] + 1
    for number in numbers:
        label = page.locator("#board .row-label").nth(int(number) - 1).bounding_box()
        cell = page.locator(f'#board .cell[data-cell="a{number}"]').bounding_box()
        assert abs((label["y"] + label["height"] / 2) - (cell["y"] + cell["height"] / 2)) < 1.5  # beside its row
        assert label["x"] + label["width"] <= cell["x"] + 1


CURSOR = """
async (cases) => {
  const cursor = await import("/board.js");
  const steps = [[1, 0], [-1, 0], [0, 1], [0, -1]];
  return cases.map(([free, targets]) => ({
    next: [null, ...free].map((cell) => steps.map((step) => cursor.nextCell(free, cell, step))),
    nearest: targets.map((target) => cursor.nearestCell(free, target)),
  }));
}
"""


def test_the_pages_cursor_jumps_as_the_windows_does(browser: Any, served: Served) -> None:
    rng = random.Random(53)
    cases = []
    for number in range(1, 41):
        position = deal(number)
        for _ in range(rng.randrange(0, 40)):
            if not position.legal_moves():
                break
            position.push(rng.choice(position.legal_moves()))
        cases.append((position.free_cells(), [rng.randrange(108) for _ in range(6)]))
    page = new_page(browser)
    page.goto(served.base + "/")
    seen = page.evaluate(CURSOR, cases)
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    for (free, targets), ours in zip(cases, seen, strict=True):
        assert ours["next"] == [[next_cell(free, cell, step) for step in steps] for cell in [None, *free]]
        assert ours["nearest"] == [nearest_cell(free, target) for target in targets]


def test_the_arrow_keys_jump_between_free_tiles_and_a_move_takes_a_few_presses(browser: Any, served: Served) -> None:
    ann = new_page(browser)
    bob = new_page(browser)
    join(bob, host(ann, served.base, "Ann", deal=1, first="creator"))
    ann.wait_for_selector("#board.your-turn")
    first, second = a_pair(ann)
    ann.focus(f'#board .cell[data-cell="{first}"]')
    ann.keyboard.press("Enter")
    presses = 0
    focused = first
    while focused != second and presses < 30:
        col, row = focused[0], int(focused[1:])
        if second[0] != col:
            key = "ArrowRight" if second[0] > col else "ArrowLeft"
        else:
            key = "ArrowDown" if int(second[1:]) > row else "ArrowUp"
        ann.keyboard.press(key)
        presses += 1
        focused = ann.evaluate("() => document.activeElement.dataset.cell")
        classes = ann.evaluate("() => document.activeElement.className")
        assert "tile" in classes and "blocked" not in classes, f"{key} led to {focused}: {classes}"
    columns = abs(ord(second[0]) - ord(first[0]))
    assert focused == second and presses <= columns + 1, presses
    ann.keyboard.press("Enter")
    wait_ply(bob, 1)
    assert ann.evaluate("() => document.activeElement.classList.contains('tile')")  # focus went on to a tile


def test_notes_end_with_the_game_and_take_back_closes_after_a_no(browser: Any, served: Served) -> None:
    ann = new_page(browser)
    bob = new_page(browser)
    join(bob, host(ann, served.base, "Ann", deal=3, first="creator"))
    play_turns([ann, bob], turns=1)  # Ann moved: her takeback to ask, Bob's turn
    ann.click("#takeback")
    bob.wait_for_selector("#offer:not([hidden])")
    bob.click("#offer-no")
    ann.wait_for_selector("#turn:has-text('said no to taking back that move')")
    assert ann.is_disabled("#takeback")
    ann.keyboard.press("t")  # the key asks nothing either
    ann.click("#board .cell.blocked >> nth=0")  # a refusal of her own: a note in the turn line
    assert "It is not your turn yet." in ann.text_content("#turn")
    bob.click("#resign")
    bob.click("#confirm-yes")
    ann.wait_for_selector('body[data-status="finished"]')
    assert "not your turn" not in ann.text_content("#turn") and "said no" not in ann.text_content("#turn")
    bob.click("#rematch")
    ann.wait_for_selector("#offer:not([hidden])")
    ann.click("#offer-yes")
    for page in (ann, bob):
        page.wait_for_selector('body[data-ply="0"][data-status="playing"]')
    bob.click("#board .cell.blocked >> nth=0")  # Bob moves first now: "Only the top-most ..."
    assert "top-most" in bob.text_content("#turn")
    bob.click("#abort")  # before the second move: called off
    bob.wait_for_selector('body[data-status="finished"]')
    assert "top-most" not in bob.text_content("#turn") and "called off" in bob.text_content("#turn")


BAD_CODES = ["%00%00%00" * 4, "A" * 5000, "%E0%A4%A", "AB%0A%00%07CDEFGH", "\u202e" + "Z" * 30]
"""Links a stranger may hand out: NULs, a huge code, a cut escape, control characters, a reversal mark."""


def test_a_bad_link_quotes_a_short_clean_prefix_of_its_code(browser: Any, served: Served) -> None:
    page = new_page(browser)
    for code in BAD_CODES:  # one server and one page for all: each goto is a fresh load
        page.goto(f"{served.base}/join/{code}")
        page.wait_for_selector("#notice:not([hidden])")
        words = page.text_content("#notice")
        assert "does not read" in words and len(words) < 160, (code[:40], words)
        assert not any(ch in words for ch in "\x00\n\u202e") and "URI malformed" not in words, (code[:40], words)
    assert page.errors == []
