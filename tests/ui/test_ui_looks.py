"""How the window looks and paces itself, headless: the idle loop, the last-move mark, the
keyboard cursor after a move, the editor's and the review's labels, and status lines that fit.

Everything is driven through the real window (``App.step`` frames with posted input, and
``App.run`` itself for the idle loop); pixels are read back from the display surface.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time

import numpy as np
import pygame
import pytest

from battle.rules.board import Position, parse_cell
from battle.rules.game import Game
from battle.rules.tiles import EMPTY, parse_kind
from battle.search_worker import SearchWorker
from battle.ui.analysis.study_mode import KEYS_HELP as STUDY_KEYS_HELP
from battle.ui.app import FPS
from battle.ui.art import theme
from battle.ui.match import Match, new_match
from battle.ui.play import game_mode as game_mode_module
from battle.ui.play.game_mode import KEYS_HELP
from battle.ui.play.play_scene import THINKING_INTERVAL
from battle.ui.play.result_scene import ResultScene
from battle.ui.review.review_layout import move_row_rect
from battle.ui.review.review_scene import KEYS_HELP as REVIEW_KEYS_HELP
from battle.ui.review.review_scene import ReviewScene
from battle.ui.review.review_view import mark_labels, move_marks
from battle.ui.widgets.board_view import face_rect
from battle.ui.widgets.eval_graph import cursor_segments, x_of_ply
from battle.ui.widgets.hud import status_layout
from battle.ui.widgets.layout import cell_center, cell_rect, nearest_cell
from tests import ui_harness as ui
from tests.ui_harness import short_game


def hot_seat(
    new_app,
    deal_number: int = 1,
    size: tuple[int, int] = (1200, 800),  # noqa: ANN001, ANN201
    names: tuple[str, str] = ("Alice", "Bob"),
):
    app = new_app(size)
    scene = app.start_match(Match(Game.new(deal_number, *names)))
    ui.settle(app, 2)
    return app, scene


def screen() -> np.ndarray:
    return pygame.surfarray.array3d(pygame.display.get_surface()).astype(np.int16)


def region(pixels: np.ndarray, rect) -> np.ndarray:  # noqa: ANN001 - a layout Rect
    return pixels[rect.x : rect.right, rect.y : rect.bottom]


def drawn_without_last_move(app, scene) -> np.ndarray:  # noqa: ANN001
    """The board as the window draws it now, but with no last-move mark."""
    surface = pygame.Surface(app.layout.window)
    app.board_view.draw(surface, app.layout, dataclasses.replace(scene.board_state(), last_move=None))
    return pygame.surfarray.array3d(surface).astype(np.int16)


def circle_in_the_middle(pixels: np.ndarray, rect) -> bool:  # noqa: ANN001 - a layout Rect
    """Whether the player's shape in the middle of ``rect`` is player 1's circle rather than player 2's
    diamond: the diamond reaches 1.25 radii along the axes, so 1.1 radii right of the centre is
    still inside it but outside the circle."""
    face = face_rect(rect)
    cx, cy = face.x + face.w // 2, face.y + face.h // 2
    radius = max(2.5, face.w * 0.11)  # as BoardView.last_move_mark draws it
    centre, beside = pixels[cx, cy], pixels[cx + round(1.1 * radius), cy]
    return bool(np.abs(centre - beside).max() > 40)


# -- 1. the loop sleeps when nothing happens --------------------------------------------------------


def nearly_finished_game() -> tuple[Game, tuple[int, int]]:
    """Deal 1 played in board order up to its last move, and that move."""
    game = Game.new(1, "Alice", "Bob")
    while True:
        position = game.position
        for move in position.legal_moves():
            probe = position.copy()
            probe.push(move)
            if probe.is_over():
                return game, move
        game.play(position.legal_moves()[0])


def test_the_loop_needs_frames_only_while_something_changes(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        assert 1 / FPS < app.next_frame_in() <= 2.0  # the title: only the hero's float, a pixel at a time
        app, scene = hot_seat(new_app)
        assert app.next_frame_in() is None  # a game waiting for a click
        move = scene.position.legal_moves()[0]
        ui.click_cell(app, move[0])
        assert 1 / FPS < app.next_frame_in() <= 0.1  # the twins' outlines pulse: a slow rate
        ui.click_cell(app, move[1])
        assert app.next_frame_in() == 0.0  # the pair lifts off, the points fly: every frame
        ui.settle(app, 40)
        assert app.next_frame_in() is None

        # the end of a game: the card fades in, then the window sleeps under it
        game, last = nearly_finished_game()
        app.start_match(Match(game))
        ui.play_move(app, last)
        ui.run_until(app, lambda: isinstance(app.stack.top, ResultScene), timeout=5)
        assert app.next_frame_in() == 0.0
        ui.settle(app, 10)
        assert app.next_frame_in() is None


def test_while_the_solver_thinks_the_window_draws_30_frames_a_second(tmp_path, monkeypatch) -> None:
    """The thinking card's spinner and seconds need no more than 30 frames a second (a move in flight
    draws every frame: ``test_the_loop_needs_frames_only_while_something_changes``)."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(new_match(3, "solver", ("Tester", "Tester"), "perfect", human_first=False))
        ui.settle(app, 2)
        assert scene.match.solver_to_move() and not scene.animations  # perfect thinks for seconds
        assert 1 / FPS < app.next_frame_in() <= THINKING_INTERVAL


def test_the_real_loop_sleeps_when_idle_and_draws_every_frame_while_animating(tmp_path, monkeypatch) -> None:
    """``App.run`` itself: a move is clicked at 0.6 s (through a timer event), the window quits a
    second after its animations end. While they run it draws frame after frame, never asleep on
    the event queue; before and after them it sleeps, drawing only when woken. Each frame is judged by what
    the window had to draw then (``next_frame_in``), not by the clock, so a loaded machine that
    draws fewer frames passes alike; how many frames a second a machine draws is
    ``benchmarks/bench_ui.py``'s to measure."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, scene = hot_seat(new_app)
        move = scene.position.legal_moves()[0]
        play_now = pygame.event.custom_type()
        frames: list[tuple[float, bool]] = []
        """When each frame was drawn, and whether an animation ran then (a frame due at once)."""
        draw, dispatch = app.draw, app.dispatch

        def counted_draw() -> None:
            moment, running = time.monotonic() - start, app.next_frame_in() == 0.0
            if frames and frames[-1][1] and not running:  # the animations have ended: quit after a second idle
                pygame.time.set_timer(pygame.QUIT, 1000, loops=1)
            frames.append((moment, running))
            draw()
            if moment > 60:
                app.running = False  # a backstop: the animations never ended

        def scripted_dispatch(event: pygame.event.Event) -> None:
            if event.type == play_now:  # post the clicks as the mouse would
                for cell in move:
                    pos = cell_center(app.layout, cell)
                    pygame.event.post(ui.mouse_down(pos))
                    pygame.event.post(ui.mouse_up(pos))
                return
            dispatch(event)

        slept: list[float] = []
        wait = pygame.event.wait

        def recorded_wait(timeout: int = 0) -> pygame.event.Event:
            slept.append(time.monotonic() - start)
            return wait(timeout)

        monkeypatch.setattr(app, "draw", counted_draw)
        monkeypatch.setattr(app, "dispatch", scripted_dispatch)
        monkeypatch.setattr(pygame.event, "wait", recorded_wait)
        pygame.event.clear()
        start = time.monotonic()
        pygame.time.set_timer(play_now, 600, loops=1)
        app.run()
        assert scene.game.moves == [move]
        animating = [moment for moment, running in frames if running]
        # the lift-off and the flying points last 0.83 s, and a frame moves them on by 0.1 s at most
        assert len(animating) >= 8, frames
        asleep = [moment for moment in slept if animating[0] < moment < animating[-1]]
        assert not asleep, f"the loop slept at {asleep} while the animations ran (frames at {animating})"
        idle = [moment for moment, running in frames if not running]
        # woken by the clicks' timer, their four mouse events, the quit, and at most once a second
        assert len(idle) <= 10, frames
        assert any(moment < animating[0] for moment in slept) and any(moment > animating[-1] for moment in slept)
        assert len(frames) < 0.5 * 3 * FPS, f"{len(frames)} frames in {frames[-1][0]:.1f} s"


# -- 2. the last move is marked -----------------------------------------------------------------------


def test_the_last_move_is_marked_until_the_next_one(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, scene = hot_seat(new_app, deal_number=3)
        first = scene.position.legal_moves()[0]
        ui.play_move(app, first)
        ui.settle(app, 40)
        shot, plain = screen(), drawn_without_last_move(app, scene)
        for cell in first:
            face = cell_rect(app.layout, cell)
            marked, unmarked = region(shot, face), region(plain, face)
            assert scene.position.cells[cell] == EMPTY
            assert np.abs(marked - unmarked).max(axis=2).mean() > 8  # visible...
            assert np.abs(marked - unmarked).mean() < 60  # ...but quiet: no solid block
            red, green, blue = (int(v) for v in shot[face.x + 1, face.y + 1])
            assert red > green + 40 and red > blue + 40  # a corner bracket in player 1's red
            assert circle_in_the_middle(shot, face)  # and player 1's shape, for who cannot tell red

        second = next(m for m in scene.position.legal_moves() if not set(m) & set(first))
        ui.play_move(app, second)
        ui.settle(app, 40)
        shot, plain = screen(), drawn_without_last_move(app, scene)
        for cell in first:  # the old mark is gone
            face = cell_rect(app.layout, cell)
            assert np.array_equal(region(shot, face), region(plain, face))
        for cell in second:
            face = cell_rect(app.layout, cell)
            red, green, blue = (int(v) for v in shot[face.x + 1, face.y + 1])
            assert blue > red + 40  # player 2's blue
            assert not circle_in_the_middle(shot, face)  # a diamond

        # the move taken back: its cells hold tiles again, the mark goes back to the first move
        ui.key(app, pygame.K_u)
        ui.settle(app, 5)
        assert scene.board_state().last_move == first


# -- 3. the keyboard cursor leaves an emptied cell ----------------------------------------------------


def test_the_cursor_leaves_the_cell_its_own_move_emptied(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, scene = hot_seat(new_app, deal_number=3)
        move = scene.position.legal_moves()[0]
        for cell in move:
            ui.walk_cursor(app, scene, cell)
            ui.key(app, pygame.K_RETURN)
        assert scene.game.moves == [move]
        emptied = move[1]
        assert scene.cursor != emptied and scene.cursor_visible
        assert scene.position.cells[scene.cursor] != EMPTY
        assert scene.cursor == nearest_cell(scene.position.free_cells(), emptied)
        assert scene.board_state().cursor == scene.cursor  # and it is drawn there
        ui.key(app, pygame.K_DOWN)  # the arrows go on from there, over free tiles
        assert scene.cursor in scene.position.free_cells()


class StubEngine:
    """Stands in for the solver's engine: the scripted opponent below never searches."""

    def stop(self) -> None:
        pass

    def clear_stop(self) -> None:
        pass


def test_the_cursor_leaves_the_cell_the_opponents_move_emptied(tmp_path, monkeypatch) -> None:
    """The solver (scripted to take the pair under the cursor) empties the cell the player points at."""
    release = threading.Event()
    wanted: list[int] = []

    def scripted_level(level: str, rng: random.Random, position: Position):  # noqa: ANN202 - a run callable
        def run(engine: object, task: object) -> tuple[int, int]:
            release.wait(20)
            return next(m for m in position.legal_moves() if wanted[0] in m)

        return run

    monkeypatch.setattr(game_mode_module, "level_move", scripted_level)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        app.solver = SearchWorker(StubEngine)
        app.solver.warm_up()  # ready: the scripted search answers, not the first run's plain Python
        ui.run_until(app, lambda: app.solver.ready)
        scene = app.start_match(new_match(3, "solver", ("Tester", "Tester"), "club", human_first=True))
        mine = scene.position.legal_moves()[0]
        for cell in mine:
            ui.walk_cursor(app, scene, cell)
            ui.key(app, pygame.K_RETURN)
        assert scene.game.moves == [mine] and scene.match.solver_to_move()
        # while the solver thinks, the player points at a tile of a pair with the keyboard
        position = scene.position
        target = next(c for m in position.legal_moves() for c in m if c != scene.cursor)
        ui.walk_cursor(app, scene, target)
        wanted.append(target)
        release.set()
        ui.run_until(app, lambda: scene.game.ply == 2, timeout=20)
        assert target in scene.game.moves[-1]
        assert scene.position.cells[target] == EMPTY
        assert scene.cursor != target and scene.position.cells[scene.cursor] != EMPTY
        assert scene.cursor == nearest_cell(scene.position.free_cells(), target)


# -- 4. the editor's and the review's labels ----------------------------------------------------------


def test_the_editor_names_the_fifth_copy_just_placed(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        editor = app.open_editor()
        ui.settle(app, 1)
        kind = parse_kind("7p")
        ui.click(app, editor.geometry().palette[kind].center)
        assert editor.kind == kind
        for name in ("a2", "b2", "c2", "d2", "a1", "b1"):  # four copies, then the fifth at a1 (before a2 in
            ui.click_cell(app, parse_cell(name))  # reading order), then a sixth at b1
            if name == "a1":
                text = editor.status().text
                assert "fifth" in text and "a1" in text and "d2" not in text, text
        text = editor.status().text
        assert "b1" in text and "6" in text and "d2" not in text, text


def gold_line_at(surface: pygame.Surface, x: int, y: int) -> bool:
    """The graph's cursor, a 2 px gold line, crosses row ``y`` at column ``x`` (give or take a pixel)."""
    return any(tuple(surface.get_at((column, y)))[:3] == theme.GOLD_BRIGHT for column in (x - 1, x, x + 1))


def test_the_review_graph_cursor_sits_on_the_selected_move_and_tags_stay_on_the_board(tmp_path, monkeypatch) -> None:
    game = short_game()
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.open_review(game, time_per_move=2.0)
        ui.run_until(app, lambda: scene.review is not None or scene.failed is not None, timeout=60)
        assert isinstance(scene, ReviewScene) and scene.failed is None
        review = scene.review
        count = len(review.moves)
        geo = scene.geometry
        graph = geo.graph
        board = geo.board.board
        seen_edges = 0
        for index in range(count):
            row = move_row_rect(scene.geometry, index, scene.first_row)
            if row is None:
                ui.key(app, pygame.K_DOWN)
            else:
                ui.click(app, row.center)
            assert scene.selected == index
            number = review.moves[index].number
            assert scene.graph_cursor_ply() == number  # move k's marker is at x of ply k
            x = graph.x + round(x_of_ply((graph.w, graph.h), count, number, scene.graph_text_scale()))
            shot = pygame.display.get_surface()
            top, bottom = cursor_segments(scene.graph_picture((graph.w, graph.h)), x - graph.x, 2)[0]
            y = graph.y + (top + bottom) // 2  # inside the plot, where the cursor stands
            assert gold_line_at(shot, x, y), "the cursor is not on the move's point"
            before = graph.x + round(x_of_ply((graph.w, graph.h), count, number - 1, scene.graph_text_scale()))
            assert not gold_line_at(shot, before, y), "the cursor is a move to the left"

            frames = move_marks(*scene.marks())
            seen_edges += sum(1 for cell in frames if cell // 9 in (0, 11) or cell % 9 == 8)
            for chip, _, label in mark_labels(app.fonts, geo.board, frames):
                assert board.x <= chip.x and chip.right <= board.right, (label, chip, board)
                assert board.y <= chip.y and chip.bottom <= board.bottom, (label, chip, board)
        assert seen_edges > 0  # the game did mark tiles on the board's edges

        # the last point of the graph is the final position's, after the last move
        ui.key(app, pygame.K_END)
        assert scene.selected == count and scene.graph_cursor_ply() == count

        # the review's status line (the longest the window writes) is whole at 1200x800
        ui.key(app, pygame.K_HOME)
        text = scene.status().text
        placed = status_layout(app.fonts, geo.board, text, REVIEW_KEYS_HELP)
        assert " ".join(line for line, _ in placed.lines) == text


# -- 5. status lines and panel lines fit ---------------------------------------------------------------


def assert_fits(app, text: str, keys_help: str, max_lines: int) -> None:  # noqa: ANN001
    """The message is laid out whole, inside the status area, clear of the shortcut strip."""
    layout = app.layout
    placed = status_layout(app.fonts, layout, text, keys_help)
    status = pygame.Rect(layout.status.as_tuple())
    assert " ".join(line for line, _ in placed.lines) == text, "cut"
    assert 1 <= len(placed.lines) <= max_lines
    for line, rect in placed.lines:
        assert status.contains(rect), (line, rect, status)
        assert app.fonts.width(line, placed.size) <= rect.w
        assert placed.keys is None or not rect.colliderect(placed.keys), "the shortcut strip covers the text"


@pytest.mark.parametrize(("size", "max_lines"), [((1200, 800), 2), ((800, 600), 3)])
def test_the_longest_status_messages_fit_whole(tmp_path, monkeypatch, size, max_lines) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, scene = hot_seat(new_app, deal_number=1, size=size, names=("Alexandrina", "Bartholomew"))
        messages = []
        position = scene.position
        blocked = next(c for c in range(108) if position.cells[c] != EMPTY and not position.is_free(c))
        ui.click_cell(app, blocked)
        assert "not free" in scene.status.text
        messages.append((scene.status.text, KEYS_HELP))
        free = position.free_cells()
        first = free[0]
        other = next(c for c in free if position.cells[c] != position.cells[first])
        ui.click_cell(app, first)
        ui.click_cell(app, other)  # a mismatch: the reason and the new selection's twins
        messages.append((scene.status.text, KEYS_HELP))
        ui.key(app, pygame.K_ESCAPE)
        ui.play_move(app, max(position.legal_moves(), key=lambda m: (position.move_points(m), m)))
        messages.append((scene.status.text, KEYS_HELP))  # who took what, and who moves next
        ui.key(app, pygame.K_a)
        messages.append((scene.status.text, STUDY_KEYS_HELP))  # the analysis intro, the longest
        ui.key(app, pygame.K_a)
        assert scene.analysis is None
        assert any(len(text) > 110 for text, _ in messages)
        for text, keys_help in messages:
            assert_fits(app, text, keys_help, max_lines)
        app.step([], ui.DT)

        # the cards' roles: a level's description is read whole, on up to three lines
        info = scene.panel_info()
        panel = app.layout.panel
        for description in app._levels.values():
            player = dataclasses.replace(info.players[1], role=description, to_move=True)
            lines = app.panel_view.role_lines(panel.cards[1], player, panel.pad, app.layout.scale)
            assert " ".join(lines).split() == f"to move · {description}".split() and len(lines) <= 3, lines


def test_a_short_message_shares_its_line_with_the_shortcuts(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, scene = hot_seat(new_app)
        placed = status_layout(app.fonts, app.layout, scene.status.text, KEYS_HELP)
        assert len(placed.lines) == 1 and placed.keys is not None
        assert placed.keys.centery == placed.lines[0][1].centery
