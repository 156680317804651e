"""The review screen, headless: a short game reviewed on a thread, its moves, jumping, retrying.

Games start from a composed position of about 20 tiles, so every move is solved
exactly well within the time per move and the window must show exactly what
``battle.players.review`` computes for the same game.
"""

from __future__ import annotations

import random

import numpy as np
import pygame
import pytest

from battle.history.store import History
from battle.players.review import review_game
from battle.rules.board import Position, parse_move
from battle.rules.deal import deal
from battle.rules.game import Game
from battle.storage.saved_games import Shelf
from battle.ui.match import Match
from battle.ui.play.play_scene import PlayScene
from battle.ui.play.result_scene import ResultScene
from battle.ui.review.review_layout import clamp_first, follow, move_row_at, move_row_rect, review_layout
from battle.ui.review.review_scene import ReviewScene
from battle.ui.title.title_scene import TitleScene
from battle.ui.widgets.eval_graph import x_of_ply
from battle.ui.widgets.layout import cell_at, cell_center
from solver.engine import Engine
from tests import ui_harness as ui
from tests.i18n.language_guard import Screen, report
from tests.ui.drawn_text import record_texts
from tests.ui_harness import reviewed, short_game


def test_the_result_panels_review_shows_the_solvers_grades(tmp_path, monkeypatch) -> None:
    game = short_game()
    expected = review_game(game, time_per_move=None, engine=Engine(table_bits=18))
    assert expected.exact and any(move.loss for move in expected.moves)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        last = game.undo()
        app.start_match(Match(game))
        ui.play_move(app, last)  # the game ends in the window: the result panel comes up
        ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=5)
        ui.click_button(app, app.stack.top.buttons["review"])
        scene = app.stack.top
        assert isinstance(scene, ReviewScene)
        assert scene.review is not None or scene.buttons["cancel"].alive()  # a review that runs can be stopped
        reviewed(app, scene)
        review = scene.review
        assert [(m.move, m.classification, m.loss, m.best_value) for m in review.moves] == [
            (m.move, m.classification, m.loss, m.best_value) for m in expected.moves
        ]
        assert [s.to_json() for s in review.summary()] == [s.to_json() for s in expected.summary()]
        assert [p.number for p in review.turning_points()] == [p.number for p in expected.turning_points()]
        app.step([], ui.DT)  # the graph, the list, the marks all draw

        # a click on a move shows the position before it, with the move played and the best one marked
        target = max(range(len(review.moves)), key=lambda index: review.moves[index].loss)
        ui.click(app, move_row_rect(scene.geometry, target, scene.first_row).center)
        assert scene.selected == target
        assert scene.board_state().cells == game.position_at(target).cells
        played, played_class, best = scene.marks()
        assert played == game.moves[target] and played_class == review.moves[target].classification
        assert best and all(move in game.position_at(target).legal_moves() for move in best)
        assert review.moves[target].move in scene.status().text

        # a click on the graph goes to the move drawn there: the point after move 2 is move 2's
        graph = scene.geometry.graph
        x = graph.x + x_of_ply((graph.w, graph.h), len(review.moves), 2, scene.graph_text_scale())
        ui.click(app, (round(x), graph.y + graph.h // 2))
        assert scene.selected == 1 and scene.graph_cursor_ply() == 2
        ui.key(app, pygame.K_DOWN)
        assert scene.selected == 2

        # Back returns to the finished game's result panel
        ui.click_button(app, scene.buttons["back"])
        assert isinstance(app.stack.top, ResultScene)


def test_retry_from_here_plays_the_side_that_was_to_move(tmp_path, monkeypatch) -> None:
    game = short_game(seed=31, tiles=18)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = reviewed(app, app.open_review(game))
        ply = 3
        scene.select(ply)
        position: Position = game.position_at(ply)
        ui.click_button(app, scene.buttons["retry"])
        play = app.stack.top
        assert isinstance(play, PlayScene)
        assert play.game.position == position and play.game.moves == game.moves[:ply]
        assert play.match.solver_side == 3 - position.to_move
        assert play.match.level == app.settings.level
        assert play.match.human_to_move()
        assert play.match.undo_count() == 0  # the moves before the retry are the reviewed game's


def test_retry_from_here_keeps_the_deal_and_the_game_stays_unrated(tmp_path, monkeypatch) -> None:
    """A game of deal 7 reviewed, retried from six moves before its end and won or lost against the
    solver: the retry is deal 7 (its panel, its saved record), and the history keeps it unrated."""
    rng = random.Random(7)
    game = Game.new(7, "Ann", "Ben")
    while not game.is_over():
        game.play(rng.choice(game.position.legal_moves()))
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        app.settings.review_seconds = 0.05  # the grades do not matter here, the retry does
        scene = reviewed(app, app.open_review(game))
        ply = len(game.moves) - 6
        scene.select(ply)
        ui.click_button(app, scene.buttons["retry"])
        play = app.stack.top
        assert isinstance(play, PlayScene)
        assert play.game.deal_number == 7 and play.game.moves == game.moves[:ply]
        assert play.panel_info().start_label.startswith("Deal 7"), play.panel_info().start_label
        saved = Shelf().unfinished()[0][0].game
        assert saved.deal_number == 7 and saved.to_text().splitlines()[2] == "deal: 7"
        while not play.game.is_over():
            if play.match.human_to_move():
                ui.play_move(app, play.game.position.legal_moves()[0])
            else:
                ui.run_until(app, lambda: play.match.human_to_move() or play.game.is_over(), timeout=60)
        ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=10)
        stored = [entry for entry in History().games() if entry.front_end == "window"]
        assert len(stored) == 1 and stored[0].opponent_level() == app.settings.level
        assert stored[0].deal is None  # not played against the level from the deal's start: not rated
        assert "deal: 7" in stored[0].record


def test_analyse_here_and_the_final_position(tmp_path, monkeypatch) -> None:
    game = short_game(seed=5, tiles=16)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = reviewed(app, app.open_review(game))
        ui.key(app, pygame.K_END)
        assert scene.selected == len(game.moves) and scene.marks() == (None, None, [])
        assert not scene.buttons["retry"].is_enabled  # the game is over there
        ui.key(app, pygame.K_HOME)
        ui.key(app, pygame.K_a)
        play = app.stack.top
        assert isinstance(play, PlayScene) and play.analysis is not None
        assert play.game.start == game.start


def test_cancel_stops_a_long_review(tmp_path, monkeypatch) -> None:
    game = Game.new(4, "A", "B")
    for _ in range(20):
        game.play(game.position.legal_moves()[0])
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        play = app.start_match(Match(game))
        scene = app.open_review(game, time_per_move=30.0)
        app.step([], ui.DT)
        assert scene.review is None
        ui.click_button(app, scene.buttons["cancel"])
        assert app.stack.top is play
        assert scene.job.cancelled and scene.job.wait(5)
        assert scene.job.review is None


def test_the_progress_card_words_the_last_moves_class_in_german(tmp_path, monkeypatch) -> None:
    """While a review runs its card names the last reviewed move's class ("Ungenauigkeit", not
    "inaccuracy"): a 108-tile deal at 0.4 s a move keeps the card up for seconds."""
    game = Game.new(4, "Ann", "Ben")
    for _ in range(8):
        game.play(game.position.legal_moves()[0])
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app((1200, 800), language="de")
        play = app.start_match(Match(game))
        recorder = record_texts(app, monkeypatch)
        scene = app.open_review(game, time_per_move=0.4)
        assert isinstance(scene, ReviewScene)
        ui.run_until(app, lambda: scene.job.progress is not None and scene.job.progress.move is not None, timeout=60)
        texts = recorder.texts()
        ui.click_button(app, scene.buttons["cancel"])
        assert app.stack.top is play and scene.job.wait(5)
    assert scene.review is None, "the card was read while the review ran"
    lines = [text for text in texts if text[:1].isdigit() and ": " in text]
    assert len(lines) == 1, texts
    assert not report([Screen("review progress", lines[0], names=("Ann", "Ben"))], "de"), lines


@pytest.mark.parametrize("size", [(1200, 800), (800, 600)])
def test_the_graphs_cursor_keeps_off_the_legend_and_the_texts(size, tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """The selected move's line stands inside the plot: it does not run down through the legend of
    the marker colours under the plot, nor through a text inside it, even at a move above the legend."""
    game = short_game(seed=12, tiles=30)  # 15 moves, the first three marked
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        scene = reviewed(app, app.open_review(game, time_per_move=0.2))
        graph = scene.geometry.graph
        picture = scene.graph_picture((graph.w, graph.h))
        assert picture.legend is not None, "the game has a marked move"
        moves = len(scene.review.moves)
        under_legend = [
            ply
            for ply in range(1, moves + 1)
            if picture.legend.left
            <= x_of_ply((graph.w, graph.h), moves, ply, scene.graph_text_scale())
            <= picture.legend.right
        ]
        assert under_legend, "a move's point stands above the legend"
        x = round(x_of_ply((graph.w, graph.h), moves, under_legend[0], scene.graph_text_scale()))
        ui.click(app, (graph.x + x, graph.y + picture.plot.centery))  # a click on the graph picks that move
        assert scene.graph_cursor_ply() == under_legend[0]
        app.step([], ui.DT)
        shown = pygame.surfarray.array3d(pygame.display.get_surface()).astype(np.int16)
        area = shown[graph.x : graph.x + picture.surface.get_width(), graph.y : graph.y + picture.surface.get_height()]
        cursor = np.abs(area - pygame.surfarray.array3d(picture.surface).astype(np.int16)).max(axis=2) > 40
        cursor[:3, :] = cursor[-3:, :] = cursor[:, :3] = cursor[:, -3:] = False  # the graph's frame
    columns, rows = np.nonzero(cursor)
    assert len(columns), "the cursor is drawn"
    assert abs(columns.mean() - x) <= 2
    assert picture.plot.top <= rows.min() and rows.max() < picture.plot.bottom, (rows.min(), rows.max(), picture.plot)
    for rect in (picture.legend, *picture.texts):
        crossed = cursor[rect.left : rect.right, rect.top : rect.bottom]
        assert not crossed.any(), f"the cursor crosses the text at {rect}"


def test_review_a_game_file_from_the_title(tmp_path, monkeypatch) -> None:
    game = short_game(seed=8, tiles=14)
    path = tmp_path / "short.mbg"
    path.write_text(game.to_text())
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        title = app.stack.top
        assert isinstance(title, TitleScene)
        ui.click_button(app, title.widgets["review"])
        assert title.files.is_open() and title.files.purpose == "review"
        ui.choose_file(app, title.files.dialog, path)
        scene = app.stack.top
        assert isinstance(scene, ReviewScene)
        reviewed(app, scene)
        assert [parse_move(move.move) for move in scene.review.moves] == game.moves
        ui.key(app, pygame.K_ESCAPE)
        assert app.stack.top is title


def test_deeper_reviews_again_with_more_time_only_while_some_values_are_estimates(tmp_path, monkeypatch) -> None:
    rng = random.Random(3)
    game = Game(deal(5), "Ann", "Ben")
    while not game.is_over():
        game.play(rng.choice(game.position.legal_moves()))
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        title = app.stack.top
        scene = ReviewScene(app, game, time_per_move=0.02)  # far too short to prove the opening's values
        app.stack.push(scene)
        reviewed(app, scene)
        assert not scene.review.exact
        deeper = scene.buttons["deeper"]
        assert deeper.is_enabled and "0.08 s per move instead of 0.02 s" in deeper.tool_tip_text
        ui.click_button(app, deeper)
        again = app.stack.top
        assert isinstance(again, ReviewScene) and again is not scene and again.game is game
        assert again.job.time_per_move == pytest.approx(0.08)
        assert scene.job.cancelled or scene.job.done
        ui.key(app, pygame.K_ESCAPE)  # cancel the deeper one: back where the first review came from
        assert app.stack.top is title

        proved = ReviewScene(app, short_game(), time_per_move=5)
        app.stack.push(proved)
        reviewed(app, proved)
        assert proved.review.exact
        assert not proved.buttons["deeper"].is_enabled
        ui.key(app, pygame.K_d)  # nothing new to prove: D does nothing
        assert app.stack.top is proved


@pytest.mark.parametrize("size", [(640, 440), (1200, 800), (1920, 1080), (900, 1400)])
def test_the_review_layout_fits_and_maps_clicks_back(size) -> None:  # noqa: ANN001
    geo = review_layout(*size)
    width, height = size
    board = geo.board
    assert board.mat.right <= geo.panel.x and board.mat.bottom <= board.status.y
    assert board.status.bottom <= geo.graph.y and geo.graph.bottom <= height and geo.graph.right <= geo.panel.x
    assert geo.panel.right <= width and geo.moves.bottom <= geo.buttons[0].y
    for button in geo.buttons:
        assert geo.panel.contains((button.x, button.y)) and button.bottom <= geo.panel.bottom
    for cell in range(108):
        assert cell_at(board, cell_center(board, cell)) == cell
    count = 54
    first = clamp_first(geo, 20, count)
    for index in range(count):
        rect = move_row_rect(geo, index, first)
        if rect is not None:
            assert move_row_at(geo, rect.center, first, count) == index
    assert follow(geo, 0, count - 1, count) == max(0, count - geo.visible_rows)
