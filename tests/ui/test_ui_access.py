"""Words and looks a player notices: the rules and keys page, the title by keyboard alone, marks that
do not rely on colour, and the text size setting. Every test drives the real window headless.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pygame
import pytest

from battle.rules.game import Game
from battle.ui.analysis.analysis_view import (
    BADGE_TEXT,
    BEST_MARK,
    badge_rect,
    badge_spots,
    badge_text,
    badge_text_sizes,
)
from battle.ui.art import theme
from battle.ui.demos import open_demo
from battle.ui.editor.editor_scene import EditorScene
from battle.ui.files.settings import load_settings
from battle.ui.help.help_scene import RULES, SHORTCUTS, HelpScene
from battle.ui.match import Match
from battle.ui.play.play_scene import PlayScene
from battle.ui.review.review_layout import review_layout
from battle.ui.review.review_scene import ReviewScene
from battle.ui.review.review_view import label_size, mark_labels, move_marks, played_label
from battle.ui.title.title_scene import TitleScene
from battle.ui.widgets.hud import status_layout
from battle.ui.widgets.layout import cell_rect, compute_layout, move_entry_rect
from tests import ui_harness as ui

UI_SOURCES = Path(__file__).resolve().parents[2] / "battle" / "ui"


def screen() -> np.ndarray:
    """The window's pixels as rows x columns x RGB floats."""
    return pygame.surfarray.array3d(pygame.display.get_surface()).transpose(1, 0, 2).astype(float)


def crop(pixels: np.ndarray, rect: pygame.Rect) -> np.ndarray:
    return pixels[rect.y : rect.bottom, rect.x : rect.right]


# -- colour vision deficiency, simulated ----------------------------------------------------------

# Machado, Oliveira & Fernandes, "A Physiologically-based Model for Simulation of Color Vision
# Deficiency", IEEE TVCG 15(6), 2009: the matrices for severity 1.0, applied to linear RGB.
PROTANOPIA = np.array(
    [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
)
DEUTERANOPIA = np.array(
    [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
)
DEFICIENCIES = {"deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA}


def simulate(pixels: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """sRGB pixels (0-255) as seen with the deficiency ``matrix``: decoded to linear light, mixed, encoded."""
    srgb = pixels / 255.0
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    seen = np.clip(linear @ matrix.T, 0.0, 1.0)
    encoded = np.where(seen <= 0.0031308, seen * 12.92, 1.055 * seen ** (1 / 2.4) - 0.055)
    return encoded * 255.0


def luminance(pixels: np.ndarray) -> np.ndarray:
    return pixels @ np.array([0.2126, 0.7152, 0.0722])


def best_overlap(mask: np.ndarray, template: np.ndarray) -> float:
    """The best intersection-over-union of ``template`` slid over ``mask`` (0 when it does not fit)."""
    th, tw = template.shape
    best = 0.0
    for y in range(mask.shape[0] - th + 1):
        for x in range(mask.shape[1] - tw + 1):
            window = mask[y : y + th, x : x + tw]
            best = max(best, (window & template).sum() / max(1, (window | template).sum()))
    return best


def ink(lightness: np.ndarray) -> np.ndarray:
    """The dark text on a light chip: pixels nearer the darkest than the chip's fill (the median), so
    that the same glyphs give the same mask on fills of any shade."""
    return lightness < (np.median(lightness) + lightness.min()) / 2


def iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / max(1, (a | b).sum()))


# -- 1. the rules and keys page -------------------------------------------------------------------


def test_f1_and_question_mark_open_the_rules_and_keys_on_every_screen(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        title = app.stack.top
        assert isinstance(title, TitleScene)
        ui.click_button(app, title.widgets["help"])  # the title's "Rules & keys" button
        assert isinstance(app.stack.top, HelpScene)
        assert not title.widgets["start"].visible  # the title's widgets hide under the page
        ui.key(app, pygame.K_ESCAPE)
        assert app.stack.top is title and title.widgets["start"].visible

        ui.key(app, pygame.K_F1)
        assert isinstance(app.stack.top, HelpScene)
        ui.key(app, pygame.K_F1)  # F1 again closes it
        assert app.stack.top is title

        ui.key(app, pygame.K_TAB)
        ui.key(app, pygame.K_TAB)  # the ring on the first name field, which takes the typing
        assert title.widgets["player1"].is_focused
        ui.key(app, pygame.K_SLASH, pygame.KMOD_SHIFT, unicode="?")
        assert app.stack.top is title  # ? in a text field is a character, not the page
        ui.key(app, pygame.K_ESCAPE)

        ui.key(app, pygame.K_RETURN)  # a game
        game = app.stack.top
        assert isinstance(game, PlayScene)
        ui.key(app, pygame.K_SLASH, pygame.KMOD_SHIFT, unicode="?")
        help_page = app.stack.top
        assert isinstance(help_page, HelpScene)
        ui.click_button(app, help_page.buttons["close"])
        assert app.stack.top is game

        ui.key(app, pygame.K_e)  # the editor over the game
        assert isinstance(app.stack.top, EditorScene)
        ui.key(app, pygame.K_F1)
        assert isinstance(app.stack.top, HelpScene)
        ui.key(app, pygame.K_ESCAPE)  # closes the page, not the editor
        assert isinstance(app.stack.top, EditorScene)

        review = app.open_review(game.game, time_per_move=0.2)
        ui.key(app, pygame.K_F1)
        assert isinstance(app.stack.top, HelpScene)
        ui.key(app, pygame.K_ESCAPE)
        assert app.stack.top is review


def test_the_page_scrolls_at_800x600(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((800, 600))
        ui.key(app, pygame.K_F1)
        page = app.stack.top
        assert isinstance(page, HelpScene)
        view = page.viewport()
        assert page.card_rect().bottom <= 600 and page.max_offset() > view.h  # more than two screens
        before = crop(screen(), view)
        ui.key(app, pygame.K_PAGEDOWN)
        assert page.offset > view.h // 2
        assert np.abs(crop(screen(), view) - before).mean() > 5  # the words moved
        ui.key(app, pygame.K_DOWN)
        lower = page.offset
        app.step([pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False, precise_x=0.0, precise_y=1.0)], ui.DT)
        assert page.offset < lower
        ui.key(app, pygame.K_END)
        assert page.offset == page.max_offset()
        ui.key(app, pygame.K_HOME)
        assert page.offset == 0


def test_the_page_states_the_rules_and_every_key_the_screens_handle() -> None:
    rules = " ".join(RULES)
    for fact in (
        "108 tiles",
        "top-most",
        "bottom-most",
        "identical free tiles",
        "must take one",
        "no pair of free twins",
        "270 points",
        "136",
    ):
        assert fact in rules

    keys_of = {screen: " ".join(keys for keys, _ in rows) for screen, rows in SHORTCUTS}
    screens_of = {
        "play_scene.py": ["Game"],
        "study_mode.py": ["Analysis"],
        "title_scene.py": ["Title"],
        "editor_scene.py": ["Position editor"],
        "review_scene.py": ["Review"],
        "result_scene.py": ["Game over"],
        "choice_scene.py": ["Questions and file dialogs"],
        "dialogs.py": ["Questions and file dialogs"],
        "help_scene.py": ["Every screen", "This page"],
        "focus_ring.py": ["Title", "Play online"],
        "setup_scene.py": ["Play online"],
        "lobby_scene.py": ["Waiting for an opponent"],
        "online_mode.py": ["Online game"],
        "online_scene.py": ["Online game"],
        "puzzle_scene.py": ["Puzzles"],
        "stats_scene.py": ["Statistics"],
        "sound_keys.py": ["Every screen"],
    }
    names = {
        "ESCAPE": "Esc",
        "RETURN": "Enter",
        "KP_ENTER": "Enter",
        "SPACE": "Space",
        "TAB": "Tab",
        "LEFT": "←",
        "RIGHT": "→",
        "UP": "↑",
        "DOWN": "↓",
        "HOME": "Home",
        "END": "End",
        "PAGEUP": "PageUp",
        "PAGEDOWN": "PageDown",
        "BACKSPACE": "Backspace",
        "COMMA": ",",
        "PERIOD": ".",
        "F1": "F1",
        "EQUALS": "=",
        "PLUS": "=",
        "KP_PLUS": "=",
        "MINUS": "-",
        "KP_MINUS": "-",
        "0": "0",
        "KP_0": "0",
    }
    modifiers = {"LSHIFT", "RSHIFT", "LCTRL", "RCTRL", "LALT", "RALT", "LGUI", "RGUI", "CAPSLOCK", "NUMLOCK", "MODE"}
    found = 0
    for source in sorted(UI_SOURCES.rglob("*.py")):
        for code in set(re.findall(r"pygame\.K_(\w+)", source.read_text(encoding="utf-8"))) - modifiers:
            assert source.name in screens_of, f"{source.name} handles K_{code}: which screen is it?"
            label = names.get(code, code.upper())
            listed = " ".join(keys_of[screen] for screen in screens_of[source.name])
            pattern = rf"(?<![A-Za-z]){re.escape(label)}(?![A-Za-z])"
            assert re.search(pattern, listed), f"K_{code} ({source.name}) is not on the page as {label!r}"
            found += 1
    assert found > 40


# -- 2. the title from the keyboard alone ----------------------------------------------------------


def ring_drawn(app, widget) -> bool:  # noqa: ANN001
    """Whether the focus ring's gold shows just outside the widget's left edge."""
    scale = app.layout.scale
    ring = widget.rect.inflate(round(8 * scale), round(8 * scale))
    pixel = pygame.display.get_surface().get_at((ring.x + 1, ring.centery))[:3]
    return tuple(pixel) == theme.GOLD_BRIGHT


def test_the_title_works_from_the_keyboard_alone(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        title = app.stack.top
        assert isinstance(title, TitleScene)
        assert title.focus is None
        assert title.focus_order()[:5] == ["mode", "player1", "player2", "deal_kind", "deal"]

        ui.key(app, pygame.K_TAB)
        assert title.focus == "mode" and ring_drawn(app, title.widgets["mode"])
        ui.key(app, pygame.K_TAB)
        entry = title.widgets["player1"]
        assert title.focus == "player1" and entry.is_focused and ring_drawn(app, entry)
        ui.key(app, pygame.K_a, pygame.KMOD_CTRL)
        ui.type_text(app, "Ann")
        ui.key(app, pygame.K_DOWN)  # the arrows leave a field too (left and right move its caret)
        assert title.focus == "player2" and title.widgets["player2"].is_focused and not entry.is_focused
        ui.type_text(app, "X")
        ui.key(app, pygame.K_TAB, pygame.KMOD_SHIFT)
        assert title.focus == "player1"

        # a list opens with Enter, the arrows choose, Enter takes the choice
        ui.key(app, pygame.K_UP)
        assert title.focus == "mode"
        menu = title.widgets["mode"]
        ui.key(app, pygame.K_RETURN)
        assert menu.current_state is menu.menu_states["expanded"]
        ui.key(app, pygame.K_DOWN)
        ui.key(app, pygame.K_RETURN)
        assert title.form.mode == "solver" and "human_name" in title.widgets and "player1" not in title.widgets
        assert title.focus == "mode" and ring_drawn(app, title.widgets["mode"])
        menu = title.widgets["mode"]
        ui.key(app, pygame.K_SPACE)  # Space opens it too; Esc keeps the old choice
        assert menu.current_state is menu.menu_states["expanded"]
        ui.key(app, pygame.K_DOWN)
        ui.key(app, pygame.K_ESCAPE)
        assert title.form.mode == "solver" and menu.current_state is menu.menu_states["closed"]
        ui.key(app, pygame.K_RETURN)
        ui.key(app, pygame.K_DOWN)
        ui.key(app, pygame.K_RETURN)
        assert title.form.mode == "hotseat" and title.form.values["player1"].endswith("Ann")

        # Shift+Tab from the first widget wraps round to the last button; Enter presses it
        ui.key(app, pygame.K_TAB, pygame.KMOD_SHIFT)
        assert title.focus == "help" and ring_drawn(app, title.widgets["help"])
        ui.key(app, pygame.K_RETURN)
        assert isinstance(app.stack.top, HelpScene)
        ui.key(app, pygame.K_ESCAPE)
        assert app.stack.top is title and title.focus == "help"

        # Esc hides the ring; then Enter is Start again, with the names typed
        ui.key(app, pygame.K_ESCAPE)
        assert title.focus is None and not ring_drawn(app, title.widgets["help"])
        ui.key(app, pygame.K_RETURN)
        game = app.stack.top
        assert isinstance(game, PlayScene)
        assert game.game.names[0].endswith("Ann") and game.game.names[1].endswith("X")


def test_enter_presses_the_focused_button_not_start(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((800, 600))
        title = app.stack.top
        for _ in range(len(title.focus_order())):  # Tab, as the arrows would move a text field's caret
            ui.key(app, pygame.K_TAB)
            if title.focus == "edit":
                break
        assert title.focus == "edit"
        ui.key(app, pygame.K_RETURN)
        assert isinstance(app.stack.top, EditorScene)


# -- 3. colour is never the only signal ------------------------------------------------------------


def analysed(new_app, size: tuple[int, int] = (1200, 800)):  # noqa: ANN001, ANN201
    """The analysis demo, solved, with no pair pointed at."""
    app = new_app(size)
    open_demo(app, "analysis")
    scene = ui.play_scene(app)
    scene.hover_cell = None

    def solved() -> bool:
        badges = scene.analysis.badges()
        return bool(badges) and all(badge.exact for badge in badges.values())

    ui.run_until(app, solved, timeout=60)
    app.step([], ui.DT)
    return app, scene


@pytest.mark.parametrize("deficiency", sorted(DEFICIENCIES))
def test_best_badges_carry_a_star_a_colour_blind_eye_sees(tmp_path, monkeypatch, deficiency: str) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, scene = analysed(new_app)
        seen = simulate(screen(), DEFICIENCIES[deficiency])
        badges = scene.analysis.badges()
        moves = sorted(badges, key=lambda move: (-badges[move].value, move))
        spots = badge_spots(app.layout, scene.analysis.position, moves)
        star = app.fonts.text(BEST_MARK, badge_text_sizes(app.layout)[0], BADGE_TEXT)
        ink = pygame.surfarray.array_alpha(star).T > 128
        rows, cols = np.nonzero(ink)
        template = ink[rows.min() : rows.max() + 1, cols.min() : cols.max() + 1]
        overlaps: dict[bool, list[float]] = {True: [], False: []}
        fills: dict[bool, list[np.ndarray]] = {True: [], False: []}
        for spot in spots:
            badge = badges[spot.move]
            assert badge_text(badge, spot.partner).startswith(BEST_MARK) == badge.best
            pill = crop(seen, badge_rect(app.fonts, app.layout, spot, badge))
            dark = luminance(pill) < 80  # the badge's ink: what remains without hue
            overlaps[badge.best].append(best_overlap(dark, template))
            fills[badge.best].append(np.median(pill[~dark], axis=0))
        assert overlaps[True] and overlaps[False], "the demo shows best and other pairs"
        # the premise: to this eye, the green of a best badge is about as far from the others as shades of one
        gap = min(np.linalg.norm(best - other) for best in fills[True] for other in fills[False])
        assert gap < 90
        # the star is what tells them apart
        assert min(overlaps[True]) > 0.8
        assert max(overlaps[False]) < 0.6


def review_demo(new_app, size: tuple[int, int] = (1200, 800)):  # noqa: ANN001, ANN201
    app = new_app(size)
    open_demo(app, "review")
    scene = app.stack.top
    assert isinstance(scene, ReviewScene)
    ui.run_until(app, lambda: scene.review is not None or scene.failed is not None, timeout=90)
    assert scene.failed is None
    return app, scene


def played_chip_mask(app, scene: ReviewScene, index: int, matrix: np.ndarray) -> np.ndarray:  # noqa: ANN001
    """The ink of the played pair's chip with move ``index`` shown, as a colour-blind eye sees it."""
    scene.select(index)
    app.step([], ui.DT)
    played, played_class, best = scene.marks()
    geo = scene.geometry
    chips = mark_labels(app.fonts, geo.board, move_marks(played, played_class, best))
    chip = next(rect for rect, _, label in chips if label.startswith("played"))
    inner = chip.inflate(-chip.h, -4)  # clear of the rounded ends, where the board shows through
    return ink(luminance(crop(simulate(screen(), matrix), inner)))


@pytest.mark.parametrize("deficiency", sorted(DEFICIENCIES))
def test_review_grades_read_without_their_colours(tmp_path, monkeypatch, deficiency: str) -> None:
    labels = {name: played_label(name) for name in ("good", "inaccuracy", "mistake", "blunder")}
    assert len(set(labels.values())) == len(labels)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, scene = review_demo(new_app)
        moves = scene.review.moves
        graded = {}
        for index, move in enumerate(moves):
            if move.classification in ("mistake", "blunder") and move.move not in move.best_moves:
                graded.setdefault(move.classification, index)
        assert set(graded) == {"mistake", "blunder"}, "the demo game has both"
        mistake = played_chip_mask(app, scene, graded["mistake"], DEFICIENCIES[deficiency])
        blunder = played_chip_mask(app, scene, graded["blunder"], DEFICIENCIES[deficiency])
        # the chips' ink differs ("played ?" against "played ??"), not only their orange and red
        # (the same words on the two fills match at 0.93: anti-aliased edges fall either side of the threshold)
        assert mistake.shape != blunder.shape or iou(mistake, blunder) < 0.8


@pytest.mark.parametrize("deficiency", sorted(DEFICIENCIES))
def test_the_players_marks_differ_in_shape(tmp_path, monkeypatch, deficiency: str) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), demo=True)
        app.step([], ui.DT)
        seen = simulate(screen(), DEFICIENCIES[deficiency])
        panel = app.layout.panel
        scene = ui.play_scene(app)
        masks = {}
        for index, (_, mover, _, _) in enumerate(scene.panel_info().moves[:2]):
            entry = move_entry_rect(panel, index, 0)
            # the move list's mark sits left of the move number, in the first 14 px (scaled) of the entry
            area = pygame.Rect(entry.x, entry.y, round(14 * app.layout.scale), entry.h)
            masks[mover] = luminance(crop(seen, area)) > 70
        assert set(masks) == {1, 2}
        assert masks[1].sum() > 10 and masks[2].sum() > 10
        assert iou(masks[1], masks[2]) < 0.75


def contrast(first: np.ndarray, second: np.ndarray) -> float:
    """WCAG's contrast ratio of two sRGB colours (0-255): 1 for the same, 21 for black on white."""

    def relative(colour: np.ndarray) -> float:
        srgb = colour / 255.0
        linear = np.where(srgb <= 0.03928, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
        return float(linear @ np.array([0.2126, 0.7152, 0.0722]))

    light, dark = sorted((relative(first), relative(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("size", [(1200, 800), (800, 600)])
def test_the_keyboard_cursor_is_a_thick_frame_seen_on_any_background(size, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """The arrows' cursor is at least 5 px across, with a part of at least 3:1 contrast (WCAG's
    figure for a focus indicator) against what it borders on either side: the tile and its glow."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        scene = app.start_match(Match(Game.new(3, "Ann", "Ben")))
        ui.settle(app, 2)
        without = screen()
        ui.key(app, pygame.K_RIGHT)
        assert scene.cursor is not None and scene.cursor_visible and scene.selected is None
        with_cursor = screen()
        cell = cell_rect(app.layout, scene.cursor)
    row = round(cell.y + cell.h * 0.45)  # across the frame's left side, at the tile's middle
    left = cell.x - round(16 * app.layout.scale)
    across_before, across = without[row, left : cell.x + cell.w // 2], with_cursor[row, left : cell.x + cell.w // 2]
    changed = np.flatnonzero(np.abs(across - across_before).max(axis=1) > 30)
    assert len(changed), "the cursor is drawn"
    band = np.arange(changed[0], changed[0] + np.argmax(np.diff(np.append(changed, 10**6)) > 1) + 1)
    assert len(band) >= 5, f"the cursor is {len(band)} px across"
    outside, inside = across[band[0] - 1], across[band[-1] + 1]
    assert max(contrast(across[x], outside) for x in band) >= 3.0, "the cursor fades into what lies outside it"
    assert max(contrast(across[x], inside) for x in band) >= 3.0, "the cursor fades into the tile"


# -- 4. the text size ------------------------------------------------------------------------------


def test_status_and_badge_text_is_12px_at_800x600(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((800, 600), demo=True)
        assert app.settings.ui_scale == 1.0
        assert status_layout(app.fonts, app.layout, "A pair of 5 circles", "U undo").size >= 12
        assert min(badge_text_sizes(app.layout)) >= 12
        assert label_size(review_layout(800, 600).board) >= 12


def test_the_text_size_keys_change_it_everywhere_and_it_is_kept(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800))
        title = app.stack.top
        start_font = title.widgets["start"].font.size("Start game")
        scale = app.layout.scale
        ui.key(app, pygame.K_EQUALS, pygame.KMOD_CTRL)
        assert app.settings.ui_scale == 1.1 and app.layout.zoom == 1.1
        assert app.layout.scale > scale
        title = app.stack.top
        assert title.widgets["start"].font.size("Start game")[1] > start_font[1]  # widgets' fonts too
        ui.key(app, pygame.K_MINUS, pygame.KMOD_CTRL)
        ui.key(app, pygame.K_MINUS, pygame.KMOD_CTRL)
        assert app.settings.ui_scale == 0.9
        ui.key(app, pygame.K_0, pygame.KMOD_CTRL)
        assert app.settings.ui_scale == 1.0 and app.layout.scale == scale
        for _ in range(12):
            ui.key(app, pygame.K_KP_PLUS, pygame.KMOD_CTRL)
        assert app.settings.ui_scale == 1.6  # the setting's bound

        ui.key(app, pygame.K_F1)  # the page's own buttons set it as well
        page = app.stack.top
        assert not page.buttons["larger"].is_enabled
        ui.click_button(app, page.buttons["smaller"])
        assert app.settings.ui_scale == 1.5
        assert isinstance(app.stack.top, HelpScene)
        assert load_settings()[0].ui_scale == 1.5
        again = new_app((1200, 800))
        assert again.settings.ui_scale == 1.5 and again.layout.zoom == 1.5


def inside(rect, size: tuple[int, int]) -> bool:  # noqa: ANN001
    x, y, w, h = (rect.x, rect.y, rect.w, rect.h)
    return x >= 0 and y >= 0 and x + w <= size[0] and y + h <= size[1]


@pytest.mark.parametrize("zoom", [0.8, 1.0, 1.2, 1.4, 1.6])
@pytest.mark.parametrize("size", [(640, 440), (800, 600), (1200, 800), (1920, 1080)])
def test_zoomed_layouts_stay_in_the_window(size: tuple[int, int], zoom: float) -> None:
    layout = compute_layout(*size, zoom)
    panel = layout.panel
    for rect in (layout.mat, layout.status, panel.rect, *panel.buttons, panel.header, *panel.cards, panel.info):
        assert inside(rect, size)
    assert layout.mat.right <= panel.rect.x and layout.mat.bottom <= layout.status.y
    assert panel.moves.y >= panel.info.bottom and panel.moves.bottom <= panel.buttons[0].y
    assert panel.cards[1].bottom <= panel.info.y
    if zoom >= 1:
        assert layout.scale >= compute_layout(*size).scale  # a zoom never shrinks anything
    review = review_layout(*size, zoom)
    for rect in (review.graph, review.panel, *review.cards, review.turning, review.moves, *review.buttons):
        assert inside(rect, size)
    assert review.moves.bottom <= review.buttons[0].y


def test_nothing_overflows_the_window_at_1_4x_at_800x600(tmp_path, monkeypatch) -> None:
    size = (800, 600)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        for _ in range(4):
            ui.key(app, pygame.K_EQUALS, pygame.KMOD_CTRL)
        assert app.settings.ui_scale == 1.4 and app.layout.scale > compute_layout(*size).scale
        title = app.stack.top
        assert inside(title.card_rect(), size)
        for name, widget in title.widgets.items():
            assert inside(widget.rect, size), name

        ui.key(app, pygame.K_F1)
        page = app.stack.top
        assert inside(page.card_rect(), size)
        assert all(inside(button.rect, size) for button in page.buttons.values())
        ui.key(app, pygame.K_ESCAPE)

        ui.key(app, pygame.K_RETURN)
        game = app.stack.top
        assert isinstance(game, PlayScene)
        layout = app.layout
        for rect in (layout.mat, layout.status, layout.panel.rect):
            assert inside(rect, size)
        for name, button in game.buttons.items():
            assert inside(button.rect, size) and layout.panel.rect.contains(button.rect.topleft), name
        ui.key(app, pygame.K_a)  # analysis: its buttons replace the game's
        for name, button in game.buttons.items():
            assert inside(button.rect, size), name
        ui.key(app, pygame.K_e)
        editor = app.stack.top
        assert isinstance(editor, EditorScene)
        for name, widget in editor.widgets.items():
            assert inside(widget.rect, size), name
