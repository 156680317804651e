"""Playing in the window, headless: whole games by synthetic clicks, keyboard play, messages.

Click positions come from the layout functions, so these tests also check that
what is drawn where is what a click there selects.
"""

from __future__ import annotations

import random

import pygame
import pytest

from battle import i18n
from battle.i18n import _
from battle.rules.board import cell_name
from battle.rules.game import Game
from battle.rules.tiles import TOTAL_POINTS
from battle.ui.match import Match
from battle.ui.play.play_scene import PlayScene
from battle.ui.play.result_scene import ResultScene
from battle.ui.title.title_scene import TitleScene
from battle.ui.widgets.layout import cell_at, cell_center
from tests import ui_harness as ui
from tests.ui.drawn_text import record_texts
from tests.ui.test_ui_fits import last_pair_won_by_player_2


def start_hotseat(new_app, deal: int = 1):  # noqa: ANN001, ANN201
    app = new_app()
    assert isinstance(app.stack.top, TitleScene)
    title = app.stack.top
    title.widgets["deal"].set_text(str(deal))
    ui.click_button(app, title.widgets["start"])
    assert isinstance(app.stack.top, PlayScene)
    return app


def test_a_hotseat_game_is_played_to_the_end_by_clicks(tmp_path, monkeypatch) -> None:
    rng = random.Random(5)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = start_hotseat(new_app, deal=7)
        scene = ui.play_scene(app)
        game = scene.match.game
        assert game.deal_number == 7
        while not game.is_over():
            moves = game.position.legal_moves()
            move = rng.choice(moves)
            before = game.ply
            ui.play_move(app, move)
            assert game.ply == before + 1, scene.status.text
            assert game.moves[-1] == move
        assert sum(game.position.scores) + game.position.points_on_board() == TOTAL_POINTS
        # beside the greyed-out Hint of a game over, its key is named no more
        assert scene.mode.status_line()[1] == "U undo · R redo · A analyse · N new"
        ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=5)
        result_scene = app.stack.top
        # the result panel offers a rematch: same deal, the other player starts
        names = game.names
        ui.click_button(app, result_scene.buttons["rematch"])
        rematch = ui.play_scene(app)
        assert rematch is not scene
        assert rematch.match.game.deal_number == 7
        assert names == ("Player 1", "Player 2") == rematch.match.game.names  # default names are the seats'
        assert rematch.match.game.ply == 0


def test_clicks_on_blocked_and_mismatched_tiles_explain_why(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = start_hotseat(new_app, deal=1)
        scene = ui.play_scene(app)
        position = scene.position
        blocked = next(c for c in range(108) if not position.is_free(c))
        ui.click_cell(app, blocked)
        assert scene.selected is None
        assert "not free" in scene.status.text and cell_name(blocked) in scene.status.text

        free = position.free_cells()
        first = free[0]
        other = next(c for c in free if position.cells[c] != position.cells[first])
        ui.click_cell(app, first)
        assert scene.selected == first
        ui.click_cell(app, other)
        assert "not a pair" in scene.status.text
        assert scene.selected == other  # the new free tile becomes the selection
        assert scene.match.game.ply == 0

        ui.click_cell(app, blocked)
        assert "not free" in scene.status.text
        ui.key(app, pygame.K_ESCAPE)
        assert scene.selected is None


def test_keyboard_cursor_plays_a_move(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = start_hotseat(new_app, deal=3)
        scene = ui.play_scene(app)
        position = scene.position
        move = position.legal_moves()[0]
        free = position.free_cells()
        ui.key(app, pygame.K_RIGHT)
        assert scene.cursor in free
        # walk the cursor to each cell of the move with arrow keys, then Enter
        for target in move:
            ui.walk_cursor(app, scene, target)
            ui.key(app, pygame.K_RETURN)
        assert scene.match.game.moves == [move]


def test_the_move_list_browses_positions_and_returns(tmp_path, monkeypatch) -> None:
    from battle.ui.widgets.layout import move_entry_rect

    with ui.session(tmp_path, monkeypatch) as new_app:
        app = start_hotseat(new_app, deal=2)
        scene = ui.play_scene(app)
        for _ in range(4):
            ui.play_move(app, scene.position.legal_moves()[0])
        ui.settle(app)
        entry = move_entry_rect(app.layout.panel, 1, scene.first_row)
        ui.click(app, entry.center)
        assert scene.browse_ply == 2
        assert scene.board_state().cells == scene.match.game.position_at(2).cells
        # clicks on the board while browsing do not play
        ui.click_cell(app, scene.position.free_cells()[0])
        assert scene.browse_ply is None and scene.match.game.ply == 4
        ui.click(app, entry.center)
        ui.key(app, pygame.K_LEFT)
        assert scene.browse_ply == 1
        ui.key(app, pygame.K_x)
        assert scene.browse_ply is None


def test_undo_redo_by_keys_and_buttons(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = start_hotseat(new_app, deal=4)
        scene = ui.play_scene(app)
        game = scene.match.game
        (first,) = game.position.legal_moves()[:1]
        ui.play_move(app, first)
        second = game.position.legal_moves()[0]
        ui.play_move(app, second)
        ui.key(app, pygame.K_u)
        assert game.moves == [first]
        ui.click_button(app, scene.buttons["undo"])
        assert game.moves == []
        ui.key(app, pygame.K_r)
        assert game.moves == [first]
        ui.click_button(app, scene.buttons["redo"])
        assert game.moves == [first, second]
        ui.key(app, pygame.K_r)
        assert "Nothing to redo" in scene.status.text


def test_resize_updates_the_layout_and_clicks_still_hit_tiles(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = start_hotseat(new_app, deal=1)
        scene = ui.play_scene(app)
        for size in ((900, 640), (1600, 900), (700, 700), (1200, 800)):
            app.step([pygame.event.Event(pygame.VIDEORESIZE, w=size[0], h=size[1], size=size)], ui.DT)
            assert app.layout.window == size
            assert pygame.display.get_surface().get_size() == size
            for cell in range(108):
                assert cell_at(app.layout, cell_center(app.layout, cell)) == cell
            for button in scene.buttons.values():
                assert pygame.Rect(0, 0, *size).contains(button.rect)
        move = scene.position.legal_moves()[0]
        ui.play_move(app, move)
        assert scene.match.game.moves == [move]


@pytest.mark.parametrize("size", [(640, 440), (2000, 1200)])
def test_small_and_large_windows_draw(tmp_path, monkeypatch, size) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size, demo=True)
        ui.settle(app, 3)
        scene = ui.play_scene(app)
        move = scene.position.legal_moves()[0]
        scene.deselect()
        ui.play_move(app, move)
        assert scene.match.game.moves[-1] == move


def test_the_title_offers_resume_and_rematch_of_the_last_game(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = start_hotseat(new_app, deal=6)
        scene = ui.play_scene(app)
        scene.match.game.player1, scene.match.game.player2 = "Kim", "Lee"
        ui.play_move(app, scene.position.legal_moves()[0])
        ui.key(app, pygame.K_n)
        title = app.stack.top
        assert isinstance(title, TitleScene)
        assert title.resume is not None and title.resume.game.ply == 1
        ui.click_button(app, title.widgets["rematch"])
        ui.click_button(app, app.stack.top.buttons["keep"])  # the unfinished game stays listed
        rematch = ui.play_scene(app)
        assert rematch.match.game.deal_number == 6 and rematch.match.game.ply == 0
        assert rematch.match.game.names == ("Lee", "Kim")


@pytest.mark.parametrize(
    ("language", "typed"),
    [("en", False), ("de", False), ("en", True)],
    ids=["default names", "default names in German", "typed names"],
)
def test_the_seat_cards_after_a_rematch_name_each_seat_once(language, typed, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """Rematch swaps the sides: a typed name goes with its player to the other seat, and a default name
    ("Player 1", as the new-game form fills it in, in the player's language) stays with its seat, so no
    card reads "Player 2 / to move · Player 1"."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), language=language)
        names = ("Ann", "Ben") if typed else (_("Player 1"), _("Player 2"))
        scene = app.start_match(Match(Game(last_pair_won_by_player_2(), *names)))
        ui.play_move(app, scene.position.legal_moves()[0])
        ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=5)
        ui.click_button(app, app.stack.top.buttons["rematch"])
        ui.settle(app)
        recorder = record_texts(app, monkeypatch)
        drawn = recorder.frame()
        cards = [
            " ".join(text for text, rect in drawn if pygame.Rect(card.as_tuple()).contains(rect))
            for card in app.layout.panel.cards
        ]
    seat = _("Player {player}")
    first, second = ("Ben", "Ann") if typed else (seat.format(player=1), seat.format(player=2))
    roles = (seat.format(player=1), seat.format(player=2)) if typed else (_("hot seat"), _("hot seat"))
    if language == "de" and not typed:
        assert roles[0] == "zu zweit"  # a phrase, not "ein Bildschirm" (one screen); one line under "am Zug"
    for card, name, other, role in zip(cards, (first, second), (second, first), roles, strict=True):
        assert f" {name} " in f" {card} " and f" {other} " not in f" {card} ", cards
        assert card.endswith(role), cards  # after the name, under "to move" on the card of the side to move


@pytest.mark.parametrize("size", [(800, 600), (1200, 800)])
def test_a_german_hot_seat_card_says_its_role_on_one_line(size, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """ "am Zug · zu zweit" under the name of the side to move, on one line at the smallest window too."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size, language="de")
        try:
            scene = app.start_match(Match(Game(last_pair_won_by_player_2(), _("Player 1"), _("Player 2"))))
            ui.settle(app)
            for player, card in zip(scene.panel_info().players, app.layout.panel.cards, strict=True):
                panel = app.layout.panel
                lines = app.panel_view.role_lines(pygame.Rect(card.as_tuple()), player, panel.pad, app.layout.scale)
                assert len(lines) == 1, lines
        finally:
            i18n.set_language("en")
