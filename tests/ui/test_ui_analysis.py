"""Analysis mode in the window, headless: live values, the best line, variations, what a move opens.

The values the board shows are checked against the solver's own answer for the
same position (``Engine().search(..., all_exact=True)``), on small endgames that
are solved in a moment.
"""

from __future__ import annotations

import random
import time

import pygame
import pytest

from battle import i18n
from battle.players import Advisor
from battle.rules.board import Position, cell_name, move_name, parse_cell
from battle.rules.deal import deal
from battle.rules.game import Game
from battle.rules.opens import describe_opening, what_opens
from battle.rules.tiles import EMPTY
from battle.ui.analysis.analysis_mode import move_badges, pick_move, projection
from battle.ui.analysis.analysis_view import badge_rect, badge_spots
from battle.ui.analysis.study_view import study_info
from battle.ui.demos import demo_analysis_game
from battle.ui.live_analysis import LiveAnalysis, depth_schedule
from battle.ui.match import Match, new_match
from battle.ui.widgets.board_view import face_rect
from battle.ui.widgets.layout import cell_center, cell_rect, compute_layout
from solver.engine import Engine
from solver.limits import Limits
from tests import ui_harness as ui
from tests.rules.test_opens import column_c_study
from tests.ui.drawn_text import record_texts


def endgame(seed: int, tiles: int = 16) -> Position:
    """A numbered deal played by seeded random moves down to ``tiles`` tiles, with a choice of pairs."""
    rng = random.Random(seed)
    while True:
        position = deal(rng.randrange(1 << 32))
        while position.tiles_left() > tiles and not position.is_over():
            position.push(rng.choice(position.legal_moves()))
        if not position.is_over() and len(position.legal_moves()) >= 2:
            return position.copy()


def analysing(new_app, position: Position):  # noqa: ANN001, ANN201
    """An app on a hot-seat game from ``position``, analysis on and solved."""
    app = new_app()
    scene = app.start_match(Match(Game(position, "Ann", "Ben")))
    ui.key(app, pygame.K_a)
    assert scene.analysis is not None
    ui.run_until(app, lambda: scene.analysis.analysis is not None and scene.analysis.analysis.exact, timeout=30)
    return app, scene


def moved(position: Position, moves: list) -> Position:
    shown = position.copy()
    for move in moves:
        shown.push(move)
    return shown


def test_the_board_shows_the_solvers_values(tmp_path, monkeypatch) -> None:
    position = endgame(3)
    expected = Engine(table_bits=16).search(position.copy(), all_exact=True)
    assert expected.exact
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, scene = analysing(new_app, position)
        badges = scene.analysis.badges()
        assert set(badges) == set(position.legal_moves())
        for value in expected.move_values:
            badge = badges[value.move]
            assert (badge.value, badge.bound) == (value.value, "exact")
            assert badge.label == f"{value.value:+d}"
            assert badge.best == (value.move in expected.best_moves)
        # the panel's evaluation bar projects the solver's final score
        bar = scene.analysis.projection()
        assert bar.exact and bar.scores == tuple(float(s) for s in expected.final_score)
        # the best line in the panel is a best line: it starts with a best move and ends at that score
        line = scene.analysis.pv
        assert line[0] in expected.best_moves
        assert tuple(moved(position, line).scores) == expected.final_score
        assert [entry[2] for entry in study_info(scene.mode).pv] == [move_name(move) for move in line]
        # every pair has a badge on each of its tiles, where the board draws them
        spots = badge_spots(app.layout, position, list(badges))
        assert {(spot.move, spot.cell) for spot in spots} == {(move, cell) for move in badges for cell in move}
        app.step([], ui.DT)  # and it all draws


def test_stepping_the_best_line_previews_it_and_back_to_game_restores(tmp_path, monkeypatch) -> None:
    position = endgame(8)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, scene = analysing(new_app, position)
        study = scene.analysis
        pv = list(study.pv)
        assert len(pv) >= 2
        ui.key(app, pygame.K_PERIOD)
        assert scene.board_state().cells == moved(position, pv[:1]).cells
        ui.click_button(app, scene.buttons["pv_forward"])
        assert scene.board_state().cells == moved(position, pv[:2]).cells
        assert scene.board_state().hint == (pv[2] if len(pv) > 2 else None)  # the next move of the line
        assert scene.analysis.badges() == {}  # values belong to the study position, not the preview
        ui.key(app, pygame.K_COMMA)
        assert scene.board_state().cells == moved(position, pv[:1]).cells
        ui.key(app, pygame.K_b)
        assert scene.board_state().cells == position.cells
        assert scene.game.ply == 0 and scene.game.position == position


def test_a_variation_does_not_touch_the_game(tmp_path, monkeypatch) -> None:
    position = endgame(5)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, scene = analysing(new_app, position)
        game = scene.game
        record = game.to_text()
        first = min(position.legal_moves(), key=lambda move: scene.analysis.badges()[move].value)
        ui.play_move(app, first)
        assert scene.analysis.variation == [first]
        assert game.moves == [] and game.to_text() == record
        assert scene.board_state().cells == moved(position, [first]).cells
        # the values follow the variation
        ui.run_until(app, lambda: scene.analysis.analysis is not None and scene.analysis.analysis.exact)
        child = moved(position, [first])
        assert set(scene.analysis.badges()) == set(child.legal_moves())
        # play on along the best line, then take a move back
        ui.key(app, pygame.K_p)
        assert len(scene.analysis.variation) == 2
        ui.key(app, pygame.K_u)
        assert scene.analysis.variation == [first]
        ui.click_button(app, scene.buttons["back_game"])
        assert scene.analysis.variation == [] and scene.board_state().cells == position.cells
        ui.play_move(app, first)
        ui.key(app, pygame.K_a)  # analysis off: the game as it was, and it goes on from there
        assert scene.analysis is None and scene.board_state().cells == position.cells
        assert game.moves == [] and game.to_text() == record
        ui.play_move(app, first)
        assert game.moves == [first]


def test_the_pointed_pairs_line_names_the_opponents_pair_in_words_in_german(tmp_path, monkeypatch) -> None:
    """The status line a German player reads while pointing at c1: the move and the cells in
    notation, the pair it gives the opponent in words, as every sentence of the window names tiles."""
    position = column_c_study()
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(language="de")
        try:
            scene = app.start_match(Match(Game(position, "Ann", "Ben")))
            ui.key(app, pygame.K_a)
            ui.run_until(app, lambda: scene.analysis.analysis is not None and scene.analysis.analysis.exact, timeout=30)
            recorder = record_texts(app, monkeypatch)
            motion = pygame.event.Event(
                pygame.MOUSEMOTION, pos=cell_center(app.layout, parse_cell("c1")), rel=(0, 0), buttons=(0, 0, 0)
            )
            app.step([motion], ui.DT)
            drawn = recorder.texts()
        finally:
            i18n.set_language("en")
    expected = "c1-c9 macht c2 (7p), c8 (3s) frei: der Gegner bekommt ein Paar Münzen-Sieben (7) · Wert "
    assert any(text.startswith(expected) for text in drawn), drawn


def test_hovering_a_pair_tells_what_it_opens(tmp_path, monkeypatch) -> None:
    position = endgame(11, tiles=20)
    with ui.session(tmp_path, monkeypatch) as new_app:
        app, scene = analysing(new_app, position)
        badges = scene.analysis.badges()
        for move in position.legal_moves():
            cell = move[0]
            app.step(
                [
                    pygame.event.Event(
                        pygame.MOUSEMOTION, pos=cell_center(app.layout, cell), rel=(0, 0), buttons=(0, 0, 0)
                    )
                ],
                ui.DT,
            )
            chosen = pick_move(position, cell, None, badges)
            assert cell in chosen
            assert scene.mode.opening == what_opens(position, chosen)
            assert scene.mode.opening_text().startswith(describe_opening(scene.mode.opening))
            assert badges[chosen].describe() in scene.mode.opening_text()
        # with a tile selected, pointing at its twin explains that very pair
        move = position.legal_moves()[-1]
        ui.click_cell(app, move[0])
        app.step(
            [
                pygame.event.Event(
                    pygame.MOUSEMOTION, pos=cell_center(app.layout, move[1]), rel=(0, 0), buttons=(0, 0, 0)
                )
            ],
            ui.DT,
        )
        assert scene.mode.opening.move == move


def test_the_solver_waits_while_its_game_is_analysed(tmp_path, monkeypatch) -> None:
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app()
        scene = app.start_match(new_match(9, "solver", ("Me", "Me"), "beginner", human_first=False))
        ui.key(app, pygame.K_a)
        deadline = time.monotonic() + 0.6
        while time.monotonic() < deadline:
            app.step([], ui.DT)
        assert scene.match.game.ply == 0 and scene.game_mode.move_job is None
        ui.key(app, pygame.K_a)
        ui.run_until(app, lambda: scene.match.game.ply == 1)


def test_live_analysis_deepens_step_by_step_to_the_proof() -> None:
    position = endgame(21, tiles=24)
    assert depth_schedule(position) == [2, 4, 6, 8, 10, None]
    assert depth_schedule(endgame(21, tiles=4)) == [None]
    live = LiveAnalysis(lambda: Advisor(megabytes=32))
    live.analyse(position)
    depths = []
    deadline = time.monotonic() + 30
    while not live.finished:
        assert time.monotonic() < deadline
        if live.poll():
            depths.append(live.latest.depth)
        time.sleep(0.002)
    assert live.latest.exact and depths[-1] == 127
    assert depths == sorted(depths)
    # a position analysed before comes back at once (from the cache), without a search
    other = moved(position, [position.legal_moves()[0]])
    live.analyse(other)
    live.analyse(position)
    assert live.latest.exact and live.finished and live.current_for(position) is live.latest
    live.shutdown()
    assert live.wait_idle(5)


def test_badges_and_projection_from_a_depth_limited_search() -> None:
    position = endgame(4, tiles=30)
    analysis = Engine(table_bits=16).search(position.copy(), Limits(depth=2), all_exact=True)
    badges = move_badges(analysis)
    assert badges and all(badge.bound == "estimate" and badge.label.startswith("~") for badge in badges.values())
    assert all("depth 2" in badge.describe() for badge in badges.values())
    bar = projection(position, analysis)
    assert not bar.exact and bar.undecided > 0
    assert bar.scores[0] - bar.scores[1] == pytest.approx(bar.margin)


@pytest.mark.parametrize("size", [(640, 440), (1900, 1100)])
def test_badges_stay_on_the_window(size) -> None:  # noqa: ANN001
    layout = compute_layout(*size)
    position = endgame(6, tiles=40)
    moves = position.legal_moves()
    for spot in badge_spots(layout, position, moves):
        assert 0 <= spot.centre[0] < size[0] and 0 <= spot.centre[1] < size[1]


@pytest.mark.parametrize("size", [(800, 600), (1200, 800)])
def test_badges_leave_every_tile_face_whole(tmp_path, monkeypatch, size: tuple[int, int]) -> None:
    """The analysis demo's endgame (a tile in two pairs on the first row, stacked badges in the
    middle of the board) with analysis switched on by its key, solved and drawn: no badge lies on
    any tile's face, its own or another's, and every badge is on the window."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(size)
        scene = app.start_match(Match(demo_analysis_game()))
        ui.key(app, pygame.K_a)
        assert scene.analysis is not None
        scene.hover_cell = None

        def solved() -> bool:
            badges = scene.analysis.badges()
            return bool(badges) and all(badge.exact for badge in badges.values())

        ui.run_until(app, solved, timeout=60)
        app.step([], ui.DT)  # a real frame with the badges on it
        position = scene.analysis.position
        badges = scene.analysis.badges()
        spots = badge_spots(app.layout, position, sorted(badges, key=lambda move: (-badges[move].value, move)))
        assert any(spot.partner is not None for spot in spots), "the demo has a tile in several pairs"
        faces = {
            cell: pygame.Rect(face_rect(cell_rect(app.layout, cell)).as_tuple())
            for cell in range(len(position.cells))
            if position.cells[cell] != EMPTY
        }
        window = pygame.Rect(0, 0, *size)
        for spot in spots:
            pill = badge_rect(app.fonts, app.layout, spot, badges[spot.move])
            covered = [cell_name(cell) for cell, face in faces.items() if pill.colliderect(face)]
            assert covered == [], f"{badges[spot.move].label} of {move_name(spot.move)} on {covered} at {size}"
            assert window.contains(pill), (pill, size)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_legend_shows_every_badge_colour_in_either_language(tmp_path, monkeypatch, language: str) -> None:
    """The legend under the analysis panel names all four chips, the estimate's "~" too, at the
    window's default size: German's longer words are drawn in smaller type, never left out."""
    with ui.session(tmp_path, monkeypatch) as new_app:
        app = new_app(language=language)
        try:
            app, scene = analysing(lambda: app, endgame(3))
            recorder = record_texts(app, monkeypatch)
            app.step([], ui.DT)
            drawn = recorder.texts()
        finally:
            i18n.set_language("en")
    estimate = "~ estimate" if language == "en" else "~ Schätzung"
    assert estimate in drawn and ("10 worse" if language == "en" else "10 zurück") in drawn, drawn
